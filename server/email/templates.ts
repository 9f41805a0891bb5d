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

/** An invitation into a customer organisation: the invitee chooses their name and password at the link. */
export function invitationEmail(input: { name: string; company: string; inviter: string; role: string; link: string; expiresAt: Date; validDays: number }): ComposedEmail {
  const expires = `${input.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const organisation = input.company || 'their organisation';
  return {
    subject: `You are invited to ${organisation} on the ${PRODUCT_NAME}`,
    text: [
      `Hello ${input.name},`,
      '',
      `${input.inviter} invites you to join ${organisation} on the ${PRODUCT_NAME} as ${input.role}.`,
      'Accept the invitation and choose your password here:',
      '',
      input.link,
      '',
      `The link works once and expires in ${input.validDays} days (${expires}).`,
      'If you did not expect this, ignore this email.',
      '',
      `- ${PRODUCT_NAME}`,
    ].join('\n'),
  };
}

/** A forgot-password link: asked for on the sign-in page, valid for an hour. */
export function passwordResetEmail(input: { name: string; link: string; expiresAt: Date; validMinutes: number }): ComposedEmail {
  const expires = `${input.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return {
    subject: `Reset your ${PRODUCT_NAME} password`,
    text: [
      `Hello ${input.name},`,
      '',
      `Someone asked to reset the password of your ${PRODUCT_NAME} account. Choose a new password here:`,
      '',
      input.link,
      '',
      `The link works once and expires in ${input.validMinutes} minutes (${expires}). Reset links sent to you before no longer work.`,
      'If you did not ask for this, ignore this email: your password stays as it is.',
      '',
      `- ${PRODUCT_NAME}`,
    ].join('\n'),
  };
}

/** A customer's plan-change or top-up request was approved or declined by an administrator. */
export function requestDecidedEmail(input: { name: string; asked: string; serviceLineNumber: string; decision: 'approved' | 'declined'; reason: string | null }): ComposedEmail {
  const approved = input.decision === 'approved';
  return {
    subject: approved ? 'Your request was approved' : 'Your request was declined',
    text: [
      `Hello ${input.name},`,
      '',
      approved
        ? `Your request for ${input.asked} on service line ${input.serviceLineNumber} was approved and has been carried out.`
        : `Your request for ${input.asked} on service line ${input.serviceLineNumber} was declined.`,
      ...(approved || !input.reason ? [] : ['', `Reason: ${input.reason}`]),
      '',
      `You can see all your requests under My Requests on the ${PRODUCT_NAME}.`,
      '',
      `- ${PRODUCT_NAME}`,
    ].join('\n'),
  };
}

/** One alert, or a digest when a run opened many for the same reader. */
export function alertsEmail(input: { name: string; alerts: readonly { title: string; message: string; severity: string }[]; link: string | null }): ComposedEmail {
  const { alerts } = input;
  const first = alerts[0];
  const footer = [...(input.link ? ['', `See them in the ${PRODUCT_NAME}: ${input.link}`] : []), '', `- ${PRODUCT_NAME}`];
  if (alerts.length === 1 && first) {
    return {
      subject: `Alert: ${first.title}`,
      text: [`Hello ${input.name},`, '', `${first.message}`, '', `Severity: ${first.severity}.`, ...footer].join('\n'),
    };
  }
  const listed = alerts.slice(0, 20).map((a) => `- ${a.title}: ${a.message}`);
  const more = alerts.length > listed.length ? [`…and ${alerts.length - listed.length} more.`] : [];
  return {
    subject: `${alerts.length} new alerts`,
    text: [`Hello ${input.name},`, '', `${alerts.length} alerts opened:`, '', ...listed, ...more, ...footer].join('\n'),
  };
}

/** A customer told of a change the portal made on its own to one of their lines (an alert rule's action). */
export function automaticActionEmail(input: { name: string; serviceLineNumber: string; what: string; why: string; link: string | null }): ComposedEmail {
  return {
    subject: `Your service line ${input.serviceLineNumber}: ${input.what}`,
    text: [
      `Hello ${input.name},`,
      '',
      `${input.what} on service line ${input.serviceLineNumber}.`,
      `Why: ${input.why}.`,
      ...(input.link ? ['', `See it in the ${PRODUCT_NAME}: ${input.link}`] : []),
      '',
      `- ${PRODUCT_NAME}`,
    ].join('\n'),
  };
}

/** A customer's receipt for a payment recorded against their statements. */
export function paymentReceivedEmail(input: { name: string; amount: string; receivedOn: string; statements: readonly string[] }): ComposedEmail {
  const paid = input.statements.length > 0 ? `It paid statement${input.statements.length > 1 ? 's' : ''} ${input.statements.join(', ')}.` : 'It is kept as credit for your next statement.';
  return {
    subject: `Payment received: ${input.amount}`,
    text: [`Hello ${input.name},`, '', `We received your payment of ${input.amount} on ${input.receivedOn}. ${paid}`, '', 'Thank you.', '', `- ${PRODUCT_NAME}`].join('\n'),
  };
}

/** A dunning letter: a reminder, the final notice, or the block of portal access and its lifting. */
export function dunningEmail(input: {
  name: string;
  step: 'reminder' | 'final_notice' | 'block' | 'unblock';
  statement: string;
  amount: string;
  dueOn: string;
  blockOn: string | null;
  link: string | null;
}): ComposedEmail {
  const seeIt = input.link ? ['', `See your statements and payments in the ${PRODUCT_NAME}: ${input.link}`] : [];
  const bodies: Record<typeof input.step, { subject: string; lines: string[] }> = {
    reminder: {
      subject: `Payment reminder: statement ${input.statement}`,
      lines: [`Statement ${input.statement} was due on ${input.dueOn}, and ${input.amount} of it is still unpaid.`, 'If you have paid it already, thank you, and please ignore this message.'],
    },
    final_notice: {
      subject: `Final notice: statement ${input.statement}`,
      lines: [
        `Statement ${input.statement} was due on ${input.dueOn}, and ${input.amount} of it is still unpaid.`,
        input.blockOn ? `Unless it is paid, your access to the portal will be blocked on ${input.blockOn}.` : 'Please pay it now.',
      ],
    },
    block: {
      subject: `Portal access blocked: statement ${input.statement} unpaid`,
      lines: [`Statement ${input.statement} was due on ${input.dueOn}, and ${input.amount} of it is still unpaid, so your access to the portal is blocked.`, 'It is unblocked as soon as nothing is overdue.'],
    },
    unblock: {
      subject: 'Portal access restored',
      lines: ['Thank you for your payment. Nothing is overdue any more, and your access to the portal is restored.'],
    },
  };
  const { subject, lines } = bodies[input.step];
  return { subject, text: [`Hello ${input.name},`, '', ...lines, ...(input.step === 'unblock' ? [] : seeIt), '', `- ${PRODUCT_NAME}`].join('\n') };
}
