// The refresher of the stored page rows on its own, with a scripted store: when a read may use the
// rows, how it shares one background refresh, and that a failed refresh at the end of a sync run
// reaches its caller without leaving a rejection nobody handles.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Repositories } from '../../server/db/repositories';
import { createLineRowsRefresher, INLINE_REFRESH_LINES } from '../../server/services/line-rows';

const TODAY = '2026-03-18';

function scriptedStore(state: { day: string | null; marked: number }, failWith: Error | null = null) {
  const calls: string[] = [];
  const store = {
    rowsState: vi.fn(async () => ({ day: state.day, dirty: state.marked > 0 })),
    startDay: vi.fn(async (today: string) => {
      calls.push(`startDay ${today}`);
      if (state.day !== today) state.day = today;
    }),
    refreshMarked: vi.fn(async (_today: string, _compute: unknown, maxLines = Number.POSITIVE_INFINITY) => {
      calls.push(`refresh ${maxLines}`);
      if (failWith) throw failWith;
      const lines = Math.min(state.marked, maxLines);
      state.marked -= lines;
      return { lines, more: state.marked > 0 };
    }),
  };
  return { repos: { subscriptions: store } as unknown as Repositories, calls };
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
    state.marked = INLINE_REFRESH_LINES;
    expect(await rows.refreshForRead(TODAY)).toBe(true);
    expect(calls).toEqual([`refresh ${INLINE_REFRESH_LINES}`]);
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
    repos.subscriptions.startDay = vi.fn(async (today: string) => {
      calls.push(`startDay ${today}`);
      state.day = today;
      state.marked = INLINE_REFRESH_LINES + 1;
    }) as never;
    const rows = createLineRowsRefresher({ repos });
    expect(await rows.refreshForRead(TODAY)).toBe(false);
    expect(calls[0]).toBe(`startDay ${TODAY}`);
  });

  it('hands a failed refresh at the end of a run to its caller, and the next one runs', async () => {
    const failure = new Error('connection lost');
    const { repos, calls } = scriptedStore({ day: TODAY, marked: 10 }, failure);
    const rows = createLineRowsRefresher({ repos });
    await expect(rows.refreshAll(TODAY)).rejects.toBe(failure);
    await expect(rows.refreshAll(TODAY)).rejects.toBe(failure);
    expect(calls.filter((call) => call.startsWith('refresh'))).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(unhandled).toEqual([]);
  });
});
