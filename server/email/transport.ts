// The SMTP side of outgoing email: nodemailer over SMTP_URL. Anything with the same `sendMail`
// can stand in (the tests use a small SMTP server on an ephemeral port instead of a fake here).
import nodemailer from 'nodemailer';

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
}

export interface MailTransport {
  sendMail(message: MailMessage): Promise<unknown>;
}

/** Bounded waits: a request that sends mail must not hang on a dead mail server. */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as const;

/** A transport for an smtp:// or smtps:// URL (user and password may be in the URL). */
export function createSmtpTransport(url: string): MailTransport {
  return nodemailer.createTransport({ url, ...SMTP_TIMEOUTS });
}
