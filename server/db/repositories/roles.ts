// Roles and who holds them. Built-in roles are rows with a key whose permissions the code gives
// (src/domain/permissions.ts); the service merges them. A user's roles are read on every request
// that a portal user or API key makes, by a statement prepared once.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { roles, userRoles, users, type RoleRow } from '../schema';

export type RoleGrant = Pick<RoleRow, 'id' | 'key' | 'name' | 'permissions'>;

export type RolesRepository = ReturnType<typeof createRolesRepository>;

export function createRolesRepository(db: Db) {
  const grantsQuery = (q: Db) =>
    q
      .select({ id: roles.id, key: roles.key, name: roles.name, permissions: roles.permissions })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(userRoles.userId, sql.placeholder('userId')));
  const grantsOf = grantsQuery(db).prepare('role_grants_of_user');
  // Correlated on the outer roles row by its qualified name: inside the subquery a bare "id" would be the user's.
  const holders = sql<number>`(SELECT count(*)::int FROM user_roles ur JOIN users u ON u.id = ur.user_id AND u.deleted_at IS NULL WHERE ur.role_id = "roles"."id")`;

  return {
    /** The roles a user holds, with what each grants (built-in ones: empty here, see the service). */
    async grantsOf(userId: string, tx: Db = db): Promise<RoleGrant[]> {
      return (tx === db ? grantsOf : grantsQuery(tx)).execute({ userId });
    },
    async list(tx: Db = db): Promise<(RoleRow & { userCount: number })[]> {
      // Built-in roles first in their fixed order (the service sorts them), then custom ones by name.
      return tx
        .select({
          id: roles.id,
          key: roles.key,
          name: roles.name,
          description: roles.description,
          permissions: roles.permissions,
          createdAt: roles.createdAt,
          updatedAt: roles.updatedAt,
          userCount: holders,
        })
        .from(roles)
        .orderBy(asc(sql`${roles.key} IS NULL`), asc(sql`lower(${roles.name})`));
    },
    async findById(id: string, tx: Db = db): Promise<RoleRow | null> {
      const [row] = await tx.select().from(roles).where(eq(roles.id, id)).limit(1);
      return row ?? null;
    },
    async findByIds(ids: readonly string[], tx: Db = db): Promise<RoleRow[]> {
      if (ids.length === 0) return [];
      return tx.select().from(roles).where(inArray(roles.id, [...ids]));
    },
    async findByKey(key: string, tx: Db = db): Promise<RoleRow | null> {
      const [row] = await tx.select().from(roles).where(eq(roles.key, key)).limit(1);
      return row ?? null;
    },
    async insert(row: { name: string; description: string; permissions: string[]; at: Date }, tx: Db = db): Promise<RoleRow> {
      const [created] = await tx
        .insert(roles)
        .values({ name: row.name, description: row.description, permissions: row.permissions, createdAt: row.at, updatedAt: row.at })
        .returning();
      if (!created) throw new Error('insert into roles returned no row');
      return created;
    },
    async update(id: string, patch: { name: string; description: string; permissions: string[]; at: Date }, tx: Db = db): Promise<RoleRow | null> {
      const [row] = await tx
        .update(roles)
        .set({ name: patch.name, description: patch.description, permissions: patch.permissions, updatedAt: patch.at })
        .where(and(eq(roles.id, id), isNull(roles.key)))
        .returning();
      return row ?? null;
    },
    async delete(id: string, tx: Db = db): Promise<boolean> {
      const rows = await tx.delete(roles).where(and(eq(roles.id, id), isNull(roles.key))).returning({ id: roles.id });
      return rows.length > 0;
    },
    /** Live users holding the role. */
    async countHolders(roleId: string, tx: Db = db): Promise<number> {
      const [row] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(userRoles)
        .innerJoin(users, and(eq(users.id, userRoles.userId), isNull(users.deletedAt)))
        .where(eq(userRoles.roleId, roleId));
      return row?.n ?? 0;
    },
    /** Each user's roles, for a page of users. */
    async rolesOfUsers(userIds: readonly string[], tx: Db = db): Promise<Map<string, Pick<RoleRow, 'id' | 'key' | 'name'>[]>> {
      const out = new Map<string, Pick<RoleRow, 'id' | 'key' | 'name'>[]>();
      if (userIds.length === 0) return out;
      const rows = await tx
        .select({ userId: userRoles.userId, id: roles.id, key: roles.key, name: roles.name })
        .from(userRoles)
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .where(inArray(userRoles.userId, [...userIds]))
        .orderBy(asc(sql`${roles.key} IS NULL`), asc(roles.name));
      for (const { userId, ...role } of rows) out.set(userId, [...(out.get(userId) ?? []), role]);
      return out;
    },
    /** Replaces a user's roles with these. */
    async setUserRoles(userId: string, roleIds: readonly string[], tx: Db = db): Promise<void> {
      await tx.delete(userRoles).where(eq(userRoles.userId, userId));
      if (roleIds.length > 0) await tx.insert(userRoles).values(roleIds.map((roleId) => ({ userId, roleId })));
    },
  };
}
