// The signed-in account's own profile and password, for portal users (`/users/profile`,
// `/users/change-password`) and customers (`/customers/profile`, `/customers/change-password`).
// A wrong current password counts toward the sign-in lockout like a failed sign-in, so a stolen
// session token cannot be used to guess the password; a locked account cannot change it.
import type { RolesService } from './roles';
import { ACCOUNT_MESSAGES, LOCKOUT_MINUTES, MAX_FAILED_LOGINS, type AdminUser, type CustomerProfile } from '../../src/domain/auth';
import { CUSTOMER_FIELD_LIMITS, CUSTOMER_MESSAGES } from '../../src/domain/customers';
import { newPasswordProblem, PASSWORD_MESSAGES } from '../../src/domain/password';
import {
  SETTINGS_MESSAGES,
  USER_FIELD_LIMITS,
  USER_MESSAGES,
  type ChangePasswordPayload,
  type CustomerProfilePayload,
  type ProfilePayload,
} from '../../src/domain/users';
import { hashPassword, verifyPassword } from '../auth/passwords';
import type { TokenService } from '../auth/tokens';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import type { Repositories } from '../db/repositories';
import type { AccountRow, CustomerRow, NewCustomerMemberRow, NewCustomerRow, UserRow } from '../db/schema';
import { INVALID_TOKEN_MESSAGE, LockedError, UnauthorizedError, type FieldError } from '../errors';
import { contactFieldsPatch, failValidation } from './account-fields';
import type { AuditService, RequestContext } from './audit';
import { toAdminUser, toCustomerProfile, toMemberProfile } from './profiles';
import type { Principal } from '../auth/principal';
import type { MemberAccountRow } from '../db/repositories/customer-members';

/** The change-password body: the domain payload, plus the confirmation when the form sends it. */
export type ChangePasswordInput = Partial<ChangePasswordPayload> & { confirmPassword?: string | undefined };

export interface ProfileService {
  updateUserProfile(userId: string, payload: ProfilePayload, context: RequestContext): Promise<AdminUser>;
  /** Answers a fresh token: tokens issued before the change are meant to stop working. */
  changeUserPassword(userId: string, input: ChangePasswordInput, context: RequestContext): Promise<{ user: AdminUser; token: string }>;
  /** `who`: the organisation's own login by id, or the signed-in principal (a member changes their own row). */
  updateCustomerProfile(who: CustomerAccount, payload: CustomerProfilePayload, context: RequestContext): Promise<CustomerProfile>;
  changeCustomerPassword(who: CustomerAccount, input: ChangePasswordInput, context: RequestContext): Promise<{ customer: CustomerProfile; token: string }>;
}

/**
 * True when a session token was issued before the account's password last changed (JWT `iat`
 * is in whole seconds). For `authenticate`: such a token no longer holds.
 */
export function tokenPredatesPasswordChange(account: Pick<AccountRow, 'passwordChangedAt'>, issuedAtSeconds: number): boolean {
  return account.passwordChangedAt !== null && issuedAtSeconds < Math.floor(account.passwordChangedAt.getTime() / 1000);
}

/** A customer organisation's own login (its id), or a customer-side principal, who may be a member. */
export type CustomerAccount = string | Principal;

interface AccountKind<Row extends AccountRow> {
  /** The audit actions' prefix (`customer.password_changed`: members' too). */
  kind: 'user' | 'customer';
  /** The audit target's type, when not `kind`: a member's changes target the member. */
  target?: 'member';
  find(id: string, tx?: Db): Promise<Row | null>;
  update(id: string, patch: Partial<NewCustomerRow>, tx: Db): Promise<Row | null>;
  recordFailedLogin: Repositories['users']['recordFailedLogin'];
}

function nameErrors(name: string | undefined): FieldError[] {
  const trimmed = (name ?? '').trim();
  if (!trimmed) return [{ path: 'name', message: USER_MESSAGES.nameRequired }];
  if (trimmed.length > USER_FIELD_LIMITS.name) return [{ path: 'name', message: USER_MESSAGES.nameTooLong }];
  return [];
}

function passwordErrors(problem: string, input: ChangePasswordInput): FieldError[] {
  if (problem === PASSWORD_MESSAGES.allRequired) {
    return (['currentPassword', 'newPassword', 'confirmPassword'] as const)
      .filter((k) => (k !== 'confirmPassword' || input.confirmPassword !== undefined) && !input[k])
      .map((path) => ({ path, message: problem }));
  }
  return [{ path: problem === PASSWORD_MESSAGES.mismatch ? 'confirmPassword' : 'newPassword', message: problem }];
}

export function createProfileService(deps: {
  db: Db;
  repos: Repositories;
  audit: AuditService;
  tokens: TokenService;
  now: Clock;
  roles: Pick<RolesService, 'accessOfUser'>;
}): ProfileService {
  const { db, repos, audit, tokens, now, roles } = deps;

  const users: AccountKind<UserRow> = {
    kind: 'user',
    find: (id, tx) => repos.users.findLiveById(id, tx),
    update: (id, patch, tx) => repos.users.update(id, patch, tx),
    recordFailedLogin: repos.users.recordFailedLogin,
  };
  const customers: AccountKind<CustomerRow> = {
    kind: 'customer',
    find: (id, tx) => repos.customers.findLiveById(id, tx),
    update: (id, patch, tx) => repos.customers.update(id, patch, tx),
    recordFailedLogin: repos.customers.recordFailedLogin,
  };
  // A member's name and password are their own row's; the organisation's details are its owner's.
  const members: AccountKind<MemberAccountRow> = {
    kind: 'customer',
    target: 'member',
    find: (id, tx) => repos.customerMembers.findLiveById(id, tx),
    update: (id, patch, tx) => repos.customerMembers.update(id, patch as Partial<NewCustomerMemberRow>, tx),
    recordFailedLogin: repos.customerMembers.recordFailedLogin,
  };
  const memberIdOf = (who: CustomerAccount) => (typeof who !== 'string' && who.type === 'customer' && who.member ? who.member.id : null);
  const customerIdOf = (who: CustomerAccount) => (typeof who === 'string' ? who : who.id);

  async function updateProfile<Row extends AccountRow>(
    account: AccountKind<Row>,
    id: string,
    patch: Partial<NewCustomerRow>,
    context: RequestContext,
  ): Promise<Row> {
    return db.transaction(async (tx) => {
      const current = await account.find(id, tx);
      if (!current) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
      const changed = Object.keys(patch).filter((k) => current[k as keyof Row] !== patch[k as keyof typeof patch]);
      if (changed.length === 0) return current;
      const written = await account.update(id, { ...patch, updatedAt: now() }, tx);
      if (!written) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
      const pick = (row: Row) => ({ email: row.email, ...Object.fromEntries(changed.map((k) => [k, row[k as keyof Row]])) });
      await audit.record(
        { ...context, action: `${account.kind}.profile_updated`, targetType: account.target ?? account.kind, targetId: id, before: pick(current), after: pick(written) },
        tx,
      );
      return written;
    });
  }

  async function changePassword<Row extends AccountRow>(account: AccountKind<Row>, id: string, input: ChangePasswordInput, context: RequestContext): Promise<Row> {
    const currentPassword = input.currentPassword ?? '';
    const newPassword = input.newPassword ?? '';
    const confirmPassword = input.confirmPassword ?? newPassword;
    const fields = [currentPassword, newPassword, ...(input.confirmPassword === undefined ? [] : [input.confirmPassword])];
    const problem = newPasswordProblem(newPassword, confirmPassword, fields);
    if (problem) failValidation(passwordErrors(problem, input));

    const current = await account.find(id);
    if (!current) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
    const at = now();
    if (current.lockedUntil && current.lockedUntil.getTime() > at.getTime()) {
      const secondsLeft = Math.ceil((current.lockedUntil.getTime() - at.getTime()) / 1000);
      throw new LockedError(ACCOUNT_MESSAGES.locked(Math.ceil(secondsLeft / 60)), { headers: { 'retry-after': String(secondsLeft) } });
    }
    const matches = current.passwordHash !== null && (await verifyPassword(current.passwordHash, currentPassword));
    if (!matches) {
      await db.transaction(async (tx) => {
        const lockUntil = new Date(at.getTime() + LOCKOUT_MINUTES * 60_000);
        const counters = await account.recordFailedLogin(id, { maxAttempts: MAX_FAILED_LOGINS, lockUntil }, tx);
        await audit.record(
          {
            ...context,
            action: `${account.kind}.password_change_failed`,
            targetType: account.target ?? account.kind,
            targetId: id,
            after: { email: current.email, reason: 'wrong_current_password', locked: counters?.failedLoginAttempts === 0 },
          },
          tx,
        );
      });
      failValidation([{ path: 'currentPassword', message: SETTINGS_MESSAGES.wrongCurrentPassword }]);
    }
    if (newPassword === currentPassword) failValidation([{ path: 'newPassword', message: SETTINGS_MESSAGES.samePassword }]);

    const passwordHash = await hashPassword(newPassword);
    return db.transaction(async (tx) => {
      const changedAt = now();
      const written = await account.update(id, { passwordHash, passwordChangedAt: changedAt, failedLoginAttempts: 0, lockedUntil: null, updatedAt: changedAt }, tx);
      if (!written) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
      await audit.record(
        { ...context, action: `${account.kind}.password_changed`, targetType: account.target ?? account.kind, targetId: id, after: { email: written.email } },
        tx,
      );
      return written;
    });
  }

  return {
    async updateUserProfile(userId, payload, context) {
      const errors = nameErrors(payload.name);
      if (errors.length > 0) failValidation(errors);
      const row = await updateProfile(users, userId, { name: payload.name.trim() }, context);
      return toAdminUser(row, await roles.accessOfUser(row.id));
    },

    async changeUserPassword(userId, input, context) {
      const row = await changePassword(users, userId, input, context);
      return { user: toAdminUser(row, await roles.accessOfUser(row.id)), token: await tokens.sign({ sub: row.id, typ: 'admin', role: row.role }) };
    },

    async updateCustomerProfile(who, payload, context) {
      const memberId = memberIdOf(who);
      const errors = nameErrors(payload.name);
      if (memberId) {
        if (errors.length > 0) failValidation(errors);
        return toMemberProfile(await updateProfile(members, memberId, { name: payload.name.trim() }, context));
      }
      const customerId = customerIdOf(who);
      const patch: Partial<NewCustomerRow> = { name: (payload.name ?? '').trim() };
      const L = CUSTOMER_FIELD_LIMITS;
      if (payload.company !== undefined) {
        const company = payload.company.trim();
        if (!company) errors.push({ path: 'company', message: CUSTOMER_MESSAGES.companyRequired });
        else if (company.length > L.company) errors.push({ path: 'company', message: CUSTOMER_MESSAGES.tooLong('Company name', L.company) });
        else patch.company = company;
      }
      Object.assign(patch, contactFieldsPatch(payload, errors));
      if (errors.length > 0) failValidation(errors);
      return toCustomerProfile(await updateProfile(customers, customerId, patch, context));
    },

    async changeCustomerPassword(who, input, context) {
      const memberId = memberIdOf(who);
      if (memberId) {
        const member = await changePassword(members, memberId, input, context);
        return { customer: toMemberProfile(member), token: await tokens.sign({ sub: member.id, typ: 'member' }) };
      }
      const row = await changePassword(customers, customerIdOf(who), input, context);
      return { customer: toCustomerProfile(row), token: await tokens.sign({ sub: row.id, typ: 'customer' }) };
    },
  };
}
