// The provider call budget's SQL (migration 0010): the starts of calls per account and lane, and
// the account's pause and people-waiting marks. The rules that read them are in
// src/domain/provider-budget.ts; the transaction around them in server/services/provider-call-budget.ts.
//
// Every decision is taken under the account's advisory lock, held until the transaction ends, so
// two processes never both see the last free slot: the count is read after the lock is granted
// (a statement of its own, so its snapshot includes every start committed before). The
// transaction commits without waiting for the WAL flush (synchronous_commit off, for it alone).
import { sql } from 'drizzle-orm';
import type { CallLane, CallWindow } from '../../../src/domain/provider-budget';
import type { Db } from '../client';
import { affected, rowsOf } from './results';

/** First key of the budget's advisory locks (the migrations use 720150001); the second is the account's hash. */
export const CALL_BUDGET_LOCK_CLASS = 720150010;

const iso = (at: Date) => at.toISOString();
/** PGlite and node-postgres both give timestamptz as Date; anything else is read as text. */
const dateOf = (value: unknown): Date | null => (value == null ? null : value instanceof Date ? value : new Date(String(value)));

export type ProviderCallBudgetRepository = ReturnType<typeof createProviderCallBudgetRepository>;

export function createProviderCallBudgetRepository(db: Db) {
  return {
    /**
     * Inside `tx`: waits for the account's lock, then records a start of `lane` at `at` and reads
     * the window that ends there, without that start: the starts in it, those that fill the limit
     * and the sync share, the pause and the people-waiting mark. A start the caller may not make is
     * taken back with `dropStart` before the transaction ends (recording first saves a round trip
     * on the common path, where the call may start).
     */
    async recordStartAndRead(
      accountKey: string,
      lane: CallLane,
      at: Date,
      limits: { total: number; sync: number; windowMs: number },
      tx: Db,
    ): Promise<{ startId: number; window: CallWindow }> {
      // The bookkeeping need not wait for the disk: a crash loses at most the last instant's starts
      // (the provider's own 429 covers that), and the commit costs no WAL flush (about 3 ms).
      await tx.execute(
        sql`SELECT set_config('synchronous_commit', 'off', true), pg_advisory_xact_lock(${CALL_BUDGET_LOCK_CLASS}::int, hashtext(${accountKey}))`,
      );
      const since = iso(new Date(at.getTime() - limits.windowMs));
      // One snapshot for the whole statement: the counts do not see the start it inserts.
      const [row] = rowsOf<{
        start_id: number | string;
        total: number | string;
        sync: number | string;
        total_full_since: unknown;
        sync_full_since: unknown;
        paused_until: unknown;
        people_waiting_until: unknown;
      }>(
        await tx.execute(sql`
          WITH started AS (
            INSERT INTO provider_call_starts (account_key, lane, started_at) VALUES (${accountKey}, ${lane}, ${iso(at)}::timestamptz) RETURNING id
          )
          SELECT (SELECT id FROM started) AS start_id, w.total, w.sync,
            -- Only read when the window (or the sync share) is full: CASE runs the subquery then only.
            CASE WHEN w.total >= ${limits.total}::int THEN
              (SELECT s.started_at FROM provider_call_starts s
                WHERE s.account_key = ${accountKey} AND s.started_at > ${since}::timestamptz
                ORDER BY s.started_at DESC OFFSET ${Math.max(0, limits.total - 1)}::int LIMIT 1) END AS total_full_since,
            CASE WHEN w.sync >= ${limits.sync}::int THEN
              (SELECT s.started_at FROM provider_call_starts s
                WHERE s.account_key = ${accountKey} AND s.started_at > ${since}::timestamptz AND s.lane = 'sync'
                ORDER BY s.started_at DESC OFFSET ${Math.max(0, limits.sync - 1)}::int LIMIT 1) END AS sync_full_since,
            b.paused_until, b.people_waiting_until
          FROM (SELECT count(*)::int AS total, (count(*) FILTER (WHERE lane = 'sync'))::int AS sync
                FROM provider_call_starts WHERE account_key = ${accountKey} AND started_at > ${since}::timestamptz) w
          LEFT JOIN provider_call_budgets b ON b.account_key = ${accountKey}`),
      );
      if (!row) throw new Error('provider_call_starts: the start was not recorded');
      return {
        startId: Number(row.start_id),
        window: {
          total: Number(row.total),
          sync: Number(row.sync),
          totalFullSince: dateOf(row.total_full_since),
          syncFullSince: dateOf(row.sync_full_since),
          pausedUntil: dateOf(row.paused_until),
          peopleWaitingUntil: dateOf(row.people_waiting_until),
        },
      };
    },

    /** Takes back a start recorded by recordStartAndRead (the call may not start yet). */
    async dropStart(startId: number, tx: Db): Promise<void> {
      await tx.execute(sql`DELETE FROM provider_call_starts WHERE id = ${startId}`);
    },

    /** A person waits for a slot until `until`: background calls hold back until then. */
    async markPeopleWaiting(accountKey: string, until: Date, at: Date, tx: Db = db): Promise<void> {
      await tx.execute(sql`
        INSERT INTO provider_call_budgets (account_key, people_waiting_until, updated_at) VALUES (${accountKey}, ${iso(until)}::timestamptz, ${iso(at)}::timestamptz)
        ON CONFLICT (account_key) DO UPDATE SET
          people_waiting_until = greatest(provider_call_budgets.people_waiting_until, EXCLUDED.people_waiting_until),
          updated_at = EXCLUDED.updated_at`);
    },

    /** After a 429: nobody on the account starts a call before `until` (a later pause is kept). */
    async pause(accountKey: string, until: Date, at: Date, tx: Db = db): Promise<void> {
      await tx.execute(sql`
        INSERT INTO provider_call_budgets (account_key, paused_until, updated_at) VALUES (${accountKey}, ${iso(until)}::timestamptz, ${iso(at)}::timestamptz)
        ON CONFLICT (account_key) DO UPDATE SET
          paused_until = greatest(provider_call_budgets.paused_until, EXCLUDED.paused_until),
          updated_at = EXCLUDED.updated_at`);
    },

    async pausedUntil(accountKey: string, tx: Db = db): Promise<Date | null> {
      const [row] = rowsOf<{ paused_until: unknown }>(
        await tx.execute(sql`SELECT paused_until FROM provider_call_budgets WHERE account_key = ${accountKey}`),
      );
      return dateOf(row?.paused_until);
    },

    /** Drops the starts before `before`; how many went. */
    async prune(accountKey: string, before: Date, tx: Db = db): Promise<number> {
      return affected(await tx.execute(sql`DELETE FROM provider_call_starts WHERE account_key = ${accountKey} AND started_at < ${iso(before)}::timestamptz`));
    },

    /** Calls started from `since` on, by minute (UTC, whole minutes since the epoch) and lane. */
    async perMinute(accountKey: string, since: Date, tx: Db = db): Promise<{ minute: Date; lane: CallLane; calls: number }[]> {
      const rows = rowsOf<{ minute: number | string; lane: CallLane; calls: number | string }>(
        await tx.execute(sql`
          SELECT floor(extract(epoch FROM started_at) / 60)::bigint AS minute, lane, count(*)::int AS calls
          FROM provider_call_starts
          WHERE account_key = ${accountKey} AND started_at >= ${iso(since)}::timestamptz
          GROUP BY 1, 2 ORDER BY 1, 2`),
      );
      return rows.map((r) => ({ minute: new Date(Number(r.minute) * 60_000), lane: r.lane, calls: Number(r.calls) }));
    },
  };
}
