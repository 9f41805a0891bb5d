// The CSV exports of the list pages over HTTP and the database, one table of exports
// and one loop over it: each export is closed to strangers (401), to customers, and to user-role
// portal users where its list is administrators' (403); read back, its file holds exactly the rows
// the list API answers over all its pages for a filter that selects a subset (crossing the export's
// 500-row pages where the world is large enough: 1,100 terminals, 700 on one customer, 1,200
// alerts); a query the list refuses is refused in the error envelope. Beside the loop: the literal
// /customers/export.csv is not taken for a customer id, and an unknown customer's usage is a 404.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvHeader, csvLine } from '../../src/domain/csv';
import {
  ALERTS_EXPORT,
  CUSTOMER_USAGE_EXPORT,
  CUSTOMERS_EXPORT,
  SUBSCRIPTIONS_EXPORT,
  TERMINALS_EXPORT,
  USERS_EXPORT,
  type ListExport,
} from '../../src/domain/list-exports';
import { insertFleetAround, insertTerminalsBulk, type BulkTerminal } from '../fixtures/terminals';
import { parseCsv } from '../fixtures/csv';
import { createTestContext, type TestContext } from './helpers';

const TODAY = '2026-03-02';
const TERMINALS = 1100;
/** Terminals 1–700 are on AST-7… lines and held by the big customer; 701–1100 on AST-8…, unassigned. */
const HELD = 700;
const ALERTS = 1200;

let ctx: TestContext;
const tokens: Record<'admin' | 'portalUser' | 'customer', string> = { admin: '', portalUser: '', customer: '' };
const ids: Record<'big' | 'acme', string> = { big: '', acme: '' };

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const lineOf = (n: number) => `AST-${n <= HELD ? 7 : 8}${pad(n, 5)}-00000-00`;

beforeAll(async () => {
  ctx = await createTestContext({ now: `${TODAY}T09:00:00.000Z` });
  const db = ctx.database.db;

  const admin = await ctx.createAdmin({ name: 'Export Admin', isActive: true });
  const portalUser = await ctx.createAdmin({ name: 'Export Viewer', role: 'user', isActive: true });
  for (const [name, isActive] of [['Ops Anna', true], ['Ops Bo', true], ['Ops Cy', false], ['Desk Dee', true]] as const) {
    await ctx.createAdmin({ name, isActive, password: null });
  }

  const big = await ctx.createCustomer({ name: 'Big Fleet', company: 'Big Fleet Ltd', isActive: true });
  ids.big = big.id;
  const customers = [
    { name: 'Acme North', company: 'Acme, North', isActive: true },
    { name: 'Acme South', company: 'Acme South', isActive: true, mfaEnabled: true, lastLogin: new Date('2026-03-01T08:00:00Z') },
    { name: '=HYPERLINK("http://evil.test")', company: 'Acme "Quoted"', isActive: true },
    { name: 'Acme Pending', company: 'Acme Pending', isActive: false },
    { name: 'Acme Blocked', company: 'Acme Blocked', isActive: true, blockedEnabled: true, blockedReason: 'Payment overdue', blockedAt: new Date('2026-02-01T00:00:00Z') },
    { name: 'Beta Only', company: 'Beta', isActive: true, accountExpiresAt: new Date('2026-12-31T00:00:00Z') },
  ];
  for (const [i, row] of customers.entries()) {
    const created = await ctx.createCustomer({ ...row, password: null });
    if (i === 0) ids.acme = created.id;
    // Distinct creation times: the list's order is the export's.
    ctx.clock.advance(1000);
  }

  const terminals: BulkTerminal[] = Array.from({ length: TERMINALS }, (_, i) => {
    const n = i + 1;
    const active = n % 10 !== 0;
    return {
      userTerminalId: `UT${pad(n, 8)}`,
      kitSerialNumber: `KIT${pad(n, 8)}`,
      dishSerialNumber: `DSH${pad(n, 8)}`,
      serviceLineNumber: lineOf(n),
      active,
      condition: active ? 'active' : 'inactive',
      isPriority: n % 3 === 0,
      assignedCustomerId: n <= HELD ? big.id : null,
      syncStatus: n % 7 === 0 ? 'pending' : 'synced',
      lastSyncedAt: null,
      plan: 'Standard',
      terminalType: n % 2 === 0 ? 'Standard' : 'Mini',
      removed: false,
    };
  });
  await insertTerminalsBulk(db, terminals);
  await insertFleetAround(db, TODAY);
  // The subscription and usage rows of every line, computed now: the list would otherwise leave
  // most of them to a background refresh, and a page read later would hold more than one before.
  await ctx.app.services.lineRows.refreshAll(TODAY);
  await ctx.app.services.lineRows.settled();

  // Alerts on the held lines, a minute apart, every other one critical, a third of them resolved.
  await db.execute(sql`
    INSERT INTO alerts (kind, level, severity, target_type, target_key, period_key, service_line_number, customer_id, status, message, opened_at, resolved_at)
    SELECT 'usage', 80, CASE WHEN g % 2 = 0 THEN 'critical' ELSE 'warning' END, 'line', l.line, 'p' || g, l.line,
           CASE WHEN g % 5 = 0 THEN NULL ELSE ${big.id}::uuid END,
           CASE WHEN g % 3 = 0 THEN 'resolved' ELSE 'open' END, 'Line ' || l.line || ' used ' || g || ' GB',
           ${`${TODAY}T00:00:00Z`}::timestamptz - g * interval '1 minute',
           CASE WHEN g % 3 = 0 THEN ${`${TODAY}T08:00:00Z`}::timestamptz END
    FROM generate_series(1, ${ALERTS}) AS g
    CROSS JOIN LATERAL (SELECT 'AST-7' || lpad(((g - 1) % ${HELD} + 1)::text, 5, '0') || '-00000-00' AS line) AS l`);

  tokens.admin = (await ctx.login('admin', admin.email, admin.password)).token!;
  tokens.portalUser = (await ctx.login('admin', portalUser.email, portalUser.password)).token!;
  tokens.customer = (await ctx.login('customer', big.email, big.password)).token!;
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

interface ExportCase<Row> {
  name: string;
  /** The list route and its export (path only). */
  list: () => string;
  exportOf: () => string;
  access: 'admin' | 'administrator';
  /** A filter of the list that selects some of its rows. */
  filter: string;
  /** Rows the filter must select at least (more than one export page where the world allows). */
  atLeast: number;
  rowsOf(data: unknown): Row[];
  columns: ListExport<Row>;
  /** A query the list refuses. */
  bad: string;
}

const exportCase = <Row>(c: ExportCase<Row>) => c as unknown as ExportCase<unknown>;
const field = <T>(key: string) => (data: unknown) => (data as Record<string, T[]>)[key]!;

const CASES: ExportCase<unknown>[] = [
  exportCase({
    name: 'customers',
    list: () => '/api/v1/customers',
    exportOf: () => '/api/v1/customers/export.csv',
    access: 'admin',
    filter: 'search=acme&status=active',
    atLeast: 3,
    rowsOf: field('customers'),
    columns: CUSTOMERS_EXPORT,
    bad: 'status=sleeping',
  }),
  exportCase({
    name: 'terminals',
    list: () => '/api/v1/terminals',
    exportOf: () => '/api/v1/terminals/export.csv',
    access: 'admin',
    filter: 'assigned=true&active=true&sort=-terminal_id',
    atLeast: 630,
    rowsOf: field('results'),
    columns: TERMINALS_EXPORT,
    bad: 'sort=colour',
  }),
  exportCase({
    name: 'subscriptions',
    list: () => '/api/v1/subscriptions',
    exportOf: () => '/api/v1/subscriptions/export.csv',
    access: 'admin',
    filter: 'search=AST-7',
    atLeast: 700,
    rowsOf: field('subscriptions'),
    columns: SUBSCRIPTIONS_EXPORT,
    bad: 'over_plan=maybe',
  }),
  exportCase({
    name: 'users',
    list: () => '/api/v1/users',
    exportOf: () => '/api/v1/users/export.csv',
    access: 'administrator',
    filter: 'search=ops&is_active=true',
    atLeast: 2,
    rowsOf: field('users'),
    columns: USERS_EXPORT,
    bad: `search=${'x'.repeat(500)}`,
  }),
  exportCase({
    name: "a customer's usage",
    list: () => `/api/v1/terminals/customers/${ids.big}/usage/page`,
    exportOf: () => `/api/v1/terminals/customers/${ids.big}/usage/export.csv`,
    access: 'admin',
    filter: 'status=Active&sort=usage&order=desc',
    atLeast: 501,
    rowsOf: field('records'),
    columns: CUSTOMER_USAGE_EXPORT,
    bad: 'billing_cycle_start=2026-03-01',
  }),
  exportCase({
    name: 'alerts',
    list: () => '/api/v1/alerts',
    exportOf: () => '/api/v1/alerts/export.csv',
    access: 'admin',
    filter: 'status=all&severity=critical',
    atLeast: 550,
    rowsOf: field('alerts'),
    columns: ALERTS_EXPORT,
    bad: 'kind=weather',
  }),
];

const get = (url: string, token: string | null = tokens.admin) => ctx.request({ method: 'GET', url, token });

/** Every row the list API answers for a query, page after page (100 a page, its largest). */
async function listAll(c: ExportCase<unknown>, query: string): Promise<unknown[]> {
  const rows: unknown[] = [];
  for (let page = 1; ; page++) {
    const response = await get(`${c.list()}?${query}&page=${page}&limit=100`);
    expect(response.statusCode, response.body).toBe(200);
    const found = c.rowsOf((response.json() as { data: unknown }).data);
    rows.push(...found);
    if (found.length < 100) return rows;
  }
}

/** What the export must hold for these list rows, read back as records. */
const expected = (c: ExportCase<unknown>, rows: unknown[]) => parseCsv(csvHeader(c.columns.columns) + rows.map((row) => csvLine(c.columns.columns, row)).join(''));

describe.each(CASES)('the $name export', (c) => {
  it('is refused without a token, to a customer, and to a user-role portal user where its list is administrators-only', async () => {
    const none = await get(c.exportOf(), null);
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ success: false });
    expect((await get(c.exportOf(), tokens.customer)).statusCode).toBe(403);
    const viewer = await get(c.exportOf(), tokens.portalUser);
    const list = await get(`${c.list()}?limit=1`, tokens.portalUser);
    expect(viewer.statusCode).toBe(c.access === 'administrator' ? 403 : 200);
    // The list and its export admit the same callers.
    expect(list.statusCode).toBe(viewer.statusCode);
  });

  it("holds exactly the list API's rows over all its pages for a filter that selects some of them", async () => {
    const response = await get(`${c.exportOf()}?${c.filter}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${c.columns.name}-${TODAY}.csv"`);
    const rows = await listAll(c, c.filter);
    expect(rows.length).toBeGreaterThanOrEqual(c.atLeast);
    const [header, ...records] = parseCsv(response.body);
    expect(header).toEqual(c.columns.columns.map((column) => column.header));
    expect(records).toHaveLength(rows.length);
    expect([header, ...records]).toEqual(expected(c, rows));
    // A subset: the unfiltered list has more.
    const everything = await get(`${c.list()}?limit=1`);
    expect((everything.json() as { data: { pagination?: { total: number }; totalCount?: number } }).data).toSatisfy(
      (data: { pagination?: { total: number }; totalCount?: number }) => (data.pagination?.total ?? data.totalCount ?? 0) > rows.length,
    );
  });

  it('refuses a query its list refuses, in the error envelope', async () => {
    const response = await get(`${c.exportOf()}?${c.bad}`);
    expect(response.statusCode).toBe(400);
    const body = response.json() as { success: boolean; message: string; requestId?: string };
    expect(body.success).toBe(false);
    expect(body.message).not.toBe('');
    expect(body.requestId).toBeTruthy();
    expect((await get(`${c.list()}?${c.bad}`)).statusCode).toBe(400);
  });
});

describe('the exports beside the list routes', () => {
  it('takes /customers/export.csv for the export, not for a customer id, and still finds a customer by id', async () => {
    const file = await get('/api/v1/customers/export.csv');
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toMatch(/^text\/csv/);
    const one = await get(`/api/v1/customers/${ids.acme}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().data.customer.name).toBe('Acme North');
    expect((await get('/api/v1/customers/export.json')).statusCode).toBe(400);
  });

  it('writes what the table shows: words for tags, ISO times, empty cells for none, a defused formula', async () => {
    const [header, ...records] = parseCsv((await get('/api/v1/customers/export.csv?search=acme')).body);
    const byName = new Map(records.map((r) => [r[header!.indexOf('Name')]!, Object.fromEntries(header!.map((h, i) => [h, r[i]]))]));
    expect(byName.get('Acme South')).toMatchObject({ Company: 'Acme South', Status: 'Active', MFA: 'Enabled', 'Last Login': '2026-03-01T08:00:00.000Z', 'Blocked Reason': '' });
    expect(byName.get('Acme Blocked')).toMatchObject({ Status: 'Blocked', 'Blocked Reason': 'Payment overdue' });
    expect(byName.get('Acme Pending')).toMatchObject({ Status: 'Pending', 'Last Login': '' });
    expect(byName.get(`'=HYPERLINK("http://evil.test")`)).toMatchObject({ Company: 'Acme "Quoted"' });
    expect(byName.get('Acme North')).toMatchObject({ Company: 'Acme, North', 'Customer ID': ids.acme });
  });

  it('answers a filter that selects nothing with the header row alone', async () => {
    const response = await get('/api/v1/terminals/export.csv?search=no-such-terminal');
    expect(response.statusCode).toBe(200);
    expect(parseCsv(response.body)).toEqual([TERMINALS_EXPORT.columns.map((column) => column.header)]);
  });

  it("answers an unknown customer's usage export with a 404 in the envelope, not a broken file", async () => {
    const response = await get('/api/v1/terminals/customers/00000000-0000-4000-8000-000000000000/usage/export.csv');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false });
  });

  it('ignores paging in an export query: the file is every page', async () => {
    const all = parseCsv((await get('/api/v1/alerts/export.csv?status=all')).body);
    const paged = parseCsv((await get('/api/v1/alerts/export.csv?status=all&page=3&limit=5')).body);
    expect(paged).toEqual(all);
    expect(all.length - 1).toBeGreaterThan(ALERTS - 10);
  });
});
