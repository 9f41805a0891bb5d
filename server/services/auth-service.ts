// Signing in, for portal users and customers alike (one routine, two account tables), and
// turning a bearer token back into a principal.
import {
  ACCOUNT_MESSAGES,
  INVALID_CREDENTIALS_MESSAGE,
  LOCKOUT_MINUTES,
  MAX_FAILED_LOGINS,
  type AdminLoginData,
  type AdminUser,
  type CustomerLoginData,
  type CustomerProfile,
} from '../../src/domain/auth';
import type { Principal } from '../auth/principal';
import { verifyDummyPassword, verifyPassword } from '../auth/passwords';
import type { TokenService } from '../auth/tokens';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import type { AccountLoginStore } from '../db/repositories/accounts';
import type { Repositories } from '../db/repositories';
import type { AccountRow, CustomerRow, UserRow } from '../db/schema';
import { ForbiddenError, INVALID_TOKEN_MESSAGE, LockedError, UnauthorizedError } from '../errors';
import { accountRefusal, type AccountRefusal } from './account-status';
import type { AuditService } from './audit';
import { toAdminUser, toCustomerProfile } from './profiles';

export interface Credentials {
  email: string;
  password: string;
}

export interface LoginContext {
  ip: string | null;
  requestId: string | null;
}

export type LoginFailureReason = 'unknown_email' | 'wrong_password' | 'locked' | AccountRefusal;

export interface AuthService {
  loginAdmin(credentials: Credentials, context: LoginContext): Promise<AdminLoginData>;
  loginCustomer(credentials: Credentials, context: LoginContext): Promise<CustomerLoginData>;
  /** The principal behind a bearer token, or null when the token or its account no longer holds. */
  authenticate(token: string): Promise<Principal | null>;
  currentAdmin(principal: Principal): Promise<AdminUser>;
  currentCustomer(principal: Principal): Promise<CustomerProfile>;
}

interface AccountKind<Row extends AccountRow> {
  store: AccountLoginStore<Row>;
  actorType: 'user' | 'customer';
  userType: 'admin' | 'customer';
  successAction: string;
  failureAction: string;
}

const REFUSAL_MESSAGES: Record<AccountRefusal, string> = {
  blocked: ACCOUNT_MESSAGES.blocked,
  inactive: ACCOUNT_MESSAGES.inactive,
  expired: ACCOUNT_MESSAGES.expired,
};

export function createAuthService(deps: {
  db: Db;
  repos: Repositories;
  audit: AuditService;
  tokens: TokenService;
  now: Clock;
}): AuthService {
  const { db, repos, audit, tokens, now } = deps;

  const adminKind: AccountKind<UserRow> = {
    store: repos.users,
    actorType: 'user',
    userType: 'admin',
    successAction: 'auth.login',
    failureAction: 'auth.login_failed',
  };
  const customerKind: AccountKind<CustomerRow> = {
    store: repos.customers,
    actorType: 'customer',
    userType: 'customer',
    successAction: 'customer.login',
    failureAction: 'customer.login_failed',
  };

  async function loginAccount<Row extends AccountRow>(
    kind: AccountKind<Row>,
    { email, password }: Credentials,
    context: LoginContext,
  ): Promise<Row> {
    const at = now();
    const normalisedEmail = email.trim().toLowerCase();
    const recordFailure = (reason: LoginFailureReason, account: Row | null, extra: Record<string, unknown> = {}, tx?: Db) =>
      audit.record(
        {
          actor: { type: 'anonymous' },
          action: kind.failureAction,
          targetType: account ? kind.actorType : null,
          targetId: account?.id ?? null,
          after: { email: normalisedEmail, reason, userType: kind.userType, ...extra },
          ip: context.ip,
          requestId: context.requestId,
        },
        tx,
      );

    const account = await kind.store.findByEmail(normalisedEmail);
    if (!account) {
      await verifyDummyPassword(password);
      await recordFailure('unknown_email', null);
      throw new UnauthorizedError(INVALID_CREDENTIALS_MESSAGE);
    }

    if (account.lockedUntil && account.lockedUntil.getTime() > at.getTime()) {
      const secondsLeft = Math.ceil((account.lockedUntil.getTime() - at.getTime()) / 1000);
      await recordFailure('locked', account, { lockedUntil: account.lockedUntil.toISOString() });
      throw new LockedError(ACCOUNT_MESSAGES.locked(Math.ceil(secondsLeft / 60)), {
        headers: { 'retry-after': String(secondsLeft) },
      });
    }

    const passwordMatches = account.passwordHash
      ? await verifyPassword(account.passwordHash, password)
      : await verifyDummyPassword(password);
    if (!passwordMatches) {
      await db.transaction(async (tx) => {
        const lockUntil = new Date(at.getTime() + LOCKOUT_MINUTES * 60_000);
        const counters = await kind.store.recordFailedLogin(account.id, { maxAttempts: MAX_FAILED_LOGINS, lockUntil }, tx);
        // The counter goes back to 0 exactly when this failure set the lock.
        const lockedNow = counters?.failedLoginAttempts === 0;
        await recordFailure(
          'wrong_password',
          account,
          lockedNow ? { locked: true, lockedUntil: lockUntil.toISOString() } : { failedAttempts: counters?.failedLoginAttempts ?? null },
          tx,
        );
      });
      throw new UnauthorizedError(INVALID_CREDENTIALS_MESSAGE);
    }

    // Status is revealed only to someone who knows the password.
    const refusal = accountRefusal(account, at);
    if (refusal) {
      await recordFailure(refusal, account);
      throw new ForbiddenError(REFUSAL_MESSAGES[refusal]);
    }

    return db.transaction(async (tx) => {
      const updated = await kind.store.recordSuccessfulLogin(account.id, { at, ip: context.ip }, tx);
      if (!updated) throw new UnauthorizedError(INVALID_CREDENTIALS_MESSAGE);
      await audit.record(
        {
          actor: { type: kind.actorType, id: account.id },
          action: kind.successAction,
          targetType: kind.actorType,
          targetId: account.id,
          after: { email: updated.email, userType: kind.userType },
          ip: context.ip,
          requestId: context.requestId,
        },
        tx,
      );
      return updated;
    });
  }

  async function liveAdmin(id: string) {
    const row = await repos.users.findLiveById(id);
    return row && !accountRefusal(row, now()) ? row : null;
  }

  async function liveCustomer(id: string) {
    const row = await repos.customers.findLiveById(id);
    return row && !accountRefusal(row, now()) ? row : null;
  }

  return {
    async loginAdmin(credentials, context) {
      const user = await loginAccount(adminKind, credentials, context);
      const token = await tokens.sign({ sub: user.id, typ: 'admin', role: user.role });
      return { user: toAdminUser(user), token };
    },
    async loginCustomer(credentials, context) {
      const customer = await loginAccount(customerKind, credentials, context);
      const token = await tokens.sign({ sub: customer.id, typ: 'customer' });
      return { customer: toCustomerProfile(customer), token };
    },
    async authenticate(token) {
      const claims = await tokens.verify(token);
      if (!claims) return null;
      if (claims.typ === 'admin') {
        const user = await liveAdmin(claims.sub);
        // The role comes from the row, so a demotion takes effect on the next request.
        return user ? { type: 'admin', id: user.id, role: user.role } : null;
      }
      const customer = await liveCustomer(claims.sub);
      return customer ? { type: 'customer', id: customer.id } : null;
    },
    async currentAdmin(principal) {
      const user = principal.type === 'admin' ? await liveAdmin(principal.id) : null;
      if (!user) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
      return toAdminUser(user);
    },
    async currentCustomer(principal) {
      const customer = principal.type === 'customer' ? await liveCustomer(principal.id) : null;
      if (!customer) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
      return toCustomerProfile(customer);
    },
  };
}
