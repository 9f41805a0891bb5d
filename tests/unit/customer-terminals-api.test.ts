import { afterEach, describe, expect, it, vi } from 'vitest';
import { UNEXPECTED_RESPONSE } from '../../src/api/client';
import {
  normaliseAssignedTerminal,
  normaliseAssignResult,
  normaliseCustomerDailyUsage,
  normaliseServiceLineHistory,
  normaliseUnassignResult,
  normaliseUsageRecord,
  UNKNOWN_FAILURE_CODE,
} from '../../src/api/customer-terminals';
import { UNKNOWN_ID } from '../../src/api/terminals';
import { ASSIGN_REASONS, ASSIGNED_PREVIEW_SIZE } from '../../src/domain/customer-terminals';
import { apiAnswering, envelope } from '../fixtures/api-fetch';
import { assignedTerminal, CUSTOMER_UUID, usageRecord } from '../fixtures/customer-terminals-client';

const SL = 'AST-511274-31364-54';

describe('normaliseAssignResult', () => {
  const failure = { serviceLineNumber: 'AST-1', reason: ASSIGN_REASONS.notFound, code: 'not_found' };

  it('reads the answer as the server sends it', () => {
    const result = { assigned: [SL], failed: [failure], total: 2 };
    expect(normaliseAssignResult(result)).toEqual(result);
  });

  it('reads snake_case failures and skips failures without a service line', () => {
    const result = normaliseAssignResult({
      assigned: [],
      failed: [{ service_line_number: 'AST-2', reason: ASSIGN_REASONS.removed, code: 'removed' }, { reason: 'x', code: 'removed' }, 'AST-3'],
      total: 3,
    });
    expect(result).toEqual({ assigned: [], failed: [{ serviceLineNumber: 'AST-2', reason: ASSIGN_REASONS.removed, code: 'removed' }], total: 3 });
  });

  it(`reads an unknown failure code as ${UNKNOWN_FAILURE_CODE} and keeps the server's reason`, () => {
    const result = normaliseAssignResult({ assigned: [], failed: [{ serviceLineNumber: 'AST-4', reason: 'Quarantined by the provider', code: 'quarantined' }] });
    expect(result?.failed).toEqual([{ serviceLineNumber: 'AST-4', reason: 'Quarantined by the provider', code: 'not_found' }]);
  });

  it('counts the lines read when the total is missing, and skips entries of `assigned` that are not text', () => {
    expect(normaliseAssignResult({ assigned: [SL, 7, null, 'AST-5'], failed: [failure] })).toEqual({ assigned: [SL, 'AST-5'], failed: [failure], total: 3 });
    expect(normaliseAssignResult({ failed: [failure] })).toEqual({ assigned: [], failed: [failure], total: 1 });
  });

  it.each([null, undefined, 'done', [SL], {}, { assigned: SL }, { total: 2 }])('cannot read %j (the call fails)', (raw) => {
    expect(normaliseAssignResult(raw)).toBeNull();
  });
});

describe('normaliseUnassignResult', () => {
  it('reads the line and the terminals unassigned, in either case, the asked line filling a missing one', () => {
    expect(normaliseUnassignResult({ serviceLineNumber: SL, unassigned: ['UT-1', 'UT-2'] }, 'ignored')).toEqual({ serviceLineNumber: SL, unassigned: ['UT-1', 'UT-2'] });
    expect(normaliseUnassignResult({ service_line_number: SL }, 'ignored')).toEqual({ serviceLineNumber: SL, unassigned: [] });
    expect(normaliseUnassignResult({ unassigned: ['UT-1'] }, SL)).toEqual({ serviceLineNumber: SL, unassigned: ['UT-1'] });
  });

  it('cannot read an answer that is not a record', () => {
    expect(normaliseUnassignResult('ok', SL)).toBeNull();
  });
});

describe('normaliseAssignedTerminal', () => {
  const terminal = assignedTerminal();

  it('reads the camelCase row of GET /terminals/customers/{uuid}/terminals', () => {
    expect(normaliseAssignedTerminal(terminal)).toEqual(terminal);
  });

  it('reads the same row in snake_case', () => {
    expect(
      normaliseAssignedTerminal({
        device_id: terminal.deviceId,
        service_line: terminal.serviceLine,
        status: 'Active',
        assigned_to: terminal.assignedTo,
        kit_serial_number: terminal.kitSerialNumber,
        assigned_at: terminal.assignedAt,
      }),
    ).toEqual(terminal);
  });

  it('takes list-row names too, reads any status but "Active" as Inactive, and gives "Unknown" for a missing id', () => {
    expect(normaliseAssignedTerminal({ user_terminal_id: 'UT-9', service_line_number: 'AST-9', status: 'active' })).toEqual({
      deviceId: 'UT-9',
      serviceLine: 'AST-9',
      status: 'Inactive',
      assignedTo: '',
      kitSerialNumber: UNKNOWN_ID,
      assignedAt: '',
      // An older server names no provider account.
      accountId: null,
      accountName: null,
    });
  });

  it.each([null, 'UT-1', 3, [terminal], { status: 'Active' }, { deviceId: ' ', serviceLine: '' }])('skips %j (no terminal and no line)', (raw) => {
    expect(normaliseAssignedTerminal(raw)).toBeNull();
  });
});

describe('normaliseUsageRecord', () => {
  const record = usageRecord({ used: 450.5, total: 1000 });

  it('reads the record as the server sends it', () => {
    expect(normaliseUsageRecord(record)).toEqual(record);
  });

  it('reads snake_case, computing a missing percentage and total used', () => {
    expect(
      normaliseUsageRecord({
        terminal_id: 'UT-7',
        service_line_number: 'AST-7',
        terminal_type: 'Standard',
        status: 'Suspended',
        data_cap: { amount: '500' },
        current_billing_cycle: {
          start_date: '2026-10-01',
          end_date: '2026-10-31',
          priority_data: { used: 460, total: 500 },
          standard_used: 12.25,
        },
        account_id: 2,
        account_name: 'Demo Brasil',
      }),
    ).toEqual({
      terminalId: 'UT-7',
      serviceLineNumber: 'AST-7',
      location: null,
      terminalType: 'Standard',
      plan: null,
      status: 'Suspended',
      dataCap: { amount: 500, unit: 'GB' },
      currentBillingCycle: {
        startDate: '2026-10-01',
        endDate: '2026-10-31',
        totalUsed: 472.25,
        priorityData: { used: 460, total: 500, unit: 'GB', percentage: 92 },
        standardUsed: 12.25,
      },
      accountId: 2,
      accountName: 'Demo Brasil',
    });
  });

  it('reads an unknown status as Pending, and a cycle without its dates as no usage', () => {
    const read = normaliseUsageRecord({ ...record, status: 'Online', currentBillingCycle: { startDate: '2026-11-01', priorityData: {} } });
    expect(read).toMatchObject({ status: 'Pending', currentBillingCycle: null });
  });

  it.each([null, 'UT-1', [record], { status: 'Active' }])('skips %j (no terminal and no line)', (raw) => {
    expect(normaliseUsageRecord(raw)).toBeNull();
  });
});

describe('normaliseCustomerDailyUsage', () => {
  it('keeps the date and the two figures the chart draws, in either case, negatives as zero', () => {
    expect(normaliseCustomerDailyUsage({ date: '2026-11-01', priorityGB: 1.5, standardGB: 0.25, optInPriorityGB: 9 })).toEqual({
      date: '2026-11-01',
      priorityGB: 1.5,
      standardGB: 0.25,
    });
    expect(normaliseCustomerDailyUsage({ date: '2026-11-02', priority_gb: '2', standard_gb: -1 })).toEqual({ date: '2026-11-02', priorityGB: 2, standardGB: 0 });
  });

  it.each([null, '2026-11-01', { priorityGB: 1 }])('skips %j (no date)', (raw) => {
    expect(normaliseCustomerDailyUsage(raw)).toBeNull();
  });
});

describe('normaliseServiceLineHistory', () => {
  const history = {
    serviceLineNumber: SL,
    terminalId: 'UT-0001A2B3',
    owner: { uuid: CUSTOMER_UUID, name: 'Northwind Shipping', company: null },
    cycles: [
      { startDate: '2026-11-01', endDate: '2026-11-30', priorityGB: 120, standardGB: 30, totalGB: 150, usageLimitGB: 1000, overageGB: 0 },
    ],
    records: [{ date: '2026-11-02', priorityGB: 4, standardGB: 1, optInPriorityGB: 0.5, nonBillableGB: 0 }],
    totals: { priorityGB: 4, standardGB: 1, totalGB: 5, days: 1 },
  };

  it('reads the answer as the server sends it', () => {
    expect(normaliseServiceLineHistory(history)).toEqual(history);
  });

  it('reads snake_case, skips cycles and records without dates, and sums missing totals from the records', () => {
    expect(
      normaliseServiceLineHistory(
        {
          terminal_id: null,
          cycles: [{ start_date: '2026-10-01', end_date: '2026-10-31', priority_gb: 10, standard_gb: 2, usage_limit_gb: null }, { start_date: '2026-09-01' }],
          records: [
            { date: '2026-10-03', priority_gb: 1.5, standard_gb: 0.5 },
            { date: '2026-10-02', priority_gb: 2 },
            { priority_gb: 99 },
          ],
        },
        'AST-ASKED',
      ),
    ).toEqual({
      serviceLineNumber: 'AST-ASKED',
      terminalId: null,
      owner: null,
      cycles: [{ startDate: '2026-10-01', endDate: '2026-10-31', priorityGB: 10, standardGB: 2, totalGB: 12, usageLimitGB: null, overageGB: null }],
      records: [
        { date: '2026-10-03', priorityGB: 1.5, standardGB: 0.5, optInPriorityGB: 0, nonBillableGB: 0 },
        { date: '2026-10-02', priorityGB: 2, standardGB: 0, optInPriorityGB: 0, nonBillableGB: 0 },
      ],
      totals: { priorityGB: 3.5, standardGB: 0.5, totalGB: 4, days: 2 },
    });
  });

  it('cannot read an answer that is not a record', () => {
    expect(normaliseServiceLineHistory([history])).toBeNull();
  });
});

describe('customer terminals API module', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('assignTerminals posts the customer and the lines, and answers the result with the server message', async () => {
    const result = { assigned: [SL], failed: [{ serviceLineNumber: 'AST-1', reason: ASSIGN_REASONS.alreadyAssigned, code: 'already_assigned' }], total: 2 };
    const { api, sent } = apiAnswering(200, envelope(result, '1 of 2 service lines assigned'));
    expect(await api.customerTerminals.assignTerminals(CUSTOMER_UUID, [SL, 'AST-1'])).toEqual({
      ok: true,
      status: 200,
      data: result,
      message: '1 of 2 service lines assigned',
    });
    expect(sent()).toEqual({
      path: '/api/v1/terminals/customers/assign-terminals',
      query: {},
      method: 'POST',
      body: { customerUuid: CUSTOMER_UUID, serviceLineNumbers: [SL, 'AST-1'] },
    });
  });

  it('assignTerminals passes a refusal through with the server message', async () => {
    const { api } = apiAnswering(404, { success: false, message: 'Customer not found' });
    expect(await api.customerTerminals.assignTerminals(CUSTOMER_UUID, [SL])).toEqual({ ok: false, status: 404, message: 'Customer not found' });
  });

  it('assignTerminals fails on an answer it cannot read', async () => {
    const { api } = apiAnswering(200, envelope({ ok: true }));
    expect(await api.customerTerminals.assignTerminals(CUSTOMER_UUID, [SL])).toEqual({ ok: false, status: 200, message: UNEXPECTED_RESPONSE });
  });

  it('unassignTerminal posts the customer and the line, and passes the 409 through', async () => {
    const done = apiAnswering(200, envelope({ serviceLineNumber: SL, unassigned: ['UT-0001A2B3'] }, `Service line ${SL} unassigned`));
    expect(await done.api.customerTerminals.unassignTerminal(CUSTOMER_UUID, SL)).toEqual({
      ok: true,
      status: 200,
      data: { serviceLineNumber: SL, unassigned: ['UT-0001A2B3'] },
      message: `Service line ${SL} unassigned`,
    });
    expect(done.sent()).toMatchObject({ path: '/api/v1/terminals/customers/unassign-terminal', method: 'POST', body: { customerUuid: CUSTOMER_UUID, serviceLineNumber: SL } });

    const refused = apiAnswering(409, { success: false, message: `Service line ${SL} is not assigned to this customer` });
    expect(await refused.api.customerTerminals.unassignTerminal(CUSTOMER_UUID, SL)).toEqual({
      ok: false,
      status: 409,
      message: `Service line ${SL} is not assigned to this customer`,
    });
  });

  it.each([
    ['a bare list', (rows: unknown[]) => rows],
    ['a list in `terminals`', (rows: unknown[]) => ({ terminals: rows })],
    ['a list in `data`', (rows: unknown[]) => ({ data: rows })],
  ])('assignedTerminals reads %s and skips unreadable rows', async (_shape, wrap) => {
    const terminal = assignedTerminal();
    const { api, sent } = apiAnswering(200, envelope(wrap([terminal, null, { status: 'Active' }])));
    expect(await api.customerTerminals.assignedTerminals(CUSTOMER_UUID)).toMatchObject({ ok: true, data: [terminal] });
    expect(sent()).toMatchObject({ path: `/api/v1/terminals/customers/${CUSTOMER_UUID}/terminals`, method: 'GET', query: {} });
  });

  it('assignedTerminals fails on an answer without a list, and encodes the uuid in the path', async () => {
    const { api, sent } = apiAnswering(200, envelope({ count: 2 }));
    expect(await api.customerTerminals.assignedTerminals('a/b c')).toEqual({ ok: false, status: 200, message: UNEXPECTED_RESPONSE });
    expect(sent().path).toBe('/api/v1/terminals/customers/a%2Fb%20c/terminals');
  });

  it('assignedTerminalsPage asks for the first ASSIGNED_PREVIEW_SIZE by default and reads the records and the total', async () => {
    const terminal = assignedTerminal();
    const { api, sent } = apiAnswering(200, envelope({ records: [terminal, null], pagination: { total: 3137, page: 1, limit: 50, pages: 63 } }));
    expect(await api.customerTerminals.assignedTerminalsPage(CUSTOMER_UUID)).toMatchObject({
      ok: true,
      data: { records: [terminal], pagination: { total: 3137, page: 1, limit: 50, pages: 63 } },
    });
    expect(sent()).toMatchObject({ path: `/api/v1/terminals/customers/${CUSTOMER_UUID}/terminals/page`, method: 'GET', query: { page: '1', limit: String(ASSIGNED_PREVIEW_SIZE) } });
  });

  it('assignedTerminalsPage fails on an answer without records, and counts the rows when the pagination is missing', async () => {
    expect(await apiAnswering(200, envelope([assignedTerminal()])).api.customerTerminals.assignedTerminalsPage(CUSTOMER_UUID)).toEqual({
      ok: false,
      status: 200,
      message: UNEXPECTED_RESPONSE,
    });
    const bare = await apiAnswering(200, envelope({ records: [assignedTerminal()] })).api.customerTerminals.assignedTerminalsPage(CUSTOMER_UUID, { page: 2, limit: 10 });
    expect(bare).toMatchObject({ ok: true, data: { pagination: { total: 1, page: 2, limit: 10 } } });
  });

  it('customerUsage sends the first and last UTC day of the asked month', async () => {
    const record = usageRecord();
    const { api, sent } = apiAnswering(200, envelope([record]));
    expect(await api.customerTerminals.customerUsage(CUSTOMER_UUID, { year: 2024, month: 2 })).toMatchObject({ ok: true, data: [record] });
    expect(sent()).toEqual({
      path: `/api/v1/terminals/customers/${CUSTOMER_UUID}/usage`,
      query: { billing_cycle_start: '2024-02-01', billing_cycle_end: '2024-02-29' },
      method: 'GET',
      body: undefined,
    });
  });

  it('customerUsage without a month sends the current UTC month', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // 23:30 on the last day of the year in New York is already January in UTC.
    vi.setSystemTime(new Date('2026-01-01T04:30:00.000Z'));
    const { api, sent } = apiAnswering(200, envelope([]));
    expect(await api.customerTerminals.customerUsage(CUSTOMER_UUID)).toMatchObject({ ok: true, data: [] });
    expect(sent().query).toEqual({ billing_cycle_start: '2026-01-01', billing_cycle_end: '2026-01-31' });
  });

  it.each([
    ['a list in `records`', (rows: unknown[]) => ({ records: rows })],
    ['a list in `data`', (rows: unknown[]) => ({ data: rows })],
  ])('customerUsage reads %s and skips unreadable rows', async (_shape, wrap) => {
    const record = usageRecord(null, { status: 'Maintenance' });
    const { api } = apiAnswering(200, envelope(wrap(['x', record, {}])));
    expect(await api.customerTerminals.customerUsage(CUSTOMER_UUID, { year: 2026, month: 11 })).toMatchObject({ ok: true, data: [record] });
  });

  it('customerUsage fails on an answer without a list, and passes a refusal through', async () => {
    const unreadable = apiAnswering(200, envelope({ records: 'none' }));
    expect(await unreadable.api.customerTerminals.customerUsage(CUSTOMER_UUID, { year: 2026, month: 11 })).toMatchObject({ ok: false, message: UNEXPECTED_RESPONSE });
    const refused = apiAnswering(400, { success: false, message: 'billing_cycle_end must not be before billing_cycle_start' });
    expect(await refused.api.customerTerminals.customerUsage(CUSTOMER_UUID, { year: 2026, month: 11 })).toEqual({
      ok: false,
      status: 400,
      message: 'billing_cycle_end must not be before billing_cycle_start',
    });
  });

  it('customerUsagePage sends the month and the table query, leaving out the defaults, and reads the page', async () => {
    const record = usageRecord();
    const page = { records: [record], pagination: { total: 26, page: 2, limit: 25, pages: 2 }, summary: { totalTerminals: 30, activeTerminals: 28, totalDataUsed: 1234.5, overLimit: 3 } };
    const { api, sent } = apiAnswering(200, envelope(page));
    const query = { year: 2024, month: 2, page: 2, limit: 25, search: '  rotterdam ', status: 'Suspended' as const, sort: { field: 'overage' as const, order: -1 as const } };
    expect(await api.customerTerminals.customerUsagePage(CUSTOMER_UUID, query)).toMatchObject({ ok: true, data: page });
    expect(sent()).toEqual({
      path: `/api/v1/terminals/customers/${CUSTOMER_UUID}/usage/page`,
      query: { billing_cycle_start: '2024-02-01', billing_cycle_end: '2024-02-29', page: '2', limit: '25', search: 'rotterdam', status: 'Suspended', sort: 'overage', order: 'desc' },
      method: 'GET',
      body: undefined,
    });
    const plain = apiAnswering(200, envelope(page));
    await plain.api.customerTerminals.customerUsagePage(CUSTOMER_UUID, { ...query, search: ' ', status: 'all', sort: null });
    expect(plain.sent().query).toEqual({ billing_cycle_start: '2024-02-01', billing_cycle_end: '2024-02-29', page: '2', limit: '25' });
  });

  it('customerUsagePage skips unreadable rows, derives missing figures, and fails without a list', async () => {
    const record = usageRecord(null);
    const { api } = apiAnswering(200, envelope({ records: ['x', record], summary: { total_terminals: 7, over_limit: 2 } }));
    expect(await api.customerTerminals.customerUsagePage(CUSTOMER_UUID, { year: 2026, month: 11, page: 1, limit: 25, search: '', status: 'all', sort: null })).toMatchObject({
      ok: true,
      data: {
        records: [record],
        pagination: { total: 1, page: 1, limit: 25, pages: 1 },
        summary: { totalTerminals: 7, activeTerminals: 0, totalDataUsed: 0, overLimit: 2 },
      },
    });
    for (const data of [[record], { records: 'none' }]) {
      const unreadable = apiAnswering(200, envelope(data));
      expect(await unreadable.api.customerTerminals.customerUsagePage(CUSTOMER_UUID, { year: 2026, month: 11, page: 1, limit: 25, search: '', status: 'all', sort: null })).toMatchObject({
        ok: false,
        message: UNEXPECTED_RESPONSE,
      });
    }
  });

  it('customerDailyUsage sends the range as start_date and end_date and answers the days', async () => {
    const days = [
      { date: '2026-11-01', priorityGB: 3, standardGB: 1 },
      { date: '2026-11-02', priorityGB: 0, standardGB: 0 },
    ];
    const { api, sent } = apiAnswering(200, envelope([...days, { priorityGB: 5 }]));
    expect(await api.customerTerminals.customerDailyUsage(CUSTOMER_UUID, { startDate: '2026-11-01', endDate: '2026-11-30' })).toMatchObject({
      ok: true,
      data: days,
    });
    expect(sent()).toMatchObject({
      path: `/api/v1/terminals/customers/${CUSTOMER_UUID}/usage/daily`,
      query: { start_date: '2026-11-01', end_date: '2026-11-30' },
    });
  });

  it('serviceLineUsageHistory sends only the parts of the query given', async () => {
    const full = apiAnswering(200, envelope({ serviceLineNumber: SL, records: [], cycles: [] }));
    expect(
      await full.api.customerTerminals.serviceLineUsageHistory(SL, {
        billingCycleStart: '2026-01-01',
        billingCycleEnd: '2026-12-31',
        startDate: '2026-11-01',
        endDate: '2026-11-30',
        limit: 31,
      }),
    ).toMatchObject({ ok: true, data: { serviceLineNumber: SL, totals: { priorityGB: 0, standardGB: 0, totalGB: 0, days: 0 } } });
    expect(full.sent()).toEqual({
      path: `/api/v1/usage/service-line/${SL}`,
      query: { billing_cycle_start: '2026-01-01', billing_cycle_end: '2026-12-31', start_date: '2026-11-01', end_date: '2026-11-30', limit: '31' },
      method: 'GET',
      body: undefined,
    });

    const bare = apiAnswering(200, envelope({}));
    expect(await bare.api.customerTerminals.serviceLineUsageHistory(SL)).toMatchObject({ ok: true, data: { serviceLineNumber: SL } });
    expect(bare.sent().query).toEqual({});
  });

  it('serviceLineUsageHistory passes "Service line not found" through', async () => {
    const { api } = apiAnswering(404, { success: false, message: 'Service line not found' });
    expect(await api.customerTerminals.serviceLineUsageHistory('AST-0')).toEqual({ ok: false, status: 404, message: 'Service line not found' });
  });
});
