// The refresher of the stored page rows on its own, with a scripted store: when a read may use the
// rows, how it shares one background refresh, how its chunks are paced to a time per transaction,
// and that a failed refresh at the end of a sync run reaches its caller without leaving a rejection
// nobody handles.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Repositories } from '../../server/db/repositories';
import { createLineRowsRefresher, INLINE_REFRESH_LINES, REFRESH_CHUNK_LINES } from '../../server/services/line-rows';
import { nextPacedSize, PACED_TRANSACTION_MS as REFRESH_CHUNK_TARGET_MS } from '../../server/services/pacer';

const TODAY = '2026-03-18';

/** A store of `state.marked` lines; each chunk takes `msPerLine` on the scripted clock. */
function scriptedStore(state: { day: string | null; marked: number }, failWith: Error | null = null, msPerLine = 0) {
  const calls: string[] = [];
  const clock = { ms: 0 };
  const store = {
    rowsState: vi.fn(async (countUpTo = 1) => ({ day: state.day, dirty: state.marked > 0, marked: Math.min(state.marked, Math.max(1, countUpTo)) })),
    startDay: vi.fn(async (today: string) => {
      calls.push(`startDay ${today}`);
      if (state.day !== today) state.day = today;
    }),
    refreshChunk: vi.fn(async (_today: string, _compute: unknown, maxLines: number) => {
      calls.push(`chunk ${maxLines}`);
      if (failWith) throw failWith;
      const lines = Math.min(state.marked, maxLines);
      state.marked -= lines;
      clock.ms += lines * msPerLine;
      return lines;
    }),
    recountTotals: vi.fn(async () => {
      calls.push('recount');
    }),
    tidyAfterRefresh: vi.fn(async () => {
      calls.push('tidy');
    }),
  };
  return { repos: { subscriptions: store } as unknown as Repositories, calls, monotonic: () => clock.ms };
}

/** Makes the scripted store's startDay mark `lines` lines, as a new day marks every line of the fleet. */
function marksEveryLineOnNewDay(repos: Repositories, calls: string[], state: { day: string | null; marked: number }, lines: number): void {
  repos.subscriptions.startDay = vi.fn(async (today: string) => {
    calls.push(`startDay ${today}`);
    state.day = today;
    state.marked = lines;
  }) as never;
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
process.on('unhandledRejection', onUnhandled);
afterEach(() => {
  unhandled.length = 0;
});

describe('the stored rows refresher', () => {
  it('lets a read use the rows when nothing is marked, and computes a few marks itself first', async () => {
    const state = { day: TODAY, marked: 0 };
    const { repos, calls } = scriptedStore(state);
    const rows = createLineRowsRefresher({ repos });
    expect(await rows.refreshForRead(TODAY)).toBe(true);
    expect(calls).toEqual([]);
    state.marked = 7;
    expect(await rows.refreshForRead(TODAY)).toBe(true);
    expect(state.marked).toBe(0);
    expect(calls).toEqual([`chunk ${REFRESH_CHUNK_LINES.first}`, 'recount']);
  });

  it('sends a read to the tables while a sync’s worth of marks waits for the background refresh', async () => {
    const state = { day: TODAY, marked: INLINE_REFRESH_LINES * 3 };
    const { repos } = scriptedStore(state);
    const rows = createLineRowsRefresher({ repos });
    expect(await rows.refreshForRead(TODAY)).toBe(false);
    await vi.waitFor(() => expect(state.marked).toBe(0));
    expect(await rows.refreshForRead(TODAY)).toBe(true);
  });

  it('on a new day marks every line first and answers false until they are computed', async () => {
    const state = { day: '2026-03-17', marked: 0 };
    const { repos, calls } = scriptedStore(state);
    // startDay marks every line (here: more than a read computes).
    marksEveryLineOnNewDay(repos, calls, state, INLINE_REFRESH_LINES + 1);
    const rows = createLineRowsRefresher({ repos });
    expect(await rows.refreshForRead(TODAY)).toBe(false);
    expect(calls[0]).toBe(`startDay ${TODAY}`);
  });

  it('leaves every mark to the background for a reader that takes marked lines from the tables, computing none itself', async () => {
    const state = { day: '2026-03-17', marked: 0 };
    const { repos, calls } = scriptedStore(state);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const chunk = repos.subscriptions.refreshChunk;
    // The background refresh waits until the reader has its answer.
    repos.subscriptions.refreshChunk = vi.fn(async (...args: Parameters<typeof chunk>) => {
      await held;
      return chunk(...args);
    }) as never;
    marksEveryLineOnNewDay(repos, calls, state, 30);
    const rows = createLineRowsRefresher({ repos });
    // A new day: every line marked, none computed before the answer.
    expect(await rows.markedLeftToBackground(TODAY)).toBe(false);
    expect(calls[0]).toBe(`startDay ${TODAY}`);
    expect(calls.filter((call) => call.startsWith('chunk'))).toEqual([]);
    expect(state.marked).toBe(30);
    // settled() waits for the background refresh (the app awaits it before the database closes).
    let settled = false;
    const waiting = rows.settled().then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toBe(false);
    release();
    await waiting;
    expect(state.marked).toBe(0);
    expect(calls.filter((call) => call.startsWith('chunk')).length).toBeGreaterThan(0);
    expect(await rows.markedLeftToBackground(TODAY)).toBe(true);
  });

  it('hands a failed refresh at the end of a run to its caller, and the next one runs', async () => {
    const failure = new Error('connection lost');
    const { repos, calls } = scriptedStore({ day: TODAY, marked: 10 }, failure);
    const rows = createLineRowsRefresher({ repos });
    await expect(rows.refreshAll(TODAY)).rejects.toBe(failure);
    await expect(rows.refreshAll(TODAY)).rejects.toBe(failure);
    expect(calls.filter((call) => call.startsWith('chunk'))).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(unhandled).toEqual([]);
  });

  it('computes up to INLINE_REFRESH_LINES marks for a read; a sync\'s worth goes whole to one background refresh, the read computing none', async () => {
    const state = { day: TODAY, marked: INLINE_REFRESH_LINES };
    const { repos, calls } = scriptedStore(state);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const chunk = repos.subscriptions.refreshChunk;
    const rows = createLineRowsRefresher({ repos });
    // A person's worth: computed before the answer, leaving the marks' table as it is.
    expect(await rows.refreshForRead(TODAY)).toBe(true);
    expect(state.marked).toBe(0);
    expect(calls).not.toContain('tidy');
    // One more than that: the read answers at once, before any chunk has run.
    repos.subscriptions.refreshChunk = vi.fn(async (...args: Parameters<typeof chunk>) => {
      await held;
      return chunk(...args);
    }) as never;
    state.marked = INLINE_REFRESH_LINES + 1;
    calls.length = 0;
    expect(await rows.refreshForRead(TODAY)).toBe(false);
    expect(state.marked).toBe(INLINE_REFRESH_LINES + 1);
    // While the background refresh runs, a read does not compute either: the rows are behind.
    expect(await rows.refreshForRead(TODAY)).toBe(false);
    release();
    await rows.settled();
    expect(state.marked).toBe(0);
    expect(calls.filter((call) => call === 'recount')).toHaveLength(1);
    // A sync's worth taken: what it leaves behind is tidied once, after the last chunk.
    expect(calls.slice(-2)).toEqual(['recount', 'tidy']);
    expect(await rows.refreshForRead(TODAY)).toBe(true);
  });

  it('on a new day computes a small fleet\'s marks in the read', async () => {
    const state = { day: '2026-03-17', marked: 0 };
    const { repos, calls } = scriptedStore(state);
    marksEveryLineOnNewDay(repos, calls, state, 12);
    const rows = createLineRowsRefresher({ repos });
    expect(await rows.refreshForRead(TODAY)).toBe(true);
    expect(calls).toEqual([`startDay ${TODAY}`, `chunk ${REFRESH_CHUNK_LINES.first}`, 'recount']);
  });

  it('paces its chunks to the target time a transaction: smaller on a slow database, larger on a fast one', async () => {
    const slow = scriptedStore({ day: TODAY, marked: 1_000 }, null, 1);
    await createLineRowsRefresher({ repos: slow.repos, pacing: { monotonic: slow.monotonic } }).refreshAll(TODAY);
    const slowChunks = slow.calls.filter((call) => call.startsWith('chunk')).map((call) => Number(call.split(' ')[1]));
    expect(slowChunks[0]).toBe(REFRESH_CHUNK_LINES.first);
    // 1 ms a line: 20 lines a chunk from the second one on.
    expect(slowChunks[1]).toBe(REFRESH_CHUNK_TARGET_MS);
    expect(slowChunks.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1_000);

    const fast = scriptedStore({ day: TODAY, marked: 10_000 }, null, 0.01);
    await createLineRowsRefresher({ repos: fast.repos, pacing: { monotonic: fast.monotonic } }).refreshAll(TODAY);
    const fastChunks = fast.calls.filter((call) => call.startsWith('chunk')).map((call) => Number(call.split(' ')[1]));
    // Doubling, then held at the largest chunk.
    expect(fastChunks.slice(0, 5)).toEqual([50, 100, 200, 400, REFRESH_CHUNK_LINES.max]);
    expect(fast.calls.filter((call) => call === 'recount')).toHaveLength(1);
  });

  it('sizes the next chunk from the last one\'s pace, within its bounds', () => {
    const next = (lines: number, ms: number) => nextPacedSize(REFRESH_CHUNK_LINES, lines, ms);
    expect(next(100, REFRESH_CHUNK_TARGET_MS)).toBe(100);
    expect(next(100, REFRESH_CHUNK_TARGET_MS * 4)).toBe(25);
    expect(next(100, REFRESH_CHUNK_TARGET_MS / 4)).toBe(200);
    expect(next(100, 0)).toBe(200);
    expect(next(10, 10_000)).toBe(REFRESH_CHUNK_LINES.min);
    expect(next(REFRESH_CHUNK_LINES.max, 1)).toBe(REFRESH_CHUNK_LINES.max);
  });

  it('on the embedded database rests after each background chunk, never during a read', async () => {
    const state = { day: TODAY, marked: INLINE_REFRESH_LINES };
    const { repos, calls, monotonic } = scriptedStore(state, null, REFRESH_CHUNK_TARGET_MS / REFRESH_CHUNK_LINES.first);
    const sleep = async (ms: number) => {
      calls.push(`rest ${ms}`);
    };
    const rows = createLineRowsRefresher({ repos, pacing: { monotonic, restRatio: 1, sleep } });
    expect(await rows.refreshForRead(TODAY)).toBe(true);
    const readCalls = [...calls];
    expect(readCalls).toContain('recount');
    expect(readCalls.some((call) => call.startsWith('rest'))).toBe(false);
    state.marked = INLINE_REFRESH_LINES * 4;
    expect(await rows.refreshForRead(TODAY)).toBe(false);
    await vi.waitFor(() => expect(state.marked).toBe(0));
    // The background refresh: a rest as long as each chunk took after it.
    const background = calls.slice(readCalls.length);
    expect(background.filter((call) => call.startsWith('chunk')).length).toBeGreaterThan(0);
    expect(background.filter((call) => call === `rest ${REFRESH_CHUNK_TARGET_MS}`).length).toBe(background.filter((call) => call.startsWith('chunk')).length - 1);
  });
});
