// The sync schedule sized to the provider budget, and its one lane: a kind's next run waits until
// its last run's calls, at the sync share of the budget, would have been spent; an inventory and a
// usage run never run at once, whichever process claims them; and GET /terminals/sync/budget
// shows the schedule, the last runs and the last hour's calls, syncs apart from people.
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SyncBudget } from '../../src/domain/provider-budget';
import { buildApp } from '../../server/app';
import { hashPassword } from '../../server/auth/passwords';
import { createRepositories } from '../../server/db/repositories';
import { createProviderCallBudgetRepository } from '../../server/db/repositories/provider-call-budget';
import { createSyncRunsRepository } from '../../server/db/repositories/sync-runs';
import { createScheduler } from '../../server/jobs/scheduler';
import type { StarlinkClient } from '../../server/provider';
import { createProviderCallBudget, providerAccountKey, type ProviderCallBudget } from '../../server/services/provider-call-budget';
import type { RunningSimulator } from '../../server/simulator';
import { insertSyncRun } from '../fixtures/terminals';
import { createClock, createTestContext, createTestDatabase, testConfig, until, type TestContext, type TestDatabase } from './helpers';
import { SYNC_TEST_TIME, fastClient, startFleet } from './terminal-sync-fixtures';

const MINUTE = 60_000;

describe('the schedule sized to the budget', () => {
  let testDb: TestDatabase;
  const clock = createClock(SYNC_TEST_TIME);
  const runs = () => createSyncRunsRepository(testDb.database.db);
  const at = (minutesAgo: number) => new Date(clock.now().getTime() - minutesAgo * MINUTE);
  /** 240 calls a minute, syncs 70 % of them: 168 a minute. */
  const scheduler = () =>
    createScheduler({
      runs: runs(),
      sync: {
        inventoryIsEmpty: async () => false,
        async tryStart(input) {
          const inserted = await runs().insertQueued({ ...input, accountId: 1, at: clock.now() });
          return inserted.ok ? inserted.row : null;
        },
      },
      now: clock.now,
      intervalMs: 15 * MINUTE,
      usageIntervalMs: 60 * MINUTE,
      budget: () => ({ requestsPerMinute: 240, syncShare: 0.7 }),
    });

  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(async () => {
    await testDb?.drop();
  });
  beforeEach(async () => {
    await testDb.database.db.execute(sql`DELETE FROM sync_runs`);
    clock.set(SYNC_TEST_TIME);
  });

  it('keeps SYNC_INTERVAL after a run that needed less of the budget', async () => {
    await insertSyncRun(testDb.database.db, { kind: 'inventory', status: 'succeeded', queuedAt: at(15), startedAt: at(15), providerCalls: 312 });
    expect((await scheduler().tick())[0]).toMatchObject({ kind: 'inventory', trigger: 'schedule' });
  });

  it('waits the calls of a costly inventory run at the sync share before the next one', async () => {
    // 3,360 calls at 168 a minute are 20 minutes: not 15 after its start, but 20.
    await insertSyncRun(testDb.database.db, { kind: 'inventory', status: 'succeeded', queuedAt: at(16), startedAt: at(16), providerCalls: 3_360 });
    expect(await scheduler().tick()).toEqual([]);
    clock.advance(3 * MINUTE);
    expect(await scheduler().tick()).toEqual([]);
    clock.advance(MINUTE);
    expect((await scheduler().tick())[0]).toMatchObject({ kind: 'inventory', trigger: 'schedule' });
  });

  it('sizes the usage schedule by the last usage run the same way', async () => {
    // 16,800 calls at 168 a minute: 100 minutes, more than USAGE_SYNC_INTERVAL's 60.
    await insertSyncRun(testDb.database.db, { kind: 'usage', status: 'succeeded', queuedAt: at(70), startedAt: at(70), providerCalls: 16_800 });
    expect(await scheduler().tickUsage()).toEqual([]);
    clock.advance(30 * MINUTE);
    expect((await scheduler().tickUsage())[0]).toMatchObject({ kind: 'usage', trigger: 'schedule' });
  });
});

describe('one lane for inventory and usage runs', () => {
  let testDb: TestDatabase;
  const clock = createClock(SYNC_TEST_TIME);

  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(async () => {
    await testDb?.drop();
  });
  beforeEach(async () => {
    await testDb.database.db.execute(sql`DELETE FROM sync_runs`);
  });

  it('keeps a usage run queued, saying why, while an inventory run runs, and starts it after', async () => {
    const runs = createSyncRunsRepository(testDb.database.db);
    const inventory = await runs.insertQueued({ kind: 'inventory', accountId: 1, trigger: 'manual', requestedBy: null, at: clock.now() });
    const usage = await runs.insertQueued({ kind: 'usage', accountId: 1, trigger: 'schedule', requestedBy: null, at: clock.now() });
    if (!inventory.ok || !usage.ok) throw new Error('could not queue');
    expect(await runs.claim(inventory.row.id, 'worker-a', clock.now())).toMatchObject({ status: 'running' });
    expect(await runs.claim(usage.row.id, 'worker-b', clock.now())).toBeNull();
    expect(await runs.findById(usage.row.id)).toMatchObject({ status: 'queued', phase: 'Waiting for the inventory sync to finish', attempts: 0 });
    await runs.finish(inventory.row.id, 'worker-a', { status: 'succeeded', at: clock.now(), message: null });
    expect(await runs.claim(usage.row.id, 'worker-b', clock.now())).toMatchObject({ status: 'running', phase: 'Starting' });
  });

  it('lets one of two claims made at once from two connections run, never both', async () => {
    const second = await testDb.connectAgain();
    try {
      const a = createSyncRunsRepository(testDb.database.db);
      const b = createSyncRunsRepository(second.db);
      for (let round = 0; round < 10; round++) {
        await testDb.database.db.execute(sql`DELETE FROM sync_runs`);
        const inventory = await a.insertQueued({ kind: 'inventory', accountId: 1, trigger: 'manual', requestedBy: null, at: clock.now() });
        const usage = await b.insertQueued({ kind: 'usage', accountId: 1, trigger: 'manual', requestedBy: null, at: clock.now() });
        if (!inventory.ok || !usage.ok) throw new Error('could not queue');
        const claimed = await Promise.all([a.claim(inventory.row.id, 'worker-a', clock.now()), b.claim(usage.row.id, 'worker-b', clock.now())]);
        expect(claimed.filter((row) => row !== null)).toHaveLength(1);
        expect(await a.running()).toHaveLength(1);
      }
    } finally {
      await second.close();
    }
  });
});

describe('inventory and usage runs through the job queue', () => {
  let sim: RunningSimulator;
  let testDb: TestDatabase;
  let app: FastifyInstance;
  let token: string;
  let client: StarlinkClient;
  const clock = createClock(SYNC_TEST_TIME);
  const request = (url: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    sim = await startFleet({ seed: 'sync-lane', terminals: 60 });
    // Slow enough that the first run is still running when a usage run is asked for.
    sim.setFaults({ latencyMs: 30 });
    testDb = await createTestDatabase();
    // As server.ts does: the account's budget in the app's database, and the client on it.
    const budget: ProviderCallBudget = createProviderCallBudget({
      db: testDb.database.db,
      repo: createProviderCallBudgetRepository(testDb.database.db),
      accountKey: providerAccountKey(sim.baseUrl, sim.credentials.clientId),
      requestsPerMinute: 240,
      syncShare: 0.7,
      now: clock.now,
    });
    client = fastClient(sim, { limiter: budget, now: clock.now });
    const config = await testConfig({ SYNC_INTERVAL: '15m', USAGE_SYNC_INTERVAL: '1h' });
    // The inventory is empty: the first start queues an inventory run at once.
    app = await buildApp({ config, database: testDb.database, now: clock.now, logger: false, provider: { kind: 'simulator', client: () => client, budget: () => budget } });
    await app.ready();
    const password = 'Lane-Passw0rd';
    const admin = await createRepositories(testDb.database.db).users.insert({
      email: 'lane@test.local',
      name: 'Lane Admin',
      role: 'admin',
      passwordHash: await hashPassword(password),
      createdAt: clock.now(),
      updatedAt: clock.now(),
    });
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: admin.email, password } });
    token = (login.json().data as { token: string }).token;
  });
  afterAll(async () => {
    await app?.close();
    await testDb?.drop();
    await sim?.close();
  });

  it('runs a usage run asked for during an inventory run only once the inventory run has ended', async () => {
    const runs = createSyncRunsRepository(testDb.database.db);
    await until('the inventory run is running', async () => (await runs.latest('inventory', 1))?.status === 'running');
    const inventory = await runs.latest('inventory', 1);
    expect(inventory).toMatchObject({ trigger: 'startup', status: 'running' });
    const usage = await app.services.terminalSync.tryStart({ kind: 'usage', accountId: 1, trigger: 'manual', requestedBy: null });
    expect(usage).not.toBeNull();
    /** What was running at each look, by kind. */
    const seenRunning: string[][] = [];
    await until('every recent run ended', async () => {
      seenRunning.push((await runs.running()).map((r) => r.kind));
      return (await runs.recent(5)).every((r) => r.status === 'succeeded' || r.status === 'failed');
    });
    sim.setFaults({ latencyMs: 0 });
    const inventoryRow = (await runs.findById(inventory!.id))!;
    const usageRow = (await runs.findById(usage!.id))!;
    expect(inventoryRow.status).toBe('succeeded');
    // The usage run asked for was the one that ran (the inventory run's own follow-up found it queued).
    expect(usageRow.status).toBe('succeeded');
    expect((await runs.recent(5)).filter((r) => r.kind === 'usage')).toHaveLength(1);
    expect(seenRunning.some((kinds) => kinds.includes('usage'))).toBe(true);
    expect(seenRunning.every((kinds) => kinds.length <= 1)).toBe(true);
    expect(usageRow.startedAt!.getTime()).toBeGreaterThanOrEqual(inventoryRow.finishedAt!.getTime());
  });

  it('answers GET /terminals/sync/budget with the schedule, the last runs and the last hour by lane', async () => {
    // A person's calls beside the syncs' (two provider requests).
    await client.getAccount({ fresh: true });
    await client.getAccount({ fresh: true });
    const res = await request('/api/v1/terminals/sync/budget');
    expect(res.statusCode).toBe(200);
    const data = res.json().data as SyncBudget;
    const runs = createSyncRunsRepository(testDb.database.db);
    const inventory = (await runs.latestEnded('inventory', 1))!;
    const usage = (await runs.latestEnded('usage', 1))!;

    expect(data.budget).toEqual({ requestsPerMinute: 240, syncShare: 0.7, syncRequestsPerMinute: 168, shared: true, pausedUntil: null });
    expect(data.inventory).toMatchObject({
      kind: 'inventory',
      state: 'scheduled',
      configuredIntervalMs: 15 * MINUTE,
      effectiveIntervalMs: 15 * MINUTE,
      nextAt: new Date(inventory.startedAt!.getTime() + 15 * MINUTE).toISOString(),
      lastRun: { id: inventory.id, status: 'succeeded', providerCalls: inventory.providerCalls, durationMs: 0 },
    });
    expect(data.usage).toMatchObject({ kind: 'usage', state: 'scheduled', configuredIntervalMs: 60 * MINUTE, lastRun: { id: usage.id, providerCalls: usage.providerCalls } });
    expect(inventory.providerCalls).toBeGreaterThan(4);
    // The test clock stands still: every call started in its minute, the last of the sixty.
    expect(data.perMinute).toHaveLength(60);
    expect(data.perMinute.at(-1)).toEqual({
      minute: new Date(Math.floor(clock.now().getTime() / MINUTE) * MINUTE).toISOString(),
      sync: inventory.providerCalls + usage.providerCalls,
      person: 2,
    });
    expect(data.perMinute.slice(0, 59).every((m) => m.sync === 0 && m.person === 0)).toBe(true);
  });

  it("leaves a run waiting for the lane to the worker of the running one, and the sweeper enqueues it only once the lane is free", async () => {
    const runs = createSyncRunsRepository(testDb.database.db);
    // An inventory run some other process is running (its heartbeat fresh), and a usage run
    // refused meanwhile: queued, with no job.
    const inventory = await runs.insertQueued({ kind: 'inventory', accountId: 1, trigger: 'manual', requestedBy: null, at: clock.now() });
    const usage = await runs.insertQueued({ kind: 'usage', accountId: 1, trigger: 'manual', requestedBy: null, at: clock.now() });
    if (!inventory.ok || !usage.ok) throw new Error('could not queue');
    await runs.claim(inventory.row.id, 'elsewhere', clock.now());
    expect(await runs.claim(usage.row.id, 'here', clock.now())).toBeNull();
    expect((await app.syncJobs!.tick()).sweep.reenqueued).toEqual([]);
    expect(await runs.findById(usage.row.id)).toMatchObject({ status: 'queued', phase: 'Waiting for the inventory sync to finish' });

    // The other process's worker died with its run unfinished; here the run ends and the lane frees.
    await runs.finish(inventory.row.id, 'elsewhere', { status: 'succeeded', at: clock.now(), message: null });
    expect((await app.syncJobs!.tick()).sweep.reenqueued).toEqual([usage.row.id]);
    await until('the usage run ended', async () => ['succeeded', 'failed'].includes((await runs.findById(usage.row.id))?.status ?? ''));
    expect(await runs.findById(usage.row.id)).toMatchObject({ status: 'succeeded' });
  });

  it('says a kind is queued or running instead of when it is next due', async () => {
    const runs = createSyncRunsRepository(testDb.database.db);
    // Later than the runs before it: the newest of its kind.
    clock.advance(1_000);
    const queued = await runs.insertQueued({ kind: 'usage', accountId: 1, trigger: 'manual', requestedBy: null, at: clock.now() });
    if (!queued.ok) throw new Error('could not queue');
    // Not handed to the queue: it stays queued while the answer is read.
    const data = (await request('/api/v1/terminals/sync/budget')).json().data as SyncBudget;
    await runs.abandon(queued.row.id, { from: 'queued', at: clock.now(), message: 'test' });
    expect(data.usage).toMatchObject({ state: 'queued', nextAt: null });
    expect(data.usage.lastRun?.status).toBe('succeeded');
  });
});

describe('GET /terminals/sync/budget without a provider', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('answers the default budget, every schedule off and an empty hour, to any portal user', async () => {
    const user = await ctx.createAdmin({ role: 'user' });
    const token = (await ctx.login('admin', user.email, user.password)).token;
    const res = await ctx.request({ method: 'GET', url: '/api/v1/terminals/sync/budget', token });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as SyncBudget;
    expect(data.budget).toEqual({ requestsPerMinute: 240, syncShare: 0.7, syncRequestsPerMinute: 168, shared: false, pausedUntil: null });
    expect(data.inventory).toEqual({ kind: 'inventory', state: 'off', configuredIntervalMs: null, effectiveIntervalMs: null, nextAt: null, lastRun: null });
    expect(data.usage.state).toBe('off');
    expect(data.perMinute.every((m) => m.sync === 0 && m.person === 0)).toBe(true);
  });
});
