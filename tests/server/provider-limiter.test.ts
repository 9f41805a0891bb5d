// The client-side request limit, on a simulated clock: a minute of traffic runs in milliseconds.
import { describe, expect, it } from 'vitest';
import { createRateLimiter, createStarlinkClient } from '../../server/provider';

function simulatedTime(start = Date.parse('2026-06-01T00:00:00Z')) {
  let t = start;
  return {
    now: () => new Date(t),
    ms: () => t - start,
    sleep: async (ms: number, signal?: AbortSignal) => {
      signal?.throwIfAborted();
      // Yield first, so callers queued in the same tick are all in line before time moves.
      await Promise.resolve();
      t += ms;
    },
  };
}

/** The most starts in any window of `windowMs`. */
function busiestWindow(starts: number[], windowMs = 60_000): number {
  const sorted = [...starts].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; j < sorted.length; j++) {
    while (sorted[j]! - sorted[i]! >= windowMs) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

describe('provider rate limiter', () => {
  it('lets a burst of 600 through at no more than 240 in any minute', async () => {
    const time = simulatedTime();
    const limiter = createRateLimiter({ requestsPerMinute: 240, now: time.now, sleep: time.sleep });
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 600 }, async () => {
        await limiter.acquire();
        starts.push(time.ms());
      }),
    );
    expect(starts).toHaveLength(600);
    expect(busiestWindow(starts)).toBe(240);
    // 240 at once, 240 a minute later, the last 120 two minutes in.
    expect(Math.max(...starts)).toBe(120_000);
  });

  it('serves waiting callers in arrival order and reports how long each waited', async () => {
    const time = simulatedTime();
    const limiter = createRateLimiter({ requestsPerMinute: 2, now: time.now, sleep: time.sleep });
    const order: string[] = [];
    const waits = await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map(async (name) => {
        const waited = await limiter.acquire();
        order.push(name);
        return waited;
      }),
    );
    expect(order).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(waits).toEqual([0, 0, 60_000, 60_000, 120_000]);
  });

  it("serves a person's call ahead of background calls already waiting, each lane in arrival order", async () => {
    const time = simulatedTime();
    const limiter = createRateLimiter({ requestsPerMinute: 1, now: time.now, sleep: time.sleep });
    const order: string[] = [];
    const take = async (name: string, lane: 'person' | 'sync') => {
      await limiter.acquire(undefined, lane);
      order.push(name);
    };
    await Promise.all([take('sync-1', 'sync'), take('sync-2', 'sync'), take('sync-3', 'sync'), take('person-1', 'person'), take('person-2', 'person')]);
    expect(order).toEqual(['sync-1', 'person-1', 'person-2', 'sync-2', 'sync-3']);
  });

  it('drops an aborted caller from the queue and serves the next one', async () => {
    const time = simulatedTime();
    const limiter = createRateLimiter({ requestsPerMinute: 1, now: time.now, sleep: time.sleep });
    await limiter.acquire();
    const controller = new AbortController();
    const leaving = limiter.acquire(controller.signal);
    const staying = limiter.acquire();
    controller.abort(new Error('gone'));
    await expect(leaving).rejects.toThrow('gone');
    await expect(staying).resolves.toBe(60_000);
    expect(limiter.state()).toMatchObject({ inWindow: 1, waiting: 0 });
  });

  it('holds everyone back while paused after a 429', async () => {
    const time = simulatedTime();
    const limiter = createRateLimiter({ requestsPerMinute: 100, now: time.now, sleep: time.sleep });
    limiter.pause(5_000);
    const waits = await Promise.all([limiter.acquire(), limiter.acquire()]);
    expect(waits).toEqual([5_000, 5_000]);
  });

  it('keeps a client paging 1,000 records under a limit of 10 a minute without a single 429', async () => {
    const time = simulatedTime();
    const starts: number[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      const url = new URL(String(input));
      if (url.pathname.endsWith('/auth/connect/token')) {
        return Response.json({ access_token: 't', token_type: 'Bearer', expires_in: 3600 });
      }
      starts.push(time.ms());
      // The provider's own view: over 10 in a minute would be a 429.
      if (busiestWindow(starts) > 10) return Response.json({}, { status: 429 });
      if (url.pathname.endsWith('/account')) return Response.json({ isValid: true, content: { accountNumber: 'ACC-1' } });
      const page = Number(url.searchParams.get('page'));
      const results = Array.from({ length: 100 }, (_, i) => ({ userTerminalId: `ut-${page * 100 + i}`, kitSerialNumber: `KIT${page * 100 + i}` }));
      return Response.json({ isValid: true, content: { pageIndex: page, limit: 100, isLastPage: page === 9, results, totalCount: 1000 } });
    };
    const client = createStarlinkClient({
      apiUrl: 'https://provider.test/api',
      tokenUrl: 'https://provider.test/api/auth/connect/token',
      clientId: 'c',
      clientSecret: 's',
      requestsPerMinute: 10,
      fetch,
      now: time.now,
      sleep: time.sleep,
    });
    const result = await client.listUserTerminals();
    expect(result.items).toHaveLength(1000);
    expect(client.usage()).toMatchObject({ requests: 11, retries: 0 });
    expect(busiestWindow(starts)).toBe(10);
    // 11 requests at 10 a minute: the 11th starts a minute after the first.
    expect(time.ms()).toBe(60_000);
    expect(client.usage().throttledMs).toBe(60_000);
  });
});
