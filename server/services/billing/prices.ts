// Billing: the price list, the customers' own prices and the corrections, as the
// administrators change them. Amounts arrive as typed ("79.00") and are parsed exactly for their
// currency (src/domain/money.ts): a figure the currency cannot hold is refused, never rounded.
// Dates are days, UTC, against the server's clock: "in effect" means from on or before today.
// Every change is audited in its own transaction; a refusal writes nothing.
import {
  BILLING_MESSAGES as M,
  cycleOf,
  priceOn,
  shiftCycle,
  type AdjustmentBody,
  type AdjustmentWire,
  type CustomerPriceBody,
  type CustomerPriceWire,
  type PriceBody,
  type PriceListWire,
  type PriceWire,
} from '../../../src/domain/billing';
import { CURRENCY_PATTERN, currencyExponent, decimalFraction, formatMinor, MoneyError, parseMoney } from '../../../src/domain/money';
import type { Clock } from '../../clock';
import type { Repositories } from '../../db/repositories';
import type { AdjustmentRow, AdjustmentStatus, CustomerPriceRow, PriceRow } from '../../db/repositories/billing/prices';
import type { BillingCustomerPriceRow, BillingPriceRow } from '../../db/schema';
import { demoPricesFrom, planDemoCustomerPrices, planDemoPrices, DEMO_SEEDED_KEY } from '../../demo-data';
import { BadRequestError, ConflictError, NotFoundError, fieldError } from '../../errors';
import type { AuditService, RequestContext } from '../audit';
import { ADJUSTMENT_REASON_MAX_LENGTH } from '../../../src/domain/billing';


/** What the form shows beside a field the server refused. */
export const BILLING_FIELD_MESSAGES = {
  productUnknown: 'Unknown product: it is not in the provider\u2019s product list',
  discount: 'Discount must be a percent above 0 and at most 100, with at most 2 decimals',
  untilBeforeFrom: 'The end date must be after the start date',
  statementOfAnother: 'This statement belongs to another customer',
  reason: `Reason must be 1 to ${ADJUSTMENT_REASON_MAX_LENGTH} characters`,
  currencyNotListed: (currencies: readonly string[]) => `The price list prices this product in ${currencies.join(', ')}: give the figures in that currency`,
  statementCurrency: (currency: string) => `The statement is in ${currency}: give the correction in ${currency}`,
} as const;
const F = BILLING_FIELD_MESSAGES;

/** The label a money field's messages name it by. */
const AMOUNT_LABELS = { monthly: 'Monthly price', overagePerGb: 'Overage per GB', topUp: 'Top-up price', amount: 'Amount' } as const;
type AmountField = keyof typeof AMOUNT_LABELS;

/**
 * A typed amount in minor units of `currency`: exact, or a 400 on the field saying why (not a
 * number, more decimals than the currency has, below the least allowed, too large).
 */
export function amountOf(field: AmountField, text: string, currency: string, least: 0 | 1): number {
  const label = AMOUNT_LABELS[field];
  const exponent = currencyExponent(currency);
  let scale: number;
  try {
    scale = decimalFraction(text).scale;
  } catch {
    throw fieldError(field, `${label} must be an amount such as ${formatMinor(79 * 10 ** exponent, currency)}`);
  }
  if (scale > exponent) throw fieldError(field, `${label}: ${currency} amounts have at most ${exponent} decimals`);
  let minor: number;
  try {
    minor = parseMoney(text, currency);
  } catch (error) {
    if (error instanceof MoneyError) throw fieldError(field, `${label} is too large`);
    throw error;
  }
  if (minor < least) throw fieldError(field, least === 0 ? `${label} cannot be negative` : `${label} must be more than zero`);
  return minor;
}

/** "12.5" → 1250 basis points; more than 0 and at most 100 %, at most 2 decimals. */
export function discountBasisPoints(text: string): number {
  let fraction: { units: bigint; scale: number };
  try {
    fraction = decimalFraction(text);
  } catch {
    throw fieldError('discountPercent', F.discount);
  }
  if (fraction.scale > 2) throw fieldError('discountPercent', F.discount);
  const bp = fraction.units * 10n ** BigInt(2 - fraction.scale);
  if (bp < 1n || bp > 10_000n) throw fieldError('discountPercent', F.discount);
  return Number(bp);
}

/** A form's optional field: absent, null or blank all mean "none". */
const given = (value: string | null | undefined): string | null => (value == null || value.trim() === '' ? null : value);

const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const userOf = (context: RequestContext) => (context.actor.type === 'user' ? context.actor.id : null);

function checkCurrency(currency: string): string {
  if (!CURRENCY_PATTERN.test(currency)) throw fieldError('currency', M.currencyInvalid);
  return currency;
}

export interface BillingPricesService {
  priceList(): Promise<PriceListWire>;
  addPrice(body: PriceBody, context: RequestContext): Promise<PriceWire>;
  withdrawPrice(id: string, context: RequestContext): Promise<void>;
  customerPrices(customerId: string | null): Promise<CustomerPriceWire[]>;
  addCustomerPrice(body: CustomerPriceBody, context: RequestContext): Promise<CustomerPriceWire>;
  endCustomerPrice(id: string, until: string | null, context: RequestContext): Promise<CustomerPriceWire>;
  adjustments(filter: { customerId: string | null; status: AdjustmentStatus }): Promise<AdjustmentWire[]>;
  addAdjustment(body: AdjustmentBody, context: RequestContext): Promise<AdjustmentWire>;
  deleteAdjustment(id: string, context: RequestContext): Promise<void>;
  /**
   * The demo's price list (server/demo-data.ts), once the first sync has brought the products and
   * the demo customers their lines: only on a demo database and only while the list is empty.
   */
  seedDemoOnce(): Promise<{ prices: number; customerPrices: number }>;
}

/** A lock number of its own (not the statements' billing lock): one demo price seeding at a time. */
const DEMO_PRICES_LOCK = 0x64656d70;

export function createBillingPricesService(deps: {
  repos: Repositories;
  audit: AuditService;
  now: Clock;
  /** Called after every change that can move a draft statement (the app asks for a billing run). */
  onChange?: () => void;
}): BillingPricesService {
  const { repos, audit, now } = deps;
  const store = repos.billingPrices;

  /** The rows as the wire gives them, each marked when it is the one in effect today for its product. */
  function priceWires(rows: readonly PriceRow[], today: string): PriceWire[] {
    const current = new Set([...new Set(rows.map((r) => r.productReferenceId))].map((product) => priceOn(rows, product, today)));
    return rows.map((r) => ({
      id: r.id,
      productReferenceId: r.productReferenceId,
      productName: r.productName,
      currency: r.currency,
      monthlyMinor: r.monthlyMinor,
      overagePerGbMinor: r.overagePerGbMinor,
      topUpMinor: r.topUpMinor,
      effectiveFrom: r.effectiveFrom,
      note: r.note,
      createdAt: r.createdAt.toISOString(),
      createdBy: r.createdBy,
      current: current.has(r),
    }));
  }

  async function checkProduct(productReferenceId: string): Promise<string> {
    if (!(await store.productExists(productReferenceId))) throw fieldError('productReferenceId', F.productUnknown);
    return productReferenceId;
  }

  async function liveCustomer(customerId: string) {
    const customer = await repos.customers.findLiveById(customerId);
    if (!customer) throw new NotFoundError(M.customerNotFound);
    return customer;
  }

  const service: BillingPricesService = {
    async priceList() {
      const today = dayOf(now());
      const [products, rows] = [await store.products(), await store.prices()];
      const history = priceWires(rows, today);
      const currentOf = new Map(history.filter((w) => w.current).map((w) => [w.productReferenceId, w]));
      return {
        products: products.map((product) => ({
          productReferenceId: product.productReferenceId,
          name: product.name,
          providerPrice: product.price,
          providerCurrency: product.isoCurrencyCode,
          current: currentOf.get(product.productReferenceId) ?? null,
        })),
        history,
      };
    },

    async addPrice(body, context) {
      const currency = checkCurrency(body.currency);
      const figures = {
        monthlyMinor: amountOf('monthly', body.monthly, currency, 0),
        overagePerGbMinor: amountOf('overagePerGb', body.overagePerGb, currency, 0),
        topUpMinor: amountOf('topUp', body.topUp, currency, 0),
      };
      const productReferenceId = await checkProduct(body.productReferenceId);
      const saved = await store.transaction(async (tx) => {
        const row = await store.insertPrice({ productReferenceId, currency, ...figures, effectiveFrom: body.effectiveFrom, note: given(body.note)?.trim() ?? null, createdBy: userOf(context) }, tx);
        if (!row) throw new ConflictError(M.priceExists);
        await audit.record({ ...context, action: 'billing.price_added', targetType: 'billing_price', targetId: row.id, after: priceAudit(row) }, tx);
        return row;
      });
      const wire = priceWires(await store.prices(), dayOf(now())).find((w) => w.id === saved.id);
      if (!wire) throw new NotFoundError(M.priceNotFound);
      return wire;
    },

    async withdrawPrice(id, context) {
      const today = dayOf(now());
      await store.transaction(async (tx) => {
        const row = await store.priceById(id, tx, true);
        if (!row) throw new NotFoundError(M.priceNotFound);
        // A row from today or earlier has billed (or is billing) a cycle: it stays in the history.
        if (row.effectiveFrom <= today) throw new ConflictError(M.priceInEffect);
        await store.deletePrice(id, tx);
        await audit.record({ ...context, action: 'billing.price_withdrawn', targetType: 'billing_price', targetId: id, before: priceAudit(row) }, tx);
      });
    },

    async customerPrices(customerId) {
      return (await store.customerPrices(customerId)).map(customerPriceWire);
    },

    async addCustomerPrice(body, context) {
      const currency = checkCurrency(body.currency);
      const discountText = given(body.discountPercent);
      const money = (field: 'monthly' | 'overagePerGb' | 'topUp') => {
        const text = given(body[field]);
        return text === null ? null : amountOf(field, text, currency, 0);
      };
      const figures = {
        discountBp: discountText === null ? null : discountBasisPoints(discountText),
        monthlyMinor: money('monthly'),
        overagePerGbMinor: money('overagePerGb'),
        topUpMinor: money('topUp'),
      };
      if (Object.values(figures).every((v) => v === null)) throw new BadRequestError(M.customerPriceEmpty);
      const effectiveUntil = body.effectiveUntil ?? null;
      if (effectiveUntil !== null && effectiveUntil <= body.effectiveFrom) throw fieldError('effectiveUntil', F.untilBeforeFrom);
      const customer = await liveCustomer(body.customerId);
      const productReferenceId = body.productReferenceId === null ? null : await checkProduct(body.productReferenceId);
      // Negotiated figures replace the list's in the list's currency: minor units of another one would bill a wrong amount.
      const negotiated = figures.monthlyMinor !== null || figures.overagePerGbMinor !== null || figures.topUpMinor !== null;
      if (productReferenceId !== null && negotiated) {
        const listed = await store.productCurrencies(productReferenceId);
        if (listed.length > 0 && !listed.includes(currency)) throw fieldError('currency', F.currencyNotListed(listed));
      }
      const saved = await store.transaction(async (tx) => {
        const row = await store.insertCustomerPrice(
          { customerId: customer.id, productReferenceId, effectiveFrom: body.effectiveFrom, effectiveUntil, ...figures, note: given(body.note)?.trim() ?? null, createdBy: userOf(context) },
          tx,
        );
        await audit.record({ ...context, action: 'billing.customer_price_added', targetType: 'billing_customer_price', targetId: row.id, after: { ...customerPriceAudit(row), currency } }, tx);
        return row;
      });
      return customerPriceWire({ ...saved, customerName: customer.name });
    },

    async endCustomerPrice(id, until, context) {
      // By default at the end of the running cycle: the statements price a cycle by its first day.
      const effectiveUntil = until ?? `${shiftCycle(cycleOf(now()), 1)}-01`;
      const saved = await store.transaction(async (tx) => {
        const row = await store.customerPriceById(id, tx, true);
        if (!row) throw new NotFoundError(M.customerPriceNotFound);
        if (effectiveUntil <= row.effectiveFrom) throw fieldError('effectiveUntil', F.untilBeforeFrom);
        const ended = await store.endCustomerPrice(id, effectiveUntil, tx);
        if (!ended) throw new NotFoundError(M.customerPriceNotFound);
        await audit.record(
          { ...context, action: 'billing.customer_price_ended', targetType: 'billing_customer_price', targetId: id, before: { effectiveUntil: row.effectiveUntil }, after: { effectiveUntil: ended.effectiveUntil } },
          tx,
        );
        return { ...ended, customerName: row.customerName };
      });
      return customerPriceWire(saved);
    },

    async adjustments(filter) {
      return (await store.adjustments(filter)).map(adjustmentWire);
    },

    async addAdjustment(body, context) {
      const currency = checkCurrency(body.currency);
      const magnitude = amountOf('amount', body.amount, currency, 1);
      const reason = body.reason.trim();
      if (reason.length === 0 || reason.length > ADJUSTMENT_REASON_MAX_LENGTH) throw fieldError('reason', F.reason);
      const customer = await liveCustomer(body.customerId);
      const against = body.againstStatementId ?? null;
      if (against !== null) {
        const statement = await store.statementOwner(against);
        if (!statement) throw new NotFoundError(M.statementNotFound);
        if (statement.customerId !== customer.id) throw fieldError('againstStatementId', F.statementOfAnother);
        if (statement.currency !== currency) throw fieldError('currency', F.statementCurrency(statement.currency));
      }
      const id = await store.transaction(async (tx) => {
        const row = await store.insertAdjustment(
          { customerId: customer.id, currency, amountMinor: body.direction === 'credit' ? -magnitude : magnitude, reason, source: 'manual', againstStatementId: against, createdBy: userOf(context) },
          tx,
        );
        await audit.record(
          { ...context, action: 'billing.adjustment_added', targetType: 'billing_adjustment', targetId: row.id, after: { customerId: row.customerId, currency, amountMinor: row.amountMinor, reason, againstStatementId: against } },
          tx,
        );
        return row.id;
      });
      const saved = await store.adjustmentById(id);
      if (!saved) throw new NotFoundError(M.adjustmentNotFound);
      return adjustmentWire(saved);
    },

    async deleteAdjustment(id, context) {
      await store.transaction(async (tx) => {
        const before = await store.adjustmentById(id, tx);
        const outcome = await store.deletePendingAdjustment(id, tx);
        if (outcome === 'missing' || !before) throw new NotFoundError(M.adjustmentNotFound);
        if (outcome === 'applied') throw new ConflictError(M.adjustmentApplied);
        await audit.record(
          {
            ...context,
            action: 'billing.adjustment_deleted',
            targetType: 'billing_adjustment',
            targetId: id,
            before: { customerId: before.customerId, currency: before.currency, amountMinor: before.amountMinor, reason: before.reason, source: before.source },
          },
          tx,
        );
      });
    },

    async seedDemoOnce() {
      const none = { prices: 0, customerPrices: 0 };
      if ((await repos.appMeta.get(DEMO_SEEDED_KEY)) === undefined) return none;
      const at = now();
      return store.transaction(async (tx) => {
        // Held until the transaction ends: a second seeding (another process) waits, then finds the list filled.
        await repos.appMeta.lockForTransaction(DEMO_PRICES_LOCK, tx);
        if (await store.hasPrices(tx)) return none;
        const prices = planDemoPrices(await store.products(tx), at);
        if (prices.length === 0) return none;
        for (const price of prices) await store.insertPrice(price, tx);
        const own = planDemoCustomerPrices(await store.activeCustomersWithLines(at, tx), prices, at);
        for (const row of own) await store.insertCustomerPrice(row, tx);
        await audit.record({ actor: { type: 'system' }, action: 'system.demo_prices_seeded', after: { prices: prices.length, customerPrices: own.length, from: demoPricesFrom(at) } }, tx);
        return { prices: prices.length, customerPrices: own.length };
      });
    },
  };

  // Each change moves the running cycle's drafts: the statements are worked out again at once
  // rather than at the next sync.
  const thenRefresh =
    <A extends unknown[], R>(change: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const result = await change(...args);
      deps.onChange?.();
      return result;
    };
  return {
    ...service,
    addPrice: thenRefresh(service.addPrice),
    withdrawPrice: thenRefresh(service.withdrawPrice),
    addCustomerPrice: thenRefresh(service.addCustomerPrice),
    endCustomerPrice: thenRefresh(service.endCustomerPrice),
    addAdjustment: thenRefresh(service.addAdjustment),
    deleteAdjustment: thenRefresh(service.deleteAdjustment),
    seedDemoOnce: thenRefresh(service.seedDemoOnce),
  };
}

const priceAudit = (r: BillingPriceRow) => ({
  productReferenceId: r.productReferenceId,
  currency: r.currency,
  monthlyMinor: r.monthlyMinor,
  overagePerGbMinor: r.overagePerGbMinor,
  topUpMinor: r.topUpMinor,
  effectiveFrom: r.effectiveFrom,
  note: r.note,
});

const customerPriceAudit = (r: BillingCustomerPriceRow) => ({
  customerId: r.customerId,
  productReferenceId: r.productReferenceId,
  effectiveFrom: r.effectiveFrom,
  effectiveUntil: r.effectiveUntil,
  discountBp: r.discountBp,
  monthlyMinor: r.monthlyMinor,
  overagePerGbMinor: r.overagePerGbMinor,
  topUpMinor: r.topUpMinor,
  note: r.note,
});

function customerPriceWire(r: CustomerPriceRow): CustomerPriceWire {
  return {
    id: r.id,
    customerId: r.customerId,
    customerName: r.customerName,
    productReferenceId: r.productReferenceId,
    effectiveFrom: r.effectiveFrom,
    effectiveUntil: r.effectiveUntil,
    discountBp: r.discountBp,
    monthlyMinor: r.monthlyMinor,
    overagePerGbMinor: r.overagePerGbMinor,
    topUpMinor: r.topUpMinor,
    note: r.note,
    createdAt: r.createdAt.toISOString(),
  };
}

function adjustmentWire(r: AdjustmentRow): AdjustmentWire {
  return {
    id: r.id,
    customerId: r.customerId,
    customerName: r.customerName,
    currency: r.currency,
    amountMinor: r.amountMinor,
    reason: r.reason,
    source: r.source,
    againstStatementId: r.againstStatementId,
    appliedStatementId: r.appliedStatementId,
    appliedStatementNumber: r.appliedStatementNumber,
    createdAt: r.createdAt.toISOString(),
  };
}
