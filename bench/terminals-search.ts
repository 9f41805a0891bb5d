// Terminals list at scale: seeds 100,000 terminals (one unnest insert per batch), 5,000 customers
// owning about 60 % of them, and the lines, telemetry and usage cycles around them, into an
// in-memory PGlite and, when TEST_DATABASE_URL is set, into a fresh database on that PostgreSQL
// server; ANALYZEs; then times GET /api/v1/terminals through app.inject (routing, validation,
// service, serialisation: what a client waits for, less the network) for searches, unfiltered
// first and last pages, filters and sorts, plus health, sync stats, details and usage. Prints
// JSON: ms per request as p50/p95/mean over N runs, with the plans and the count strategy.
//
//   npm run bench:terminals-search          (BENCH_TERMINALS=100000 BENCH_RUNS=30)
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:terminals-search
//   (BENCH_ONLY=pglite or BENCH_ONLY=postgres to run one of the two)
//
// Targets: a search page p95 under 50 ms on PGlite and under 20 ms on PostgreSQL.
// Not a test: figures depend on the machine. Compare runs on one machine.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app';
import { hashPassword } from '../server/auth/passwords';
import { systemClock } from '../server/clock';
import type { Database } from '../server/db/client';
import { createRepositories } from '../server/db/repositories';
import type { BulkCustomerRow } from '../server/db/repositories/customers';
import type { TerminalListFilter } from '../server/db/repositories/terminals';
import { prng } from '../server/random';
import { EXACT_COUNT_UP_TO, REVERSE_PAGING_FROM } from '../server/services/terminals';
import type { TerminalSort } from '../src/domain/terminals';
import { insertFleetAround, insertTerminalsBulk, type BulkTerminal } from '../tests/fixtures/terminals';
import { testConfig } from '../tests/server/helpers';
import { onEachDatabase } from './databases';
import { time } from './timing';

const TOTAL = Number(process.env.BENCH_TERMINALS ?? 100_000);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 5_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARM_UP = 3;
const BATCH = 10_000;
const PAGE_SIZE = 25;
const TARGET_P95_MS = { pglite: 50, postgres: 20 } as const;
const DAY = 86_400_000;

const FIRST = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elena', 'Felipe', 'Gabriela', 'Hugo', 'Isabel', 'Javier', 'Karina', 'Lucas', 'Marta', 'Nicolas', 'Olivia', 'Pablo', 'Rosa', 'Samuel', 'Teresa', 'Valeria', 'William', 'Yusuf', 'Zoe', 'Amara', 'Chloe', 'Dmitri', 'Emeka', 'Fatima', 'Hiroshi', 'Ingrid'] as const;
const LAST = ['Lima', 'Okafor', 'Schmidt', 'Fernandes', 'Nakamura', 'Rossi', 'Haddad', 'Kowalski', 'Mensah', 'Oliveira', 'Petrov', 'Quispe', 'Andersson', 'Banerjee', 'Costa', 'Dubois', 'Eriksen', 'Garcia', 'Horvat', 'Ibrahim', 'Jensen', 'Kariuki', 'Laurent', 'Moreno', 'Novak', 'Pereira', 'Ramos', 'Santos', 'Tanaka', 'Zhou'] as const;
const PLANS = ['Priority 50 GB', 'Priority 1 TB', 'Standard', 'Mobile'] as const;
const KINDS = ['Standard', 'Flat High Performance', 'Mini'] as const;
const CONDITIONS = ['active', 'warning', 'maintenance', 'inactive'] as const;

function benchRandom(seed: number) {
  const next = prng(seed);
  return {
    next,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    digits: (n: number) => Array.from({ length: n }, () => Math.floor(next() * 10)).join(''),
    hex: (n: number) => Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join(''),
  };
}

function generateCustomers(count: number, now: Date): BulkCustomerRow[] {
  const rng = benchRandom(0xc0ffee);
  return Array.from({ length: count }, (_, i) => {
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    return {
      email: `${first}.${last}.${i}@bench.example`.toLowerCase(),
      name: `${first} ${last}`,
      company: `${last} Holdings`,
      isActive: true,
      blockedEnabled: false,
      blockedReason: null,
      mfaEnabled: false,
      accountExpiresAt: null,
      createdAt: new Date(now.getTime() - rng.next() * 900 * DAY),
    };
  });
}

/** Provider-shaped ids: ut + 3 hex groups, kit and dish serials, AST-nnnnnn-nnnnn-nn lines. */
function generateTerminals(count: number, customerIds: string[], now: Date): BulkTerminal[] {
  const rng = benchRandom(0x7e51);
  return Array.from({ length: count }, (_, i) => {
    const active = rng.next() < 0.85;
    const roll = rng.next();
    return {
      userTerminalId: `ut${rng.hex(8)}-${rng.hex(8)}-${i.toString(16).padStart(8, '0')}`,
      kitSerialNumber: `KIT${rng.digits(9)}`,
      dishSerialNumber: rng.next() < 0.97 ? `4PB${rng.digits(8)}` : null,
      serviceLineNumber: rng.next() < 0.98 ? `AST-${rng.digits(6)}-${rng.digits(5)}-${rng.digits(2)}` : null,
      active,
      condition: active ? rng.pick(CONDITIONS.slice(0, 3)) : 'inactive',
      isPriority: rng.next() < 0.3,
      assignedCustomerId: rng.next() < 0.6 ? rng.pick(customerIds) : null,
      syncStatus: roll < 0.95 ? 'synced' : roll < 0.99 ? 'pending' : 'error',
      lastSyncedAt: new Date(now.getTime() - rng.next() * 7 * DAY),
      plan: rng.pick(PLANS),
      terminalType: rng.pick(KINDS),
      removed: rng.next() < 0.01,
    };
  });
}

const timed = (fn: () => Promise<unknown>) => time(fn, RUNS, WARM_UP);

interface Scenario {
  name: string;
  /** A search page: held to the target. */
  search?: boolean;
  query: Record<string, string>;
}

async function run(kind: Database['kind'], database: Database) {
  const now = systemClock();
  const repos = createRepositories(database.db);
  const seedStart = performance.now();
  const customers = generateCustomers(CUSTOMERS, now);
  for (let i = 0; i < customers.length; i += BATCH) await repos.customers.insertBulk(customers.slice(i, i + BATCH));
  const customerRows = (await database.db.execute(sql`SELECT id FROM customers ORDER BY created_at, id`)) as unknown as {
    rows: { id: string }[];
  };
  const customerIds = customerRows.rows.map((r) => r.id);
  const rows = generateTerminals(TOTAL, customerIds, now);
  // Loading into a table without its trigram index and building the index afterwards (from its
  // own definition) takes seconds instead of minutes on the embedded database, where inserting
  // row by row into a GIN index with fastupdate off costs about 1.4 ms a row. The index is the
  // same either way.
  const trigram = (await database.db.execute(
    sql`SELECT indexdef FROM pg_indexes WHERE indexname = 'terminals_search_trgm_idx'`,
  )) as unknown as { rows: { indexdef: string }[] };
  const indexDefinition = trigram.rows[0]?.indexdef;
  if (!indexDefinition) throw new Error('terminals_search_trgm_idx is missing');
  await database.exec('DROP INDEX terminals_search_trgm_idx');
  for (let i = 0; i < rows.length; i += BATCH) await insertTerminalsBulk(database.db, rows.slice(i, i + BATCH));
  await database.exec(indexDefinition);
  await insertFleetAround(database.db, now.toISOString().slice(0, 10));
  // PostgreSQL's autovacuum would analyze (and vacuum) the new tables by itself; run both now
  // so the timings do not depend on when it gets there. PGlite has no autovacuum; the server
  // ANALYZEs at start-up.
  await database.exec(kind === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE');
  const seedMs = Math.round(performance.now() - seedStart);

  const config = await testConfig();
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  const password = `Bench-${randomBytes(6).toString('hex')}`;
  const admin = await repos.users.insert({ email: 'bench-admin@bench.example', name: 'Bench Admin', role: 'admin', passwordHash: await hashPassword(password) });
  const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: admin.email, password } });
  const token = (login.json() as { data: { token: string } }).data.token;

  const live = rows.filter((r) => !r.removed);
  const sample = live[Math.floor(live.length / 3)]!;
  const owned = live.find((r) => r.assignedCustomerId)!;
  const lastPage = String(Math.ceil(live.length / PAGE_SIZE));
  const scenarios: Scenario[] = [
    { name: 'first page, no filter', query: {} },
    { name: `last page (${lastPage}), no filter`, query: { page: lastPage } },
    { name: 'page 2000, no filter', query: { page: '2000' } },
    { name: 'limit 100, no filter', query: { limit: '100' } },
    { name: 'search: one user terminal id', search: true, query: { search: sample.userTerminalId } },
    { name: 'search: part of a user terminal id (last group)', search: true, query: { search: sample.userTerminalId.slice(-8) } },
    { name: 'search: one kit serial', search: true, query: { search: sample.kitSerialNumber } },
    { name: 'search: part of a kit serial (6 digits)', search: true, query: { search: sample.kitSerialNumber.slice(3, 9) } },
    { name: 'search: one dish serial, lower case', search: true, query: { search: (sample.dishSerialNumber ?? '4PB00000000').toLowerCase() } },
    { name: 'search: one service line', search: true, query: { search: sample.serviceLineNumber ?? 'AST-000000' } },
    { name: 'search: customer id', search: true, query: { search: owned.assignedCustomerId! } },
    { name: 'search: customer surname "okafor" (~3 % of customers)', search: true, query: { search: 'okafor' } },
    { name: 'search: customer full name "ana lima"', search: true, query: { search: 'ana lima' } },
    { name: 'search: common fragment "ast-1" (many matches)', search: true, query: { search: 'ast-1' } },
    { name: 'search: "okafor", page 20', search: true, query: { search: 'okafor', page: '20' } },
    { name: 'search: no match "zzqx"', search: true, query: { search: 'zzqx' } },
    { name: 'search: 2 characters "zo" (no trigram)', search: true, query: { search: 'zo' } },
    { name: 'search: "okafor" + active=true, sort -last_synced', search: true, query: { search: 'okafor', active: 'true', sort: '-last_synced' } },
    { name: 'filter active=false', query: { active: 'false' } },
    { name: 'filter sync_status=error', query: { sync_status: 'error' } },
    { name: 'filter assigned=false', query: { assigned: 'false' } },
    { name: 'sort -service_line', query: { sort: '-service_line' } },
    { name: 'sort terminal_id', query: { sort: 'terminal_id' } },
    { name: 'sort -last_synced (no index: sorts)', query: { sort: '-last_synced' } },
    { name: 'sort owner (no index: sorts)', query: { sort: 'owner' } },
  ];

  const results = [];
  for (const s of scenarios) {
    const url = `/api/v1/terminals?${new URLSearchParams(s.query).toString()}`;
    const once = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    if (once.statusCode !== 200) throw new Error(`${url}: ${once.statusCode} ${once.body}`);
    const data = (once.json() as { data: { totalCount: number; results: unknown[] } }).data;
    const requestMs = await timed(() => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } }));
    const filter: TerminalListFilter = {
      search: s.query.search ?? null,
      active: s.query.active === undefined ? null : s.query.active === 'true',
      assigned: s.query.assigned === undefined ? null : s.query.assigned === 'true',
      syncStatus: (s.query.sync_status as TerminalListFilter['syncStatus']) ?? null,
    };
    const query = await repos.terminals.resolve(filter);
    const page = Number(s.query.page ?? 1);
    const limit = Number(s.query.limit ?? PAGE_SIZE);
    const offset = (page - 1) * limit;
    const pageArgs = { limit, offset, sort: (s.query.sort ?? 'service_line') as TerminalSort };
    const estimate = await repos.terminals.estimateCount(query);
    const exact = await repos.terminals.count(query);
    const partial = (data.results.length > 0 && data.results.length < limit) || (data.results.length === 0 && page === 1);
    const reversed = offset >= REVERSE_PAGING_FROM && offset * 2 > estimate;
    results.push({
      scenario: s.name,
      url,
      rows: data.results.length,
      totalCount: data.totalCount,
      exactCount: exact,
      strategy: reversed
        ? 'read from the far end, exact count'
        : partial
          ? 'no count (partly filled page)'
          : !query.pattern && estimate > EXACT_COUNT_UP_TO
            ? 'planner estimate'
            : 'exact count',
      requestMs,
      resolveMs: await timed(() => repos.terminals.resolve(filter)),
      pageQueryMs: await timed(() => repos.terminals.list(query, pageArgs)),
      exactCountMs: await timed(() => repos.terminals.count(query)),
      estimateMs: await timed(() => repos.terminals.estimateCount(query)),
      plan: await repos.terminals.planOfList(query, pageArgs),
      ...(s.search ? { meetsTarget: requestMs.p95 < TARGET_P95_MS[kind] } : {}),
    });
  }

  const other = async (name: string, url: string) => {
    const once = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    if (once.statusCode !== 200) throw new Error(`${url}: ${once.statusCode} ${once.body}`);
    return { endpoint: name, url, requestMs: await timed(() => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } })) };
  };
  const endpoints = [
    await other('health', '/api/v1/terminals/health'),
    await other('sync stats', '/api/v1/terminals/sync/stats'),
    await other('available, first page', '/api/v1/terminals/available'),
    await other('one terminal', `/api/v1/terminals/${owned.userTerminalId}`),
    await other('service line usage', `/api/v1/terminals/service-line/${owned.serviceLineNumber ?? sample.serviceLineNumber}/usage`),
  ];
  await app.close();

  const searches = results.filter((r) => 'meetsTarget' in r);
  return {
    database: kind === 'pglite' ? 'PGlite (in memory)' : 'PostgreSQL',
    terminals: TOTAL,
    liveTerminals: live.length,
    customers: CUSTOMERS,
    seedMs,
    searchTargetP95Ms: TARGET_P95_MS[kind],
    worstSearchP95Ms: Math.max(...searches.map((r) => r.requestMs.p95)),
    allSearchesMeetTarget: searches.every((r) => r.meetsTarget),
    results,
    endpoints,
  };
}

async function main(): Promise<void> {
  const runs = await onEachDatabase('bench_terminals', run);

  console.log(
    JSON.stringify({ benchmark: 'terminals-search', node: process.version, runsPerQuery: RUNS, warmUpRuns: WARM_UP, runs }, null, 2),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
