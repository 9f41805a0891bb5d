// Statements: a customer's charges of a cycle, worked out from the cycle's facts and the
// prices (src/domain/billing.ts), kept as drafts while the cycle runs and closed once it ended.
//
// refresh(cycle): the top-ups the lines bought are copied for the cycle, the partial periods of
// the lines whose plan or dates changed are fetched from the provider, then the live customers are
// read a thousand at a time; each batch is one transaction under the billing lock: its facts, the
// drafts worked out, only those whose content changed written, the drafts no longer produced
// dropped. A closed statement is never written (nor can it be: 0017's guard refuses it).
//
// close(cycle): refresh once more, then in one transaction under the lock every draft gets its
// number and the customer's name and address copied in, the corrections it carries are marked
// applied, and the cycle is closed. A second close, here or in another process, finds the cycle
// closed and does nothing. closeDue() closes the cycle that ended once its final usage is in and
// the list has a price for it; the 'billing-run' job calls it, then refreshes the current cycle.
import { requireWholeOrganisation, scopeOf, type CustomerRef } from '../customer-scope';
import {
  BILLING_MESSAGES as M,
  QUANTITY_UNITS,
  STATEMENT_CSV_COLUMNS,
  buildStatements,
  cycleBounds,
  cycleOf,
  isCycle,
  lineItems,
  resolvePrice,
  shiftCycle,
  statementNumber,
  type PriceEntry,
  type PricedItem,
  type ProductPeriod,
  type StatementContent,
  type StatementListWire,
  type StatementStatus,
  type StatementSummaryWire,
  type StatementWire,
} from '../../../src/domain/billing';
import { csvRow } from '../../../src/domain/csv';
import { paginationOf } from '../../../src/domain/customers';
import { formatMinor } from '../../../src/domain/money';
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import type { Repositories } from '../../db/repositories';
import type { CycleWindow, DraftWrite, ExistingStatement, StatementFilter, StatementItemRow, StatementSummaryRow } from '../../db/repositories/billing/statements';
import { ConflictError, NotFoundError, fieldError } from '../../errors';
import { type AuditService, type RequestContext, SYSTEM_CONTEXT } from '../audit';
import { clientForLine, type ProviderDirectory } from '../../provider-access';
import type { CustomersService } from '../customers';
import { createPacer, type PacerOptions } from '../pacer';

/** Customers worked out per transaction. */
export const REFRESH_BATCH = 1_000;
/** Lines whose top-ups are copied per statement. */
export const TOP_UP_BATCH = 2_000;
/** Partial periods fetched per refresh (each is a provider call); the rest wait for the next one. */
export const PERIOD_CHECKS_PER_REFRESH = 100;
/** A tick refreshes the current cycle's drafts only when nothing else did for this long. */
export const TICK_REFRESH_AFTER_MS = 15 * 60_000;
/** Statements read per page of the CSV export. */
export const EXPORT_PAGE = 500;

export type BillingRunReason = 'sync' | 'tick' | 'prices';

export interface RefreshReport {
  cycle: string;
  /** Drafts the cycle has after the refresh. */
  statements: number;
  /** Drafts written or dropped because their content changed. */
  changed: number;
}

export interface CloseReport {
  cycle: string;
  statements: number;
  totals: { currency: string; statements: number; totalMinor: number }[];
}

export interface StatementListQuery {
  cycle: string | null;
  status: StatementStatus | null;
  customer: string | null;
  search: string | null;
  page: number;
  limit: number;
}

export type StatementExportFilter = Omit<StatementListQuery, 'page' | 'limit' | 'cycle'> & { cycle: string };

export interface StatementsService {
  /** Works the cycle's drafts out again; a closed cycle is left as it is. */
  refresh(cycle: string, options?: { rest?: boolean }): Promise<RefreshReport>;
  /** Closes an ended cycle now (409 when it has not ended or is closed). */
  close(cycle: string, context?: RequestContext): Promise<CloseReport>;
  /** Closes the ended cycles that are due (final usage in, priced); answers what it closed. */
  closeDue(): Promise<CloseReport[]>;
  /** The job: closeDue(), then the current cycle's drafts (on a tick only when they are stale). */
  run(reason: BillingRunReason): Promise<{ closed: CloseReport[]; refreshed: RefreshReport | null }>;
  /** An administrator's "refresh now" of the current cycle, audited. */
  refreshNow(context: RequestContext): Promise<RefreshReport>;
  list(query: StatementListQuery): Promise<StatementListWire>;
  get(id: string): Promise<StatementWire>;
  /** A customer's statements for the admin pages (404 for an unknown customer). */
  ofCustomer(customerId: string): Promise<StatementSummaryWire[]>;
  /** The signed-in customer's own statements, and one of them (404 when not theirs). */
  /** Statements are the whole organisation's money: 403 for a member limited to some lines. */
  mine(customer: CustomerRef): Promise<StatementSummaryWire[]>;
  mineOne(customer: CustomerRef, id: string): Promise<StatementWire>;
  /** The admin's read-only preview of a customer's own statements (404 for an unknown customer). */
  preview(customerId: string): Promise<StatementSummaryWire[]>;
  previewOne(customerId: string, id: string): Promise<StatementWire>;
  /** The CSV export, produced page by page as it is read. */
  exportCsv(filter: StatementExportFilter): AsyncGenerator<string>;
  /** Asks the queue for a billing run (a no-op until the app attaches the queue). */
  requestRun(reason: BillingRunReason): void;
  attachRunRequester(request: (reason: BillingRunReason) => void): void;
}

const SYSTEM = SYSTEM_CONTEXT;

export function windowOf(cycle: string): CycleWindow {
  const { start, end } = cycleBounds(cycle);
  return { cycle, start, end };
}

const lastDayOf = (cycle: string) => {
  const { end } = cycleBounds(cycle);
  return new Date(Date.parse(`${end}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
};

export function toSummaryWire(row: StatementSummaryRow): StatementSummaryWire {
  const { customerCompany: _company, customerAddress: _address, ...summary } = row;
  return summary;
}

export function toStatementWire(row: StatementSummaryRow, items: readonly StatementItemRow[]): StatementWire {
  return {
    ...toSummaryWire(row),
    customerCompany: row.customerCompany,
    customerAddress: row.customerAddress,
    cycleStart: cycleBounds(row.cycle).start,
    cycleEnd: lastDayOf(row.cycle),
    items: items.map((i) => ({
      position: i.position,
      kind: i.kind,
      serviceLineNumber: i.serviceLineNumber,
      productReferenceId: i.productReferenceId,
      description: i.description,
      periodStart: i.periodStart,
      periodEnd: i.periodEnd,
      quantity: i.quantity,
      unitMinor: i.unitMinor,
      amountMinor: i.amountMinor,
      adjustmentId: i.adjustmentId,
    })),
  };
}

/** A provider period as stored: valid instants, a span of some length, one per start. */
function cleanPeriods(periods: readonly { productReferenceId: string; periodStart: string; periodEnd: string }[]): ProductPeriod[] {
  const byStart = new Map<string, ProductPeriod>();
  for (const p of periods) {
    const start = Date.parse(p.periodStart);
    const end = Date.parse(p.periodEnd);
    if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start) continue;
    const span = { productReferenceId: p.productReferenceId, start: new Date(start).toISOString(), end: new Date(end).toISOString() };
    byStart.set(span.start, span);
  }
  return [...byStart.values()];
}

export function createStatementsService(deps: {
  repos: Repositories;
  audit: AuditService;
  now: Clock;
  /** The provider the partial periods come from; null: the stored ones are used as they are. */
  provider: ProviderDirectory | null;
  customers: Pick<CustomersService, 'get'>;
  /** How the batches rest between them on the embedded database (pacer.ts). */
  pacing?: PacerOptions;
  log?: (error: unknown, message: string) => void;
  /** Charges the statements just closed to the customers' ledgers, in the close's transaction. */
  charge?: (tx: Db) => Promise<number>;
}): StatementsService {
  const { repos, audit, now } = deps;
  const store = repos.statements;
  // Fixed sizes: the pacer is here for its rests between transactions, not to size them.
  const customerBatches = createPacer({ first: REFRESH_BATCH, min: REFRESH_BATCH, max: REFRESH_BATCH }, deps.pacing);
  const topUpBatches = createPacer({ first: TOP_UP_BATCH, min: TOP_UP_BATCH, max: TOP_UP_BATCH }, deps.pacing);
  let requestRun: (reason: BillingRunReason) => void = () => undefined;

  function checkCycle(cycle: string): void {
    if (!isCycle(cycle)) throw fieldError('cycle', M.cycleInvalid);
  }

  async function snapshotTopUps(window: CycleWindow, rest: boolean): Promise<void> {
    const page: { after: string | null } = { after: null };
    for (;;) {
      const read = await topUpBatches.timed(
        async () => {
          const last = await store.snapshotTopUps(window, page.after, TOP_UP_BATCH, now());
          if (last === null) return 0;
          page.after = last;
          return TOP_UP_BATCH;
        },
        { rest },
      );
      if (read === 0) return;
    }
  }

  /** The partial periods of the marked lines, from the provider's background lane; a failed call keeps its mark. */
  async function fetchPeriods(): Promise<void> {
    if (!deps.provider) return;
    await store.dropOrphanPeriodChecks();
    const checks = await store.periodChecks(PERIOD_CHECKS_PER_REFRESH);
    if (checks.length === 0) return;
    const directory = deps.provider;
    for (const check of checks) {
      let periods: ProductPeriod[];
      try {
        // Each line at the provider account it lives under, through that account's background lane.
        const client = (await clientForLine(directory, repos.serviceLines, check.serviceLineNumber)).background();
        periods = cleanPeriods(await client.listPartialPeriods(check.serviceLineNumber));
      } catch (error) {
        deps.log?.(error, `Billing could not read the partial periods of ${check.serviceLineNumber}; it tries again on the next run`);
        continue;
      }
      await store.transaction((tx) => store.replacePeriods(check.serviceLineNumber, check.mark, periods, now(), tx));
    }
  }

  /** A batch's drafts: per customer, their lines priced and built into a statement per currency. */
  async function workOutBatch(customerIds: string[], window: CycleWindow, list: PriceEntry[], nameOf: (id: string) => string, tx: Db) {
    const [lines, own, pending] = [await store.heldLines(customerIds, window, tx), await repos.billingPrices.customerEntries(customerIds, tx), await store.pendingAdjustments(customerIds, tx)];
    const linesOf = new Map<string, typeof lines>();
    for (const line of lines) {
      const held = linesOf.get(line.customerId) ?? [];
      held.push(line);
      linesOf.set(line.customerId, held);
    }
    const produced = new Map<string, StatementContent[]>();
    for (const customerId of customerIds) {
      const prices = own.get(customerId) ?? [];
      const priceOf = (product: string) => resolvePrice(list, prices, product, window.start);
      const priced: PricedItem[] = [];
      for (const line of linesOf.get(customerId) ?? []) priced.push(...lineItems(line, window.cycle, priceOf, nameOf).priced);
      const contents = buildStatements(priced, pending.get(customerId) ?? []);
      if (contents.length > 0) produced.set(customerId, contents);
    }
    return produced;
  }

  /** What a batch writes: the drafts whose content changed, and the drafts no longer produced. */
  function compare(produced: Map<string, StatementContent[]>, existing: readonly ExistingStatement[]) {
    const known = new Map(existing.map((s) => [`${s.customerId}|${s.currency}`, s]));
    const writes: DraftWrite[] = [];
    const kept = new Set<string>();
    for (const [customerId, contents] of produced) {
      for (const content of contents) {
        const key = `${customerId}|${content.currency}`;
        kept.add(key);
        const current = known.get(key);
        if (current?.status === 'closed' || current?.contentHash === content.hash) continue;
        writes.push({ customerId, content });
      }
    }
    const dropped = existing.filter((s) => s.status === 'draft' && !kept.has(`${s.customerId}|${s.currency}`)).map((s) => s.id);
    return { writes, dropped, drafts: kept.size };
  }

  async function refresh(cycle: string, { rest = true }: { rest?: boolean } = {}): Promise<RefreshReport> {
    checkCycle(cycle);
    const window = windowOf(cycle);
    const report: RefreshReport = { cycle, statements: 0, changed: 0 };
    // A cycle to come has nothing to bill yet; a closed one is final.
    if (cycle > cycleOf(now()) || (await store.cycleStatus(cycle)) === 'closed') return report;
    await snapshotTopUps(window, rest);
    const list = await repos.billingPrices.listEntries();
    // Without a price list nothing is billed: the provider is not asked for periods no one reads.
    if (list.length > 0) await fetchPeriods();
    const names = await store.productNames();
    const nameOf = (id: string) => names.get(id) ?? id;

    const progress: { after: string | null; closed: boolean } = { after: null, closed: false };
    for (;;) {
      const read = await customerBatches.timed(
        async () => {
          const ids = await store.customerPage(progress.after, REFRESH_BATCH);
          if (ids.length === 0) return 0;
          progress.after = ids[ids.length - 1]!;
          const done = await store.transaction(async (tx) => {
            await store.lock(tx);
            // Closed while this refresh ran: its statements are final.
            if ((await store.cycleStatus(cycle, tx)) === 'closed') return null;
            const produced = await workOutBatch(ids, window, list, nameOf, tx);
            const { writes, dropped, drafts } = compare(produced, await store.statementsOf(ids, cycle, tx));
            const at = now();
            const changed = (await store.writeDrafts(cycle, writes, at, tx)) + (await store.dropDrafts(dropped, at, tx));
            return { drafts, changed };
          });
          if (!done) {
            progress.closed = true;
            return 0;
          }
          report.statements += done.drafts;
          report.changed += done.changed;
          return ids.length;
        },
        { rest },
      );
      if (progress.closed || read < REFRESH_BATCH) break;
    }
    if (progress.closed) return { ...report, statements: 0, changed: 0 };
    report.changed += await store.transaction(async (tx) => {
      await store.lock(tx);
      if ((await store.cycleStatus(cycle, tx)) === 'closed') return 0;
      const changed = await store.dropDrafts(await store.draftsOfDeletedCustomers(cycle, tx), now(), tx);
      await store.markRefreshed(cycle, now(), tx);
      return changed;
    });
    return report;
  }

  /** Refresh, then close in one transaction; null when the cycle was closed meanwhile (by another run). */
  async function closeCycle(cycle: string, context: RequestContext, rest: boolean): Promise<CloseReport | null> {
    for (let attempt = 0; attempt < 3; attempt++) {
      await refresh(cycle, { rest });
      const outcome = await store.transaction(async (tx) => {
        await store.lock(tx);
        if ((await store.holdCycle(cycle, tx)) === 'closed') return 'closed' as const;
        if ((await store.takenAdjustments(cycle, tx)) > 0) return 'stale' as const;
        const at = now();
        const numbered = (await store.numberDrafts(cycle, tx)).map((d) => ({ id: d.id, number: statementNumber(cycle, d.sequence) }));
        const statements = await store.closeDrafts(cycle, numbered, at, tx);
        const adjustments = await store.applyAdjustments(cycle, tx);
        if (deps.charge) await deps.charge(tx);
        await store.markClosed(cycle, at, tx);
        const totals = await store.closedTotals(cycle, tx);
        await audit.record({ ...context, action: 'billing.cycle_closed', targetType: 'billing_cycle', targetId: cycle, after: { statements, adjustments, totals } }, tx);
        return { cycle, statements, totals };
      });
      if (outcome === 'closed') return null;
      if (outcome !== 'stale') return outcome;
      // A correction on these drafts went onto another cycle's statement meanwhile: work them out again.
    }
    throw new Error(`The drafts of ${cycle} kept changing while it was being closed`);
  }

  async function closeDue(): Promise<CloseReport[]> {
    const current = cycleOf(now());
    // The cycle that just ended, and any older one billing worked on and never closed (oldest first,
    // so a correction lands on the earliest statement due).
    const due = [...new Set([...(await store.openCyclesBefore(current)), shiftCycle(current, -1)])].sort();
    const closed: CloseReport[] = [];
    for (const cycle of due) {
      if ((await store.cycleStatus(cycle)) === 'closed') continue;
      const ready = await store.readyToClose(windowOf(cycle));
      if (!ready.priced || !ready.usageSynced) continue;
      const report = await closeCycle(cycle, SYSTEM, true);
      if (report) closed.push(report);
    }
    return closed;
  }

  async function listRows(query: StatementListQuery): Promise<StatementListWire> {
    const filter: StatementFilter = { cycle: query.cycle, status: query.status, customerId: query.customer, search: query.search?.trim() || null };
    const { rows, total } = await store.list(filter, { offset: (query.page - 1) * query.limit, limit: query.limit });
    return {
      items: rows.map(toSummaryWire),
      pagination: paginationOf(total, query.page, query.limit),
      totals: await store.totals(filter),
      cycles: await store.cycles(),
    };
  }

  async function one(id: string, customerId: string | null): Promise<StatementWire> {
    const row = await store.byId(id, customerId);
    if (!row) throw new NotFoundError(M.statementNotFound);
    return toStatementWire(row, await store.items([row.id]));
  }

  return {
    refresh,

    async close(cycle, context = SYSTEM) {
      checkCycle(cycle);
      if (cycle >= cycleOf(now())) throw new ConflictError(M.cycleNotEnded);
      if ((await store.cycleStatus(cycle)) === 'closed') throw new ConflictError(M.cycleClosed);
      const report = await closeCycle(cycle, context, false);
      if (!report) throw new ConflictError(M.cycleClosed);
      return report;
    },

    closeDue,

    async run(reason) {
      const closed = await closeDue();
      const current = cycleOf(now());
      if (reason === 'tick' && closed.length === 0) {
        // Syncs and price changes ask for their own refresh: the minute's tick only makes good a
        // month that turned, a request that was lost, or a correction nobody announced.
        const last = await store.refreshedAt(current);
        if (last && now().getTime() - last.getTime() < TICK_REFRESH_AFTER_MS) return { closed, refreshed: null };
      }
      return { closed, refreshed: await refresh(current) };
    },

    async refreshNow(context) {
      const report = await refresh(cycleOf(now()), { rest: false });
      await audit.record({ ...context, action: 'billing.statements_refreshed', targetType: 'billing_cycle', targetId: report.cycle, after: { ...report } });
      return report;
    },

    list: listRows,

    get: (id) => one(id, null),

    async ofCustomer(customerId) {
      await deps.customers.get(customerId);
      return (await store.ofCustomer(customerId)).map(toSummaryWire);
    },

    async mine(customer) {
      const scope = scopeOf(customer);
      requireWholeOrganisation(scope);
      return (await store.ofCustomer(scope.customerId)).map(toSummaryWire);
    },

    async mineOne(customer, id) {
      const scope = scopeOf(customer);
      requireWholeOrganisation(scope);
      return one(id, scope.customerId);
    },

    async preview(customerId) {
      await deps.customers.get(customerId);
      return (await store.ofCustomer(customerId)).map(toSummaryWire);
    },

    async previewOne(customerId, id) {
      await deps.customers.get(customerId);
      return one(id, customerId);
    },

    async *exportCsv(filter) {
      const where: StatementFilter = { cycle: filter.cycle, status: filter.status, customerId: filter.customer, search: filter.search?.trim() || null };
      yield csvRow(STATEMENT_CSV_COLUMNS);
      let after: { customerId: string; currency: string } | null = null;
      for (;;) {
        const page = await store.exportPage(where, after, EXPORT_PAGE);
        const byStatement = new Map<string, StatementItemRow[]>();
        for (const item of page.items) {
          const items = byStatement.get(item.statementId) ?? [];
          items.push(item);
          byStatement.set(item.statementId, items);
        }
        let chunk = '';
        for (const s of page.statements) {
          const money = (minor: number | null) => (minor === null ? null : formatMinor(minor, s.currency));
          for (const i of byStatement.get(s.id) ?? []) {
            chunk += csvRow([
              s.number,
              s.status,
              s.cycle,
              s.customerId,
              s.customerName,
              s.customerEmail,
              s.currency,
              i.kind,
              i.serviceLineNumber,
              i.productReferenceId,
              i.description,
              i.periodStart,
              i.periodEnd,
              i.quantity,
              QUANTITY_UNITS[i.kind],
              money(i.unitMinor),
              money(i.amountMinor),
              money(s.totalMinor),
            ]);
          }
        }
        if (chunk) yield chunk;
        const last = page.statements.at(-1);
        if (!last || page.statements.length < EXPORT_PAGE) return;
        after = { customerId: last.customerId, currency: last.currency };
      }
    },

    requestRun: (reason) => requestRun(reason),

    attachRunRequester(request) {
      requestRun = request;
    },
  };
}
