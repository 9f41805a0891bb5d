// Portal users: sign-in bookkeeping (shared with customers), the users page's list with search,
// filters, paging and stats, edits, soft and hard delete, and the last-administrator lock.
import { and, desc, eq, inArray, isNotNull, isNull, not, or, sql, type SQL } from 'drizzle-orm';
import { LEGACY_ROLE_MAPPING } from '../../../src/domain/permissions';
import type { UserStats } from '../../../src/domain/users';
import type { Db } from '../client';
import { roles, userRoles, users, type NewUserRow, type UserRow } from '../schema';
import { createAccountLoginStore } from './accounts';
import { escapeLike, searchTerm } from './customers';

export interface UserListFilter {
  /** Case-insensitive substring of name or email; `%` and `_` match themselves. */
  search?: string | null;
  isActive?: boolean | null;
  /** Soft-deleted users are left out unless asked for. */
  includeDeleted?: boolean;
}

function listWhere(filter: UserListFilter): SQL | undefined {
  const u = users;
  const conditions: (SQL | undefined)[] = [filter.includeDeleted ? undefined : isNull(u.deletedAt)];
  const term = searchTerm(filter.search);
  if (term) {
    const pattern = `%${escapeLike(term)}%`;
    conditions.push(or(sql`lower(${u.name}) LIKE lower(${pattern})`, sql`lower(${u.email}) LIKE lower(${pattern})`));
  }
  if (filter.isActive !== undefined && filter.isActive !== null) conditions.push(eq(u.isActive, filter.isActive));
  return and(...conditions);
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;

export function createUsersRepository(db: Db) {
  const u = users;
  async function update(id: string, patch: Partial<NewUserRow>, tx: Db = db): Promise<UserRow | null> {
    const [row] = await tx.update(users).set(patch).where(eq(u.id, id)).returning();
    return row ?? null;
  }
  /**
   * A user always holds a role: a row inserted with only the Owner badge (the first administrator,
   * demo data) holds the role the badge means; the users service then sets the chosen roles in the
   * same transaction.
   */
  async function grantBadgeRoles(ids: string[], tx: Db): Promise<void> {
    if (ids.length === 0) return;
    const meant = sql`CASE ${u.role} WHEN 'admin' THEN ${LEGACY_ROLE_MAPPING.admin} ELSE ${LEGACY_ROLE_MAPPING.user} END`;
    await tx
      .insert(userRoles)
      .select(tx.select({ userId: u.id, roleId: roles.id }).from(u).innerJoin(roles, eq(roles.key, meant)).where(inArray(u.id, ids)))
      .onConflictDoNothing();
  }
  return {
    ...createAccountLoginStore<UserRow>(db, users),
    async insert(row: NewUserRow, tx: Db = db): Promise<UserRow> {
      const [created] = await tx.insert(users).values(row).returning();
      if (!created) throw new Error('insert into users returned no row');
      await grantBadgeRoles([created.id], tx);
      return created;
    },
    /** Inserts many rows, skipping any whose email is already taken. Returns how many went in. */
    async insertManyIgnoringConflicts(rows: NewUserRow[], tx: Db = db): Promise<number> {
      if (rows.length === 0) return 0;
      const inserted = await tx.insert(users).values(rows).onConflictDoNothing().returning({ id: users.id });
      await grantBadgeRoles(inserted.map((r) => r.id), tx);
      return inserted.length;
    },
    async countLiveAdmins(tx: Db = db): Promise<number> {
      return tx.$count(users, and(eq(users.role, 'admin'), isNull(users.deletedAt)));
    },
    update,
    /** The user, live or soft-deleted. */
    async findById(id: string, tx: Db = db): Promise<UserRow | null> {
      const [row] = await tx.select().from(users).where(eq(u.id, id)).limit(1);
      return row ?? null;
    },
    /** The user (live or soft-deleted), locked until `tx` ends so concurrent edits take turns. */
    async findByIdForUpdate(id: string, tx: Db): Promise<UserRow | null> {
      const [row] = await tx.select().from(users).where(eq(u.id, id)).for('update');
      return row ?? null;
    },
    /**
     * Ids of the live, active, unblocked administrators, locked until `tx` ends: two requests
     * that each remove a different one of the last two cannot both see the other still there.
     */
    async lockActiveAdmins(tx: Db): Promise<string[]> {
      const rows = await tx
        .select({ id: u.id })
        .from(users)
        .where(and(eq(u.role, 'admin'), eq(u.isActive, true), eq(u.blockedEnabled, false), isNull(u.deletedAt)))
        .orderBy(u.id)
        .for('update');
      return rows.map((r) => r.id);
    },
    /** Another live user already using this email (any case), if there is one. */
    async emailTaken(email: string, exceptId: string | null, tx: Db = db): Promise<boolean> {
      const rows = await tx
        .select({ id: u.id })
        .from(users)
        .where(and(sql`lower(${u.email}) = lower(${email})`, isNull(u.deletedAt), exceptId ? not(eq(u.id, exceptId)) : undefined))
        .limit(1);
      return rows.length > 0;
    },
    /** One page, newest first (id breaks ties, so pages never overlap). */
    async list(filter: UserListFilter, page: { limit: number; offset: number }, tx: Db = db): Promise<UserRow[]> {
      return tx.select().from(users).where(listWhere(filter)).orderBy(desc(u.createdAt), desc(u.id)).limit(page.limit).offset(page.offset);
    },
    async count(filter: UserListFilter, tx: Db = db): Promise<number> {
      const [row] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(users)
        .where(listWhere(filter));
      return Number(row?.n ?? 0);
    },
    /** True when `filter` lists exactly the users `stats` counts (every live one), so its total is stats' total. */
    listsEveryLiveUser(filter: UserListFilter): boolean {
      return !filter.includeDeleted && !searchTerm(filter.search) && (filter.isActive === undefined || filter.isActive === null);
    },
    /** The stat cards' figures over every live user, in one pass. */
    async stats(tx: Db = db): Promise<UserStats> {
      const [row] = await tx
        .select({
          total: sql<number>`count(*)::int`,
          active: sql<number>`(count(*) FILTER (WHERE ${u.isActive} AND NOT ${u.blockedEnabled}))::int`,
          mfaEnabled: sql<number>`(count(*) FILTER (WHERE ${u.mfaEnabled}))::int`,
        })
        .from(users)
        .where(isNull(u.deletedAt));
      return { total: Number(row?.total ?? 0), active: Number(row?.active ?? 0), mfaEnabled: Number(row?.mfaEnabled ?? 0) };
    },
    /**
     * Turns multi-factor authentication off and forgets the secrets (a set-up under way too). The
     * backup codes are the MFA repository's (the users service asks it to drop them first).
     */
    async clearMfa(id: string, at: Date, tx: Db = db): Promise<UserRow | null> {
      return update(id, { mfaEnabled: false, mfaSecret: null, mfaPendingSecret: null, mfaLastStep: null, updatedAt: at }, tx);
    },
    /** Removes a soft-deleted user for good; a live user is never removed. */
    async hardDelete(id: string, tx: Db = db): Promise<boolean> {
      const rows = await tx.delete(users).where(and(eq(u.id, id), isNotNull(u.deletedAt))).returning({ id: u.id });
      return rows.length > 0;
    },
  };
}
