// Forgot password: POST /auth/forgot-password mails a single-use reset link to the live
// account (customer or portal user: the sign-in page is shared) with that address. The answer is
// the same whatever happened — no account, a blocked one, a link sent a minute ago — and the mail
// goes out after the answer, so neither the words nor the time tell who has an account. The link
// is a password_setup_tokens row with purpose 'reset', used through the set-password page
// (customers-password-setup.ts) like a set-up link.
import { randomBytes } from 'node:crypto';
import { RESET_EMAIL_INTERVAL_MINUTES, RESET_LINK_VALID_MINUTES, forgotPasswordEmailProblem } from '../../src/domain/password-reset';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import type { Repositories } from '../db/repositories';
import type { ResetOwner } from '../db/repositories/password-resets';
import type { AccountRow } from '../db/schema';
import { passwordResetEmail } from '../email/templates';
import { BadRequestError } from '../errors';
import { accountRefusal } from './account-status';
import type { AuditService } from './audit';
import { hashSetupToken, setPasswordUrl, type LinkContext } from './customers-password-setup';
import type { EmailSender, RecordedEmail } from './email';

const MINUTE_MS = 60_000;
const TOKEN_BYTES = 32;

type ResetKind = 'user' | 'customer';

export interface PasswordResetService {
  /** Records and sends a reset link when a live account has this address; resolves the same either way. */
  request(payload: { email?: string | undefined }, context: LinkContext): Promise<void>;
}

/** The server's own address, for links when PUBLIC_URL is unset (a wildcard host reads as localhost). */
export function ownOrigin({ host, port }: { host: string; port: number }): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

export function createPasswordResetService(deps: {
  db: Db;
  repos: Repositories;
  audit: AuditService;
  email: EmailSender;
  config: { publicUrl: string | null; host: string; port: number };
  now: Clock;
}): PasswordResetService {
  const { db, repos, audit, email, config, now } = deps;

  const ownerOf = (kind: ResetKind, id: string): ResetOwner => (kind === 'user' ? { userId: id } : { customerId: id });

  /**
   * One account's link, in one transaction under the account's row lock (two requests at once
   * cannot both pass the per-account pace): null when the account may not have one now. A
   * customer organisation's member (`member`) is a customer account for the audit's action names,
   * with their own row as the target.
   */
  async function issueFor(kind: ResetKind, found: AccountRow, context: LinkContext, member = false): Promise<{ mail: RecordedEmail; url: string } | null> {
    return db.transaction(async (tx) => {
      const at = now();
      const row = member
        ? await repos.customerMembers.findLiveByIdForUpdate(found.id, tx)
        : kind === 'user'
          ? await repos.users.findByIdForUpdate(found.id, tx)
          : await repos.customers.findLiveByIdForUpdate(found.id, tx);
      // Blocked, deactivated, expired or deleted (a member's organisation too): no link (a reset must not reopen a closed account).
      if (!row || row.deletedAt || accountRefusal(row, at)) return null;
      const owner: ResetOwner = member ? { memberId: row.id } : ownerOf(kind, row.id);
      const targetType = member ? 'member' : kind;
      const last = await repos.passwordResets.lastIssuedAt(owner, tx);
      const paced = last !== null && at.getTime() - last.getTime() < RESET_EMAIL_INTERVAL_MINUTES * MINUTE_MS;
      if (paced) {
        await audit.record({ ...auditOf(context), action: `${kind}.password_reset_paced`, targetType, targetId: row.id, after: { email: row.email } }, tx);
        return null;
      }
      await repos.passwordResets.revokeUnused(owner, at, tx);
      const token = randomBytes(TOKEN_BYTES).toString('base64url');
      const expiresAt = new Date(at.getTime() + RESET_LINK_VALID_MINUTES * MINUTE_MS);
      await repos.passwordResets.insert({ owner, tokenHash: hashSetupToken(token), expiresAt, createdAt: at }, tx);
      await audit.record(
        { ...auditOf(context), action: `${kind}.password_reset_requested`, targetType, targetId: row.id, after: { email: row.email, expiresAt: expiresAt.toISOString() } },
        tx,
      );
      // Never the request's Host: anyone may ask for a reset of anyone's account, and a link built
      // from their Host header would carry the victim's token to the asker's site ("reset
      // poisoning"). PUBLIC_URL, else the address this server itself listens on.
      const url = setPasswordUrl(config.publicUrl, ownOrigin(config), token);
      const message = passwordResetEmail({ name: row.name, link: url, expiresAt, validMinutes: RESET_LINK_VALID_MINUTES });
      return { mail: await email.record({ to: row.email, ...message }, tx), url };
    });
  }

  const auditOf = (context: LinkContext) => ({ actor: { type: 'anonymous' as const }, ip: context.ip, requestId: context.requestId });

  return {
    async request(payload, context) {
      const typed = payload.email ?? '';
      const problem = forgotPasswordEmailProblem(typed);
      if (problem) throw new BadRequestError(problem, { errors: [{ path: 'email', message: problem }] });
      const address = typed.trim().toLowerCase();

      const [user, customer, member] = await Promise.all([repos.users.findByEmail(address), repos.customers.findByEmail(address), repos.customerMembers.findByEmail(address)]);
      const accounts = [...(user ? [['user', user] as const] : []), ...(customer ? [['customer', customer] as const] : [])];
      if (accounts.length === 0 && !member) {
        // Kept like a failed sign-in: someone tried an address that has no account.
        await audit.record({ ...auditOf(context), action: 'auth.password_reset_unknown', targetType: null, targetId: null, after: { email: address } });
        return;
      }
      const mails: { mail: RecordedEmail; url: string }[] = [];
      for (const [kind, row] of accounts) {
        const issued = await issueFor(kind, row, context);
        if (issued) mails.push(issued);
      }
      // The customer sign-in finds an organisation's login first, then a member: so does the reset.
      if (member && !customer) {
        const issued = await issueFor('customer', member, context, true);
        if (issued) mails.push(issued);
      }
      // Sent after the answer: an SMTP round trip only for real accounts would tell them apart by time.
      for (const { mail, url } of mails) {
        void email.deliver(mail, { log: context.log, logFields: { link: url, requestId: context.requestId } });
      }
    },
  };
}
