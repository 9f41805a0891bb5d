import { eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { appMeta } from '../schema';

export type AppMetaRepository = ReturnType<typeof createAppMetaRepository>;

export function createAppMetaRepository(db: Db) {
  return {
    async get(key: string, tx: Db = db): Promise<unknown> {
      const [row] = await tx.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, key));
      return row?.value;
    },
    /** Sets the key only if it is absent; true when this call set it (a one-time marker). */
    async claim(key: string, value: unknown, tx: Db = db): Promise<boolean> {
      const rows = await tx.insert(appMeta).values({ key, value }).onConflictDoNothing().returning({ key: appMeta.key });
      return rows.length === 1;
    },
    /** Sets the key, whatever it held (a marker that moves, e.g. when a listing was last read in full). */
    async set(key: string, value: unknown, tx: Db = db): Promise<void> {
      await tx.insert(appMeta).values({ key, value }).onConflictDoUpdate({ target: appMeta.key, set: { value } });
    },
    /** Serialises one-time work across processes sharing a PostgreSQL server until `tx` ends. */
    async lockForTransaction(lockKey: number, tx: Db): Promise<void> {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${sql.raw(String(Math.trunc(lockKey)))})`);
    },
  };
}
