// The terminal inventory sync end to end: the routes queue a pg-boss job, the worker reads the
// simulator over real HTTP through the real client, and the local inventory ends up equal to the
// provider's; counts, usage, removals, assignments, the one-at-a-time rule and the refresh of one
// terminal.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { SyncJob, SyncQueue } from '../../src/domain/terminals';
import type { StarlinkClient } from '../../server/provider';
import type { RunningSimulator } from '../../server/simulator';
import { DEFAULT_USAGE_HISTORY_CYCLES } from '../../server/config';
import { createTestContext, type TestContext } from './helpers';
import { SYNC_TEST_TIME, fastClient, localInventory, providerInventory, runIdsOf, startFleet, syncStatusCounts, waitForLatest, waitForRun } from './terminal-sync-fixtures';

const SEED = 'sync-suite';
// Two pages of the provider's terminal listing (100 a page), and every kind of line the checks name.
const FLEET = 120;

let sim: RunningSimulator;
let client: StarlinkClient;
let ctx: TestContext;
let admin: string;
let adminId: string;
const extraSims: RunningSimulator[] = [];

beforeAll(async () => {
  sim = await startFleet({ seed: SEED, terminals: FLEET });
  client = fastClient(sim);
  // The provider can change under the app: tests point `client` at another fleet.
  // The first usage run reads the default year of history here (the test helpers read two cycles).
  ctx = await createTestContext({
    now: SYNC_TEST_TIME,
    env: { SYNC_INTERVAL: 'off', USAGE_HISTORY_CYCLES: String(DEFAULT_USAGE_HISTORY_CYCLES) },
    provider: { kind: 'simulator', client: () => client },
  });
  const created = await ctx.createAdmin({ email: 'sync.admin@example.com', password: 'Sync-Passw0rd' });
  adminId = created.id;
  admin = (await ctx.login('admin', 'sync.admin@example.com', 'Sync-Passw0rd')).token!;
});

afterAll(async () => {
  await ctx?.close();
  await sim?.close();
  for (const other of extraSims) await other.close();
});

const db = () => ctx.database.db;
const startSync = (token: string | null = admin) => ctx.request({ method: 'POST', url: '/api/v1/terminals/sync', token });

async function syncToEnd(): Promise<SyncJob> {
  const usageRuns = await runIdsOf(db(), 'usage');
  const res = await startSync();
  expect(res.statusCode).toBe(202);
  const job = await waitForRun(ctx, admin, (res.json().data as SyncJob).id);
  // The usage run it queues must end too, before the next test moves the provider.
  await waitForLatest(db(), 'usage', undefined, usageRuns);
  return job;
}

async function query<T>(statement: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db().execute(statement)) as unknown as { rows: T[] }).rows;
}

/** Points the app at another fleet (same seed: the first terminals are the same ones). */
async function switchFleet(size: number): Promise<RunningSimulator> {
  const next = await startFleet({ seed: SEED, terminals: size });
  extraSims.push(next);
  client = fastClient(next);
  return next;
}

describe('starting a sync', () => {
  it('answers 202 with the queued run and the spec message, then the run mirrors the provider exactly', async () => {
    const res = await startSync();
    expect(res.statusCode).toBe(202);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      message: 'Terminal sync has been started in the background. Data will be updated automatically when complete.',
      data: { kind: 'inventory', trigger: 'manual', status: 'queued', requestedBy: adminId, counts: { added: 0, updated: 0, unchanged: 0, removed: 0, failed: 0 } },
    });
    const done = await waitForRun(ctx, admin, body.data.id);
    expect(done).toMatchObject({ status: 'succeeded', phase: 'Finished', progress: 100, message: null, counts: { added: FLEET, updated: 0, unchanged: 0, removed: 0, failed: 0 } });
    // account, 1 page each of products, lines, addresses and terminals (2 for 120), 1 telemetry batch.
    expect(done.providerCalls).toBeGreaterThanOrEqual(7);
    expect(done.startedAt).not.toBeNull();
    expect(done.finishedAt).not.toBeNull();
    expect(await localInventory(db())).toEqual(providerInventory(sim));
    expect(await syncStatusCounts(db())).toEqual({ synced: FLEET });
    await waitForLatest(db(), 'usage');
  });

  it('denormalises plan, priority, cap, type and place onto each terminal', async () => {
    const priorityLine = sim.fleet.examples().priorityServiceLineNumber!;
    const [row] = await query<Record<string, unknown>>(sql`SELECT * FROM terminals WHERE service_line_number = ${priorityLine} LIMIT 1`);
    const line = sim.fleet.serviceLine(priorityLine)!;
    const blocks = line.dataBlocks.recurringBlocksCurrentBillingCycle![0]!;
    expect(row).toMatchObject({ plan: 'Priority (recurring data blocks)', is_priority: true, active: true, data_cap_unit: blocks.dataUnitType });
    expect(Number(row!.data_cap_amount)).toBe(blocks.count * blocks.dataAmount);
    const address = sim.fleet.address(line.addressReferenceId)!;
    expect(row).toMatchObject({ location: address.formattedAddress, region: address.region, latitude: address.latitude });
    const terminalIndex = sim.fleet.terminalIndex(row!.user_terminal_id as string)!;
    expect(row!.terminal_type).toBe(sim.fleet.terminalModel(terminalIndex).name);
    expect(row!.model).toBe(sim.fleet.terminalModel(terminalIndex).hardwareVersion);
    const unattached = sim.fleet.examples().unattachedUserTerminalId!;
    const [spare] = await query<Record<string, unknown>>(sql`SELECT * FROM terminals WHERE user_terminal_id = ${unattached}`);
    expect(spare).toMatchObject({ active: false, condition: 'inactive', plan: null, service_line_number: null, sync_status: 'synced' });
  });

  it('stores the reference data and the latest telemetry of every terminal', async () => {
    const [counts] = await query<{ products: number; lines: number; addresses: number; telemetry: number }>(sql`
      SELECT (SELECT count(*)::int FROM provider_products) AS products, (SELECT count(*)::int FROM service_lines) AS lines,
             (SELECT count(*)::int FROM provider_addresses) AS addresses, (SELECT count(*)::int FROM terminal_telemetry) AS telemetry`);
    const lines = sim.fleet.serviceLineNumbers().length;
    expect(counts).toEqual({ products: 3, lines, addresses: lines, telemetry: FLEET });
    const known = sim.fleet.knownUserTerminalId;
    const [reading] = await query<{ signal_quality: number; hardware_version: string; alerts: string[] }>(
      sql`SELECT signal_quality, hardware_version, alerts FROM terminal_telemetry WHERE user_terminal_id = ${known}`,
    );
    const sent = sim.fleet.telemetryAt(0);
    expect(reading).toMatchObject({ signal_quality: sent.signalQuality, hardware_version: sent.hardwareVersion });
  });

  it('follows with a usage run: a year of cycles and days per line, and caps in GB from the plan allowance', async () => {
    const usage = await waitForLatest(db(), 'usage');
    expect(usage.status).toBe('succeeded');
    const knownLine = sim.fleet.knownServiceLineNumber;
    const cycles = await query<{ cycle_start: string; usage_limit_gb: string | number }>(
      sql`SELECT cycle_start::text, usage_limit_gb FROM service_line_usage_cycles WHERE service_line_number = ${knownLine} ORDER BY cycle_start`,
    );
    expect(cycles).toHaveLength(12);
    expect(cycles[11]!.cycle_start).toBe('2026-03-01');
    const [days] = await query<{ n: number }>(sql`SELECT count(*)::int AS n FROM service_line_usage_daily WHERE service_line_number = ${knownLine}`);
    expect(days!.n).toBeGreaterThan(200);
    const [terminal] = await query<{ data_cap_amount: string | number; data_cap_unit: string; data_cap_updated_at: Date | null }>(
      sql`SELECT data_cap_amount, data_cap_unit, data_cap_updated_at FROM terminals WHERE service_line_number = ${knownLine}`,
    );
    expect(terminal).toMatchObject({ data_cap_unit: 'GB' });
    expect(Number(terminal!.data_cap_amount)).toBe(Number(cycles[11]!.usage_limit_gb));
    expect(terminal!.data_cap_updated_at).not.toBeNull();
  });

  it('ends each run with the pages’ stored rows computed for every line it wrote, none left to a reader', async () => {
    const usage = await waitForLatest(db(), 'usage');
    expect(usage.status).toBe('succeeded');
    expect(await ctx.app.repos.subscriptions.rowsState()).toEqual({ day: SYNC_TEST_TIME.slice(0, 10), dirty: false, marked: 0 });
    const [rows] = await query<{ subscriptions: number; lines: number }>(
      sql`SELECT (SELECT count(*)::int FROM subscription_rows) AS subscriptions,
        (SELECT count(*)::int FROM terminals WHERE removed_at IS NULL AND service_line_number IS NOT NULL) AS lines`,
    );
    expect(rows!.subscriptions).toBe(rows!.lines);
    expect(rows!.lines).toBeGreaterThan(0);
  });
});

describe('running it again', () => {
  it('counts every terminal unchanged when nothing changed at the provider, and reads usage idempotently', async () => {
    const [before] = await query<{ cycles: number; days: number }>(
      sql`SELECT (SELECT count(*)::int FROM service_line_usage_cycles) AS cycles, (SELECT count(*)::int FROM service_line_usage_daily) AS days`,
    );
    const done = await syncToEnd();
    expect(done.counts).toEqual({ added: 0, updated: 0, unchanged: FLEET, removed: 0, failed: 0 });
    expect(await syncStatusCounts(db())).toEqual({ synced: FLEET });
    const [after] = await query<{ cycles: number; days: number }>(
      sql`SELECT (SELECT count(*)::int FROM service_line_usage_cycles) AS cycles, (SELECT count(*)::int FROM service_line_usage_daily) AS days`,
    );
    expect(after).toEqual(before);
  });

  it('counts a terminal moved off its line as updated, and never touches its assignment', async () => {
    const customer = await ctx.createCustomer();
    const line = sim.fleet.knownServiceLineNumber;
    const terminalId = sim.fleet.knownUserTerminalId;
    await db().execute(sql`UPDATE terminals SET assigned_customer_id = ${customer.id}, assigned_at = now() WHERE user_terminal_id = ${terminalId}`);
    expect(sim.fleet.detach(line, terminalId).ok).toBe(true);
    const done = await syncToEnd();
    expect(done.counts).toMatchObject({ added: 0, updated: 1, unchanged: FLEET - 1, removed: 0, failed: 0 });
    const [row] = await query<Record<string, unknown>>(sql`SELECT * FROM terminals WHERE user_terminal_id = ${terminalId}`);
    expect(row).toMatchObject({ service_line_number: null, active: false, assigned_customer_id: customer.id, sync_status: 'synced' });
    expect(await localInventory(db())).toEqual(providerInventory(sim));
    expect(sim.fleet.attach(line, terminalId).ok).toBe(true);
  });

  it('adds new terminals, marks the ones the provider dropped removed (kept, not deleted), and brings back returning ones', async () => {
    onTestFinished(() => {
      client = fastClient(sim);
    });
    const bigger = await switchFleet(FLEET + 20);
    const grown = await syncToEnd();
    expect(grown.counts).toMatchObject({ added: 20, removed: 0, failed: 0 });
    expect(await localInventory(db())).toEqual(providerInventory(bigger));

    const smaller = await switchFleet(FLEET - 30);
    const shrunk = await syncToEnd();
    expect(shrunk.counts).toMatchObject({ added: 0, removed: 50, failed: 0, unchanged: FLEET - 30 });
    expect(await localInventory(db())).toEqual(providerInventory(smaller));
    const [kept] = await query<{ n: number }>(sql`SELECT count(*)::int AS n FROM terminals WHERE removed_at IS NOT NULL`);
    expect(kept!.n).toBe(50);

    const back = await switchFleet(FLEET);
    const returned = await syncToEnd();
    // The twenty beyond FLEET were already removed with the other thirty.
    expect(returned.counts).toMatchObject({ added: 30, removed: 0, failed: 0, unchanged: FLEET - 30 });
    expect(await localInventory(db())).toEqual(providerInventory(back));
    expect(await syncStatusCounts(db())).toEqual({ synced: FLEET });
  });

  it("marks a terminal whose service line the listing lacks 'error' with the reason, and counts it failed", async () => {
    const missingLine = sim.fleet.knownServiceLineNumber;
    const real = client;
    client = {
      ...real,
      async listServiceLines(options) {
        const listing = await real.listServiceLines(options);
        return { ...listing, items: listing.items.filter((l) => l.serviceLineNumber !== missingLine) };
      },
    };
    try {
      const done = await syncToEnd();
      expect(done.counts).toMatchObject({ failed: 1, removed: 0 });
      const [row] = await query<Record<string, unknown>>(sql`SELECT * FROM terminals WHERE user_terminal_id = ${sim.fleet.knownUserTerminalId}`);
      expect(row).toMatchObject({ sync_status: 'error', sync_error: `Service line ${missingLine} is not in the provider's service line listing`, removed_at: null });
    } finally {
      client = real;
    }
    const healed = await syncToEnd();
    expect(healed.counts).toMatchObject({ failed: 0, updated: 1 });
    expect(await syncStatusCounts(db())).toEqual({ synced: FLEET });
  });

  it('removes nothing and says why when a listing comes back incomplete', async () => {
    const real = client;
    client = {
      ...real,
      async listUserTerminals(filters, options) {
        const listing = await real.listUserTerminals(filters, options);
        return { ...listing, items: listing.items.slice(10), complete: false };
      },
    };
    try {
      const done = await syncToEnd();
      expect(done.status).toBe('succeeded');
      expect(done.counts).toMatchObject({ removed: 0, unchanged: FLEET - 10 });
      expect(done.message).toBe(`Nothing was marked removed: the user terminal listing came back incomplete (${FLEET - 10} of ${FLEET}).`);
      // The ten it did not see stay live; not confirmed by this run, so not 'synced'.
      expect(await syncStatusCounts(db())).toEqual({ synced: FLEET - 10, pending: 10 });
    } finally {
      client = real;
    }
    await syncToEnd();
    expect(await syncStatusCounts(db())).toEqual({ synced: FLEET });
  });
});

describe('one sync at a time', () => {
  it('answers one of two simultaneous starts with 202 and the other with 409 "already running"', async () => {
    const [a, b] = await Promise.all([startSync(), startSync()]);
    const codes = [a.statusCode, b.statusCode].sort();
    expect(codes).toEqual([202, 409]);
    const refused = a.statusCode === 409 ? a : b;
    expect(refused.json()).toMatchObject({ success: false, message: 'A terminal sync is already running' });
    expect(refused.json().message).toContain('already running');
    const started = (a.statusCode === 202 ? a : b).json().data as SyncJob;

    const queue = (await ctx.request({ method: 'GET', url: '/api/v1/terminals/sync/queue', token: admin })).json().data as SyncQueue;
    expect(queue.active?.id).toBe(started.id);
    await waitForRun(ctx, admin, started.id);
    await waitForLatest(db(), 'usage');
  });

  it('lists the recent runs, newest first, and nothing active once they ended', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/v1/terminals/sync/queue', token: admin });
    expect(res.statusCode).toBe(200);
    const queue = res.json().data as SyncQueue;
    expect(queue.active).toBeNull();
    expect(queue.recent.length).toBe(20);
    const times = queue.recent.map((r) => r.queuedAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(new Set(queue.recent.map((r) => r.kind))).toEqual(new Set(['inventory', 'usage']));
  });
});

describe('the sync routes refuse', () => {
  it('anyone without a token (401) and customers (403)', async () => {
    expect((await startSync(null)).statusCode).toBe(401);
    expect((await ctx.request({ method: 'GET', url: '/api/v1/terminals/sync/queue' })).statusCode).toBe(401);
    const customer = await ctx.createCustomer({ password: 'Customer-Passw0rd' });
    const token = (await ctx.login('customer', customer.email, 'Customer-Passw0rd')).token!;
    expect((await startSync(token)).statusCode).toBe(403);
    expect((await ctx.request({ method: 'GET', url: '/api/v1/terminals/sync/queue', token })).statusCode).toBe(403);
    expect((await ctx.request({ method: 'POST', url: `/api/v1/terminals/${sim.fleet.knownUserTerminalId}/refresh`, token })).statusCode).toBe(403);
  });

  it('a job id that is not a UUID (400) and one nobody knows (404)', async () => {
    const bad = await ctx.request({ method: 'GET', url: '/api/v1/terminals/sync/job/not-a-uuid', token: admin });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('Job id must be a UUID');
    const unknown = await ctx.request({ method: 'GET', url: '/api/v1/terminals/sync/job/3f0c2a9e-1111-4222-8333-944455556666', token: admin });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ success: false, message: 'Sync job not found' });
  });
});

describe('refreshing one terminal', () => {
  const refresh = (id: string, token: string | null = admin) => ctx.request({ method: 'POST', url: `/api/v1/terminals/${id}/refresh`, token });

  it('re-reads it from the provider, updates its row and records who did it', async () => {
    const line = sim.fleet.knownServiceLineNumber;
    const id = sim.fleet.knownUserTerminalId;
    expect(sim.fleet.detach(line, id).ok).toBe(true);
    try {
      const res = await refresh(id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, data: { userTerminalId: id, syncStatus: 'synced', lastSyncedAt: SYNC_TEST_TIME } });
      const [row] = await query<Record<string, unknown>>(sql`SELECT * FROM terminals WHERE user_terminal_id = ${id}`);
      expect(row).toMatchObject({ service_line_number: null, active: false, condition: 'inactive' });
      const [entry] = await query<Record<string, unknown>>(sql`SELECT * FROM audit_log WHERE action = 'terminal.refreshed' AND target_id = ${id}`);
      expect(entry).toMatchObject({ actor_type: 'user', actor_id: adminId, target_type: 'terminal' });
    } finally {
      sim.fleet.attach(line, id);
    }
    const back = await refresh(id);
    expect(back.statusCode).toBe(200);
    const [row] = await query<Record<string, unknown>>(sql`SELECT service_line_number, active FROM terminals WHERE user_terminal_id = ${id}`);
    expect(row).toMatchObject({ service_line_number: line, active: true });
  });

  it('marks a stored terminal the provider no longer knows removed', async () => {
    const ids = providerInventory(sim).map((t) => t.id);
    const gone = ids[ids.length - 1]!;
    const smaller = await switchFleet(FLEET - 1);
    try {
      // Index order differs from id order: pick the terminal the smaller fleet lacks.
      const lacking = ids.find((id) => smaller.fleet.terminalIndex(id) === undefined) ?? gone;
      const res = await refresh(lacking);
      expect(res.statusCode).toBe(200);
      const [row] = await query<{ removed_at: Date | null }>(sql`SELECT removed_at FROM terminals WHERE user_terminal_id = ${lacking}`);
      expect(row!.removed_at).not.toBeNull();
    } finally {
      client = fastClient(sim);
    }
    // No sync to bring it back: the tests after this one refresh the known terminal or ids
    // nobody knows, and none reads the inventory as a whole.
  });

  it('answers 404 for a terminal neither we nor the provider know, and 400 for a malformed id', async () => {
    const unknown = await refresh('0002ffff-00ffffff-ffffffff');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Terminal not found');
    expect((await refresh('-bad-id')).statusCode).toBe(400);
    expect((await refresh('a%20b')).statusCode).toBe(400);
  });

  it('answers 504 when the provider does not answer in time', async () => {
    const real = client;
    client = fastClient(sim, { timeoutMs: 150 });
    sim.setFaults({ latencyMs: 300 });
    try {
      const res = await refresh(sim.fleet.knownUserTerminalId);
      expect(res.statusCode).toBe(504);
      expect(res.json().message).toBe('Failed to refresh the terminal: the provider did not answer in time');
    } finally {
      sim.setFaults({ latencyMs: 0 });
      client = real;
    }
  });

  it('answers 502 with the reason when the provider fails', async () => {
    sim.setFaults({ rate5xx: 1 });
    try {
      const res = await refresh(sim.fleet.knownUserTerminalId);
      expect(res.statusCode).toBe(502);
      expect(res.json().message).toBe('Failed to refresh the terminal: the provider is unavailable right now');
    } finally {
      sim.setFaults({ rate5xx: 0 });
    }
  });
});
