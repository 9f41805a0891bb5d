// The rows stored per live terminal and computed from its line (migrations 0009 and 0014): the
// Subscriptions page's rows and each customer's usage table of the current month. Triggers mark the
// lines a write touched; one refresh computes both kinds for the marked lines, and every line once a
// day. Readers share this refresher: a read recomputes a person's few marks itself, so their change
// shows at once, and leaves a sync's worth to a refresh in the background.
import type { Repositories } from '../db/repositories';
import type { SubscriptionRow } from '../db/repositories/subscriptions';
import type { IsoDay } from '../db/repositories/terminals';
import { computeSubscription } from './subscriptions';

/**
 * Lines a read recomputes itself before answering, at most (one chunk); more than that (a sync's
 * worth) are left to a refresh in the background, and the stored rows are briefly behind.
 */
export const INLINE_REFRESH_LINES = 200;

/**
 * How long one refreshing transaction should take. It is what a read waits when it arrives behind
 * one: the embedded database runs one transaction at a time, and on PostgreSQL a read that
 * computes its own marks waits for another process's chunk (one refreshes at a time). A chunk of a
 * fixed number of lines cannot hold to it: a line costs ~0.05 ms on PostgreSQL and ~1 ms on the
 * embedded database at 10,000 terminals, where 500 lines held every page for half a second.
 */
export const REFRESH_CHUNK_TARGET_MS = 20;
export const REFRESH_CHUNK_LINES = { first: 50, min: 10, max: 500 } as const;

/** The next chunk's lines: the last one's pace scaled to the target, at most doubling, within bounds. */
export function nextChunkLines(lines: number, elapsedMs: number): number {
  const paced = elapsedMs > 0 ? Math.floor((lines * REFRESH_CHUNK_TARGET_MS) / elapsedMs) : Number.POSITIVE_INFINITY;
  return Math.max(REFRESH_CHUNK_LINES.min, Math.min(REFRESH_CHUNK_LINES.max, lines * 2, paced));
}

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
}

export function createLineRowsRefresher(deps: {
  repos: Repositories;
  /** Where a failed background refresh is reported. */
  log?: (error: unknown) => void;
  /** Milliseconds from any fixed point, for pacing the chunks (tests script it). */
  monotonic?: () => number;
}): LineRowsRefresher {
  const store = deps.repos.subscriptions;
  const monotonic = deps.monotonic ?? (() => performance.now());
  // Learnt from the chunks so far, in this process: the database and the fleet set the pace.
  let chunkLines: number = REFRESH_CHUNK_LINES.first;

  /** Chunk after chunk, each its own transaction, until none is marked or `maxChunks` ran. */
  async function refreshMarked(today: IsoDay, maxChunks: number, maxLines: number): Promise<{ lines: number; more: boolean }> {
    const compute = (row: SubscriptionRow) => computeSubscription(row, today);
    let done = 0;
    for (let chunk = 0; chunk < maxChunks; chunk++) {
      const want = Math.min(chunkLines, maxLines);
      const started = monotonic();
      const lines = await store.refreshChunk(today, compute, want);
      if (lines === 0) break;
      done += lines;
      if (lines === want) chunkLines = nextChunkLines(want, monotonic() - started);
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
    return (await refreshMarked(today, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY)).lines;
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
      const state = await store.rowsState();
      if (state.day !== today) await store.startDay(today);
      else if (!state.dirty) return true;
      if (background) return false;
      // One chunk, so a read waits no longer than any other reader behind a chunk.
      const { more } = await refreshMarked(today, 1, INLINE_REFRESH_LINES);
      if (more && !background) {
        background = computeAll(today)
          .catch((error: unknown) => deps.log?.(error))
          .finally(() => {
            background = null;
          });
      }
      return !more;
    },
  };
}
