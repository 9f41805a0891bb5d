// Telemetry history at fleet scale, on PostgreSQL: 100,000 terminals read every 15 minutes, in a
// throwaway database on TEST_DATABASE_URL. One fixed clock; the day D is 2026-03-09 (UTC).
//   1. The fleet: terminals on land-ish coordinates (one in twenty without a location), conditions
//      spread over active / warning / maintenance / inactive, three in ten held by ten customers.
//   2. The syncs' writes: the day's earlier readings are written first (SQL, a statement a reading,
//      the tick running every hour), so the timed syncs are the day's last and write
//      into its raw partition at its fullest. Each timed sync writes a reading per terminal through
//      repos.telemetryHistory.record in the sync's paced slices (pacer.ts, the bounds the terminal
//      sync uses: 100 first, 25 to 1,000; one transaction a slice), one terminal in twenty offline
//      (a different twentieth every second sync: outages open and close).
//   3. The roll-up: the service's maintain() at the tick after midnight (day D's 24 hours at once,
//      in terminal order, and day D into the daily table), and at each hour of the day before it,
//      which rolls up nothing: the day in progress is read from the readings (the day's partition
//      analyzed and vacuumed when autovacuum's default thresholds would have it done).
//   4. Storage: storage()'s bytes per table over the rows they hold (indexes included), and the
//      projections for the whole fleet from those measured bytes per row.
//   5. The charts: BENCH_HOURLY_DAYS days of hourly and BENCH_DAILY_DAYS of daily roll-ups for
//      every terminal (tests/fixtures/telemetry.ts, a day of hours a statement in terminal order, as
//      the tick writes them), the tick an hour after midnight, then GET /api/v1/terminals/:id/telemetry for random terminals through app.inject.
//   6. The fleet map: GET /api/v1/fleet/map, its time, and its size raw, gzip'd and brotli'd.
// The roll-up's INSERTs run under EXPLAIN (ANALYZE, BUFFERS, WAL, TIMING OFF): the same work, with
// its pages and WAL (full-page images) reported. Prints one JSON object; progress on stderr.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:telemetry
//   BENCH_TERMINALS=100000 BENCH_SYNCS=8 BENCH_HOURLY_DAYS=30 BENCH_DAILY_DAYS=396 BENCH_RUNS=50
//   (about 5 to 7 minutes on two idle cores; 9 to 11 while other suites load the machine)
//
// Targets: a sync's writes within a tenth of the 15 minutes between syncs; a 30-day chart p95 within
// 50 ms; the fleet map p95 within 300 ms and at most 2 MB (2,000,000 bytes) compressed.
// Not a test: figures depend on the machine and on what else it runs. Compare runs on one machine.
import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { brotliCompressSync, constants as zlib, gzip, gzipSync } from 'node:zlib';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { PgDialect } from 'drizzle-orm/pg-core';
import { buildApp } from '../server/app';
import { hashPassword } from '../server/auth/passwords';
import type { Database, Db } from '../server/db/client';
import { createRepositories } from '../server/db/repositories';
import { rowsOf } from '../server/db/repositories/results';
import { createTelemetryHistoryRepository, type TelemetryHistoryRepository } from '../server/db/repositories/telemetry-history';
import { successSchema } from '../server/routes/schemas';
import { mapBody } from '../server/routes/telemetry-history';
import { fleetMapSchema } from '../server/routes/telemetry-history-schemas';
import { prng } from '../server/random';
import { createPacer, inPacedSlices } from '../server/services/pacer';
import { createTelemetryHistoryService } from '../server/services/telemetry-history';
import { SYNC_DEFAULTS } from '../server/services/terminal-sync';
import { conditionIndex, FLEET_MAP_UNLOCATED_LISTED, isPlaceable, RAW_KEEP_DAYS, type FleetMapWire, type TelemetryHistoryWire } from '../src/domain/telemetry-history';
import type { TerminalCondition } from '../src/domain/terminals';
import { fillDaily, fillHourly, fillRaw, fleetTerminal, insertPlacedFleet, syncReadings } from '../tests/fixtures/telemetry';
import { testConfig } from '../tests/server/helpers';
import { runBench, UsageError } from './cli';
import { onEachDatabase } from './databases';
import { figures, time } from './timing';

const USAGE = `usage: TEST_DATABASE_URL=postgres://… tsx bench/telemetry.ts   (PostgreSQL only)
  BENCH_TERMINALS=100000   terminals, each read every 15 minutes (100 to 1000000)
  BENCH_SYNCS=8            timed syncs, the last readings of a day (1 to 96; 8 is two hours)
  BENCH_HOURLY_DAYS=30     days of hourly roll-ups before the charts (1 to 60)
  BENCH_DAILY_DAYS=396     days of daily roll-ups before the charts (1 to 396: the 13-month chart's whole history)
  BENCH_RUNS=50            timed 30-day charts, each of a random terminal (5 to 10000; the other ranges: at most 20)`;

const READING_MS = 15 * 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Day D: its last BENCH_SYNCS readings are the timed syncs'. A Monday; 30 days back reach into February. */
const DAY = Date.parse('2026-03-09T00:00:00.000Z');
/** The roll-ups' 13 months (ROLLUP_KEEP_MONTHS), in days, for the storage projection. */
const ROLLUP_DAYS = 396;
const CUSTOMERS = 10;
const WARM_UP = 5;
const OTHER_RANGE_RUNS = 20;
const MAP_RUNS = 20;
const TARGETS = {
  syncWriteMsAtMost: READING_MS / 10,
  chart30dP95MsAtMost: 50,
  fleetMapP95MsAtMost: 300,
  fleetMapCompressedBytesAtMost: 2_000_000,
} as const;

function wholeNumber(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new UsageError(`${name} must be a whole number from ${min} to ${max}\n${USAGE}`);
  return value;
}

function options() {
  if (!process.env.TEST_DATABASE_URL) throw new UsageError(`TEST_DATABASE_URL is not set: this benchmark runs on PostgreSQL\n${USAGE}`);
  return {
    terminals: wholeNumber('BENCH_TERMINALS', 100_000, 100, 1_000_000),
    syncs: wholeNumber('BENCH_SYNCS', 8, 1, 96),
    hourlyDays: wholeNumber('BENCH_HOURLY_DAYS', 30, 1, 60),
    dailyDays: wholeNumber('BENCH_DAILY_DAYS', 396, 1, 396),
    runs: wholeNumber('BENCH_RUNS', 50, 5, 10_000),
  } as const;
}

type Options = ReturnType<typeof options>;

const benchStart = performance.now();
const progress = (message: string) => console.error(`[telemetry ${String(Math.round((performance.now() - benchStart) / 1000)).padStart(4)} s] ${message}`);
const msSince = (start: number) => Math.round(performance.now() - start);
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const iso = (ms: number) => new Date(ms).toISOString();
const load = () => loadavg().map((n) => round(n));

// ---- What a statement cost -------------------------------------------------------------------

/** One roll-up INSERT as EXPLAIN (ANALYZE, BUFFERS, WAL) saw it; blocks are 8 kB pages. */
interface StatementCost {
  table: string;
  ms: number;
  rowsInserted: number;
  sharedHit: number;
  sharedRead: number;
  sharedDirtied: number;
  sharedWritten: number;
  walRecords: number;
  walFullPageImages: number;
  walMB: number;
  /** Plan nodes from the top, with their relation or index. */
  plan: string[];
}

type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };

function nodesOf(node: PlanNode | undefined): string[] {
  if (!node) return [];
  const on = node['Relation Name'] ? ` on ${String(node['Relation Name'])}` : '';
  const using = node['Index Name'] ? ` using ${String(node['Index Name'])}` : '';
  return [`${String(node['Node Type'])}${on}${using}`, ...(node.Plans ?? []).flatMap(nodesOf)];
}

function costOf(table: string, result: unknown): StatementCost {
  const raw = Object.values(rowsOf<Record<string, unknown>>(result)[0] ?? {})[0];
  const [root] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode; 'Execution Time': number }[];
  const plan = root!.Plan;
  const n = (key: string) => Number(plan[key] ?? 0);
  return {
    table,
    ms: round(root!['Execution Time']),
    rowsInserted: Number(plan['Tuples Inserted'] ?? plan.Plans?.[0]?.['Actual Rows'] ?? 0),
    sharedHit: n('Shared Hit Blocks'),
    sharedRead: n('Shared Read Blocks'),
    sharedDirtied: n('Shared Dirtied Blocks'),
    sharedWritten: n('Shared Written Blocks'),
    walRecords: n('WAL Records'),
    walFullPageImages: n('WAL FPI'),
    walMB: round(n('WAL Bytes') / 1e6, 1),
    plan: nodesOf(plan),
  };
}

const dialect = new PgDialect();

/**
 * A handle whose transactions run each INSERT INTO telemetry_… under EXPLAIN (ANALYZE, BUFFERS,
 * WAL, TIMING OFF): the same statement doing the same work (the roll-up ignores what an INSERT
 * answers), and its cost recorded in `costs`.
 */
function costRecording(db: Db, costs: StatementCost[]): Db {
  const statements = (tx: Db): Db =>
    new Proxy(tx, {
      get(target, prop, receiver) {
        if (prop !== 'execute') return Reflect.get(target, prop, receiver) as unknown;
        return async (query: SQL) => {
          const table = /^\s*INSERT INTO (telemetry_\w+)/.exec(dialect.sqlToQuery(query).sql)?.[1];
          if (!table) return target.execute(query);
          const result = await target.execute(sql`EXPLAIN (ANALYZE, BUFFERS, WAL, TIMING OFF, FORMAT JSON) ${query}`);
          costs.push(costOf(table, result));
          return result;
        };
      },
    });
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop !== 'transaction') return Reflect.get(target, prop, receiver) as unknown;
      return (work: (tx: Db) => Promise<unknown>) => target.transaction((tx) => work(statements(tx as unknown as Db)));
    },
  });
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the first statement `work` makes through a repository: the
 * statement is not run before (the repository sees no rows), so the plan is its first run's.
 */
async function explainFirst(db: Db, work: (repository: TelemetryHistoryRepository) => Promise<unknown>): Promise<string[]> {
  let captured: SQL | null = null;
  const capturing = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop !== 'execute') return Reflect.get(target, prop, receiver) as unknown;
      return async (query: SQL) => {
        captured ??= query;
        return { rows: [], rowCount: 0 };
      };
    },
  });
  await work(createTelemetryHistoryRepository(capturing));
  if (!captured) throw new Error('the repository made no statement');
  return rowsOf<Record<string, unknown>>(await db.execute(sql`EXPLAIN (ANALYZE, BUFFERS) ${captured}`)).map((r) => String(Object.values(r)[0]));
}

async function one(db: Db, query: SQL): Promise<Record<string, unknown>> {
  const [row] = rowsOf<Record<string, unknown>>(await db.execute(query));
  if (!row) throw new Error('expected one row');
  return row;
}

async function outageCounts(db: Db): Promise<{ total: number; open: number }> {
  const row = await one(db, sql`SELECT count(*)::int AS total, (count(*) FILTER (WHERE ended_at IS NULL))::int AS open FROM telemetry_outages`);
  return { total: Number(row.total), open: Number(row.open) };
}

/** Other databases with a statement running on the same server now (another benchmark disturbing the figures). */
async function otherDatabasesBusy(db: Db, seen: Set<string>): Promise<void> {
  const rows = rowsOf<{ name: unknown }>(
    await db.execute(sql`SELECT DISTINCT datname AS name FROM pg_stat_activity WHERE state = 'active' AND datname IS NOT NULL AND datname <> current_database()`),
  );
  for (const row of rows) seen.add(String(row.name));
}

/** The server's WAL position in bytes: the difference over a sync is its WAL, and any other database's written meanwhile. */
async function walPosition(db: Db): Promise<bigint> {
  return BigInt(String((await one(db, sql`SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::bigint::text AS at`)).at));
}

// ---- The run -----------------------------------------------------------------------------------

/**
 * The whole fleet's map answer, made anew and gzipped for a browser, two ways timed side by side: as
 * the route makes it now (the database writes the JSON), and as it was made before (row objects, the
 * response schema's encoding, JSON.stringify), kept here only to be measured against.
 */
function mapAnswers(db: Db, repository: TelemetryHistoryRepository) {
  const gzipped = promisify(gzip);
  // The answer's schema then: coordinates in degrees, rounded to 4 decimals.
  const degrees = z.array(z.number());
  const previousSchema = successSchema(fleetMapSchema.extend({ located: z.object({ userTerminalIds: z.array(z.string()), latitudes: degrees, longitudes: degrees, conditions: z.array(z.number().int()) }) }));
  const round4 = (value: number) => Math.round(value * 10_000) / 10_000;
  return {
    async current() {
      return mapBody({ json: await repository.mapJson({}, new Date(), FLEET_MAP_UNLOCATED_LISTED), version: 'made anew' }, true);
    },
    async previous() {
      const rows = rowsOf<Record<string, unknown>>(
        await db.execute(sql`SELECT user_terminal_id, nickname, service_line_number, latitude, longitude, condition FROM terminals
          WHERE removed_at IS NULL ORDER BY service_line_number NULLS LAST, user_terminal_id`),
      );
      const located = { userTerminalIds: [] as string[], latitudes: [] as number[], longitudes: [] as number[], conditions: [] as number[] };
      const unlocated: FleetMapWire['unlocated'] = { total: 0, terminals: [] };
      for (const r of rows) {
        const [latitude, longitude] = [r.latitude === null ? null : Number(r.latitude), r.longitude === null ? null : Number(r.longitude)];
        const condition = String(r.condition) as TerminalCondition;
        if (isPlaceable(latitude, longitude)) {
          located.userTerminalIds.push(String(r.user_terminal_id));
          located.latitudes.push(round4(latitude!));
          located.longitudes.push(round4(longitude!));
          located.conditions.push(conditionIndex(condition));
        } else if (++unlocated.total <= FLEET_MAP_UNLOCATED_LISTED) {
          const text = (v: unknown) => (v === null ? null : String(v));
          unlocated.terminals.push({ userTerminalId: String(r.user_terminal_id), nickname: text(r.nickname), serviceLineNumber: text(r.service_line_number), condition });
        }
      }
      const answer = { success: true as const, data: { generatedAt: new Date().toISOString(), located, unlocated }, message: 'Fleet map retrieved successfully' };
      return gzipped(JSON.stringify(z.encode(previousSchema, answer)), { level: 6 });
    },
  };
}

async function run(database: Database, o: Options) {
  const db = database.db;
  const repos = createRepositories(db);
  let clock = new Date(DAY);
  const now = () => new Date(clock);
  const costs: StatementCost[] = [];
  // The tick's upkeep, with the roll-up's statements costed (the service is the app's, on this clock).
  const upkeep = createTelemetryHistoryService({ repos: { ...repos, telemetryHistory: createTelemetryHistoryRepository(costRecording(db, costs)) }, now });
  const busy = new Set<string>();
  const step = async (message: string) => {
    progress(message);
    await otherDatabasesBusy(db, busy);
  };
  const maintainAt = async (at: number) => {
    clock = new Date(at);
    const first = costs.length;
    const start = performance.now();
    const done = await upkeep.maintain();
    return { clock: iso(at), ms: msSince(start), hours: done.hours, days: done.days, droppedPartitions: done.dropped.length, statements: costs.slice(first) };
  };

  // 1. The fleet.
  await step(`filling ${o.terminals.toLocaleString('en-US')} terminals`);
  let start = performance.now();
  const customerIds: string[] = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    const customer = await repos.customers.insert({ email: `telemetry-${i}@bench.example`, name: `Telemetry Customer ${i}`, company: 'Bench Holdings' });
    customerIds.push(customer.id);
  }
  await insertPlacedFleet(db, o.terminals, customerIds, new Date(DAY - DAY_MS));
  await database.exec('VACUUM ANALYZE terminals');
  const fleet = await one(
    db,
    sql`SELECT count(*)::int AS terminals, count(latitude)::int AS located, count(assigned_customer_id)::int AS assigned,
               (SELECT jsonb_object_agg(condition, n) FROM (SELECT condition, count(*) AS n FROM terminals GROUP BY 1) c) AS conditions
        FROM terminals`,
  );
  const fleetMs = msSince(start);

  // 2. The day's readings before the timed syncs, each hour rolled up as the tick would.
  const before = 96 - o.syncs;
  const firstSync = DAY + before * READING_MS;
  await step(`writing day D's first ${before} readings (SQL), the tick every hour`);
  start = performance.now();
  const hourTicks: Awaited<ReturnType<typeof maintainAt>>[] = [];
  // The day's partition analyzed and vacuumed when autovacuum's default thresholds would have it done
  // (analyze: 50 rows and a tenth more than at the last analysis; insert-driven vacuum: 1,000 rows and
  // a fifth more than at the last vacuum): the bench writes an hour in seconds, faster than
  // autovacuum's one-minute naptime. Without them the roll-up reads the whole day's partition for
  // its hour: never analyzed, the planner scans it (Seq Scan); analyzed but never vacuumed, the block
  // range index has no summaries (autosummarize is off) and its bitmap holds every page.
  const dayPartition = `telemetry_readings_${iso(DAY).slice(0, 10).replaceAll('-', '')}`;
  const upkept = { analyzedRows: 0, analyses: 0, vacuumedRows: 0, vacuums: 0, ms: 0 };
  for (let r = 0; r < before; r += 4) {
    const count = Math.min(4, before - r);
    await fillRaw(db, new Date(DAY + r * READING_MS), count);
    const rows = (r + count) * o.terminals;
    const begun = performance.now();
    if (rows - upkept.vacuumedRows >= 1_000 + upkept.vacuumedRows / 5) {
      await database.exec(`VACUUM ${dayPartition}`);
      upkept.vacuumedRows = rows;
      upkept.vacuums += 1;
    }
    if (rows - upkept.analyzedRows >= 50 + upkept.analyzedRows / 10) {
      await database.exec(`ANALYZE ${dayPartition}`);
      upkept.analyzedRows = rows;
      upkept.analyses += 1;
    }
    upkept.ms += performance.now() - begun;
    if (count === 4) hourTicks.push(await maintainAt(DAY + (r + 4) * READING_MS + 30_000));
  }
  const prefillMs = msSince(start);

  await step(`timing ${o.syncs} syncs of ${o.terminals.toLocaleString('en-US')} readings`);
  // The terminal sync's pacer for its terminal writes (terminal-sync.ts), no rests (PostgreSQL).
  const pacer = createPacer({
    first: Math.min(100, SYNC_DEFAULTS.applyBatchSize),
    min: Math.min(25, SYNC_DEFAULTS.applyBatchSize),
    max: SYNC_DEFAULTS.applyBatchSize,
  });
  const syncs = [];
  for (let s = 0; s < o.syncs; s++) {
    const at = new Date(firstSync + s * READING_MS);
    clock = at;
    const readings = syncReadings(o.terminals, s, at);
    const outagesBefore = await outageCounts(db);
    const walBefore = await walPosition(db);
    const sizes: number[] = [];
    start = performance.now();
    await inPacedSlices(pacer, readings, async (part) => {
      await db.transaction((tx) => repos.telemetryHistory.record(part, at, tx));
      sizes.push(part.length);
    });
    const writeMs = performance.now() - start;
    const walMB = round(Number((await walPosition(db)) - walBefore) / 1e6, 1);
    const outagesAfter = await outageCounts(db);
    const opened = outagesAfter.total - outagesBefore.total;
    const sorted = [...sizes].sort((a, b) => a - b);
    syncs.push({
      at: at.toISOString(),
      readings: readings.length,
      writeMs: Math.round(writeMs),
      rowsPerSecond: Math.round(readings.length / (writeMs / 1000)),
      shareOfInterval: round(writeMs / READING_MS, 4),
      transactions: sizes.length,
      walMBClusterWide: walMB,
      sliceSizes: { first: sizes[0], min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted.at(-1) },
      outagesOpened: opened,
      outagesClosed: outagesBefore.open + opened - outagesAfter.open,
      openOutages: outagesAfter.open,
      keepsPace: writeMs <= TARGETS.syncWriteMsAtMost,
    });
    await step(`sync ${s + 1}: ${Math.round(writeMs)} ms in ${sizes.length} transactions`);
  }

  // 3. The tick after midnight: day D's hours, and day D into the daily table.
  await step('rolling up (the tick after midnight)');
  const midnight = await maintainAt(DAY + DAY_MS + 30_000);
  const hourlyInserts = hourTicks.flatMap((t) => t.statements.filter((c) => c.table === 'telemetry_hourly'));

  // 4. Storage: bytes per row measured, then projected.
  await step('measuring storage');
  await database.exec('ANALYZE telemetry_readings, telemetry_hourly, telemetry_daily');
  const stored = await repos.telemetryHistory.storage();
  const counted = await one(
    db,
    sql`SELECT (SELECT count(*) FROM telemetry_readings)::bigint AS raw, (SELECT count(*) FROM telemetry_hourly)::bigint AS hourly,
               (SELECT count(*) FROM telemetry_daily)::bigint AS daily`,
  );
  const perRow = (table: string, rows: number) => {
    const bytes = stored.find((s) => s.table === table)?.bytes ?? 0;
    return { bytes, rows, estimatedRows: stored.find((s) => s.table === table)?.rows ?? 0, bytesPerRow: rows > 0 ? round(bytes / rows, 1) : null };
  };
  const tables = {
    raw: perRow('telemetry_readings', Number(counted.raw)),
    hourly: perRow('telemetry_hourly', Number(counted.hourly)),
    daily: perRow('telemetry_daily', Number(counted.daily)),
  };
  const gb = (bytes: number) => round(bytes / 1e9, 2);
  const bytesOf = (t: { bytesPerRow: number | null }) => t.bytesPerRow ?? 0;
  const perDay = { raw: 96 * o.terminals * bytesOf(tables.raw), hourly: 24 * o.terminals * bytesOf(tables.hourly), daily: o.terminals * bytesOf(tables.daily) };
  const kept = { raw: RAW_KEEP_DAYS * perDay.raw, hourly: ROLLUP_DAYS * perDay.hourly, daily: ROLLUP_DAYS * perDay.daily };
  const storage = {
    note: 'Projections from the bytes per row measured here (pg_total_relation_size: heap, TOAST and indexes, over the rows counted), not measured at that size.',
    measuredAfter: `day D: ${before} filled and ${o.syncs} synced readings of each terminal, its 24 hours rolled up by the tick and the day into the daily table`,
    tables,
    projectedGB: {
      terminals: o.terminals,
      rawPerDay: gb(perDay.raw),
      hourlyPerDay: gb(perDay.hourly),
      dailyPerDay: gb(perDay.daily),
      [`rawKept${RAW_KEEP_DAYS}Days`]: gb(kept.raw),
      [`hourlyKept${ROLLUP_DAYS}Days`]: gb(kept.hourly),
      [`dailyKept${ROLLUP_DAYS}Days`]: gb(kept.daily),
      total: gb(kept.raw + kept.hourly + kept.daily),
    },
  };

  // 5. Weeks of roll-ups before day D, then the tick an hour after midnight over the month they fill.
  await step(`filling ${o.hourlyDays} days of hourly roll-ups (${(o.hourlyDays * 24 * o.terminals).toLocaleString('en-US')} rows)`);
  start = performance.now();
  const hourlyFill = { ...(await fillHourly(db, new Date(DAY - o.hourlyDays * DAY_MS), o.hourlyDays * 24)), ms: msSince(start) };
  await step(`filling ${o.dailyDays} days of daily roll-ups`);
  start = performance.now();
  const dailyFill = { ...(await fillDaily(db, new Date(DAY - o.dailyDays * DAY_MS), o.dailyDays)), ms: msSince(start) };
  await step('the tick an hour after midnight, day D again, over the filled month');
  // The next day's readings to 01:00 (the day in progress: read from the readings, not rolled up).
  // Day D's daily rows are made again by the tick (as if it were midnight), now over a month
  // partition of hourly rows.
  await fillRaw(db, new Date(DAY + DAY_MS), 5);
  await db.execute(sql`DELETE FROM telemetry_daily WHERE bucket = ${iso(DAY)}::timestamptz`);
  await db.execute(sql`UPDATE telemetry_rollup_state SET daily_until = ${iso(DAY)}::timestamptz WHERE id = 1`);
  const overFilledMonth = await maintainAt(DAY + DAY_MS + HOUR_MS + 30_000);
  start = performance.now();
  await database.exec('ANALYZE telemetry_readings, telemetry_hourly, telemetry_daily');
  const analyzeMs = msSince(start);
  const state = await one(
    db,
    sql`SELECT to_char(hourly_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI"Z"') AS hourly_until,
               to_char(daily_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI"Z"') AS daily_until FROM telemetry_rollup_state`,
  );

  // The charts, through the app, at 01:05 on D+1 (the 01:00 reading is past the hourly roll-up: read raw).
  clock = new Date(DAY + DAY_MS + HOUR_MS + 5 * 60_000);
  await step('timing the charts');
  const app = await buildApp({ config: await testConfig(), database, logger: false, now });
  await app.ready();
  const password = `Bench-${randomBytes(6).toString('hex')}`;
  const admin = await repos.users.insert({ email: 'telemetry-admin@bench.example', name: 'Telemetry Admin', role: 'admin', passwordHash: await hashPassword(password) });
  const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: admin.email, password } });
  if (login.statusCode !== 200) throw new Error(`login: ${login.statusCode} ${login.body}`);
  const headers = { authorization: `Bearer ${(login.json() as { data: { token: string } }).data.token}` };
  // Seeded: two runs time the same terminals.
  const random = prng(20260310);
  const pick = () => fleetTerminal(Math.floor(random() * o.terminals), 0).userTerminalId;

  const chart = async (range: '24h' | '7d' | '30d' | '13m', runs: number) => {
    const points: number[] = [];
    const ask = async () => {
      const answer = await app.inject({ method: 'GET', url: `/api/v1/terminals/${pick()}/telemetry?range=${range}`, headers });
      if (answer.statusCode !== 200) throw new Error(`${range}: ${answer.statusCode} ${answer.body.slice(0, 300)}`);
      points.push((answer.json() as { data: TelemetryHistoryWire }).data.points.length);
    };
    const requestMs = await time(ask, runs, WARM_UP);
    return { range, runs, points: { min: Math.min(...points), max: Math.max(...points) }, requestMs };
  };
  const chart30d = await chart('30d', o.runs);
  const charts = [chart30d, await chart('24h', Math.min(o.runs, OTHER_RANGE_RUNS)), await chart('7d', Math.min(o.runs, OTHER_RANGE_RUNS)), await chart('13m', Math.min(o.runs, OTHER_RANGE_RUNS))];

  // 6. The fleet map.
  await step('timing the fleet map');
  const mapUrl = '/api/v1/fleet/map';
  const plain = await app.inject({ method: 'GET', url: mapUrl, headers });
  if (plain.statusCode !== 200) throw new Error(`map: ${plain.statusCode} ${plain.body.slice(0, 300)}`);
  const body = plain.rawPayload;
  // The database writes this answer's JSON: held to the response schema the route documents.
  const map: FleetMapWire = successSchema(fleetMapSchema).parse(plain.json()).data;
  // Unchanged, the answer made before is sent again; after any change to the terminals (as each
  // sync makes) it is made anew: one terminal's nickname rewritten before each of those requests.
  const identityMs = await time(() => app.inject({ method: 'GET', url: mapUrl, headers }), MAP_RUNS, 2);
  const asBrowser = { ...headers, 'accept-encoding': 'gzip, deflate, br' };
  const wire = await app.inject({ method: 'GET', url: mapUrl, headers: asBrowser });
  const encoding = String(wire.headers['content-encoding'] ?? 'identity');
  const unchangedMs = await time(() => app.inject({ method: 'GET', url: mapUrl, headers: asBrowser }), MAP_RUNS, 2);
  const changedSamples: number[] = [];
  for (let i = 0; i < MAP_RUNS + 2; i++) {
    await db.execute(sql`UPDATE terminals SET nickname = nickname WHERE user_terminal_id = ${pick()}`);
    const begun = performance.now();
    const answer = await app.inject({ method: 'GET', url: mapUrl, headers: asBrowser });
    if (answer.statusCode !== 200) throw new Error(`map: ${answer.statusCode}`);
    if (i >= 2) changedSamples.push(performance.now() - begun);
  }
  const browserMs = figures(changedSamples);
  start = performance.now();
  const gzipBytes = gzipSync(body, { level: 6 }).length;
  const gzipMs = msSince(start);
  const brotli = (quality: number) => {
    const begun = performance.now();
    const bytes = brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }).length;
    return { quality, bytes, ms: msSince(begun) };
  };
  const brotliSizes = [brotli(5), brotli(11)];
  // The parts: the database building the answer's JSON, and the gzip the route does for a browser;
  // then the answer built now and as before, alternately, so both see the same machine.
  const repositoryMs = await time(() => repos.telemetryHistory.mapJson({}, new Date(), FLEET_MAP_UNLOCATED_LISTED), 5, 1);
  const routeGzipMs = await time(() => promisify(gzip)(body, { level: 1 }), 5, 1);
  const answers = mapAnswers(db, repos.telemetryHistory);
  const sideBySide = { current: [] as number[], previous: [] as number[] };
  for (let i = 0; i < MAP_RUNS + 2; i++) {
    for (const way of ['current', 'previous'] as const) {
      const begun = performance.now();
      await answers[way]();
      if (i >= 2) sideBySide[way].push(msSince(begun));
    }
  }
  const compressedBytes = encoding === 'identity' ? gzipBytes : wire.rawPayload.length;
  const fleetMap = {
    located: map.located.userTerminalIds.length,
    unlocated: map.unlocated.total,
    unlocatedListed: map.unlocated.terminals.length,
    requestMs: {
      acceptEncoding: asBrowser['accept-encoding'],
      contentEncoding: encoding,
      afterAChange: browserMs,
      unchanged: unchangedMs,
      unchangedWithoutGzip: identityMs,
    },
    repositoryMs,
    routeGzipMs,
    answerGzippedMs: { note: 'without HTTP: the database writing the JSON, and as before: row objects, schema encoding, JSON.stringify; both gzipped', current: figures(sideBySide.current), previous: figures(sideBySide.previous) },
    bytes: {
      raw: body.length,
      gzip6: gzipBytes,
      gzip6Ms: gzipMs,
      brotli: brotliSizes,
      onTheWire: encoding === 'identity' ? null : { contentEncoding: encoding, bytes: wire.rawPayload.length },
    },
  };

  await step('explaining the 30-day chart and the map');
  const planClock = clock.getTime();
  const planned = pick();
  const key = await repos.telemetryHistory.keyOf(planned);
  const plans = {
    chart30d: { userTerminalId: planned, lines: await explainFirst(db, (r) => r.points(key!, 'hour', new Date(planClock - 30 * DAY_MS), new Date(planClock))) },
    fleetMap: await explainFirst(db, (r) => r.mapJson({}, new Date(), FLEET_MAP_UNLOCATED_LISTED)),
  };
  await app.close();

  const mapP95 = browserMs.p95;
  const meets = {
    syncsKeepPace: syncs.every((s) => s.keepsPace),
    chart30dP95: chart30d.requestMs.p95 <= TARGETS.chart30dP95MsAtMost,
    fleetMapP95: mapP95 <= TARGETS.fleetMapP95MsAtMost,
    fleetMapCompressed: compressedBytes <= TARGETS.fleetMapCompressedBytesAtMost,
  };
  await otherDatabasesBusy(db, busy);
  return {
    meets,
    otherDatabasesBusyDuringRun: [...busy].sort(),
    fill: { fleetMs, fleet, prefill: { readings: before, ms: prefillMs, autovacuumAsDefaults: { analyses: upkept.analyses, vacuums: upkept.vacuums, ms: Math.round(upkept.ms) } }, hourly: hourlyFill, daily: dailyFill, analyzeMs, rollupState: state },
    syncs,
    rollUp: {
      perHour: {
        note: `the tick at each hour of day D before the syncs: the day in progress is not rolled up (no hourly inserts)`,
        ticks: hourTicks.length,
        maintainMs: figures(hourTicks.map((t) => t.ms)),
        insertMs: figures(hourlyInserts.map((c) => c.ms)),
        walMB: figures(hourlyInserts.map((c) => c.walMB)),
        walFullPageImages: figures(hourlyInserts.map((c) => c.walFullPageImages)),
        last: hourlyInserts.at(-1),
      },
      afterMidnight: { note: `day D's 24 hours of ${o.terminals.toLocaleString('en-US')} terminals in terminal order, and day D into the daily table`, ...midnight },
      overFilledMonth: { note: `day D's daily rows made again from a month partition of hourly rows holding ${new Date(DAY).getUTCDate()} days`, ...overFilledMonth },
    },
    storage,
    charts,
    fleetMap,
    plans,
  };
}

async function main(): Promise<void> {
  const o = options();
  // databases.ts reads BENCH_ONLY: PostgreSQL only.
  process.env.BENCH_ONLY = 'postgres';
  const loadAtStart = load();
  const [result] = await onEachDatabase('bench_telemetry', (_kind, database) => run(database, o));
  if (!result) throw new Error('no run');
  const { meets, ...figuresOfRun } = result;
  console.log(
    JSON.stringify(
      {
        benchmark: 'telemetry',
        database: 'PostgreSQL',
        node: process.version,
        machine: { cpus: availableParallelism(), loadAverageAtStart: loadAtStart, loadAverageAtEnd: load() },
        options: o,
        wallSeconds: Math.round((performance.now() - benchStart) / 1000),
        targets: TARGETS,
        meets,
        ...figuresOfRun,
      },
      null,
      2,
    ),
  );
}

runBench(main);
