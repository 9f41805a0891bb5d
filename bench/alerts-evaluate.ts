// The alert evaluation at fleet scale ("evaluating 100,000 lines after a usage sync, time
// and queries"): N service lines, one terminal each (four in five held by N/10 customers), a
// current usage cycle a line with its use spread below 80 %, between 80 and 100 % and above the
// cap, and telemetry with a few terminals offline, seeded in bulk into an in-memory PGlite and,
// when TEST_DATABASE_URL is set, a fresh database on that PostgreSQL server. The alerts service
// runs as the job runs it (the real repositories, the email outbox without SMTP, a fixed clock) and
// publishes to the real webhook service with one active endpoint taking every event (events and
// deliveries written in the evaluation's transactions; no delivery run is started, so nothing is
// sent). `--webhooks counting` puts a publisher that only counts events in its place, to see the
// evaluation's cost without the webhook writes. Four cases, one after the other, on the same database:
//   first           the first evaluation after seeding: the triggers marked every line (worst case);
//   noChange        evaluating again at once: nothing marked;
//   afterUsageSync  a usage sync changes the figures of a share of the lines (an UPDATE of their
//                   cycles, as the sync's upsert writes them); only those are marked (incremental);
//   full            the same kind of change on another share of the lines, then every line marked:
//                   what an evaluation that is not incremental would cost, for comparison.
// Each case: the report's ms and queries, lines read, alerts opened and resolved, emails, webhook
// events and deliveries, the time spent in each repository method (statementMs, slowest first:
// where the time goes); and checks: no alert twice, at most one unresolved usage alert a line and cycle, the
// unresolved usage and offline alerts those the data asks for. Prints one JSON object; exits 1
// when a check fails.
//
//   npm run bench:alerts                        (--lines 100000 --changed 0.1 --webhooks real)
//   npm run bench:alerts -- --lines 10000 --changed 0.2
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:alerts -- --only postgres
//   (--only pglite|postgres, or BENCH_ONLY, runs one of the two)
//
// Not a test: figures depend on the machine. Compare runs on one machine.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import type { AlertEvaluationReport } from '../src/domain/alerts';
import type { Database, Db } from '../server/db/client';
import { createRepositories, type Repositories } from '../server/db/repositories';
import { rowsOf } from '../server/db/repositories/results';
import { createAlertsService, EVALUATION_BATCH, type AlertEventPublisher } from '../server/services/alerts';
import { createAuditService } from '../server/services/audit';
import { createEmailSender, type EmailLogger } from '../server/services/email';
import { createWebhookService } from '../server/services/webhooks';
import { onEachDatabase } from './databases';

const USAGE = 'usage: tsx bench/alerts-evaluate.ts [--lines 100000] [--changed 0.1] [--webhooks real|counting] [--only pglite|postgres]';

/** The clock of every run: the 24th of a 30-day cycle, so a line's projection is 1.25 × its use. */
const NOW = new Date('2025-06-24T12:00:00.000Z');
const CYCLE = { start: '2025-06-01', end: '2025-06-30' } as const;
/** Terminals whose last report is 3 hours older than the reading (the offline rule's default is 60 minutes). */
const STALE_PERCENT = 3;
/** Rows a seeding statement writes: keeps the triggers' transition tables of PGlite within bounds. */
const SEED_SLICE = 25_000;
/** Portal users subscribed to the line rules: the evaluation writes their emails to the outbox. */
const SUBSCRIBERS = 2;

class UsageError extends Error {
  override name = 'UsageError';
}

function options() {
  let values: { lines?: string; changed?: string; webhooks?: string; only?: string };
  try {
    ({ values } = parseArgs({ options: { lines: { type: 'string' }, changed: { type: 'string' }, webhooks: { type: 'string' }, only: { type: 'string' } } }));
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  const lines = Number(values.lines ?? process.env.BENCH_LINES ?? 100_000);
  if (!Number.isInteger(lines) || lines < 10 || lines > 2_000_000) throw new UsageError(`--lines must be a whole number from 10 to 2000000\n${USAGE}`);
  const changed = Number(values.changed ?? process.env.BENCH_CHANGED ?? 0.1);
  if (!(changed > 0 && changed <= 0.5)) throw new UsageError(`--changed must be a share above 0 and at most 0.5 (two disjoint shares are changed)\n${USAGE}`);
  const webhooks = values.webhooks ?? 'real';
  if (webhooks !== 'real' && webhooks !== 'counting') throw new UsageError(`--webhooks must be real or counting\n${USAGE}`);
  const only = values.only ?? process.env.BENCH_ONLY;
  if (only !== undefined && only !== 'pglite' && only !== 'postgres') throw new UsageError(`--only must be pglite or postgres\n${USAGE}`);
  // databases.ts reads BENCH_ONLY.
  if (only) process.env.BENCH_ONLY = only;
  return { lines, changed, webhooks, customers: Math.max(1, Math.round(lines / 10)) } as const;
}

type Options = ReturnType<typeof options>;

const quiet: EmailLogger = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as EmailLogger;

async function one<T extends Record<string, unknown>>(db: Db, query: ReturnType<typeof sql>): Promise<T> {
  const [row] = rowsOf<T>(await db.execute(query));
  if (!row) throw new Error('expected one row');
  return row;
}

const count = (value: unknown) => Number(value ?? 0);

/** The line number, terminal id and customer of line g, the same in every statement. */
const LINE = (g: ReturnType<typeof sql>) => sql`'SLB-' || lpad((${g})::text, 7, '0')`;
const TERMINAL = (g: ReturnType<typeof sql>) => sql`'UTB-' || lpad((${g})::text, 7, '0')`;
/** Line g's cap: 50 GB on even lines, 1 TB on odd ones (as the terminal carries it). */
const CAP_GB = (g: ReturnType<typeof sql>) => sql`(CASE WHEN (${g}) % 2 = 0 THEN 50 ELSE 1000 END)`;

/**
 * Line g's use in percent of its cap: 70 % of the lines below 80, 20 % from 80 to 100, 10 % from
 * 100 to 150, spread by a permutation of g mod 1000 so no slice of numbers shares one level.
 */
const PERCENT = (g: ReturnType<typeof sql>) => sql`(
  SELECT CASE WHEN u < 0.7 THEN u / 0.7 * 80 WHEN u < 0.9 THEN 80 + (u - 0.7) / 0.2 * 20 ELSE 100 + (u - 0.9) / 0.1 * 50 END
  FROM (SELECT ((${g})::bigint * 7919 % 1000) / 1000.0 AS u) p)`;

/** The k-th slice (0, 1, …) of `share` of the lines, by g mod 1000; slices do not overlap while k × share < 1. */
const IN_SLICE = (g: ReturnType<typeof sql>, share: number, k: number) =>
  sql`(((${g}) % 1000) + 1000 - ${Math.round(k * share * 1000)}::int) % 1000 < ${Math.round(share * 1000)}::int`;

async function seed(database: Database, o: Options): Promise<void> {
  const db = database.db;
  const at = NOW.toISOString();
  const g = sql`g`;
  await db.execute(sql`
    INSERT INTO provider_products (product_reference_id, account_id, account_number, name, price, iso_currency_code, raw, synced_at)
    VALUES ('bench-product', 1, 'ACC-BENCH', 'Bench plan', 100, 'USD', '{}', ${at}::timestamptz)`);
  // Ids derived from the number, so a terminal names its customer without a lookup.
  await db.execute(sql`
    INSERT INTO customers (id, email, name, company)
    SELECT md5('bench-customer-' || g)::uuid, 'customer-' || g || '@bench.example', 'Bench Customer ' || g, 'Bench Co ' || (g % 100)
    FROM generate_series(1, ${o.customers}::int) g`);
  await db.execute(sql`
    INSERT INTO users (email, name, role)
    SELECT 'alerts-admin-' || g || '@bench.example', 'Alerts Admin ' || g, 'admin' FROM generate_series(1, ${SUBSCRIBERS}::int) g`);
  await db.execute(sql`
    INSERT INTO alert_subscriptions (user_id, kind)
    SELECT u.id, k.kind FROM users u CROSS JOIN (VALUES ('usage'), ('overage_forecast'), ('offline')) AS k(kind)
    WHERE u.email LIKE 'alerts-admin-%@bench.example'`);

  for (let from = 1; from <= o.lines; from += SEED_SLICE) {
    const to = Math.min(o.lines, from + SEED_SLICE - 1);
    const series = sql`generate_series(${from}::int, ${to}::int) g`;
    await db.execute(sql`
      INSERT INTO service_lines (service_line_number, account_id, account_number, product_reference_id, active, start_date, synced_at)
      SELECT ${LINE(g)}, 1, 'ACC-BENCH', 'bench-product', true, ${at}::timestamptz - interval '1 year', ${at}::timestamptz FROM ${series}`);
    await db.execute(sql`
      INSERT INTO terminals (user_terminal_id, account_id, account_number, kit_serial_number, dish_serial_number, service_line_number, active, condition,
                             assigned_customer_id, assigned_at, sync_status, last_synced_at, data_cap_amount, data_cap_unit, plan,
                             product_reference_id, terminal_type)
      SELECT ${TERMINAL(g)}, 1, 'ACC-BENCH', 'KITB' || lpad(g::text, 7, '0'), 'DSHB' || lpad(g::text, 7, '0'), ${LINE(g)}, true, 'active',
             CASE WHEN g % 5 <> 0 THEN md5('bench-customer-' || (g % ${o.customers}::int + 1))::uuid END,
             CASE WHEN g % 5 <> 0 THEN ${at}::timestamptz END,
             'synced', ${at}::timestamptz,
             CASE WHEN g % 2 = 0 THEN 50 ELSE 1 END, CASE WHEN g % 2 = 0 THEN 'GB' ELSE 'TB' END,
             CASE WHEN g % 2 = 0 THEN 'Priority 50 GB' ELSE 'Priority 1 TB' END, 'bench-product', 'Standard'
      FROM ${series}`);
    await db.execute(sql`
      INSERT INTO service_line_usage_cycles (service_line_number, cycle_start, cycle_end, priority_gb, standard_gb, synced_at)
      SELECT ${LINE(g)}, ${CYCLE.start}::date, ${CYCLE.end}::date, round((${CAP_GB(g)} * ${PERCENT(g)} / 100)::numeric, 2), 0, ${at}::timestamptz
      FROM ${series}`);
    await db.execute(sql`
      INSERT INTO terminal_telemetry (user_terminal_id, reported_at, synced_at, uptime_seconds, signal_quality)
      SELECT ${TERMINAL(g)},
             CASE WHEN g % 100 < ${STALE_PERCENT}::int THEN ${at}::timestamptz - interval '3 hours 5 minutes'
                  ELSE ${at}::timestamptz - interval '5 minutes 30 seconds' END,
             ${at}::timestamptz - interval '5 minutes', 86400, 0.95
      FROM ${series}`);
  }
  // The endpoint is written as the service would leave it; its secret is never opened (nothing is sent).
  await db.execute(sql`
    INSERT INTO webhook_endpoints (url, description, secret_sealed, secret_hint, created_at, updated_at)
    VALUES ('https://hooks.bench.example/alerts', 'Benchmark receiver', 'not-a-sealed-secret', 'bench', ${at}::timestamptz, ${at}::timestamptz)`);
  await database.exec(database.kind === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE');
}

/**
 * A usage sync that re-read the k-th slice of the lines and found more use: 12 % of each line's
 * cap added to its cycle, by one UPDATE as the sync's upsert does it (the triggers mark those lines).
 */
async function usageSync(db: Db, o: Options, k: number): Promise<number> {
  const result = await db.execute(sql`
    UPDATE service_line_usage_cycles c
    SET priority_gb = c.priority_gb + ${CAP_GB(sql`s.g`)} * 0.12, synced_at = ${NOW.toISOString()}::timestamptz
    FROM (SELECT g, ${LINE(sql`g`)} AS line FROM generate_series(1, ${o.lines}::int) g) s
    WHERE c.service_line_number = s.line AND c.cycle_start = ${CYCLE.start}::date AND ${IN_SLICE(sql`s.g`, o.changed, k)}
    RETURNING 1`);
  return rowsOf(result).length;
}

/** What the data asks for and what the alerts table holds, read apart from the evaluation. */
async function checks(db: Db) {
  const row = await one(
    db,
    sql`
    SELECT
      (SELECT count(*) FROM alerts) AS alerts,
      (SELECT count(*) FROM (SELECT DISTINCT kind, target_key, period_key, level, customer_id FROM alerts) d) AS distinct_keys,
      (SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM alerts WHERE kind = 'usage' AND status <> 'resolved'
                                        GROUP BY target_key, period_key) u) AS max_unresolved_usage_per_line,
      (SELECT count(*) FROM alerts WHERE kind = 'usage' AND status <> 'resolved') AS unresolved_usage,
      (SELECT count(*) FROM service_line_usage_cycles c JOIN terminals t ON t.service_line_number = c.service_line_number
       WHERE c.cycle_start = ${CYCLE.start}::date
         AND c.priority_gb * 100 >= 80 * (CASE t.data_cap_unit WHEN 'TB' THEN t.data_cap_amount * 1000 ELSE t.data_cap_amount END)) AS lines_at_80,
      (SELECT count(*) FROM alerts WHERE kind = 'offline' AND status <> 'resolved') AS unresolved_offline,
      (SELECT count(*) FROM terminal_telemetry WHERE synced_at - reported_at >= interval '60 minutes') AS terminals_offline,
      (SELECT count(*) FROM alert_dirty_lines) AS still_marked`,
  );
  const c = {
    alerts: count(row.alerts),
    distinctKeys: count(row.distinct_keys),
    maxUnresolvedUsagePerLine: count(row.max_unresolved_usage_per_line),
    unresolvedUsage: count(row.unresolved_usage),
    linesAt80Percent: count(row.lines_at_80),
    unresolvedOffline: count(row.unresolved_offline),
    terminalsOffline: count(row.terminals_offline),
    stillMarked: count(row.still_marked),
  };
  const failures = [
    c.alerts !== c.distinctKeys && 'an alert was opened twice',
    c.maxUnresolvedUsagePerLine > 1 && 'a line holds two unresolved usage alerts in one cycle',
    c.unresolvedUsage !== c.linesAt80Percent && 'unresolved usage alerts differ from the lines at 80 % or more',
    c.unresolvedOffline !== c.terminalsOffline && 'unresolved offline alerts differ from the terminals offline',
    c.stillMarked !== 0 && 'lines are still marked after the evaluation',
  ].filter((f): f is string => typeof f === 'string');
  return { ...c, failures };
}

/** Time spent in each repository method the evaluation calls (the transaction itself aside), per case. */
function timeRepositoryCalls(repos: Repositories) {
  let spent = new Map<string, { calls: number; ms: number }>();
  const wrap = (name: string, target: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(target)) {
      if (typeof value !== 'function' || key === 'transaction') continue;
      const method = value as (...args: unknown[]) => unknown;
      target[key] = async (...args: unknown[]) => {
        const start = performance.now();
        try {
          return await method(...args);
        } finally {
          const entry = spent.get(`${name}.${key}`) ?? { calls: 0, ms: 0 };
          entry.calls += 1;
          entry.ms += performance.now() - start;
          spent.set(`${name}.${key}`, entry);
        }
      };
    }
  };
  wrap('alerts', repos.alerts as unknown as Record<string, unknown>);
  wrap('emailOutbox', repos.emailOutbox as unknown as Record<string, unknown>);
  wrap('webhooks', repos.webhooks as unknown as Record<string, unknown>);
  return {
    /** The figures since the last call, slowest first. */
    take() {
      const figures = Object.fromEntries(
        [...spent].sort((a, b) => b[1].ms - a[1].ms).map(([name, f]) => [name, { calls: f.calls, ms: Math.round(f.ms) }]),
      );
      spent = new Map();
      return figures;
    },
  };
}

async function run(kind: Database['kind'], database: Database, o: Options) {
  const repos = createRepositories(database.db);
  const timing = timeRepositoryCalls(repos);
  const now = () => new Date(NOW);
  const email = createEmailSender({ outbox: repos.emailOutbox, transport: null, from: 'Bench <bench@localhost>', now });
  const audit = createAuditService({ audit: repos.audit, now });
  // The counting publisher stands in for the webhook service: the event count is the evaluation's,
  // writing the events and their deliveries (one statement a transaction) is left out.
  const counting: AlertEventPublisher = {
    publish: (events) => Promise.resolve({ events: events.length, deliveries: 0 }),
    wake: () => undefined,
  };
  // No waker is attached: wake() asks for nothing, so the deliveries stay pending and nothing is sent.
  const publisher: AlertEventPublisher =
    o.webhooks === 'real'
      ? createWebhookService({
          repos,
          audit,
          now,
          email,
          config: { webhookAllowHttpLocalhost: false, webhookAllowedNetworks: [], mfaEncryptionKey: randomBytes(32) },
        })
      : counting;
  const alerts = createAlertsService({
    repos,
    audit,
    email,
    now,
    portalUrl: 'http://localhost:3000',
    webhooks: () => publisher,
    log: quiet,
    actions: () => null,
  });

  const seedStart = performance.now();
  await seed(database, o);
  const seedMs = Math.round(performance.now() - seedStart);

  /** `changedLines`: the lines the sync changed; `expectRead`: the lines the run must read. */
  const evaluate = async (changedLines: number | null, expectRead: number | null) => {
    const marked = await repos.alerts.dirtyCount();
    timing.take();
    const written = async () =>
      one(database.db, sql`SELECT (SELECT count(*) FROM email_outbox) AS emails, (SELECT count(*) FROM webhook_deliveries) AS deliveries`);
    const before = await written();
    const wallStart = performance.now();
    const report: AlertEvaluationReport = await alerts.evaluate();
    const wallMs = Math.round(performance.now() - wallStart);
    const statementMs = timing.take();
    const after = await written();
    const outbox = count(after.emails) - count(before.emails);
    const webhookDeliveries = count(after.deliveries) - count(before.deliveries);
    const check = await checks(database.db);
    if (outbox !== report.emails) check.failures.push(`the report counts ${report.emails} emails, the outbox got ${outbox}`);
    if (o.webhooks === 'real' && webhookDeliveries !== report.webhookEvents) check.failures.push(`${report.webhookEvents} webhook events, ${webhookDeliveries} deliveries to the one endpoint`);
    if (expectRead !== null && report.linesRead !== expectRead) check.failures.push(`${expectRead} lines marked, ${report.linesRead} read`);
    console.error(`${kind} ${o.lines}: ${report.linesRead} lines, ${report.ms} ms, ${report.queries} queries, ${report.opened} opened, ${report.resolved} resolved`);
    return {
      marked,
      ...(changedLines !== null ? { changedLines } : {}),
      ms: report.ms,
      wallMs,
      queries: report.queries,
      linesRead: report.linesRead,
      msPer1000Lines: report.linesRead > 0 ? Math.round((report.ms / report.linesRead) * 1000 * 10) / 10 : null,
      opened: report.opened,
      resolved: report.resolved,
      emails: report.emails,
      webhookEvents: report.webhookEvents,
      webhookDeliveries,
      statementMs,
      checks: check,
    };
  };

  const first = await evaluate(null, o.lines);
  const noChange = await evaluate(null, 0);
  const changed = await usageSync(database.db, o, 0);
  const afterUsageSync = await evaluate(changed, changed);
  const changedAgain = await usageSync(database.db, o, 1);
  await repos.alerts.markLines('all', null);
  const full = await evaluate(changedAgain, o.lines);

  const byStatus = rowsOf<{ status: string; n: unknown }>(await database.db.execute(sql`SELECT status, count(*) AS n FROM alerts GROUP BY status ORDER BY status`));
  return {
    database: kind === 'pglite' ? 'PGlite (in memory)' : 'PostgreSQL',
    seedMs,
    alertsByStatus: Object.fromEntries(byStatus.map((r) => [r.status, count(r.n)])),
    cases: { first, noChange, afterUsageSync, full },
  };
}

async function main(): Promise<void> {
  const o = options();
  const runs = await onEachDatabase('bench_alerts', (kind, database) => run(kind, database, o));
  const failed = runs.flatMap((r) => Object.entries(r.cases).flatMap(([name, c]) => c.checks.failures.map((f) => `${r.database} ${name}: ${f}`)));
  console.log(
    JSON.stringify(
      {
        benchmark: 'alerts-evaluate',
        node: process.version,
        clock: NOW.toISOString(),
        lines: o.lines,
        terminals: o.lines,
        customers: o.customers,
        assignedShare: 0.8,
        offlineShare: STALE_PERCENT / 100,
        changedShare: o.changed,
        evaluationBatch: EVALUATION_BATCH,
        webhooks:
          o.webhooks === 'real'
            ? 'the webhook service, one active endpoint taking every event (events and deliveries written, none sent)'
            : 'a counting publisher (events counted, not written)',
        runs,
        failed,
      },
      null,
      2,
    ),
  );
  if (failed.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(error.message);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
