import { describe, expect, it, vi } from 'vitest';
import { createApi } from '../../src/api';
import {
  UNKNOWN_ID,
  normaliseDetail,
  normaliseFleetHealth,
  normaliseSyncJob,
  normaliseSyncQueue,
  normaliseSyncStats,
  normaliseTerminalPage,
  normaliseTerminalRow,
  normaliseUsage,
  terminalListSearchParams,
} from '../../src/api/terminals';
import { syncJobFixture, terminalDetailFixture, terminalFixture, terminalRowWire, usageFixture } from '../fixtures/terminals-client';

const wire = terminalRowWire();
const item = terminalFixture();

/** The same row with camelCase keys (older servers, other endpoints). */
const camelRow = {
  userTerminalId: wire.user_terminal_id,
  kitSerialNumber: wire.kit_serial_number,
  dishSerialNumber: wire.dish_serial_number,
  serviceLineNumber: wire.service_line_number,
  nickname: wire.nickname,
  active: wire.active,
  assignedTo: wire.assigned_to,
  assignedToCustomer: wire.assigned_to_customer,
  syncStatus: wire.sync_status,
  lastSyncedAt: wire.last_synced_at,
  dataCapUpdatedAt: wire.data_cap_updated_at,
  updatedAt: wire.updated_at,
  condition: wire.condition,
  terminalType: wire.terminal_type,
  plan: wire.plan,
  location: wire.location,
  region: wire.region,
  accountId: wire.account_id,
  accountName: wire.account_name,
};

describe('normaliseTerminalRow', () => {
  it('reads a snake_case row of GET /terminals into the camelCase list item', () => {
    expect(normaliseTerminalRow(wire)).toEqual(item);
  });

  it('reads the same row in camelCase', () => {
    expect(normaliseTerminalRow(camelRow)).toEqual(item);
  });

  it('gives "Unknown" for each missing or blank id, active false by default, and no owner fields when unassigned', () => {
    const row = normaliseTerminalRow({ user_terminal_id: '  ', kit_serial_number: null, assigned_to: null, assigned_to_customer: '' });
    expect(row).toMatchObject({
      userTerminalId: UNKNOWN_ID,
      kitSerialNumber: UNKNOWN_ID,
      dishSerialNumber: UNKNOWN_ID,
      serviceLineNumber: UNKNOWN_ID,
      active: false,
      nickname: null,
      lastSyncedAt: null,
      condition: null,
    });
    expect(row).not.toHaveProperty('assignedTo');
    expect(row).not.toHaveProperty('assignedToCustomer');
  });

  it('takes numeric ids as text, and reads an unknown sync status or condition as pending / none', () => {
    expect(normaliseTerminalRow({ ...wire, user_terminal_id: 1234, sync_status: 'weird', condition: 'broken' })).toMatchObject({
      userTerminalId: '1234',
      syncStatus: 'pending',
      condition: null,
    });
  });

  it('reads the provider account, and none from an older server that does not send it', () => {
    expect(normaliseTerminalRow({ ...wire, account_id: 2, account_name: 'Demo Brasil' })).toMatchObject({ accountId: 2, accountName: 'Demo Brasil' });
    const { account_id: _id, account_name: _name, ...older } = wire;
    expect(normaliseTerminalRow(older)).toMatchObject({ accountId: null, accountName: null });
    expect(normaliseTerminalRow({ ...wire, account_id: 0, account_name: ' ' })).toMatchObject({ accountId: null, accountName: null });
  });

  it('keeps only the customer id when the name is missing (the Owner cell says "Customer")', () => {
    const row = normaliseTerminalRow({ ...wire, assigned_to_customer: null });
    expect(row?.assignedTo).toBe(wire.assigned_to);
    expect(row).not.toHaveProperty('assignedToCustomer');
  });

  it.each([null, undefined, 'UT-1', 42, true, [wire]])('cannot transform %j (null: the row is skipped)', (raw) => {
    expect(normaliseTerminalRow(raw)).toBeNull();
  });
});

describe('normaliseTerminalPage (spec 7: every accepted shape)', () => {
  it('reads the server page {results, totalCount, page, limit}', () => {
    const page = normaliseTerminalPage({ results: [wire], totalCount: 57, page: 3, limit: 25 });
    expect(page).toEqual({ terminals: [item], pagination: { total: 57, page: 3, limit: 25, pages: 3 } });
  });

  it('reads a bare list: the total is the rows read', () => {
    expect(normaliseTerminalPage([wire, camelRow])).toEqual({
      terminals: [item, item],
      pagination: { total: 2, page: 1, limit: 25, pages: 1 },
    });
  });

  it('reads an object whose `data` holds the list, with totalCount (or total_count) beside it', () => {
    expect(normaliseTerminalPage({ data: [camelRow], totalCount: 9 }).pagination.total).toBe(9);
    expect(normaliseTerminalPage({ data: [camelRow], total_count: '11' }).pagination.total).toBe(11);
    expect(normaliseTerminalPage({ data: [camelRow] }).terminals).toEqual([item]);
  });

  it('falls back to the query for page and limit when the answer leaves them out', () => {
    expect(normaliseTerminalPage({ results: [], totalCount: 120 }, { page: 2, limit: 50 }).pagination).toEqual({
      total: 120,
      page: 2,
      limit: 50,
      pages: 3,
    });
  });

  it('skips rows that cannot be transformed and keeps the rest', () => {
    const page = normaliseTerminalPage({ results: [null, wire, 'UT-9', 7, [], camelRow], totalCount: 6 });
    expect(page.terminals).toEqual([item, item]);
    expect(page.pagination.total).toBe(6);
  });

  it.each([null, undefined, 'terminals', 12, { rows: [wire] }, { results: 'x' }, { data: { results: [wire] } }])(
    'an unexpected shape %j is an empty list',
    (data) => {
      expect(normaliseTerminalPage(data).terminals).toEqual([]);
    },
  );
});

describe('terminalListSearchParams', () => {
  it('sends active as true/false for Active/Inactive, nothing for All, and drops a blank search', () => {
    expect(terminalListSearchParams({ status: 'active', search: '  AST-5 ' })).toEqual({
      page: 1,
      limit: 25,
      search: 'AST-5',
      active: true,
      assigned: undefined,
      sync_status: undefined,
      sort: undefined,
    });
    expect(terminalListSearchParams({ status: 'inactive', search: '  ' })).toMatchObject({ active: false, search: undefined });
    expect(terminalListSearchParams({ status: 'all', page: 4, limit: 100, assigned: false, syncStatus: 'error', sort: '-last_synced' })).toEqual({
      page: 4,
      limit: 100,
      search: undefined,
      active: undefined,
      assigned: false,
      sync_status: 'error',
      sort: '-last_synced',
    });
  });

  it('sends the Account filter as account_id, and nothing without one', () => {
    expect(terminalListSearchParams({ accountId: 2 })).toMatchObject({ account_id: 2 });
    expect(terminalListSearchParams({}).account_id).toBeUndefined();
  });
});

describe('sync normalisers', () => {
  const job = syncJobFixture({ status: 'running', phase: 'Reading user terminals (page 3)', progress: 40, startedAt: '2026-11-20T10:00:01.000Z' });

  it('reads a sync job as the server sends it', () => {
    expect(normaliseSyncJob(job)).toEqual(job);
  });

  it('reads snake_case fields, a numeric id, defaults and a clamped progress', () => {
    expect(
      normaliseSyncJob({ job_id: 7, status: 'succeeded', progress: 140, provider_calls: '12', queued_at: 'q', finished_at: 'f', counts: { added: 3 }, account_id: 2, account_name: 'Demo Brasil' }),
    ).toEqual({
      ...syncJobFixture({ id: '7', status: 'succeeded', progress: 100, providerCalls: 12, queuedAt: 'q', finishedAt: 'f', requestedBy: null, accountId: 2, accountName: 'Demo Brasil' }),
      counts: { added: 3, updated: 0, unchanged: 0, removed: 0, failed: 0 },
    });
  });

  it('reads a run that names no account (an older server) as of no known account', () => {
    expect(normaliseSyncJob({ id: 'r', status: 'running', account_id: 'x' })).toMatchObject({ accountId: null, accountName: null });
  });

  it.each([null, 'run-1', { status: 'running' }, { id: '', status: 'running' }, { id: 'r', status: 'paused' }])(
    'a job without an id or a known status cannot be followed: %j',
    (raw) => {
      expect(normaliseSyncJob(raw)).toBeNull();
    },
  );

  it('reads the queue: the active job or null, and the readable recent runs', () => {
    const done = syncJobFixture({ id: 'run-41', status: 'succeeded' });
    expect(normaliseSyncQueue({ active: job, recent: [done, { nope: true }] })).toEqual({ active: job, recent: [done] });
    expect(normaliseSyncQueue({ active: null })).toEqual({ active: null, recent: [] });
    expect(normaliseSyncQueue('busy')).toEqual({ active: null, recent: [] });
  });

  it('reads sync stats with zeros for what is missing or negative', () => {
    expect(normaliseSyncStats({ synced: 120, pending: '3', error: 1 })).toEqual({ synced: 120, pending: 3, error: 1 });
    expect(normaliseSyncStats({ synced: -4 })).toEqual({ synced: 0, pending: 0, error: 0 });
    expect(normaliseSyncStats(null)).toEqual({ synced: 0, pending: 0, error: 0 });
  });

  it('reads the fleet health, keeping null for figures the server does not know', () => {
    const health = {
      total: 10,
      priority: 4,
      standard: 6,
      active: 7,
      warning: 1,
      maintenance: 1,
      inactive: 1,
      assigned: 8,
      unassigned: 2,
      averageSignalQuality: 91,
      networkUptime: null,
      monthlyUsageGB: 1536.5,
      priorityShare: 62,
      sync: { synced: 9, pending: 0, error: 1 },
      lastSync: job,
    };
    expect(normaliseFleetHealth(health)).toEqual(health);
    expect(normaliseFleetHealth({})).toMatchObject({ total: 0, averageSignalQuality: null, monthlyUsageGB: null, lastSync: null });
  });
});

describe('normaliseDetail and normaliseUsage', () => {
  const detail = terminalDetailFixture();
  const { owner, dataCap, model, accountNumber, serviceLine, address, telemetry, syncError, removedAt } = detail;
  /** `GET /terminals/{id}` data: the row's snake_case fields plus the camelCase extras. */
  const detailWire = { ...wire, owner, dataCap, model, accountNumber, serviceLine, address, telemetry, syncError, removedAt };

  it('reads the detail answer (snake_case row fields, camelCase extras)', () => {
    expect(normaliseDetail(detailWire)).toEqual(detail);
  });

  it('reads a bare detail with nulls for everything the dialog can do without', () => {
    expect(normaliseDetail({ user_terminal_id: 'UT-9', owner: { company: 'x' }, dataCap: { unit: 'GB' }, telemetry: { alerts: ['a', 3] } })).toMatchObject({
      userTerminalId: 'UT-9',
      owner: null,
      dataCap: null,
      serviceLine: null,
      telemetry: { alerts: ['a'], signalQuality: null },
    });
    expect(normaliseDetail('UT-9')).toBeNull();
  });

  it('reads the usage answer as sent', () => {
    const usage = usageFixture();
    expect(normaliseUsage(usage)).toEqual(usage);
  });

  it('reads snake_case usage, computes a missing percentage and total, and reads status other than "Active" as Inactive', () => {
    const usage = normaliseUsage(
      {
        service_line_number: 'SL-1',
        status: 'active',
        data_cap: { amount: '50' },
        current_billing_cycle: {
          start_date: '2026-10-01',
          end_date: '2026-10-31',
          priority_data: { used: 45.5, total: 50 },
          deprioritized_data: { used: 2 },
        },
        raw_usage_records: [{ date: '2026-10-02', priority_gb: 1.5 }, { priority_gb: 2 }],
      },
      'SL-ignored',
    );
    expect(usage).toMatchObject({
      serviceLineNumber: 'SL-1',
      status: 'Inactive',
      dataCap: { amount: 50, unit: 'GB' },
      currentBillingCycle: {
        priorityData: { used: 45.5, total: 50, unit: 'GB', percentage: 91 },
        deprioritizedData: { used: 2, unit: 'GB' },
        totalUsed: 47.5,
        totalUnit: 'GB',
      },
      dateRange: { start: '', end: '' },
      rawUsageRecords: [{ date: '2026-10-02', priorityGB: 1.5, standardGB: 0, optInPriorityGB: 0, nonBillableGB: 0 }],
    });
  });

  it('a month without usage has no billing cycle; the requested service line fills a missing one', () => {
    expect(normaliseUsage({ currentBillingCycle: null }, 'SL-2')).toMatchObject({ serviceLineNumber: 'SL-2', currentBillingCycle: null });
    expect(normaliseUsage({ currentBillingCycle: { startDate: '2026-10-01' } })?.currentBillingCycle).toBeNull();
    expect(normaliseUsage([])).toBeNull();
  });
});

function fakeFetch(status: number, body: unknown) {
  return vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
}

function terminalsApi(status: number, body: unknown) {
  const fetch = fakeFetch(status, body);
  const api = createApi({ baseURL: 'http://portal.test/api/v1', fetch: fetch as never, getToken: () => 'tok', onUnauthorized: () => {} });
  const call = (index = 0) => {
    const [input, init] = fetch.mock.calls[index]!;
    const url = new URL(String(input));
    return { path: url.pathname, query: Object.fromEntries(url.searchParams), method: init?.method ?? 'GET', body: init?.body ? JSON.parse(String(init.body)) : undefined };
  };
  return { api: api.terminals, call };
}

const envelope = (data: unknown, message = 'ok') => ({ success: true, data, message });

describe('terminals API module', () => {
  it('listTerminals sends the query and answers the normalised page', async () => {
    const { api, call } = terminalsApi(200, envelope({ results: [wire, null], totalCount: 1, page: 1, limit: 25 }));
    const result = await api.listTerminals({ search: ' north ', status: 'inactive', page: 1 });
    expect(result).toEqual({ ok: true, status: 200, message: 'ok', data: { terminals: [item], pagination: { total: 1, page: 1, limit: 25, pages: 1 } } });
    expect(call()).toMatchObject({ path: '/api/v1/terminals', method: 'GET', query: { search: 'north', active: 'false', page: '1', limit: '25' } });
  });

  it('listTerminals passes a refusal through with the server message', async () => {
    const { api } = terminalsApi(500, { success: false, message: 'Database unavailable' });
    expect(await api.listTerminals()).toEqual({ ok: false, status: 500, message: 'Database unavailable' });
  });

  it('startSync answers the queued job and the server message (202)', async () => {
    const job = syncJobFixture();
    const { api, call } = terminalsApi(202, envelope(job, 'Terminal sync has been started in the background.'));
    expect(await api.startSync()).toEqual({ ok: true, status: 202, data: job, message: 'Terminal sync has been started in the background.' });
    expect(call()).toMatchObject({ path: '/api/v1/terminals/sync', method: 'POST' });
  });

  it('startSync passes the 409 "already running" refusal through as data', async () => {
    const { api } = terminalsApi(409, { success: false, message: 'A terminal sync is already running' });
    expect(await api.startSync()).toEqual({ ok: false, status: 409, message: 'A terminal sync is already running' });
  });

  it('syncJob, syncQueue, syncStats and fleetHealth read their paths', async () => {
    const job = syncJobFixture({ status: 'running' });
    const jobApi = terminalsApi(200, envelope(job));
    expect(await jobApi.api.syncJob('run 42')).toMatchObject({ ok: true, data: job });
    expect(jobApi.call().path).toBe('/api/v1/terminals/sync/job/run%2042');

    const queueApi = terminalsApi(200, envelope({ active: job, recent: [] }));
    expect(await queueApi.api.syncQueue()).toMatchObject({ ok: true, data: { active: job, recent: [] } });
    expect(queueApi.call().path).toBe('/api/v1/terminals/sync/queue');

    const statsApi = terminalsApi(200, envelope({ synced: 5, pending: 1, error: 0 }));
    expect(await statsApi.api.syncStats()).toMatchObject({ ok: true, data: { synced: 5, pending: 1, error: 0 } });
    expect(statsApi.call().path).toBe('/api/v1/terminals/sync/stats');

    const healthApi = terminalsApi(200, envelope({ total: 3 }));
    expect(await healthApi.api.fleetHealth()).toMatchObject({ ok: true, data: { total: 3, sync: { synced: 0 } } });
    expect(healthApi.call().path).toBe('/api/v1/terminals/health');
  });

  it('a job answer that cannot be read is a failure, not a job', async () => {
    const { api } = terminalsApi(200, envelope({ status: 'running' }));
    expect(await api.syncJob('run-42')).toEqual({ ok: false, status: 200, message: 'Unexpected response from the server' });
  });

  it('terminalDetail reads the record, and passes "Terminal not found" through', async () => {
    const found = terminalsApi(200, envelope({ ...wire }));
    expect(await found.api.terminalDetail('UT-0001A2B3')).toMatchObject({ ok: true, data: { userTerminalId: 'UT-0001A2B3', owner: null } });
    expect(found.call().path).toBe('/api/v1/terminals/UT-0001A2B3');
    const missing = terminalsApi(404, { success: false, message: 'Terminal not found' });
    expect(await missing.api.terminalDetail('UT-X')).toEqual({ ok: false, status: 404, message: 'Terminal not found' });
  });

  it('serviceLineUsage sends year and month only when both are given', async () => {
    const usage = usageFixture();
    const both = terminalsApi(200, envelope(usage));
    expect(await both.api.serviceLineUsage('AST-511274-31364-54', { year: 2026, month: 11 })).toMatchObject({ ok: true, data: usage });
    expect(both.call()).toMatchObject({ path: '/api/v1/terminals/service-line/AST-511274-31364-54/usage', query: { year: '2026', month: '11' } });

    const one = terminalsApi(200, envelope(usage));
    await one.api.serviceLineUsage('AST-511274-31364-54', { year: 2026 });
    expect(one.call().query).toEqual({});
    const none = terminalsApi(200, envelope(usage));
    await none.api.serviceLineUsage('AST-511274-31364-54');
    expect(none.call().query).toEqual({});
  });

  it('refreshTerminal posts and answers the new sync status', async () => {
    const { api, call } = terminalsApi(200, envelope({ userTerminalId: 'UT-1', syncStatus: 'synced', lastSyncedAt: '2026-11-21T08:00:00.000Z' }));
    expect(await api.refreshTerminal('UT-1')).toMatchObject({
      ok: true,
      data: { userTerminalId: 'UT-1', syncStatus: 'synced', lastSyncedAt: '2026-11-21T08:00:00.000Z' },
    });
    expect(call()).toMatchObject({ path: '/api/v1/terminals/UT-1/refresh', method: 'POST' });
  });

  it('reportTerminalIssue posts the note', async () => {
    const { api, call } = terminalsApi(200, envelope({ reported: true }));
    expect(await api.reportTerminalIssue('UT-1', 'Dish knocked over by wind')).toMatchObject({ ok: true, data: { reported: true } });
    expect(call()).toMatchObject({ path: '/api/v1/terminals/UT-1/report-issue', method: 'POST', body: { note: 'Dish knocked over by wind' } });
  });
});
