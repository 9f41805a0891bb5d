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
// The fleet, the usage sync and the checks are bench/alerts-fleet.ts (bench/automatic-actions.ts
// seeds the same fleet). Not a test: figures depend on the machine. Compare runs on one machine.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import type { AlertEvaluationReport } from '../src/domain/alerts';
import type { Database } from '../server/db/client';
import { createRepositories } from '../server/db/repositories';
import { rowsOf } from '../server/db/repositories/results';
import { createAlertsService, EVALUATION_BATCH } from '../server/services/alerts';
import { createAuditService } from '../server/services/audit';
import { createEmailSender } from '../server/services/email';
import { checks, count, NOW, one, quiet, seed, STALE_PERCENT, timeRepositoryCalls, usageSync, alertPublisher } from './alerts-fleet';
import { runBench, UsageError } from './cli';
import { onEachDatabase } from './databases';

const USAGE = 'usage: tsx bench/alerts-evaluate.ts [--lines 100000] [--changed 0.1] [--webhooks real|counting] [--only pglite|postgres]';

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

async function run(kind: Database['kind'], database: Database, o: Options) {
  const repos = createRepositories(database.db);
  const timing = timeRepositoryCalls(repos);
  const now = () => new Date(NOW);
  const email = createEmailSender({ outbox: repos.emailOutbox, transport: null, from: 'Bench <bench@localhost>', now });
  const audit = createAuditService({ audit: repos.audit, now });
  const publisher = alertPublisher(o.webhooks, { repos, audit, now, email });
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

runBench(main);
