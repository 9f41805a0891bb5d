// Subscriptions over HTTP: the list's figures, summary, search, filters and paging from a seeded
// world with known cycles (test clock 2026-03-02), the plans on offer, and plan changes against
// the real simulator: accepted ones written locally and audited, refused ones leaving nothing.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIPTION_MESSAGES, type SubscriptionListWire, type SubscriptionPlanWire, type SubscriptionWire } from '../../src/domain/subscriptions';
import type { Db } from '../../server/db/client';
import type { RunningSimulator } from '../../server/simulator';
import { NO_PROVIDER_MESSAGE } from '../../server/services';
import { describeActivity } from '../../server/services/dashboard-service';
import { insertProduct, insertServiceLines, insertTerminals, insertUsageCycles, lineOf, idOf, terminalRow } from '../fixtures/terminals';
import { createTestContext, type TestContext } from './helpers';
import { SYNC_TEST_TIME, fastClient, startFleet } from './terminal-sync-fixtures';

const BLOCKS_RAW = { dataProducts: { dataBlockProducts: [{ productId: 'BLOCK-50', dataAmount: 50, dataUnit: 'GB' }] } };

async function seedProducts(db: Db) {
  await insertProduct(db, { productReferenceId: 'P-50', name: 'Local Priority 50 GB', price: 65, isoCurrencyCode: 'USD' });
  await insertProduct(db, { productReferenceId: 'P-1TB', name: 'Local Priority 1 TB', price: 165, isoCurrencyCode: 'EUR' });
  await insertProduct(db, { productReferenceId: 'P-BLOCKS', name: 'Priority (recurring data blocks)', price: 25, raw: BLOCKS_RAW });
  await insertProduct(db, { productReferenceId: 'P-OLD', name: 'Legacy 10 GB', price: 5, removedAt: new Date('2026-02-01T00:00:00Z') });
}

/**
 * | n | line   | product  | cap    | cycle (priority / limit)      | type      | expected                      |
 * |---|--------|----------|--------|-------------------------------|-----------|-------------------------------|
 * | 1 | active | P-50     | —      | 57.3 / 50 (Mar)               | Enterprise| Over Plan 7.3 → 36.5, ana     |
 * | 2 | active | P-1TB    | 1 TB   | 250 / — (Mar)                 | Flat HP   | 1000 GB, 750 left, EUR        |
 * | 3 | active | P-50     | 50 GB  | only February's (99)          | Standard  | zeros, no cycle, no forecast  |
 * | 4 | off    | P-50     | —      | 60 / 50 (Mar)                 | Mini      | Suspended, overage 10         |
 * | 6 | active | P-BLOCKS | 200 GB | none                          | —         | "other" plan                  |
 * | 5 removed; 7 has no service line: neither is listed.
 */
async function seedWorld(db: Db, ana: string) {
  await seedProducts(db);
  await insertServiceLines(db, [
    { serviceLineNumber: lineOf(1), productReferenceId: 'P-50' },
    { serviceLineNumber: lineOf(2), productReferenceId: 'P-1TB' },
    { serviceLineNumber: lineOf(3), productReferenceId: 'P-50' },
    { serviceLineNumber: lineOf(4), productReferenceId: 'P-50', active: false },
    { serviceLineNumber: lineOf(5), productReferenceId: 'P-50' },
    { serviceLineNumber: lineOf(6), productReferenceId: 'P-BLOCKS' },
  ]);
  await insertTerminals(db, [
    terminalRow({ userTerminalId: idOf(1), serviceLineNumber: lineOf(1), terminalType: 'Enterprise', location: 'Lisbon, Portugal', assignedCustomerId: ana }),
    terminalRow({ userTerminalId: idOf(2), serviceLineNumber: lineOf(2), terminalType: 'Flat High Performance', dataCapAmount: 1, dataCapUnit: 'TB', location: 'Porto, Portugal' }),
    terminalRow({ userTerminalId: idOf(3), serviceLineNumber: lineOf(3), terminalType: 'Standard', dataCapAmount: 50, dataCapUnit: 'GB' }),
    terminalRow({ userTerminalId: idOf(4), serviceLineNumber: lineOf(4), terminalType: 'Mini', active: false }),
    terminalRow({ userTerminalId: idOf(5), serviceLineNumber: lineOf(5), removedAt: new Date('2026-02-20T00:00:00Z') }),
    terminalRow({ userTerminalId: idOf(6), serviceLineNumber: lineOf(6), dataCapAmount: 200, dataCapUnit: 'GB' }),
    terminalRow({ userTerminalId: idOf(7) }),
  ]);
  const march = { cycleStart: '2026-03-01', cycleEnd: '2026-03-31' };
  await insertUsageCycles(db, [
    { serviceLineNumber: lineOf(1), ...march, priorityGb: 57.3, standardGb: 12, usageLimitGb: 50 },
    { serviceLineNumber: lineOf(2), ...march, priorityGb: 250 },
    { serviceLineNumber: lineOf(3), cycleStart: '2026-02-01', cycleEnd: '2026-02-28', priorityGb: 99, usageLimitGb: 50 },
    { serviceLineNumber: lineOf(4), ...march, priorityGb: 60, usageLimitGb: 50 },
    { serviceLineNumber: lineOf(5), ...march, priorityGb: 500, usageLimitGb: 50 },
  ]);
}

describe('the subscriptions list and the plans on offer', () => {
  let ctx: TestContext;
  let admin: string;
  let customerToken: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    const created = await ctx.createAdmin();
    admin = (await ctx.login('admin', created.email, created.password)).token!;
    const ana = await ctx.createCustomer({ name: 'Ana Costa' });
    customerToken = (await ctx.login('customer', ana.email, ana.password)).token!;
    await seedWorld(ctx.database.db, ana.id);
  });
  afterAll(() => ctx.close());

  async function list(query = '') {
    const res = await ctx.request({ method: 'GET', url: `/api/v1/subscriptions${query}`, token: admin });
    expect(res.statusCode).toBe(200);
    return (res.json() as { data: SubscriptionListWire }).data;
  }
  const lines = (data: SubscriptionListWire) => data.subscriptions.map((s) => s.serviceLineNumber);

  it('answers each live terminal on a line with its plan figures for the cycle containing today', async () => {
    const data = await list();
    const by = new Map(data.subscriptions.map((s) => [s.terminalId, s]));
    expect(by.get(idOf(1))).toEqual<SubscriptionWire>({
      terminalId: idOf(1),
      serviceLineNumber: lineOf(1),
      location: 'Lisbon, Portugal',
      terminalType: 'Enterprise',
      plan: '50 GB',
      productReferenceId: 'P-50',
      monthlyDataGB: 50,
      usedGB: 57.3,
      remainingGB: 0,
      overageGB: 7.3,
      overageCharges: 36.5,
      currency: 'USD',
      status: 'Over Plan',
      billingCycle: { startDate: '2026-03-01', endDate: '2026-03-31' },
      forecast: expect.objectContaining({ projectedUsedGB: expect.any(Number) }) as SubscriptionWire['forecast'],
      customerName: 'Ana Costa',
      accountId: 1,
      accountName: expect.any(String) as string,
    });
    expect(by.get(idOf(2))).toMatchObject({
      plan: '1 TB',
      monthlyDataGB: 1000,
      usedGB: 250,
      remainingGB: 750,
      overageGB: 0,
      currency: 'EUR',
      status: 'Active',
      terminalType: 'Flat High Performance',
      customerName: null,
      // 250 GB in 2 of 31 days → 3875 GB, 2875 over, × 5.
      forecast: { projectedUsedGB: 3875, projectedOverageGB: 2875, projectedCharges: 14375 },
    });
    expect(by.get(idOf(3))).toMatchObject({ plan: '50 GB', monthlyDataGB: 50, usedGB: 0, remainingGB: 50, overageGB: 0, billingCycle: null, forecast: null, terminalType: null });
    expect(by.get(idOf(4))).toMatchObject({ status: 'Suspended', overageGB: 10, overageCharges: 50, terminalType: 'Mini' });
    expect(by.get(idOf(6))).toMatchObject({ plan: '200 GB', monthlyDataGB: 200, status: 'Active', usedGB: 0 });
    expect(by.has(idOf(5))).toBe(false);
    expect(by.has(idOf(7))).toBe(false);
  });

  it('orders over-plan terminals first by overage, then the rest by service line, and sums the whole inventory', async () => {
    const data = await list();
    expect(lines(data)).toEqual([lineOf(4), lineOf(1), lineOf(2), lineOf(3), lineOf(6)]);
    expect(data.summary).toEqual({ totalTerminals: 5, plans50GB: 3, plans1TB: 1, overageTerminals: 2, totalOverageGB: 17.3 });
    expect(data.pagination).toEqual({ total: 5, page: 1, limit: 25, pages: 1 });
  });

  it('searches terminal id, service line, location and customer name case-insensitively, keeping the summary whole', async () => {
    expect(lines(await list('?search=ana%20COSTA'))).toEqual([lineOf(1)]);
    expect(lines(await list('?search=porto'))).toEqual([lineOf(2)]);
    expect(lines(await list(`?search=${idOf(3).toLowerCase()}`))).toEqual([lineOf(3)]);
    const byLine = await list(`?search=${lineOf(6)}`);
    expect(lines(byLine)).toEqual([lineOf(6)]);
    expect(byLine.summary.totalTerminals).toBe(5);
    expect((await list('?search=nowhere')).pagination).toEqual({ total: 0, page: 1, limit: 25, pages: 0 });
  });

  it('filters by plan size and by over-plan, and pages the result', async () => {
    expect(lines(await list('?plan=1tb'))).toEqual([lineOf(2)]);
    expect(lines(await list('?plan=50gb'))).toEqual([lineOf(4), lineOf(1), lineOf(3)]);
    expect(lines(await list('?plan=other'))).toEqual([lineOf(6)]);
    expect(lines(await list('?over_plan=true'))).toEqual([lineOf(4), lineOf(1)]);
    expect(lines(await list('?over_plan=false&plan=50gb'))).toEqual([lineOf(3)]);
    const second = await list('?limit=2&page=2');
    expect(lines(second)).toEqual([lineOf(2), lineOf(3)]);
    expect(second.pagination).toEqual({ total: 5, page: 2, limit: 2, pages: 3 });
  });

  it('refuses malformed queries with 400', async () => {
    for (const query of ['?page=0', '?limit=101', '?plan=2tb', '?over_plan=yes', `?search=${'x'.repeat(101)}`]) {
      const res = await ctx.request({ method: 'GET', url: `/api/v1/subscriptions${query}`, token: admin });
      expect(res.statusCode, query).toBe(400);
    }
  });

  it('lists the live products with the monthly data their name or first data block gives', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/v1/subscriptions/plans', token: admin });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { data: SubscriptionPlanWire[] }).data).toEqual([
      { productReferenceId: 'P-BLOCKS', name: 'Priority (recurring data blocks)', monthlyDataGB: 50, price: 25, currency: 'USD' },
      { productReferenceId: 'P-50', name: 'Local Priority 50 GB', monthlyDataGB: 50, price: 65, currency: 'USD' },
      { productReferenceId: 'P-1TB', name: 'Local Priority 1 TB', monthlyDataGB: 1000, price: 165, currency: 'EUR' },
    ]);
  });

  it('answers 503 to a plan change when no provider is configured, after checking line and product', async () => {
    const res = await ctx.request({ method: 'PUT', url: `/api/v1/subscriptions/${lineOf(1)}/plan`, token: admin, payload: { productReferenceId: 'P-1TB' } });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ success: false, message: NO_PROVIDER_MESSAGE });
  });

  it('answers 401 without a token and 403 to a customer on every route', async () => {
    const routes = [
      { method: 'GET' as const, url: '/api/v1/subscriptions' },
      { method: 'GET' as const, url: '/api/v1/subscriptions/plans' },
      { method: 'PUT' as const, url: `/api/v1/subscriptions/${lineOf(1)}/plan`, payload: { productReferenceId: 'P-1TB' } },
    ];
    for (const route of routes) {
      expect((await ctx.request({ ...route, token: null })).statusCode, route.url).toBe(401);
      expect((await ctx.request({ ...route, token: customerToken })).statusCode, route.url).toBe(403);
    }
  });
});

describe('changing a plan through the provider', () => {
  let sim: RunningSimulator;
  let ctx: TestContext;
  let admin: string;
  let line: string;
  let terminalId: string;

  beforeAll(async () => {
    sim = await startFleet({ terminals: 40 });
    ctx = await createTestContext({ now: SYNC_TEST_TIME, env: { SYNC_INTERVAL: 'off' }, provider: { kind: 'simulator', client: () => fastClient(sim) } });
    const created = await ctx.createAdmin();
    admin = (await ctx.login('admin', created.email, created.password)).token!;
    // A line the simulator has on the 50 GB plan: moving it to 1 TB is an upgrade, applied at once.
    line = sim.fleet.serviceLineNumbers().find((n) => {
      const l = sim.fleet.serviceLine(n)!;
      return l.active && l.productReferenceId === 'SUB-METERED-50GB';
    })!;
    terminalId = idOf(1);
    const db = ctx.database.db;
    for (const product of sim.fleet.products()) {
      await insertProduct(db, { productReferenceId: product.productReferenceId, name: product.name, price: product.price, isoCurrencyCode: product.isoCurrencyCode, raw: product });
    }
    // Stored, but not one the provider sells on this account: the simulator refuses it with 422.
    await insertProduct(db, { productReferenceId: 'SUB-LEGACY-10GB', name: 'Legacy 10 GB', price: 10 });
    await insertServiceLines(db, [{ serviceLineNumber: line, productReferenceId: 'SUB-METERED-50GB' }]);
    await insertTerminals(db, [terminalRow({ userTerminalId: terminalId, serviceLineNumber: line, productReferenceId: 'SUB-METERED-50GB', plan: 'Local Priority 50 GB', dataCapAmount: 50, dataCapUnit: 'GB' })]);
    await insertUsageCycles(db, [{ serviceLineNumber: line, cycleStart: '2026-03-01', cycleEnd: '2026-03-31', priorityGb: 57.3, usageLimitGb: 50 }]);
  });
  afterAll(async () => {
    await ctx.close();
    await sim.close();
  });

  const change = (sl: string, productReferenceId: unknown) =>
    ctx.request({ method: 'PUT', url: `/api/v1/subscriptions/${sl}/plan`, token: admin, payload: { productReferenceId } });

  async function localState() {
    const result = await ctx.database.db.execute(sql`
      SELECT sl.product_reference_id AS line_product, t.product_reference_id AS terminal_product, t.plan, t.data_cap_amount::float AS cap, t.data_cap_unit AS unit,
             (SELECT usage_limit_gb::float FROM service_line_usage_cycles c WHERE c.service_line_number = sl.service_line_number) AS cycle_limit
      FROM service_lines sl JOIN terminals t ON t.service_line_number = sl.service_line_number WHERE sl.service_line_number = ${line}`);
    return (result as unknown as { rows: Record<string, unknown>[] }).rows[0];
  }
  const audits = async () =>
    (
      (await ctx.database.db.execute(sql`SELECT before, after FROM audit_log WHERE action = 'subscription.plan_changed' AND target_id = ${line}`)) as unknown as {
        rows: { before: unknown; after: unknown }[];
      }
    ).rows;

  it('passes the provider refusal on and changes nothing locally', async () => {
    const before = await localState();
    const res = await change(line, 'SUB-LEGACY-10GB');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ success: false, message: 'Product SUB-LEGACY-10GB is not available on this account' });
    expect(await localState()).toEqual(before);
    expect(sim.fleet.serviceLine(line)!.productReferenceId).toBe('SUB-METERED-50GB');
    expect(await audits()).toEqual([]);
  });

  it('answers 409, not 502, for a line we hold that the provider does not know, and changes nothing (a fuzz-test finding)', async () => {
    const unknownLine = 'AST-424242-00000-42';
    await insertServiceLines(ctx.database.db, [{ serviceLineNumber: unknownLine, productReferenceId: 'SUB-METERED-50GB' }]);
    await insertTerminals(ctx.database.db, [terminalRow({ userTerminalId: idOf(42), serviceLineNumber: unknownLine, productReferenceId: 'SUB-METERED-50GB' })]);
    const res = await change(unknownLine, 'SUB-METERED-1TB');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ success: false, message: expect.stringContaining('the provider does not know it') });
    const product = await ctx.database.db.execute(sql`SELECT product_reference_id AS p FROM service_lines WHERE service_line_number = ${unknownLine}`);
    expect((product as unknown as { rows: { p: string }[] }).rows).toEqual([{ p: 'SUB-METERED-50GB' }]);
    expect(await audits()).toEqual([]);
  });

  it('answers 404 for a line without a live terminal, 400 for an unknown product or a malformed line, 409 for the same plan', async () => {
    expect((await change('AST-999999-99999-99', 'SUB-METERED-1TB')).json()).toMatchObject({ success: false, message: SUBSCRIPTION_MESSAGES.notFound });
    expect((await change('AST-999999-99999-99', 'SUB-METERED-1TB')).statusCode).toBe(404);
    const unknown = await change(line, 'SUB-NOPE');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ message: SUBSCRIPTION_MESSAGES.unknownPlan });
    expect((await change('bad line!', 'SUB-METERED-1TB')).statusCode).toBe(400);
    expect((await change(line, '')).statusCode).toBe(400);
    const same = await change(line, 'SUB-METERED-50GB');
    expect(same.statusCode).toBe(409);
    expect(same.json()).toMatchObject({ message: SUBSCRIPTION_MESSAGES.samePlan });
    expect(sim.fleet.serviceLine(line)!.productReferenceId).toBe('SUB-METERED-50GB');
  });

  it('moves the line at the provider, then writes plan and monthly data locally together and audits it', async () => {
    const res = await change(line, 'SUB-METERED-1TB');
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: { subscription: SubscriptionWire }; message: string };
    expect(body.message).toBe(SUBSCRIPTION_MESSAGES.planChanged(line, '1 TB'));
    expect(body.data.subscription).toMatchObject({
      terminalId,
      serviceLineNumber: line,
      productReferenceId: 'SUB-METERED-1TB',
      plan: '1 TB',
      monthlyDataGB: 1000,
      usedGB: 57.3,
      remainingGB: 942.7,
      overageGB: 0,
      status: 'Active',
    });
    expect(sim.fleet.serviceLine(line)!.productReferenceId).toBe('SUB-METERED-1TB');
    expect(await localState()).toEqual({
      line_product: 'SUB-METERED-1TB',
      terminal_product: 'SUB-METERED-1TB',
      plan: 'Local Priority 1 TB',
      cap: 1000,
      unit: 'GB',
      cycle_limit: 1000,
    });
    expect(await audits()).toEqual([
      {
        before: { productReferenceId: 'SUB-METERED-50GB', plan: '50 GB', monthlyDataGB: 50 },
        after: { serviceLineNumber: line, productReferenceId: 'SUB-METERED-1TB', plan: '1 TB', monthlyDataGB: 1000 },
      },
    ]);
    const [entry] = await audits();
    expect(describeActivity({ action: 'subscription.plan_changed', actorName: 'Ada', actorType: 'user', after: entry!.after })).toBe(`Ada moved ${line} to the 1 TB plan`);
  });
});
