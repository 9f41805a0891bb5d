// Roles: what each grants, who holds which, and the rules on changing them.
// - Nobody grants what they do not hold: a role's permissions, or a user's roles (added or taken
//   away), must lie within the grantor's own permissions (privilege escalation: 403).
// - The last Owner keeps the Owner role (409, the users service's last-Owner lock); nobody takes
//   from themselves the role that lets them manage roles (403).
// users.role is the Owner badge of the users list ('admin' = holds Owner), kept here in the
// same transaction as the roles, so the last-administrator lock of the users service keeps
// meaning "the last Owner".
import {
  BUILT_IN_ROLES,
  LEGACY_ROLE_MAPPING,
  ROLE_LIMITS,
  ROLE_MESSAGES,
  allows,
  isPermission,
  withImplied,
  type BuiltInRoleKey,
  type Permission,
  type RoleRef,
  type RoleWire,
} from '../../src/domain/permissions';
import type { UserRole } from '../../src/domain/auth';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import type { Repositories } from '../db/repositories';
import type { RoleGrant } from '../db/repositories/roles';
import { isUniqueViolation } from '../db/repositories/unique-violation';
import type { RoleRow } from '../db/schema';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors';
import { failValidation } from './account-fields';
import { auditSource, type AuditService, type RequestContext } from './audit';

/** A custom role's form as received: permissions are checked against the catalogue here. */
export interface RoleForm {
  name?: string | undefined;
  description?: string | undefined;
  permissions?: readonly string[] | undefined;
}

/** Who is granting: their id and what they hold now. */
export interface Grantor {
  id: string;
  permissions: readonly Permission[];
}

export interface UserAccess {
  roles: RoleRef[];
  permissions: Permission[];
}

const builtInByKey = new Map(BUILT_IN_ROLES.map((r) => [r.key as string, r]));
const ORDER = new Map(BUILT_IN_ROLES.map((r, i) => [r.key as string, i]));

/** What a role grants: the code's list for a built-in role, the row's own for a custom one. */
export function grantsOfRole(role: Pick<RoleRow, 'key' | 'permissions'>): Permission[] {
  const builtIn = role.key ? builtInByKey.get(role.key) : undefined;
  if (builtIn) return [...builtIn.permissions];
  return withImplied(role.permissions.filter(isPermission));
}

export function accessOf(grants: readonly RoleGrant[]): UserAccess {
  const sorted = [...grants].sort((a, b) => (ORDER.get(a.key ?? '') ?? 99) - (ORDER.get(b.key ?? '') ?? 99) || a.name.localeCompare(b.name));
  return {
    roles: sorted.map(({ id, key, name }) => ({ id, key: key as BuiltInRoleKey | null, name })),
    permissions: withImplied(sorted.flatMap(grantsOfRole)),
  };
}

/** The users list's badge for a set of roles: 'admin' for an Owner. */
const ownerBadge = (held: readonly Pick<RoleRow, 'key'>[]): UserRole => (held.some((r) => r.key === 'owner') ? 'admin' : 'user');

/** Throws unless every permission lies within the grantor's. */
function refuseEscalation(grantor: Grantor, permissions: readonly Permission[]): void {
  if (permissions.some((p) => !allows(grantor.permissions, p))) throw new ForbiddenError(ROLE_MESSAGES.escalation);
}

function toRoleWire(row: RoleRow & { userCount: number }): RoleWire {
  return {
    id: row.id,
    key: (row.key as BuiltInRoleKey | null) ?? null,
    name: row.name,
    description: row.description,
    permissions: grantsOfRole(row),
    builtIn: row.key !== null,
    userCount: row.userCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The form's checks; the permissions come back with what they imply, in catalogue order. */
function validRoleInput(input: RoleForm): { name: string; description: string; permissions: Permission[] } {
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  const description = typeof input.description === 'string' ? input.description.trim() : '';
  const permissions = Array.isArray(input.permissions) ? input.permissions : [];
  const errors: { path: string; message: string }[] = [];
  if (!name) errors.push({ path: 'name', message: ROLE_MESSAGES.nameRequired });
  else if (name.length > ROLE_LIMITS.name) errors.push({ path: 'name', message: ROLE_MESSAGES.nameTooLong });
  if (description.length > ROLE_LIMITS.description) errors.push({ path: 'description', message: ROLE_MESSAGES.descriptionTooLong });
  if (permissions.length === 0) errors.push({ path: 'permissions', message: ROLE_MESSAGES.permissionsRequired });
  const unknown = permissions.filter((p) => !isPermission(p));
  if (unknown.length > 0) errors.push({ path: 'permissions', message: `${ROLE_MESSAGES.unknownPermission}: ${unknown.map(String).join(', ')}` });
  if (errors.length > 0) failValidation(errors);
  return { name, description, permissions: withImplied(permissions as Permission[]) };
}

export type RolesService = ReturnType<typeof createRolesService>;

export function createRolesService(deps: { db: Db; repos: Repositories; audit: AuditService; now: Clock }) {
  const { db, repos, audit, now } = deps;

  async function accessOfUser(userId: string): Promise<UserAccess> {
    return accessOf(await repos.roles.grantsOf(userId));
  }

  /** The role ids a user ends up with, checked: they exist, and there is at least one. */
  async function resolveRoleIds(roleIds: readonly string[], tx: Db): Promise<RoleRow[]> {
    const unique = [...new Set(roleIds)];
    if (unique.length === 0) failValidation([{ path: 'role_ids', message: ROLE_MESSAGES.rolesRequired }]);
    const rows = await repos.roles.findByIds(unique, tx);
    if (rows.length !== unique.length) throw new NotFoundError(ROLE_MESSAGES.notFound);
    return rows;
  }

  async function saveRole(
    id: string | null,
    input: RoleForm,
    grantor: Grantor,
    context: RequestContext,
  ): Promise<RoleWire> {
    const valid = validRoleInput(input);
    refuseEscalation(grantor, valid.permissions);
    try {
      return await db.transaction(async (tx) => {
        const at = now();
        const before = id ? await repos.roles.findById(id, tx) : null;
        if (id && !before) throw new NotFoundError(ROLE_MESSAGES.notFound);
        if (before?.key) throw new ForbiddenError(ROLE_MESSAGES.builtInReadOnly);
        if (before) {
          // Changing a role someone holds changes what they may do: the same rule as giving it.
          refuseEscalation(grantor, grantsOfRole(before));
          const grantorRoles = await repos.roles.grantsOf(grantor.id, tx);
          if (grantorRoles.some((r) => r.id === before.id)) {
            const after = accessOf(grantorRoles.map((r) => (r.id === before.id ? { ...r, permissions: valid.permissions } : r)));
            if (!allows(after.permissions, 'users:manage')) throw new ForbiddenError(ROLE_MESSAGES.selfLockout);
          }
        }
        const row = before ? await repos.roles.update(before.id, { ...valid, at }, tx) : await repos.roles.insert({ ...valid, at }, tx);
        if (!row) throw new NotFoundError(ROLE_MESSAGES.notFound);
        await audit.record(
          {
            ...auditSource(context),
            action: before ? 'role.updated' : 'role.created',
            targetType: 'role',
            targetId: row.id,
            before: before ? { name: before.name, description: before.description, permissions: before.permissions } : null,
            after: { name: row.name, description: row.description, permissions: row.permissions },
          },
          tx,
        );
        return toRoleWire({ ...row, userCount: before ? await repos.roles.countHolders(row.id, tx) : 0 });
      });
    } catch (error) {
      if (isUniqueViolation(error, 'roles_name_uq')) throw new ConflictError(ROLE_MESSAGES.nameTaken);
      throw error;
    }
  }

  return {
    accessOfUser,

    async list(): Promise<RoleWire[]> {
      const rows = await repos.roles.list();
      return rows.map(toRoleWire).sort((a, b) => (ORDER.get(a.key ?? '') ?? 99) - (ORDER.get(b.key ?? '') ?? 99));
    },

    create(input: RoleForm, grantor: Grantor, context: RequestContext) {
      return saveRole(null, input, grantor, context);
    },

    update(id: string, input: RoleForm, grantor: Grantor, context: RequestContext) {
      return saveRole(id, input, grantor, context);
    },

    async remove(id: string, grantor: Grantor, context: RequestContext): Promise<void> {
      await db.transaction(async (tx) => {
        const role = await repos.roles.findById(id, tx);
        if (!role) throw new NotFoundError(ROLE_MESSAGES.notFound);
        if (role.key) throw new ForbiddenError(ROLE_MESSAGES.builtInReadOnly);
        refuseEscalation(grantor, grantsOfRole(role));
        const holders = await repos.roles.countHolders(id, tx);
        if (holders > 0) throw new ConflictError(ROLE_MESSAGES.inUse(holders));
        await repos.roles.delete(id, tx);
        await audit.record(
          { ...auditSource(context), action: 'role.deleted', targetType: 'role', targetId: id, before: { name: role.name, permissions: role.permissions } },
          tx,
        );
      });
    },

    /** The role ids the two-role form of earlier releases means. */
    async legacyRoleIds(role: UserRole, tx: Db = db): Promise<string[]> {
      const row = await repos.roles.findByKey(LEGACY_ROLE_MAPPING[role], tx);
      if (!row) throw new Error(`built-in role ${LEGACY_ROLE_MAPPING[role]} is missing: migrations not applied`);
      return [row.id];
    },

    /**
     * Checks and writes a user's new roles inside the caller's transaction; returns the Owner
     * badge (users.role) they mean and the audit's before/after names, or null when unchanged.
     * The caller holds the last-Owner lock (users service `change`).
     */
    async assign(
      userId: string,
      roleIds: readonly string[],
      grantor: Grantor,
      tx: Db,
    ): Promise<{ badge: UserRole; before: string[]; after: string[] } | null> {
      const next = await resolveRoleIds(roleIds, tx);
      const current = await repos.roles.rolesOfUsers([userId], tx);
      const currentRoles = current.get(userId) ?? [];
      const currentIds = new Set(currentRoles.map((r) => r.id));
      const nextIds = new Set(next.map((r) => r.id));
      const added = next.filter((r) => !currentIds.has(r.id));
      const removedIds = [...currentIds].filter((id) => !nextIds.has(id));
      if (added.length === 0 && removedIds.length === 0) return null;
      const removed = await repos.roles.findByIds(removedIds, tx);
      refuseEscalation(grantor, [...added, ...removed].flatMap(grantsOfRole));
      if (userId === grantor.id && !allows(accessOf(next).permissions, 'users:manage')) throw new ForbiddenError(ROLE_MESSAGES.selfLockout);
      await repos.roles.setUserRoles(userId, [...nextIds], tx);
      return {
        badge: ownerBadge(next),
        before: currentRoles.map((r) => r.name),
        after: next.map((r) => r.name),
      };
    },

    /** Gives a newly created user their roles (checked like any grant). */
    async grantNew(userId: string, roleIds: readonly string[], grantor: Grantor, tx: Db): Promise<{ badge: UserRole; names: string[] }> {
      const next = await resolveRoleIds(roleIds, tx);
      refuseEscalation(grantor, next.flatMap(grantsOfRole));
      await repos.roles.setUserRoles(userId, next.map((r) => r.id), tx);
      return { badge: ownerBadge(next), names: next.map((r) => r.name) };
    },
  };
}

