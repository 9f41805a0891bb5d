// Filling a fresh database the way production fills it, through the running server's API only:
// the inventory sync from the provider (the simulator in its own process), the usage run its
// success queues, then what administrators do: create customers and portal users, and assign two
// thirds of the service lines to the customers, 500 lines a request (the API's limit), one large
// customer holding 5 % of them (the page a large customer opens is the one that must stay fast).
// The lines to assign are the simulator's own (same seed and size, same fleet), as an
// administrator would paste them from the provider's records.
import { performance } from 'node:perf_hooks';
import { PROVIDER_DEFAULTS } from '../../server/provider/client';
import { PROVIDER_RATE_LIMIT_PER_MINUTE } from '../../server/simulator/options';
import { createFleet } from '../../server/simulator/fleet';
import { normaliseTerminalPage, terminalListSearchParams } from '../../src/api/terminals';
import type { AssignTerminalsResult, AssignedTerminal } from '../../src/domain/customer-terminals';
import type { SyncJob } from '../../src/domain/terminals';
import type { AccountSyncs } from './accounts';
import { findUsageRun, isFinished, startInventorySync, syncJob, waitForRun, withQuery, type Portal, type PortalClient } from './api';
import { isWriting } from './sync-load';

export interface SyncFigures {
  runId: string;
  status: SyncJob['status'];
  seconds: number;
  providerCalls: number;
  counts: SyncJob['counts'];
  message: string | null;
}

export interface FillReport {
  /** Which server filled: the baseline's (then the current one migrates its copy forward) or the current one. */
  filledBy: 'baseline' | 'current';
  providerClientLimitLifted: boolean | null;
  inventory: SyncFigures;
  usage: SyncFigures;
  providerCalls: number;
  syncSeconds: number;
  /** What the same calls would take at the client's default limit (the provider allows 250). */
  atRealLimit: { requestsPerMinute: number; source: string; providerLimitPerMinute: number; minutes: number };
  customers: { created: number; seconds: number };
  users: { created: number; seconds: number };
  assignments: { requests: number; linesAssigned: number; linesRefused: number; refusedReasons: Record<string, number>; seconds: number };
  seconds: number;
  /**
   * With several provider accounts: every account's runs (`inventory` and `usage` above are
   * account 1's; providerCalls and syncSeconds cover them all, the accounts syncing side by side).
   */
  accounts?: AccountSyncs[];
}

/** What the timed pages are pointed at, resolved once after the fill (the copies hold the same rows). */
export interface PageContext {
  terminalsTotal: number;
  largeCustomer: { uuid: string; name: string; lines: number };
  terminal: { userTerminalId: string; serviceLineNumber: string; kitSerialNumber: string };
  /** With several provider accounts: how many, and the one whose filtered Terminals list is timed. */
  accounts?: { count: number; filtered: { id: number; name: string; terminals: number } };
}

/** The syncs of a fill with several accounts, run by the caller (bench/scale/accounts.ts). */
export interface AccountsSyncs {
  accounts: AccountSyncs[];
  seconds: number;
  /** The account whose filtered Terminals list is timed. */
  filtered: { id: number; name: string };
}

const FIRST = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elena', 'Felipe', 'Hugo', 'Isabel', 'Karina', 'Lucas', 'Marta', 'Olivia'];
const LAST = ['Lima', 'Okafor', 'Schmidt', 'Nakamura', 'Rossi', 'Haddad', 'Mensah', 'Petrov', 'Quispe', 'Costa', 'Tanaka', 'Zhou'];
const TRADES = ['Maritime', 'Mining', 'Energy', 'Logistics', 'Agro', 'Telecom', 'Rescue', 'Survey'];
const USERS = 48;
const ASSIGN_BATCH = 500;
const LARGE_CUSTOMER_SHARE = 0.05;
const FILL_PARALLEL = 4;

const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10;

function syncFigures(job: SyncJob, wallSeconds: number): SyncFigures {
  return { runId: job.id, status: job.status, seconds: wallSeconds, providerCalls: job.providerCalls, counts: job.counts, message: job.message };
}

/** Runs `work` over `items` with `parallel` workers, in order of the items. */
async function inParallel<T>(items: readonly T[], parallel: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index]!, index);
      }
    }),
  );
}

/**
 * `whileInventoryWrites` runs once the inventory run is writing (every terminal is new to it, so
 * each batch marks a sync's worth of page rows), before the run is waited for.
 */
export async function runSyncs(
  portal: Portal,
  timeoutMs: number,
  whileInventoryWrites?: (run: SyncJob) => Promise<void>,
): Promise<{ inventory: SyncFigures; usage: SyncFigures }> {
  const { job: inventoryJob, figures: inventory } = await runInventory(portal, timeoutMs, whileInventoryWrites);

  // The usage run is queued by the inventory run's success; its clock starts when it is found
  // (at most a poll after it was queued).
  const started = performance.now();
  const usageQueued = await findUsageRun(portal, inventoryJob.queuedAt);
  const usageJob = await waitForRun(portal, usageQueued.id, { label: 'usage sync', timeoutMs });
  const usage = syncFigures(usageJob, seconds(started));
  if (usageJob.status !== 'succeeded') throw new Error(`the usage sync failed: ${usageJob.message ?? 'no message'}`);
  console.error(`scale:   usage sync: ${usage.seconds} s, ${usage.providerCalls} provider calls, ${usage.counts.added + usage.counts.updated} lines`);
  return { inventory, usage };
}

/** An inventory run started through the API and waited for (see runSyncs for `whileInventoryWrites`); throws unless it succeeded. */
export async function runInventory(portal: Portal, timeoutMs: number, whileInventoryWrites?: (run: SyncJob) => Promise<void>): Promise<{ job: SyncJob; figures: SyncFigures }> {
  console.error('scale:   inventory sync');
  const started = performance.now();
  const queued = await startInventorySync(portal);
  if (whileInventoryWrites) {
    const writing = await waitForWriting(portal, queued.id, timeoutMs);
    if (writing) await whileInventoryWrites(writing);
  }
  const job = await waitForRun(portal, queued.id, { label: 'inventory sync', timeoutMs });
  const figures = syncFigures(job, seconds(started));
  if (job.status !== 'succeeded') throw new Error(`the inventory sync failed: ${job.message ?? 'no message'}`);
  console.error(`scale:   inventory sync: ${figures.seconds} s, ${figures.providerCalls} provider calls, ${figures.counts.added} added`);
  return { job, figures };
}

/** The run once it writes; null when it finished first. */
async function waitForWriting(portal: Portal, id: string, timeoutMs: number): Promise<SyncJob | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await syncJob(portal, id);
    if (isWriting(job)) return job;
    if (isFinished(job)) return null;
    if (Date.now() > deadline) throw new Error(`inventory sync (run ${id}) did not write within ${timeoutMs / 60_000} min`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function fill(options: {
  portal: Portal;
  filledBy: 'baseline' | 'current';
  providerClientLimitLifted: boolean | null;
  simulator: { seed: string; terminals: number };
  customers: number;
  syncTimeoutMs: number;
  /** One account: runs while the first inventory run writes (see runSyncs). */
  whileInventoryWrites?: (run: SyncJob) => Promise<void>;
  /** Several accounts: every account's simulator (the first is `simulator`) and what syncs them all. */
  accounts?: { fleets: { seed: string; terminals: number }[]; sync: () => Promise<AccountsSyncs> };
}): Promise<{ report: FillReport; context: PageContext }> {
  const { portal } = options;
  const fillStarted = performance.now();
  let inventory: SyncFigures;
  let usage: SyncFigures;
  let providerCalls: number;
  let syncSeconds: number;
  let multi: AccountsSyncs | null = null;
  if (options.accounts) {
    console.error(`scale:   inventory and usage syncs of ${options.accounts.fleets.length} accounts`);
    multi = await options.accounts.sync();
    const first = multi.accounts[0]!;
    ({ inventory, usage } = first);
    providerCalls = multi.accounts.reduce((sum, a) => sum + a.inventory.providerCalls + a.usage.providerCalls, 0);
    syncSeconds = multi.seconds;
    console.error(`scale:   ${multi.accounts.length} accounts synced in ${multi.seconds} s, ${providerCalls} provider calls`);
  } else {
    ({ inventory, usage } = await runSyncs(portal, options.syncTimeoutMs, options.whileInventoryWrites));
    providerCalls = inventory.providerCalls + usage.providerCalls;
    syncSeconds = Math.round((inventory.seconds + usage.seconds) * 10) / 10;
  }

  const parallel: PortalClient = portal.pool(FILL_PARALLEL);
  try {
    console.error(`scale:   ${options.customers} customers, ${USERS} users`);
    let started = performance.now();
    const customers: { uuid: string; name: string }[] = new Array(options.customers);
    await inParallel([...Array(options.customers).keys()], FILL_PARALLEL, async (i) => {
      const name = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`;
      const body = { name, email: `scale-customer-${i}@example.com`, company: `${LAST[i % LAST.length]} ${TRADES[i % TRADES.length]} ${i}` };
      const data = await parallel.data<{ customer: { uuid: string } }>('POST', '/customers', body, 201);
      customers[i] = { uuid: data.customer.uuid, name };
    });
    const customerSeconds = seconds(started);

    started = performance.now();
    await inParallel([...Array(USERS).keys()], FILL_PARALLEL, async (i) => {
      await parallel.data('POST', '/users', { name: `${FIRST[i % FIRST.length]} Operator ${i}`, email: `scale-user-${i}@example.com`, role: 'user' }, 201);
    });
    const userSeconds = seconds(started);

    // Two thirds of the lines, the large customer's share first, then even contiguous shares.
    // With several accounts, every account's lines one after the other (customers hold lines of several accounts).
    const lines = (options.accounts?.fleets ?? [options.simulator])
      .flatMap((fleet) => createFleet({ seed: fleet.seed, terminals: fleet.terminals }).serviceLineNumbers())
      .filter((_, i) => i % 3 !== 2);
    const largeShare = customers.length === 1 ? lines.length : Math.max(1, Math.round(lines.length * LARGE_CUSTOMER_SHARE));
    const shares: { customer: number; lines: string[] }[] = [{ customer: 0, lines: lines.slice(0, largeShare) }];
    const rest = lines.slice(largeShare);
    const others = customers.length - 1;
    for (let c = 1; c <= others; c++) {
      shares.push({ customer: c, lines: rest.slice(Math.floor(((c - 1) * rest.length) / others), Math.floor((c * rest.length) / others)) });
    }
    const requests = shares.flatMap((share) => {
      const chunks: { customer: number; lines: string[] }[] = [];
      for (let at = 0; at < share.lines.length; at += ASSIGN_BATCH) chunks.push({ customer: share.customer, lines: share.lines.slice(at, at + ASSIGN_BATCH) });
      return chunks;
    });
    console.error(`scale:   assigning ${lines.length} service lines in ${requests.length} requests`);
    started = performance.now();
    let linesAssigned = 0;
    let linesRefused = 0;
    const refusedReasons: Record<string, number> = {};
    // Two at a time: every assignment locks its terminals in one fixed order, so more would queue.
    await inParallel(requests, 2, async (request) => {
      const result = await parallel.data<AssignTerminalsResult>('POST', '/terminals/customers/assign-terminals', {
        customerUuid: customers[request.customer]!.uuid,
        serviceLineNumbers: request.lines,
      });
      linesAssigned += result.assigned.length;
      linesRefused += result.failed.length;
      for (const failure of result.failed) refusedReasons[failure.code] = (refusedReasons[failure.code] ?? 0) + 1;
    });
    const assignSeconds = seconds(started);

    const context = await resolveContext(portal, customers[0]!);
    if (multi) context.accounts = { count: multi.accounts.length, filtered: { ...multi.filtered, terminals: await accountTerminals(portal, multi.filtered.id) } };
    const requestsPerMinute = PROVIDER_DEFAULTS.requestsPerMinute;
    // Accounts call side by side, each at its own limit: the busiest account's calls set the time.
    const callsAtOneLimit = multi ? Math.max(...multi.accounts.map((a) => a.inventory.providerCalls + a.usage.providerCalls)) : providerCalls;
    const report: FillReport = {
      filledBy: options.filledBy,
      providerClientLimitLifted: options.providerClientLimitLifted,
      inventory,
      usage,
      providerCalls,
      syncSeconds,
      atRealLimit: {
        requestsPerMinute,
        source: multi
          ? "PROVIDER_DEFAULTS.requestsPerMinute in server/provider/client.ts, for the busiest account's calls (the accounts sync side by side, each at its own limit)"
          : 'PROVIDER_DEFAULTS.requestsPerMinute in server/provider/client.ts (the client default, STARLINK_REQUESTS_PER_MINUTE unset)',
        providerLimitPerMinute: PROVIDER_RATE_LIMIT_PER_MINUTE,
        minutes: Math.round((callsAtOneLimit / requestsPerMinute) * 10) / 10,
      },
      customers: { created: customers.length, seconds: customerSeconds },
      users: { created: USERS, seconds: userSeconds },
      assignments: { requests: requests.length, linesAssigned, linesRefused, refusedReasons, seconds: assignSeconds },
      seconds: seconds(fillStarted),
      ...(multi ? { accounts: multi.accounts } : {}),
    };
    return { report, context };
  } finally {
    parallel.close();
  }
}

/** The large customer, one of its terminals, and the inventory's size, read through the API. */
async function resolveContext(portal: Portal, large: { uuid: string; name: string }): Promise<PageContext> {
  const assigned = await portal.data<AssignedTerminal[] | { terminals: AssignedTerminal[] }>('GET', `/terminals/customers/${large.uuid}/terminals`);
  const terminals = Array.isArray(assigned) ? assigned : assigned.terminals;
  const middle = terminals[Math.floor(terminals.length / 2)];
  if (!middle) throw new Error('the large customer has no terminal: the assignments did not take');
  const page = normaliseTerminalPage(await portal.data('GET', withQuery('/terminals', terminalListSearchParams({ page: 1 }))), { page: 1 });
  return {
    terminalsTotal: page.pagination.total,
    largeCustomer: { uuid: large.uuid, name: large.name, lines: new Set(terminals.map((t) => t.serviceLine)).size },
    terminal: { userTerminalId: middle.deviceId, serviceLineNumber: middle.serviceLine, kitSerialNumber: middle.kitSerialNumber },
  };
}

/** How many terminals the account's own Terminals list holds. */
async function accountTerminals(portal: Portal, accountId: number): Promise<number> {
  const query = { page: 1, accountId };
  return normaliseTerminalPage(await portal.data('GET', withQuery('/terminals', terminalListSearchParams(query))), query).pagination.total;
}
