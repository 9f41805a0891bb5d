// Provider accounts: the rows, the counts the accounts page shows beside them, and the status the
// syncs and connection tests leave (a refused credential pauses the account's syncs).
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { providerAccounts, type ProviderAccountRow } from '../schema';
import { accountCounts } from './account-figures';
import { rowsOf } from './results';

export type ProviderAccountInsert = Omit<typeof providerAccounts.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
export type ProviderAccountPatch = Partial<ProviderAccountInsert>;

export interface ProviderAccountListRow extends ProviderAccountRow {
  lineCount: number;
  terminalCount: number;
  lastSyncAt: Date | null;
}

export type ProviderAccountsRepository = ReturnType<typeof createProviderAccountsRepository>;

export function createProviderAccountsRepository(db: Db) {
  const a = providerAccounts;
  return {
    async list(tx: Db = db): Promise<ProviderAccountRow[]> {
      return tx.select().from(a).orderBy(asc(a.id));
    },

    /** Every account with its live lines and terminals (as the database keeps them) and its last finished sync. */
    async listWithCounts(tx: Db = db): Promise<ProviderAccountListRow[]> {
      const [accounts, counts, syncs] = await Promise.all([
        tx.select().from(a).orderBy(asc(a.id)),
        accountCounts(tx),
        tx.execute(sql`SELECT account_id, max(finished_at) AS last_sync FROM sync_runs WHERE status = 'succeeded' GROUP BY account_id`),
      ]);
      const lastSync = new Map(rowsOf<{ account_id: number; last_sync: string | Date | null }>(syncs).map((r) => [Number(r.account_id), r.last_sync]));
      return accounts.map((row) => {
        const c = counts.get(row.id);
        const last = lastSync.get(row.id);
        return {
          ...row,
          lineCount: c?.lines ?? 0,
          terminalCount: c?.terminals ?? 0,
          lastSyncAt: last ? new Date(last) : null,
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
