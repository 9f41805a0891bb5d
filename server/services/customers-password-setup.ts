// Password-setup links: a random token (32 bytes, base64url) mailed to a customer or a portal
// user, stored only as its SHA-256, valid PASSWORD_SETUP_VALID_DAYS and usable once. Using it sets
// the account's Argon2id password and makes the account Active. Reset links (purpose 'reset',
// issued by password-reset.ts for a forgotten password) are used here the same way, but only
// while their account is live and usable: a reset never reopens a closed account.
import { createHash, randomBytes } from 'node:crypto';
import { CUSTOMER_MESSAGES, PASSWORD_SETUP_VALID_DAYS } from '../../src/domain/customers';
import { newPasswordProblem, PASSWORD_MESSAGES } from '../../src/domain/password';
import { hashPassword } from '../auth/passwords';
import { accountRefusal } from './account-status';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Repositories } from '../db/repositories';
import type { MemberAccountRow } from '../db/repositories/customer-members';
import type { CustomerRow, NewUserRow, PasswordSetupTokenRow, UserRow } from '../db/schema';
import { passwordSetupEmail } from '../email/templates';
import { AppError, BadRequestError, NotFoundError, type FieldError } from '../errors';
import type { AuditService, RequestContext } from './audit';
import type { EmailLogger, EmailSender, RecordedEmail } from './email';

const DAY_MS = 86_400_000;
const TOKEN_BYTES = 32;
/** 32 bytes in base64url without padding. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const SET_PASSWORD_PATH = '/set-password';

/** 410: the link existed but can no longer be used. */
export class GoneError extends AppError {
  override name = 'GoneError';
  readonly statusCode = 410;
}

/** `GET /api/v1/password-setup/{token}` → data. */
export interface PasswordSetupInfo {
  email: string;
  name: string;
  company: string;
  expiresAt: string;
}

/** What a link is for: the first password ('setup') or a forgotten one ('reset'), so the page can say which. */
export type PasswordLinkPurpose = 'setup' | 'reset';

/** The answer of `GET /api/v1/password-setup/{token}`: the info and the link's purpose. */
export interface PasswordLinkInfo extends PasswordSetupInfo {
  purpose: PasswordLinkPurpose;
}

export interface PasswordSetupInput {
  token?: string | undefined;
  password?: string | undefined;
  confirmPassword?: string | undefined;
}

export interface IssuedLink {
  token: string;
  expiresAt: Date;
}

/** What a request that sends a link needs besides who did it: where links point, where to log. */
export interface LinkContext extends RequestContext {
  /** scheme://host of the request; links use PUBLIC_URL instead when it is set. */
  origin: string;
  log: EmailLogger;
}

/** A link's email, recorded in the outbox and waiting for its transaction to commit. */
export interface RecordedLinkEmail {
  email: RecordedEmail;
  /** The live link, for the log when the email does not go out. */
  url: string;
}

/**
 * Whose link: a customer's, a portal user's, or a customer organisation member's (`member`: a
 * reset link only; a customer account for the audit's action names, their own row the target).
 */
type LinkOwner = { kind: 'customer'; row: CustomerRow; member?: false } | { kind: 'customer'; row: MemberAccountRow; member: true } | { kind: 'user'; row: UserRow };

export interface PasswordSetupService {
  /** Revokes the customer's unused links and stores a new one, inside the caller's transaction. */
  issue(customerId: string, tx: Db): Promise<IssuedLink>;
  /** The same for a portal user. */
  issueForUser(userId: string, tx: Db): Promise<IssuedLink>;
  /**
   * Records the link's email in the outbox inside the caller's transaction (with the account and
   * the token it carries), so a crash after the commit can never leave an account whose link was
   * never written down.
   */
  recordLink(
    account: Pick<CustomerRow, 'email' | 'name' | 'company'>,
    link: IssuedLink,
    reason: 'created' | 'reissued',
    context: LinkContext,
    tx: Db,
  ): Promise<RecordedLinkEmail>;
  /**
   * Sends a recorded link email (SMTP) after the commit and answers what to tell the
   * administrator: `say.sent`, or `say.failed` with the mail error. Never throws for a mail problem.
   */
  deliverLink(email: RecordedLinkEmail, context: LinkContext, say: { sent: string; failed: (error: string) => string }): Promise<string>;
  describe(token: string): Promise<PasswordLinkInfo>;
  complete(input: PasswordSetupInput, context: RequestContext): Promise<{ email: string }>;
}

export function hashSetupToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The set-password page's address for a token: under PUBLIC_URL when set, else the request's origin. */
export function setPasswordUrl(publicUrl: string | null | undefined, origin: string, token: string): string {
  const base = publicUrl ?? origin.replace(/\/+$/, '');
  return `${base}${SET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;
}

export function createPasswordSetupService(deps: {
  db: Db;
  repos: Repositories;
  audit: AuditService;
  email: EmailSender;
  config: Pick<Config, 'publicUrl'>;
  now: Clock;
}): PasswordSetupService {
  const { db, repos, audit, email, config, now } = deps;

  /** The live, unblocked account a token belongs to, or null. */
  async function ownerOf(row: PasswordSetupTokenRow, tx: Db, lock: boolean): Promise<LinkOwner | null> {
    let owner: LinkOwner | null = null;
    if (row.userId) {
      const user = lock ? await repos.users.findByIdForUpdate(row.userId, tx) : await repos.users.findLiveById(row.userId, tx);
      owner = user && !user.deletedAt ? { kind: 'user', row: user } : null;
    } else if (row.memberId) {
      const member = lock ? await repos.customerMembers.findLiveByIdForUpdate(row.memberId, tx) : await repos.customerMembers.findLiveById(row.memberId, tx);
      owner = member ? { kind: 'customer', row: member, member: true } : null;
    } else if (row.customerId) {
      const customer = lock ? await repos.customers.findLiveByIdForUpdate(row.customerId, tx) : await repos.customers.findLiveById(row.customerId, tx);
      owner = customer ? { kind: 'customer', row: customer } : null;
    }
    return owner && !owner.row.blockedEnabled ? owner : null;
  }

  async function issueFor(owner: { customerId: string } | { userId: string }, tx: Db): Promise<IssuedLink> {
    const at = now();
    if ('userId' in owner) await repos.passwordSetupTokens.revokeUnusedForUser(owner.userId, at, tx);
    else await repos.passwordSetupTokens.revokeUnused(owner.customerId, at, tx);
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const expiresAt = new Date(at.getTime() + PASSWORD_SETUP_VALID_DAYS * DAY_MS);
    await repos.passwordSetupTokens.insert({ ...owner, tokenHash: hashSetupToken(token), expiresAt, createdAt: at }, tx);
    return { token, expiresAt };
  }

  /** A reset link works only for an account that may sign in (not deactivated, not expired). */
  const resettable = (row: PasswordSetupTokenRow, owner: LinkOwner, at: Date) => row.purpose !== 'reset' || accountRefusal(owner.row, at) === null;

  /** The usable token and its live account, or the error the link page shows. */
  async function usableToken(token: string, at: Date, tx: Db = db): Promise<{ row: PasswordSetupTokenRow; owner: LinkOwner }> {
    if (!TOKEN_PATTERN.test(token)) throw new NotFoundError(CUSTOMER_MESSAGES.setupTokenInvalid);
    const row = await repos.passwordSetupTokens.findByHash(hashSetupToken(token), tx);
    if (!row || row.revokedAt) throw new NotFoundError(CUSTOMER_MESSAGES.setupTokenInvalid);
    if (row.usedAt) throw new GoneError(CUSTOMER_MESSAGES.setupTokenUsed);
    if (row.expiresAt.getTime() <= at.getTime()) throw new GoneError(CUSTOMER_MESSAGES.setupTokenExpired);
    const owner = await ownerOf(row, tx, false);
    // A deleted or blocked account's link is refused without saying why.
    if (!owner || !resettable(row, owner, at)) throw new NotFoundError(CUSTOMER_MESSAGES.setupTokenInvalid);
    return { row, owner };
  }

  return {
    issue: (customerId, tx) => issueFor({ customerId }, tx),
    issueForUser: (userId, tx) => issueFor({ userId }, tx),

    async recordLink(account, link, reason, context, tx) {
      const url = setPasswordUrl(config.publicUrl, context.origin, link.token);
      const message = passwordSetupEmail({ name: account.name, company: account.company, link: url, expiresAt: link.expiresAt, reason });
      return { email: await email.record({ to: account.email, ...message }, tx), url };
    },

    async deliverLink({ email: recorded, url }, context, say) {
      const delivery = await email.deliver(recorded, { log: context.log, logFields: { link: url, requestId: context.requestId } });
      return delivery.status === 'failed' ? say.failed(delivery.error ?? 'unknown error') : say.sent;
    },

    async describe(token) {
      const { row, owner } = await usableToken(token, now());
      const company = owner.kind === 'customer' ? owner.row.company : '';
      return { email: owner.row.email, name: owner.row.name, company, expiresAt: row.expiresAt.toISOString(), purpose: row.purpose };
    },

    async complete(input, context) {
      const token = input.token ?? '';
      const password = input.password ?? '';
      const confirmPassword = input.confirmPassword ?? '';
      // The link is checked first: a password cannot fix a dead link.
      await usableToken(token, now());
      const problem = newPasswordProblem(password, confirmPassword);
      if (problem) throw new BadRequestError(problem, { errors: passwordErrors(problem, password, confirmPassword) });

      // Hash outside the transaction: PGlite has one connection, and nobody should wait on Argon2.
      const passwordHash = await hashPassword(password);
      return db.transaction(async (tx) => {
        const at = now();
        const consumed = await repos.passwordSetupTokens.consume(hashSetupToken(token), at, tx);
        if (!consumed) {
          // Used (or revoked, or expired) since the check above: report what it is now.
          await usableToken(token, at, tx);
          throw new GoneError(CUSTOMER_MESSAGES.setupTokenUsed);
        }
        const owner = await ownerOf(consumed, tx, true);
        // Throwing rolls the consumption back: the link stays usable if the account is unblocked.
        if (!owner || !resettable(consumed, owner, at)) throw new NotFoundError(CUSTOMER_MESSAGES.setupTokenInvalid);
        const reset = consumed.purpose === 'reset';
        const account = owner.row;
        const patch = { passwordHash, isActive: true, failedLoginAttempts: 0, lockedUntil: null, passwordChangedAt: at, updatedAt: at } satisfies Partial<NewUserRow>;
        const updated =
          owner.kind === 'user'
            ? await repos.users.update(account.id, patch, tx)
            : owner.member
              ? await repos.customerMembers.update(account.id, patch, tx)
              : await repos.customers.update(account.id, patch, tx);
        if (!updated) throw new NotFoundError(CUSTOMER_MESSAGES.setupTokenInvalid);
        if (owner.kind === 'user') await repos.passwordSetupTokens.revokeUnusedForUser(account.id, at, tx);
        else if (owner.member) await repos.passwordSetupTokens.revokeUnusedForMember(account.id, at, tx);
        else await repos.passwordSetupTokens.revokeUnused(account.id, at, tx);
        const who = owner.kind === 'customer' && owner.member ? ('member' as const) : owner.kind;
        await audit.record(
          {
            actor: { type: who, id: account.id },
            ip: context.ip,
            requestId: context.requestId,
            action: reset ? `${owner.kind}.password_reset` : `${owner.kind}.password_set`,
            targetType: who,
            targetId: account.id,
            before: { email: account.email, isActive: account.isActive, hasPassword: account.passwordHash !== null },
            after: { email: updated.email, isActive: true, hasPassword: true, via: reset ? 'password_reset_link' : 'password_setup_link' },
          },
          tx,
        );
        return { email: updated.email };
      });
    },
  };
}

function passwordErrors(problem: string, password: string, confirmPassword: string): FieldError[] {
  if (problem === PASSWORD_MESSAGES.allRequired) {
    return [
      ...(password ? [] : [{ path: 'password', message: problem }]),
      ...(confirmPassword ? [] : [{ path: 'confirmPassword', message: problem }]),
    ];
  }
  return [{ path: problem === PASSWORD_MESSAGES.mismatch ? 'confirmPassword' : 'password', message: problem }];
}
