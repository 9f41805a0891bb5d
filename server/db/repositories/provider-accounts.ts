// Provider accounts: the rows, the counts the accounts page shows beside them, and the status the
// syncs and connection tests leave (a refused credential pauses the account's syncs).
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { providerAccounts, type ProviderAccountRow } from '../schema';

export type ProviderAccountInsert = Omit<typeof providerAccounts.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
export type ProviderAccountPatch = Partial<ProviderAccountInsert>;

export interface ProviderAccountListRow extends ProviderAccountRow {
  lineCount: number;
  terminalCount: number;
  lastSyncAt: Date | null;
}

const rowsOf = <T>(result: unknown): T[] => ((result as { rows?: T[] }).rows ?? (result as T[]));

export type ProviderAccountsRepository = ReturnType<typeof createProviderAccountsRepository>;

export function createProviderAccountsRepository(db: Db) {
  const a = providerAccounts;
  return {
    async list(tx: Db = db): Promise<ProviderAccountRow[]> {
      return tx.select().from(a).orderBy(asc(a.id));
    },

    /** Every account with its live lines and terminals and its last finished sync. */
    async listWithCounts(tx: Db = db): Promise<ProviderAccountListRow[]> {
      const [accounts, counts] = await Promise.all([
        tx.select().from(a).orderBy(asc(a.id)),
        tx.execute(sql`
          SELECT pa.id,
                 (SELECT count(*)::int FROM service_lines l WHERE l.account_id = pa.id AND l.removed_at IS NULL) AS lines,
                 (SELECT count(*)::int FROM terminals t WHERE t.account_id = pa.id AND t.removed_at IS NULL) AS terminals,
                 (SELECT max(r.finished_at) FROM sync_runs r WHERE r.account_id = pa.id AND r.status = 'succeeded') AS last_sync
          FROM provider_accounts pa`),
      ]);
      const byId = new Map(
        rowsOf<{ id: number; lines: number; terminals: number; last_sync: string | Date | null }>(counts).map((c) => [Number(c.id), c]),
      );
      return accounts.map((row) => {
        const c = byId.get(row.id);
        return {
          ...row,
          lineCount: Number(c?.lines ?? 0),
          terminalCount: Number(c?.terminals ?? 0),
          lastSyncAt: c?.last_sync ? new Date(c.last_sync) : null,
        };
      });
    },

    async find(id: number, tx: Db = db): Promise<ProviderAccountRow | null> {
      const [row] = await tx.select().from(a).where(eq(a.id, id));
      return row ?? null;
    },

    async insert(values: ProviderAccountInsert, tx: Db = db): Promise<ProviderAccountRow> {
      const [row] = await tx.insert(a).values(values).returning();
      if (!row) throw new Error('insert into provider_accounts returned no row');
      return row;
    },

    async update(id: number, patch: ProviderAccountPatch, at: Date, tx: Db = db): Promise<ProviderAccountRow | null> {
      const [row] = await tx
        .update(a)
        .set({ ...patch, updatedAt: at })
        .where(eq(a.id, id))
        .returning();
      return row ?? null;
    },

    /** Live service lines still held under the account (what a delete is refused with). */
    async liveLines(id: number, tx: Db = db): Promise<number> {
      const [row] = rowsOf<{ n: number }>(await tx.execute(sql`SELECT count(*)::int AS n FROM service_lines WHERE account_id = ${id} AND removed_at IS NULL`));
      return Number(row?.n ?? 0);
    },

    /**
     * Whether anything at all still names the account (removed lines and terminals keep their
     * history and assignments): such an account can only be disabled.
     */
    async holdsRecords(id: number, tx: Db = db): Promise<boolean> {
      const [row] = rowsOf<{ held: boolean }>(
        await tx.execute(sql`
          SELECT EXISTS (SELECT 1 FROM terminals WHERE account_id = ${id})
              OR EXISTS (SELECT 1 FROM service_lines WHERE account_id = ${id})
              OR EXISTS (SELECT 1 FROM provider_invoices WHERE account_id = ${id})
              OR EXISTS (SELECT 1 FROM activations WHERE account_id = ${id}) AS held`),
      );
      return Boolean(row?.held);
    },

    /** Everything a deletable account still has: products, addresses and its sync history. */
    async delete(id: number, tx: Db = db): Promise<boolean> {
      await tx.execute(sql`DELETE FROM provider_products WHERE account_id = ${id}`);
      await tx.execute(sql`DELETE FROM provider_addresses WHERE account_id = ${id}`);
      await tx.execute(sql`DELETE FROM sync_runs WHERE account_id = ${id}`);
      const rows = await tx.delete(a).where(eq(a.id, id)).returning({ id: a.id });
      return rows.length > 0;
    },

    /** The provider refused the credentials: the account's syncs pause until they change. */
    async markAuthFailed(id: number, message: string, at: Date, tx: Db = db): Promise<void> {
      await tx.update(a).set({ authFailedAt: at, statusMessage: message, updatedAt: at }).where(eq(a.id, id));
    },

    /** The provider accepted the credentials: what it said about the account. */
    async markConnected(id: number, seen: { accountNumber: string | null; currency?: string | null; message: string | null }, at: Date, tx: Db = db): Promise<void> {
      await tx
        .update(a)
        .set({
          authFailedAt: null,
          statusMessage: seen.message,
          ...(seen.accountNumber ? { accountNumber: seen.accountNumber } : {}),
          ...(seen.currency ? { currency: seen.currency } : {}),
          updatedAt: at,
        })
        .where(eq(a.id, id));
    },
  };
}
