// Two servers on one database (two connection pools on PostgreSQL; on PGlite, which allows one
// handle, two apps on the same one): the database index is the lock, so only one of two starts
// queues a run, exactly one worker runs it, and neither server's sweeper takes a run whose
// heartbeat is fresh.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import type { Database } from '../../server/db/client';
import { createRepositories } from '../../server/db/repositories';
import { ConflictError } from '../../server/errors';
import type { StarlinkClient } from '../../server/provider';
import type { RunningSimulator } from '../../server/simulator';
import { createClock, createTestDatabase, testConfig, type TestDatabase } from './helpers';
import { SYNC_TEST_TIME, fastClient, localInventory, providerInventory, startFleet, syncStatusCounts } from './terminal-sync-fixtures';

let sim: RunningSimulator;
let client: StarlinkClient;
let testDb: TestDatabase;
let second: Database;
const apps: Awaited<ReturnType<typeof buildApp>>[] = [];
const clock = createClock(SYNC_TEST_TIME);

async function server(database: Database) {
  const config = await testConfig({ SYNC_INTERVAL: 'off' });
  const app = await buildApp({ config, database, now: clock.now, logger: false, provider: { kind: 'simulator', client: () => client } });
  await app.ready();
  apps.push(app);
  return app;
}

beforeAll(async () => {
  sim = await startFleet({ seed: 'two-servers', terminals: 150 });
  client = fastClient(sim);
  testDb = await createTestDatabase();
  second = await testDb.connectAgain();
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await second?.close();
  await testDb?.drop();
  await sim?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('two servers on one database', () => {
  it('queue one run between them, refuse the other start with "already running", and run it once', async () => {
    const a = await server(testDb.database);
    const b = await server(second);
    sim.setFaults({ latencyMs: 40 });
    const starts = await Promise.allSettled([
      a.services.terminalSync.startSync({ trigger: 'manual', requestedBy: null }),
      b.services.terminalSync.startSync({ trigger: 'manual', requestedBy: null }),
    ]);
    const started = starts.filter((s) => s.status === 'fulfilled');
    const refused = starts.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(started).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.reason).toBeInstanceOf(ConflictError);
    expect((refused[0]!.reason as Error).message).toContain('already running');
    const id = (started[0] as PromiseFulfilledResult<{ id: string }>).value.id;

    const repos = createRepositories(testDb.database.db);
    let run = await repos.syncRuns.findById(id);
    const deadline = Date.now() + 30_000;
    let sweptWhileRunning = false;
    while (run && run.status !== 'succeeded' && run.status !== 'failed' && Date.now() < deadline) {
      if (run.status === 'running' && !sweptWhileRunning) {
        // Either server's sweeper sees a fresh heartbeat and leaves the run alone.
        const [fromA, fromB] = [await a.syncJobs!.tick(), await b.syncJobs!.tick()];
        expect([...fromA.sweep.resumed, ...fromB.sweep.resumed, ...fromA.sweep.failed, ...fromB.sweep.failed]).toEqual([]);
        sweptWhileRunning = true;
      }
      await sleep(25);
      run = await repos.syncRuns.findById(id);
    }
    sim.setFaults({ latencyMs: 0 });
    expect(run).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(sweptWhileRunning).toBe(true);
    expect(await localInventory(testDb.database.db)).toEqual(providerInventory(sim));
    expect(await syncStatusCounts(testDb.database.db)).toEqual({ synced: 150 });
  });
});
