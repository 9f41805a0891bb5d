// The dashboard's headline figures in one statement: each was a statement of its own (two
// counts, the fleet's figures and the newest inventory run), and on the embedded database a
// statement's fixed cost was most of the page's.
import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { accountCounts } from './account-figures';
import { rowsOf } from './results';

export interface DashboardCounts {
  /** Live customers. */
  customers: number;
  /** Live portal users. */
  users: number;
  /** Live terminals on an active service line (fleet_figures_now). */
  activeTerminals: number;
  /** Whether an inventory sync was ever started: until then the terminal count means nothing. */
  inventorySynced: boolean;
}

export interface AccountFigures {
  id: number;
  name: string;
  currency: string | null;
  enabled: boolean;
  authFailed: boolean;
  terminals: number;
  activeTerminals: number;
}

export type DashboardRepository = ReturnType<typeof createDashboardRepository>;

export function createDashboardRepository(db: Db) {
  return {
    async counts(tx: Db = db): Promise<DashboardCounts> {
      const [row] = rowsOf<{ customers: number; users: number; active_terminals: number | null; inventory_synced: boolean }>(
        await tx.execute(sql`
          SELECT
            (SELECT count(*) FROM customers WHERE deleted_at IS NULL)::int AS customers,
            (SELECT count(*) FROM users WHERE deleted_at IS NULL)::int AS users,
            (SELECT on_active_line FROM fleet_figures_now)::int AS active_terminals,
            EXISTS (SELECT 1 FROM sync_runs WHERE kind = 'inventory') AS inventory_synced`),
      );
      if (!row || row.active_terminals === null) throw new Error('fleet_figures has no row: the database was not migrated');
      return { customers: Number(row.customers), users: Number(row.users), activeTerminals: Number(row.active_terminals), inventorySynced: row.inventory_synced };
    },

    /** Each set-up provider account's live terminals and those on an active line (terminals_account_live_idx alone). */
    async perAccount(tx: Db = db): Promise<AccountFigures[]> {
      const [accounts, counts] = await Promise.all([
        tx.execute(sql`SELECT id, name, currency, enabled, auth_failed_at IS NOT NULL AS auth_failed FROM provider_accounts WHERE kind <> 'pending' ORDER BY id`),
        accountCounts(tx),
      ]);
      return rowsOf<{ id: number; name: string; currency: string | null; enabled: boolean; auth_failed: boolean }>(accounts).map((r) => ({
        id: Number(r.id),
        name: r.name,
        currency: r.currency,
        enabled: r.enabled === true || (r.enabled as unknown) === 't',
        authFailed: r.auth_failed === true || (r.auth_failed as unknown) === 't',
        terminals: counts.get(Number(r.id))?.terminals ?? 0,
        activeTerminals: counts.get(Number(r.id))?.activeTerminals ?? 0,
      }));
    },
  };
}
