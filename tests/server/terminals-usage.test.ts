// GET /terminals/service-line/{sl}/usage: the current billing cycle by the server clock, the cycle
// that started in a chosen month, the daily records, the line-only and removed cases, and bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceLineUsageWire } from '../../src/domain/terminals';
import { idOf, lineOf, seedTerminalWorld, type WorldCustomers } from '../fixtures/terminals';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
let token: string;
let admin: { email: string; password: string };
let people: WorldCustomers;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.createAdmin();
  token = (await ctx.login('admin', admin.email, admin.password)).token as string;
  const make = async (name: string, company: string) => (await ctx.createCustomer({ name, company, password: null })).id;
  people = {
    ana: await make('Ana Lima', 'Andes Copper'),
    bruno: await make('Bruno Okafor', 'Northwind Maritime'),
    elena: await make('Elena Nakamura', 'Boreal Timber'),
    gone: await make('Isabel Gone', 'Gone Ltd'),
    diego: await make('Diego Fernandes', 'Pacific Fish'),
    gabriela: await make('Gabriela Haddad', 'Coral Coast'),
  };
  await seedTerminalWorld(ctx.database.db, people);
});
afterAll(async () => {
  await ctx?.close();
});

async function usage(sl: string, query = '', as = token) {
  const res = await ctx.request({ method: 'GET', url: `/api/v1/terminals/service-line/${sl}/usage${query}`, token: as });
  return { status: res.statusCode, body: res.json() };
}

async function usageData(sl: string, query = ''): Promise<ServiceLineUsageWire> {
  const { status, body } = await usage(sl, query);
  expect(status, JSON.stringify(body)).toBe(200);
  expect(body).toMatchObject({ success: true, message: 'Service line usage retrieved successfully' });
  return body.data;
}

describe('service line usage, current billing cycle', () => {
  it('answers the cycle containing today, with the terminal, owner, cap, plan and daily records', async () => {
    expect(await usageData(lineOf(1))).toEqual({
      terminalId: idOf(1),
      serviceLineNumber: lineOf(1),
      status: 'Active',
      owner: { uuid: people.ana, name: 'Ana Lima', company: 'Andes Copper' },
      lastSyncedAt: '2026-03-02T08:01:00.000Z',
      dataCap: { amount: 50, unit: 'GB' },
      currentBillingCycle: {
        startDate: '2026-02-15',
        endDate: '2026-03-14',
        // No provider limit on this cycle: the 50 GB cap is the allowance.
        priorityData: { used: 40.5, total: 50, unit: 'GB', percentage: 81 },
        deprioritizedData: { used: 10.25, unit: 'GB' },
        totalUsed: 50.75,
        totalUnit: 'GB',
      },
      plan: 'Priority 50 GB',
      location: 'Mina Norte, Antofagasta, Chile',
      terminalType: 'Flat High Performance',
      dateRange: { start: '2026-02-15', end: '2026-03-14' },
      // Only the cycle's days, oldest first (stored out of order; 02-14 and 03-15 fall outside).
      rawUsageRecords: [
        { date: '2026-02-15', priorityGB: 1.25, standardGB: 0.5, optInPriorityGB: 0.25, nonBillableGB: 0.1 },
        { date: '2026-02-20', priorityGB: 3, standardGB: 1, optInPriorityGB: 0, nonBillableGB: 0 },
        { date: '2026-03-01', priorityGB: 2.5, standardGB: 0.75, optInPriorityGB: 0, nonBillableGB: 0 },
      ],
    });
  });

  it('counts a terabyte cap as 1,000 GB when the cycle carries no limit', async () => {
    const data = await usageData(lineOf(2));
    expect(data.dataCap).toEqual({ amount: 1, unit: 'TB' });
    expect(data.currentBillingCycle?.priorityData).toEqual({ used: 9.5, total: 1000, unit: 'GB', percentage: 1 });
  });

  it('answers no cycle, and the current month as the range, when none contains today', async () => {
    const data = await usageData(lineOf(3));
    expect(data).toMatchObject({
      terminalId: idOf(3),
      currentBillingCycle: null,
      dateRange: { start: '2026-03-01', end: '2026-03-31' },
      rawUsageRecords: [],
      owner: { uuid: people.bruno, name: 'Bruno Okafor' },
    });
  });

  it('follows the server clock', async () => {
    const start = ctx.clock.now();
    try {
      ctx.clock.set('2026-01-20T10:00:00.000Z');
      const earlier = (await ctx.login('admin', admin.email, admin.password)).token as string;
      const { body } = await usage(lineOf(1), '', earlier);
      expect(body.data.currentBillingCycle).toMatchObject({ startDate: '2026-01-15', endDate: '2026-02-14' });
    } finally {
      ctx.clock.set(start);
    }
  });

  it('answers Inactive for an inactive line', async () => {
    expect((await usageData(lineOf(5))).status).toBe('Inactive');
  });
});

describe('service line usage, a chosen month', () => {
  it('answers the cycle that started in that month, over the calendar month asked', async () => {
    const data = await usageData(lineOf(1), '?year=2026&month=1');
    expect(data.dateRange).toEqual({ start: '2026-01-01', end: '2026-01-31' });
    expect(data.currentBillingCycle).toEqual({
      startDate: '2026-01-15',
      endDate: '2026-02-14',
      // The provider's own 80 GB limit for this cycle wins over the 50 GB cap: 100 / 80.
      priorityData: { used: 100, total: 80, unit: 'GB', percentage: 125 },
      deprioritizedData: { used: 100, unit: 'GB' },
      totalUsed: 200,
      totalUnit: 'GB',
    });
    expect(data.rawUsageRecords.map((r) => r.date)).toEqual(['2026-01-20', '2026-02-14']);
  });

  it('answers the current cycle when asked for the month it started in', async () => {
    const data = await usageData(lineOf(1), '?year=2026&month=2');
    expect(data.dateRange).toEqual({ start: '2026-02-01', end: '2026-02-28' });
    expect(data.currentBillingCycle?.startDate).toBe('2026-02-15');
    expect(data.rawUsageRecords).toHaveLength(3);
  });

  it('answers no cycle for a month without one', async () => {
    const data = await usageData(lineOf(1), '?year=2025&month=12');
    expect(data).toMatchObject({ currentBillingCycle: null, dateRange: { start: '2025-12-01', end: '2025-12-31' }, rawUsageRecords: [] });
  });
});

describe('service lines without a live terminal', () => {
  it('answers a line the provider lists without a terminal, from the line itself', async () => {
    expect(await usageData('AST-200000-LINE-ONLY')).toMatchObject({
      terminalId: null,
      serviceLineNumber: 'AST-200000-LINE-ONLY',
      status: 'Inactive',
      owner: null,
      dataCap: null,
      plan: 'Priority 50 GB',
      lastSyncedAt: '2026-03-02T08:00:00.000Z',
      currentBillingCycle: null,
    });
  });

  it("answers a removed terminal's line with no terminal and the line's own cycle", async () => {
    const data = await usageData(lineOf(99));
    expect(data.terminalId).toBeNull();
    expect(data.currentBillingCycle).toMatchObject({ startDate: '2026-02-15', totalUsed: 1000, priorityData: { total: 0, percentage: 0 } });
  });

  it('answers 404 "Service line not found" to a line neither synced nor on any terminal', async () => {
    const { status, body } = await usage('AST-999999-99999-99');
    expect(status).toBe(404);
    expect(body).toMatchObject({ success: false, message: 'Service line not found' });
  });
});

describe('bad usage requests', () => {
  it.each([
    ['?year=2026', 'year and month must be given together'],
    ['?month=3', 'year and month must be given together'],
    ['?year=2026&month=13', 'month must be a whole number from 1 to 12'],
    ['?year=2026&month=0', 'month must be a whole number from 1 to 12'],
    ['?year=2026&month=march', 'month must be a whole number from 1 to 12'],
    ['?year=1999&month=1', 'year must be a whole number from 2000 to 2100'],
    ['?year=2101&month=1', 'year must be a whole number from 2000 to 2100'],
    ['?year=20x6&month=1', 'year must be a whole number from 2000 to 2100'],
    ['?year=2026.5&month=1', 'year must be a whole number from 2000 to 2100'],
  ])('answers 400 to %s', async (query, message) => {
    const { status, body } = await usage(lineOf(1), query);
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, message: `Validation failed: ${message}` });
  });

  it.each(['A', '-AST-1', 'AST_1', 'AST%201', `A${'1'.repeat(64)}`])('answers 400 to the service line %s', async (sl) => {
    const { status, body } = await usage(sl);
    expect(status).toBe(400);
    expect(body.message).toBe('Validation failed: Service line number must be 2 to 64 letters, digits or dashes');
  });
});
