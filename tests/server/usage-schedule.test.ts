// Usage on its own schedule: USAGE_SYNC_INTERVAL (spellings, default, off), the scheduler's
// decision on each tick, and the usage sync run twice against the simulator leaving every stored
// cycle and day as it was (the scheduled run too, but for when each re-read cycle was synced).
import { asc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from '../../server/config';
import { createSyncRunsRepository } from '../../server/db/repositories/sync-runs';
import { serviceLineUsageCycles, serviceLineUsageDaily } from '../../server/db/schema';
import { createScheduler } from '../../server/jobs/scheduler';
import type { RunningSimulator } from '../../server/simulator';
import { insertSyncRun } from '../fixtures/terminals';
import { createClock, createTestContext, createTestDatabase, type TestContext, type TestDatabase } from './helpers';
import { SYNC_TEST_TIME, fastClient, startFleet, waitForLatest, waitForRun } from './terminal-sync-fixtures';

const MINUTE = 60_000;

describe('USAGE_SYNC_INTERVAL', () => {
  it('defaults to one hour', () => {
    expect(parseEnv({}).usageSyncIntervalMs).toBe(60 * MINUTE);
  });

  it.each([
    ['30m', 30 * MINUTE],
    ['2h', 120 * MINUTE],
    ['900s', 15 * MINUTE],
    ['45', 45 * MINUTE],
    ['1d', 1440 * MINUTE],
  ])('reads %j like SYNC_INTERVAL does', (value, ms) => {
    expect(parseEnv({ USAGE_SYNC_INTERVAL: value }).usageSyncIntervalMs).toBe(ms);
  });

  it.each(['off', 'OFF', '0'])('turns only the usage schedule off with %j', (value) => {
    const config = parseEnv({ USAGE_SYNC_INTERVAL: value });
    expect(config.usageSyncIntervalMs).toBeNull();
    expect(config.syncIntervalMs).toBe(15 * MINUTE);
  });

  it.each(['hourly', '30s', '-1', '31d'])('stops start-up with one readable line for %j', (value) => {
    let error: unknown;
    try {
      parseEnv({ USAGE_SYNC_INTERVAL: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(
      `  USAGE_SYNC_INTERVAL: must be a duration of at least 1 minute like 15m, 1h, 900s or plain minutes, or 0/off to turn it off (got "${value}")`,
    );
  });
});

describe("the scheduler's usage decision on each tick", () => {
  let testDb: TestDatabase;
  const clock = createClock(SYNC_TEST_TIME);
  const runs = () => createSyncRunsRepository(testDb.database.db);
  const at = (minutesAgo: number) => new Date(clock.now().getTime() - minutesAgo * MINUTE);
  /** The real scheduler; the sync service behind it only queues the run (what tryStart does first). */
  const scheduler = (intervals: { inventory?: number | null; usage?: number | null } = {}) =>
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
      intervalMs: intervals.inventory === undefined ? 15 * MINUTE : intervals.inventory,
      usageIntervalMs: intervals.usage === undefined ? 60 * MINUTE : intervals.usage,
    });

  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(async () => {
    await testDb?.drop();
  });
  beforeEach(async () => {
    await testDb.database.db.execute(sql`DELETE FROM sync_runs`);
  });

  it('starts a scheduled usage run when none ever ran, and not a second while it is queued', async () => {
    const [started] = await scheduler().tickUsage();
    expect(started).toMatchObject({ kind: 'usage', trigger: 'schedule', status: 'queued', requestedBy: null });
    expect(await scheduler().tickUsage()).toEqual([]);
    expect((await runs().recent(10)).map((r) => r.id)).toEqual([started!.id]);
  });

  it('waits until USAGE_SYNC_INTERVAL has passed since the last usage run started, manual ones included', async () => {
    await insertSyncRun(testDb.database.db, { kind: 'usage', trigger: 'manual', status: 'succeeded', queuedAt: at(70), startedAt: at(59), finishedAt: at(58) });
    expect(await scheduler().tickUsage()).toEqual([]);
    clock.advance(MINUTE);
    expect((await scheduler().tickUsage())[0]).toMatchObject({ kind: 'usage', trigger: 'schedule' });
  });

  it('goes by the time a run was queued when it never started (it failed before)', async () => {
    await insertSyncRun(testDb.database.db, { kind: 'usage', status: 'failed', queuedAt: at(30) });
    expect(await scheduler().tickUsage()).toEqual([]);
    expect(await scheduler({ usage: 30 * MINUTE }).tickUsage()).toHaveLength(1);
  });

  it('leaves usage to a queued or running inventory run, which queues one when it succeeds', async () => {
    for (const status of ['queued', 'running'] as const) {
      await testDb.database.db.execute(sql`DELETE FROM sync_runs`);
      await insertSyncRun(testDb.database.db, { kind: 'inventory', status, queuedAt: at(1) });
      expect(await scheduler().tickUsage()).toEqual([]);
    }
  });

  it('starts nothing with USAGE_SYNC_INTERVAL=off or with SYNC_INTERVAL=off', async () => {
    expect(await scheduler({ usage: null }).tickUsage()).toEqual([]);
    expect(await scheduler({ inventory: null }).tickUsage()).toEqual([]);
    expect(await runs().latest('usage', 1)).toBeNull();
  });
});

describe('the usage sync against the simulator', () => {
  let sim: RunningSimulator;
  let ctx: TestContext;
  let token: string;
  const clock = () => ctx.clock;

  beforeAll(async () => {
    sim = await startFleet({ seed: 'usage-schedule', terminals: 40 });
    const client = fastClient(sim);
    // The first start on an empty inventory syncs it, and the usage run follows on its own.
    ctx = await createTestContext({
      now: SYNC_TEST_TIME,
      env: { SYNC_INTERVAL: '1d', USAGE_SYNC_INTERVAL: '1h' },
      provider: { kind: 'simulator', client: () => client },
    });
    const admin = await ctx.createAdmin();
    token = (await ctx.login('admin', admin.email, admin.password)).token as string;
    expect((await waitForLatest(ctx.database.db, 'inventory')).status).toBe('succeeded');
    expect((await waitForLatest(ctx.database.db, 'usage')).status).toBe('succeeded');
  });
  afterAll(async () => {
    await ctx?.close();
    await sim?.close();
  });

  async function storedUsage() {
    const db = ctx.database.db;
    const c = serviceLineUsageCycles;
    const d = serviceLineUsageDaily;
    return {
      cycles: await db.select().from(c).orderBy(asc(c.serviceLineNumber), asc(c.cycleStart)),
      days: await db.select().from(d).orderBy(asc(d.serviceLineNumber), asc(d.usageDate)),
    };
  }

  it('leaves every row of the cycles and the days exactly as it was when run again', async () => {
    const before = await storedUsage();
    expect(before.cycles.length).toBeGreaterThan(100);
    expect(before.days.length).toBeGreaterThan(1000);
    const run = await ctx.app.services.terminalSync.tryStart({ kind: 'usage', accountId: 1, trigger: 'manual', requestedBy: null });
    expect(run).not.toBeNull();
    // The clock stands still, so runs are told apart by id, not by when they were queued.
    // Every line had usage already: this run re-read only the last two cycles of each.
    const lines = new Set(before.cycles.map((c) => c.serviceLineNumber)).size;
    expect(await waitForRun(ctx, token, run!.id)).toMatchObject({ status: 'succeeded', counts: { added: 0, updated: lines } });
    expect(await storedUsage()).toEqual(before);
  });

  it('starts a scheduled usage run an hour after the last one, which changes nothing but when cycles were read', async () => {
    const before = await storedUsage();
    clock().advance(30 * MINUTE);
    expect(await ctx.app.syncJobs!.tick()).toMatchObject({ scheduled: [], scheduledUsage: [] });
    clock().advance(31 * MINUTE);
    const { scheduled, scheduledUsage: [scheduledUsage] } = await ctx.app.syncJobs!.tick();
    expect(scheduled).toEqual([]);
    expect(scheduledUsage).toMatchObject({ kind: 'usage', trigger: 'schedule', requestedBy: null });
    expect(await waitForRun(ctx, token, scheduledUsage!.id)).toMatchObject({ status: 'succeeded' });

    const after = await storedUsage();
    // A day's synced_at says when its figures last changed: none did.
    expect(after.days).toEqual(before.days);
    // A cycle's says when it was last read: the current and previous ones were, now.
    const now = ctx.clock.now();
    expect(after.cycles.map(({ syncedAt: _, ...rest }) => rest)).toEqual(before.cycles.map(({ syncedAt: _, ...rest }) => rest));
    const reread = after.cycles.filter((c, i) => c.syncedAt.getTime() !== before.cycles[i]!.syncedAt.getTime());
    expect(reread.length).toBeGreaterThan(0);
    expect(reread.every((c) => c.syncedAt.getTime() === now.getTime())).toBe(true);
  });
});
