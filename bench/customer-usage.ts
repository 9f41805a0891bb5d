// A customer's usage page at scale: one customer holding 1,000 terminals on distinct service
// lines among a fleet of other lines, every line with 90 days of daily usage and the monthly
// cycles covering them, in an in-memory PGlite and, when TEST_DATABASE_URL is set, a fresh
// database on that PostgreSQL server. Times through app.inject (routing, validation, service,
// serialisation): the month's usage (the whole list), the current cycle, the daily totals of a
// month (the chart) and of 90 days, the usage table a page at a time (what the page asks), the
// assigned list; the page's statement from the stored rows (0014), from the tables, and from the
// stored rows with a tenth of the customer's lines marked (as during a sync), side by side; then one
// assignment of 500 lines. Prints JSON:
// ms per request as p50/p95/mean over N runs after warm-up, with the query plans.
//
//   npm run bench:customer-usage            (BENCH_TERMINALS=1000 BENCH_OTHER_LINES=9000 BENCH_RUNS=50)
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:customer-usage
//   (BENCH_ONLY=pglite or BENCH_ONLY=postgres to run one of the two)
//
// Target: the usage request p95 under 100 ms on PGlite.
// Not a test: figures depend on the machine. Compare runs on one machine.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app';
import { hashPassword } from '../server/auth/passwords';
import { systemClock } from '../server/clock';
import type { Database } from '../server/db/client';
import { createRepositories } from '../server/db/repositories';
import { dayOf } from '../server/services/terminals';
import { ASSIGNED_PREVIEW_SIZE, CUSTOMER_USAGE_PAGE_SIZE, monthUsageQuery, type AssignTerminalsResult } from '../src/domain/customer-terminals';
import type { UsagePageSource } from '../server/db/repositories/customer-terminals';
import { insertTerminalsBulk, insertUsageHistory, type BulkTerminal } from '../tests/fixtures/terminals';
import { testConfig } from '../tests/server/helpers';
import { onEachDatabase } from './databases';
import { time } from './timing';

const OWNED = Number(process.env.BENCH_TERMINALS ?? 1_000);
const OTHER_LINES = Number(process.env.BENCH_OTHER_LINES ?? 9_000);
const DAYS = 90;
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const WARM_UP = 5;
const ASSIGN_LINES = 500;
const TARGET_P95_MS = 100;

const CONDITIONS = ['active', 'active', 'active', 'warning', 'maintenance'] as const;

function terminal(i: number, customerId: string | null): BulkTerminal {
  const n = String(i).padStart(6, '0');
  return {
    userTerminalId: `ut-bench-${n}`,
    kitSerialNumber: `KITB${n}`,
    dishSerialNumber: `DSHB${n}`,
    serviceLineNumber: `AST-${n}-${String(i % 100_000).padStart(5, '0')}-${String(i % 100).padStart(2, '0')}`,
    active: i % 10 !== 0,
    condition: i % 10 === 0 ? 'inactive' : CONDITIONS[i % CONDITIONS.length]!,
    isPriority: i % 3 === 0,
    assignedCustomerId: customerId,
    syncStatus: i % 50 === 0 ? 'pending' : 'synced',
    lastSyncedAt: new Date(),
    plan: i % 2 === 0 ? 'Priority 50 GB' : 'Priority 1 TB',
    terminalType: 'Standard',
    removed: false,
  };
}

async function run(kind: Database['kind'], database: Database) {
  const now = systemClock();
  const today = dayOf(now);
  const repos = createRepositories(database.db);
  const seedStart = performance.now();
  const customer = await repos.customers.insert({ email: 'usage-bench@bench.example', name: 'Usage Bench', company: 'Bench Holdings' });
  const taker = await repos.customers.insert({ email: 'assign-bench@bench.example', name: 'Assign Bench', company: 'Bench Holdings' });
  // The customer's terminals first, then the others: half of them held by nobody (the assign run
  // takes 500 of those), half by a second customer.
  const rows = [
    ...Array.from({ length: OWNED }, (_, i) => terminal(i, customer.id)),
    ...Array.from({ length: OTHER_LINES }, (_, i) => terminal(OWNED + i, i % 2 === 0 ? null : taker.id)),
  ];
  for (let i = 0; i < rows.length; i += 10_000) await insertTerminalsBulk(database.db, rows.slice(i, i + 10_000));
  await database.db.execute(sql`
    INSERT INTO service_lines (service_line_number, account_id, account_number, active, synced_at)
    SELECT service_line_number, account_id, account_number, active, now() FROM terminals`);
  await insertUsageHistory(database.db, today, DAYS);
  await database.exec(kind === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE');
  const seedMs = Math.round(performance.now() - seedStart);
  const [counts] = (
    (await database.db.execute(
      sql`SELECT (SELECT count(*)::int FROM service_line_usage_daily) AS days, (SELECT count(*)::int FROM service_line_usage_cycles) AS cycles`,
    )) as unknown as { rows: { days: number; cycles: number }[] }
  ).rows;

  const config = await testConfig();
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  const password = `Bench-${randomBytes(6).toString('hex')}`;
  const admin = await repos.users.insert({ email: 'bench-admin@bench.example', name: 'Bench Admin', role: 'admin', passwordHash: await hashPassword(password) });
  const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: admin.email, password } });
  const headers = { authorization: `Bearer ${(login.json() as { data: { token: string } }).data.token}` };

  const month = monthUsageQuery(now.getUTCFullYear(), now.getUTCMonth() + 1);
  const ninetyDaysAgo = dayOf(new Date(now.getTime() - (DAYS - 1) * 86_400_000));
  const base = `/api/v1/terminals/customers/${customer.id}`;
  const scenarios = [
    { name: 'usage, this month (billing_cycle_start/end)', url: `${base}/usage?${new URLSearchParams(month)}`, target: true, rows: OWNED },
    { name: 'usage, current cycle (no query)', url: `${base}/usage`, target: true, rows: OWNED },
    {
      name: 'daily usage, this month',
      url: `${base}/usage/daily?start_date=${month.billing_cycle_start}&end_date=${month.billing_cycle_end}`,
      target: false,
      rows: null,
    },
    { name: `daily usage, ${DAYS} days`, url: `${base}/usage/daily?start_date=${ninetyDaysAgo}&end_date=${today}`, target: false, rows: DAYS },
    // What the page asks since the table is paged on the server: its first page, and sorted by usage.
    { name: 'usage table, first page', url: `${base}/usage/page?${new URLSearchParams(month)}`, target: true, rows: Math.min(OWNED, CUSTOMER_USAGE_PAGE_SIZE) },
    { name: 'usage table, sorted by usage', url: `${base}/usage/page?${new URLSearchParams(month)}&sort=usage&order=desc`, target: true, rows: Math.min(OWNED, CUSTOMER_USAGE_PAGE_SIZE) },
    { name: 'assigned terminals, the whole list', url: `${base}/terminals`, target: false, rows: OWNED },
    // What the Assign Terminals dialog asks since it shows the count and the first of them.
    { name: 'assigned terminals, the dialog\'s first page', url: `${base}/terminals/page`, target: false, rows: Math.min(OWNED, ASSIGNED_PREVIEW_SIZE) },
  ];

  // The stored rows of the current month (0014) are computed after the fill, in the background: the
  // timed page reads them once they are current. The same page read from the tables is timed below.
  const refreshStart = performance.now();
  while (!(await app.services.lineRows.refreshForRead(today))) await new Promise((resolve) => setTimeout(resolve, 100));
  const storedRowsRefreshMs = Math.round(performance.now() - refreshStart);

  const results = [];
  for (const s of scenarios) {
    const once = await app.inject({ method: 'GET', url: s.url, headers });
    if (once.statusCode !== 200) throw new Error(`${s.url}: ${once.statusCode} ${once.body}`);
    const data = (once.json() as { data: unknown[] | { records: unknown[] } }).data;
    const answered = Array.isArray(data) ? data.length : data.records.length;
    if (s.rows !== null && answered !== s.rows) throw new Error(`${s.url}: ${answered} rows, expected ${s.rows}`);
    const requestMs = await time(() => app.inject({ method: 'GET', url: s.url, headers }), RUNS, WARM_UP);
    results.push({ scenario: s.name, url: s.url, rows: answered, requestMs, ...(s.target ? { meetsTarget: requestMs.p95 < TARGET_P95_MS } : {}) });
  }

  // The first page and the page sorted by usage, the statement alone, from the stored rows and from
  // the tables (what a read does while rows are being computed, or for another month).
  const monthPick = { kind: 'startedBetween', from: month.billing_cycle_start, to: month.billing_cycle_end } as const;
  const pageQueries = {
    firstPage: { offset: 0, limit: CUSTOMER_USAGE_PAGE_SIZE, search: '', status: 'all', sort: null },
    byUsage: { offset: 0, limit: CUSTOMER_USAGE_PAGE_SIZE, search: '', status: 'all', sort: { field: 'usage', order: -1 } },
  } as const;
  const pageStatementMs: Record<string, Partial<Record<UsagePageSource, Awaited<ReturnType<typeof time>>>>> = {};
  for (const [name, query] of Object.entries(pageQueries)) {
    const [fromRows, fromTables] = await Promise.all([
      repos.customerTerminals.usagePage(customer.id, monthPick, query, 'storedRows'),
      repos.customerTerminals.usagePage(customer.id, monthPick, query, 'tables'),
    ]);
    if (JSON.stringify(fromRows) !== JSON.stringify(fromTables)) throw new Error(`usage page ${name}: the stored rows and the tables disagree`);
    pageStatementMs[name] = {
      storedRows: await time(() => repos.customerTerminals.usagePage(customer.id, monthPick, query, 'storedRows'), RUNS, WARM_UP),
      tables: await time(() => repos.customerTerminals.usagePage(customer.id, monthPick, query, 'tables'), RUNS, WARM_UP),
    };
  }
  // A tenth of the customer's lines marked, as a sync writing leaves them: the stored rows of the
  // others with the marked ones from the tables (what a read does until the refresh takes the marks).
  await database.db.execute(sql`
    INSERT INTO subscription_dirty
    SELECT DISTINCT service_line_number FROM terminals
    WHERE assigned_customer_id = ${customer.id} AND service_line_number IS NOT NULL AND removed_at IS NULL
    ORDER BY 1 LIMIT ${Math.ceil(OWNED / 10)}
    ON CONFLICT DO NOTHING`);
  for (const [name, query] of Object.entries(pageQueries)) {
    const [merged, fromTables] = await Promise.all([
      repos.customerTerminals.usagePage(customer.id, monthPick, query, 'storedRowsAndMarked'),
      repos.customerTerminals.usagePage(customer.id, monthPick, query, 'tables'),
    ]);
    if (JSON.stringify(merged) !== JSON.stringify(fromTables)) throw new Error(`usage page ${name}: the stored rows with the marked lines and the tables disagree`);
    pageStatementMs[name]!.storedRowsAndMarked = await time(() => repos.customerTerminals.usagePage(customer.id, monthPick, query, 'storedRowsAndMarked'), RUNS, WARM_UP);
  }
  while (!(await app.services.lineRows.refreshForRead(today))) await new Promise((resolve) => setTimeout(resolve, 100));

  const plans = {
    usageMonth: await repos.customerTerminals.planOfUsage(customer.id, { kind: 'startedBetween', from: month.billing_cycle_start, to: month.billing_cycle_end }),
    dailyMonth: await repos.customerTerminals.planOfDailyTotals(customer.id, month.billing_cycle_start, month.billing_cycle_end),
    usagePage: await repos.customerTerminals.planOfUsagePage(customer.id, monthPick, pageQueries.firstPage, 'tables'),
    usagePageStoredRows: await repos.customerTerminals.planOfUsagePage(customer.id, monthPick, pageQueries.firstPage, 'storedRows'),
    assigned: await repos.customerTerminals.planOfAssignedTo(customer.id),
  };

  // One write: 500 free lines to one customer (locks, conditional update, an audit row a terminal).
  const free = rows.filter((r) => r.assignedCustomerId === null).slice(0, ASSIGN_LINES);
  const assignStart = performance.now();
  const assigned = await app.inject({
    method: 'POST',
    url: '/api/v1/terminals/customers/assign-terminals',
    headers,
    payload: { customerUuid: taker.id, serviceLineNumbers: free.map((r) => r.serviceLineNumber) },
  });
  const assignMs = Math.round((performance.now() - assignStart) * 100) / 100;
  const assignResult = (assigned.json() as { data: AssignTerminalsResult }).data;
  if (assigned.statusCode !== 200 || assignResult.assigned.length !== ASSIGN_LINES) throw new Error(`assign: ${assigned.statusCode} ${assigned.body.slice(0, 300)}`);
  await app.close();

  const targeted = results.filter((r) => 'meetsTarget' in r);
  return {
    database: kind === 'pglite' ? 'PGlite (in memory)' : 'PostgreSQL',
    customerTerminals: OWNED,
    otherLines: OTHER_LINES,
    dailyRows: counts?.days,
    cycleRows: counts?.cycles,
    seedMs,
    usageTargetP95Ms: TARGET_P95_MS,
    allUsageRequestsMeetTarget: targeted.every((r) => r.meetsTarget),
    storedRowsRefreshMs,
    results,
    usagePageStatementMs: pageStatementMs,
    assign500LinesMs: assignMs,
    plans,
  };
}

async function main(): Promise<void> {
  const runs = await onEachDatabase('bench_usage', run);

  console.log(JSON.stringify({ benchmark: 'customer-usage', node: process.version, runsPerQuery: RUNS, warmUpRuns: WARM_UP, runs }, null, 2));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
