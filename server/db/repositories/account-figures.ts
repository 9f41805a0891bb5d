// Each provider account's live terminals, active terminals and lines, read from the figures the
// database keeps (migration 0025): the folded row plus the deltas writers appended since. The
// deltas are folded in once there are many, so the read stays a handful of rows.
import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { rowsOf } from './results';

export interface AccountCounts {
  terminals: number;
  activeTerminals: number;
  lines: number;
}

/** Past this many deltas a read folds them into the figures. */
const FOLD_AFTER = 500;

export async function accountCounts(db: Db): Promise<Map<number, AccountCounts>> {
  const rows = rowsOf<{ account_id: number; terminals: number; active_terminals: number; lines: number; deltas: number }>(
    await db.execute(sql`
      WITH d AS (
        SELECT account_id, sum(terminals)::int AS terminals, sum(active_terminals)::int AS active_terminals, sum(lines)::int AS lines, count(*)::int AS n
        FROM account_count_deltas GROUP BY account_id)
      SELECT pa.id AS account_id,
             (coalesce(f.terminals, 0) + coalesce(d.terminals, 0))::int AS terminals,
             (coalesce(f.active_terminals, 0) + coalesce(d.active_terminals, 0))::int AS active_terminals,
             (coalesce(f.lines, 0) + coalesce(d.lines, 0))::int AS lines,
             (SELECT coalesce(sum(n), 0)::int FROM d) AS deltas
      FROM provider_accounts pa
      LEFT JOIN account_figures f ON f.account_id = pa.id
      LEFT JOIN d ON d.account_id = pa.id`),
  );
  if (Number(rows[0]?.deltas ?? 0) > FOLD_AFTER) await db.execute(sql`SELECT account_figures_fold()`);
  return new Map(
    rows.map((r) => [Number(r.account_id), { terminals: Number(r.terminals), activeTerminals: Number(r.active_terminals), lines: Number(r.lines) }]),
  );
}
