// The terminal inventory sync: starting runs (one of each kind at a time, across every server
// process), showing them, the two sync engines the job workers run, and refreshing one terminal.
//
// An inventory run reads everything first (account, products, service lines, addresses, user
// terminals, telemetry) and writes nothing until all of it is in: a provider that fails halfway
// leaves the inventory as it was. Products and the whole address listing are read once a day; in
// between a run takes products from the stored table (unless a line is on a plan it lacks) and
// reads only the addresses of the lines that are new (or moved) since the last run. The engines
// call the provider through its background lane (client.background()): a share of the account's
// call budget, behind people's calls. It then applies in batched transactions. As everything is
// fetched, the apply knows each terminal's content hash before it writes: it starts by marking
// 'pending' the live terminals it will change or remove (stored hash differs, or not listed), and
// each batch writes its changed rows 'synced', so a crash halfway leaves the changed rows it did
// not reach 'pending', never falsely 'synced'. Unchanged rows stay 'synced' (their data is the
// provider's) and get the run's bookkeeping in one statement at the end. Terminals the provider no
// longer lists get removed_at (kept, with their assignments); nothing is removed when a listing
// came back incomplete.
//
// The engines report through a SyncRunTracker (the worker's heartbeat, progress and claim), so
// they know nothing of the job queue.
import { setMaxListeners } from 'node:events';
import type { SyncCounts, SyncJob, SyncJobKind, SyncQueue, SyncTrigger } from '../../src/domain/terminals';
import type { Clock } from '../clock';
import { DEFAULT_USAGE_HISTORY_CYCLES } from '../config';
import type { Db } from '../db/client';
import { transactionRetryingConflicts } from '../db/conflicts';
import type { Repositories } from '../db/repositories';
import type { SyncRunReport } from '../db/repositories/sync-runs';
import type { StoredAddress, StoredTerminalState, TerminalFailure, TerminalUpsert } from '../db/repositories/terminal-inventory';
import type { SyncRunRow } from '../db/schema';
import { ConflictError, NotFoundError, ServiceUnavailableError } from '../errors';
import {
  isProviderError,
  type ProviderAddress,
  type ProviderProduct,
  type ProviderServiceLine,
  type ProviderTelemetry,
  type RequestOptions,
  type StarlinkClient,
} from '../provider';
import type { AuditService, RequestContext } from './audit';
import type { ProviderDirectory } from '../provider-access';
import { PROVIDER_ACCOUNTS_MESSAGES } from './provider-accounts';
import type { LineRowsRefresher } from './line-rows';
import { providerFailure } from './provider-failures';
import { createPacer, inPacedSlices, type PacerOptions } from './pacer';
import { toSyncJob } from './sync-job-map';
import { dayOf } from './terminals';
import { addressRow, historyReading, productRow, serviceLineRow, telemetryRow, terminalRecord, usageRows } from './terminal-sync-map';
import type { TelemetryMetric } from '../../src/domain/telemetry-history';

export const TERMINAL_SYNC_MESSAGES = {
  started: 'Terminal sync has been started in the background. Data will be updated automatically when complete.',
  alreadyRunning: 'A terminal sync is already running',
  usageAlreadyRunning: 'A usage sync is already running',
  jobNotFound: 'Sync job not found',
  terminalNotFound: 'Terminal not found',
  refreshed: 'Terminal refreshed from the provider',
  refreshFailed: 'Failed to refresh the terminal',
  syncFailed: 'Terminal sync failed',
  usageFailed: 'Usage sync failed',
} as const;

/**
 * One batch's transaction. An administrator's assignment can deadlock with it on PostgreSQL: it
 * then runs again from its start, with the run's counts as they were before it.
 */
function countedTransaction(db: Db, counts: SyncCounts, work: (tx: Db) => Promise<void>): Promise<void> {
  const before = { ...counts };
  return transactionRetryingConflicts(db, work, { beforeRetry: () => Object.assign(counts, before) });
}

export const SYNC_DEFAULTS = {
  /** Terminals per apply transaction. */
  applyBatchSize: 1_000,
  /** Addresses or service lines per apply transaction (no per-row comparison: cheaper rows). */
  referenceBatchSize: 5_000,
  /** Terminal ids per telemetry query. */
  telemetryBatchSize: 500,
  /** Telemetry queries in flight at once (the client's rate limit still applies). */
  telemetryConcurrency: 4,
  /** Pages of one listing read at once after its first page (the rate limit still applies). */
  pageConcurrency: 4,
  /** Service lines per data-usage query: one page of the provider's largest (250). */
  usageBatchSize: 250,
  /** Cycles before the current one on a line's first usage read: a year in all (USAGE_HISTORY_CYCLES). */
  usageHistoryCycles: DEFAULT_USAGE_HISTORY_CYCLES,
  /** Runs shown in the queue's history. */
  recentRuns: 20,
  /** Products, and every address, are read in full when the last full reading is older than this. */
  fullListingEveryMs: 86_400_000,
  /** Address ids per filtered address query (one page). */
  addressBatchSize: 100,
} as const;

/** app_meta keys: when the inventory of an account last read each reference listing in full (ISO time). */
export const FULL_LISTING_KEYS = {
  products: (accountId: number) => `sync.products_listed_at.${accountId}`,
  addresses: (accountId: number) => `sync.addresses_listed_at.${accountId}`,
} as const;

export type SyncOptions = Partial<Record<keyof typeof SYNC_DEFAULTS, number>>;

/** Hands a queued run to the job queue. */
export interface SyncDispatcher {
  /** False when the queue is not running yet: its start-up sweep enqueues every queued run. */
  dispatch(run: SyncRunRow): Promise<boolean>;
}

/** What an engine needs from the worker running it. */
export interface SyncRunTracker {
  /** The run, as claimed. */
  readonly run: SyncRunRow;
  /** Aborted when the worker stops (shutdown) or loses the run to another worker. */
  readonly signal: AbortSignal;
  /** What the run is doing now; written with the next heartbeat or checkpoint. */
  report(update: SyncRunReport): void;
  /**
   * Inside each batch's transaction, before it commits: fails (LostClaimError) when the run is no
   * longer this worker's, and writes the latest report with the batch, so counts match the data.
   */
  checkpoint(tx: Db): Promise<void>;
}

/** The run was handed to another worker (this one went quiet for too long): stop, write nothing. */
export class LostClaimError extends Error {
  override name = 'LostClaimError';
}

export interface SyncOutcome {
  counts: SyncCounts;
  /** Warnings of a run that finished (an incomplete listing), or null. */
  message: string | null;
  providerCalls: number;
}

export interface RefreshResult {
  userTerminalId: string;
  syncStatus: 'synced' | 'pending' | 'error';
  lastSyncedAt: string | null;
}

const emptyCounts = (): SyncCounts => ({ added: 0, updated: 0, unchanged: 0, removed: 0, failed: 0 });

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Runs `work` over `items` with at most `limit` in flight; the first failure rejects. */
async function inPool<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  });
  await Promise.all(lanes);
}

/** A failure as the run's message: provider failures say what the provider did; bugs stay vague. */
export function runFailureMessage(error: unknown, summary: string): string {
  if (isProviderError(error)) return (providerFailure(error, summary) as Error).message;
  return `${summary}: an internal error occurred (see the server log)`;
}

/** Counts the pages of the parallel listings as they arrive, for the run's phase and progress. */
function listingProgress(report: (phase: string, share: number) => void) {
  const seen = new Map<string, { pages: number; total: number | null }>();
  return (name: string): RequestOptions['onRaw'] =>
    (body) => {
      const content = (body as { content?: { totalCount?: unknown; limit?: unknown } } | null)?.content;
      const state = seen.get(name) ?? { pages: 0, total: null };
      state.pages += 1;
      if (content && typeof content.totalCount === 'number' && typeof content.limit === 'number' && content.limit > 0) {
        state.total = Math.max(1, Math.ceil(content.totalCount / content.limit));
      }
      seen.set(name, state);
      let pages = 0;
      let total = 0;
      for (const s of seen.values()) {
        pages += s.pages;
        total += Math.max(s.pages, s.total ?? s.pages);
      }
      report(`Reading products, service lines, addresses and user terminals (${pages} of ${total} pages)`, total > 0 ? pages / total : 0);
    };
}

/**
 * A reference listing as a run has it: every record it knows (`items`), the ones it read from the
 * provider this time and writes (`written`), and whether it was the whole listing (`full`: only
 * then can what it lacks be marked removed).
 */
interface ReferenceReading<T> {
  items: T[];
  written: T[];
  full: boolean;
  complete: boolean;
  totalCount: number;
}

const readAll = <T>(list: { items: T[]; complete: boolean; totalCount: number }): ReferenceReading<T> => ({
  items: list.items,
  written: list.items,
  full: true,
  complete: list.complete,
  totalCount: list.totalCount,
});

/** A stored address as the provider's record, for a terminal's location (the fields it is built from). */
const addressFromStore = (a: StoredAddress): ProviderAddress => ({
  ...a,
  addressLines: [],
  administrativeArea: null,
  administrativeAreaCode: null,
  postalCode: null,
  metadata: null,
});

/** The run's message: its sentences, or null when it has none. */
const sentences = (...parts: (string | null)[]) => parts.filter((part) => part !== null).join(' ') || null;

/** "2 telemetry values out of range were kept as empty (latencyMs 1, signalQuality 1)." */
export function outOfRangeNote(counts: ReadonlyMap<TelemetryMetric, number>): string | null {
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const each = [...counts].map(([metric, n]) => `${metric} ${n}`).join(', ');
  return `${total} telemetry value${total === 1 ? ' was' : 's were'} out of range and kept as empty (${each}).`;
}

export type TerminalSyncService = ReturnType<typeof createTerminalSyncService>;

export function createTerminalSyncService(deps: {
  db: Db;
  repos: Repositories;
  audit: AuditService;
  now: Clock;
  provider: ProviderDirectory | null;
  /** The 503 message when no provider is configured. */
  noProvider: string;
  /** The pages' stored rows, computed again for the lines a run wrote before the run ends. */
  lineRows: LineRowsRefresher;
  options?: SyncOptions;
  /** How the usage writes are paced (pacer.ts): the clock, and the rest after each on the embedded database. */
  pacing?: PacerOptions;
}) {
  const { db, repos, audit, now } = deps;
  const runs = repos.syncRuns;
  const inventory = repos.terminalInventory;
  const settings = { ...SYNC_DEFAULTS, ...deps.options };
  // Lines per usage-writing transaction, learnt run after run in this process (pacer.ts).
  const usageWrites = createPacer({ first: 25, min: 5, max: settings.usageBatchSize }, deps.pacing);
  // And the inventory's terminals, and its addresses and service lines (cheaper rows, no comparison).
  const terminalWrites = createPacer(
    { first: Math.min(100, settings.applyBatchSize), min: Math.min(25, settings.applyBatchSize), max: settings.applyBatchSize },
    deps.pacing,
  );
  const referenceWrites = createPacer(
    { first: Math.min(500, settings.referenceBatchSize), min: Math.min(100, settings.referenceBatchSize), max: settings.referenceBatchSize },
    deps.pacing,
  );
  let dispatcher: SyncDispatcher | null = null;

  const client = async (accountId: number): Promise<StarlinkClient> => {
    if (!deps.provider) throw new ServiceUnavailableError(deps.noProvider);
    return (await deps.provider.access(accountId)).client();
  };

  /**
   * An engine's run for one account. A refusal of the credentials marks the account
   * "authentication failed", which pauses its syncs until they change; a run that read the
   * account clears an earlier mark. Other accounts are not touched either way.
   */
  async function forAccount(tracker: SyncRunTracker, engine: (provider: StarlinkClient) => Promise<SyncOutcome>): Promise<SyncOutcome> {
    const accountId = tracker.run.accountId;
    try {
      return await engine((await client(accountId)).background());
    } catch (error) {
      if (isProviderError(error) && error.kind === 'auth') {
        const said = error.messages.length > 0 ? ` (${error.messages.join('; ')})` : '';
        await repos.providerAccounts.markAuthFailed(accountId, PROVIDER_ACCOUNTS_MESSAGES.authFailed(said), now());
      }
      throw error;
    }
  }

  /** Inserts a queued run and hands it to the queue; null when one of the kind is already queued or running for the account. */
  async function tryStart(input: { kind: SyncJobKind; accountId: number; trigger: SyncTrigger; requestedBy: string | null }): Promise<SyncRunRow | null> {
    if (!deps.provider) throw new ServiceUnavailableError(deps.noProvider);
    const inserted = await runs.insertQueued({ ...input, at: now() });
    if (!inserted.ok) return null;
    // A failed hand-over leaves the run queued: the sweeper enqueues queued runs that have no job.
    await dispatcher?.dispatch(inserted.row);
    return inserted.row;
  }

  // ---- The inventory engine ------------------------------------------------------------------

  /** Whether a reference listing is due to be read in full: never read, or not for `fullListingEveryMs`. */
  async function fullListingDue(key: string, at: Date): Promise<boolean> {
    const last = await repos.appMeta.get(key);
    const lastAt = typeof last === 'string' ? Date.parse(last) : Number.NaN;
    return Number.isNaN(lastAt) || at.getTime() - lastAt >= settings.fullListingEveryMs;
  }

  const syncInventory = (tracker: SyncRunTracker) => forAccount(tracker, (provider) => inventoryRun(tracker, provider));

  /** One account's inventory: `provider` is its background lane (a share of its budget, behind people's calls). */
  async function inventoryRun(tracker: SyncRunTracker, provider: StarlinkClient): Promise<SyncOutcome> {
    const accountId = tracker.run.accountId;
    const at = now();
    const runId = tracker.run.id;
    const baseRequests = provider.usage().requests;
    const providerCalls = () => tracker.run.providerCalls + provider.usage().requests - baseRequests;
    const report = (update: SyncRunReport) => tracker.report({ ...update, providerCalls: providerCalls() });

    // ---- Fetch: everything in memory before the first write.
    // One failing listing stops the others: they would only spend the rate limit.
    const fetchAbort = new AbortController();
    const signal = AbortSignal.any([tracker.signal, fetchAbort.signal]);
    // Every request in flight listens to it (four listings, pages read ahead, telemetry).
    setMaxListeners(64, signal);
    const failFast = <T>(promise: Promise<T>) =>
      promise.catch((error: unknown) => {
        fetchAbort.abort(error);
        throw error;
      });

    report({ phase: 'Reading the provider account', progress: 1 });
    const account = await provider.getAccount({ signal, fresh: true });
    const accountNumber = account.accountNumber;
    const onPage = listingProgress((phase, share) => report({ phase, progress: 2 + share * 38 }));
    const listing = (name: string) => ({ signal, onRaw: onPage(name), pageConcurrency: settings.pageConcurrency });

    // Products rarely change: stored ones serve between daily readings, unless none is stored or a
    // line is on a plan they lack (then the listing is read after the lines).
    const storedProducts = (await fullListingDue(FULL_LISTING_KEYS.products(accountId), at)) ? [] : ((await inventory.liveProductsRaw(accountId)) as ProviderProduct[]);
    const listProducts = async () => readAll(await provider.listProducts(listing('products')));
    const readProducts = async (fresh: Promise<{ items: ProviderServiceLine[] }>): Promise<ReferenceReading<ProviderProduct>> => {
      if (storedProducts.length === 0) return listProducts();
      const known = new Set(storedProducts.map((p) => p.productReferenceId));
      if ((await fresh).items.some((l) => l.productReferenceId && !known.has(l.productReferenceId))) return listProducts();
      return { items: storedProducts, written: [], full: false, complete: true, totalCount: storedProducts.length };
    };

    // An address belongs to a line: between daily readings only the lines new since the last run
    // (or moved, or whose address is not stored) have theirs read, 100 ids a query.
    const addressesInFull = await fullListingDue(FULL_LISTING_KEYS.addresses(accountId), at);
    const readNewLinesAddresses = async (fresh: ProviderServiceLine[]): Promise<ReferenceReading<ProviderAddress>> => {
      const [storedLines, storedAddresses] = await Promise.all([inventory.liveLineAddresses(accountId), inventory.liveAddresses(accountId)]);
      const known = new Map(storedAddresses.map((a) => [a.addressReferenceId, addressFromStore(a)]));
      const wanted = new Set<string>();
      for (const line of fresh) {
        const id = line.addressReferenceId;
        if (id && (storedLines.get(line.serviceLineNumber) !== id || !known.has(id))) wanted.add(id);
      }
      const read: ProviderAddress[] = [];
      await inPool(chunks([...wanted], settings.addressBatchSize), settings.pageConcurrency, async (ids) => {
        read.push(...(await provider.listAddresses({ addressIds: ids }, { signal })).items);
      });
      for (const address of read) known.set(address.addressReferenceId, address);
      return { items: [...known.values()], written: read, full: false, complete: true, totalCount: known.size };
    };

    const linesRead = failFast(provider.listServiceLines(listing('service lines')));
    const [products, lines, addresses, userTerminals] = await Promise.all([
      failFast(readProducts(linesRead)),
      linesRead,
      addressesInFull
        ? failFast(provider.listAddresses({}, listing('addresses'))).then(readAll)
        : failFast(linesRead.then((fresh) => readNewLinesAddresses(fresh.items))),
      failFast(provider.listUserTerminals({}, listing('user terminals'))),
    ]);

    const telemetry = new Map<string, ProviderTelemetry>();
    const idBatches = chunks(
      userTerminals.items.map((t) => t.userTerminalId),
      settings.telemetryBatchSize,
    );
    let telemetryDone = 0;
    report({ phase: `Reading telemetry (0 of ${idBatches.length} batches)`, progress: 40 });
    await inPool(idBatches, settings.telemetryConcurrency, async (ids) => {
      const answer = await failFast(provider.queryTelemetry(ids, { signal }));
      for (const [id, record] of Object.entries(answer.userTerminals)) telemetry.set(id, record);
      telemetryDone += 1;
      report({ phase: `Reading telemetry (${telemetryDone} of ${idBatches.length} batches)`, progress: 40 + (telemetryDone / idBatches.length) * 10 });
    });

    const warnings: string[] = [];
    for (const [name, listing] of [
      ['product', products],
      ['service line', lines],
      ['address', addresses],
      ['user terminal', userTerminals],
    ] as const) {
      if (!listing.complete) warnings.push(`the ${name} listing came back incomplete (${listing.items.length} of ${listing.totalCount})`);
    }
    const complete = warnings.length === 0;

    // ---- Apply.
    tracker.signal.throwIfAborted();
    const counts = emptyCounts();
    const productById = new Map(products.items.map((p) => [p.productReferenceId, p]));
    const lineByNumber = new Map(lines.items.map((l) => [l.serviceLineNumber, l]));
    const addressById = new Map(addresses.items.map((a) => [a.addressReferenceId, a]));
    // Reference data and terminals are written down two lanes at once: on PostgreSQL each lane
    // has its own connection, so the server writes addresses while this process prepares the next
    // terminals; on PGlite (one connection) the lanes take turns. The first failure stops both.
    const applyAbort = new AbortController();
    const applySignal = AbortSignal.any([tracker.signal, applyAbort.signal]);
    /** One transaction; `phase` null for the reference lane, which leaves the reporting to the terminals. */
    const batch = async (phase: { text: string; progress: number } | null, write: (tx: Db) => Promise<void>) => {
      applySignal.throwIfAborted();
      if (phase) report({ phase: phase.text, progress: phase.progress, counts: { ...counts } });
      await countedTransaction(db, counts, async (tx) => {
        await write(tx);
        // Last, so the report written with the batch holds the batch's own counts.
        if (phase) report({ counts: { ...counts } });
        await tracker.checkpoint(tx);
      });
    };
    const lane = async (work: () => Promise<void>) => {
      try {
        await work();
      } catch (error) {
        if (!applySignal.aborted) applyAbort.abort(error);
        throw error;
      }
    };

    // Every record built once, before the first write: its hash decides what goes 'pending'.
    const records = userTerminals.items.map((terminal) => {
      const line = terminal.serviceLineNumber ? lineByNumber.get(terminal.serviceLineNumber) : undefined;
      return terminalRecord({
        terminal,
        accountNumber,
        line,
        product: line ? productById.get(line.productReferenceId) : undefined,
        address: line?.addressReferenceId ? addressById.get(line.addressReferenceId) : undefined,
        telemetry: telemetry.get(terminal.userTerminalId),
        at,
      });
    });
    await batch({ text: 'Marking the terminals this run changes pending', progress: 50 }, async (tx) => {
      await inventory.markChangedPending(
        userTerminals.items.map((t, i) => {
          const record = records[i]!;
          return { userTerminalId: t.userTerminalId, contentHash: record.ok ? record.row.contentHash : null };
        }),
        accountId,
        tx,
      );
      await inventory.upsertProducts(products.written.map((p) => productRow(p, accountNumber, accountId)), at, tx);
    });

    // Both lanes write in paced transactions (pacer.ts): on the embedded database a transaction
    // of 1,000 terminals held every page for 175–441 ms at 10,000 terminals.
    const referenceLane = async () => {
      await inPacedSlices(referenceWrites, addresses.written, (items) =>
        batch(null, (tx) => inventory.upsertAddresses(items.map((a) => addressRow(a, accountNumber, accountId)), at, tx)),
      );
      await inPacedSlices(referenceWrites, lines.items, (items) =>
        batch(null, (tx) => inventory.upsertServiceLines(items.map((l) => serviceLineRow(l, accountNumber, accountId)), at, tx)),
      );
    };

    const terminalItems = userTerminals.items.map((terminal, i) => ({ terminal, record: records[i]! }));
    const total = terminalItems.length;
    const stamp = { runId, at, accountId };
    /** Terminals another account holds: kept apart, never merged into this account's. */
    let heldElsewhere = 0;
    /** Unchanged terminals and the hash they were found with: touched in one statement at the end. */
    const unchanged: { userTerminalId: string; contentHash: string }[] = [];
    /** Provider values outside their range, kept as null: how many of each, for the run's warning. */
    const outOfRange = new Map<TelemetryMetric, number>();
    const terminalLane = async () => {
      await inPacedSlices(terminalWrites, terminalItems, async (items, from) => {
        const text = `Writing terminals (${from.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} written)`;
        const phase = { text, progress: 51 + (from / total) * 47 };
        const same: { userTerminalId: string; contentHash: string }[] = [];
        await batch(phase, async (tx) => {
          same.length = 0;
          const stored = await inventory.storedStates(items.map((t) => t.terminal.userTerminalId), tx);
          const changed: TerminalUpsert[] = [];
          const failures: TerminalFailure[] = [];
          for (const { terminal, record } of items) {
            const held = stored.get(terminal.userTerminalId);
            if (held && held.accountId !== accountId) {
              heldElsewhere += 1;
              counts.failed += 1;
              continue;
            }
            if (!record.ok) {
              failures.push(record.failure);
              continue;
            }
            const kind = classify(stored.get(terminal.userTerminalId), record.row.contentHash);
            counts[kind] += 1;
            if (kind === 'unchanged') same.push({ userTerminalId: terminal.userTerminalId, contentHash: record.row.contentHash });
            else changed.push(record.row);
          }
          counts.failed += failures.length;
          await inventory.upsertTerminals(changed, stamp, tx);
          await inventory.markTerminalsFailed(failures, stamp, tx);
          const readings = items.flatMap(({ terminal }) => {
            const reading = telemetry.get(terminal.userTerminalId);
            return reading ? [telemetryRow(reading)] : [];
          });
          await inventory.upsertTelemetry(readings, at, tx);
          await repos.telemetryHistory.record(
            items.flatMap(({ terminal, record }) => {
              const reading = telemetry.get(terminal.userTerminalId);
              if (!reading) return [];
              const kept = historyReading(reading, at, record.ok && record.row.active);
              for (const metric of kept.outOfRange) outOfRange.set(metric, (outOfRange.get(metric) ?? 0) + 1);
              return [kept.reading];
            }),
            at,
            tx,
          );
        });
        // Once the batch is in (a failed batch fails the run anyway).
        unchanged.push(...same);
      });
    };

    const lanes = await Promise.allSettled([lane(referenceLane), lane(terminalLane)]);
    const failedLane = lanes.find((l): l is PromiseRejectedResult => l.status === 'rejected');
    // The lane that failed first holds the real reason; the other one only stopped.
    if (failedLane) throw tracker.signal.aborted ? tracker.signal.reason : (applyAbort.signal.reason ?? failedLane.reason);

    await batch({ text: complete ? 'Marking what the provider no longer lists' : 'Finishing', progress: 99 }, async (tx) => {
      // First: removal goes by the run that last wrote a row, and unchanged rows are this run's too.
      await inventory.touchUnchanged(unchanged, stamp, tx);
      if (complete) {
        counts.removed = await inventory.markUnseenTerminalsRemoved(stamp, tx);
        await inventory.markServiceLinesRemoved(at, accountId, tx);
        // Only a full reading tells what the provider no longer has.
        if (addresses.full) {
          await inventory.markAddressesRemoved(at, accountId, tx);
          await repos.appMeta.set(FULL_LISTING_KEYS.addresses(accountId), at.toISOString(), tx);
        }
        if (products.full) {
          await inventory.markProductsRemoved(at, accountId, tx);
          await repos.appMeta.set(FULL_LISTING_KEYS.products(accountId), at.toISOString(), tx);
        }
      }
      // What the provider said of the account: its number, and its currency as its products price them.
      const currency = products.items.find((p) => p.isoCurrencyCode)?.isoCurrencyCode ?? null;
      await repos.providerAccounts.markConnected(accountId, { accountNumber, currency, message: null }, at, tx);
    });
    // The trigram index's pending list, merged once per run (PGlite has no autovacuum to do it).
    await inventory.flushSearchIndex();
    const pagesNote = await refreshPageRows(tracker);
    const collisions =
      heldElsewhere > 0
        ? `${heldElsewhere} terminal${heldElsewhere === 1 ? ' is' : 's are'} already held under another provider account: kept apart there, not merged into this one.`
        : null;
    const message = sentences(complete ? null : `Nothing was marked removed: ${warnings.join('; ')}.`, collisions, pagesNote, outOfRangeNote(outOfRange));
    return { counts, message, providerCalls: providerCalls() };
  }

  /**
   * The rows the Subscriptions page and the customers' usage tables read, for the lines the run
   * marked: computed before the run ends, so the first reader after a sync finds them current.
   */
  async function refreshPageRows(tracker: SyncRunTracker): Promise<string | null> {
    tracker.report({ phase: 'Updating the pages', progress: 99 });
    try {
      await deps.lineRows.refreshAll(dayOf(now()));
      return null;
    } catch (error) {
      // What the run wrote is committed; the rows stay marked and their next reader computes them.
      return `The pages were not updated at the end of the run (${error instanceof Error ? error.message : String(error)}); they update on their next read.`;
    }
  }

  // ---- The usage engine ----------------------------------------------------------------------

  const syncUsage = (tracker: SyncRunTracker) => forAccount(tracker, (provider) => usageRun(tracker, provider));

  /** One account's usage: `provider` is its background lane. */
  async function usageRun(tracker: SyncRunTracker, provider: StarlinkClient): Promise<SyncOutcome> {
    const baseRequests = provider.usage().requests;
    const providerCalls = () => tracker.run.providerCalls + provider.usage().requests - baseRequests;
    const counts = emptyCounts();
    const lines = await inventory.serviceLinesForUsage(tracker.run.accountId);
    // A line read for the first time gets a year of history; afterwards the last cycle and this one.
    const groups = [
      ...chunks(lines.filter((l) => !l.hasUsage), settings.usageBatchSize).map((g) => ({ lines: g, previous: settings.usageHistoryCycles, fresh: true })),
      ...chunks(lines.filter((l) => l.hasUsage), settings.usageBatchSize).map((g) => ({ lines: g, previous: 1, fresh: false })),
    ];
    let missing = 0;
    for (const [k, group] of groups.entries()) {
      tracker.signal.throwIfAborted();
      tracker.report({ phase: `Reading data usage (batch ${k + 1} of ${groups.length})`, progress: (k / groups.length) * 99, counts: { ...counts }, providerCalls: providerCalls() });
      const numbers = group.lines.map((l) => l.serviceLineNumber);
      const answer = await provider.queryDataUsage(
        { serviceLineNumbers: numbers, previousBillingCycles: group.previous, activeServiceLinesOnly: false },
        { signal: tracker.signal, limit: settings.usageBatchSize },
      );
      const wanted = new Set(numbers);
      const records = answer.items.filter((u) => wanted.has(u.serviceLineNumber));
      const rows = records.map((record) => ({ serviceLineNumber: record.serviceLineNumber, ...usageRows(record) }));
      const at = now();
      missing += numbers.length - records.length;
      // Written in paced transactions (pacer.ts): one of 250 lines held the embedded database, and
      // every page waiting on it, for ~200 ms at 10,000 terminals. Each one checks the claim.
      await inPacedSlices(usageWrites, rows, (part) =>
        countedTransaction(db, counts, async (tx) => {
          await inventory.upsertUsageCycles(part.flatMap((r) => r.cycles), at, tx);
          await inventory.upsertUsageDaily(part.flatMap((r) => r.daily), at, tx);
          await inventory.updateDataCaps(
            part.flatMap((r) => (r.usageLimitGb === null ? [] : [{ serviceLineNumber: r.serviceLineNumber, usageLimitGb: r.usageLimitGb }])),
            at,
            tx,
          );
          if (group.fresh) counts.added += part.length;
          else counts.updated += part.length;
          tracker.report({ counts: { ...counts }, providerCalls: providerCalls() });
          await tracker.checkpoint(tx);
        }),
      );
    }
    // Each batch appended its change to every customer's days; one row a customer and day again.
    await repos.customerTerminals.foldDailyTotals();
    const pagesNote = await refreshPageRows(tracker);
    const message = sentences(missing > 0 ? `The provider returned no usage for ${missing} service line${missing === 1 ? '' : 's'}.` : null, pagesNote);
    return { counts, message, providerCalls: providerCalls() };
  }

  // ---- One terminal --------------------------------------------------------------------------

  /** The provider's record, or undefined when it answers 404. */
  const orMissing = <T>(promise: Promise<T>): Promise<T | undefined> =>
    promise.catch((error: unknown) => {
      if (isProviderError(error) && error.kind === 'not-found') return undefined;
      throw error;
    });

  /** `accountId`: where a terminal not stored yet lives (an activation's account); else the first account. */
  async function refreshTerminal(userTerminalId: string, context: RequestContext, accountHint?: number): Promise<RefreshResult> {
    const stored = await inventory.findTerminal(userTerminalId);
    // A terminal is asked of the account that holds it.
    const accountId = stored?.accountId ?? accountHint ?? (deps.provider ? await deps.provider.defaultAccount() : 0);
    const provider = await client(accountId);
    const before = stored ? { syncStatus: stored.syncStatus, lastSyncedAt: stored.lastSyncedAt?.toISOString() ?? null, removedAt: stored.removedAt?.toISOString() ?? null } : null;
    const at = now();

    let fetched: {
      accountNumber: string;
      terminal: Awaited<ReturnType<StarlinkClient['listUserTerminals']>>['items'][number] | undefined;
      line: ProviderServiceLine | undefined;
      product: ProviderProduct | undefined;
      address: ProviderAddress | undefined;
      telemetry: ProviderTelemetry | undefined;
    };
    try {
      const listing = await provider.listUserTerminals({ userTerminalIds: [userTerminalId] });
      const terminal = listing.items.find((t) => t.userTerminalId === userTerminalId);
      fetched = { accountNumber: listing.accountNumber, terminal, line: undefined, product: undefined, address: undefined, telemetry: undefined };
      if (terminal) {
        const [line, readings] = await Promise.all([
          terminal.serviceLineNumber ? orMissing(provider.getServiceLine(terminal.serviceLineNumber)) : Promise.resolve(undefined),
          provider.queryTelemetry([userTerminalId]),
        ]);
        fetched.line = line;
        fetched.telemetry = readings.userTerminals[userTerminalId];
        if (line) {
          const [product, address] = await Promise.all([
            productFor(provider, line.productReferenceId, accountId),
            line.addressReferenceId ? orMissing(provider.getAddress(line.addressReferenceId)) : Promise.resolve(undefined),
          ]);
          fetched.product = product;
          fetched.address = address;
        }
      }
    } catch (error) {
      throw providerFailure(error, TERMINAL_SYNC_MESSAGES.refreshFailed);
    }

    const { terminal, accountNumber } = fetched;
    if (!terminal) {
      if (!stored) throw new NotFoundError(TERMINAL_SYNC_MESSAGES.terminalNotFound);
      // The provider no longer has it: removed, as the next sync would.
      return db.transaction(async (tx) => {
        const row = (await inventory.markTerminalRemoved(userTerminalId, at, tx)) ?? stored;
        const result: RefreshResult = { userTerminalId, syncStatus: row.syncStatus, lastSyncedAt: row.lastSyncedAt?.toISOString() ?? null };
        await audit.record({ ...context, action: 'terminal.refreshed', targetType: 'terminal', targetId: userTerminalId, before, after: { ...result, removed: true } }, tx);
        return result;
      });
    }

    const record = terminalRecord({ ...fetched, terminal, at });
    const stamp = { runId: null, at, accountId };
    return db.transaction(async (tx) => {
      if (fetched.product) await inventory.upsertProducts([productRow(fetched.product, accountNumber, accountId)], at, tx);
      if (fetched.address) await inventory.upsertAddresses([addressRow(fetched.address, accountNumber, accountId)], at, tx);
      if (fetched.line) await inventory.upsertServiceLines([serviceLineRow(fetched.line, accountNumber, accountId)], at, tx);
      if (record.ok) {
        const kind = classify((await inventory.storedStates([userTerminalId], tx)).get(userTerminalId), record.row.contentHash);
        if (kind === 'unchanged') await inventory.touchSynced([userTerminalId], stamp, tx);
        else await inventory.upsertTerminals([record.row], stamp, tx);
      } else {
        await inventory.markTerminalsFailed([record.failure], stamp, tx);
      }
      if (fetched.telemetry) {
        await inventory.upsertTelemetry([telemetryRow(fetched.telemetry)], at, tx);
        // A refresh is a reading like a sync's: the history keeps it too.
        await repos.telemetryHistory.record([historyReading(fetched.telemetry, at, record.ok && record.row.active).reading], at, tx);
      }
      const result: RefreshResult = { userTerminalId, syncStatus: record.ok ? 'synced' : 'error', lastSyncedAt: at.toISOString() };
      await audit.record({ ...context, action: 'terminal.refreshed', targetType: 'terminal', targetId: userTerminalId, before, after: result }, tx);
      return result;
    });
  }

  /** A product from the stored table; the provider's listing when the table does not have it yet. */
  async function productFor(provider: StarlinkClient, productReferenceId: string, accountId: number): Promise<ProviderProduct | undefined> {
    if (!productReferenceId) return undefined;
    const raw = await inventory.findProductRaw(productReferenceId, accountId);
    if (raw) return raw as ProviderProduct;
    const listing = await provider.listProducts();
    return listing.items.find((p) => p.productReferenceId === productReferenceId);
  }

  return {
    /** The job queue, once it exists (app.ts wires it after both are built). */
    attachDispatcher(next: SyncDispatcher | null): void {
      dispatcher = next;
    },

    /**
     * POST /terminals/sync: a manual inventory run of one account, or of every account whose
     * syncs may run (disabled and refused ones wait); 409 when each already has one queued or running.
     */
    async startSync(input: { trigger: SyncTrigger; requestedBy: string | null; accountId?: number | undefined }, context?: RequestContext): Promise<SyncJob> {
      if (!deps.provider) throw new ServiceUnavailableError(deps.noProvider);
      // One account: it must exist and be enabled (404, 409), whatever its last sync said.
      if (input.accountId !== undefined) await deps.provider.access(input.accountId);
      const accounts = input.accountId === undefined ? await deps.provider.working() : [input.accountId];
      const started: SyncRunRow[] = [];
      for (const accountId of accounts) {
        const row = await tryStart({ kind: 'inventory', accountId, trigger: input.trigger, requestedBy: input.requestedBy });
        if (row) started.push(row);
      }
      const first = started[0];
      if (!first) throw new ConflictError(TERMINAL_SYNC_MESSAGES.alreadyRunning);
      if (context) {
        for (const row of started) {
          await audit.record({ ...context, action: 'terminal.sync_started', targetType: 'sync_run', targetId: row.id, after: { kind: row.kind, trigger: row.trigger, accountId: row.accountId } });
        }
      }
      return toSyncJob(first, (await repos.providerAccounts.find(first.accountId))?.name ?? null);
    },

    /** For the scheduler and the workers: a run of `kind` unless one is already queued or running. */
    tryStart,

    async getJob(id: string): Promise<SyncJob> {
      const row = await runs.findById(id);
      if (!row) throw new NotFoundError(TERMINAL_SYNC_MESSAGES.jobNotFound);
      return toSyncJob(row, (await repos.providerAccounts.find(row.accountId))?.name ?? null);
    },

    /**
     * The inventory run in progress (any account's), and the recent runs of every account, each
     * naming its account; with `accountId`, that account's only (an unknown one has none).
     */
    async queue(accountId: number | null = null): Promise<SyncQueue> {
      const every = await repos.providerAccounts.list();
      const names = new Map(every.map((a) => [a.id, a.name]));
      const accounts = accountId === null ? every.map((a) => a.id) : [accountId];
      const [actives, recent] = await Promise.all([Promise.all(accounts.map((id) => runs.active('inventory', id))), runs.recent(settings.recentRuns, accountId)]);
      const active = actives.find((row) => row !== null) ?? null;
      const job = (row: SyncRunRow) => toSyncJob(row, names.get(row.accountId) ?? null);
      return { active: active ? job(active) : null, recent: recent.map(job) };
    },

    /** True when the account never had a terminal stored: its first sync runs at once so the portal has data. */
    async inventoryIsEmpty(accountId: number): Promise<boolean> {
      return (await inventory.countAll(accountId)) === 0;
    },

    syncInventory,
    syncUsage,
    refreshTerminal,
  };
}

/** Added (never stored, or back after removal), updated (new hash) or unchanged. */
function classify(stored: StoredTerminalState | undefined, hash: string): 'added' | 'updated' | 'unchanged' {
  if (!stored || stored.removed) return 'added';
  return stored.contentHash === hash ? 'unchanged' : 'updated';
}
