// One sync under sustained provider trouble — 30 % 5xx, 429 bursts, real 2 s latency spikes,
// dropped connections and the access token expired part-way — ends with the inventory equal to
// the provider's, through token renewal and retries (counted on both sides of the wire). Then the
// same trouble turning into a provider that stays down, part-way through the next run, fails that
// run with its reason and leaves every inventory table row for row as it was.
// (A provider down from the first request, dropping every connection or too slow is in
// terminal-sync-faults.test.ts.)
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncJob } from '../../src/domain/terminals';
import { PROVIDER_DEFAULTS, type StarlinkClient } from '../../server/provider';
import type { Faults, RunningSimulator } from '../../server/simulator';
import { createTestContext, type TestContext } from './helpers';
import { SYNC_TEST_TIME, fastClient, localInventory, providerInventory, runIdsOf, startFleet, syncStatusCounts, waitForLatest, waitForRun } from './terminal-sync-fixtures';

// Three pages of each listing: enough requests for every fault to land, few enough spikes for CI.
const FLEET = 300;
const SPIKE_MS = 2_000;
/** More retries per call than the run meets failures of either kind (see beforeAll). */
const RETRIES = 15;

const TROUBLE: Partial<Faults> = {
  rate5xx: 0.3,
  burst429Rate: 0.06,
  burst429Length: 5,
  spikeRate: 0.08,
  spikeMs: SPIKE_MS,
  dropRate: 0.05,
};
const CALM: Partial<Faults> = { rate5xx: 0, burst429Rate: 0, spikeRate: 0, dropRate: 0 };
/** Down for good: every request 5xx or dropped, none slow enough to stretch the test. */
const DOWN: Partial<Faults> = { rate5xx: 1, dropRate: 0.3, burst429Rate: 0, spikeRate: 0 };

let sim: RunningSimulator;
let client: StarlinkClient;
let ctx: TestContext;
let admin: string;

/** Told about every /public/v2 request the client sends, before it goes, and of the answer's status. */
let beforeApiRequest: (() => void) | null = null;
let afterApiAnswer: ((status: number) => void) | null = null;
/** How long each /public/v2 exchange took as the client saw it (dropped ones included). */
const exchangeMs: number[] = [];

const watchedFetch: typeof fetch = async (input, init) => {
  const api = String(input instanceof Request ? input.url : input).includes('/public/v2/');
  if (!api) return fetch(input, init);
  beforeApiRequest?.();
  const started = performance.now();
  try {
    const response = await fetch(input, init);
    afterApiAnswer?.(response.status);
    return response;
  } finally {
    exchangeMs.push(performance.now() - started);
  }
};

beforeAll(async () => {
  // The dice follow arrival order only, so with this seed every kind of fault lands within the
  // run's first 24 requests whatever the interleaving (2 spikes, 1 drop, 2 bursts, 5xx for 4 of
  // the 13 others), and no third spike comes up to request 45: never fault-free, never long.
  sim = await startFleet({ seed: 'provider-trouble-57', terminals: FLEET });
  // The production request timeout, to show it outlasts a 2 s spike. The retry budget is not the
  // production one: which call a failure lands on depends on how the run's four lanes interleave,
  // and with 5 retries a lane left alone through the first burst and into the second fails the run
  // (seen once in CI under load). Above the run's whole trouble (the seed's first 58 arrivals hold
  // 10 burst 429s and 14 failures), no interleaving can exhaust it; what a spent budget does is
  // terminal-sync-faults' subject. The back-off is test-short: it changes when a retry goes only.
  client = fastClient(sim, { maxRetries: RETRIES, timeoutMs: PROVIDER_DEFAULTS.timeoutMs, fetch: watchedFetch });
  ctx = await createTestContext({ now: SYNC_TEST_TIME, env: { SYNC_INTERVAL: 'off', USAGE_HISTORY_CYCLES: '2' }, provider: { kind: 'simulator', client: () => client } });
  await ctx.createAdmin({ email: 'trouble.admin@example.com', password: 'Trouble-Passw0rd' });
  admin = (await ctx.login('admin', 'trouble.admin@example.com', 'Trouble-Passw0rd')).token!;
});

afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

async function startSync(): Promise<SyncJob> {
  const res = await ctx.request({ method: 'POST', url: '/api/v1/terminals/sync', token: admin });
  expect(res.statusCode).toBe(202);
  return waitForRun(ctx, admin, (res.json().data as SyncJob).id, 60_000);
}

const INVENTORY_TABLES = ['terminals', 'service_lines', 'provider_addresses', 'provider_products', 'terminal_telemetry'] as const;

/** Every inventory table, every column, row by row. */
async function inventorySnapshot(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of INVENTORY_TABLES) {
    const result = (await ctx.database.db.execute(sql`SELECT t::text AS row FROM ${sql.identifier(table)} t ORDER BY 1`)) as unknown as {
      rows: { row: string }[];
    };
    out[table] = result.rows.map((r) => r.row);
  }
  return out;
}

describe('a provider in sustained trouble', () => {
  it('is synced through 30 % 5xx, 429 bursts, 2 s spikes, drops and an expired token to the exact inventory', async () => {
    const simBefore = sim.simulator.stats();
    exchangeMs.length = 0;
    const clientBefore = client.usage();
    let sent = 0;
    let expired = 0;
    // Part-way, once the run holds a token and has read something: the provider's own expiry.
    beforeApiRequest = () => {
      if (++sent === 6) expired = sim.expireTokens();
    };
    sim.setFaults(TROUBLE);
    const started = performance.now();
    let job: SyncJob;
    let usage: SyncJob | null = null;
    try {
      const usageRuns = await runIdsOf(ctx.database.db, 'usage');
      job = await startSync();
      if (job.status === 'succeeded') usage = await waitForRun(ctx, admin, (await waitForLatest(ctx.database.db, 'usage', 60_000, usageRuns)).id);
    } finally {
      sim.setFaults(CALM);
      beforeApiRequest = null;
    }
    const durationMs = performance.now() - started;

    expect(job).toMatchObject({ status: 'succeeded', message: null, counts: { added: FLEET, updated: 0, removed: 0, failed: 0 } });
    // The usage run that follows went through the same trouble.
    expect(usage).toMatchObject({ status: 'succeeded', message: null });
    expect(await localInventory(ctx.database.db)).toEqual(providerInventory(sim));
    expect(await syncStatusCounts(ctx.database.db)).toEqual({ synced: FLEET });

    const seen = sim.simulator.stats();
    const faults = {
      requests: seen.apiRequests - simBefore.apiRequests,
      serverErrors: seen.serverErrors - simBefore.serverErrors,
      bursts: seen.bursts - simBefore.bursts,
      burst429s: seen.burst429s - simBefore.burst429s,
      drops: seen.drops - simBefore.drops,
      spikes: seen.spikes - simBefore.spikes,
      expiredTokenRefusals: seen.expiredTokenRefusals - simBefore.expiredTokenRefusals,
      tokensIssued: seen.tokensIssued - simBefore.tokensIssued,
    };
    const used = client.usage();
    const figures = {
      ...faults,
      retries: used.retries - clientBefore.retries,
      tokenRequests: used.tokenRequests - clientBefore.tokenRequests,
      inventoryRunCalls: job.providerCalls,
      usageRunCalls: usage!.providerCalls,
      slowestExchangeMs: Math.round(Math.max(...exchangeMs)),
      durationMs: Math.round(durationMs),
    };
    console.info('provider trouble figures', JSON.stringify(figures));

    // Every kind of trouble really happened during the run, not only in the configuration.
    expect(faults.serverErrors).toBeGreaterThan(0);
    expect(faults.bursts).toBeGreaterThan(0);
    expect(faults.drops).toBeGreaterThan(0);
    expect(faults.spikes).toBeGreaterThan(0);
    // The spikes were real waits on the wire, which the production timeout sat out.
    expect(exchangeMs.filter((ms) => ms >= SPIKE_MS - 50).length).toBeGreaterThanOrEqual(faults.spikes);
    expect(expired).toBe(1);
    // The old token was refused as expired; the client renewed it exactly once (no storm of
    // renewals from the calls in flight) and the provider saw that one renewal.
    expect(faults.expiredTokenRefusals).toBeGreaterThanOrEqual(1);
    expect(figures.tokenRequests).toBe(2);
    expect(faults.tokensIssued).toBe(2);
    // The trouble stayed within what the budget covers whatever the interleaving.
    expect(faults.burst429s).toBeLessThanOrEqual(RETRIES);
    expect(faults.serverErrors + faults.drops).toBeLessThanOrEqual(RETRIES);
    // Every refused attempt was sent again, and only those: no call gave up, none resent twice.
    expect(figures.retries).toBe(faults.serverErrors + faults.burst429s + faults.drops + faults.expiredTokenRefusals);
    // The client, the provider and the two runs' records agree on the calls, retries included.
    expect(used.requests - clientBefore.requests).toBe(faults.requests);
    expect(job.providerCalls + usage!.providerCalls).toBe(faults.requests);
  });

  it('that stays down part-way through the next run fails it with the reason and leaves the inventory as it was', async () => {
    const before = await inventorySnapshot();
    expect(before.terminals).toHaveLength(FLEET);
    // A provider-side change the failed run must not half-apply.
    const line = sim.fleet.knownServiceLineNumber;
    expect(sim.fleet.detach(line, sim.fleet.knownUserTerminalId).ok).toBe(true);

    const statuses: number[] = [];
    // After a few good answers (the run has read some pages), the trouble turns into an outage.
    afterApiAnswer = (status) => {
      statuses.push(status);
      if (status === 200 && statuses.filter((s) => s === 200).length === 3) sim.setFaults(DOWN);
    };
    sim.setFaults(TROUBLE);
    let job: SyncJob;
    try {
      job = await startSync();
    } finally {
      afterApiAnswer = null;
      sim.setFaults(CALM);
    }

    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
    expect(job).toMatchObject({ status: 'failed', message: 'Terminal sync failed: the provider is unavailable right now' });
    expect(job.finishedAt).not.toBeNull();
    expect(await inventorySnapshot()).toEqual(before);

    // With the provider back, the next run takes the change in.
    const usageRuns = await runIdsOf(ctx.database.db, 'usage');
    const recovered = await startSync();
    expect(recovered).toMatchObject({ status: 'succeeded', counts: { updated: 1, failed: 0 } });
    await waitForLatest(ctx.database.db, 'usage', 60_000, usageRuns);
    expect(await localInventory(ctx.database.db)).toEqual(providerInventory(sim));
  });
});
