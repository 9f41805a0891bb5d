// The texts of the emails the portal sends. Plain text only: names go in as typed, and no mail
// client will run them.
import { PASSWORD_SETUP_VALID_DAYS } from '../../src/domain/customers';

export const PRODUCT_NAME = 'Admin Portal';

export interface ComposedEmail {
  subject: string;
  text: string;
}

export function passwordSetupEmail(input: {
  name: string;
  company: string;
  link: string;
  expiresAt: Date;
  /** 'created': the first link, with the new account; 'reissued': a replacement link. */
  reason: 'created' | 'reissued';
}): ComposedEmail {
  const expires = `${input.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const opening =
    input.reason === 'created'
      ? `An account has been created for you${input.company ? ` (${input.company})` : ''} on the ${PRODUCT_NAME}.`
      : `Here is a new link to choose your ${PRODUCT_NAME} password. Links sent to you before no longer work.`;
  return {
    subject: input.reason === 'created' ? `Set up your ${PRODUCT_NAME} password` : `Your new ${PRODUCT_NAME} password link`,
    text: [
      `Hello ${input.name},`,
      '',
      opening,
      'Choose your password here:',
      '',
      input.link,
      '',
      `The link works once and expires in ${PASSWORD_SETUP_VALID_DAYS} days (${expires}).`,
      'If it has expired, ask your administrator for a new one.',
      '',
      `- ${PRODUCT_NAME}`,
    ].join('\n'),
  };
}
