// Several provider accounts in one portal (--accounts N, PostgreSQL only): account 1 is the one the
// server makes from STARLINK_* on its first start, accounts 2..N are added through the API
// (POST /provider-accounts, each pointed at a simulator of its own), and each syncs on its own and
// spends only its own call budget. This file adds them, follows every account's inventory run and
// the usage run its success queues (read from sync_runs, which names the account of each run: the
// API's queue shows a handful of recent runs, not every account's), and checks the budgets.
//
// The budget check: every provider call's start is a row of provider_call_starts (account_key,
// lane, started_at). The server prunes rows older than an hour, so a collector reads new rows
// every few seconds for the whole run and keeps them here; at the end, per account, the most
// starts in any 60-second window, next to the limit the account's calls were held to.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { providerAccountKey } from '../../server/services/provider-call-budget';
import type { SyncJob } from '../../src/domain/terminals';
import { ApiError, startInventorySync, type Portal } from './api';
import type { SyncFigures } from './fill';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const WINDOW_MS = 60_000;
const COLLECT_EVERY_MS = 5_000;
/** Starts are read again this far back: a start whose transaction committed late is not missed. */
const COLLECT_OVERLAP_MS = 120_000;

async function connect(databaseUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  return client;
}

// ---- Adding the accounts ---------------------------------------------------------------------

export interface AccountEndpoint {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

/** Accounts 2..N through the API, as an administrator adds them; each one's first inventory run starts at once. */
export async function addAccounts(portal: Portal, endpoints: readonly AccountEndpoint[], firstNumber: number): Promise<{ id: number; name: string }[]> {
  const added: { id: number; name: string }[] = [];
  for (const [k, endpoint] of endpoints.entries()) {
    const name = `Scale account ${firstNumber + k}`;
    const data = await portal.data<{ id: number; name: string }>(
      'POST',
      '/provider-accounts',
      { name, kind: 'starlink', apiUrl: endpoint.baseUrl, tokenUrl: `${endpoint.baseUrl}/auth/connect/token`, clientId: endpoint.clientId, clientSecret: endpoint.clientSecret },
      201,
    );
    added.push({ id: data.id, name: data.name });
  }
  return added;
}

// ---- Following every account's runs ----------------------------------------------------------

export interface AccountSyncs {
  accountId: number;
  inventory: SyncFigures;
  usage: SyncFigures;
}

interface RunRow {
  id: string;
  kind: 'inventory' | 'usage';
  account_id: number;
  status: SyncJob['status'];
  phase: string | null;
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  failed: number;
  provider_calls: number;
  message: string | null;
  queued_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

function figures(row: RunRow): SyncFigures {
  const seconds = row.started_at && row.finished_at ? Math.round((row.finished_at.getTime() - row.started_at.getTime()) / 100) / 10 : 0;
  return {
    runId: row.id,
    status: row.status,
    seconds,
    providerCalls: row.provider_calls,
    counts: { added: row.added, updated: row.updated, unchanged: row.unchanged, removed: row.removed, failed: row.failed },
    message: row.message,
  };
}

/**
 * Starts an inventory run of every account that has none going (POST /terminals/sync: the accounts
 * just added already run theirs) and waits until every account's inventory run and the usage run
 * it queued have ended. A run's seconds are its own (started to finished, from its row).
 */
export async function syncEveryAccount(options: { portal: Portal; databaseUrl: string; accountIds: readonly number[]; since: Date; timeoutMs: number }): Promise<{ accounts: AccountSyncs[]; seconds: number }> {
  const started = performance.now();
  try {
    await startInventorySync(options.portal);
  } catch (error) {
    // 409: every account already has its run going.
    if (!(error instanceof ApiError && error.status === 409)) throw error;
  }
  const client = await connect(options.databaseUrl);
  try {
    const deadline = Date.now() + options.timeoutMs;
    let told = 0;
    for (;;) {
      const { rows } = await client.query<RunRow>(
        `SELECT id, kind, account_id, status, phase, added, updated, unchanged, removed, failed, provider_calls, message, queued_at, started_at, finished_at
           FROM sync_runs WHERE queued_at >= $1 ORDER BY queued_at`,
        [options.since],
      );
      const failed = rows.find((r) => r.status === 'failed');
      if (failed) throw new Error(`the ${failed.kind} run of account ${failed.account_id} failed: ${failed.message ?? 'no message'}`);
      const done: AccountSyncs[] = [];
      const pending: string[] = [];
      for (const accountId of options.accountIds) {
        const inventory = rows.filter((r) => r.account_id === accountId && r.kind === 'inventory').at(-1);
        // The usage run is queued by the inventory run's success, so after the inventory run was.
        const usage = inventory ? rows.filter((r) => r.account_id === accountId && r.kind === 'usage' && r.queued_at >= inventory.queued_at).at(-1) : undefined;
        if (inventory?.status === 'succeeded' && usage?.status === 'succeeded') done.push({ accountId, inventory: figures(inventory), usage: figures(usage) });
        else pending.push(`${accountId}: ${usage ? `usage ${usage.status} ${usage.phase ?? ''}` : inventory ? `inventory ${inventory.status} ${inventory.phase ?? ''}` : 'no run yet'}`);
      }
      if (pending.length === 0) return { accounts: done, seconds: Math.round((performance.now() - started) / 100) / 10 };
      if (Date.now() - told > 10_000) {
        console.error(`scale:   ${done.length} of ${options.accountIds.length} accounts synced; ${pending.slice(0, 4).join('; ')}${pending.length > 4 ? '; …' : ''}`);
        told = Date.now();
      }
      if (Date.now() > deadline) throw new Error(`the accounts' syncs had not ended after ${options.timeoutMs / 60_000} min: ${pending.join('; ')}`);
      await sleep(1_000);
    }
  } finally {
    await client.end();
  }
}

// ---- The budget check ------------------------------------------------------------------------

export interface CallStartsCollector {
  /** Reads what is new one last time and stops. */
  stop(): Promise<void>;
  /**
   * Runs `work` with the collector's connection closed and no read under way: a copy of the
   * database (CREATE DATABASE … TEMPLATE) wants no other session on it. Reads go on afterwards.
   */
  whilePaused<T>(work: () => Promise<T>): Promise<T>;
  /** Start times (ms since the epoch) by account key, sorted. */
  starts(): Map<string, number[]>;
}

/** Reads provider_call_starts every few seconds from now on (until the server has migrated, there is no table: nothing to read yet). */
export function collectCallStarts(databaseUrl: string, log: (message: string) => void): CallStartsCollector {
  const seen = new Set<string>();
  const byKey = new Map<string, number[]>();
  let cursor = 0;
  let client: pg.Client | null = null;
  let stopped = false;
  let warned = false;
  let paused = 0;
  let reading: Promise<void> = Promise.resolve();

  async function read(): Promise<void> {
    client ??= await connect(databaseUrl);
    try {
      const { rows } = await client.query<{ id: string; account_key: string; ms: number }>(
        `SELECT id::text AS id, account_key, (extract(epoch FROM started_at) * 1000)::float8 AS ms
           FROM provider_call_starts WHERE started_at >= to_timestamp($1::float8 / 1000) ORDER BY started_at`,
        [Math.max(0, cursor - COLLECT_OVERLAP_MS)],
      );
      for (const row of rows) {
        if (seen.has(row.id)) continue;
        seen.add(row.id);
        let list = byKey.get(row.account_key);
        if (!list) byKey.set(row.account_key, (list = []));
        list.push(row.ms);
        if (row.ms > cursor) cursor = row.ms;
      }
    } catch (error) {
      // 42P01: the server has not created the table yet.
      if ((error as { code?: string }).code !== '42P01') throw error;
    }
  }

  /** Closes the connection, if one is open; the next read opens another. */
  async function letGo(): Promise<void> {
    const open = client;
    client = null;
    await open?.end().catch(() => undefined);
  }

  const loop = (async () => {
    while (!stopped) {
      try {
        // Checked and started in one turn: whilePaused either sees this read or keeps it from starting.
        if (paused === 0) await (reading = read());
      } catch (error) {
        if (!warned) log(`reading provider_call_starts failed (trying again): ${error instanceof Error ? error.message : String(error)}`);
        warned = true;
        await letGo();
      }
      for (let waited = 0; waited < COLLECT_EVERY_MS && !stopped; waited += 250) await sleep(250);
    }
  })();

  return {
    async stop() {
      stopped = true;
      await loop;
      try {
        await read();
      } finally {
        await letGo();
      }
    },
    async whilePaused(work) {
      paused++;
      try {
        await reading.catch(() => undefined);
        await letGo();
        return await work();
      } finally {
        paused--;
      }
    },
    starts() {
      for (const list of byKey.values()) list.sort((a, b) => a - b);
      return byKey;
    },
  };
}

/** The most starts in any window of `windowMs` (half-open: [t, t + windowMs)), and where it begins. */
export function busiestWindow(sorted: readonly number[], windowMs = WINDOW_MS): { count: number; from: number | null } {
  let best = { count: 0, from: null as number | null };
  let end = 0;
  for (let start = 0; start < sorted.length; start++) {
    while (end < sorted.length && sorted[end]! - sorted[start]! < windowMs) end++;
    if (end - start > best.count) best = { count: end - start, from: sorted[start]! };
  }
  return best;
}

export interface AccountBudget {
  accountId: number;
  name: string;
  /** Provider calls started during the run (all lanes). */
  calls: number;
  /** The most call starts in any 60 s window, and when that window began. */
  maxIn60s: number;
  busiestWindowFrom: string | null;
  /** The limit its calls were held to: its row's requests_per_minute, or the lifted limit where the lift reached its client. */
  budget: number;
  budgetSource: 'requests_per_minute of its provider_accounts row' | 'the lifted client limit' | 'the client default';
  met: boolean;
}

export interface BudgetReport {
  windowSeconds: number;
  /** What limited each account's client: see `lift` for why. */
  lift: { clientDefaultLifted: boolean | null; reachesAccountClients: boolean; why: string };
  accounts: AccountBudget[];
  /** Every account's starts together: above one account's budget shows the accounts calling side by side, each on its own. */
  allAccounts: { calls: number; maxIn60s: number };
  /** Keys with starts that belong to no account row (none expected). */
  unknownKeys: { key: string; calls: number; maxIn60s: number }[];
}

interface AccountRow {
  id: number;
  name: string;
  kind: string;
  api_url: string | null;
  client_id: string | null;
  simulator_account: string | null;
  requests_per_minute: number | null;
}

/** Each account's busiest minute against its budget; the key is derived as the server derives it (server/provider-access.ts accountRef). */
export async function budgetReport(options: { databaseUrl: string; collector: CallStartsCollector; lift: BudgetReport['lift']; liftedLimit: number }): Promise<BudgetReport> {
  const client = await connect(options.databaseUrl);
  let rows: AccountRow[];
  try {
    rows = (await client.query<AccountRow>('SELECT id, name, kind, api_url, client_id, simulator_account, requests_per_minute FROM provider_accounts ORDER BY id')).rows;
  } finally {
    await client.end();
  }
  const starts = options.collector.starts();
  const known = new Set<string>();
  const accounts = rows.map((row): AccountBudget => {
    const key = row.kind === 'simulator' ? providerAccountKey('simulator', row.simulator_account ?? '') : providerAccountKey(row.api_url ?? '', row.client_id ?? '');
    known.add(key);
    const list = starts.get(key) ?? [];
    const busiest = busiestWindow(list);
    // An account without a limit of its own takes the client default, which the preload lifted.
    const lifted = row.requests_per_minute === null && options.lift.reachesAccountClients;
    const budget = row.requests_per_minute ?? (options.lift.reachesAccountClients ? options.liftedLimit : DEFAULT_CLIENT_LIMIT);
    return {
      accountId: row.id,
      name: row.name,
      calls: list.length,
      maxIn60s: busiest.count,
      busiestWindowFrom: busiest.from === null ? null : new Date(busiest.from).toISOString(),
      budget,
      budgetSource: lifted ? 'the lifted client limit' : row.requests_per_minute === null ? 'the client default' : 'requests_per_minute of its provider_accounts row',
      met: busiest.count <= budget,
    };
  });
  const unknownKeys = [...starts.entries()].filter(([key]) => !known.has(key)).map(([key, list]) => ({ key, calls: list.length, maxIn60s: busiestWindow(list).count }));
  const all = [...starts.values()].flat().sort((a, b) => a - b);
  return { windowSeconds: WINDOW_MS / 1000, lift: options.lift, accounts, allAccounts: { calls: all.length, maxIn60s: busiestWindow(all).count }, unknownKeys };
}

/** The limit bench/scale/lift-provider-limit.ts sets as the client default (kept in step with it). */
export const LIFTED_LIMIT = 1_000_000_000;

/** The provider client's own default a minute (server/provider/client.ts), for an account without a limit of its own. */
const DEFAULT_CLIENT_LIMIT = 240;

/**
 * Whether the preload's lifted client default reaches the accounts' clients: an account whose row
 * sets no requests_per_minute (account one from STARLINK_* without STARLINK_REQUESTS_PER_MINUTE,
 * and the accounts this bench adds) takes the client default for its budget, which the preload
 * lifted; one with a limit of its own keeps it.
 */
export async function liftReach(_codeDir: string, clientDefaultLifted: boolean | null): Promise<BudgetReport['lift']> {
  return {
    clientDefaultLifted,
    reachesAccountClients: clientDefaultLifted === true,
    why:
      clientDefaultLifted === true
        ? "accounts without a requests_per_minute of their own take the client default, which the preload lifted"
        : 'the preload could not lift the client default',
  };
}
