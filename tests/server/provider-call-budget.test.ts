// One provider call budget per account, in the database, shared by two clients as two server
// processes would share it (two connection pools on PostgreSQL; on PGlite, which allows one handle,
// two budgets over the same one): together they never start more calls than the limit in any
// window, a person's call goes ahead of background calls already waiting, background calls keep
// to their share, and a 429 seen by one pauses the other. Real time, with windows of a second.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CallLane } from '../../src/domain/provider-budget';
import type { Database } from '../../server/db/client';
import { createProviderCallBudgetRepository } from '../../server/db/repositories/provider-call-budget';
import type { StarlinkClient } from '../../server/provider';
import { createProviderCallBudget, providerAccountKey, type ProviderCallBudgetOptions } from '../../server/services/provider-call-budget';
import type { RunningSimulator } from '../../server/simulator';
import { createTestDatabase, until, type TestDatabase } from './helpers';
import { fastClient, startFleet } from './terminal-sync-fixtures';

let sim: RunningSimulator;
let testDb: TestDatabase;
let second: Database;
let accountCounter = 0;

beforeAll(async () => {
  sim = await startFleet({ seed: 'call-budget', terminals: 20 });
  testDb = await createTestDatabase();
  second = await testDb.connectAgain();
});

afterAll(async () => {
  await second?.close();
  await testDb?.drop();
  await sim?.close();
});

/** A fresh account per test, so one test's starts never count in another's window. */
let account: string;
beforeEach(() => {
  account = providerAccountKey('https://budget.test/api', `client-${++accountCounter}`);
});

/** The budget as a server process over `database` would build it. */
function budgetOn(database: Database, options: Partial<ProviderCallBudgetOptions> = {}) {
  return createProviderCallBudget({
    db: database.db,
    repo: createProviderCallBudgetRepository(database.db),
    accountKey: account,
    requestsPerMinute: 8,
    syncShare: 1,
    windowMs: 1_000,
    peopleGraceMs: 200,
    ...options,
  });
}

interface Start {
  lane: CallLane;
  at: number;
}

/** The starts the budget recorded for the account, oldest first. */
async function recordedStarts(): Promise<Start[]> {
  const result = (await testDb.database.db.execute(
    sql`SELECT lane, started_at FROM provider_call_starts WHERE account_key = ${account} ORDER BY started_at, id`,
  )) as unknown as { rows: { lane: CallLane; started_at: Date | string }[] };
  return result.rows.map((r) => ({ lane: r.lane, at: new Date(r.started_at).getTime() }));
}

/** The most starts in any window of `windowMs`. */
function busiestWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; j < sorted.length; j++) {
    while (sorted[j]! - sorted[i]! >= windowMs) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One provider request, the account read afresh. */
const oneCall = (client: StarlinkClient) => client.getAccount({ fresh: true });

describe('one provider call budget in the database', () => {
  it('lets two clients on two connections start no more than the limit together in any window', async () => {
    const a = fastClient(sim, { limiter: budgetOn(testDb.database) });
    const b = fastClient(sim, { limiter: budgetOn(second) });
    const before = sim.simulator.stats().apiRequests;
    // Twice the limit, people's and background calls of both clients at once: the second eight
    // can start only as the first eight's window moves on, whichever connection took them.
    await Promise.all([
      ...Array.from({ length: 5 }, () => oneCall(a)),
      ...Array.from({ length: 3 }, () => oneCall(a.background())),
      ...Array.from({ length: 5 }, () => oneCall(b)),
      ...Array.from({ length: 3 }, () => oneCall(b.background())),
    ]);
    const starts = await recordedStarts();
    // Every request the provider saw took a slot, and no window held more than 8 of them.
    expect(sim.simulator.stats().apiRequests - before).toBe(16);
    expect(starts).toHaveLength(16);
    expect(busiestWindow(starts.map((s) => s.at), 1_000)).toBe(8);
    // 16 calls at 8 a second: the last ones start in the second second.
    expect(starts.at(-1)!.at - starts[0]!.at).toBeGreaterThanOrEqual(1_000);
  });

  it("starts a person's call from one client ahead of background calls already waiting on the other", async () => {
    const syncing = fastClient(sim, { limiter: budgetOn(testDb.database, { requestsPerMinute: 4 }) }).background();
    const person = fastClient(sim, { limiter: budgetOn(second, { requestsPerMinute: 4 }) });
    // Four background calls fill the window; two wait for it to move on (as many as the person's
    // call could lose its place to, with room for it in the next window).
    const background = Promise.all(Array.from({ length: 6 }, () => oneCall(syncing)));
    await until('four calls started', async () => (await recordedStarts()).length === 4, { timeoutMs: 10_000 });
    await oneCall(person);
    await background;
    const lanes = (await recordedStarts()).map((s) => s.lane);
    expect(lanes.slice(0, 5)).toEqual(['sync', 'sync', 'sync', 'sync', 'person']);
    expect(lanes.filter((l) => l === 'sync')).toHaveLength(6);
  });

  it("serves a person's call ahead of background calls waiting in the same process", async () => {
    const budget = budgetOn(testDb.database, { requestsPerMinute: 3 });
    const client = fastClient(sim, { limiter: budget });
    // Three start, two wait: the person's call is asked for while they do.
    const background = Promise.all(Array.from({ length: 5 }, () => oneCall(client.background())));
    await until('two sync calls waiting', () => budget.waiting().sync === 2, { timeoutMs: 10_000 });
    expect(budget.waiting()).toEqual({ person: 0, sync: 2 });
    await oneCall(client);
    await background;
    const lanes = (await recordedStarts()).map((s) => s.lane);
    expect(lanes.slice(0, 4)).toEqual(['sync', 'sync', 'sync', 'person']);
  });

  it('keeps background calls of both clients to their share and leaves the rest to people at once', async () => {
    // 10 every 2 s, background calls at most half of them.
    const windowMs = 2_000;
    const options = { requestsPerMinute: 10, syncShare: 0.5, windowMs };
    const a = fastClient(sim, { limiter: budgetOn(testDb.database, options) });
    const b = fastClient(sim, { limiter: budgetOn(second, options) });
    const background = Promise.all([
      ...Array.from({ length: 5 }, () => oneCall(a.background())),
      ...Array.from({ length: 5 }, () => oneCall(b.background())),
    ]);
    // The background calls have their share of the window; five more wait for it to move on.
    await until('five calls started', async () => (await recordedStarts()).length === 5, { timeoutMs: 10_000 });
    await Promise.all([...Array.from({ length: 3 }, () => oneCall(a)), ...Array.from({ length: 2 }, () => oneCall(b))]);
    await background;
    const starts = await recordedStarts();
    const sync = starts.filter((s) => s.lane === 'sync').map((s) => s.at);
    const people = starts.filter((s) => s.lane === 'person').map((s) => s.at);
    expect(sync).toHaveLength(10);
    expect(busiestWindow(sync, windowMs)).toBe(5);
    expect(busiestWindow(starts.map((s) => s.at), windowMs)).toBeLessThanOrEqual(10);
    // The people's five calls did not wait for the background ones' window to move on.
    expect(Math.max(...people)).toBeLessThan(sync[0]! + windowMs);
  });

  it('pauses the other client too when one receives a 429', async () => {
    let refused = 0;
    // The provider answers the first request 429 "retry after 1 s".
    const limitedFetch: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes('/public/') && refused === 0) {
        refused += 1;
        return new Response(JSON.stringify({ errors: [{ errorMessage: 'rate limit exceeded' }] }), { status: 429, headers: { 'retry-after': '1' } });
      }
      return fetch(input, init);
    };
    const options = { requestsPerMinute: 100 };
    const a = fastClient(sim, { limiter: budgetOn(testDb.database, options), fetch: limitedFetch, backoffMaxMs: 5_000 });
    const b = fastClient(sim, { limiter: budgetOn(second, options) });
    const refusedCall = oneCall(a);
    const repo = createProviderCallBudgetRepository(testDb.database.db);
    let pausedUntil: Date | null = null;
    for (let i = 0; i < 100 && !pausedUntil; i++) {
      pausedUntil = await repo.pausedUntil(account);
      if (!pausedUntil) await sleep(10);
    }
    expect(pausedUntil).not.toBeNull();
    // B is asked while the pause is still ahead (however late a loaded machine noticed it)…
    expect(Date.now()).toBeLessThan(pausedUntil!.getTime());
    await oneCall(b);
    // …and its call waited out A's pause, and started after it ended.
    expect(Date.now()).toBeGreaterThanOrEqual(pausedUntil!.getTime() - 5);
    await refusedCall;
    expect(refused).toBe(1);
    const starts = await recordedStarts();
    // A's refused attempt, then A's retry and B's call, both after the pause.
    expect(starts).toHaveLength(3);
    expect(starts.slice(1).every((s) => s.at >= pausedUntil!.getTime())).toBe(true);
  });

  it('prunes starts older than an hour', async () => {
    const old = new Date(Date.now() - 2 * 3_600_000);
    await testDb.database.db.execute(
      sql`INSERT INTO provider_call_starts (account_key, lane, started_at) VALUES (${account}, 'sync', ${old.toISOString()}::timestamptz)`,
    );
    const budget = budgetOn(testDb.database);
    await budget.acquire();
    // The pump prunes once the call it served has its slot (at most once a minute).
    let starts = await recordedStarts();
    for (let i = 0; i < 50 && starts.length > 1; i++) {
      await sleep(20);
      starts = await recordedStarts();
    }
    expect(starts).toHaveLength(1);
    expect(starts[0]!.at).toBeGreaterThan(old.getTime());
  });

  it('takes a slot in one short transaction (the cost is printed)', async () => {
    const budget = budgetOn(testDb.database, { requestsPerMinute: 250, windowMs: 60_000 });
    // Warm up (the first acquire also prunes).
    for (let i = 0; i < 20; i++) await budget.acquire(undefined, i % 2 === 0 ? 'person' : 'sync');
    const rounds = 200;
    const started = performance.now();
    for (let i = 0; i < rounds; i++) await budget.acquire(undefined, i % 3 === 0 ? 'person' : 'sync');
    const meanMs = (performance.now() - started) / rounds;
    console.info('provider call budget acquire', JSON.stringify({ database: testDb.kind, rounds, meanMs: Number(meanMs.toFixed(3)) }));
    // Generous for a loaded CI machine (the figure itself is what the log line is for): a
    // transaction per call, not a pathological wait.
    expect(meanMs).toBeLessThan(100);
  });
});
