// GET /terminals/customers/{uuid}/usage, /usage/daily and /usage/service-line/{sl}: which billing
// cycle each terminal shows (started in the month, containing today, overlapping a date range),
// the figures, the status of each terminal, the daily totals (zeros included, each line once),
// a service line's history, and bad queries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerDailyUsage, ServiceLineUsageHistory, TerminalUsageRecord } from '../../src/domain/customer-terminals';
import { insertServiceLines, insertTerminals, insertUsageCycles, insertUsageDays, terminalRow } from '../fixtures/terminals';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
let token: string;
let ulla: string;
let otto: string;
let gone: string;

const UNKNOWN_UUID = '5b0c1c1e-2f7a-4a59-9d1e-0b8f1f0d2a11';
const L = (n: number) => `AST-50000${n}-0000${n}-0${n}`;
/** A line with 120 days of records, for the default limit. */
const LONG_LINE = 'AST-600000-LONG-01';
const LINE_ONLY = 'AST-600000-LINE-ONLY';

beforeAll(async () => {
  // The server clock: 2026-03-02T09:00Z.
  ctx = await createTestContext();
  const admin = await ctx.createAdmin();
  token = (await ctx.login('admin', admin.email, admin.password)).token as string;
  ulla = (await ctx.createCustomer({ name: 'Ulla Usage', password: null })).id;
  otto = (await ctx.createCustomer({ name: 'Otto Other', password: null })).id;
  gone = (await ctx.createCustomer({ name: 'Gone Customer', password: null, deletedAt: ctx.clock.now() })).id;
  const db = ctx.database.db;
  await insertServiceLines(db, [
    { serviceLineNumber: L(1) },
    { serviceLineNumber: L(2) },
    { serviceLineNumber: L(3) },
    { serviceLineNumber: L(4) },
    // The provider suspended the line; the terminal row still says active.
    { serviceLineNumber: L(5), active: false },
    { serviceLineNumber: L(7) },
    { serviceLineNumber: LONG_LINE },
    { serviceLineNumber: LINE_ONLY },
  ]);
  const mine = { assignedCustomerId: ulla };
  await insertTerminals(db, [
    terminalRow({ userTerminalId: 'UT-U1-A', serviceLineNumber: L(1), ...mine, dataCapAmount: 50, dataCapUnit: 'GB', plan: 'Priority 50 GB', location: 'Harbour 1', terminalType: 'Standard' }),
    terminalRow({ userTerminalId: 'UT-U1-B', serviceLineNumber: L(1), ...mine, dataCapAmount: 50, dataCapUnit: 'GB', plan: 'Priority 50 GB', location: 'Harbour 1', terminalType: 'Mini' }),
    terminalRow({ userTerminalId: 'UT-U2', serviceLineNumber: L(2), ...mine, dataCapAmount: 1, dataCapUnit: 'TB', plan: 'Priority 1 TB', condition: 'maintenance' }),
    terminalRow({ userTerminalId: 'UT-U3', serviceLineNumber: L(3), ...mine, syncStatus: 'pending' }),
    terminalRow({ userTerminalId: 'UT-U4', serviceLineNumber: L(4), ...mine, active: false, condition: 'inactive' }),
    terminalRow({ userTerminalId: 'UT-U5', serviceLineNumber: L(5), ...mine }),
    terminalRow({ userTerminalId: 'UT-U6', serviceLineNumber: L(6), ...mine, removedAt: new Date('2026-02-01T00:00:00Z') }),
    terminalRow({ userTerminalId: 'UT-O7', serviceLineNumber: L(7), assignedCustomerId: otto }),
    terminalRow({ userTerminalId: 'UT-LONG', serviceLineNumber: LONG_LINE, assignedCustomerId: otto }),
  ]);
  await insertUsageCycles(db, [
    { serviceLineNumber: L(1), cycleStart: '2026-01-15', cycleEnd: '2026-02-14', priorityGb: 100, standardGb: 100, usageLimitGb: 80, overageGb: 20 },
    { serviceLineNumber: L(1), cycleStart: '2026-02-15', cycleEnd: '2026-03-14', priorityGb: 40.5, standardGb: 10.25 },
    { serviceLineNumber: L(1), cycleStart: '2026-03-15', cycleEnd: '2026-04-14', priorityGb: 1.25, standardGb: 0.5 },
    { serviceLineNumber: L(2), cycleStart: '2026-02-01', cycleEnd: '2026-02-28', priorityGb: 1200, standardGb: 3, usageLimitGb: 1000, overageGb: 200 },
    { serviceLineNumber: L(2), cycleStart: '2026-03-01', cycleEnd: '2026-03-31', priorityGb: 9.5, standardGb: 0 },
    // Two cycles started in February: the month shows the later one.
    { serviceLineNumber: L(4), cycleStart: '2026-02-01', cycleEnd: '2026-02-19', priorityGb: 1, standardGb: 1 },
    { serviceLineNumber: L(4), cycleStart: '2026-02-20', cycleEnd: '2026-03-19', priorityGb: 5, standardGb: 5 },
    { serviceLineNumber: L(6), cycleStart: '2026-02-15', cycleEnd: '2026-03-14', priorityGb: 500, standardGb: 500 },
  ]);
  await insertUsageDays(db, [
    { serviceLineNumber: L(1), usageDate: '2026-02-26', priorityGb: 9, standardGb: 9 },
    { serviceLineNumber: L(1), usageDate: '2026-02-28', priorityGb: 1, standardGb: 0.5, optInPriorityGb: 0.25, nonBillableGb: 0.1 },
    { serviceLineNumber: L(1), usageDate: '2026-03-01', priorityGb: 2.25, standardGb: 0.25 },
    { serviceLineNumber: L(1), usageDate: '2026-03-03', priorityGb: 0.1, standardGb: 0.2 },
    { serviceLineNumber: L(2), usageDate: '2026-03-01', priorityGb: 1.5, standardGb: 1 },
    { serviceLineNumber: L(2), usageDate: '2026-03-02', priorityGb: 0.33, standardGb: 0.67 },
    // A removed terminal's line and another customer's line: not Ulla's usage.
    { serviceLineNumber: L(6), usageDate: '2026-03-01', priorityGb: 100, standardGb: 100 },
    { serviceLineNumber: L(7), usageDate: '2026-03-01', priorityGb: 50, standardGb: 50 },
    ...Array.from({ length: 120 }, (_, i) => ({
      serviceLineNumber: LONG_LINE,
      usageDate: new Date(Date.UTC(2025, 10, 1 + i)).toISOString().slice(0, 10),
      priorityGb: 1,
      standardGb: 0.5,
    })),
  ]);
});
afterAll(async () => {
  await ctx?.close();
});

async function get(url: string, as: string | null = token) {
  const res = await ctx.request({ method: 'GET', url: `/api/v1${url}`, token: as });
  return { status: res.statusCode, body: res.json() };
}

async function usage(query = '', customer = ulla): Promise<TerminalUsageRecord[]> {
  const { status, body } = await get(`/terminals/customers/${customer}/usage${query}`);
  expect(status, JSON.stringify(body)).toBe(200);
  expect(body).toMatchObject({ success: true, message: 'Terminal usage retrieved successfully' });
  return body.data;
}

/** The portal's one provider account (migration 0024), which every terminal here lives under. */
const ACCOUNT = { accountId: 1, accountName: 'Provider account' };

/** Terminal id → the cycle's start date, or null. */
const cycleStarts = (records: TerminalUsageRecord[]) => Object.fromEntries(records.map((r) => [r.terminalId, r.currentBillingCycle?.startDate ?? null]));

describe("a customer's usage, current billing cycle", () => {
  it('answers one record per live terminal, by service line, with the cycle containing today and its figures', async () => {
    const l1 = (terminalId: string, terminalType: string): TerminalUsageRecord => ({
      terminalId,
      serviceLineNumber: L(1),
      location: 'Harbour 1',
      terminalType,
      plan: 'Priority 50 GB',
      status: 'Active',
      dataCap: { amount: 50, unit: 'GB' },
      // No limit on this cycle: the 50 GB cap is the allowance.
      currentBillingCycle: { startDate: '2026-02-15', endDate: '2026-03-14', totalUsed: 50.75, priorityData: { used: 40.5, total: 50, unit: 'GB', percentage: 81 }, standardUsed: 10.25 },
      ...ACCOUNT,
    });
    expect(await usage()).toEqual([
      l1('UT-U1-A', 'Standard'),
      l1('UT-U1-B', 'Mini'),
      {
        terminalId: 'UT-U2',
        serviceLineNumber: L(2),
        location: null,
        terminalType: null,
        plan: 'Priority 1 TB',
        status: 'Maintenance',
        dataCap: { amount: 1, unit: 'TB' },
        // A terabyte plan counts as 1,000 GB.
        currentBillingCycle: { startDate: '2026-03-01', endDate: '2026-03-31', totalUsed: 9.5, priorityData: { used: 9.5, total: 1000, unit: 'GB', percentage: 1 }, standardUsed: 0 },
        ...ACCOUNT,
      },
      { terminalId: 'UT-U3', serviceLineNumber: L(3), location: null, terminalType: null, plan: null, status: 'Pending', dataCap: null, currentBillingCycle: null, ...ACCOUNT },
      {
        terminalId: 'UT-U4',
        serviceLineNumber: L(4),
        location: null,
        terminalType: null,
        plan: null,
        status: 'Suspended',
        dataCap: null,
        // Neither a limit nor a cap: no allowance to measure against.
        currentBillingCycle: { startDate: '2026-02-20', endDate: '2026-03-19', totalUsed: 10, priorityData: { used: 5, total: 0, unit: 'GB', percentage: 0 }, standardUsed: 5 },
        ...ACCOUNT,
      },
      { terminalId: 'UT-U5', serviceLineNumber: L(5), location: null, terminalType: null, plan: null, status: 'Suspended', dataCap: null, currentBillingCycle: null, ...ACCOUNT },
    ]);
  });

  it('answers an empty list for a customer without terminals', async () => {
    expect(await usage('', (await ctx.createCustomer({ password: null })).id)).toEqual([]);
  });
});

describe('choosing the month', () => {
  it('shows the cycle that started in the month the page asks for (billing_cycle_start/end)', async () => {
    expect(cycleStarts(await usage('?billing_cycle_start=2026-03-01&billing_cycle_end=2026-03-31'))).toEqual({
      'UT-U1-A': '2026-03-15',
      'UT-U1-B': '2026-03-15',
      'UT-U2': '2026-03-01',
      'UT-U3': null,
      'UT-U4': null,
      'UT-U5': null,
    });
  });

  it('takes the later of two cycles that started in the month, and the cycle’s own limit as the allowance', async () => {
    const february = await usage('?billing_cycle_start=2026-02-01&billing_cycle_end=2026-02-28');
    expect(cycleStarts(february)).toEqual({ 'UT-U1-A': '2026-02-15', 'UT-U1-B': '2026-02-15', 'UT-U2': '2026-02-01', 'UT-U3': null, 'UT-U4': '2026-02-20', 'UT-U5': null });
    expect(february.find((r) => r.terminalId === 'UT-U2')!.currentBillingCycle).toEqual({
      startDate: '2026-02-01',
      endDate: '2026-02-28',
      totalUsed: 1203,
      priorityData: { used: 1200, total: 1000, unit: 'GB', percentage: 120 },
      standardUsed: 3,
    });
  });

  it('with start_date/end_date shows the latest cycle overlapping the range', async () => {
    expect(cycleStarts(await usage('?start_date=2026-02-10&end_date=2026-02-16'))).toEqual({
      'UT-U1-A': '2026-02-15',
      'UT-U1-B': '2026-02-15',
      'UT-U2': '2026-02-01',
      'UT-U3': null,
      'UT-U4': '2026-02-01',
      'UT-U5': null,
    });
  });

  it('prefers the billing range when both are given', async () => {
    const both = await usage('?billing_cycle_start=2026-03-01&billing_cycle_end=2026-03-31&start_date=2026-02-10&end_date=2026-02-16');
    expect(cycleStarts(both)['UT-U1-A']).toBe('2026-03-15');
  });
});

describe('daily usage for the chart', () => {
  it("answers every day of the range, zeros included, summed over the customer's distinct live lines", async () => {
    const { status, body } = await get(`/terminals/customers/${ulla}/usage/daily?start_date=2026-02-27&end_date=2026-03-03`);
    expect(status).toBe(200);
    expect(body.message).toBe('Daily usage retrieved successfully');
    // Line 1 carries two terminals and counts once; the removed terminal's and Otto's lines not at all.
    expect(body.data as CustomerDailyUsage[]).toEqual([
      { date: '2026-02-27', priorityGB: 0, standardGB: 0 },
      { date: '2026-02-28', priorityGB: 1, standardGB: 0.5 },
      { date: '2026-03-01', priorityGB: 3.75, standardGB: 1.25 },
      { date: '2026-03-02', priorityGB: 0.33, standardGB: 0.67 },
      { date: '2026-03-03', priorityGB: 0.1, standardGB: 0.2 },
    ]);
  });

  it('answers a single day, and the longest range allowed (400 days)', async () => {
    expect((await get(`/terminals/customers/${ulla}/usage/daily?start_date=2026-03-01&end_date=2026-03-01`)).body.data).toEqual([
      { date: '2026-03-01', priorityGB: 3.75, standardGB: 1.25 },
    ]);
    const longest = await get(`/terminals/customers/${ulla}/usage/daily?start_date=2025-01-01&end_date=2026-02-04`);
    expect(longest.status).toBe(200);
    expect(longest.body.data).toHaveLength(400);
    expect(longest.body.data.at(-1)).toEqual({ date: '2026-02-04', priorityGB: 0, standardGB: 0 });
  });

  it.each([
    ['no dates', '', 'Validation failed: start_date and end_date are required'],
    ['only start_date', '?start_date=2026-03-01', 'Validation failed: start_date and end_date are required'],
    ['a range over 400 days', '?start_date=2025-01-01&end_date=2026-02-05', 'Validation failed: start_date to end_date may span at most 400 days'],
  ])('answers 400 to %s', async (_what, query, message) => {
    const { status, body } = await get(`/terminals/customers/${ulla}/usage/daily${query}`);
    expect(status).toBe(400);
    expect(body.message).toBe(message);
  });
});

describe('bad usage queries and unknown customers', () => {
  it.each([
    ['billing_cycle_start without its end', '?billing_cycle_start=2026-03-01', 'billing_cycle_start and billing_cycle_end must be given together'],
    ['end_date without its start', '?end_date=2026-03-01', 'start_date and end_date must be given together'],
    ['a day that does not exist', '?billing_cycle_start=2026-02-30&billing_cycle_end=2026-03-31', 'billing_cycle_start must be a date written YYYY-MM-DD, like 2026-03-01'],
    ['a day without zero padding', '?start_date=2026-3-1&end_date=2026-03-31', 'start_date must be a date written YYYY-MM-DD, like 2026-03-01'],
    ['a timestamp', '?start_date=2026-03-01T00:00:00Z&end_date=2026-03-31', 'start_date must be a date written YYYY-MM-DD, like 2026-03-01'],
    ['a range the wrong way round', '?billing_cycle_start=2026-03-31&billing_cycle_end=2026-03-01', 'billing_cycle_start must not be after billing_cycle_end'],
    ['a range over 400 days', '?start_date=2024-01-01&end_date=2026-01-01', 'start_date to end_date may span at most 400 days'],
  ])('answers 400 to %s', async (_what, query, message) => {
    const { status, body } = await get(`/terminals/customers/${ulla}/usage${query}`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, message: `Validation failed: ${message}` });
  });

  it('answers 404 "Customer not found" for an unknown or deleted customer, and 400 for a malformed uuid', async () => {
    for (const customer of [UNKNOWN_UUID, gone]) {
      for (const path of ['usage', 'usage/daily?start_date=2026-03-01&end_date=2026-03-02']) {
        const { status, body } = await get(`/terminals/customers/${customer}/${path}`);
        expect(status).toBe(404);
        expect(body.message).toBe('Customer not found');
      }
    }
    expect((await get('/terminals/customers/12345/usage')).status).toBe(400);
  });

  it('answers 401 without a token and 403 to a customer token', async () => {
    const customer = await ctx.createCustomer();
    const customerToken = (await ctx.login('customer', customer.email, customer.password)).token as string;
    for (const url of [`/terminals/customers/${ulla}/usage`, `/terminals/customers/${ulla}/usage/daily?start_date=2026-03-01&end_date=2026-03-02`, `/usage/service-line/${L(1)}`]) {
      expect((await get(url, null)).status).toBe(401);
      expect((await get(url, customerToken)).status).toBe(403);
    }
  });
});

describe("a service line's usage history", () => {
  async function history(line: string, query = ''): Promise<ServiceLineUsageHistory> {
    const { status, body } = await get(`/usage/service-line/${line}${query}`);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.message).toBe('Service line usage history retrieved successfully');
    return body.data;
  }

  it('answers every stored cycle and day, newest first, with its terminal, owner and totals', async () => {
    expect(await history(L(1))).toEqual({
      serviceLineNumber: L(1),
      terminalId: 'UT-U1-A',
      owner: { uuid: ulla, name: 'Ulla Usage', company: 'Test Company Ltd' },
      cycles: [
        { startDate: '2026-03-15', endDate: '2026-04-14', priorityGB: 1.25, standardGB: 0.5, totalGB: 1.75, usageLimitGB: null, overageGB: null },
        { startDate: '2026-02-15', endDate: '2026-03-14', priorityGB: 40.5, standardGB: 10.25, totalGB: 50.75, usageLimitGB: null, overageGB: null },
        { startDate: '2026-01-15', endDate: '2026-02-14', priorityGB: 100, standardGB: 100, totalGB: 200, usageLimitGB: 80, overageGB: 20 },
      ],
      records: [
        { date: '2026-03-03', priorityGB: 0.1, standardGB: 0.2, optInPriorityGB: 0, nonBillableGB: 0 },
        { date: '2026-03-01', priorityGB: 2.25, standardGB: 0.25, optInPriorityGB: 0, nonBillableGB: 0 },
        { date: '2026-02-28', priorityGB: 1, standardGB: 0.5, optInPriorityGB: 0.25, nonBillableGB: 0.1 },
        { date: '2026-02-26', priorityGB: 9, standardGB: 9, optInPriorityGB: 0, nonBillableGB: 0 },
      ],
      totals: { priorityGB: 12.35, standardGB: 9.95, totalGB: 22.3, days: 4 },
    });
  });

  it('keeps the cycles that started in the billing range and the days in the date range; totals follow the records', async () => {
    const data = await history(L(1), '?billing_cycle_start=2026-02-01&billing_cycle_end=2026-02-28&start_date=2026-02-28&end_date=2026-03-01');
    expect(data.cycles.map((c) => c.startDate)).toEqual(['2026-02-15']);
    expect(data.records.map((r) => r.date)).toEqual(['2026-03-01', '2026-02-28']);
    expect(data.totals).toEqual({ priorityGB: 3.25, standardGB: 0.75, totalGB: 4, days: 2 });
  });

  it('answers at most `limit` records, the newest; 100 by default', async () => {
    const one = await history(L(1), '?limit=1');
    expect(one.records.map((r) => r.date)).toEqual(['2026-03-03']);
    expect(one.totals).toEqual({ priorityGB: 0.1, standardGB: 0.2, totalGB: 0.3, days: 1 });
    const long = await history(LONG_LINE);
    expect(long.records).toHaveLength(100);
    expect(long.records[0]!.date).toBe('2026-02-28');
    expect(long.totals).toEqual({ priorityGB: 100, standardGB: 50, totalGB: 150, days: 100 });
    expect((await history(LONG_LINE, '?limit=1000')).records).toHaveLength(120);
  });

  it('answers a listed line without a terminal with no terminal and no owner', async () => {
    expect(await history(LINE_ONLY)).toEqual({
      serviceLineNumber: LINE_ONLY,
      terminalId: null,
      owner: null,
      cycles: [],
      records: [],
      totals: { priorityGB: 0, standardGB: 0, totalGB: 0, days: 0 },
    });
  });

  it('answers 404 "Service line not found" for a line nothing knows, and 400 to bad input', async () => {
    const missing = await get('/usage/service-line/AST-404404-00000-00');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Service line not found');
    for (const [url, message] of [
      ['/usage/service-line/AST_1', 'Service line number must be 2 to 64 letters, digits or dashes'],
      [`/usage/service-line/${L(1)}?limit=0`, 'limit must be a whole number from 1 to 1000'],
      [`/usage/service-line/${L(1)}?limit=1001`, 'limit must be a whole number from 1 to 1000'],
      [`/usage/service-line/${L(1)}?limit=ten`, 'limit must be a whole number from 1 to 1000'],
      [`/usage/service-line/${L(1)}?billing_cycle_end=2026-03-01`, 'billing_cycle_start and billing_cycle_end must be given together'],
      [`/usage/service-line/${L(1)}?start_date=2026-13-01&end_date=2026-03-01`, 'start_date must be a date written YYYY-MM-DD, like 2026-03-01'],
    ] as const) {
      const res = await get(url);
      expect(res.status, url).toBe(400);
      expect(res.body.message).toBe(`Validation failed: ${message}`);
    }
  });
});
