// Forgot password: the texts and limits both ends share. The answer is the same whether
// or not an account has the address, so the page cannot be used to find out who is a customer.
import { isEmailAddress } from './customers';

/** How long a reset link works. */
export const RESET_LINK_VALID_MINUTES = 60;
/** At most one reset email per account in this many minutes; more requests are answered the same and send nothing. */
export const RESET_EMAIL_INTERVAL_MINUTES = 5;
/** Requests one address (IP) may make in RESET_REQUEST_WINDOW; its own budget, apart from sign-ins. */
export const RESET_REQUESTS_PER_WINDOW = 5;
export const RESET_REQUEST_WINDOW = '15 minutes';

export const FORGOT_PASSWORD_MESSAGES = {
  title: 'Forgot your password?',
  intro: "Enter the email address you sign in with. We'll send you a link to choose a new password.",
  emailLabel: 'Email',
  submit: 'Send reset link',
  sending: 'Sending…',
  /** The one answer, whether the address has an account or not. */
  sent: "If an account exists for that address, we've sent a link to reset your password. The link works once and expires in 1 hour.",
  backToLogin: 'Back to sign in',
  emailRequired: 'Email is required',
  emailInvalid: 'Enter a valid email address',
  emailTooLong: 'Email is too long',
  tooMany: (after: string) => `Too many password reset requests from this address. Try again in ${after}.`,
} as const;

/** `POST /auth/forgot-password` body. */
export interface ForgotPasswordPayload {
  email: string;
}

export const EMAIL_MAX_LENGTH = 320;

/** What is wrong with a typed address, or null: the same rule on the page and the server. */
export function forgotPasswordEmailProblem(typed: string): string | null {
  const email = typed.trim();
  if (!email) return FORGOT_PASSWORD_MESSAGES.emailRequired;
  if (email.length > EMAIL_MAX_LENGTH) return FORGOT_PASSWORD_MESSAGES.emailTooLong;
  if (!isEmailAddress(email)) return FORGOT_PASSWORD_MESSAGES.emailInvalid;
  return null;
}
