import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../client';
import { users, type NewUserRow, type UserRow } from '../schema';
import { createAccountLoginStore } from './accounts';

export type UsersRepository = ReturnType<typeof createUsersRepository>;

export function createUsersRepository(db: Db) {
  return {
    ...createAccountLoginStore<UserRow>(db, users),
    async insert(row: NewUserRow, tx: Db = db): Promise<UserRow> {
      const [created] = await tx.insert(users).values(row).returning();
      if (!created) throw new Error('insert into users returned no row');
      return created;
    },
    /** Inserts many rows, skipping any whose email is already taken. Returns how many went in. */
    async insertManyIgnoringConflicts(rows: NewUserRow[], tx: Db = db): Promise<number> {
      if (rows.length === 0) return 0;
      const inserted = await tx.insert(users).values(rows).onConflictDoNothing().returning({ id: users.id });
      return inserted.length;
    },
    async countLiveAdmins(tx: Db = db): Promise<number> {
      return tx.$count(users, and(eq(users.role, 'admin'), isNull(users.deletedAt)));
    },
    async update(id: string, patch: Partial<NewUserRow>, tx: Db = db): Promise<UserRow | null> {
      const [row] = await tx.update(users).set(patch).where(eq(users.id, id)).returning();
      return row ?? null;
    },
  };
}
