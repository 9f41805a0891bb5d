// Crash safety and scheduling of the background sync: a worker killed halfway through the apply
// leaves the changed rows it did not reach 'pending' (never falsely 'synced'; unchanged rows stay
// 'synced') and the next start resumes the run; stale runs
// are resumed or given up; lost jobs are enqueued again; a shutdown hands its run back; a worker
// that lost its run writes nothing; the first start and the interval start runs on their own.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import type { Env } from '../../server/config';
import type { Database } from '../../server/db/client';
import { createRepositories } from '../../server/db/repositories';
import type { SyncRunRow } from '../../server/db/schema';
import type { SyncJobsOptions } from '../../server/jobs';
import { createRunWorker } from '../../server/jobs/run-worker';
import type { StarlinkClient } from '../../server/provider';
import type { RunningSimulator } from '../../server/simulator';
import { singleAccount } from '../../server/provider-access';
import { createAuditService } from '../../server/services/audit';
import { createLineRowsRefresher } from '../../server/services/line-rows';
import { createTerminalSyncService, type SyncOutcome, type SyncRunTracker } from '../../server/services/terminal-sync';
import { createClock, createTestDatabase, testConfig, type TestClock, type TestDatabase } from './helpers';
import { SYNC_TEST_TIME, fastClient, localInventory, providerInventory, runIdsOf, startFleet, syncStatusCounts } from './terminal-sync-fixtures';

// Enough terminals for three apply batches of APPLY_BATCH and a few dozen lines of usage:
// usage history was the larger part of a full sync here; these checks need two cycles of it.
const FLEET = 60;
const APPLY_BATCH = 20;
/** Cycles before the current one a line's first usage read goes back (USAGE_HISTORY_CYCLES; a year by default). */
const HISTORY = 2;

let sim: RunningSimulator;
let client: StarlinkClient;
const open: { close(): Promise<void> }[] = [];
const databases: TestDatabase[] = [];

beforeAll(async () => {
  sim = await startFleet({ seed: 'sync-recovery', terminals: FLEET });
  client = fastClient(sim);
});

afterEach(async () => {
  while (open.length > 0) await open.pop()!.close();
  while (databases.length > 0) await databases.pop()!.drop();
  sim.setFaults({ latencyMs: 0 });
});

afterAll(() => sim.close());

/** `restartable`: on a directory, so reopen() finds the data again (PostgreSQL always is). */
async function newDatabase(restartable = false): Promise<TestDatabase> {
  const testDb = await createTestDatabase({ persistent: restartable });
  databases.push(testDb);
  return testDb;
}

/** An app over `database` with the background sync started, as a (re)started server has. */
async function openApp(database: Database, clock: TestClock, options: { env?: Env; syncJobs?: SyncJobsOptions } = {}) {
  const config = await testConfig({ SYNC_INTERVAL: 'off', USAGE_HISTORY_CYCLES: String(HISTORY), ...options.env });
  const app = await buildApp({
    config,
    database,
    now: clock.now,
    logger: false,
    provider: { kind: 'simulator', client: () => client },
    syncJobs: options.syncJobs,
  });
  await app.ready();
  const handle = { close: () => app.close() };
  open.push(handle);
  return {
    app,
    repos: createRepositories(database.db),
    async close() {
      open.splice(open.indexOf(handle), 1);
      await app.close();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(database: Database, id: string, done: (run: SyncRunRow) => boolean, timeoutMs = 30_000): Promise<SyncRunRow> {
  const repos = createRepositories(database.db);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await repos.syncRuns.findById(id);
    if (run && done(run)) return run;
    if (Date.now() > deadline) throw new Error(`run ${id} is ${run?.status} (${run?.phase})`);
    await sleep(50);
  }
}

const ended = (run: SyncRunRow) => run.status === 'succeeded' || run.status === 'failed';

/**
 * After an inventory run succeeded: waits for the usage run its success queued (one not among
 * `before`, the usage runs there were before it) to end, and for nothing to be left active, so the
 * next test starts on a quiet database.
 */
async function waitForItsUsage(database: Database, before: ReadonlySet<string>) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const result = (await database.db.execute(
      sql`SELECT id, kind, status FROM sync_runs WHERE status IN ('queued', 'running') OR kind = 'usage'`,
    )) as unknown as { rows: { id: string; kind: string; status: string }[] };
    const active = result.rows.some((run) => run.status === 'queued' || run.status === 'running');
    const queuedSince = result.rows.some((run) => run.kind === 'usage' && !before.has(run.id));
    if (!active && queuedSince) return;
    await sleep(50);
  }
  throw new Error('the usage run an inventory run queues did not end');
}

/** A full sync through the app's own queue. */
async function syncOnce(opened: Awaited<ReturnType<typeof openApp>>, database: Database): Promise<SyncRunRow> {
  const before = await runIdsOf(database.db, 'usage');
  const job = await opened.app.services.terminalSync.startSync({ trigger: 'manual', requestedBy: null });
  const run = await waitFor(database, job.id, ended);
  if (run.status === 'succeeded') await waitForItsUsage(database, before);
  return run;
}

/** A sync engine of its own on `database`, outside the app's queue, against the test simulator. */
function engineOn(database: Database, clock: TestClock, extra: Partial<Parameters<typeof createTerminalSyncService>[0]> = {}) {
  const repos = createRepositories(database.db);
  return createTerminalSyncService({
    db: database.db,
    repos,
    audit: createAuditService({ audit: repos.audit, now: clock.now }),
    now: clock.now,
    provider: singleAccount({ kind: 'simulator', client: () => client }),
    noProvider: 'no provider',
    lineRows: createLineRowsRefresher({ repos }),
    ...extra,
    options: { usageHistoryCycles: HISTORY, ...extra.options },
  });
}

/** Runs an inventory sync (batches of APPLY_BATCH) whose worker dies in the third batch of terminals, before it commits. */
async function killMidApply(database: Database, clock: TestClock): Promise<SyncRunRow> {
  const repos = createRepositories(database.db);
  const inserted = await repos.syncRuns.insertQueued({ kind: 'inventory', accountId: 1, trigger: 'manual', requestedBy: null, at: clock.now() });
  if (!inserted.ok) throw new Error('could not queue');
  const run = (await repos.syncRuns.claim(inserted.row.id, 'doomed-worker', clock.now()))!;
  const engine = engineOn(database, clock, { options: { applyBatchSize: APPLY_BATCH } });
  // The worker dies in the third batch of terminals, before it commits: every checkpoint once
  // two batches of terminals were counted fails, whichever lane it belongs to.
  let counted = 0;
  const tracker: SyncRunTracker = {
    run,
    signal: new AbortController().signal,
    report(update) {
      if (update.counts) counted = update.counts.added + update.counts.updated + update.counts.unchanged + update.counts.failed;
    },
    async checkpoint(tx) {
      if (counted > 2 * APPLY_BATCH) throw new Error('worker killed');
      await repos.syncRuns.beat(run.id, 'doomed-worker', clock.now(), {}, tx);
    },
  };
  await expect(engine.syncInventory(tracker)).rejects.toThrow('worker killed');
  return run;
}

/** The live terminals left 'pending', sorted. */
async function pendingIds(database: Database): Promise<string[]> {
  const result = (await database.db.execute(
    sql`SELECT user_terminal_id AS id FROM terminals WHERE removed_at IS NULL AND sync_status = 'pending' ORDER BY user_terminal_id`,
  )) as unknown as { rows: { id: string }[] };
  return result.rows.map((r) => r.id);
}

describe('the end of a run', () => {
  it('still succeeds when the pages cannot be updated after the writes, and says so; the rows stay marked for their readers', async () => {
    const testDb = await newDatabase();
    const clock = createClock(SYNC_TEST_TIME);
    const repos = createRepositories(testDb.database.db);
    const inserted = await repos.syncRuns.insertQueued({ kind: 'inventory', accountId: 1, trigger: 'manual', requestedBy: null, at: clock.now() });
    if (!inserted.ok) throw new Error('could not queue');
    const run = (await repos.syncRuns.claim(inserted.row.id, 'worker', clock.now()))!;
    const engine = engineOn(testDb.database, clock, {
      lineRows: { refreshForRead: async () => false, markedLeftToBackground: async () => false, settled: async () => undefined, refreshAll: async () => Promise.reject(new Error('connection lost')) },
    });
    const tracker: SyncRunTracker = { run, signal: new AbortController().signal, report() {}, async checkpoint() {} };
    const outcome = await engine.syncInventory(tracker);
    expect(outcome.counts.added).toBe(FLEET);
    expect(outcome.message).toBe('The pages were not updated at the end of the run (connection lost); they update on their next read.');
    expect((await repos.subscriptions.rowsState()).dirty).toBe(true);
  });
});

/** Every stored usage figure, without the times it was written. */
async function usageSnapshot(database: Database) {
  const cycles = (await database.db.execute(
    sql`SELECT service_line_number, cycle_start::text, cycle_end::text, priority_gb::text, standard_gb::text, usage_limit_gb::text, overage_gb::text
        FROM service_line_usage_cycles ORDER BY 1, 2`,
  )) as unknown as { rows: unknown[] };
  const days = (await database.db.execute(
    sql`SELECT service_line_number, usage_date::text, priority_gb::text, standard_gb::text FROM service_line_usage_daily ORDER BY 1, 2`,
  )) as unknown as { rows: unknown[] };
  return { cycles: cycles.rows, days: days.rows };
}

describe('one synced database, its syncs interrupted in turn', () => {
  // One database for these three, synced once (inventory and its usage) before them: each starts
  // from a database that holds the provider's inventory and usage with no run active, and leaves
  // it so for the next (the usage run ends; the resumed run syncs to the inventory again), until
  // the last, which is left with its dead run. A full first sync and a database per test would
  // prove the same three times over. Their order matters: usage before the fleet changes.
  let testDb: TestDatabase;
  let clock: TestClock;

  beforeAll(async () => {
    // Restartable: the worker killed mid-apply is followed by a restart on the same data.
    testDb = await createTestDatabase({ persistent: true });
    clock = createClock(SYNC_TEST_TIME);
    const first = await openApp(testDb.database, clock);
    expect((await syncOnce(first, testDb.database)).status).toBe('succeeded');
    await first.close();
  });

  afterAll(async () => {
    await testDb?.drop();
  });

  describe('the usage writes', () => {
    it('go in transactions paced to their time, each checking the claim; a worker killed between them leaves whole lines that the next run completes', async () => {
      const synced = await usageSnapshot(testDb.database);
      const cyclesPerLine = new Map<string, number>();
      for (const row of synced.cycles as { service_line_number: string }[]) cyclesPerLine.set(row.service_line_number, (cyclesPerLine.get(row.service_line_number) ?? 0) + 1);
      const lines = cyclesPerLine.size;
      expect(lines).toBeGreaterThan(40);
      // USAGE_HISTORY_CYCLES: a line's first read goes back that many cycles before the current one.
      expect(Math.max(...cyclesPerLine.values())).toBe(HISTORY + 1);

      // The same usage read again into empty tables, by an engine whose every transaction takes 100 ms.
      await testDb.database.db.execute(sql`DELETE FROM service_line_usage_daily`);
      await testDb.database.db.execute(sql`DELETE FROM service_line_usage_cycles`);
      const repos = createRepositories(testDb.database.db);
      let ms = 0;
      const engine = engineOn(testDb.database, clock, { pacing: { monotonic: () => (ms += 100) } });
      const inserted = await repos.syncRuns.insertQueued({ kind: 'usage', accountId: 1, trigger: 'manual', requestedBy: null, at: clock.now() });
      if (!inserted.ok) throw new Error('could not queue');
      const run = (await repos.syncRuns.claim(inserted.row.id, 'worker', clock.now()))!;
      // The same run twice: killed, then resumed (as the sweeper hands it to the next worker).
      const usageRun = async (killAt: number | null) => {
        const checkpoints: number[] = [];
        let counted = 0;
        const tracker: SyncRunTracker = {
          run,
          signal: new AbortController().signal,
          report(update) {
            if (update.counts) counted = update.counts.added + update.counts.updated;
          },
          async checkpoint() {
            checkpoints.push(counted);
            if (checkpoints.length === killAt) throw new Error('worker killed');
          },
        };
        const outcome = await engine.syncUsage(tracker).catch((error: unknown) => error);
        return { outcome, checkpoints };
      };
      const linesWithUsage = async () => {
        const result = (await testDb.database.db.execute(
          sql`SELECT count(DISTINCT service_line_number)::int AS n FROM service_line_usage_cycles`,
        )) as unknown as { rows: { n: number }[] };
        return Number(result.rows[0]!.n);
      };

      // 25 lines first; at 100 ms for 25 the pace is 5 lines a transaction (20 ms), the floor.
      const killed = await usageRun(3);
      expect(killed.outcome).toMatchObject({ message: 'worker killed' });
      expect(killed.checkpoints).toEqual([25, 30, 35]);
      // The third transaction rolled back whole: two of them, 30 lines, are written.
      expect(await linesWithUsage()).toBe(30);

      const resumed = await usageRun(null);
      expect(resumed.outcome).toMatchObject({ counts: { added: lines - 30, updated: 30 } });
      // Every transaction of 5 lines (the last of a batch maybe fewer): the pace learnt stays with the engine.
      expect(resumed.checkpoints).toHaveLength(Math.ceil((lines - 30) / 5) + 30 / 5);
      expect(await usageSnapshot(testDb.database)).toEqual(synced);
      // The run ends as its worker would end it: a run left 'running' would be the next start's to resume.
      expect(await repos.syncRuns.finish(run.id, 'worker', { status: 'succeeded', at: clock.now(), ...(resumed.outcome as SyncOutcome) })).not.toBeNull();
    });
  });

  describe('a worker killed halfway through the apply', () => {
    it("leaves the rows it did not reach 'pending', never 'synced', and the next start resumes the run to the exact inventory", async () => {
      // The provider changes; then a run starts and its worker dies after two batches of terminals.
      const moved = sim.fleet.userTerminalIds().slice(-5);
      const changed: string[] = [];
      for (const id of moved) {
        const index = sim.fleet.terminalIndex(id)!;
        const line = sim.fleet.terminal(index).serviceLineNumber;
        if (line) expect(sim.fleet.detach(line, id).ok).toBe(true);
        if (line) changed.push(id);
      }
      expect(changed.length).toBeGreaterThan(0);
      const repos = createRepositories(testDb.database.db);
      const run = await killMidApply(testDb.database, clock);
      // The listing's order is the fleet's: the moved terminals are in the third batch, never applied,
      // and only they are 'pending'.
      expect(await pendingIds(testDb.database)).toEqual([...changed].sort());
      expect(await syncStatusCounts(testDb.database.db)).toEqual({ synced: FLEET - changed.length, pending: changed.length });
      expect(await repos.syncRuns.findById(run.id)).toMatchObject({ status: 'running', workerId: 'doomed-worker', attempts: 1 });
      const usageBefore = await runIdsOf(testDb.database.db, 'usage');

      // The server comes back (later: on PostgreSQL the heartbeat must look stale).
      const database = await testDb.reopen();
      clock.advance(3 * 60_000);
      await openApp(database, clock);
      const resumed = await waitFor(database, run.id, ended);
      expect(resumed).toMatchObject({ status: 'succeeded', attempts: 2 });
      expect(resumed.added + resumed.removed + resumed.failed).toBe(0);
      expect(resumed.updated + resumed.unchanged).toBe(FLEET);
      await waitForItsUsage(database, usageBefore);
      expect(await localInventory(database.db)).toEqual(providerInventory(sim));
      expect(await syncStatusCounts(database.db)).toEqual({ synced: FLEET });
      for (const id of moved) {
        const line = (await database.db.execute(sql`SELECT service_line_number FROM terminals WHERE user_terminal_id = ${id}`)) as unknown as {
          rows: { service_line_number: string | null }[];
        };
        expect(line.rows[0]!.service_line_number).toBeNull();
      }
    });


    it("after an upstream change leaves exactly the changed rows it did not reach 'pending'; unchanged rows stay 'synced'", async () => {
      // Two changes in the batches the run applies (1 and 2 of 3), two in the one it dies in.
      const ids = sim.fleet.userTerminalIds();
      const moved = [ids[3]!, ids[APPLY_BATCH + 3]!, ids[2 * APPLY_BATCH + 3]!, ids[2 * APPLY_BATCH + 8]!].filter((id) => {
        const line = sim.fleet.terminal(sim.fleet.terminalIndex(id)!).serviceLineNumber;
        return line !== null && line !== undefined && sim.fleet.detach(line, id).ok;
      });
      expect(moved).toHaveLength(4);
      const run = await killMidApply(testDb.database, clock);

      const written = (await testDb.database.db.execute(
        sql`SELECT user_terminal_id AS id FROM terminals WHERE last_sync_run_id = ${run.id}::uuid ORDER BY user_terminal_id`,
      )) as unknown as { rows: { id: string }[] };
      // Only the changed rows of the committed batches were written; unchanged rows were not touched
      // (their bookkeeping moves in one statement at the end of a run).
      expect(written.rows.map((r) => r.id)).toEqual([ids[3]!, ids[APPLY_BATCH + 3]!].sort());
      expect(await pendingIds(testDb.database)).toEqual([ids[2 * APPLY_BATCH + 3]!, ids[2 * APPLY_BATCH + 8]!].sort());
      expect(await syncStatusCounts(testDb.database.db)).toEqual({ synced: FLEET - 2, pending: 2 });
      // The pending rows still hold the old data: 'pending' is the truth about them.
      const stale = (await testDb.database.db.execute(
        sql`SELECT count(*)::int AS n FROM terminals WHERE user_terminal_id IN (${ids[2 * APPLY_BATCH + 3]!}, ${ids[2 * APPLY_BATCH + 8]!}) AND service_line_number IS NOT NULL`,
      )) as unknown as { rows: { n: number }[] };
      expect(Number(stale.rows[0]!.n)).toBe(2);
    });
  });
});

describe('the inventory writes', () => {
  it('go in transactions paced to their time, and rest after each only while a request waits', async () => {
    // More terminals than the first transaction's 100, so the pace it learns shows in one run.
    const PACED_FLEET = 150;
    const paced = await startFleet({ seed: 'sync-pacing', terminals: PACED_FLEET });
    open.push(paced);
    const pacedClient = fastClient(paced);
    const testDb = await newDatabase();
    const clock = createClock(SYNC_TEST_TIME);
    const repos = createRepositories(testDb.database.db);
    // Every transaction takes at least 100 ms on this clock; a rest is recorded, not slept.
    let ms = 0;
    const rests: number[] = [];
    let requestWaiting = false;
    const engine = engineOn(testDb.database, clock, {
      provider: singleAccount({ kind: 'simulator', client: () => pacedClient }),
      pacing: {
        monotonic: () => (ms += 100),
        restRatio: 1,
        wanted: () => requestWaiting,
        sleep: async (rest) => {
          rests.push(rest);
        },
      },
    });
    const inventoryRun = async () => {
      const inserted = await repos.syncRuns.insertQueued({ kind: 'inventory', accountId: 1, trigger: 'manual', requestedBy: null, at: clock.now() });
      if (!inserted.ok) throw new Error('could not queue');
      const run = (await repos.syncRuns.claim(inserted.row.id, 'worker', clock.now()))!;
      const phases: string[] = [];
      const tracker: SyncRunTracker = {
        run,
        signal: new AbortController().signal,
        report(update) {
          if (update.phase?.startsWith('Writing terminals')) phases.push(update.phase);
        },
        async checkpoint() {},
      };
      const outcome = await engine.syncInventory(tracker);
      await repos.syncRuns.finish(run.id, 'worker', { status: 'succeeded', at: clock.now(), ...outcome });
      return { outcome, phases };
    };

    // 100 terminals first; at 100 ms or more for 100 the pace is under 25, the floor.
    const first = await inventoryRun();
    expect(first.outcome.counts.added).toBe(PACED_FLEET);
    expect(first.phases).toEqual(['Writing terminals (0 of 150 written)', 'Writing terminals (100 of 150 written)', 'Writing terminals (125 of 150 written)']);
    expect(rests).toEqual([]);
    expect(await localInventory(testDb.database.db)).toEqual(providerInventory(paced));

    // With a request waiting, every non-empty paced transaction (terminals, addresses, lines) is followed by a rest.
    requestWaiting = true;
    const second = await inventoryRun();
    expect(second.outcome.counts.unchanged).toBe(PACED_FLEET);
    // The pace learnt stays with the engine: 25 terminals a transaction.
    expect(second.phases).toHaveLength(PACED_FLEET / 25);
    expect(rests.length).toBeGreaterThanOrEqual(PACED_FLEET / 25);
    expect(rests.every((rest) => rest >= 100)).toBe(true);
  });
});

describe('one server over time: the sweeper, a lost claim, and no schedule', () => {
  // One database and app for these (a fresh PGlite costs seconds); each test leaves no run active.
  let testDb: TestDatabase;
  let clock: TestClock;
  let opened: Awaited<ReturnType<typeof openApp>>;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    clock = createClock(SYNC_TEST_TIME);
    const config = await testConfig({ SYNC_INTERVAL: 'off', SYNC_STALE_AFTER: '2m', USAGE_HISTORY_CYCLES: String(HISTORY) });
    const app = await buildApp({ config, database: testDb.database, now: clock.now, logger: false, provider: { kind: 'simulator', client: () => client } });
    await app.ready();
    opened = { app, repos: createRepositories(testDb.database.db), close: () => app.close() };
  });

  afterAll(async () => {
    await opened?.close();
    await testDb?.drop();
  });

  it('starts nothing on its own with SYNC_INTERVAL=off, not even on an empty inventory', async () => {
    expect(await opened.repos.syncRuns.latest('inventory', 1)).toBeNull();
    clock.advance(24 * 60 * 60_000);
    expect((await opened.app.syncJobs!.tick()).scheduled).toEqual([]);
    expect(await opened.repos.syncRuns.latest('inventory', 1)).toBeNull();
  });

  it('resumes a run whose heartbeat is older than SYNC_STALE_AFTER, and leaves a fresh one alone', async () => {
    const usageBefore = await runIdsOf(testDb.database.db, 'usage');
    const inserted = await opened.repos.syncRuns.insertQueued({ kind: 'inventory', accountId: 1, trigger: 'schedule', requestedBy: null, at: clock.now() });
    if (!inserted.ok) throw new Error('could not queue');
    await opened.repos.syncRuns.claim(inserted.row.id, 'silent-worker', clock.now());

    clock.advance(60_000);
    expect((await opened.app.syncJobs!.tick()).sweep.resumed).toEqual([]);
    expect(await opened.repos.syncRuns.findById(inserted.row.id)).toMatchObject({ status: 'running', workerId: 'silent-worker' });

    clock.advance(90_000);
    const { sweep } = await opened.app.syncJobs!.tick();
    expect(sweep.resumed).toEqual([inserted.row.id]);
    const run = await waitFor(testDb.database, inserted.row.id, ended);
    expect(run).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(await localInventory(testDb.database.db)).toEqual(providerInventory(sim));
    await waitForItsUsage(testDb.database, usageBefore);
  });

  it('gives a run up after three attempts that stopped responding, and says why', async () => {
    const usageBefore = await runIdsOf(testDb.database.db, 'usage');
    const inserted = await opened.repos.syncRuns.insertQueued({ kind: 'inventory', accountId: 1, trigger: 'manual', requestedBy: null, at: clock.now() });
    if (!inserted.ok) throw new Error('could not queue');
    const id = inserted.row.id;
    await testDb.database.db.execute(sql`UPDATE sync_runs SET status = 'running', attempts = 3, worker_id = 'gone', heartbeat_at = ${new Date(clock.now().getTime() - 10 * 60_000).toISOString()}::timestamptz WHERE id = ${id}`);
    const { sweep } = await opened.app.syncJobs!.tick();
    expect(sweep.failed).toEqual([id]);
    const run = await opened.repos.syncRuns.findById(id);
    expect(run).toMatchObject({ status: 'failed', workerId: null });
    expect(run!.message).toContain('stopped responding 3 times');
    expect(run!.finishedAt).not.toBeNull();
    // The lock is free again.
    const next = await opened.app.services.terminalSync.startSync({ trigger: 'manual', requestedBy: null });
    expect((await waitFor(testDb.database, next.id, ended)).status).toBe('succeeded');
    await waitForItsUsage(testDb.database, usageBefore);
  });

  it('enqueues a queued run whose job was lost, and it runs', async () => {
    const usageBefore = await runIdsOf(testDb.database.db, 'usage');
    // Inserted without a job, as after a crash between the run's insert and its job's.
    const inserted = await opened.repos.syncRuns.insertQueued({ kind: 'inventory', accountId: 1, trigger: 'manual', requestedBy: null, at: clock.now() });
    if (!inserted.ok) throw new Error('could not queue');
    const sweep = await opened.app.syncJobs!.sweeper.sweep();
    expect(sweep.reenqueued).toEqual([inserted.row.id]);
    expect(await waitFor(testDb.database, inserted.row.id, ended)).toMatchObject({ status: 'succeeded', attempts: 1 });
    await waitForItsUsage(testDb.database, usageBefore);
  });

  it('a worker that lost its run to another writes nothing more and leaves the run to its new owner', async () => {
    const db = testDb.database.db;
    const inserted = await opened.repos.syncRuns.insertQueued({ kind: 'inventory', accountId: 1, trigger: 'manual', requestedBy: null, at: clock.now() });
    if (!inserted.ok) throw new Error('could not queue');
    const worker = createRunWorker({
      runs: opened.repos.syncRuns,
      now: clock.now,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined } as never,
      dispatcher: { dispatch: async () => false },
      failureSummary: 'Terminal sync failed',
      async engine(tracker) {
        // The sweeper gave the run to someone else while this worker was busy.
        await db.execute(sql`UPDATE sync_runs SET worker_id = 'new-owner' WHERE id = ${tracker.run.id}`);
        await db.transaction(async (tx) => {
          await tx.execute(sql`UPDATE terminals SET sync_status = 'pending'`);
          await tracker.checkpoint(tx);
        });
        return { counts: { added: 0, updated: 0, unchanged: 0, removed: 0, failed: 0 }, message: null, providerCalls: 0 };
      },
    });
    await worker.handle(inserted.row.id);
    expect(await syncStatusCounts(db)).toEqual({ synced: FLEET });
    expect(await opened.repos.syncRuns.findById(inserted.row.id)).toMatchObject({ status: 'running', workerId: 'new-owner', finishedAt: null });
  });
});

describe('stopping', () => {
  it('hands a run in progress back to the queue on shutdown, and the next start runs it, the attempt not counted', async () => {
    const testDb = await newDatabase(true);
    const clock = createClock(SYNC_TEST_TIME);
    const first = await openApp(testDb.database, clock, { syncJobs: { heartbeatMs: 20 } });
    sim.setFaults({ latencyMs: 150 });
    const job = await first.app.services.terminalSync.startSync({ trigger: 'manual', requestedBy: null });
    // The heartbeat moves while it reads the provider.
    const ticking = setInterval(() => clock.advance(1_000), 10);
    let running: SyncRunRow;
    let beats: number;
    try {
      running = await waitFor(testDb.database, job.id, (r) => r.status === 'running' && r.phase !== 'Starting');
      const firstBeat = running.heartbeatAt!.getTime();
      const later = await waitFor(testDb.database, job.id, (r) => (r.heartbeatAt?.getTime() ?? 0) > firstBeat);
      beats = later.heartbeatAt!.getTime() - firstBeat;
    } finally {
      clearInterval(ticking);
    }
    expect(beats).toBeGreaterThan(0);
    expect(running.phase).toMatch(/^Reading/);
    await first.close();

    const interrupted = await first.repos.syncRuns.findById(job.id);
    expect(interrupted).toMatchObject({ status: 'queued', attempts: 0, workerId: null });
    expect(interrupted!.message).toContain('Interrupted by a server shutdown');

    sim.setFaults({ latencyMs: 0 });
    const database = await testDb.reopen();
    await openApp(database, clock);
    expect(await waitFor(database, job.id, ended)).toMatchObject({ status: 'succeeded', attempts: 1 });
    await waitForItsUsage(database, new Set());
  });

});

describe('the schedule', () => {
  it("syncs once on the first start with an empty inventory ('startup'), then whenever SYNC_INTERVAL has passed since the last run", async () => {
    const testDb = await newDatabase(true);
    const clock = createClock(SYNC_TEST_TIME);
    const opened = await openApp(testDb.database, clock, { env: { SYNC_INTERVAL: '15m' } });
    const startup = await opened.repos.syncRuns.latest('inventory', 1);
    expect(startup).toMatchObject({ trigger: 'startup', requestedBy: null });
    expect((await waitFor(testDb.database, startup!.id, ended)).status).toBe('succeeded');
    // An empty database: no usage run before the startup run's.
    await waitForItsUsage(testDb.database, new Set());
    expect(await localInventory(testDb.database.db)).toEqual(providerInventory(sim));

    const usageBefore = await runIdsOf(testDb.database.db, 'usage');
    clock.advance(14 * 60_000);
    expect((await opened.app.syncJobs!.tick()).scheduled).toEqual([]);
    clock.advance(2 * 60_000);
    const [scheduled] = (await opened.app.syncJobs!.tick()).scheduled;
    expect(scheduled).toMatchObject({ kind: 'inventory', trigger: 'schedule' });
    expect((await waitFor(testDb.database, scheduled!.id, ended)).status).toBe('succeeded');
    await waitForItsUsage(testDb.database, usageBefore);
    await opened.close();

    // A restart with an inventory in place starts nothing by itself.
    const database = await testDb.reopen();
    const again = await openApp(database, clock, { env: { SYNC_INTERVAL: '15m' } });
    expect((await again.repos.syncRuns.latest('inventory', 1))!.id).toBe(scheduled!.id);
  });
});
