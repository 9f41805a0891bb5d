// Portal users for administrators (spec 7 "Users"): list with search, filters, paging and stats;
// create (with a password, or a password-setup link), edit, suspend/activate, block/unblock, soft
// and hard delete, restore, disable MFA, extend, reset login attempts. Every change runs in one
// transaction with its audit row (before/after of the changed fields, never a hash or secret).
// Nobody suspends, blocks or deletes themselves, and the last active administrator stays one.
import { paginationOf } from '../../src/domain/customers';
import { MAX_PASSWORD_LENGTH, PASSWORD_MESSAGES } from '../../src/domain/password';
import {
  USER_FIELD_LIMITS,
  USER_MESSAGES,
  USER_ROLES,
  validateUserForm,
  type CreateUserPayload,
  type UpdateUserPayload,
  type UserListWire,
  type UserWire,
} from '../../src/domain/users';
import { hashPassword } from '../auth/passwords';
import { isoOrNull, type Clock } from '../clock';
import type { Db } from '../db/client';
import type { Repositories } from '../db/repositories';
import type { NewUserRow, UserRow } from '../db/schema';
import { ConflictError, ForbiddenError, NotFoundError, type FieldError } from '../errors';
import type { MfaService } from './mfa';
import type { RoleRef } from '../../src/domain/permissions';
import type { Grantor, RolesService } from './roles';
import { auditSource, type AuditService, type RequestContext } from './audit';
import { extendedExpiry, failValidation } from './account-fields';
import type { LinkContext, PasswordSetupService } from './customers-password-setup';

/** Server-side messages the domain module does not carry. */
export const USER_SERVER_MESSAGES = {
  retrieved: 'Users retrieved successfully',
  found: 'User retrieved successfully',
  notDeleted: 'Only a deleted user can be restored or permanently deleted',
  createdEmailFailed: (email: string, error: string) =>
    `User ${email} created, but the password setup email could not be sent (${error})`,
} as const;

export interface UserListParams {
  page: number;
  limit: number;
  search?: string | undefined;
  isActive?: boolean | undefined;
  includeDeleted?: boolean | undefined;
}

/** Create input as received: strings may be missing (they then read as empty), role unchecked. */
export type CreateUserInput = { [K in Exclude<keyof CreateUserPayload, 'role_ids'>]?: string | undefined } & { role_ids?: string[] | undefined };

export interface UserChange {
  user: UserWire;
  message: string;
}

export interface UsersService {
  list(params: UserListParams): Promise<UserListWire>;
  get(id: string): Promise<UserWire>;
  create(input: CreateUserInput, context: LinkContext, grantor: Grantor): Promise<UserChange>;
  update(id: string, payload: UpdateUserPayload, context: RequestContext, grantor: Grantor): Promise<UserChange>;
  remove(id: string, context: RequestContext): Promise<UserChange>;
  hardDelete(id: string, context: RequestContext): Promise<{ uuid: string; message: string }>;
  restore(id: string, context: RequestContext): Promise<UserChange>;
  block(id: string, reason: string | undefined, context: RequestContext): Promise<UserChange>;
  unblock(id: string, context: RequestContext): Promise<UserChange>;
  disableMfa(id: string, context: RequestContext): Promise<UserChange>;
  extendExpiration(id: string, days: number, context: RequestContext): Promise<UserChange>;
  resetLoginAttempts(id: string, context: RequestContext): Promise<UserChange>;
}

/** Row → the users list's snake_case user. Only listed fields leave the server. */
export function toUserWire(row: UserRow, roles: RoleRef[]): UserWire {
  return {
    uuid: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    is_active: row.isActive,
    blocked_enabled: row.blockedEnabled,
    blocked_reason: row.blockedReason,
    mfa_enabled: row.mfaEnabled,
    last_login: isoOrNull(row.lastLogin),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    account_expires_at: isoOrNull(row.accountExpiresAt),
    failed_login_attempts: row.failedLoginAttempts,
    locked_until: isoOrNull(row.lockedUntil),
    deleted_at: isoOrNull(row.deletedAt),
    has_password: row.passwordHash !== null,
    roles,
  };
}

/** What the audit log keeps of a user: the visible fields, never the hash or MFA secret. */
const AUDIT_KEYS = [
  'email',
  'name',
  'role',
  'is_active',
  'blocked_enabled',
  'blocked_reason',
  'mfa_enabled',
  'account_expires_at',
  'failed_login_attempts',
  'locked_until',
  'deleted_at',
  'has_password',
] as const satisfies readonly (keyof UserWire)[];

function auditFields(row: UserRow): Record<string, unknown> {
  const wire = toUserWire(row, []);
  return Object.fromEntries(AUDIT_KEYS.map((k) => [k, wire[k]]));
}

/** The fields that differ, before and after; `email` is always there to say whose change it is. */
function auditDiff(before: UserRow, after: UserRow): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const a = auditFields(before);
  const b = auditFields(after);
  const changed = AUDIT_KEYS.filter((k) => a[k] !== b[k]);
  return {
    before: { email: a.email, ...Object.fromEntries(changed.map((k) => [k, a[k]])) },
    after: { email: b.email, ...Object.fromEntries(changed.map((k) => [k, b[k]])) },
  };
}

/** Counts as an administrator for the last-administrator rule. */
const isActiveAdmin = (row: Pick<UserRow, 'role' | 'isActive' | 'blockedEnabled' | 'deletedAt'>) =>
  row.role === 'admin' && row.isActive && !row.blockedEnabled && row.deletedAt === null;

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return a === b;
}

function fieldErrors(errors: Partial<Record<string, string>>): FieldError[] {
  return Object.entries(errors).flatMap(([path, message]) => (message ? [{ path, message }] : []));
}

const isSelf = (context: RequestContext, id: string) => 'id' in context.actor && context.actor.id === id;

interface Change {
  patch: Partial<NewUserRow>;
  action: string;
  message: (after: UserRow) => string;
  /** Facts of the request the diff does not show (e.g. the days of an extension). */
  extra?: Record<string, unknown>;
}

export function createUsersService(deps: {
  db: Db;
  repos: Repositories;
  audit: AuditService;
  passwordSetup: PasswordSetupService;
  mfa: Pick<MfaService, 'reset'>;
  now: Clock;
  roles: Pick<RolesService, 'assign' | 'grantNew' | 'legacyRoleIds'>;
}): UsersService {
  const { db, repos, audit, passwordSetup, now } = deps;

  /** Users as answered: each with the roles they hold. */
  async function wires(rows: UserRow[], tx: Db = db): Promise<UserWire[]> {
    const roles = await repos.roles.rolesOfUsers(rows.map((r) => r.id), tx);
    return rows.map((row) => toUserWire(row, (roles.get(row.id) ?? []).map(({ id, key, name }) => ({ id, key, name }) as RoleRef)));
  }
  const wire = async (row: UserRow, tx: Db = db) => (await wires([row], tx))[0]!;

  /** The roles asked for: role_ids, or the two-role form of earlier releases; [] when neither. */
  async function requestedRoleIds(input: { role?: string | undefined; role_ids?: string[] | undefined }, tx: Db): Promise<string[] | undefined> {
    if (input.role_ids !== undefined) return input.role_ids;
    if (input.role === undefined || input.role === '') return undefined;
    if (input.role !== 'admin' && input.role !== 'user') failValidation([{ path: 'role', message: USER_MESSAGES.roleInvalid }]);
    return deps.roles.legacyRoleIds(input.role, tx);
  }

  /**
   * Applies one change to a user in a transaction with its audit row. `state` is the state the
   * user must be in (a live user, or a soft-deleted one for restore). When the change could leave
   * no active administrator, the administrators are locked first (always in id order, before the
   * user's own row) so concurrent removals take turns instead of deadlocking.
   */
  async function change(
    id: string,
    context: RequestContext,
    options: { state: 'live' | 'deleted'; guardsAdmins: boolean },
    build: (current: UserRow, at: Date, tx: Db) => Change | Promise<Change>,
  ): Promise<UserChange> {
    return db.transaction(async (tx) => {
      const at = now();
      const admins = options.guardsAdmins ? await repos.users.lockActiveAdmins(tx) : [];
      const current = await repos.users.findByIdForUpdate(id, tx);
      if (!current || (options.state === 'live' && current.deletedAt)) throw new NotFoundError(USER_MESSAGES.notFound);
      if (options.state === 'deleted' && !current.deletedAt) throw new ConflictError(USER_SERVER_MESSAGES.notDeleted);
      const { patch, action, message, extra } = await build(current, at, tx);
      const next = { ...current, ...patch };
      if (options.guardsAdmins && isActiveAdmin(current) && !isActiveAdmin(next) && admins.length <= 1) {
        throw new ConflictError(USER_MESSAGES.lastAdminRefused);
      }
      const changes = Object.entries(patch).filter(([key, value]) => !sameValue(current[key as keyof UserRow], value));
      // Nothing changed: leave updated_at and the audit log alone.
      if (changes.length === 0 && !extra?.roles) return { user: await wire(current, tx), message: message(current) };
      const written = await repos.users.update(id, { ...Object.fromEntries(changes), updatedAt: at }, tx);
      if (!written) throw new NotFoundError(USER_MESSAGES.notFound);
      if (written.email !== current.email || written.deletedAt) await repos.passwordSetupTokens.revokeUnusedForUser(id, at, tx);
      const diff = auditDiff(current, written);
      await audit.record(
        { ...auditSource(context), action, targetType: 'user', targetId: id, before: diff.before, after: { ...diff.after, ...extra } },
        tx,
      );
      return { user: await wire(written, tx), message: message(written) };
    });
  }

  const live = { state: 'live', guardsAdmins: false } as const;
  const liveGuarded = { state: 'live', guardsAdmins: true } as const;

  function refuseSelf(context: RequestContext, id: string) {
    if (isSelf(context, id)) throw new ForbiddenError(USER_MESSAGES.selfRefused);
  }

  return {
    async list({ page, limit, search, isActive, includeDeleted }) {
      const filter = { search: search ?? null, isActive: isActive ?? null, includeDeleted: includeDeleted ?? false };
      const offset = (page - 1) * limit;
      // The page as it opens lists every live user: the stat cards' total is its total.
      const [rows, counted, stats] = await Promise.all([
        repos.users.list(filter, { limit, offset }),
        repos.users.listsEveryLiveUser(filter) ? null : repos.users.count(filter),
        repos.users.stats(),
      ]);
      const total = counted ?? stats.total;
      return { users: await wires(rows), pagination: paginationOf(total, page, limit), stats };
    },

    async get(id) {
      const row = await repos.users.findById(id);
      if (!row) throw new NotFoundError(USER_MESSAGES.notFound);
      return wire(row);
    },

    async create(input, context, grantor) {
      const form = { name: input.name ?? '', email: input.email ?? '', roleIds: input.role_ids ?? (input.role ? [input.role] : []), password: input.password ?? '' };
      const errors = fieldErrors(validateUserForm(form, 'create'));
      // The two-role form of earlier releases: its role is checked in place of the roles.
      if (input.role_ids === undefined && input.role && !(USER_ROLES as readonly string[]).includes(input.role)) {
        const at = errors.findIndex((e) => e.path === 'password');
        errors.splice(at < 0 ? errors.length : at, 0, { path: 'role', message: USER_MESSAGES.roleInvalid });
      }
      if (form.password.length > MAX_PASSWORD_LENGTH) errors.push({ path: 'password', message: PASSWORD_MESSAGES.tooLong });
      if (errors.length > 0) failValidation(errors);
      const email = form.email.trim().toLowerCase();
      const withPassword = form.password !== '';
      // Hash outside the transaction: PGlite has one connection, and nobody should wait on Argon2.
      const passwordHash = withPassword ? await hashPassword(form.password) : null;

      const { row, mail } = await db.transaction(async (tx) => {
        const at = now();
        if (await repos.users.emailTaken(email, null, tx)) throw new ConflictError(USER_MESSAGES.duplicateEmail);
        const roleIds = (await requestedRoleIds(input, tx)) ?? [];
        const inserted = await repos.users.insert(
          {
            email,
            name: form.name.trim(),
            role: 'user',
            passwordHash,
            // Without a password the user stays inactive until they choose one through the link.
            isActive: withPassword,
            passwordChangedAt: withPassword ? at : null,
            createdAt: at,
            updatedAt: at,
          },
          tx,
        );
        const granted = await deps.roles.grantNew(inserted.id, roleIds, grantor, tx);
        const created = granted.badge === 'admin' ? ((await repos.users.update(inserted.id, { role: 'admin' }, tx)) ?? inserted) : inserted;
        const issued = withPassword ? null : await passwordSetup.issueForUser(created.id, tx);
        await audit.record(
          {
            ...auditSource(context),
            action: 'user.created',
            targetType: 'user',
            targetId: created.id,
            after: { ...auditFields(created), roles: granted.names, ...(issued ? { passwordSetupExpiresAt: issued.expiresAt.toISOString() } : {}) },
          },
          tx,
        );
        const mail = issued ? await passwordSetup.recordLink({ email: created.email, name: created.name, company: '' }, issued, 'created', context, tx) : null;
        return { row: created, mail };
      });

      if (!mail) return { user: await wire(row), message: USER_MESSAGES.created(row.email) };
      const message = await passwordSetup.deliverLink(mail, context, {
        sent: USER_MESSAGES.createdWithLink(row.email),
        failed: (error) => USER_SERVER_MESSAGES.createdEmailFailed(row.email, error),
      });
      return { user: await wire(row), message };
    },

    async update(id, payload, context, grantor) {
      return change(id, context, liveGuarded, async (current, _at, tx) => {
        const form = { name: payload.name ?? current.name, email: payload.email ?? current.email, roleIds: payload.role_ids ?? ['unchanged'] };
        const errors = fieldErrors(validateUserForm(form, 'edit'));
        if (errors.length > 0) failValidation(errors);
        const patch: Partial<NewUserRow> = { name: form.name.trim(), email: form.email.trim().toLowerCase() };
        const roleIds = await requestedRoleIds(payload, tx);
        const roles = roleIds === undefined ? null : await deps.roles.assign(id, roleIds, grantor, tx);
        if (roles) patch.role = roles.badge;
        if (payload.is_active !== undefined) patch.isActive = payload.is_active;
        const suspends = current.isActive && payload.is_active === false;
        if (suspends) refuseSelf(context, id);
        if (suspends && current.role === 'admin') throw new ForbiddenError(USER_MESSAGES.adminSuspendRefused);
        if (patch.email !== current.email && (await repos.users.emailTaken(patch.email!, id, tx))) throw new ConflictError(USER_MESSAGES.duplicateEmail);
        const toggles = payload.is_active !== undefined && payload.is_active !== current.isActive;
        return {
          patch,
          ...(roles ? { extra: { roles: { before: roles.before, after: roles.after } } } : {}),
          action: toggles ? (payload.is_active ? 'user.activated' : 'user.suspended') : 'user.updated',
          message: (after) => (toggles ? (after.isActive ? USER_MESSAGES.activated(after.name) : USER_MESSAGES.suspended(after.name)) : USER_MESSAGES.updated),
        };
      });
    },

    async remove(id, context) {
      refuseSelf(context, id);
      return change(id, context, liveGuarded, (_current, at) => ({
        patch: { deletedAt: at },
        action: 'user.deleted',
        message: (after) => USER_MESSAGES.deleted(after.name),
      }));
    },

    async hardDelete(id, context) {
      return db.transaction(async (tx) => {
        const current = await repos.users.findByIdForUpdate(id, tx);
        if (!current) throw new NotFoundError(USER_MESSAGES.notFound);
        if (!current.deletedAt) throw new ConflictError(USER_SERVER_MESSAGES.notDeleted);
        // The audit rows keep the id as text, so the trail survives the row.
        await repos.users.hardDelete(id, tx);
        await audit.record(
          { ...auditSource(context), action: 'user.hard_deleted', targetType: 'user', targetId: id, before: auditFields(current), after: { email: current.email } },
          tx,
        );
        return { uuid: id, message: USER_MESSAGES.hardDeleted(current.name) };
      });
    },

    async restore(id, context) {
      return change(id, context, { state: 'deleted', guardsAdmins: false }, async (current, _at, tx) => {
        if (await repos.users.emailTaken(current.email, id, tx)) throw new ConflictError(USER_MESSAGES.duplicateEmail);
        return { patch: { deletedAt: null }, action: 'user.restored', message: (after) => USER_MESSAGES.restored(after.name) };
      });
    },

    async block(id, reason, context) {
      const trimmed = reason?.trim() ?? '';
      if (!trimmed) failValidation([{ path: 'reason', message: USER_MESSAGES.blockReasonRequired }]);
      if (trimmed.length > USER_FIELD_LIMITS.blockedReason) {
        failValidation([{ path: 'reason', message: `Block reason must be at most ${USER_FIELD_LIMITS.blockedReason} characters` }]);
      }
      refuseSelf(context, id);
      return change(id, context, liveGuarded, (current, at) => ({
        // Blocking again only replaces the reason; blocked_at keeps the first moment.
        patch: { blockedEnabled: true, blockedReason: trimmed, blockedAt: current.blockedEnabled ? current.blockedAt : at },
        action: 'user.blocked',
        message: (after) => USER_MESSAGES.blocked(after.name),
      }));
    },

    async unblock(id, context) {
      return change(id, context, live, () => ({
        patch: { blockedEnabled: false, blockedReason: null, blockedAt: null },
        action: 'user.unblocked',
        message: (after) => USER_MESSAGES.unblocked(after.name),
      }));
    },

    async disableMfa(id, context) {
      return db.transaction(async (tx) => {
        const current = await repos.users.findByIdForUpdate(id, tx);
        if (!current || current.deletedAt) throw new NotFoundError(USER_MESSAGES.notFound);
        // The backup codes go with the secret; the row is then answered as it now stands.
        await deps.mfa.reset('user', id, tx);
        const written = await repos.users.clearMfa(id, now(), tx);
        if (!written) throw new NotFoundError(USER_MESSAGES.notFound);
        await audit.record(
          {
            ...auditSource(context),
            action: 'user.mfa_disabled',
            targetType: 'user',
            targetId: id,
            before: { email: current.email, mfa_enabled: current.mfaEnabled },
            after: { email: written.email, mfa_enabled: false },
          },
          tx,
        );
        return { user: await wire(written, tx), message: USER_MESSAGES.mfaDisabled(written.name) };
      });
    },

    async extendExpiration(id, days, context) {
      return change(id, context, live, (current, at) => {
        return {
          patch: { accountExpiresAt: extendedExpiry(current.accountExpiresAt, at, days) },
          action: 'user.extended',
          message: (after) => USER_MESSAGES.extended(after.name, days),
          extra: { days },
        };
      });
    },

    async resetLoginAttempts(id, context) {
      return change(id, context, live, () => ({
        patch: { failedLoginAttempts: 0, lockedUntil: null },
        action: 'user.login_attempts_reset',
        message: (after) => USER_MESSAGES.attemptsReset(after.name),
      }));
    },
  };
}
