// Billing: the rules that turn a cycle's facts about a line (its product periods, its
// overage, its top-ups) and the reseller's prices into statement lines, shared by the server (the
// statements job, the reconciliation board's estimate of the provider's cost) and the client
// (labels, forms). Pure: no clock, no I/O. Money is whole minor units, rounded by the one rule of
// ./money.ts (nearest, halves to even, once per amount).
//
// The rules, as the statements and the guide state them:
// - A cycle is a calendar month, UTC, named 'YYYY-MM' (the provider's billing cycles).
// - Prices: the price list's row for the product in effect on the cycle's first day; the
//   customer's own prices in effect that day replace figures of it (a row for the product wins
//   over the customer's every-product row, figure by figure), and their discount is taken off the
//   statement as its own line.
// - A plan's monthly fee is pro-rated by days: a day is billed to the product that holds the line
//   at the day's last second, so a line that starts during a day pays that day, a line that ends
//   during a day does not, and a plan change on a day bills the day to the new plan. Fee =
//   monthly × days ÷ days in the cycle (28 to 31), rounded once.
// - Overage: the cycle's overage GB × the price per GB of the product the line ends the cycle on.
// - Top-ups: blocks bought in the cycle (one-time and automatic) × that product's top-up price.
// - A statement per customer, cycle and currency: its lines, then one discount line per rate,
//   then the corrections carried onto it; total = subtotal + discounts + corrections.
import type { Pagination } from './customers';
import { multiply, prorate, sumMinor } from './money';

export const CYCLE_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
const DAY_MS = 86_400_000;

export const BILLING_MESSAGES = {
  priceSaved: 'Price saved',
  priceWithdrawn: 'Price withdrawn',
  priceInEffect: 'A price already in effect cannot be withdrawn; add a new price from a later date instead',
  priceExists: 'This product already has a price from that date',
  priceNotFound: 'Price not found',
  customerPriceSaved: 'Customer price saved',
  customerPriceEnded: 'Customer price ended',
  customerPriceNotFound: 'Customer price not found',
  customerPriceEmpty: 'Give a discount or at least one negotiated price',
  customerNotFound: 'Customer not found',
  statementNotFound: 'Statement not found',
  adjustmentSaved: 'Correction saved: it goes on the customer\u2019s next statement',
  adjustmentNotFound: 'Correction not found',
  adjustmentDeleted: 'Correction deleted',
  adjustmentApplied: 'This correction is already on a closed statement',
  cycleInvalid: 'Cycle must be a month written YYYY-MM',
  cycleNotEnded: 'This cycle has not ended yet',
  cycleClosed: 'This cycle is closed',
  currencyInvalid: 'Currency must be a three-letter ISO 4217 code',
  leakNotFound: 'This leak is no longer on the board',
  leakFixed: 'Done',
  fixNotAllowed: 'This fix does not apply to this leak',
  noProvider: 'No provider is configured',
} as const;

// ---- Cycles ------------------------------------------------------------------------------------

/** The cycle (month, UTC) containing an instant or a date. */
export function cycleOf(value: Date | string): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

export const isCycle = (value: string) => CYCLE_PATTERN.test(value);

/** The cycle `n` months after (or before, n < 0) `cycle`. */
export function shiftCycle(cycle: string, n: number): string {
  const [y, m] = cycle.split('-').map(Number) as [number, number];
  return cycleOf(new Date(Date.UTC(y, m - 1 + n, 1)));
}

/** First day, the day after the last (exclusive), and the number of days of a cycle. */
export function cycleBounds(cycle: string): { start: string; end: string; days: number } {
  const [y, m] = cycle.split('-').map(Number) as [number, number];
  const startMs = Date.UTC(y, m - 1, 1);
  const endMs = Date.UTC(y, m, 1);
  return { start: isoDate(startMs), end: isoDate(endMs), days: Math.round((endMs - startMs) / DAY_MS) };
}

/** The UTC day of an instant given in milliseconds, 'YYYY-MM-DD'. */
export const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The UTC day of an instant, 'YYYY-MM-DD', as `date` columns hold it. */
export const isoDay = (at: Date) => isoDate(at.getTime());
/** The UTC day an instant or date falls in, as a day number. */
export const dayNumber = (value: string) => Math.floor(Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value) / DAY_MS);

/**
 * Days of the cycle billed for a span of service [start, end) (end exclusive; null: still
 * running): the days whose last second the span holds.
 */
export function billedDays(span: { start: string; end: string | null }, cycle: string): number {
  const bounds = cycleBounds(cycle);
  const from = Math.max(dayNumber(span.start), dayNumber(bounds.start));
  const to = Math.min(span.end === null ? Infinity : dayNumber(span.end), dayNumber(bounds.end));
  return Math.max(0, to - from);
}

// ---- Prices ------------------------------------------------------------------------------------

/** A row of the price list. */
export interface PriceEntry {
  productReferenceId: string;
  currency: string;
  monthlyMinor: number;
  overagePerGbMinor: number;
  topUpMinor: number;
  /** 'YYYY-MM-DD' */
  effectiveFrom: string;
}

/** A customer's own prices: null figures keep the list's. */
export interface CustomerPriceEntry {
  /** null: every product. */
  productReferenceId: string | null;
  effectiveFrom: string;
  /** Exclusive; null: open-ended. */
  effectiveUntil: string | null;
  discountBp: number | null;
  monthlyMinor: number | null;
  overagePerGbMinor: number | null;
  topUpMinor: number | null;
}

/** The prices a customer pays for a product in a cycle. */
export interface ResolvedPrice {
  productReferenceId: string;
  currency: string;
  monthlyMinor: number;
  overagePerGbMinor: number;
  topUpMinor: number;
  /** Basis points off (1000 = 10 %); 0 for none. */
  discountBp: number;
}

/** The list's row for a product in effect on `date` (the latest from on or before it). */
export function priceOn(entries: readonly PriceEntry[], productReferenceId: string, date: string): PriceEntry | null {
  let found: PriceEntry | null = null;
  for (const entry of entries) {
    if (entry.productReferenceId !== productReferenceId || entry.effectiveFrom > date) continue;
    if (!found || entry.effectiveFrom > found.effectiveFrom) found = entry;
  }
  return found;
}

const inEffect = (entry: CustomerPriceEntry, date: string) => entry.effectiveFrom <= date && (entry.effectiveUntil === null || date < entry.effectiveUntil);

/** The newest of a customer's rows in effect on `date` for the product (or every product: null). */
function customerRowOn(entries: readonly CustomerPriceEntry[], productReferenceId: string | null, date: string): CustomerPriceEntry | null {
  let found: CustomerPriceEntry | null = null;
  for (const entry of entries) {
    if (entry.productReferenceId !== productReferenceId || !inEffect(entry, date)) continue;
    if (!found || entry.effectiveFrom > found.effectiveFrom) found = entry;
  }
  return found;
}

/**
 * What a customer pays for a product on `date`: the list's row, with each figure the customer's
 * product row sets, else their every-product row sets, in its place. Null when the product has
 * no price on the list (the board lists such lines: they are billed nothing).
 */
export function resolvePrice(list: readonly PriceEntry[], own: readonly CustomerPriceEntry[], productReferenceId: string, date: string): ResolvedPrice | null {
  const base = priceOn(list, productReferenceId, date);
  if (!base) return null;
  const forProduct = customerRowOn(own, productReferenceId, date);
  const forAll = customerRowOn(own, null, date);
  const pick = <K extends 'monthlyMinor' | 'overagePerGbMinor' | 'topUpMinor' | 'discountBp'>(key: K) => forProduct?.[key] ?? forAll?.[key] ?? null;
  return {
    productReferenceId,
    currency: base.currency,
    monthlyMinor: pick('monthlyMinor') ?? base.monthlyMinor,
    overagePerGbMinor: pick('overagePerGbMinor') ?? base.overagePerGbMinor,
    topUpMinor: pick('topUpMinor') ?? base.topUpMinor,
    discountBp: pick('discountBp') ?? 0,
  };
}

/** 1250 → "0.1250": basis points as an exact decimal fraction. */
const basisPoints = (bp: number) => `${Math.floor(bp / 10_000)}.${String(bp % 10_000).padStart(4, '0')}`;

/** "12.5 %" */
export const formatPercent = (bp: number) => `${(bp / 100).toLocaleString('en-US', { maximumFractionDigits: 2 })} %`;

// ---- Statement lines ---------------------------------------------------------------------------

export const STATEMENT_ITEM_KINDS = ['plan', 'overage', 'top_up', 'discount', 'adjustment'] as const;
export type StatementItemKind = (typeof STATEMENT_ITEM_KINDS)[number];

/** What a quantity counts, per kind of line (for the CSV and the printed statement). */
export const QUANTITY_UNITS: Readonly<Record<StatementItemKind, string>> = { plan: 'days', overage: 'GB', top_up: 'blocks', discount: '', adjustment: '' };

export interface StatementItem {
  kind: StatementItemKind;
  serviceLineNumber: string | null;
  productReferenceId: string | null;
  description: string;
  /** 'YYYY-MM-DD', first day billed. */
  periodStart: string | null;
  /** 'YYYY-MM-DD', last day billed (inclusive). */
  periodEnd: string | null;
  /** Days (plan), GB (overage), blocks (top_up), 1 otherwise; a decimal string. */
  quantity: string;
  unitMinor: number | null;
  amountMinor: number;
  adjustmentId: string | null;
}

/** A span of a line on one product, as the provider's partial periods give it (end exclusive). */
export interface ProductPeriod {
  productReferenceId: string;
  start: string;
  end: string;
}

/** What billing knows about one service line in one cycle. */
export interface LineCycleFacts {
  serviceLineNumber: string;
  /** The product the line is on now. */
  productReferenceId: string | null;
  /** When the line's service started and ended (the provider's end is its last second); ISO instants. */
  startDate: string | null;
  endDate: string | null;
  /** The provider's partial periods of the line (any cycle; those of this one are used). */
  periods: readonly ProductPeriod[];
  /** The cycle's overage GB (a decimal), 0 when none. */
  overageGb: number | string;
  /** Top-up blocks bought in the cycle, one-time and automatic. */
  topUpBlocks: number;
}

/**
 * The spans of the cycle a line was on each product: the provider's partial periods of the cycle
 * when it has any, else one span on the line's product from its start (or the cycle's) to its
 * end (or the cycle's). Spans that bill no day are left out.
 */
export function feePeriods(facts: LineCycleFacts, cycle: string): { productReferenceId: string; start: string; end: string; days: number }[] {
  const bounds = cycleBounds(cycle);
  const startMs = Date.parse(`${bounds.start}T00:00:00Z`);
  const endMs = Date.parse(`${bounds.end}T00:00:00Z`);
  const own = facts.periods.filter((p) => Date.parse(p.start) < endMs && Date.parse(p.end) > startMs);
  const spans: ProductPeriod[] =
    own.length > 0
      ? [...own].sort((a, b) => Date.parse(a.start) - Date.parse(b.start))
      : facts.productReferenceId
        ? [
            {
              productReferenceId: facts.productReferenceId,
              start: facts.startDate && Date.parse(facts.startDate) > startMs ? facts.startDate : `${bounds.start}T00:00:00.000Z`,
              // The provider's end date is the last second of service: the span ends a second later.
              end: facts.endDate && Date.parse(facts.endDate) + 1000 < endMs ? new Date(Date.parse(facts.endDate) + 1000).toISOString() : `${bounds.end}T00:00:00.000Z`,
            },
          ]
        : [];
  return spans.map((span) => ({ ...span, days: billedDays(span, cycle) })).filter((span) => span.days > 0);
}

export type PriceLookup = (productReferenceId: string) => ResolvedPrice | null;
export type ProductNames = (productReferenceId: string) => string;

/** A line's charges, each with the price it was worked out from (null: the product has none). */
export interface PricedItem {
  item: StatementItem;
  price: ResolvedPrice;
}

/**
 * A line's statement items for a cycle: a fee per product span, overage, top-ups. Items whose
 * product has no price come back apart, as `unpriced` product ids: they cannot be billed.
 */
export function lineItems(facts: LineCycleFacts, cycle: string, priceOf: PriceLookup, nameOf: ProductNames): { priced: PricedItem[]; unpriced: string[] } {
  const bounds = cycleBounds(cycle);
  const priced: PricedItem[] = [];
  const unpriced: string[] = [];
  const periods = feePeriods(facts, cycle);
  const lastDay = (exclusiveEnd: string) => isoDate((Math.min(dayNumber(exclusiveEnd), dayNumber(bounds.end)) - 1) * DAY_MS);
  for (const period of periods) {
    const price = priceOf(period.productReferenceId);
    if (!price) {
      unpriced.push(period.productReferenceId);
      continue;
    }
    const whole = period.days === bounds.days;
    priced.push({
      price,
      item: {
        kind: 'plan',
        serviceLineNumber: facts.serviceLineNumber,
        productReferenceId: period.productReferenceId,
        description: whole ? nameOf(period.productReferenceId) : `${nameOf(period.productReferenceId)}, ${period.days} of ${bounds.days} days`,
        periodStart: isoDate(Math.max(dayNumber(period.start), dayNumber(bounds.start)) * DAY_MS),
        periodEnd: lastDay(period.end),
        quantity: String(period.days),
        unitMinor: price.monthlyMinor,
        amountMinor: prorate(price.monthlyMinor, period.days, bounds.days),
        adjustmentId: null,
      },
    });
  }
  // Extras are priced on the product the line ends the cycle on.
  const lastProduct = periods.at(-1)?.productReferenceId ?? facts.productReferenceId;
  const overage = Number(facts.overageGb);
  const extras = overage > 0 || facts.topUpBlocks > 0;
  if (extras && lastProduct) {
    const price = priceOf(lastProduct);
    if (!price) {
      if (!unpriced.includes(lastProduct)) unpriced.push(lastProduct);
    } else {
      const whole = { periodStart: bounds.start, periodEnd: isoDate(dayNumber(bounds.end) * DAY_MS - DAY_MS) };
      if (overage > 0) {
        priced.push({
          price,
          item: {
            kind: 'overage',
            serviceLineNumber: facts.serviceLineNumber,
            productReferenceId: lastProduct,
            description: 'Data beyond the plan',
            ...whole,
            quantity: String(facts.overageGb),
            unitMinor: price.overagePerGbMinor,
            amountMinor: multiply(price.overagePerGbMinor, facts.overageGb),
            adjustmentId: null,
          },
        });
      }
      if (facts.topUpBlocks > 0) {
        priced.push({
          price,
          item: {
            kind: 'top_up',
            serviceLineNumber: facts.serviceLineNumber,
            productReferenceId: lastProduct,
            description: facts.topUpBlocks === 1 ? 'Top-up, 1 block' : `Top-ups, ${facts.topUpBlocks} blocks`,
            ...whole,
            quantity: String(facts.topUpBlocks),
            unitMinor: price.topUpMinor,
            amountMinor: price.topUpMinor * facts.topUpBlocks,
            adjustmentId: null,
          },
        });
      }
    }
  }
  return { priced, unpriced };
}

/** A correction waiting for the customer's next statement. */
export interface PendingAdjustment {
  id: string;
  currency: string;
  amountMinor: number;
  reason: string;
}

export interface StatementContent {
  currency: string;
  items: StatementItem[];
  /** Distinct service lines billed. */
  serviceLines: number;
  subtotalMinor: number;
  discountMinor: number;
  adjustmentMinor: number;
  totalMinor: number;
  /** A fingerprint of the items, to skip rewriting a draft that did not change. */
  hash: string;
}

/**
 * A customer's statements for a cycle, one per currency: the lines' priced items in line order,
 * one discount line per rate (the rate of the item's sum, rounded once), then the corrections.
 */
export function buildStatements(priced: readonly PricedItem[], adjustments: readonly PendingAdjustment[]): StatementContent[] {
  const currencies = [...new Set([...priced.map((p) => p.price.currency), ...adjustments.map((a) => a.currency)])].sort();
  return currencies.map((currency) => {
    const own = priced.filter((p) => p.price.currency === currency);
    const items = own.map((p) => p.item);
    const subtotalMinor = sumMinor(items.map((i) => i.amountMinor));
    const rates = [...new Set(own.map((p) => p.price.discountBp).filter((bp) => bp > 0))].sort((a, b) => a - b);
    const discounts: StatementItem[] = rates.map((bp) => {
      const base = sumMinor(own.filter((p) => p.price.discountBp === bp).map((p) => p.item.amountMinor));
      return { kind: 'discount', serviceLineNumber: null, productReferenceId: null, description: `Discount ${formatPercent(bp)}`, periodStart: null, periodEnd: null, quantity: '1', unitMinor: null, amountMinor: -multiply(base, basisPoints(bp)), adjustmentId: null };
    });
    const corrections: StatementItem[] = adjustments
      .filter((a) => a.currency === currency)
      .map((a) => ({ kind: 'adjustment', serviceLineNumber: null, productReferenceId: null, description: a.reason, periodStart: null, periodEnd: null, quantity: '1', unitMinor: null, amountMinor: a.amountMinor, adjustmentId: a.id }));
    const discountMinor = sumMinor(discounts.map((d) => d.amountMinor));
    const adjustmentMinor = sumMinor(corrections.map((c) => c.amountMinor));
    const all = [...items, ...discounts, ...corrections];
    return {
      currency,
      items: all,
      serviceLines: new Set(items.map((i) => i.serviceLineNumber)).size,
      subtotalMinor,
      discountMinor,
      adjustmentMinor,
      totalMinor: sumMinor([subtotalMinor, discountMinor, adjustmentMinor]),
      hash: fingerprint(JSON.stringify(all)),
    };
  });
}

/** A 53-bit string hash (cyrb53), as 14 hex digits: enough to notice a changed draft. */
export function fingerprint(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

// ---- Statement numbers -------------------------------------------------------------------------

/** "ST-2026-11-000042": the cycle and a number from one sequence, given when a statement closes. */
export const statementNumber = (cycle: string, sequence: number) => `ST-${cycle}-${String(sequence).padStart(6, '0')}`;

// ---- The CSV export ----------------------------------------------------------------------------

/** The export's columns, in order: one row per statement line, amounts in major units. */
export const STATEMENT_CSV_COLUMNS = [
  'statement_number',
  'statement_status',
  'cycle',
  'customer_id',
  'customer_name',
  'customer_email',
  'currency',
  'line_kind',
  'service_line_number',
  'product_reference_id',
  'description',
  'period_start',
  'period_end',
  'quantity',
  'quantity_unit',
  'unit_price',
  'amount',
  'statement_total',
] as const;

// ---- Reconciliation ----------------------------------------------------------------------------

export const LEAK_KINDS = ['unassigned', 'inactive_customer', 'below_cost', 'unbilled_top_up', 'invoice_unmatched', 'missing_from_invoice'] as const;
export type LeakKind = (typeof LEAK_KINDS)[number];

export const LEAK_LABELS: Readonly<Record<LeakKind, string>> = {
  unassigned: 'Billed by the provider, held by no customer',
  inactive_customer: 'Held by a blocked, expired or deleted customer',
  below_cost: 'Customer price below the provider\u2019s cost',
  unbilled_top_up: 'Top-ups bought but not billed',
  invoice_unmatched: 'Invoice lines for no line in the inventory',
  missing_from_invoice: 'Inventory lines missing from the invoice',
};

export const FIX_ACTIONS = ['cancel_line', 'bill_top_ups', 'end_customer_price', 'raise_list_price', 'dispute', 'mark_checked'] as const;
export type FixAction = (typeof FIX_ACTIONS)[number];

export const FIX_LABELS: Readonly<Record<FixAction, string>> = {
  cancel_line: 'Cancel the line at cycle end',
  bill_top_ups: 'Bill on the next statement',
  end_customer_price: 'End the customer\u2019s price',
  raise_list_price: 'Raise the list price to cost',
  dispute: 'Mark as disputed',
  mark_checked: 'Mark as checked',
};

// ---- Wire shapes -------------------------------------------------------------------------------

export interface PriceWire extends PriceEntry {
  id: string;
  productName: string | null;
  note: string | null;
  createdAt: string;
  createdBy: string | null;
  /** In effect today (the newest from on or before today). */
  current: boolean;
}

export interface PriceProductWire {
  productReferenceId: string;
  name: string;
  /** What the provider charges the reseller each month (major units, as the provider gives it). */
  providerPrice: number | null;
  providerCurrency: string | null;
  /** The list's price in effect today, or null: lines on it are billed nothing. */
  current: PriceWire | null;
}

export interface PriceListWire {
  products: PriceProductWire[];
  /** Every row of the list, newest first. */
  history: PriceWire[];
}

export interface PriceBody {
  productReferenceId: string;
  currency: string;
  /** Major units as typed, e.g. "79.00" (parsed exactly per the currency). */
  monthly: string;
  overagePerGb: string;
  topUp: string;
  effectiveFrom: string;
  note?: string | null;
}

export interface CustomerPriceWire extends CustomerPriceEntry {
  id: string;
  customerId: string;
  customerName: string;
  note: string | null;
  createdAt: string;
}

export interface CustomerPriceBody {
  customerId: string;
  productReferenceId: string | null;
  effectiveFrom: string;
  effectiveUntil?: string | null;
  /** Percent as typed, e.g. "12.5"; null for none. */
  discountPercent?: string | null;
  monthly?: string | null;
  overagePerGb?: string | null;
  topUp?: string | null;
  /** The currency the negotiated figures are in (the product's list currency). */
  currency: string;
  note?: string | null;
}

export type StatementStatus = 'draft' | 'closed';

export interface StatementSummaryWire {
  id: string;
  number: string | null;
  customerId: string;
  customerName: string;
  customerEmail: string;
  cycle: string;
  currency: string;
  status: StatementStatus;
  serviceLines: number;
  subtotalMinor: number;
  discountMinor: number;
  adjustmentMinor: number;
  totalMinor: number;
  updatedAt: string;
  closedAt: string | null;
  /** 'YYYY-MM-DD': set when it closes, by the customer's payment terms. */
  dueOn: string | null;
  /** Paid on it so far (payments, credit notes and credit allocated to it). */
  paidMinor: number;
  /** What is left to pay (0 once paid; a draft's is its total). */
  amountDueMinor: number;
  /** Null while a draft. */
  paymentStatus: PaymentStatus | null;
}

export type PaymentStatus = 'unpaid' | 'part_paid' | 'paid';
export const PAYMENT_STATUS_LABELS: Readonly<Record<PaymentStatus, string>> = { unpaid: 'Unpaid', part_paid: 'Part paid', paid: 'Paid' };

/** A closed statement's payment status: paid once nothing is left on it (a credit statement is paid). */
export function paymentStatusOf(totalMinor: number, paidMinor: number): PaymentStatus {
  if (paidMinor >= totalMinor) return 'paid';
  return paidMinor > 0 ? 'part_paid' : 'unpaid';
}

export interface StatementItemWire extends StatementItem {
  position: number;
}

export interface StatementWire extends StatementSummaryWire {
  customerCompany: string | null;
  customerAddress: string | null;
  cycleStart: string;
  /** Inclusive last day. */
  cycleEnd: string;
  items: StatementItemWire[];
}

export interface StatementListWire {
  items: StatementSummaryWire[];
  pagination: Pagination;
  /** The filtered statements' totals, one per currency. */
  totals: { currency: string; statements: number; totalMinor: number }[];
  /** Cycles that have statements, newest first. */
  cycles: { cycle: string; status: 'open' | 'closed' }[];
}

export interface AdjustmentWire {
  id: string;
  customerId: string;
  customerName: string;
  currency: string;
  amountMinor: number;
  reason: string;
  source: 'manual' | 'reconciliation';
  againstStatementId: string | null;
  appliedStatementId: string | null;
  appliedStatementNumber: string | null;
  createdAt: string;
}

/** The longest reason a correction may carry (it is printed on the statement). */
export const ADJUSTMENT_REASON_MAX_LENGTH = 200;

export interface AdjustmentBody {
  customerId: string;
  currency: string;
  /** 'credit' takes the amount off the next statement, 'charge' adds it. */
  direction: 'credit' | 'charge';
  /** Major units as typed, more than zero. */
  amount: string;
  reason: string;
  againstStatementId?: string | null;
}

export interface LeakWire {
  kind: LeakKind;
  /** Stable within the cycle: the service line number, or invoice id and line position. */
  key: string;
  serviceLineNumber: string | null;
  customerId: string | null;
  customerName: string | null;
  /** One sentence: what leaks and why. */
  detail: string;
  amountMinor: number;
  fixes: FixAction[];
  resolution: { action: FixAction; at: string; by: string | null; note: string | null } | null;
}

/** What a board's account bills in a currency other than its own: listed, never compared with its cost. */
export interface OtherCurrencyBilling {
  currency: string;
  lines: number;
  billedMinor: number;
}

/**
 * One provider account's board of a cycle, in the account's currency: what that account charges
 * against what the statements bill its lines in the same currency.
 */
export interface ReconciliationWire {
  cycle: string;
  /** The provider account the board is of (null: no account is set up yet). */
  account: { id: number; name: string } | null;
  currency: string;
  /** The provider's invoice for the cycle, when imported; else the cost is an estimate. */
  invoice: { invoiceId: string; amountMinor: number; status: string | null } | null;
  costEstimated: boolean;
  totals: { providerCostMinor: number; billedMinor: number; marginMinor: number; statements: number };
  leaks: LeakWire[];
  /** Per kind: how many and the amount at stake (open leaks only). */
  byKind: { kind: LeakKind; count: number; amountMinor: number }[];
  openLeakMinor: number;
  /** The account's lines billed in other currencies: not compared, as no rate between them is kept. */
  otherCurrencies: OtherCurrencyBilling[];
}

export interface FixBody {
  cycle: string;
  /** The board's provider account; the first account when missing. */
  accountId?: number;
  kind: LeakKind;
  key: string;
  action: FixAction;
  note?: string | null;
}
