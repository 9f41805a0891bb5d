// Outgoing email. Every message is first recorded in email_outbox — inside the transaction of the
// change that wants it, so a change is never committed without its message nor a message without
// its change — then, after the commit, sent through SMTP when SMTP_URL is set; the row keeps when
// it left or why it did not. Delivery never throws: a mail server that is down must not undo the
// change that wanted to send the message.
import type { FastifyBaseLogger } from 'fastify';
import { isoOrNull, type Clock } from '../clock';
import type { Db } from '../db/client';
import type { EmailOutboxRepository } from '../db/repositories/email-outbox';
import type { EmailOutboxRow } from '../db/schema';
import type { MailTransport } from '../email/transport';

/** One outbox message as `GET /api/v1/email-outbox` answers it. */
export interface EmailOutboxMessage {
  to: string;
  subject: string;
  text: string;
  createdAt: string;
  sentAt: string | null;
  error: string | null;
}

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
}

export type EmailLogger = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

export interface EmailDelivery {
  outboxId: number;
  /** 'sent': accepted by the SMTP server; 'recorded': no SMTP server configured; 'failed': see error. */
  status: 'sent' | 'recorded' | 'failed';
  error: string | null;
}

/** A message recorded in the outbox, waiting for its transaction to commit before it is sent. */
export interface RecordedEmail extends OutgoingEmail {
  outboxId: number;
}

export interface EmailSender {
  /** Records the message in the outbox, in `tx` (the transaction of the change it belongs to). */
  record(email: OutgoingEmail, tx?: Db): Promise<RecordedEmail>;
  /**
   * Sends a recorded message when it can (after the commit), logs, never throws. `logFields` (e.g.
   * the link) are logged only when it was not sent.
   */
  deliver(email: RecordedEmail, options: { log: EmailLogger; logFields?: Record<string, unknown> }): Promise<EmailDelivery>;
}

export interface EmailOutboxService {
  list(filter: { to?: string | null; limit: number }): Promise<EmailOutboxMessage[]>;
}

/** Error text kept in the outbox: enough to act on, never unbounded. */
const MAX_ERROR_LENGTH = 1000;

export function createEmailSender(deps: {
  outbox: EmailOutboxRepository;
  transport: MailTransport | null;
  from: string;
  now: Clock;
}): EmailSender {
  const { outbox, transport, from, now } = deps;
  return {
    async record(email, tx) {
      const row = await outbox.insert({ recipient: email.to, subject: email.subject, bodyText: email.text, createdAt: now() }, tx);
      return { ...email, outboxId: row.id };
    },

    async deliver(email, { log, logFields = {} }) {
      const delivered = { outboxId: email.outboxId, to: email.to, subject: email.subject };
      // `logFields` (e.g. the live link) go to the log only when the email did not go out, so an
      // operator can pass it on by hand; a delivered link stays out of the logs.
      const fields = { ...delivered, ...logFields };
      if (!transport) {
        log.info(fields, 'Email recorded in the outbox (no SMTP_URL, not sent)');
        return { outboxId: email.outboxId, status: 'recorded', error: null };
      }
      try {
        await transport.sendMail({ from, to: email.to, subject: email.subject, text: email.text });
        await outbox.markSent(email.outboxId, now());
        log.info(delivered, 'Email sent');
        return { outboxId: email.outboxId, status: 'sent', error: null };
      } catch (error) {
        const message = (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_LENGTH) || 'Unknown error';
        log.warn({ ...fields, err: error }, 'Email could not be sent; recorded in the outbox with the error');
        try {
          await outbox.markFailed(email.outboxId, message);
        } catch (recordError) {
          log.error({ outboxId: email.outboxId, err: recordError }, 'Could not record the email error');
        }
        return { outboxId: email.outboxId, status: 'failed', error: message };
      }
    },
  };
}

export function toOutboxMessage(row: EmailOutboxRow): EmailOutboxMessage {
  return {
    to: row.recipient,
    subject: row.subject,
    text: row.bodyText,
    createdAt: row.createdAt.toISOString(),
    sentAt: isoOrNull(row.sentAt),
    error: row.error,
  };
}

export function createEmailOutboxService(deps: { outbox: EmailOutboxRepository }): EmailOutboxService {
  return {
    async list({ to, limit }) {
      const rows = await deps.outbox.listRecent({ recipient: to?.trim() || null, limit });
      return rows.map(toOutboxMessage);
    },
  };
}
