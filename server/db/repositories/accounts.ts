// The sign-in bookkeeping portal users and customers share. Both tables carry the same account
// columns (schema.ts `accountColumns`), so one implementation serves either table.
import { and, eq, getTableName, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client';
import type { customers, users, AccountRow, UserRow } from '../schema';

type AccountTable = typeof users | typeof customers;

/** An account's fields a request's authentication reads (role: portal users only). */
export type AccountSession = Pick<AccountRow, 'id' | 'blockedEnabled' | 'isActive' | 'accountExpiresAt' | 'passwordChangedAt'> & {
  role?: UserRow['role'];
};

export interface AccountLoginStore<Row extends AccountRow> {
  /** The live (not deleted) account with this email, compared case-insensitively. */
  findByEmail(email: string, tx?: Db): Promise<Row | null>;
  findLiveById(id: string, tx?: Db): Promise<Row | null>;
  /**
   * What deciding whether a session still stands needs of a live account, by a statement built
   * once (prepared): every authenticated request asks it.
   */
  sessionOf(id: string): Promise<AccountSession | null>;
  /**
   * Counts a failed sign-in. On reaching `maxAttempts` the counter resets and the account locks
   * until `lockUntil`. One statement, so concurrent failures cannot lose a count.
   */
  recordFailedLogin(
    id: string,
    input: { maxAttempts: number; lockUntil: Date },
    tx?: Db,
  ): Promise<{ failedLoginAttempts: number; lockedUntil: Date | null } | null>;
  recordSuccessfulLogin(id: string, input: { at: Date; ip: string | null }, tx?: Db): Promise<Row | null>;
}

export function createAccountLoginStore<Row extends AccountRow>(db: Db, table: AccountTable): AccountLoginStore<Row> {
  // Drizzle cannot infer row types through a union of tables; the callers name the row type.
  const t = table as typeof users;
  const live = isNull(t.deletedAt);
  const session = db
    .select({
      id: t.id,
      blockedEnabled: t.blockedEnabled,
      isActive: t.isActive,
      accountExpiresAt: t.accountExpiresAt,
      passwordChangedAt: t.passwordChangedAt,
      ...('role' in table ? { role: t.role } : {}),
    })
    .from(t)
    .where(and(eq(t.id, sql.placeholder('id')), live))
    .limit(1)
    .prepare(`session_of_${getTableName(table)}`);
  // Read on most requests that act on an account (the signed-in profile, a customer's pages):
  // prepared once, so Drizzle does not build its 20-odd columns again each time.
  const liveById = (q: Db) =>
    q
      .select()
      .from(t)
      .where(and(eq(t.id, sql.placeholder('id')), live))
      .limit(1);
  const liveByIdPrepared = liveById(db).prepare(`live_${getTableName(table)}_by_id`);
  return {
    async findByEmail(email, tx = db) {
      const rows = await tx
        .select()
        .from(t)
        .where(and(sql`lower(${t.email}) = lower(${email})`, live))
        .limit(1);
      return (rows[0] as Row | undefined) ?? null;
    },
    async findLiveById(id, tx = db) {
      const rows = await (tx === db ? liveByIdPrepared : liveById(tx)).execute({ id });
      return (rows[0] as Row | undefined) ?? null;
    },
    async sessionOf(id) {
      const [row] = await session.execute({ id });
      return row ?? null;
    },
    async recordFailedLogin(id, { maxAttempts, lockUntil }, tx = db) {
      const reachesMax = sql`${t.failedLoginAttempts} + 1 >= ${maxAttempts}`;
      const rows = await tx
        .update(t)
        .set({
          failedLoginAttempts: sql`CASE WHEN ${reachesMax} THEN 0 ELSE ${t.failedLoginAttempts} + 1 END`,
          lockedUntil: sql`CASE WHEN ${reachesMax} THEN ${lockUntil.toISOString()}::timestamptz ELSE ${t.lockedUntil} END`,
        })
        .where(eq(t.id, id))
        .returning({ failedLoginAttempts: t.failedLoginAttempts, lockedUntil: t.lockedUntil });
      return rows[0] ?? null;
    },
    async recordSuccessfulLogin(id, { at, ip }, tx = db) {
      const rows = await tx
        .update(t)
        .set({ failedLoginAttempts: 0, lockedUntil: null, lastLogin: at, lastIp: ip, updatedAt: at })
        .where(eq(t.id, id))
        .returning();
      return (rows[0] as Row | undefined) ?? null;
    },
  };
}
