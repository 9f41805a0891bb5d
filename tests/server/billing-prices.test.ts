// The price list, customers' own prices and corrections over HTTP and the database:
// typed amounts parsed exactly for their currency (no float on the way, too many decimals
// refused), one price per product and date, a price in effect never withdrawn, customer prices
// ended rather than deleted, corrections as signed minor units that stay until a statement
// closes with them; each change audited, read by any admin and made by administrators only. And
// the demo's price list with its seeded below-cost leak, seeded once.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES as M, type AdjustmentWire, type CustomerPriceWire, type PriceListWire, type PriceWire } from '../../src/domain/billing';
import { DEMO_BELOW_COST_NOTE, DEMO_DISCOUNT_NOTE, DEMO_PRICE_NOTE, DEMO_SEEDED_KEY, planDemoPrices } from '../../server/demo-data';
import { insertProduct, insertServiceLines, insertTerminals, terminalRow } from '../fixtures/terminals';
import { createTestContext, type TestContext } from './helpers';

const START = '2026-03-15T12:00:00.000Z';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

let ctx: TestContext;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};

const db = () => ctx.database.db;
const rows = async <T>(query: ReturnType<typeof sql>) => ((await db().execute(query)) as unknown as { rows: T[] }).rows;
const count = async (query: ReturnType<typeof sql>) => Number((await rows<{ n: number | string }>(query))[0]!.n);
const data = <T>(response: { json(): unknown }) => (response.json() as { data: T }).data;
const body = (response: { json(): unknown }) => response.json() as { success: boolean; message: string; errors?: { path: string; message: string }[] };
const paths = (response: { json(): unknown }) => (body(response).errors ?? []).map((e) => e.path);

const send = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, token = tokens.admin) =>
  ctx.request({ method, url: `/api/v1/billing${url}`, token, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

const price = (over: Record<string, unknown> = {}) => ({
  productReferenceId: 'SUB-METERED-1TB',
  currency: 'USD',
  monthly: '199.00',
  overagePerGb: '2.00',
  topUp: '65.00',
  effectiveFrom: '2026-01-01',
  ...over,
});

beforeAll(async () => {
  ctx = await createTestContext({ now: START });
  const admin = await ctx.createAdmin({ name: 'Alice Administrator' });
  ids.admin = admin.id;
  tokens.admin = (await ctx.login('admin', admin.email, admin.password)).token!;
  const viewer = await ctx.createAdmin({ role: 'user' });
  tokens.viewer = (await ctx.login('admin', viewer.email, viewer.password)).token!;
  for (const name of ['ana', 'bruno']) {
    const customer = await ctx.createCustomer({ name: `${name} Customer`, isActive: true });
    ids[name] = customer.id;
    if (name === 'ana') tokens.ana = (await ctx.login('customer', customer.email, customer.password)).token!;
  }
  ids.gone = (await ctx.createCustomer({ name: 'Gone Customer', deletedAt: new Date(START) })).id;
  await insertProduct(db(), { productReferenceId: 'SUB-METERED-1TB', name: 'Local Priority 1 TB', price: 165, isoCurrencyCode: 'USD' });
  await insertProduct(db(), { productReferenceId: 'SUB-METERED-50GB', name: 'Local Priority 50 GB', price: 65, isoCurrencyCode: 'USD' });
  await insertProduct(db(), { productReferenceId: 'SUB-TOKYO', name: 'Tokyo Plan', price: 9800, isoCurrencyCode: 'JPY' });
  await insertProduct(db(), { productReferenceId: 'SUB-KUWAIT', name: 'Kuwait Plan', price: 30, isoCurrencyCode: 'KWD' });
  await insertProduct(db(), { productReferenceId: 'SUB-RETIRED', name: 'Retired Plan', price: 10, isoCurrencyCode: 'USD', removedAt: new Date('2026-02-01T00:00:00Z') });
  const statement = (customerId: string, currency: string) =>
    rows<{ id: string }>(sql`INSERT INTO billing_statements (customer_id, cycle, currency) VALUES (${customerId}, '2026-02', ${currency}) RETURNING id::text AS id`);
  ids.anaStatement = (await statement(ids.ana!, 'USD'))[0]!.id;
  ids.anaEurStatement = (await statement(ids.ana!, 'EUR'))[0]!.id;
  ids.brunoStatement = (await statement(ids.bruno!, 'USD'))[0]!.id;
});

afterAll(async () => {
  await ctx?.close();
});

describe('the price list', () => {
  it('adds a price with its amounts exact in minor units and shows it as the product’s price in effect', async () => {
    const response = await send('POST', '/prices', price({ monthly: '1234567.89', overagePerGb: '0.10', topUp: '65', note: '  Launch price  ' }));
    expect(response.statusCode).toBe(201);
    expect(body(response).message).toBe(M.priceSaved);
    const saved = data<PriceWire>(response);
    expect(saved).toMatchObject({
      productReferenceId: 'SUB-METERED-1TB',
      productName: 'Local Priority 1 TB',
      currency: 'USD',
      monthlyMinor: 123456789,
      overagePerGbMinor: 10,
      topUpMinor: 6500,
      effectiveFrom: '2026-01-01',
      note: 'Launch price',
      createdBy: ids.admin,
      current: true,
    });
    ids.january = saved.id;
    const [stored] = await rows<{ monthly_minor: string; overage_per_gb_minor: string; top_up_minor: string }>(
      sql`SELECT monthly_minor::text, overage_per_gb_minor::text, top_up_minor::text FROM billing_prices WHERE id = ${saved.id}`,
    );
    expect(stored).toEqual({ monthly_minor: '123456789', overage_per_gb_minor: '10', top_up_minor: '6500' });

    const list = data<PriceListWire>(await send('GET', '/prices'));
    const product = list.products.find((p) => p.productReferenceId === 'SUB-METERED-1TB');
    expect(product).toMatchObject({ name: 'Local Priority 1 TB', providerPrice: 165, providerCurrency: 'USD', current: { id: saved.id, monthlyMinor: 123456789 } });
    expect(list.products.find((p) => p.productReferenceId === 'SUB-METERED-50GB')?.current).toBeNull();
    // A product the provider no longer sells is not on offer.
    expect(list.products.map((p) => p.productReferenceId)).not.toContain('SUB-RETIRED');
    expect(list.history.map((h) => h.id)).toEqual([saved.id]);
  });

  it('lets a later price take over on its own date: the history newest first, only today’s row current', async () => {
    const march = data<PriceWire>(await send('POST', '/prices', price({ monthly: '210.00', effectiveFrom: '2026-03-01' })));
    const april = data<PriceWire>(await send('POST', '/prices', price({ monthly: '220.00', effectiveFrom: '2026-04-01' })));
    ids.april = april.id;
    expect(march.current).toBe(true);
    expect(april.current).toBe(false);
    const list = data<PriceListWire>(await send('GET', '/prices'));
    const history = list.history.filter((h) => h.productReferenceId === 'SUB-METERED-1TB');
    expect(history.map((h) => [h.effectiveFrom, h.current])).toEqual([
      ['2026-04-01', false],
      ['2026-03-01', true],
      ['2026-01-01', false],
    ]);
    expect(list.products.find((p) => p.productReferenceId === 'SUB-METERED-1TB')?.current?.id).toBe(march.id);

    // On April 1st (read through the service: the session token would have expired by then).
    ctx.clock.set('2026-04-01T00:00:00.000Z');
    try {
      const later = await ctx.app.services.billingPrices.priceList();
      expect(later.products.find((p) => p.productReferenceId === 'SUB-METERED-1TB')?.current?.id).toBe(april.id);
    } finally {
      ctx.clock.set(START);
    }
  });

  it('parses amounts for their currency: whole yen, three decimals of a dinar, two of a dollar', async () => {
    const yen = await send('POST', '/prices', price({ productReferenceId: 'SUB-TOKYO', currency: 'JPY', monthly: '12800', overagePerGb: '300', topUp: '0', effectiveFrom: '2026-02-01' }));
    expect(yen.statusCode).toBe(201);
    expect(data<PriceWire>(yen)).toMatchObject({ currency: 'JPY', monthlyMinor: 12800, overagePerGbMinor: 300, topUpMinor: 0 });
    const dinar = await send('POST', '/prices', price({ productReferenceId: 'SUB-KUWAIT', currency: 'KWD', monthly: '39.125', overagePerGb: '0.5', topUp: '20', effectiveFrom: '2026-02-01' }));
    expect(dinar.statusCode).toBe(201);
    expect(data<PriceWire>(dinar)).toMatchObject({ monthlyMinor: 39125, overagePerGbMinor: 500, topUpMinor: 20000 });
  });

  it.each([
    ['monthly', '79.001', 'USD', 'Monthly price: USD amounts have at most 2 decimals'],
    ['monthly', '12800.5', 'JPY', 'Monthly price: JPY amounts have at most 0 decimals'],
    ['overagePerGb', '-1.00', 'USD', 'Overage per GB cannot be negative'],
    ['topUp', 'sixty', 'USD', 'Top-up price must be an amount such as 79.00'],
    ['topUp', '1e3', 'USD', 'Top-up price must be an amount such as 79.00'],
    ['monthly', '', 'USD', 'Monthly price must be an amount such as 79.00'],
    ['monthly', '99999999999999999999', 'USD', 'Monthly price is too large'],
  ])('refuses %s "%s" in %s with a 400 naming the field', async (field, text, currency, message) => {
    const before = await count(sql`SELECT count(*) AS n FROM billing_prices`);
    const response = await send('POST', '/prices', price({ productReferenceId: 'SUB-METERED-50GB', currency, [field]: text, effectiveFrom: '2026-05-01' }));
    expect(response.statusCode).toBe(400);
    expect(body(response).errors).toEqual([{ path: field, message }]);
    expect(await count(sql`SELECT count(*) AS n FROM billing_prices`)).toBe(before);
  });

  it('refuses an unknown product, a currency that is not ISO 4217 and a date that does not exist', async () => {
    const unknown = await send('POST', '/prices', price({ productReferenceId: 'SUB-NOPE', effectiveFrom: '2026-05-01' }));
    expect(unknown.statusCode).toBe(400);
    expect(paths(unknown)).toEqual(['productReferenceId']);
    const currency = await send('POST', '/prices', price({ currency: 'usd', effectiveFrom: '2026-05-01' }));
    expect(currency.statusCode).toBe(400);
    expect(body(currency).errors).toEqual([{ path: 'currency', message: M.currencyInvalid }]);
    for (const effectiveFrom of ['2026-02-30', '2026-13-01', '26-01-01', '0000-01-01']) {
      const date = await send('POST', '/prices', price({ effectiveFrom }));
      expect(date.statusCode, effectiveFrom).toBe(400);
      expect(paths(date)).toEqual(['effectiveFrom']);
    }
  });

  it('answers 409 for a second price of a product from the same date, writing nothing', async () => {
    const before = await count(sql`SELECT count(*) AS n FROM billing_prices WHERE product_reference_id = 'SUB-METERED-1TB'`);
    const response = await send('POST', '/prices', price({ monthly: '1.00', effectiveFrom: '2026-03-01' }));
    expect(response.statusCode).toBe(409);
    expect(body(response).message).toBe(M.priceExists);
    expect(await count(sql`SELECT count(*) AS n FROM billing_prices WHERE product_reference_id = 'SUB-METERED-1TB'`)).toBe(before);
  });

  it('withdraws a price not yet in effect, and refuses one in effect (from today or earlier)', async () => {
    const today = data<PriceWire>(await send('POST', '/prices', price({ productReferenceId: 'SUB-METERED-50GB', effectiveFrom: '2026-03-15' })));
    const inEffect = await send('DELETE', `/prices/${today.id}`);
    expect(inEffect.statusCode).toBe(409);
    expect(body(inEffect).message).toBe(M.priceInEffect);
    expect((await send('DELETE', `/prices/${ids.january}`)).statusCode).toBe(409);

    const withdrawn = await send('DELETE', `/prices/${ids.april}`);
    expect(withdrawn.statusCode).toBe(200);
    expect(body(withdrawn)).toMatchObject({ success: true, message: M.priceWithdrawn });
    expect(await count(sql`SELECT count(*) AS n FROM billing_prices WHERE id = ${ids.april}`)).toBe(0);
    expect(await count(sql`SELECT count(*) AS n FROM billing_prices WHERE id = ${today.id}`)).toBe(1);

    const again = await send('DELETE', `/prices/${ids.april}`);
    expect(again.statusCode).toBe(404);
    expect(body(again).message).toBe(M.priceNotFound);
    const malformed = await send('DELETE', '/prices/not-a-uuid');
    expect(malformed.statusCode).toBe(400);
    expect(paths(malformed)).toEqual(['id']);
  });
});

describe("customers' own prices", () => {
  it('saves a discount in basis points and a negotiated price in minor units for one product', async () => {
    const response = await send('POST', '/customer-prices', {
      customerId: ids.ana,
      productReferenceId: 'SUB-METERED-1TB',
      effectiveFrom: '2026-02-01',
      discountPercent: '12.5',
      monthly: '0.10',
      currency: 'USD',
      note: 'Two-year deal',
    });
    expect(response.statusCode).toBe(201);
    expect(body(response).message).toBe(M.customerPriceSaved);
    const saved = data<CustomerPriceWire>(response);
    expect(saved).toMatchObject({
      customerId: ids.ana,
      customerName: 'ana Customer',
      productReferenceId: 'SUB-METERED-1TB',
      effectiveFrom: '2026-02-01',
      effectiveUntil: null,
      discountBp: 1250,
      monthlyMinor: 10,
      overagePerGbMinor: null,
      topUpMinor: null,
      note: 'Two-year deal',
    });
    ids.anaPrice = saved.id;
  });

  it('saves an every-product discount and lists a customer’s rows newest first', async () => {
    const all = await send('POST', '/customer-prices', { customerId: ids.ana, productReferenceId: null, effectiveFrom: '2026-03-01', effectiveUntil: '2026-09-01', discountPercent: '100', monthly: '', currency: 'USD' });
    expect(all.statusCode).toBe(201);
    expect(data<CustomerPriceWire>(all)).toMatchObject({ productReferenceId: null, discountBp: 10000, monthlyMinor: null, effectiveUntil: '2026-09-01' });
    const bruno = await send('POST', '/customer-prices', { customerId: ids.bruno, productReferenceId: 'SUB-TOKYO', effectiveFrom: '2026-01-01', topUp: '500', currency: 'JPY' });
    expect(data<CustomerPriceWire>(bruno)).toMatchObject({ topUpMinor: 500, discountBp: null });

    const anas = data<CustomerPriceWire[]>(await send('GET', `/customer-prices?customer=${ids.ana}`));
    expect(anas.map((r) => r.effectiveFrom)).toEqual(['2026-03-01', '2026-02-01']);
    const everyone = data<CustomerPriceWire[]>(await send('GET', '/customer-prices'));
    expect(new Set(everyone.map((r) => r.customerId))).toEqual(new Set([ids.ana, ids.bruno]));
    expect((await send('GET', '/customer-prices?customer=nope')).statusCode).toBe(400);
  });

  it.each([
    ['neither a discount nor a price', {}, null, M.customerPriceEmpty],
    ['a discount of 0', { discountPercent: '0' }, 'discountPercent', null],
    ['a discount over 100', { discountPercent: '100.01' }, 'discountPercent', null],
    ['a discount with 3 decimals', { discountPercent: '12.345' }, 'discountPercent', null],
    ['a negotiated price with 3 decimals', { monthly: '9.999' }, 'monthly', null],
    ['an end on the start', { discountPercent: '5', effectiveUntil: '2026-04-01' }, 'effectiveUntil', null],
    ['an end before the start', { discountPercent: '5', effectiveUntil: '2026-03-31' }, 'effectiveUntil', null],
    ['an unknown product', { discountPercent: '5', productReferenceId: 'SUB-NOPE' }, 'productReferenceId', null],
    ['figures in a currency the list does not price the product in', { monthly: '100', currency: 'JPY' }, 'currency', null],
  ])('refuses %s with a 400', async (_, over, field, message) => {
    const before = await count(sql`SELECT count(*) AS n FROM billing_customer_prices`);
    const response = await send('POST', '/customer-prices', { customerId: ids.bruno, productReferenceId: 'SUB-METERED-1TB', effectiveFrom: '2026-04-01', currency: 'USD', ...over });
    expect(response.statusCode).toBe(400);
    if (field) expect(paths(response)).toEqual([field]);
    if (message) expect(body(response).message).toBe(message);
    expect(await count(sql`SELECT count(*) AS n FROM billing_customer_prices`)).toBe(before);
  });

  it('answers 404 for a customer who does not exist or was deleted', async () => {
    for (const customerId of [UNKNOWN, ids.gone]) {
      const response = await send('POST', '/customer-prices', { customerId, productReferenceId: null, effectiveFrom: '2026-04-01', discountPercent: '5', currency: 'USD' });
      expect(response.statusCode).toBe(404);
      expect(body(response).message).toBe(M.customerNotFound);
    }
  });

  it('ends a price at the next cycle by default, or on a given day after its start, and keeps the row', async () => {
    const ended = await send('POST', `/customer-prices/${ids.anaPrice}/end`, {});
    expect(ended.statusCode).toBe(200);
    expect(body(ended).message).toBe(M.customerPriceEnded);
    expect(data<CustomerPriceWire>(ended)).toMatchObject({ id: ids.anaPrice, effectiveUntil: '2026-04-01', discountBp: 1250 });

    const moved = await send('POST', `/customer-prices/${ids.anaPrice}/end`, { effectiveUntil: '2026-03-20' });
    expect(data<CustomerPriceWire>(moved).effectiveUntil).toBe('2026-03-20');
    const early = await send('POST', `/customer-prices/${ids.anaPrice}/end`, { effectiveUntil: '2026-02-01' });
    expect(early.statusCode).toBe(400);
    expect(paths(early)).toEqual(['effectiveUntil']);
    expect(await count(sql`SELECT count(*) AS n FROM billing_customer_prices WHERE id = ${ids.anaPrice} AND effective_until = '2026-03-20'`)).toBe(1);

    const unknown = await send('POST', `/customer-prices/${UNKNOWN}/end`, {});
    expect(unknown.statusCode).toBe(404);
    expect(body(unknown).message).toBe(M.customerPriceNotFound);
    expect((await send('POST', '/customer-prices/42/end', {})).statusCode).toBe(400);
  });
});

describe('corrections', () => {
  it('stores a credit as a negative amount and a charge as a positive one, listed pending newest first', async () => {
    const credit = await send('POST', '/adjustments', { customerId: ids.ana, currency: 'USD', direction: 'credit', amount: '1234567.89', reason: '  Outage in February  ', againstStatementId: ids.anaStatement });
    expect(credit.statusCode).toBe(201);
    expect(body(credit).message).toBe(M.adjustmentSaved);
    expect(data<AdjustmentWire>(credit)).toMatchObject({
      customerId: ids.ana,
      customerName: 'ana Customer',
      currency: 'USD',
      amountMinor: -123456789,
      reason: 'Outage in February',
      source: 'manual',
      againstStatementId: ids.anaStatement,
      appliedStatementId: null,
      appliedStatementNumber: null,
    });
    ids.credit = data<AdjustmentWire>(credit).id;
    const charge = await send('POST', '/adjustments', { customerId: ids.ana, currency: 'USD', direction: 'charge', amount: '0.10', reason: 'Courier' });
    expect(data<AdjustmentWire>(charge)).toMatchObject({ amountMinor: 10, againstStatementId: null });
    ids.charge = data<AdjustmentWire>(charge).id;

    const [stored] = await rows<{ amount_minor: string }>(sql`SELECT amount_minor::text FROM billing_adjustments WHERE id = ${ids.credit}`);
    expect(stored?.amount_minor).toBe('-123456789');
    const pending = data<AdjustmentWire[]>(await send('GET', `/adjustments?customer=${ids.ana}`));
    expect(pending.map((a) => a.id)).toEqual([ids.charge, ids.credit]);
  });

  it.each([
    ['a zero amount', { amount: '0.00' }, 'amount'],
    ['a negative amount', { amount: '-5' }, 'amount'],
    ['three decimals in dollars', { amount: '5.005' }, 'amount'],
    ['an empty reason', { reason: '   ' }, 'reason'],
    ['a reason over 200 characters', { reason: 'x'.repeat(201) }, 'reason'],
    ['a direction that is neither', { direction: 'refund' }, 'direction'],
    ['a statement of another customer', { againstStatementId: 'brunoStatement' }, 'againstStatementId'],
    ['another currency than the statement’s', { againstStatementId: 'anaEurStatement' }, 'currency'],
  ])('refuses %s with a 400 naming the field', async (_, over, field) => {
    const before = await count(sql`SELECT count(*) AS n FROM billing_adjustments`);
    const payload: Record<string, unknown> = { customerId: ids.ana, currency: 'USD', direction: 'credit', amount: '5.00', reason: 'Goodwill', ...over };
    if (typeof payload.againstStatementId === 'string') payload.againstStatementId = ids[payload.againstStatementId];
    const response = await send('POST', '/adjustments', payload);
    expect(response.statusCode).toBe(400);
    expect(paths(response)).toEqual([field]);
    expect(await count(sql`SELECT count(*) AS n FROM billing_adjustments`)).toBe(before);
  });

  it('answers 404 for an unknown customer or statement', async () => {
    const customer = await send('POST', '/adjustments', { customerId: UNKNOWN, currency: 'USD', direction: 'charge', amount: '5', reason: 'x' });
    expect(customer.statusCode).toBe(404);
    expect(body(customer).message).toBe(M.customerNotFound);
    const statement = await send('POST', '/adjustments', { customerId: ids.ana, currency: 'USD', direction: 'charge', amount: '5', reason: 'x', againstStatementId: UNKNOWN });
    expect(statement.statusCode).toBe(404);
    expect(body(statement).message).toBe(M.statementNotFound);
  });

  it('deletes a pending correction, but not one a closed statement carries', async () => {
    // The February statement closes with the credit on it.
    await db().execute(sql`UPDATE billing_adjustments SET applied_statement_id = ${ids.anaStatement} WHERE id = ${ids.credit}`);
    await db().execute(sql`UPDATE billing_statements SET status = 'closed', number = 'ST-2026-02-000001', closed_at = now() WHERE id = ${ids.anaStatement}`);
    const applied = data<AdjustmentWire[]>(await send('GET', `/adjustments?customer=${ids.ana}&status=applied`));
    expect(applied.map((a) => [a.id, a.appliedStatementNumber])).toEqual([[ids.credit, 'ST-2026-02-000001']]);
    expect(data<AdjustmentWire[]>(await send('GET', '/adjustments')).map((a) => a.id)).toEqual([ids.charge]);
    expect(data<AdjustmentWire[]>(await send('GET', '/adjustments?status=all')).map((a) => a.id)).toEqual([ids.charge, ids.credit]);
    expect((await send('GET', '/adjustments?status=open')).statusCode).toBe(400);

    const refused = await send('DELETE', `/adjustments/${ids.credit}`);
    expect(refused.statusCode).toBe(409);
    expect(body(refused).message).toBe(M.adjustmentApplied);
    const deleted = await send('DELETE', `/adjustments/${ids.charge}`);
    expect(deleted.statusCode).toBe(200);
    expect(await count(sql`SELECT count(*) AS n FROM billing_adjustments WHERE id = ${ids.charge}`)).toBe(0);
    const again = await send('DELETE', `/adjustments/${ids.charge}`);
    expect(again.statusCode).toBe(404);
    expect(body(again).message).toBe(M.adjustmentNotFound);
  });
});

describe('who may read and change billing', () => {
  it('lets a viewer-role admin read but answers 403 to every change, writing nothing', async () => {
    for (const url of ['/prices', '/customer-prices', '/adjustments?status=all']) {
      expect((await send('GET', url, undefined, tokens.viewer)).statusCode, url).toBe(200);
    }
    const before = await count(sql`SELECT (SELECT count(*) FROM billing_prices) + (SELECT count(*) FROM billing_customer_prices) + (SELECT count(*) FROM billing_adjustments) AS n`);
    const changes: [method: 'POST' | 'DELETE', url: string, payload?: unknown][] = [
      ['POST', '/prices', price({ effectiveFrom: '2026-06-01' })],
      ['DELETE', `/prices/${ids.january}`],
      ['POST', '/customer-prices', { customerId: ids.bruno, productReferenceId: null, effectiveFrom: '2026-04-01', discountPercent: '5', currency: 'USD' }],
      ['POST', `/customer-prices/${ids.anaPrice}/end`, {}],
      ['POST', '/adjustments', { customerId: ids.ana, currency: 'USD', direction: 'charge', amount: '5', reason: 'x' }],
      ['DELETE', `/adjustments/${ids.credit}`],
    ];
    for (const [method, url, payload] of changes) {
      expect((await send(method, url, payload, tokens.viewer)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await count(sql`SELECT (SELECT count(*) FROM billing_prices) + (SELECT count(*) FROM billing_customer_prices) + (SELECT count(*) FROM billing_adjustments) AS n`)).toBe(before);
    expect(await count(sql`SELECT count(*) AS n FROM billing_customer_prices WHERE id = ${ids.anaPrice} AND effective_until = '2026-03-20'`)).toBe(1);
  });

  it('answers 403 to a customer on the billing lists', async () => {
    for (const url of ['/prices', '/customer-prices', '/adjustments']) expect((await send('GET', url, undefined, tokens.ana)).statusCode, url).toBe(403);
  });

  it('records every change in the audit log as the administrator who made it', async () => {
    const audit = await rows<{ action: string; target_id: string; actor_id: string; before: unknown; after: unknown }>(
      sql`SELECT action, target_id, actor_id::text AS actor_id, before, after FROM audit_log WHERE action LIKE 'billing.%' ORDER BY created_at, id`,
    );
    expect(audit.every((a) => a.actor_id === ids.admin)).toBe(true);
    const actions = (target: string) => audit.filter((a) => a.target_id === target).map((a) => a.action);
    expect(actions(ids.january!)).toEqual(['billing.price_added']);
    expect(actions(ids.april!)).toEqual(['billing.price_added', 'billing.price_withdrawn']);
    expect(actions(ids.anaPrice!)).toEqual(['billing.customer_price_added', 'billing.customer_price_ended', 'billing.customer_price_ended']);
    expect(actions(ids.credit!)).toEqual(['billing.adjustment_added']);
    expect(actions(ids.charge!)).toEqual(['billing.adjustment_added', 'billing.adjustment_deleted']);
    const [added] = audit.filter((a) => a.target_id === ids.january);
    expect(added?.after).toMatchObject({ productReferenceId: 'SUB-METERED-1TB', monthlyMinor: 123456789, effectiveFrom: '2026-01-01' });
    const ends = audit.filter((a) => a.target_id === ids.anaPrice && a.action === 'billing.customer_price_ended');
    expect(ends.map((e) => [e.before, e.after])).toEqual([
      [{ effectiveUntil: null }, { effectiveUntil: '2026-04-01' }],
      [{ effectiveUntil: '2026-04-01' }, { effectiveUntil: '2026-03-20' }],
    ]);
  });
});

describe('the demo price list', () => {
  it('prices each plan at the provider’s price × 1.3 up to a whole unit less one minor unit, and data products not at all', () => {
    const planned = planDemoPrices(
      [
        { productReferenceId: 'SUB-METERED-50GB', price: 65, isoCurrencyCode: 'USD' },
        { productReferenceId: 'SUB-METERED-1TB', price: 165, isoCurrencyCode: 'USD' },
        { productReferenceId: 'SUB-PRIORITY-BLOCKS', price: 100, isoCurrencyCode: null },
        { productReferenceId: 'SUB-TOKYO', price: 9800, isoCurrencyCode: 'JPY' },
        { productReferenceId: 'SUB-UNPRICED', price: null, isoCurrencyCode: 'USD' },
        { productReferenceId: 'DATA-TOPUP-50GB', price: 50, isoCurrencyCode: 'USD' },
        { productReferenceId: 'OVERAGE-PRIORITY-PER-GB', price: 1, isoCurrencyCode: 'USD' },
      ],
      new Date(START),
    );
    expect(planned.map((p) => [p.productReferenceId, p.currency, p.monthlyMinor, p.overagePerGbMinor, p.topUpMinor, p.effectiveFrom])).toEqual([
      ['SUB-METERED-50GB', 'USD', 8499, 200, 6500, '2025-03-01'],
      ['SUB-METERED-1TB', 'USD', 21499, 200, 6500, '2025-03-01'],
      // 100 × 1.3 is 130 exactly (not 130.00000000000003 rounded up to 131).
      ['SUB-PRIORITY-BLOCKS', 'USD', 12999, 0, 6500, '2025-03-01'],
      ['SUB-TOKYO', 'JPY', 12739, 0, 65, '2025-03-01'],
    ]);
  });

  // It builds a second app and database of its own, in its body: on two busy cores the test once
  // took 39 s, past the 30 s default.
  it('seeds the list and the two customer prices once, on a demo database whose list is empty', async () => {
    const demo = await createTestContext({ now: START });
    try {
      const d = demo.database.db;
      await insertProduct(d, { productReferenceId: 'SUB-METERED-1TB', name: 'Local Priority 1 TB', price: 165, isoCurrencyCode: 'USD' });
      await insertProduct(d, { productReferenceId: 'SUB-METERED-50GB', name: 'Local Priority 50 GB', price: 65, isoCurrencyCode: 'USD' });
      await insertProduct(d, { productReferenceId: 'DATA-TOPUP-50GB', name: 'Top-up 50 GB', price: 50, isoCurrencyCode: 'USD' });
      const customer = async (name: string, extra: Record<string, unknown> = {}) => (await demo.createCustomer({ name, isActive: true, ...extra })).id;
      const aaron = await customer('Aaron Blocked', { blockedEnabled: true, blockedReason: 'Overdue', blockedAt: new Date(START) });
      const ana = await customer('Ana Fifty');
      const bruno = await customer('Bruno Terabyte');
      await customer('Carla Nolines');
      await insertServiceLines(d, [
        { serviceLineNumber: 'SL-1', productReferenceId: 'SUB-METERED-1TB' },
        { serviceLineNumber: 'SL-2', productReferenceId: 'SUB-METERED-50GB' },
        { serviceLineNumber: 'SL-3', productReferenceId: 'SUB-METERED-1TB' },
      ]);
      await insertTerminals(d, [
        terminalRow({ userTerminalId: 'UT1', serviceLineNumber: 'SL-1', assignedCustomerId: aaron }),
        terminalRow({ userTerminalId: 'UT2', serviceLineNumber: 'SL-2', assignedCustomerId: ana }),
        terminalRow({ userTerminalId: 'UT3', serviceLineNumber: 'SL-3', assignedCustomerId: bruno }),
      ]);
      const seed = () => demo.app.services.billingPrices.seedDemoOnce();

      // Not a demo database: nothing.
      expect(await seed()).toEqual({ prices: 0, customerPrices: 0 });
      await d.execute(sql`INSERT INTO app_meta (key, value) VALUES (${DEMO_SEEDED_KEY}, '{}'::jsonb)`);
      expect(await seed()).toEqual({ prices: 2, customerPrices: 2 });
      expect(await seed()).toEqual({ prices: 0, customerPrices: 0 });

      const list = ((await d.execute(sql`SELECT product_reference_id, monthly_minor::int AS monthly, effective_from::text AS from, note, created_by FROM billing_prices ORDER BY product_reference_id`)) as unknown as {
        rows: { product_reference_id: string; monthly: number; from: string; note: string; created_by: string | null }[];
      }).rows;
      expect(list).toEqual([
        { product_reference_id: 'SUB-METERED-1TB', monthly: 21499, from: '2025-03-01', note: DEMO_PRICE_NOTE, created_by: null },
        { product_reference_id: 'SUB-METERED-50GB', monthly: 8499, from: '2025-03-01', note: DEMO_PRICE_NOTE, created_by: null },
      ]);
      const own = ((await d.execute(sql`SELECT customer_id::text AS customer, product_reference_id AS product, monthly_minor::int AS monthly, discount_bp, note FROM billing_customer_prices ORDER BY note`)) as unknown as {
        rows: { customer: string; product: string | null; monthly: number | null; discount_bp: number | null; note: string }[];
      }).rows;
      // Bruno holds a 1 TB line (the blocked Aaron does not count); Ana is the next active holder by name.
      expect(own).toEqual([
        { customer: ana, product: null, monthly: null, discount_bp: 1000, note: DEMO_DISCOUNT_NOTE },
        { customer: bruno, product: 'SUB-METERED-1TB', monthly: 2000, discount_bp: null, note: DEMO_BELOW_COST_NOTE },
      ]);
    } finally {
      await demo.close();
    }
  }, 60_000);
});
