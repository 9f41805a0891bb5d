// The demand gauge (server/services/demand.ts): requests in flight, and a short linger after the
// last answer, on a scripted clock; and the app marking its requests in it.
import { afterEach, describe, expect, it } from 'vitest';
import { createDemand, DEMAND_LINGER_MS } from '../../server/services/demand';
import { createTestContext, type TestContext } from './helpers';

describe('the demand gauge', () => {
  it('is waiting while a request is in flight and for the linger after the last one ends', () => {
    let now = 1_000;
    const demand = createDemand({ monotonic: () => now, lingerMs: 100 });
    expect(demand.waiting()).toBe(false);
    const first = {};
    const second = {};
    demand.begin(first);
    demand.begin(second);
    now += 10_000;
    expect(demand.waiting()).toBe(true);
    demand.end(first);
    now += 10_000;
    // The second is still in flight, however long it takes.
    expect(demand.waiting()).toBe(true);
    demand.end(second);
    now += 99;
    expect(demand.waiting()).toBe(true);
    now += 1;
    expect(demand.waiting()).toBe(false);
  });

  it('counts a request once, whether it ends by its answer, its abort or both', () => {
    let now = 0;
    const demand = createDemand({ monotonic: () => now, lingerMs: 0 });
    const request = {};
    demand.begin(request);
    demand.begin(request);
    demand.end(request);
    now += 1;
    expect(demand.waiting()).toBe(false);
    // A second end (an abort after the answer) does not take another request's place.
    const other = {};
    demand.begin(other);
    demand.end(request);
    expect(demand.waiting()).toBe(true);
    demand.end(other);
    now += 1;
    expect(demand.waiting()).toBe(false);
  });
});

describe('the app marks its requests in the gauge', () => {
  let ctx: TestContext | undefined;
  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
  });

  it('is idle before any request, waiting right after one, and idle again once the linger is over', async () => {
    ctx = await createTestContext();
    const { demand } = ctx.app.services;
    expect(demand.waiting()).toBe(false);
    const answer = await ctx.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(answer.statusCode).toBe(200);
    expect(demand.waiting()).toBe(true);
    // The answer ended the request: only the linger keeps it waiting.
    await new Promise((resolve) => setTimeout(resolve, DEMAND_LINGER_MS + 50));
    expect(demand.waiting()).toBe(false);
  });
});
