// Customers list at scale: seeds 100,000 customers into an in-memory PGlite (one unnest insert per
// batch, through the customers repository), then times list pages with and without search and
// status filters, plus the stats query, and prints JSON: ms per query as p50/p95/mean over N runs,
// split into the page query and the count it may need, with the plan the database chose.
//
//   npx tsx bench/customers-search.ts            (BENCH_CUSTOMERS=100000 BENCH_RUNS=30)
//
// Not a test: figures depend on the machine. Compare runs on one machine.
import { performance } from 'node:perf_hooks';
import type { CustomerStatusFilter } from '../src/domain/customers';
import { systemClock } from '../server/clock';
import { parseEnv, type Config } from '../server/config';
import { openDatabase } from '../server/db/client';
import { migrate } from '../server/db/migrate';
import { createRepositories } from '../server/db/repositories';
import type { BulkCustomerRow } from '../server/db/repositories/customers';
import { createServices } from '../server/services';
import { prng } from '../server/random';
import { time } from './timing';

const TOTAL = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARM_UP = 3;
const BATCH = 10_000;
const ANALYZE = process.env.BENCH_ANALYZE !== '0';
const DAY = 86_400_000;

/** Deterministic data (the shared generator), so two runs time the same rows. */
function benchRandom(seed: number) {
  const next = prng(seed);
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T };
}

const FIRST = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elena', 'Felipe', 'Gabriela', 'Hugo', 'Isabel', 'Javier', 'Karina', 'Lucas', 'Marta', 'Nicolas', 'Olivia', 'Pablo', 'Quentin', 'Rosa', 'Samuel', 'Teresa', 'Ulises', 'Valeria', 'William', 'Ximena', 'Yusuf', 'Zoe', 'Amara', 'Benedikt', 'Chloe', 'Dmitri', 'Emeka', 'Fatima', 'Grace', 'Hiroshi', 'Ingrid', 'Jonas', 'Kofi', 'Leila', 'Mateo', 'Nadia'] as const;
const LAST = ['Lima', 'Okafor', 'Schmidt', 'Fernandes', 'Nakamura', 'Rossi', 'Haddad', 'Kowalski', 'Mensah', 'Oliveira', 'Petrov', 'Quispe', 'Andersson', 'Banerjee', 'Costa', 'Dubois', 'Eriksen', 'Garcia', 'Horvat', 'Ibrahim', 'Jensen', 'Kariuki', 'Laurent', 'Moreno', 'Novak', "O'Brien", 'Pereira', 'Ramos', 'Santos', 'Tanaka'] as const;
const PLACE = ['Andes', 'Northwind', 'Sahel', 'Pacific Rim', 'Outback', 'Boreal', 'Atlas', 'Coral Coast', 'Highland', 'Amazonia', 'Kalahari', 'Baltic', 'Patagonia', 'Great Plains', 'Yukon', 'Serengeti', 'Fjordline', 'Altiplano', 'Gobi', 'Tasman', 'Sierra Madre', 'Arctic Circle', 'Red Sea', 'Mekong'] as const;
const TRADE = ['Copper Logistics', 'Maritime Services', 'Agritech Cooperative', 'Aquaculture', 'Rail & Freight', 'Timber Holdings', 'Resorts', 'Medical Network', 'Wind Energy', 'Research Institute', 'Mining Group', 'Offshore Drilling', 'Expeditions', 'Grain Elevators', 'Emergency Services', 'Safari Lodges', 'Ferries', 'Solar Farms', 'Construction', 'Fisheries'] as const;

function generate(count: number, now: Date): BulkCustomerRow[] {
  const rng = benchRandom(0xc0ffee);
  const t = now.getTime();
  return Array.from({ length: count }, (_, i) => {
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const place = rng.pick(PLACE);
    const roll = rng.next();
    const blocked = roll < 0.05;
    const active = !blocked && roll < 0.8;
    const expiryRoll = rng.next();
    const accountExpiresAt =
      expiryRoll < 0.1 ? new Date(t - rng.next() * 400 * DAY)
      : expiryRoll < 0.18 ? new Date(t + (1 + rng.next() * 29) * DAY)
      : expiryRoll < 0.9 ? new Date(t + (31 + rng.next() * 1000) * DAY)
      : null;
    return {
      email: `${first}.${last}.${i}@${place.toLowerCase().replace(/[^a-z]/g, '')}.example`.toLowerCase().replace("'", ''),
      name: `${first} ${last}`,
      company: `${place} ${rng.pick(TRADE)}`,
      isActive: active || (blocked && rng.next() < 0.5),
      blockedEnabled: blocked,
      blockedReason: blocked ? 'Payment overdue by more than 90 days' : null,
      mfaEnabled: rng.next() < 0.3,
      accountExpiresAt,
      createdAt: new Date(t - rng.next() * 1100 * DAY),
    };
  });
}

const timed = (fn: () => Promise<unknown>) => time(fn, RUNS, WARM_UP);

interface Scenario {
  name: string;
  page?: number;
  limit?: number;
  search?: string;
  status?: CustomerStatusFilter;
  isActive?: boolean;
}

const SCENARIOS: Scenario[] = [
  { name: 'first page, no filter' },
  { name: 'page 50, no filter', page: 50 },
  { name: 'last page (offset 99,990), no filter', page: Math.ceil(TOTAL / 10) },
  { name: 'limit 100, no filter', limit: 100 },
  { name: 'search name "okafor"', search: 'okafor' },
  { name: 'search company "coral coast"', search: 'coral coast' },
  { name: 'search email of one customer', search: 'ana.lima.4' },
  { name: 'search with no match "zzqx"', search: 'zzqx' },
  { name: 'search 1 char "a" (no trigram)', search: 'a' },
  { name: 'search 2 chars "zo" (no trigram)', search: 'zo' },
  { name: 'status active', status: 'active' },
  { name: 'status pending', status: 'pending' },
  { name: 'status inactive (is_active=false)', status: 'inactive', isActive: false },
  { name: 'status blocked', status: 'blocked' },
  { name: 'status expiring_soon', status: 'expiring_soon' },
  { name: 'status expired', status: 'expired' },
  { name: 'search "lima" + status active', search: 'lima', status: 'active', isActive: true },
  { name: 'search "okafor" + status blocked, page 2', search: 'okafor', status: 'blocked', page: 2 },
];

async function main(): Promise<void> {
  const database = await openDatabase({ dataDir: 'memory://' });
  await migrate(database);
  const repos = createRepositories(database.db);
  const parsed = parseEnv({ LOG_LEVEL: 'silent', SEED_DEMO: '0' });
  const config: Config = { ...parsed, jwtSecret: 'bench-secret-that-is-at-least-32-characters', jwtSecretSource: 'env' };
  const services = createServices({ db: database.db, repos, config, now: systemClock, provider: null });
  const now = systemClock();

  const seedStart = performance.now();
  const rows = generate(TOTAL, now);
  let inserted = 0;
  for (let i = 0; i < rows.length; i += BATCH) inserted += await repos.customers.insertBulk(rows.slice(i, i + BATCH));
  // PostgreSQL's autovacuum analyzes a freshly filled table by itself; the embedded database has
  // no autovacuum, so BENCH_ANALYZE=0 shows the plans a never-analyzed table gets.
  if (ANALYZE) await database.exec('ANALYZE customers;');
  const seedMs = Math.round(performance.now() - seedStart);

  const results = [];
  for (const s of SCENARIOS) {
    const params = { page: s.page ?? 1, limit: s.limit ?? 10, search: s.search, status: s.status, isActive: s.isActive };
    const filter = { search: s.search ?? null, status: s.status ?? null, isActive: s.isActive ?? null, now: systemClock() };
    const offset = (params.page - 1) * params.limit;
    const sample = await services.customers.list(params);
    const listPage = await timed(() => services.customers.list(params));
    const pageQuery = await timed(() => repos.customers.list(filter, { limit: params.limit, offset }));
    const countQuery = await timed(() => repos.customers.count(filter));
    const plan = await repos.customers.planOfList(filter, { limit: params.limit, offset });
    results.push({
      scenario: s.name,
      total: sample.pagination.total,
      rows: sample.customers.length,
      // What GET /customers costs: the page, plus a count unless the page was partly filled.
      listMs: listPage,
      pageQueryMs: pageQuery,
      countQueryMs: countQuery,
      plan,
    });
  }
  const stats = await services.customers.stats();
  const statsMs = await timed(() => services.customers.stats());

  console.log(
    JSON.stringify(
      {
        benchmark: 'customers-search',
        database: 'PGlite (in memory)',
        analyzed: ANALYZE,
        node: process.version,
        customers: inserted,
        runsPerQuery: RUNS,
        warmUpRuns: WARM_UP,
        seedMs,
        results,
        stats: { figures: stats, ms: statsMs },
      },
      null,
      2,
    ),
  );
  await database.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
