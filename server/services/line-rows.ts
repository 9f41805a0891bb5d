// The rows stored per live terminal and computed from its line (migrations 0009 and 0014): the
// Subscriptions page's rows and each customer's usage table of the current month. Triggers mark the
// lines a write touched; one refresh computes both kinds for the marked lines, and every line once a
// day. Readers share this refresher: a read recomputes a person's few marks itself, so their change
// shows at once, and leaves a sync's worth to a refresh in the background, computing none of it: no
// reader waits on a sync's marks.
import type { Repositories } from '../db/repositories';
import type { SubscriptionRow } from '../db/repositories/subscriptions';
import type { IsoDay } from '../db/repositories/terminals';
import { createPacer, type PaceBounds, type PacerOptions } from './pacer';
import { computeSubscription } from './subscriptions';

/**
 * Marked lines a read recomputes itself before answering, at most: a person's change (a plan, an
 * assignment, a small bulk run). More than that is a sync's worth: the read computes none of them
 * and answers from the stored rows, briefly behind, while one refresh in the background catches up.
 * Computing even 200 of them in the read (~1 ms a line on PostgreSQL, plus the summary recount)
 * made the Subscriptions page the slowest while a sync wrote. The customers' usage page reads up to
 * this many of a customer's marked lines from the tables, and past it its stored rows alone.
 */
export const INLINE_REFRESH_LINES = 50;

/** Lines a refreshing transaction takes, paced to PACED_TRANSACTION_MS (pacer.ts). */
export const REFRESH_CHUNK_LINES: PaceBounds = { first: 50, min: 10, max: 500 };

export interface LineRowsRefresher {
  /**
   * Brings the stored rows to `today` as far as a read may wait. True when they are current: the
   * day is today and no line is left marked. False while a background refresh has work left.
   */
  refreshForRead(today: IsoDay): Promise<boolean>;
  /**
   * Computes every marked line now, as the end of a sync run that wrote many: the pages' next
   * readers find their rows current instead of a refresh starting under them. Answers the lines.
   */
  refreshAll(today: IsoDay): Promise<number>;
  /**
   * For a reader that takes the marked lines from the tables itself (the customers' usage page):
   * brings the rows to `today`'s day and leaves every marked line to the background refresh,
   * computing none. True when no line is marked.
   */
  markedLeftToBackground(today: IsoDay): Promise<boolean>;
  /**
   * Resolves once this process runs no background refresh (a failed one has been logged): before
   * the database closes, and for a test that must see a request's own writes alone.
   */
  settled(): Promise<void>;
}

export function createLineRowsRefresher(deps: {
  repos: Repositories;
  /** Where a failed background refresh is reported. */
  log?: (error: unknown) => void;
  /** How the chunks are paced (pacer.ts): the clock, and the rest after each on the embedded database. */
  pacing?: PacerOptions;
}): LineRowsRefresher {
  const store = deps.repos.subscriptions;
  // Learnt from the chunks so far, in this process: the database and the fleet set the pace.
  const pacer = createPacer(REFRESH_CHUNK_LINES, deps.pacing);

  /** Chunk after chunk, each its own transaction, until none is marked or `maxLines` are done. */
  async function refreshMarked(today: IsoDay, maxLines: number, rest: boolean): Promise<{ lines: number; more: boolean }> {
    const compute = (row: SubscriptionRow) => computeSubscription(row, today);
    let done = 0;
    while (done < maxLines) {
      let asked = 0;
      const lines = await pacer.timed((size) => store.refreshChunk(today, compute, (asked = Math.min(size, maxLines - done))), { rest });
      done += lines;
      // A short chunk took every mark there was (one committed since waits for the next refresh).
      if (lines < asked) break;
    }
    if (done > 0) await store.recountTotals();
    const { dirty } = await store.rowsState();
    return { lines: done, more: dirty };
  }

  // One background refresh at a time in this process (other processes share the marks; one refreshes
  // at a time under an advisory lock); a failure is logged and the next read tries again.
  let background: Promise<unknown> | null = null;
  async function computeAll(today: IsoDay): Promise<number> {
    await store.startDay(today);
    const { lines, more } = await refreshMarked(today, Number.POSITIVE_INFINITY, true);
    // More marks taken than a read's worth leave the marks' table emptied but as large as they
    // made it (every read asks it whether anything is marked), and the stored rows rewritten, no
    // longer readable from their indexes alone: tidy both. A failure costs the reads time, never
    // the rows, so it is reported and the refresh still succeeds.
    if (lines > INLINE_REFRESH_LINES && !more) await store.tidyAfterRefresh().catch((error: unknown) => deps.log?.(error));
    return lines;
  }

  /**
   * The rows' state once they hold `today` (a new day is started first, which marks every line),
   * with the marks counted up to `countUpTo`.
   */
  async function stateOfToday(today: IsoDay, countUpTo = 1) {
    const state = await store.rowsState(countUpTo);
    if (state.day === today) return state;
    await store.startDay(today);
    return store.rowsState(countUpTo);
  }

  function refreshInBackground(today: IsoDay): void {
    if (background) return;
    background = computeAll(today)
      .catch((error: unknown) => deps.log?.(error))
      .finally(() => {
        background = null;
      });
  }

  return {
    async refreshAll(today) {
      // After this process's background refresh, if one runs: one at a time here as well.
      while (background) await background;
      const done = computeAll(today);
      // The caller hears of a failure through `done`; the marker only says one is running.
      background = done
        .catch(() => undefined)
        .finally(() => {
          background = null;
        });
      return done;
    },

    async refreshForRead(today) {
      // A new day marks every line: a small fleet's worth is still a read's, a large one's not.
      const state = await stateOfToday(today, INLINE_REFRESH_LINES + 1);
      if (!state.dirty) return true;
      if (background) return false;
      if (state.marked > INLINE_REFRESH_LINES) {
        refreshInBackground(today);
        return false;
      }
      // Without rests: this request waits for its few lines.
      const { more } = await refreshMarked(today, INLINE_REFRESH_LINES, false);
      if (more) refreshInBackground(today);
      return !more;
    },

    async settled() {
      while (background) await background;
    },

    async markedLeftToBackground(today) {
      if (!(await stateOfToday(today)).dirty) return true;
      // A sync's worth of marks computed here (200 lines, ~200 ms at 100,000 terminals on
      // PostgreSQL) was the page's slowest answers while the sync wrote.
      refreshInBackground(today);
      return false;
    },
  };
}
