// What an inventory run reads: products and the whole address listing once a day; in between,
// products from the stored table and only the addresses of lines that are new since the last run,
// with the inventory still equal to the provider's. The calls are counted on the wire.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncJob } from '../../src/domain/terminals';
import type { StarlinkClient } from '../../server/provider';
import type { RunningSimulator } from '../../server/simulator';
import { createTestContext, type TestContext } from './helpers';
import { SYNC_TEST_TIME, fastClient, localInventory, providerInventory, runIdsOf, startFleet, waitForLatest, waitForRun } from './terminal-sync-fixtures';

const FLEET = 120;
const DAY = 86_400_000;

let sim: RunningSimulator;
let client: StarlinkClient;
let ctx: TestContext;
let admin: string;
/** Every provider request the client sent: "GET /public/v2/…" with its query. */
const sent: string[] = [];

beforeAll(async () => {
  sim = await startFleet({ seed: 'sync-listings', terminals: FLEET });
  const recording: typeof fetch = (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    if (url.pathname.includes('/public/')) sent.push(`${init?.method ?? 'GET'} ${url.pathname.replace(/^.*\/public\//, '/public/')}${url.search}`);
    return fetch(input, init);
  };
  client = fastClient(sim, { fetch: recording });
  ctx = await createTestContext({ now: SYNC_TEST_TIME, env: { SYNC_INTERVAL: 'off', USAGE_HISTORY_CYCLES: '2' }, provider: { kind: 'simulator', client: () => client } });
  const created = await ctx.createAdmin();
  admin = (await ctx.login('admin', created.email, created.password)).token!;
});

afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

/** One inventory run (and the usage run it queues), with the requests the inventory run sent. */
async function syncOnce(): Promise<{ job: SyncJob; requests: string[] }> {
  const from = sent.length;
  const usageRuns = await runIdsOf(ctx.database.db, 'usage');
  const res = await ctx.request({ method: 'POST', url: '/api/v1/terminals/sync', token: admin });
  expect(res.statusCode).toBe(202);
  const job = await waitForRun(ctx, admin, (res.json().data as SyncJob).id);
  const requests = sent.slice(from, from + job.providerCalls);
  await waitForLatest(ctx.database.db, 'usage', undefined, usageRuns);
  return { job, requests };
}

const count = (requests: string[], path: string) => requests.filter((r) => r.startsWith(`GET /public/v2/${path}`)).length;

async function storedLocation(userTerminalId: string): Promise<{ location: string | null; latitude: number | null } | undefined> {
  const result = (await ctx.database.db.execute(sql`SELECT location, latitude FROM terminals WHERE user_terminal_id = ${userTerminalId}`)) as unknown as {
    rows: { location: string | null; latitude: number | null }[];
  };
  return result.rows[0];
}

describe('the reference listings an inventory run reads', () => {
  it('reads products and every address on the first run, then neither while nothing is new', async () => {
    const first = await syncOnce();
    expect(first.job.status).toBe('succeeded');
    expect(count(first.requests, 'products')).toBe(1);
    // 120 terminals, about as many lines, one address each: two pages.
    expect(count(first.requests, 'addresses')).toBeGreaterThanOrEqual(2);

    const second = await syncOnce();
    expect(second.job).toMatchObject({ status: 'succeeded', counts: { added: 0, updated: 0, removed: 0, failed: 0 } });
    expect(count(second.requests, 'products')).toBe(0);
    expect(count(second.requests, 'addresses')).toBe(0);
    expect(second.job.providerCalls).toBe(first.job.providerCalls - count(first.requests, 'products') - count(first.requests, 'addresses'));
    expect(await localInventory(ctx.database.db)).toEqual(providerInventory(sim));
  });

  it('reads only the address of a line that is new since the last run, and places its terminal there', async () => {
    // A kit added at the provider, outside the portal, on a new line at a new address.
    const kit = sim.fleet.stockKitSerials()[0]!;
    await client.addUserTerminal(kit);
    const userTerminalId = sim.fleet.terminal(sim.fleet.terminalIndex(kit)!).userTerminalId;
    const address = await client.createAddress({
      addressLines: ['1 Harbour Road'],
      locality: 'Ushuaia',
      administrativeArea: 'Tierra del Fuego',
      region: 'Argentina',
      postalCode: 'V9410',
      formattedAddress: '1 Harbour Road, Ushuaia, Argentina',
      latitude: -54.8,
      longitude: -68.3,
    });
    const line = await client.createServiceLine({ addressReferenceId: address.addressReferenceId, productReferenceId: sim.fleet.products()[0]!.productReferenceId });
    await client.attachTerminal(line.serviceLineNumber, userTerminalId);

    const run = await syncOnce();
    expect(run.job).toMatchObject({ status: 'succeeded', counts: { added: 1 } });
    expect(count(run.requests, 'products')).toBe(0);
    const addressReads = run.requests.filter((r) => r.startsWith('GET /public/v2/addresses'));
    expect(addressReads).toEqual([`GET /public/v2/addresses?addressIds=${address.addressReferenceId}&page=0`]);
    expect(await storedLocation(userTerminalId)).toEqual({ location: '1 Harbour Road, Ushuaia, Argentina', latitude: -54.8 });
    // The generated fleet, and the kit added from stock on its new line.
    expect(await localInventory(ctx.database.db)).toEqual(
      [...providerInventory(sim), { id: userTerminalId, kit, dish: expect.any(String), line: line.serviceLineNumber, active: true }].sort((a, b) => a.id.localeCompare(b.id)),
    );
  });

  it('reads the products again when a line is on a plan the stored ones lack', async () => {
    const plan = sim.fleet.serviceLineAt(0).productReferenceId;
    await ctx.database.db.execute(sql`UPDATE provider_products SET removed_at = now() WHERE product_reference_id = ${plan}`);
    const run = await syncOnce();
    expect(run.job.status).toBe('succeeded');
    expect(count(run.requests, 'products')).toBe(1);
    expect(count(run.requests, 'addresses')).toBe(0);
    const result = (await ctx.database.db.execute(sql`SELECT removed_at FROM provider_products WHERE product_reference_id = ${plan}`)) as unknown as {
      rows: { removed_at: unknown }[];
    };
    expect(result.rows).toEqual([{ removed_at: null }]);
  });

  it('reads both listings in full again once a day has passed since the last full reading', async () => {
    ctx.clock.advance(DAY);
    // A day on, the session has expired too.
    const again = await ctx.createAdmin();
    admin = (await ctx.login('admin', again.email, again.password)).token!;
    const run = await syncOnce();
    expect(run.job.status).toBe('succeeded');
    expect(count(run.requests, 'products')).toBe(1);
    expect(run.requests.filter((r) => r.startsWith('GET /public/v2/addresses?page=')).length).toBeGreaterThanOrEqual(2);
    // (Terminals whose telemetry is now a day old read as offline: updated, not added or removed.)
    expect(run.job.counts).toMatchObject({ added: 0, removed: 0, failed: 0 });
    expect(await localInventory(ctx.database.db)).toHaveLength(FLEET + 1);
  });
});
