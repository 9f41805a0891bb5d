// The dashboard's headline figures in one statement: each was a statement of its own (two
// counts, the fleet's figures and the newest inventory run), and on the embedded database a
// statement's fixed cost was most of the page's.
import { sql } from 'drizzle-orm';
import type { Db } from '../client';
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
  };
}
