// GET /terminals/customers/{uuid}/usage/page: the customer usage table a page at a time. The
// oracle is the page as the browser built it before (the full /usage list through the domain's
// visibleUsageRecords and summariseUsage): for any search, status, sort and page, the server's
// page is the same slice of the same rows, and the summary the same cards. Then the edges: pages
// past the end, bad queries, unknown customers.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CUSTOMER_USAGE_SORT_FIELDS,
  CUSTOMER_USAGE_STATUS_OPTIONS,
  summariseUsage,
  visibleUsageRecords,
  type CustomerUsagePage,
  type CustomerUsageSort,
  type CustomerUsageStatusFilter,
  type TerminalUsageRecord,
} from '../../src/domain/customer-terminals';
import { sql } from 'drizzle-orm';
import { storedRowsPick } from '../../server/db/repositories/customer-terminals';
import { rowsOf } from '../../server/db/repositories/results';
import { INLINE_REFRESH_LINES } from '../../server/services/line-rows';
import { insertServiceLines, insertTerminals, insertUsageCycles, terminalRow } from '../fixtures/terminals';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
let token: string;
let ana: string;
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const MONTH = '?billing_cycle_start=2026-03-01&billing_cycle_end=2026-03-31';
const LINES = 18;
/** Same width and shape for every line, so every collation orders them alike. */
const line = (n: number) => `AST-8${String(n).padStart(5, '0')}-${String(n).padStart(5, '0')}-${String(n % 100).padStart(2, '0')}`;
const LOCATIONS = ['Harbour North', 'Mine Shaft 3', 'Offshore Rig', null, 'Base Camp Élan'];
const PLANS = ['Priority 50 GB', 'Priority 1 TB', 'Standard 20 GB', null];
const TYPES = ['Standard', 'Mini', 'Flat High Performance', null];

beforeAll(async () => {
  // The server clock: 2026-03-02T09:00Z.
  ctx = await createTestContext();
  const admin = await ctx.createAdmin();
  token = (await ctx.login('admin', admin.email, admin.password)).token as string;
  ana = (await ctx.createCustomer({ name: 'Ana Pages', password: null })).id;
  const db = ctx.database.db;
  await insertServiceLines(db, Array.from({ length: LINES }, (_, i) => ({ serviceLineNumber: line(i), active: i % 7 !== 3 })));
  // Caps of 50 GB, 20 GB and 1 TB (and none); usage in even GB, so no percentage falls on a half.
  const caps = [
    { dataCapAmount: 50, dataCapUnit: 'GB' },
    { dataCapAmount: 20, dataCapUnit: 'GB' },
    { dataCapAmount: 1, dataCapUnit: 'TB' },
    { dataCapAmount: null, dataCapUnit: null },
  ];
  const rows = Array.from({ length: LINES + 4 }, (_, i) =>
    terminalRow({
      userTerminalId: `UT-PAGE-${String(i).padStart(3, '0')}`,
      // The last four share lines with others: a line with two terminals shows twice.
      serviceLineNumber: line(i < LINES ? i : (i * 5) % LINES),
      assignedCustomerId: ana,
      assignedAt: new Date('2026-02-01T00:00:00Z'),
      location: LOCATIONS[i % LOCATIONS.length] ?? null,
      plan: PLANS[i % PLANS.length] ?? null,
      terminalType: TYPES[(i * 3) % TYPES.length] ?? null,
      syncStatus: i % 9 === 4 ? 'pending' : 'synced',
      active: i % 11 !== 6,
      condition: i % 5 === 2 ? 'maintenance' : 'active',
      ...caps[i % caps.length]!,
    }),
  );
  // Someone else's terminal and a removed one of Ana's: never on her pages.
  rows.push(terminalRow({ userTerminalId: 'UT-PAGE-OTHER', serviceLineNumber: line(1) }));
  rows.push(terminalRow({ userTerminalId: 'UT-PAGE-GONE', serviceLineNumber: line(2), assignedCustomerId: ana, assignedAt: new Date(), removedAt: new Date('2026-02-20T00:00:00Z') }));
  await insertTerminals(db, rows);
  await insertUsageCycles(
    db,
    Array.from({ length: LINES }, (_, i) => i)
      .filter((i) => i % 6 !== 5)
      .flatMap((i) => [
        { serviceLineNumber: line(i), cycleStart: '2026-02-01', cycleEnd: '2026-02-28', priorityGb: 2 * ((i * 37) % 60), standardGb: i },
        {
          serviceLineNumber: line(i),
          cycleStart: '2026-03-01',
          cycleEnd: '2026-03-31',
          priorityGb: 2 * ((i * 13) % 45),
          standardGb: 0.5 * i,
          // Some cycles carry the provider's own limit, which wins over the cap.
          ...(i % 4 === 1 ? { usageLimitGb: 40 } : {}),
        },
      ]),
  );
});
afterAll(async () => {
  await ctx?.close();
});

async function get(url: string, as: string | null = token) {
  const res = await ctx.request({ method: 'GET', url: `/api/v1${url}`, token: as });
  return { status: res.statusCode, body: res.json() };
}

async function fullList(month: string): Promise<TerminalUsageRecord[]> {
  const { status, body } = await get(`/terminals/customers/${ana}/usage${month}`);
  expect(status).toBe(200);
  return body.data;
}

interface View {
  month: string;
  search: string;
  status: CustomerUsageStatusFilter;
  sort: CustomerUsageSort | null;
  page: number;
  limit: number;
}

async function page(view: View): Promise<CustomerUsagePage> {
  const params = new URLSearchParams(view.month.slice(1));
  params.set('page', String(view.page));
  params.set('limit', String(view.limit));
  if (view.search) params.set('search', view.search);
  if (view.status !== 'all') params.set('status', view.status);
  if (view.sort) {
    params.set('sort', view.sort.field);
    params.set('order', view.sort.order === 1 ? 'asc' : 'desc');
  }
  const { status, body } = await get(`/terminals/customers/${ana}/usage/page?${params}`);
  expect(status, JSON.stringify(body)).toBe(200);
  expect(body.message).toBe('Terminal usage retrieved successfully');
  return body.data;
}

const searchTerm = fc.oneof(
  fc.constant(''),
  fc.constantFrom('harbour', 'MINI', 'ut-page-01', '8000', '1 tb', 'élan', '  Rig  ', 'priority', 'nothing-matches', '%', '_'),
);
const view: fc.Arbitrary<View> = fc.record({
  month: fc.constantFrom(MONTH, ''),
  search: searchTerm,
  status: fc.constantFrom(...CUSTOMER_USAGE_STATUS_OPTIONS.map((o) => o.value)),
  sort: fc.option(fc.record({ field: fc.constantFrom(...CUSTOMER_USAGE_SORT_FIELDS), order: fc.constantFrom(1 as const, -1 as const) })),
  page: fc.integer({ min: 1, max: 4 }),
  limit: fc.constantFrom(1, 5, 7, 25, 100),
});

describe("the customer usage table a page at a time", () => {
  it('is the slice of the rows the page used to build in the browser, with the same summary cards', async () => {
    const lists = new Map<string, TerminalUsageRecord[]>();
    for (const month of [MONTH, '']) lists.set(month, await fullList(month));
    expect(lists.get(MONTH)!.length).toBe(LINES + 4);
    await fc.assert(
      fc.asyncProperty(view, async (v) => {
        const all = lists.get(v.month)!;
        const rows = visibleUsageRecords(all, { search: v.search, status: v.status, sort: v.sort });
        const answer = await page(v);
        expect(answer.records).toEqual(rows.slice((v.page - 1) * v.limit, v.page * v.limit));
        expect(answer.pagination).toEqual({ total: rows.length, page: v.page, limit: v.limit, pages: Math.ceil(rows.length / v.limit) });
        expect(answer.summary).toEqual(summariseUsage(all));
      }),
      { numRuns: RUNS },
    );
  });

  it('orders the whole table as the browser did, for every sort, direction and status', async () => {
    const all = await fullList(MONTH);
    for (const status of CUSTOMER_USAGE_STATUS_OPTIONS.map((o) => o.value)) {
      for (const sort of [null, ...CUSTOMER_USAGE_SORT_FIELDS.flatMap((field) => [1 as const, -1 as const].map((order) => ({ field, order })))]) {
        const answer = await page({ month: MONTH, search: '', status, sort, page: 1, limit: 100 });
        expect(answer.records.map((r) => r.terminalId), `${status} ${JSON.stringify(sort)}`).toEqual(
          visibleUsageRecords(all, { search: '', status, sort }).map((r) => r.terminalId),
        );
      }
    }
  });

  it('answers the first 25 by service line by default, and a page past the end with no rows but the totals', async () => {
    const all = await fullList('');
    const first = await get(`/terminals/customers/${ana}/usage/page`);
    expect(first.status).toBe(200);
    expect(first.body.data.records).toEqual(all.slice(0, 25));
    expect(first.body.data.pagination).toEqual({ total: all.length, page: 1, limit: 25, pages: 1 });
    const past = await page({ month: MONTH, search: '', status: 'all', sort: null, page: 9, limit: 5 });
    expect(past.records).toEqual([]);
    expect(past.pagination).toEqual({ total: LINES + 4, page: 9, limit: 5, pages: 5 });
    expect(past.summary.totalTerminals).toBe(LINES + 4);
  });

  it('answers a customer without terminals with an empty page and zero cards', async () => {
    const empty = (await ctx.createCustomer({ password: null })).id;
    const { status, body } = await get(`/terminals/customers/${empty}/usage/page`);
    expect(status).toBe(200);
    expect(body.data).toEqual({
      records: [],
      pagination: { total: 0, page: 1, limit: 25, pages: 0 },
      summary: { totalTerminals: 0, activeTerminals: 0, totalDataUsed: 0, overLimit: 0 },
    });
  });

  it("answers a sync's worth of the customer's marked lines from its stored rows, briefly behind, and a person's few from the tables", async () => {
    // A customer of more lines than a read takes from the tables, its month's rows computed.
    const bo = (await ctx.createCustomer({ name: 'Bo Sync', password: null })).id;
    const many = INLINE_REFRESH_LINES + 10;
    const boLine = (n: number) => `AST-9${String(n).padStart(5, '0')}-${String(n).padStart(5, '0')}-${String(n % 100).padStart(2, '0')}`;
    const db = ctx.database.db;
    await insertServiceLines(db, Array.from({ length: many }, (_, i) => ({ serviceLineNumber: boLine(i), active: true })));
    await insertTerminals(db, Array.from({ length: many }, (_, i) =>
      terminalRow({ userTerminalId: `UT-BO-${String(i).padStart(3, '0')}`, serviceLineNumber: boLine(i), assignedCustomerId: bo, assignedAt: new Date('2026-02-01T00:00:00Z') }),
    ));
    await insertUsageCycles(db, Array.from({ length: many }, (_, i) => ({ serviceLineNumber: boLine(i), cycleStart: '2026-03-01', cycleEnd: '2026-03-31', priorityGb: 4, standardGb: 0 })));
    const today = '2026-03-02';
    await ctx.app.services.lineRows.refreshAll(today);
    const repo = ctx.app.repos.customerTerminals;
    const query = { offset: 0, limit: 100, search: '', status: 'all', sort: null } as const;
    const used = (answer: { summary: { usedGb: number } }) => answer.summary.usedGb;
    expect(used(await repo.usagePage(bo, storedRowsPick(today), query, 'storedRows'))).toBe(4 * many);

    // A usage run writes every one of them (each write marks its line): more than a read takes.
    await db.execute(sql`UPDATE service_line_usage_cycles SET priority_gb = 6 WHERE service_line_number LIKE 'AST-9%'`);
    const merged = await repo.usagePage(bo, storedRowsPick(today), query, 'storedRowsAndMarked', { markedUpTo: INLINE_REFRESH_LINES });
    expect(merged).toMatchObject({ behind: true, summary: { usedGb: 4 * many } });
    expect(merged.rows).toHaveLength(many);
    // A bound above the marks takes them from the tables, as the tables alone answer.
    const exact = await repo.usagePage(bo, storedRowsPick(today), query, 'storedRowsAndMarked', { markedUpTo: many });
    expect(exact).toMatchObject({ behind: false, summary: { usedGb: 6 * many } });
    expect({ ...exact, behind: undefined }).toEqual({ ...(await repo.usagePage(bo, storedRowsPick(today), query, 'tables')), behind: undefined });

    // The page's read leaves the marks to the background refresh, whose rows the next read shows.
    expect((await get(`/terminals/customers/${bo}/usage/page${MONTH}`)).status).toBe(200);
    await ctx.app.services.lineRows.settled();
    expect((await get(`/terminals/customers/${bo}/usage/page${MONTH}`)).body.data.summary.totalDataUsed).toBe(6 * many);
    // And gives back the marks' space: a read's "is anything marked?" scans no emptied pages.
    const [marks] = rowsOf<{ bytes: number; n: number }>(await db.execute(sql`SELECT pg_relation_size('subscription_dirty')::int AS bytes, (SELECT count(*)::int FROM subscription_dirty) AS n`));
    expect(marks).toEqual({ bytes: 0, n: 0 });
    // And leaves the rows it rewrote readable from their indexes alone (every page all-visible).
    const visible = rowsOf<{ relname: string; pages: number; visible: number }>(
      await db.execute(sql`SELECT relname, relpages AS pages, relallvisible AS visible FROM pg_class WHERE relname IN ('customer_usage_rows', 'subscription_rows') ORDER BY relname`),
    );
    expect(visible.map((table) => table.relname)).toEqual(['customer_usage_rows', 'subscription_rows']);
    for (const table of visible) {
      expect(table.pages).toBeGreaterThan(0);
      expect(table.visible).toBe(table.pages);
    }

    // A person's few marked lines are read from the tables at once.
    await db.execute(sql`UPDATE service_line_usage_cycles SET priority_gb = 8 WHERE service_line_number IN (${boLine(0)}, ${boLine(1)})`);
    expect((await get(`/terminals/customers/${bo}/usage/page${MONTH}`)).body.data.summary.totalDataUsed).toBe(6 * many + 4);
  });

  it('takes a chunk of marks in one pass even when the statistics say the marks are gone', async () => {
    // A VACUUM that found the marks' table empty but could not cut its pages back (a sync appending
    // marks at its end; TRUNCATE false here) leaves the planner believing it holds one row.
    const db = ctx.database.db;
    const line = (n: number) => `AST-STAT-${String(n).padStart(5, '0')}`;
    await db.execute(sql`INSERT INTO subscription_dirty SELECT 'AST-STAT-' || lpad(n::text, 5, '0') FROM generate_series(1, 2000) n`);
    await db.execute(sql`DELETE FROM subscription_dirty`);
    await db.execute(sql`VACUUM (TRUNCATE false) subscription_dirty`);
    const [stats] = rowsOf<{ tuples: number; pages: number }>(
      await db.execute(sql`SELECT reltuples::int AS tuples, relpages AS pages FROM pg_class WHERE relname = 'subscription_dirty'`),
    );
    expect(stats).toMatchObject({ tuples: 0 });
    expect(stats!.pages).toBeGreaterThan(0);
    // A sync's worth of marks again, a line marked twice. Taken in one statement, a chunk of 2,000
    // lines compared every mark with every line taken: 20 s here on PostgreSQL.
    await db.execute(sql`INSERT INTO subscription_dirty SELECT 'AST-STAT-' || lpad(n::text, 5, '0') FROM generate_series(1, 20000) n`);
    await db.execute(sql`INSERT INTO subscription_dirty VALUES (${line(1)})`);
    try {
      const started = performance.now();
      const taken = await ctx.app.repos.subscriptions.refreshChunk('2026-03-02', () => {
        throw new Error('no line of these has a terminal to compute');
      }, 2000);
      expect(performance.now() - started).toBeLessThan(5000);
      expect(taken).toBe(2000);
      const [left] = rowsOf<{ marks: number; lines: number; first: number }>(
        await db.execute(sql`
          SELECT count(*)::int AS marks, count(DISTINCT service_line_number)::int AS lines,
            (count(*) FILTER (WHERE service_line_number = ${line(1)}))::int AS first
          FROM subscription_dirty WHERE service_line_number LIKE 'AST-STAT-%'`),
      );
      // A line taken loses every mark (the twice-marked one both or neither), the others keep theirs.
      expect([0, 2]).toContain(left!.first);
      expect(left).toEqual({ marks: 18000 + left!.first / 2, lines: 18000, first: left!.first });
    } finally {
      await db.execute(sql`DELETE FROM subscription_dirty WHERE service_line_number LIKE 'AST-STAT-%'`);
    }
  });

  it.each([
    ['limit 0', 'limit=0', 'limit must be a whole number from 1 to 100'],
    ['limit 101', 'limit=101', 'limit must be a whole number from 1 to 100'],
    ['page 0', 'page=0', 'page must be a whole number from 1 to 1000000'],
    ['an unknown status', 'status=Broken', 'status must be one of all, Active, Suspended, Pending, Maintenance'],
    ['an unknown sort', 'sort=location', 'sort must be one of serviceLine, usage, remaining, overage'],
    ['an unknown order', 'sort=usage&order=up', 'order must be asc or desc'],
    ['a search of 101 characters', `search=${'a'.repeat(101)}`, 'search must be at most 100 characters'],
    ['half a month', 'billing_cycle_start=2026-03-01', 'billing_cycle_start and billing_cycle_end must be given together'],
  ])('answers 400 to %s', async (_what, query, message) => {
    const { status, body } = await get(`/terminals/customers/${ana}/usage/page?${query}`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, message: `Validation failed: ${message}` });
  });

  it('answers 404 for an unknown or deleted customer, 401 without a token and 403 to a customer', async () => {
    const gone = (await ctx.createCustomer({ password: null, deletedAt: ctx.clock.now() })).id;
    for (const customer of ['5b0c1c1e-2f7a-4a59-9d1e-0b8f1f0d2a11', gone]) {
      const { status, body } = await get(`/terminals/customers/${customer}/usage/page`);
      expect(status).toBe(404);
      expect(body.message).toBe('Customer not found');
    }
    const customer = await ctx.createCustomer();
    const customerToken = (await ctx.login('customer', customer.email, customer.password)).token as string;
    expect((await get(`/terminals/customers/${ana}/usage/page`, null)).status).toBe(401);
    expect((await get(`/terminals/customers/${ana}/usage/page`, customerToken)).status).toBe(403);
  });
});
