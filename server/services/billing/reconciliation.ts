// Reconciliation: the provider's invoices imported, and the board of a cycle — what the
// provider charges the reseller line by line against what the statements bill, every place the
// money leaks with the amount at stake, and a fix for each.
//
// The provider's cost of a line is its imported invoice's lines (the cycle's invoice, when there
// is one), else an estimate: the domain's `lineItems` priced by the provider's own prices for the
// lines that had service in the cycle. Who holds a line in the cycle is the customer its
// statement bills, else the customer holding it now. Invoice lines naming no service line are
// cost, never a leak. What a line is billed for its plan and overage is its statement items less
// their share of the statement's discount (a discount line names no line; it is allocated over the
// items by amount), so a discount that takes a line under cost shows. Leaks are worked out afresh
// on every read (nothing about them is stored but what an administrator did about one), so a fix
// is checked against the board as it is now, and a leak already dealt with is not fixed twice.
import {
  BILLING_MESSAGES as M,
  LEAK_KINDS,
  cycleBounds,
  cycleOf,
  feePeriods,
  isCycle,
  lineItems,
  priceOn,
  resolvePrice,
  shiftCycle,
  type CustomerPriceEntry,
  type FixAction,
  type FixBody,
  type LeakKind,
  type LeakWire,
  type LineCycleFacts,
  type ReconciliationWire,
  type ResolvedPrice,
} from '../../../src/domain/billing';
import { CURRENCY_PATTERN, MoneyError, allocate, currencyExponent, formatMoney, multiply, sumMinor } from '../../../src/domain/money';
import { DEFAULT_CURRENCY } from '../../../src/domain/subscriptions';
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import type { Repositories } from '../../db/repositories';
import type { CustomerPriceEntryRow } from '../../db/repositories/billing/prices';
import type { NewProviderInvoice, NewProviderInvoiceLine } from '../../db/repositories/billing/provider-invoices';
import type { BoardCustomer, BoardLine, CycleInvoiceLine, CycleStatementItem, ProviderProductRow } from '../../db/repositories/billing/reconciliation';
import { BadGatewayError, ConflictError, NotFoundError, ServiceUnavailableError, fieldError } from '../../errors';
import type { ProviderInvoiceDetail, ProviderInvoiceSummary } from '../../provider/schemas';
import { type AuditService, type RequestContext, SYSTEM_CONTEXT } from '../audit';
import type { ProviderDirectory } from '../../provider-access';
import { providerFailure } from '../provider-failures';
import type { ServiceLinesService } from '../service-lines';

export const RECONCILIATION_SERVER_MESSAGES = {
  importFailed: 'Could not import the provider\u2019s invoices',
  invoiceRefused: (problems: readonly string[]) => `The provider sent invoices the portal cannot import: ${problems.join('; ')}`,
  cycleAhead: 'The board covers the running cycle and earlier ones',
  alreadyResolved: 'This leak has already been dealt with',
  cancelReason: 'Billed by the provider and not billed to an active customer (reconciliation)',
  accountNotFound: 'Provider account not found',
} as const;
const S = RECONCILIATION_SERVER_MESSAGES;

export interface InvoiceImportResult {
  /** Invoices written for the first time. */
  imported: number;
  /** Invoices already imported whose status or due date changed. */
  updated: number;
}

export interface ReconciliationService {
  /** Imports the provider's invoices not imported yet and refreshes the status of the others. */
  importInvoices(context?: RequestContext): Promise<InvoiceImportResult>;
  /** One provider account's board of a cycle; null: the running one, the first account. */
  board(cycle: string | null, accountId?: number | null): Promise<ReconciliationWire>;
  fix(body: FixBody, context: RequestContext): Promise<{ leak: LeakWire }>;
}

/** 'YYYY-MM' from 1900 on: earlier years are not dates the database's cycles can name. */
export const isBoardCycle = (text: string) => isCycle(text) && Number(text.slice(0, 4)) >= 1900;

const SYSTEM = SYSTEM_CONTEXT;
const userOf = (context: RequestContext) => (context.actor.type === 'user' ? context.actor.id : null);

// ---- Money from the provider -------------------------------------------------------------------

/**
 * A provider amount (a decimal in major units) in minor units of `currency`: exact when it has no
 * more decimals than the currency, else rounded once by the money module's rule. A value that is
 * not a finite amount in the safe range throws MoneyError.
 */
export const providerMinor = (amount: number | string, currency: string): number => multiply(10 ** currencyExponent(currency), amount);

/** The month most of the lines' service periods start in; else the month before the invoice date. */
export function invoiceCycle(starts: readonly (string | null)[], invoiceDate: string): string {
  const counts = new Map<string, number>();
  for (const start of starts) {
    if (!start || Number.isNaN(Date.parse(start))) continue;
    const cycle = cycleOf(start);
    counts.set(cycle, (counts.get(cycle) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const [cycle, n] of [...counts].sort(([a], [b]) => a.localeCompare(b))) if (best === null || n > counts.get(best)!) best = cycle;
  return best ?? shiftCycle(cycleOf(invoiceDate), -1);
}

const dateOrNull = (value: string | null | undefined): Date | null => {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms);
};

/** The rows an invoice is stored as, or why it cannot be. */
export function invoiceRows(summary: ProviderInvoiceSummary, detail: ProviderInvoiceDetail): { invoice: NewProviderInvoice; lines: NewProviderInvoiceLine[] } | { problem: string } {
  const id = summary.invoiceId;
  const currency = (detail.currency ?? summary.currency ?? DEFAULT_CURRENCY).trim().toUpperCase();
  if (!CURRENCY_PATTERN.test(currency)) return { problem: `${id}: its currency is not an ISO 4217 code` };
  const invoiceDate = dateOrNull(detail.invoiceDate) ?? dateOrNull(summary.invoiceDate);
  if (!invoiceDate) return { problem: `${id}: its date is not a date` };
  try {
    const lines: NewProviderInvoiceLine[] = [];
    for (const line of detail.invoiceLines) {
      const amountMinor = sumMinor([providerMinor(line.subTotal, currency), providerMinor(line.taxAmount, currency)]);
      const numbers = [...new Set(line.serviceLineNumbers.map((n) => n.trim()).filter((n) => n.length > 0))];
      const shares = numbers.length > 0 ? allocate(amountMinor, numbers.map(() => 1)) : [amountMinor];
      shares.forEach((share, k) =>
        lines.push({
          position: lines.length,
          productReferenceId: line.productReferenceId,
          description: line.productDescription,
          serviceLineNumber: numbers[k] ?? null,
          quantity: decimalText(line.quantity),
          unitPrice: decimalText(line.unitPrice),
          amountMinor: share,
          periodStart: dateOrNull(line.servicePeriodStartDate),
          periodEnd: dateOrNull(line.servicePeriodEndDate),
        }),
      );
    }
    return {
      invoice: {
        invoiceId: id,
        cycle: invoiceCycle(
          detail.invoiceLines.map((l) => l.servicePeriodStartDate),
          invoiceDate.toISOString(),
        ),
        currency,
        amountMinor: providerMinor(summary.amount, currency),
        invoiceDate,
        dueDate: dateOrNull(detail.dueDate ?? summary.dueDate),
        status: summary.status,
      },
      lines,
    };
  } catch (error) {
    if (error instanceof MoneyError) return { problem: `${id}: an amount is not money (${error.message})` };
    throw error;
  }
}

/** A JS number as a decimal the database's numeric reads exactly (never "1e-7"). */
function decimalText(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(20).replace(/\.?0+$/, '') : text;
}

// ---- The provider's prices -----------------------------------------------------------------------

interface RawProduct {
  dataProducts?: { topUpProduct?: { productId?: unknown; price?: unknown } | null; overageProduct?: { price?: unknown; pricePerGB?: unknown } | null } | null;
  overage?: { pricePerGB?: unknown } | null;
  overageLine?: { pricePerGB?: unknown } | null;
}

const numberOf = (...values: unknown[]) => values.find((v): v is number => typeof v === 'number' && Number.isFinite(v)) ?? null;

/** The provider's prices of its products, as a price the domain's rules take, in one currency. */
function providerPrices(products: readonly ProviderProductRow[], currency: string): Map<string, ResolvedPrice> {
  const prices = new Map<string, ResolvedPrice>();
  for (const product of products) {
    if (product.price === null || (product.currency ?? currency) !== currency) continue;
    const raw = (product.raw ?? {}) as RawProduct;
    const overage = numberOf(raw.dataProducts?.overageProduct?.pricePerGB, raw.dataProducts?.overageProduct?.price, raw.overage?.pricePerGB, raw.overageLine?.pricePerGB);
    const topUp = numberOf(raw.dataProducts?.topUpProduct?.price);
    try {
      prices.set(product.productReferenceId, {
        productReferenceId: product.productReferenceId,
        currency,
        monthlyMinor: providerMinor(product.price, currency),
        overagePerGbMinor: overage === null ? 0 : providerMinor(overage, currency),
        topUpMinor: topUp === null ? 0 : providerMinor(topUp, currency),
        discountBp: 0,
      });
    } catch (error) {
      // A product price that is not money prices nothing: its lines' estimate is left out.
      if (!(error instanceof MoneyError)) throw error;
    }
  }
  return prices;
}

/** The product ids the plans sell as top-ups: invoice lines of them are top-up blocks. */
function topUpProductIds(products: readonly ProviderProductRow[]): Set<string> {
  const ids = new Set<string>();
  for (const product of products) {
    const id = ((product.raw ?? {}) as RawProduct).dataProducts?.topUpProduct?.productId;
    if (typeof id === 'string' && id.length > 0) ids.add(id);
  }
  return ids;
}

// ---- The board ---------------------------------------------------------------------------------

/** What a fix needs of a leak beyond its wire. */
interface FixContext {
  /** The product the line ends the cycle on. */
  productReferenceId: string | null;
  customerPriceId: string | null;
  /** The provider's monthly price of the product, when it has one. */
  providerMonthlyMinor: number | null;
  missingBlocks: number;
  topUpMinor: number;
  topUpCurrency: string;
  statementId: string | null;
}

interface Leak {
  wire: LeakWire;
  context: FixContext;
}

interface Board {
  wire: ReconciliationWire;
  leaks: Leak[];
}

const NO_CONTEXT: FixContext = { productReferenceId: null, customerPriceId: null, providerMonthlyMinor: null, missingBlocks: 0, topUpMinor: 0, topUpCurrency: DEFAULT_CURRENCY, statementId: null };

/** Why a customer's holding of a line is a leak, or null for an active customer. */
function inactiveReason(customer: BoardCustomer, cycleEndMs: number): string | null {
  if (customer.deleted) return 'deleted';
  if (customer.blocked) return 'blocked';
  if (customer.expiresAt && customer.expiresAt.getTime() < cycleEndMs) return 'expired';
  return null;
}

const INVOICE_ONLY: readonly LeakKind[] = ['unbilled_top_up', 'invoice_unmatched', 'missing_from_invoice'];

const blocksText = (n: number) => (n === 1 ? '1 top-up block' : `${n} top-up blocks`);

export function createReconciliationService(deps: {
  repos: Repositories;
  audit: AuditService;
  now: Clock;
  provider: ProviderDirectory | null;
  noProvider: string;
  serviceLines: Pick<ServiceLinesService, 'deactivate'>;
}): ReconciliationService {
  const { repos, audit, now } = deps;
  const store = repos.reconciliation;
  const invoices = repos.providerInvoices;
  const prices = repos.billingPrices;

  const directory = () => {
    if (!deps.provider) throw new ServiceUnavailableError(deps.noProvider);
    return deps.provider;
  };

  function checkCycle(cycle: string): void {
    if (!isBoardCycle(cycle)) throw fieldError('cycle', M.cycleInvalid);
    if (cycle > cycleOf(now())) throw fieldError('cycle', S.cycleAhead);
  }

  /** The board's account: the one asked for (404 when there is none such), else the first; and whether it is the first. */
  async function accountOf(accountId: number | null): Promise<{ account: { id: number; name: string; currency: string | null } | null; first: boolean }> {
    const accounts = await repos.providerAccounts.list();
    const account = accountId === null ? (accounts[0] ?? null) : (accounts.find((a) => a.id === accountId) ?? null);
    if (accountId !== null && !account) throw new NotFoundError(S.accountNotFound);
    return { account, first: account === null || account.id === accounts[0]?.id };
  }

  async function workOut(cycle: string, accountId: number | null): Promise<Board> {
    checkCycle(cycle);
    const { account, first } = await accountOf(accountId);
    const id = account?.id ?? 0;
    const bounds = cycleBounds(cycle);
    const cycleEndMs = Date.parse(`${bounds.end}T00:00:00Z`);
    const [cycleInvoices, products] = await Promise.all([store.invoicesOf(cycle, id), store.providerProducts(id)]);
    // The account's own currency (the provider says it when the account connects); before that,
    // its invoices' or its products'.
    const currency = account?.currency ?? cycleInvoices[0]?.currency ?? commonCurrency(products) ?? DEFAULT_CURRENCY;
    const ownInvoices = cycleInvoices.filter((i) => i.currency === currency);
    const invoiced = ownInvoices.length > 0;
    const [invoiceLines, served, allStatements, allItems, list] = await Promise.all([
      invoiced ? store.invoiceLinesOf(cycle, currency, id) : Promise.resolve([] as CycleInvoiceLine[]),
      store.servedLineNumbers(bounds.start, bounds.end, id),
      store.statementsOf(cycle),
      store.lineItemsOf(cycle),
      prices.listEntries(),
    ]);
    const statements = allStatements.filter((s) => s.currency === currency);
    const items = allItems.filter((i) => i.currency === currency);
    const onInvoice = new Set(invoiceLines.filter((l) => l.known && l.serviceLineNumber).map((l) => l.serviceLineNumber!));
    const lines = new Map((await store.lines([...new Set([...served, ...onInvoice])], cycle, bounds.start, bounds.end)).map((l) => [l.serviceLineNumber, l]));

    // What the statements bill each line: plan and overage net of the statement's discount share, and top-up blocks.
    const billed = new Map<string, { customerId: string; statementId: string; planOverageMinor: number; topUpBlocks: number }>();
    const discountShare = discountShares(statements, items);
    items.forEach((item, k) => {
      if (!item.serviceLineNumber) return;
      const entry = billed.get(item.serviceLineNumber) ?? { customerId: item.customerId, statementId: item.statementId, planOverageMinor: 0, topUpBlocks: 0 };
      if (item.kind === 'top_up') entry.topUpBlocks += Math.round(Number(item.quantity));
      else entry.planOverageMinor += item.amountMinor + (discountShare[k] ?? 0);
      billed.set(item.serviceLineNumber, entry);
    });
    // The account's lines billed in another currency are listed apart and never compared: their
    // billing says nothing of this currency's cost, so they raise no leak of billing either.
    const elsewhere = new Map<string, { lines: Set<string>; billedMinor: number }>();
    for (const item of allItems) {
      if (item.currency === currency || item.accountId !== id || !item.serviceLineNumber) continue;
      const entry = elsewhere.get(item.currency) ?? { lines: new Set<string>(), billedMinor: 0 };
      entry.lines.add(item.serviceLineNumber);
      entry.billedMinor += item.amountMinor;
      elsewhere.set(item.currency, entry);
    }
    const billedElsewhere = new Set([...elsewhere.values()].flatMap((e) => [...e.lines]));
    const statementOf = new Map(statements.map((s) => [s.customerId, s.id]));

    const numbers = [...lines.keys()];
    const holdersNow = await store.holders(numbers.filter((n) => !billed.has(n)));
    const holderOf = (line: string) => billed.get(line)?.customerId ?? holdersNow.get(line) ?? null;
    const holderIds = [...new Set(numbers.map(holderOf).filter((id): id is string => id !== null))];
    const [customers, own] = await Promise.all([store.customers(holderIds), prices.customerEntries(holderIds)]);

    // The provider's side: its prices (for estimates) and each line's cost.
    const provider = providerPrices(products, currency);
    const nameOf = (id: string) => products.find((p) => p.productReferenceId === id)?.name ?? id;
    const estimate = (line: BoardLine): { total: number; planOverage: number } | null => {
      const facts = factsOf(line);
      if (feePeriods(facts, cycle).length === 0) return null;
      const { priced } = lineItems(facts, cycle, (id) => provider.get(id) ?? null, nameOf);
      return {
        total: sumMinor(priced.map((p) => p.item.amountMinor)),
        planOverage: sumMinor(priced.filter((p) => p.item.kind !== 'top_up').map((p) => p.item.amountMinor)),
      };
    };
    const topUpIds = topUpProductIds(products);
    const isTopUp = (l: CycleInvoiceLine) => (l.productReferenceId !== null && topUpIds.has(l.productReferenceId)) || /top-?\s?up/i.test(l.description ?? '');
    const cost = new Map<string, { total: number; planOverage: number; topUpBlocks: number }>();
    if (invoiced) {
      for (const l of invoiceLines) {
        if (!l.known || !l.serviceLineNumber) continue;
        const entry = cost.get(l.serviceLineNumber) ?? { total: 0, planOverage: 0, topUpBlocks: 0 };
        entry.total += l.amountMinor;
        if (isTopUp(l)) entry.topUpBlocks += Math.round(Number(l.quantity ?? 0));
        else entry.planOverage += l.amountMinor;
        cost.set(l.serviceLineNumber, entry);
      }
    } else {
      for (const line of lines.values()) {
        const e = estimate(line);
        if (e) cost.set(line.serviceLineNumber, { total: e.total, planOverage: e.planOverage, topUpBlocks: 0 });
      }
    }

    const leaks: Leak[] = [];
    const add = (wire: Omit<LeakWire, 'resolution'>, context: Partial<FixContext> = {}) => leaks.push({ wire: { ...wire, resolution: null }, context: { ...NO_CONTEXT, ...context } });
    const money = (minor: number) => formatMoney(minor, currency);
    const nextStart = cycleBounds(shiftCycle(cycleOf(now()), 1)).start;

    for (const [number, lineCost] of [...cost].sort(([a], [b]) => a.localeCompare(b))) {
      const line = lines.get(number)!;
      const holder = holderOf(number);
      const cancellable = line.active && !line.removed && line.endDate === null;
      const lineFixes: FixAction[] = cancellable ? ['cancel_line', 'mark_checked'] : ['mark_checked'];
      const product = lastProduct(line, cycle);
      const base = { serviceLineNumber: number, key: number };
      if (!holder) {
        if (lineCost.total > 0) {
          add(
            { ...base, kind: 'unassigned', customerId: null, customerName: null, amountMinor: lineCost.total, fixes: lineFixes, detail: `The provider charges ${money(lineCost.total)} for this line in ${cycle}, and no customer holds it.` },
            { productReferenceId: product },
          );
        }
        continue;
      }
      const customer = customers.get(holder);
      if (!customer) continue;
      const who = { customerId: customer.id, customerName: customer.name };
      const why = inactiveReason(customer, cycleEndMs);
      if (why) {
        if (lineCost.total > 0) {
          add(
            { ...base, kind: 'inactive_customer', ...who, amountMinor: lineCost.total, fixes: lineFixes, detail: `${customer.name} holds this line but is ${why}; the provider charges ${money(lineCost.total)} for it in ${cycle}.` },
            { productReferenceId: product },
          );
        }
        continue;
      }
      if (billedElsewhere.has(number) && !billed.has(number)) continue;
      const bill = billed.get(number);
      const billedMinor = bill?.planOverageMinor ?? 0;
      if (billedMinor < lineCost.planOverage) {
        const ownRow = product ? customerPriceToEnd(own.get(customer.id) ?? [], product, bounds.start, nextStart) : null;
        const providerMonthly = product ? (provider.get(product)?.monthlyMinor ?? null) : null;
        const fixes: FixAction[] = ownRow ? ['end_customer_price'] : providerMonthly !== null ? ['raise_list_price'] : ['mark_checked'];
        add(
          {
            ...base,
            kind: 'below_cost',
            ...who,
            amountMinor: lineCost.planOverage - billedMinor,
            fixes,
            detail: `${customer.name} is billed ${money(billedMinor)} for this line\u2019s plan and overage in ${cycle}; the provider charges ${money(lineCost.planOverage)}.`,
          },
          { productReferenceId: product, customerPriceId: ownRow?.id ?? null, providerMonthlyMinor: providerMonthly },
        );
      }
      const missing = lineCost.topUpBlocks - (bill?.topUpBlocks ?? 0);
      if (invoiced && missing > 0) {
        const resolved = product ? resolvePrice(list, own.get(customer.id) ?? [], product, bounds.start) : null;
        const unit = resolved?.topUpMinor ?? (product ? (provider.get(product)?.topUpMinor ?? 0) : 0);
        const unitCurrency = resolved?.currency ?? currency;
        if (unit > 0) {
          add(
            {
              ...base,
              kind: 'unbilled_top_up',
              ...who,
              amountMinor: unit * missing,
              fixes: ['bill_top_ups'],
              detail: `The provider billed ${blocksText(lineCost.topUpBlocks)} on this line in ${cycle}; ${customer.name}\u2019s statement has ${bill?.topUpBlocks ?? 0}.`,
            },
            { productReferenceId: product, missingBlocks: missing, topUpMinor: unit, topUpCurrency: unitCurrency, statementId: bill?.statementId ?? statementOf.get(customer.id) ?? null },
          );
        }
      }
    }

    if (invoiced) {
      for (const l of invoiceLines) {
        if (!l.serviceLineNumber || l.known || l.amountMinor <= 0) continue;
        add({
          kind: 'invoice_unmatched',
          key: `${l.invoiceId}:${l.position}`,
          serviceLineNumber: l.serviceLineNumber,
          customerId: null,
          customerName: null,
          amountMinor: l.amountMinor,
          fixes: ['dispute'],
          detail: `Invoice ${l.invoiceId} charges ${money(l.amountMinor)} for ${l.serviceLineNumber}${l.description ? ` (${l.description})` : ''}, a line the inventory does not have.`,
        });
      }
      for (const number of served) {
        if (onInvoice.has(number)) continue;
        const line = lines.get(number);
        const e = line ? estimate(line) : null;
        if (!line || !e) continue;
        const holder = holderOf(number);
        const customer = holder ? customers.get(holder) : undefined;
        add(
          {
            kind: 'missing_from_invoice',
            key: number,
            serviceLineNumber: number,
            customerId: customer?.id ?? null,
            customerName: customer?.name ?? null,
            amountMinor: e.total,
            fixes: ['mark_checked'],
            detail: `This line had service in ${cycle} but is not on the provider\u2019s invoice; its cost would be about ${money(e.total)}.`,
          },
          { productReferenceId: lastProduct(line, cycle) },
        );
      }
    }

    const resolutions = new Map((await store.resolutions(cycle)).map((r) => [`${r.kind}\u0000${r.key}`, r]));
    for (const leak of leaks) {
      const r = resolutions.get(`${leak.wire.kind}\u0000${leak.wire.key}`);
      if (r) leak.wire.resolution = { action: r.action as FixAction, at: r.at.toISOString(), by: r.by, note: r.note };
    }
    const order = (kind: LeakKind) => LEAK_KINDS.indexOf(kind);
    leaks.sort((a, b) => b.wire.amountMinor - a.wire.amountMinor || order(a.wire.kind) - order(b.wire.kind) || a.wire.key.localeCompare(b.wire.key));

    const open = leaks.filter((l) => l.wire.resolution === null);
    const kinds = LEAK_KINDS.filter((k) => invoiced || !INVOICE_ONLY.includes(k));
    const providerCostMinor = invoiced ? sumMinor(ownInvoices.map((i) => i.amountMinor)) : sumMinor([...cost.values()].map((c) => c.total));
    const mine = accountShares(statements, items, id, first);
    const billedMinor = sumMinor([...mine.values()]);
    return {
      leaks,
      wire: {
        cycle,
        account: account ? { id: account.id, name: account.name } : null,
        currency,
        invoice: invoiced
          ? { invoiceId: ownInvoices[0]!.invoiceId, amountMinor: sumMinor(ownInvoices.map((i) => i.amountMinor)), status: ownInvoices[0]!.status }
          : null,
        costEstimated: !invoiced,
        totals: { providerCostMinor, billedMinor, marginMinor: billedMinor - providerCostMinor, statements: mine.size },
        leaks: leaks.map((l) => l.wire),
        byKind: kinds.map((kind) => {
          const mine = open.filter((l) => l.wire.kind === kind);
          return { kind, count: mine.length, amountMinor: sumMinor(mine.map((l) => l.wire.amountMinor)) };
        }),
        openLeakMinor: sumMinor(open.map((l) => l.wire.amountMinor)),
        otherCurrencies: [...elsewhere]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([other, e]) => ({ currency: other, lines: e.lines.size, billedMinor: e.billedMinor })),
      },
    };
  }

  // ---- Fixes ---------------------------------------------------------------------------------

  /** Records the resolution (refused when the leak already has one) and the audit row, in `tx`. */
  async function resolve(body: FixBody, leak: Leak, note: string | null, context: RequestContext, tx: Db, after: Record<string, unknown> = {}) {
    const recorded = await store.insertResolution({ cycle: body.cycle, kind: body.kind, key: body.key, action: body.action, note, by: userOf(context), at: now() }, tx);
    if (!recorded) throw new ConflictError(S.alreadyResolved);
    await audit.record(
      {
        ...context,
        action: 'billing.leak_fixed',
        targetType: 'billing_leak',
        targetId: `${body.cycle}/${body.kind}/${body.key}`,
        before: { amountMinor: leak.wire.amountMinor, detail: leak.wire.detail },
        after: { action: body.action, note, serviceLineNumber: leak.wire.serviceLineNumber, customerId: leak.wire.customerId, ...after },
      },
      tx,
    );
  }

  async function apply(body: FixBody, leak: Leak, currency: string, note: string | null, context: RequestContext): Promise<void> {
    const c = leak.context;
    const nextStart = cycleBounds(shiftCycle(cycleOf(now()), 1)).start;
    switch (body.action) {
      case 'cancel_line': {
        const number = leak.wire.serviceLineNumber!;
        // The line's own deactivation (provider first, then the line stored with its audit row).
        await deps.serviceLines.deactivate(number, { when: 'end_of_cycle', reason: note ?? S.cancelReason }, context);
        await store.transaction((tx) => resolve(body, leak, note, context, tx, { when: 'end_of_cycle' }));
        return;
      }
      case 'bill_top_ups': {
        const amountMinor = c.topUpMinor * c.missingBlocks;
        await store.transaction(async (tx) => {
          await resolve(body, leak, note, context, tx, { amountMinor, currency: c.topUpCurrency });
          const row = await prices.insertAdjustment(
            {
              customerId: leak.wire.customerId!,
              currency: c.topUpCurrency,
              amountMinor,
              reason: `${blocksText(c.missingBlocks)} on ${leak.wire.serviceLineNumber} in ${body.cycle}, not billed then`,
              source: 'reconciliation',
              againstStatementId: c.statementId,
              createdBy: userOf(context),
            },
            tx,
          );
          await audit.record(
            { ...context, action: 'billing.adjustment_added', targetType: 'billing_adjustment', targetId: row.id, after: { customerId: row.customerId, currency: row.currency, amountMinor, reason: row.reason, source: 'reconciliation' } },
            tx,
          );
        });
        return;
      }
      case 'end_customer_price': {
        await store.transaction(async (tx) => {
          await resolve(body, leak, note, context, tx, { customerPriceId: c.customerPriceId, effectiveUntil: nextStart });
          const ended = await prices.endCustomerPrice(c.customerPriceId!, nextStart, tx);
          if (!ended) throw new NotFoundError(M.customerPriceNotFound);
        });
        return;
      }
      case 'raise_list_price': {
        const product = c.productReferenceId!;
        const current = priceOn(await prices.listEntries(), product, now().toISOString().slice(0, 10));
        const same = current && current.currency === currency ? current : null;
        await store.transaction(async (tx) => {
          const row = await prices.insertPrice(
            {
              productReferenceId: product,
              currency,
              monthlyMinor: c.providerMonthlyMinor!,
              overagePerGbMinor: same?.overagePerGbMinor ?? 0,
              topUpMinor: same?.topUpMinor ?? 0,
              effectiveFrom: nextStart,
              note: note ?? `Raised to the provider\u2019s cost (reconciliation of ${body.cycle})`,
              createdBy: userOf(context),
            },
            tx,
          );
          if (!row) throw new ConflictError(M.priceExists);
          await resolve(body, leak, note, context, tx, { priceId: row.id, productReferenceId: product, monthlyMinor: row.monthlyMinor, effectiveFrom: nextStart });
        });
        return;
      }
      case 'dispute':
      case 'mark_checked':
        await store.transaction((tx) => resolve(body, leak, note, context, tx));
        return;
    }
  }

  return {
    /**
     * Every working account's invoices, one account after another: an account that fails stops
     * neither the others nor the next import, and is said aloud at the end.
     */
    async importInvoices(context = SYSTEM) {
      const totals = { imported: 0, updated: 0 };
      const failures: unknown[] = [];
      for (const accountId of await directory().working()) {
        try {
          const done = await importFor(accountId, context);
          totals.imported += done.imported;
          totals.updated += done.updated;
        } catch (error) {
          failures.push(error);
        }
      }
      if (failures.length > 0) throw failures[0];
      return totals;
    },

    async board(cycle, accountId = null) {
      return (await workOut(cycle ?? cycleOf(now()), accountId)).wire;
    },

    async fix(body, context) {
      const board = await workOut(body.cycle, body.accountId ?? null);
      const leak = board.leaks.find((l) => l.wire.kind === body.kind && l.wire.key === body.key);
      if (!leak) throw new NotFoundError(M.leakNotFound);
      if (!leak.wire.fixes.includes(body.action)) throw fieldError('action', M.fixNotAllowed);
      if (leak.wire.resolution) throw new ConflictError(S.alreadyResolved);
      const note = body.note?.trim() || null;
      await apply(body, leak, board.wire.currency, note, context);
      const recorded = (await store.resolutions(body.cycle)).find((r) => r.kind === body.kind && r.key === body.key);
      return { leak: { ...leak.wire, resolution: recorded ? { action: recorded.action as FixAction, at: recorded.at.toISOString(), by: recorded.by, note: recorded.note } : null } };
    },
  };

  /** One account's invoices. */
  async function importFor(accountId: number, context: RequestContext): Promise<{ imported: number; updated: number }> {
    // The background lane: the import is the billing job's, and people's calls go first.
    const provider = (await directory().access(accountId)).client().background();
    let listing;
    try {
      listing = await provider.listInvoices();
    } catch (error) {
      throw providerFailure(error, S.importFailed);
    }
    const known = await invoices.known(listing.items.map((i) => i.invoiceId));
    let imported = 0;
    let updated = 0;
    const problems: string[] = [];
    for (const summary of listing.items) {
      const stored = known.get(summary.invoiceId);
      if (stored) {
        const dueDate = dateOrNull(summary.dueDate);
        if (stored.status !== summary.status || (stored.dueDate?.getTime() ?? null) !== (dueDate?.getTime() ?? null)) {
          await invoices.transaction(async (tx) => {
            await invoices.updateStatus(summary.invoiceId, { status: summary.status, dueDate }, tx);
            await audit.record(
              { ...context, action: 'billing.provider_invoice_updated', targetType: 'provider_invoice', targetId: summary.invoiceId, before: { status: stored.status }, after: { status: summary.status } },
              tx,
            );
          });
          updated++;
        }
        continue;
      }
      let detail;
      try {
        detail = await provider.getInvoice(summary.invoiceId);
      } catch (error) {
        throw providerFailure(error, S.importFailed);
      }
      const rows = invoiceRows(summary, detail);
      if ('problem' in rows) {
        problems.push(rows.problem);
        continue;
      }
      const written = await invoices.transaction(async (tx) => {
        if (!(await invoices.insert(rows.invoice, rows.lines, accountId, now(), tx))) return false;
        await audit.record(
          {
            ...context,
            action: 'billing.provider_invoice_imported',
            targetType: 'provider_invoice',
            targetId: rows.invoice.invoiceId,
            after: { cycle: rows.invoice.cycle, currency: rows.invoice.currency, amountMinor: rows.invoice.amountMinor, lines: rows.lines.length },
          },
          tx,
        );
        return true;
      });
      if (written) imported++;
    }
    // The others are in: a bad answer stops neither them nor the next import, and is said aloud.
    if (problems.length > 0) throw new BadGatewayError(S.invoiceRefused(problems));
    return { imported, updated };
  }
}

// ---- Pieces of the board -----------------------------------------------------------------------

/** The currency most of the provider's live products are priced in. */
function commonCurrency(products: readonly ProviderProductRow[]): string | null {
  const counts = new Map<string, number>();
  for (const p of products) if (!p.removed && p.currency && CURRENCY_PATTERN.test(p.currency)) counts.set(p.currency, (counts.get(p.currency) ?? 0) + 1);
  return [...counts].sort(([a, x], [b, y]) => y - x || a.localeCompare(b))[0]?.[0] ?? null;
}

const factsOf = (line: BoardLine): LineCycleFacts => ({
  serviceLineNumber: line.serviceLineNumber,
  productReferenceId: line.productReferenceId,
  startDate: line.startDate,
  endDate: line.endDate,
  periods: line.periods,
  overageGb: line.overageGb,
  topUpBlocks: line.topUpBlocks,
});

/** The product the line ends the cycle on. */
function lastProduct(line: BoardLine, cycle: string): string | null {
  return feePeriods(factsOf(line), cycle).at(-1)?.productReferenceId ?? line.productReferenceId;
}

/**
 * What each statement in the board's currency bills the account, by statement: its total (so its
 * discount and corrections too) shared between the accounts in proportion to what its line items
 * bill each. A statement that bills no line (corrections alone) counts on the first account, so
 * that with one account the board's billed total is the statements' total.
 */
function accountShares(statements: readonly { id: string; totalMinor: number }[], items: readonly CycleStatementItem[], accountId: number, first: boolean): Map<string, number> {
  const weights = new Map<string, { mine: number; others: number }>();
  for (const item of items) {
    const w = weights.get(item.statementId) ?? { mine: 0, others: 0 };
    if (item.accountId === accountId) w.mine += Math.max(0, item.amountMinor);
    else w.others += Math.max(0, item.amountMinor);
    weights.set(item.statementId, w);
  }
  const shares = new Map<string, number>();
  for (const statement of statements) {
    const w = weights.get(statement.id) ?? { mine: 0, others: 0 };
    if (w.mine === 0 && w.others === 0) {
      if (first) shares.set(statement.id, statement.totalMinor);
      continue;
    }
    if (w.mine === 0) continue;
    shares.set(statement.id, w.others === 0 ? statement.totalMinor : allocate(statement.totalMinor, [w.mine, w.others])[0]!);
  }
  return shares;
}

/**
 * Each item's share of its statement's discount (a discount line bills no line): the discount
 * allocated over the statement's line items in proportion to their amounts, to the minor unit.
 */
function discountShares(statements: readonly { id: string; discountMinor: number }[], items: readonly { statementId: string; amountMinor: number }[]): number[] {
  const shares = items.map(() => 0);
  for (const statement of statements) {
    if (statement.discountMinor === 0) continue;
    const mine = items.map((item, k) => ({ item, k })).filter(({ item }) => item.statementId === statement.id);
    const weights = mine.map(({ item }) => Math.max(0, item.amountMinor));
    if (weights.every((w) => w === 0)) continue;
    allocate(statement.discountMinor, weights).forEach((share, j) => (shares[mine[j]!.k] = share));
  }
  return shares;
}

/**
 * The customer's own price that made a product cheaper in the cycle and is still in effect when
 * the next cycle starts (ending it then changes something): the product's row before the
 * every-product row, as the statements take them.
 */
function customerPriceToEnd(own: readonly CustomerPriceEntryRow[], product: string, cycleStart: string, nextStart: string): CustomerPriceEntryRow | null {
  const inEffect = (e: CustomerPriceEntry, day: string) => e.effectiveFrom <= day && (e.effectiveUntil === null || day < e.effectiveUntil);
  const candidates = own.filter((e) => inEffect(e, cycleStart) && (e.effectiveUntil === null || e.effectiveUntil > nextStart));
  const newest = (forProduct: string | null) =>
    candidates.filter((e) => e.productReferenceId === forProduct).sort((a, b) => b.effectiveFrom.localeCompare(a.effectiveFrom))[0] ?? null;
  return newest(product) ?? newest(null);
}

