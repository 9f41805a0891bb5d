// The usage run writes a provider answer (up to 250 lines) in several short transactions when
// asked: on the embedded database every request waits for the write in progress, so the app runs
// it with EMBEDDED_SYNC_OPTIONS there. Each transaction ends with the run's checkpoint; counted
// here, with what each one wrote, and the stored usage checked against the provider's.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncJob } from '../../src/domain/terminals';
import { createAuditService } from '../../server/services/audit';
import { createTerminalSyncService, EMBEDDED_SYNC_OPTIONS, SYNC_DEFAULTS, type SyncRunTracker } from '../../server/services/terminal-sync';
import { rowsOf } from '../../server/db/repositories/results';
import type { RunningSimulator } from '../../server/simulator';
import { createTestContext, type TestContext } from './helpers';
import { SYNC_TEST_TIME, fastClient, runIdsOf, startFleet, waitForLatest, waitForRun } from './terminal-sync-fixtures';

let sim: RunningSimulator;
let ctx: TestContext;

beforeAll(async () => {
  sim = await startFleet({ seed: 'usage-transactions', terminals: 120 });
  const client = fastClient(sim);
  ctx = await createTestContext({ now: SYNC_TEST_TIME, env: { SYNC_INTERVAL: 'off' }, provider: { kind: 'simulator', client: () => client } });
  const created = await ctx.createAdmin();
  const admin = (await ctx.login('admin', created.email, created.password)).token!;
  // The inventory, and the first usage run it queues.
  const usageRuns = await runIdsOf(ctx.database.db, 'usage');
  const res = await ctx.request({ method: 'POST', url: '/api/v1/terminals/sync', token: admin });
  expect((await waitForRun(ctx, admin, (res.json().data as SyncJob).id, 60_000)).status).toBe('succeeded');
  await waitForLatest(ctx.database.db, 'usage', 60_000, usageRuns);
});
afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

async function storedCycles(): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await ctx.database.db.execute(sql`SELECT count(*)::int AS n FROM service_line_usage_cycles`));
  return row!.n;
}

describe('the usage run', () => {
  it('writes one provider answer in transactions of at most usageWriteLines lines, each checkpointed', async () => {
    const lines = sim.fleet.serviceLineNumbers().length;
    expect(lines).toBeLessThanOrEqual(SYNC_DEFAULTS.usageBatchSize);
    const cyclesBefore = await storedCycles();
    const repos = ctx.app.repos;
    const inserted = await repos.syncRuns.insertQueued({ kind: 'usage', trigger: 'manual', requestedBy: null, at: ctx.clock.now() });
    if (!inserted.ok) throw new Error('could not queue');
    const run = (await repos.syncRuns.claim(inserted.row.id, 'test-worker', ctx.clock.now()))!;
    const client = fastClient(sim);
    const engine = createTerminalSyncService({
      db: ctx.database.db,
      repos,
      audit: createAuditService({ audit: repos.audit, now: ctx.clock.now }),
      now: ctx.clock.now,
      provider: { kind: 'simulator', client: () => client },
      noProvider: 'no provider',
      options: { usageWriteLines: EMBEDDED_SYNC_OPTIONS.usageWriteLines! },
    });
    let written = 0;
    const perTransaction: number[] = [];
    const tracker: SyncRunTracker = {
      run,
      signal: new AbortController().signal,
      report(update) {
        if (update.counts) written = update.counts.updated + update.counts.added;
      },
      async checkpoint(tx) {
        perTransaction.push(written - perTransaction.reduce((sum, n) => sum + n, 0));
        await repos.syncRuns.beat(run.id, 'test-worker', ctx.clock.now(), {}, tx);
      },
    };
    const outcome = await engine.syncUsage(tracker);

    // The new client's token and one data-usage query for the whole fleet, written in
    // ceil(lines / 50) transactions.
    expect(outcome.providerCalls).toBe(2);
    expect(outcome.counts.updated).toBe(lines);
    expect(perTransaction).toHaveLength(Math.ceil(lines / EMBEDDED_SYNC_OPTIONS.usageWriteLines!));
    expect(Math.max(...perTransaction)).toBe(EMBEDDED_SYNC_OPTIONS.usageWriteLines);
    expect(perTransaction.reduce((sum, n) => sum + n, 0)).toBe(lines);
    // The same cycles as the first run stored (nothing lost between the transactions).
    expect(await storedCycles()).toBe(cyclesBefore);
  });
});
