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
import { MFA_MESSAGES, type MfaLoginPayload, type MfaRequiredWire } from '../../src/domain/mfa';
import type { MfaChallengeService } from '../auth/mfa-challenge';
import type { Principal } from '../auth/principal';
import { verifyDummyPassword, verifyPassword } from '../auth/passwords';
import type { TokenService } from '../auth/tokens';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import type { AccountLoginStore } from '../db/repositories/accounts';
import type { MemberAccountRow } from '../db/repositories/customer-members';
import type { Repositories } from '../db/repositories';
import type { AccountRow, CustomerRow, UserRow } from '../db/schema';
import { ForbiddenError, INVALID_TOKEN_MESSAGE, LockedError, UnauthorizedError } from '../errors';
import { accountRefusal, type AccountRefusal } from './account-status';
import type { AuditService } from './audit';
import type { RolesService } from './roles';
import type { MfaService } from './mfa';
import { tokenPredatesPasswordChange } from './profile';
import { toAdminUser, toCustomerProfile, toMemberProfile } from './profiles';

export interface Credentials {
  email: string;
  password: string;
}

export interface LoginContext {
  ip: string | null;
  requestId: string | null;
}

export type LoginFailureReason =
  | 'unknown_email'
  | 'wrong_password'
  | 'locked'
  | 'wrong_mfa_code'
  | 'used_backup_code'
  | 'mfa_challenge_invalid'
  | AccountRefusal;

export interface AuthService {
  /** With MFA on, a right password yields a challenge for `loginAdminMfa` instead of a token. */
  loginAdmin(credentials: Credentials, context: LoginContext): Promise<AdminLoginData | MfaRequiredWire>;
  /** The sign-in code step: a challenge from `loginAdmin` and a TOTP or backup code. */
  loginAdminMfa(payload: MfaLoginPayload, context: LoginContext): Promise<AdminLoginData>;
  /** The same for customers: with MFA on, a challenge for `loginCustomerMfa`. */
  loginCustomer(credentials: Credentials, context: LoginContext): Promise<CustomerLoginData | MfaRequiredWire>;
  /** The customer's code step; a portal user's challenge does not work here, nor this one there. */
  loginCustomerMfa(payload: MfaLoginPayload, context: LoginContext): Promise<CustomerLoginData>;
  /** The principal behind a bearer token, or null when the token or its account no longer holds. */
  authenticate(token: string): Promise<Principal | null>;
  /** The principal behind an API key, or null (unknown, revoked, expired or from another address). */
  authenticateApiKey(key: string, context: { ip: string }): Promise<Principal | null>;
  currentAdmin(principal: Principal): Promise<AdminUser>;
  currentCustomer(principal: Principal): Promise<CustomerProfile>;
}

interface AccountKind<Row extends AccountRow> {
  store: AccountLoginStore<Row>;
  actorType: 'user' | 'customer' | 'member';
  userType: 'admin' | 'customer';
  /** The MFA challenge's account claim: a code step finishes only the kind its password step began. */
  challengeAccount: 'admin' | 'customer' | 'member';
  successAction: string;
  failureAction: string;
  challengeAction: string;
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
  mfa: MfaService;
  challenges: MfaChallengeService;
  now: Clock;
  roles: Pick<RolesService, 'accessOfUser'>;
  /** API keys are one more way in; until a key store is given, none holds. */
  apiKeys?: { authenticate(key: string, context: { ip: string }): Promise<Principal | null> };
}): AuthService {
  const { db, repos, audit, tokens, mfa, challenges, now, roles } = deps;

  const adminKind: AccountKind<UserRow> = {
    store: repos.users,
    actorType: 'user',
    userType: 'admin',
    challengeAccount: 'admin',
    successAction: 'auth.login',
    failureAction: 'auth.login_failed',
    challengeAction: 'auth.mfa_challenge',
  };
  const customerKind: AccountKind<CustomerRow> = {
    store: repos.customers,
    actorType: 'customer',
    userType: 'customer',
    challengeAccount: 'customer',
    successAction: 'customer.login',
    failureAction: 'customer.login_failed',
    challengeAction: 'customer.mfa_challenge',
  };
  // A customer organisation's member signs in on the customer side, under their own name (the
  // actor and target say which member), with the same lockout and MFA as any account.
  const memberKind: AccountKind<MemberAccountRow> = {
    store: repos.customerMembers,
    actorType: 'member',
    userType: 'customer',
    challengeAccount: 'member',
    successAction: 'customer.login',
    failureAction: 'customer.login_failed',
    challengeAction: 'customer.mfa_challenge',
  };

  /** The customer sign-in finds one account per email: an organisation's own login, else a member. */
  async function customerSideKind(email: string): Promise<AccountKind<CustomerRow> | AccountKind<MemberAccountRow>> {
    const normalised = email.trim().toLowerCase();
    if (await repos.customers.findByEmail(normalised)) return customerKind;
    return (await repos.customerMembers.findByEmail(normalised)) ? memberKind : customerKind;
  }

  const recordFailure = <Row extends AccountRow>(
    kind: AccountKind<Row>,
    context: LoginContext,
    email: string,
    reason: LoginFailureReason,
    account: Row | null,
    extra: Record<string, unknown> = {},
    tx?: Db,
  ) =>
    audit.record(
      {
        actor: { type: 'anonymous' },
        action: kind.failureAction,
        targetType: account ? kind.actorType : null,
        targetId: account?.id ?? null,
        after: { email, reason, userType: kind.userType, ...extra },
        ip: context.ip,
        requestId: context.requestId,
      },
      tx,
    );

  async function refuseIfLocked<Row extends AccountRow>(kind: AccountKind<Row>, account: Row, context: LoginContext, at: Date) {
    if (!account.lockedUntil || account.lockedUntil.getTime() <= at.getTime()) return;
    const secondsLeft = Math.ceil((account.lockedUntil.getTime() - at.getTime()) / 1000);
    await recordFailure(kind, context, account.email.toLowerCase(), 'locked', account, { lockedUntil: account.lockedUntil.toISOString() });
    throw new LockedError(ACCOUNT_MESSAGES.locked(Math.ceil(secondsLeft / 60)), {
      headers: { 'retry-after': String(secondsLeft) },
    });
  }

  /** Counts a wrong password or a wrong code toward the lockout, with its audit row. */
  async function countFailure<Row extends AccountRow>(
    kind: AccountKind<Row>,
    account: Row,
    context: LoginContext,
    reason: LoginFailureReason,
    at: Date,
  ) {
    await db.transaction(async (tx) => {
      const lockUntil = new Date(at.getTime() + LOCKOUT_MINUTES * 60_000);
      const counters = await kind.store.recordFailedLogin(account.id, { maxAttempts: MAX_FAILED_LOGINS, lockUntil }, tx);
      // The counter goes back to 0 exactly when this failure set the lock.
      const lockedNow = counters?.failedLoginAttempts === 0;
      await recordFailure(
        kind,
        context,
        account.email.toLowerCase(),
        reason,
        account,
        lockedNow ? { locked: true, lockedUntil: lockUntil.toISOString() } : { failedAttempts: counters?.failedLoginAttempts ?? null },
        tx,
      );
    });
  }

  async function refuseIfUnavailable<Row extends AccountRow>(kind: AccountKind<Row>, account: Row, context: LoginContext, at: Date) {
    const refusal = accountRefusal(account, at);
    if (!refusal) return;
    await recordFailure(kind, context, account.email.toLowerCase(), refusal, account);
    throw new ForbiddenError(REFUSAL_MESSAGES[refusal]);
  }

  /** The account whose password this is, once lockout and status allow it in. */
  async function checkPassword<Row extends AccountRow>(
    kind: AccountKind<Row>,
    { email, password }: Credentials,
    context: LoginContext,
  ): Promise<Row> {
    const at = now();
    const normalisedEmail = email.trim().toLowerCase();

    const account = await kind.store.findByEmail(normalisedEmail);
    if (!account) {
      await verifyDummyPassword(password);
      await recordFailure(kind, context, normalisedEmail, 'unknown_email', null);
      throw new UnauthorizedError(INVALID_CREDENTIALS_MESSAGE);
    }

    await refuseIfLocked(kind, account, context, at);

    const passwordMatches = account.passwordHash
      ? await verifyPassword(account.passwordHash, password)
      : await verifyDummyPassword(password);
    if (!passwordMatches) {
      await countFailure(kind, account, context, 'wrong_password', at);
      throw new UnauthorizedError(INVALID_CREDENTIALS_MESSAGE);
    }

    // Status is revealed only to someone who knows the password.
    await refuseIfUnavailable(kind, account, context, at);
    return account;
  }

  /** Resets the failure count and records the sign-in; `method` names the second factor, if any. */
  function completeLogin<Row extends AccountRow>(kind: AccountKind<Row>, account: Row, context: LoginContext, method?: string): Promise<Row> {
    const at = now();
    return db.transaction(async (tx) => {
      const updated = await kind.store.recordSuccessfulLogin(account.id, { at, ip: context.ip }, tx);
      if (!updated) throw new UnauthorizedError(INVALID_CREDENTIALS_MESSAGE);
      await audit.record(
        {
          actor: { type: kind.actorType, id: account.id },
          action: kind.successAction,
          targetType: kind.actorType,
          targetId: account.id,
          after: { email: updated.email, userType: kind.userType, ...(method ? { mfa: method } : {}) },
          ip: context.ip,
          requestId: context.requestId,
        },
        tx,
      );
      return updated;
    });
  }

  /** After a right password: the signed-in account, or (MFA on) a challenge for the code step. */
  async function passwordStep<Row extends AccountRow>(
    kind: AccountKind<Row>,
    credentials: Credentials,
    context: LoginContext,
  ): Promise<{ account: Row } | MfaRequiredWire> {
    const account = await checkPassword(kind, credentials, context);
    if (!account.mfaEnabled) return { account: await completeLogin(kind, account, context) };
    // The failure count stays as it is: a right password must not reset the code guesses.
    const challenge = await challenges.sign({ sub: account.id, account: kind.challengeAccount });
    await audit.record({
      actor: { type: 'anonymous' },
      action: kind.challengeAction,
      targetType: kind.actorType,
      targetId: account.id,
      after: { email: account.email, userType: kind.userType },
      ip: context.ip,
      requestId: context.requestId,
    });
    return { mfaRequired: true as const, challenge };
  }

  /**
   * The code step: the challenge must be of this kind (the account claim), its account live with
   * MFA on; wrong codes count toward the lockout like wrong passwords.
   */
  async function codeStep<Row extends AccountRow>(kind: AccountKind<Row>, { challenge, code }: MfaLoginPayload, context: LoginContext): Promise<Row> {
    const at = now();
    const claims = await challenges.verify(challenge);
    const account = claims?.account === kind.challengeAccount ? await kind.store.findLiveById(claims.sub) : null;
    if (!account || !account.mfaEnabled) {
      await recordFailure(kind, context, account?.email.toLowerCase() ?? 'an unknown account', 'mfa_challenge_invalid', account);
      throw new UnauthorizedError(MFA_MESSAGES.challengeExpired);
    }
    await refuseIfLocked(kind, account, context, at);
    await refuseIfUnavailable(kind, account, context, at);
    const check = await mfa.checkSignInCode(kind.actorType, account, code);
    if (!check.ok) {
      const usedBackup = check.reason === 'used_backup_code';
      await countFailure(kind, account, context, usedBackup ? 'used_backup_code' : 'wrong_mfa_code', at);
      throw new UnauthorizedError(usedBackup ? MFA_MESSAGES.usedBackupCode : MFA_MESSAGES.wrongCode);
    }
    return completeLogin(kind, account, context, check.method);
  }

  const adminSession = async (user: UserRow): Promise<AdminLoginData> => ({
    user: toAdminUser(user, await roles.accessOfUser(user.id)),
    token: await tokens.sign({ sub: user.id, typ: 'admin', role: user.role }),
  });
  const customerSession = async (customer: CustomerRow): Promise<CustomerLoginData> => ({
    customer: toCustomerProfile(customer),
    token: await tokens.sign({ sub: customer.id, typ: 'customer' }),
  });
  const memberSession = async (member: MemberAccountRow): Promise<CustomerLoginData> => ({
    customer: toMemberProfile(member),
    token: await tokens.sign({ sub: member.id, typ: 'member' }),
  });

  /** With `issuedAt` (a token's iat): null too when the password changed after the token was issued. */
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
      const step = await passwordStep(adminKind, credentials, context);
      return 'mfaRequired' in step ? step : adminSession(step.account);
    },
    async loginAdminMfa(payload, context) {
      return adminSession(await codeStep(adminKind, payload, context));
    },
    async loginCustomer(credentials, context) {
      const kind = await customerSideKind(credentials.email);
      if (kind === memberKind) {
        const step = await passwordStep(memberKind, credentials, context);
        return 'mfaRequired' in step ? step : memberSession(step.account);
      }
      const step = await passwordStep(customerKind, credentials, context);
      return 'mfaRequired' in step ? step : customerSession(step.account);
    },
    async loginCustomerMfa(payload, context) {
      // The challenge says whose code step this is; codeStep checks it again, with the kind.
      const claims = await challenges.verify(payload.challenge);
      if (claims?.account === 'member') return memberSession(await codeStep(memberKind, payload, context));
      return customerSession(await codeStep(customerKind, payload, context));
    },
    async authenticate(token) {
      const claims = await tokens.verify(token);
      if (!claims) return null;
      if (claims.typ === 'member') {
        // A member stands while both they and their organisation do (the session row combines the two).
        const member = await repos.customerMembers.sessionOf(claims.sub);
        if (!member || accountRefusal(member, now()) || tokenPredatesPasswordChange(member, claims.iat)) return null;
        return { type: 'customer', id: member.customerId, member: { id: member.id, role: member.memberRole, serviceLines: member.serviceLines } };
      }
      const account = await (claims.typ === 'admin' ? repos.users : repos.customers).sessionOf(claims.sub);
      if (!account || accountRefusal(account, now()) || tokenPredatesPasswordChange(account, claims.iat)) return null;
      // Permissions come from the roles held now, so a demotion takes effect on the next request.
      if (claims.typ === 'admin') return { type: 'admin', id: account.id, permissions: (await roles.accessOfUser(account.id)).permissions, apiKey: null };
      return { type: 'customer', id: account.id, member: null };
    },
    async authenticateApiKey(key, context) {
      return deps.apiKeys ? deps.apiKeys.authenticate(key, context) : null;
    },
    async currentAdmin(principal) {
      const user = principal.type === 'admin' ? await liveAdmin(principal.id) : null;
      if (!user) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
      return toAdminUser(user, await roles.accessOfUser(user.id));
    },
    async currentCustomer(principal) {
      if (principal.type === 'customer' && principal.member) {
        const member = await repos.customerMembers.findLiveById(principal.member.id);
        if (!member || accountRefusal(member, now())) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
        return toMemberProfile(member);
      }
      const customer = principal.type === 'customer' ? await liveCustomer(principal.id) : null;
      if (!customer) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
      return toCustomerProfile(customer);
    },
  };
}
