// Shared pieces of the sync tests: a simulator over real HTTP with a small fleet, a client that
// retries fast, a way to wait for a run, and the provider's and our inventory side by side.
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { SyncJob } from '../../src/domain/terminals';
import type { Db } from '../../server/db/client';
import { createStarlinkClient, type StarlinkClient } from '../../server/provider';
import { ProviderTimeoutError, ProviderUnavailableError } from '../../server/provider/errors';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../server/simulator';
import type { TestContext } from './helpers';

/** The simulator and the app share this instant, so telemetry ages and conditions are stable. */
export const SYNC_TEST_TIME = '2026-03-18T10:30:00.000Z';

export async function startFleet(options: StartSimulatorOptions = {}): Promise<RunningSimulator> {
  return startSimulator({ port: 0, terminals: 200, now: () => new Date(SYNC_TEST_TIME), ...options });
}

/** The real client against the simulator, with back-off short enough for tests. */
export function fastClient(sim: RunningSimulator, overrides: Partial<Parameters<typeof createStarlinkClient>[0]> = {}): StarlinkClient {
  return createStarlinkClient({
    apiUrl: sim.baseUrl,
    tokenUrl: sim.tokenUrl,
    ...sim.credentials,
    requestsPerMinute: 100_000,
    maxRetries: 8,
    backoffBaseMs: 1,
    backoffMaxMs: 10,
    timeoutMs: 3_000,
    ...overrides,
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits for a run to end, then answers what GET /sync/job/{id} says of it. The wait reads the run's
 * row rather than polling the route: a request in flight counts as a reader waiting on the server,
 * and on the embedded database the sync's writes rest after each transaction while one does, so
 * polling the API slowed the very run it waited for.
 */
export async function waitForRun(ctx: TestContext, token: string, id: string, timeoutMs = 25_000): Promise<SyncJob> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = (await ctx.database.db.execute(sql`SELECT status, phase FROM sync_runs WHERE id = ${id}`)) as unknown as { rows: { status: string; phase: string | null }[] };
    const row = result.rows[0];
    if (row?.status === 'succeeded' || row?.status === 'failed') break;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${row?.status ?? 'unknown'} (${row?.phase ?? ''}) after ${timeoutMs} ms`);
    await sleep(50);
  }
  const res = await ctx.request({ method: 'GET', url: `/api/v1/terminals/sync/job/${id}`, token });
  expect(res.statusCode).toBe(200);
  return res.json().data as SyncJob;
}

/** The ids of every run of a kind so far: pass them to `waitForLatest` to wait for a newer one. */
export async function runIdsOf(db: Db, kind: 'inventory' | 'usage'): Promise<ReadonlySet<string>> {
  const result = (await db.execute(sql`SELECT id FROM sync_runs WHERE kind = ${kind}`)) as unknown as { rows: { id: string }[] };
  return new Set(result.rows.map((r) => r.id));
}

/**
 * Waits for the newest run of a kind to end (for runs the app starts on its own). With `known`
 * (from `runIdsOf` before the run that queues it), only a run not among them counts: an inventory
 * run queues its usage run only after it is marked succeeded, and under the tests' frozen clock
 * the new run's queued_at equals the last one's, so "newest" alone could answer with the old run.
 */
export async function waitForLatest(
  db: Db,
  kind: 'inventory' | 'usage',
  timeoutMs = 25_000,
  known: ReadonlySet<string> = new Set(),
): Promise<{ id: string; status: string; message: string | null }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = (await db.execute(sql`SELECT id, status, message FROM sync_runs WHERE kind = ${kind} ORDER BY queued_at DESC, id DESC`)) as unknown as {
      rows: { id: string; status: string; message: string | null }[];
    };
    const row = result.rows.find((r) => !known.has(r.id));
    if (row && (row.status === 'succeeded' || row.status === 'failed')) return row;
    if (Date.now() > deadline) throw new Error(`no ${kind} run ended within ${timeoutMs} ms (${row?.status ?? 'none'})`);
    await sleep(50);
  }
}

export interface InventoryEntry {
  id: string;
  kit: string;
  dish: string | null;
  line: string | null;
  active: boolean;
}

const byId = (a: InventoryEntry, b: InventoryEntry) => a.id.localeCompare(b.id);

/** What the provider lists now, straight from the simulated fleet (not through the client). */
export function providerInventory(sim: RunningSimulator): InventoryEntry[] {
  const fleet = sim.fleet;
  return Array.from({ length: fleet.size }, (_, t) => {
    const terminal = fleet.terminal(t);
    const line = terminal.serviceLineNumber ? fleet.serviceLine(terminal.serviceLineNumber) : undefined;
    return { id: terminal.userTerminalId, kit: terminal.kitSerialNumber, dish: terminal.dishSerialNumber, line: terminal.serviceLineNumber, active: line?.active ?? false };
  }).sort(byId);
}

/** The live rows of our inventory, in the same shape. */
export async function localInventory(db: Db): Promise<InventoryEntry[]> {
  const result = (await db.execute(
    sql`SELECT user_terminal_id, kit_serial_number, dish_serial_number, service_line_number, active FROM terminals WHERE removed_at IS NULL`,
  )) as unknown as { rows: { user_terminal_id: string; kit_serial_number: string; dish_serial_number: string | null; service_line_number: string | null; active: boolean }[] };
  return result.rows
    .map((r) => ({ id: r.user_terminal_id, kit: r.kit_serial_number, dish: r.dish_serial_number, line: r.service_line_number, active: r.active }))
    .sort(byId);
}

export async function syncStatusCounts(db: Db): Promise<Record<string, number>> {
  const result = (await db.execute(
    sql`SELECT sync_status, count(*)::int AS n FROM terminals WHERE removed_at IS NULL GROUP BY sync_status`,
  )) as unknown as { rows: { sync_status: string; n: number }[] };
  return Object.fromEntries(result.rows.map((r) => [r.sync_status, Number(r.n)]));
}

/**
 * The client with some of its writes counted, and faults a test sets for a write's next call: its
 * answer lost after the provider made it (as when the server dies mid-call), or the provider out
 * of reach before it.
 */
export function countingClient<K extends string>(client: StarlinkClient, calls: Record<K, number>, faults: { loseAnswer: Set<K>; unavailable?: Set<K> }): StarlinkClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const fn = value as (...args: unknown[]) => unknown;
      if (typeof property !== 'string' || !(property in calls)) return fn.bind(target);
      const name = property as K;
      return async (...args: unknown[]) => {
        if (faults.unavailable?.delete(name)) throw new ProviderUnavailableError('The provider is down', { method: 'POST', path: '/test', attempts: 3 });
        calls[name]++;
        const answer: unknown = await fn.apply(target, args);
        if (faults.loseAnswer.delete(name)) throw new ProviderTimeoutError('The answer never came', { method: 'POST', path: '/test', timeoutMs: 15_000 });
        return answer;
      };
    },
  });
}
