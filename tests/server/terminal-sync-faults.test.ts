// The sync against a misbehaving provider: 429 bursts, 5xx answers, dropped connections and
// shuffled pages are retried through, and the inventory still equals the provider's exactly; a
// provider that stays down or too slow fails the run with the reason and leaves the inventory as
// it was.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncJob } from '../../src/domain/terminals';
import type { StarlinkClient } from '../../server/provider';
import type { RunningSimulator } from '../../server/simulator';
import { createTestContext, type TestContext } from './helpers';
import { SYNC_TEST_TIME, fastClient, localInventory, providerInventory, runIdsOf, startFleet, syncStatusCounts, waitForLatest, waitForRun } from './terminal-sync-fixtures';

// Two pages of each listing: shuffled pages and every kind of fault need more than one.
const FLEET = 150;

let sim: RunningSimulator;
let client: StarlinkClient;
let ctx: TestContext;
let admin: string;

beforeAll(async () => {
  sim = await startFleet({ seed: 'sync-faults', terminals: FLEET });
  client = fastClient(sim, { maxRetries: 12 });
  ctx = await createTestContext({ now: SYNC_TEST_TIME, env: { SYNC_INTERVAL: 'off', USAGE_HISTORY_CYCLES: '2' }, provider: { kind: 'simulator', client: () => client } });
  await ctx.createAdmin({ email: 'faults.admin@example.com', password: 'Faults-Passw0rd' });
  admin = (await ctx.login('admin', 'faults.admin@example.com', 'Faults-Passw0rd')).token!;
});

afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

async function sync(): Promise<SyncJob> {
  const usageRuns = await runIdsOf(ctx.database.db, 'usage');
  const res = await ctx.request({ method: 'POST', url: '/api/v1/terminals/sync', token: admin });
  expect(res.statusCode).toBe(202);
  const job = await waitForRun(ctx, admin, (res.json().data as SyncJob).id, 60_000);
  if (job.status === 'succeeded') await waitForLatest(ctx.database.db, 'usage', 60_000, usageRuns);
  return job;
}

async function snapshot() {
  const result = (await ctx.database.db.execute(
    sql`SELECT user_terminal_id, service_line_number, active, sync_status, content_hash, last_sync_run_id FROM terminals ORDER BY user_terminal_id`,
  )) as unknown as { rows: unknown[] };
  return result.rows;
}

describe('a flaky provider', () => {
  it('is retried through: 429 bursts, 5xx, dropped connections and shuffled pages end in the exact inventory', async () => {
    sim.setFaults({ rate429: 0.15, rate5xx: 0.15, dropRate: 0.05, shufflePages: true });
    const before = client.usage();
    try {
      const job = await sync();
      expect(job).toMatchObject({ status: 'succeeded', message: null, counts: { added: FLEET, failed: 0, removed: 0 } });
      const used = client.usage();
      // Retries are provider calls too, and the run counts them.
      expect(used.retries - before.retries).toBeGreaterThan(0);
      expect(job.providerCalls).toBeGreaterThan(8);
    } finally {
      sim.setFaults({ rate429: 0, rate5xx: 0, dropRate: 0, shufflePages: false });
    }
    expect(await localInventory(ctx.database.db)).toEqual(providerInventory(sim));
    expect(await syncStatusCounts(ctx.database.db)).toEqual({ synced: FLEET });
  });

  it('with shuffled pages still counts an identical second run as all unchanged', async () => {
    sim.setFaults({ shufflePages: true });
    try {
      const job = await sync();
      expect(job.counts).toEqual({ added: 0, updated: 0, unchanged: FLEET, removed: 0, failed: 0 });
    } finally {
      sim.setFaults({ shufflePages: false });
    }
  });
});

describe('a provider that is down', () => {
  it('fails the run with the reason and leaves the inventory untouched, even where the provider changed', async () => {
    const before = await snapshot();
    const line = sim.fleet.knownServiceLineNumber;
    expect(sim.fleet.detach(line, sim.fleet.knownUserTerminalId).ok).toBe(true);
    sim.setFaults({ rate5xx: 1 });
    try {
      const job = await sync();
      expect(job).toMatchObject({ status: 'failed', message: 'Terminal sync failed: the provider is unavailable right now' });
      expect(job.finishedAt).not.toBeNull();
    } finally {
      sim.setFaults({ rate5xx: 0 });
      sim.fleet.attach(line, sim.fleet.knownUserTerminalId);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('that drops every connection fails the same way', async () => {
    const before = await snapshot();
    sim.setFaults({ dropRate: 1 });
    try {
      const job = await sync();
      expect(job).toMatchObject({ status: 'failed', message: 'Terminal sync failed: the provider is unavailable right now' });
    } finally {
      sim.setFaults({ dropRate: 0 });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('that answers too slowly fails with "did not answer in time"', async () => {
    const before = await snapshot();
    const real = client;
    client = fastClient(sim, { timeoutMs: 200 });
    sim.setFaults({ latencyMs: 400 });
    try {
      const job = await sync();
      expect(job).toMatchObject({ status: 'failed', message: 'Terminal sync failed: the provider did not answer in time' });
    } finally {
      sim.setFaults({ latencyMs: 0 });
      client = real;
    }
    expect(await snapshot()).toEqual(before);
    // And the next run, with the provider back, succeeds.
    expect((await sync()).status).toBe('succeeded');
  });
});

describe('a database that ends a batch with a deadlock', () => {
  /** Does the write, then fails as PostgreSQL does when it picks this transaction as a deadlock's victim (once). */
  function deadlockOnce<T extends object, K extends keyof T>(target: T, method: K): { restore: () => void; thrown: () => number } {
    const real = target[method] as (...args: unknown[]) => Promise<unknown>;
    let thrown = 0;
    target[method] = (async (...args: unknown[]) => {
      const result = await real.apply(target, args);
      if (thrown === 0) {
        thrown += 1;
        throw new Error('Failed query', { cause: Object.assign(new Error('deadlock detected'), { code: '40P01' }) });
      }
      return result;
    }) as T[K];
    return { restore: () => (target[method] = real as T[K]), thrown: () => thrown };
  }

  it('runs the batch again, and the run counts each terminal and line once', async () => {
    // Every terminal looks changed, so the run rewrites each of them.
    await ctx.database.db.execute(sql`UPDATE terminals SET content_hash = 'before'`);
    const inventory = ctx.app.repos.terminalInventory;
    const terminalsBatch = deadlockOnce(inventory, 'upsertTerminals');
    const usageBatch = deadlockOnce(inventory, 'upsertUsageCycles');
    const usageRuns = await runIdsOf(ctx.database.db, 'usage');
    try {
      const res = await ctx.request({ method: 'POST', url: '/api/v1/terminals/sync', token: admin });
      const job = await waitForRun(ctx, admin, (res.json().data as SyncJob).id, 60_000);
      expect(job).toMatchObject({ status: 'succeeded', counts: { unchanged: 0, removed: 0, failed: 0 } });
      expect(job.counts.added + job.counts.updated).toBe(FLEET);
      const usage = await waitForLatest(ctx.database.db, 'usage', 60_000, usageRuns);
      expect(usage.status).toBe('succeeded');
      const [lines] = (
        (await ctx.database.db.execute(sql`
          SELECT (SELECT count(*)::int FROM service_lines WHERE removed_at IS NULL) AS live, added + updated AS updated
          FROM sync_runs WHERE id = ${usage.id}`)) as unknown as { rows: { live: number; updated: number }[] }
      ).rows;
      expect(lines!.updated).toBe(lines!.live);
    } finally {
      terminalsBatch.restore();
      usageBatch.restore();
    }
    expect([terminalsBatch.thrown(), usageBatch.thrown()]).toEqual([1, 1]);
    expect(await localInventory(ctx.database.db)).toEqual(providerInventory(sim));
    expect(await syncStatusCounts(ctx.database.db)).toEqual({ synced: FLEET });
  });
});
