// Closing a billing cycle at fleet scale (the target: closing a cycle for 10,000 customers / 100,000
// lines on PostgreSQL). Seeds, in bulk, N customers holding L service lines (one terminal each,
// line g held by customer g mod N), two priced products, and for the cycle just ended: overage on
// a tenth of the lines, top-ups on one in twenty, a mid-cycle plan change (two provider partial
// periods) on one in fifty, a mid-cycle start on one in a hundred, a 10 % discount for a tenth of
// the customers, a negotiated price for one in fifty, and a pending credit for one in twenty. Then
// the statements service runs as the job runs it (the real repositories, a fixed clock on the 1st
// of the next month), case after case on the same database:
//   refreshFirst      the cycle's drafts worked out and written for the first time;
//   refreshUnchanged  the same again at once: every draft's fingerprint is unchanged, none written;
//   refreshChanged    after the overage of a tenth of the lines changed (as a usage sync writes it);
//   close             the headline: the final refresh, numbering and closing every statement,
//                     applying the credits, in the service's own transaction;
//   exportCsv         the all-customers CSV of the closed cycle, streamed page by page.
// Checks (exit 1 on any failure): a statement per customer; every statement's total equals the
// sum of its lines; every one closed with a distinct number; every credit applied once; the CSV
// parses back to the same per-statement totals and grand total; a second close is refused; a
// closed statement cannot be changed by SQL (the 0017 trigger).
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:billing
//   npm run bench:billing -- --only pglite --customers 1000 --lines 10000
//   (--customers 10000 --lines 100000 by default; without TEST_DATABASE_URL only PGlite runs)
//
// Not a test: figures depend on the machine. Compare runs on one machine.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { BILLING_MESSAGES, STATEMENT_CSV_COLUMNS } from '../src/domain/billing';
import type { Database, Db } from '../server/db/client';
import { createRepositories } from '../server/db/repositories';
import { rowsOf } from '../server/db/repositories/results';
import { createAuditService } from '../server/services/audit';
import { createStatementsService, REFRESH_BATCH } from '../server/services/billing/statements';
import { statementsOfCsv } from '../tests/fixtures/csv';
import { runBench, UsageError } from './cli';
import { onEachDatabase } from './databases';

const USAGE = 'usage: tsx bench/billing-close.ts [--customers 10000] [--lines 100000] [--only pglite|postgres]';

/** The clock: three hours into December; November has ended and is closed. */
const NOW = new Date('2025-12-01T03:00:00.000Z');
const CYCLE = '2025-11';
const SEED_SLICE = 25_000;

function options() {
  let values: { customers?: string; lines?: string; only?: string };
  try {
    ({ values } = parseArgs({ options: { customers: { type: 'string' }, lines: { type: 'string' }, only: { type: 'string' } } }));
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  const customers = Number(values.customers ?? process.env.BENCH_CUSTOMERS ?? 10_000);
  const lines = Number(values.lines ?? process.env.BENCH_LINES ?? 100_000);
  if (!Number.isInteger(customers) || customers < 1 || customers > 1_000_000) throw new UsageError(`--customers must be a whole number from 1 to 1000000\n${USAGE}`);
  if (!Number.isInteger(lines) || lines < customers || lines > 2_000_000) throw new UsageError(`--lines must be a whole number from --customers to 2000000\n${USAGE}`);
  const only = values.only ?? process.env.BENCH_ONLY;
  if (only !== undefined && only !== 'pglite' && only !== 'postgres') throw new UsageError(`--only must be pglite or postgres\n${USAGE}`);
  if (only) process.env.BENCH_ONLY = only;
  return { customers, lines } as const;
}

type Options = ReturnType<typeof options>;

const count = (value: unknown) => Number(value ?? 0);
async function one<T extends Record<string, unknown>>(db: Db, query: ReturnType<typeof sql>): Promise<T> {
  const [row] = rowsOf<T>(await db.execute(query));
  if (!row) throw new Error('expected one row');
  return row;
}

const LINE = (g: ReturnType<typeof sql>) => sql`'SLB-' || lpad((${g})::text, 7, '0')`;
const CUSTOMER = (g: ReturnType<typeof sql>, o: Options) => sql`md5('bench-customer-' || ((${g}) % ${o.customers}::int + 1))::uuid`;

async function seed(database: Database, o: Options): Promise<void> {
  const db = database.db;
  const at = NOW.toISOString();
  const g = sql`g`;
  await db.execute(sql`
    INSERT INTO provider_products (product_reference_id, account_id, account_number, name, price, iso_currency_code, raw, synced_at) VALUES
      ('bench-50', 1, 'ACC-BENCH', 'Bench 50 GB', 65, 'USD', '{}', ${at}::timestamptz),
      ('bench-1tb', 1, 'ACC-BENCH', 'Bench 1 TB', 165, 'USD', '{}', ${at}::timestamptz)`);
  await db.execute(sql`
    INSERT INTO billing_prices (product_reference_id, currency, monthly_minor, overage_per_gb_minor, top_up_minor, effective_from) VALUES
      ('bench-50', 'USD', 8350, 200, 6500, '2025-01-01'),
      ('bench-1tb', 'USD', 21450, 150, 6500, '2025-01-01')`);
  await db.execute(sql`
    INSERT INTO customers (id, email, name, company, address)
    SELECT md5('bench-customer-' || g)::uuid, 'customer-' || g || '@bench.example', 'Bench Customer ' || g, 'Bench Co ' || (g % 100), g || ' Bench Street'
    FROM generate_series(1, ${o.customers}::int) g`);
  await db.execute(sql`
    INSERT INTO billing_customer_prices (customer_id, product_reference_id, effective_from, discount_bp, monthly_minor)
    SELECT md5('bench-customer-' || g)::uuid, CASE WHEN g % 50 = 0 THEN 'bench-1tb' END, '2025-01-01',
           CASE WHEN g % 50 = 0 THEN NULL ELSE 1000 END, CASE WHEN g % 50 = 0 THEN 19900 END
    FROM generate_series(1, ${o.customers}::int) g WHERE g % 10 = 0 OR g % 50 = 0`);
  await db.execute(sql`
    INSERT INTO billing_adjustments (customer_id, currency, amount_minor, reason)
    SELECT md5('bench-customer-' || g)::uuid, 'USD', -500, 'Service credit'
    FROM generate_series(1, ${o.customers}::int) g WHERE g % 20 = 0`);
  for (let from = 1; from <= o.lines; from += SEED_SLICE) {
    const to = Math.min(o.lines, from + SEED_SLICE - 1);
    const series = sql`generate_series(${from}::int, ${to}::int) g`;
    await db.execute(sql`
      INSERT INTO service_lines (service_line_number, account_id, account_number, product_reference_id, active, start_date, synced_at)
      SELECT ${LINE(g)}, 1, 'ACC-BENCH', CASE WHEN g % 2 = 0 THEN 'bench-50' ELSE 'bench-1tb' END, true,
             CASE WHEN g % 100 = 7 THEN '2025-11-10T14:00:00Z'::timestamptz ELSE '2024-06-01T00:00:00Z'::timestamptz END, ${at}::timestamptz
      FROM ${series}`);
    await db.execute(sql`
      INSERT INTO terminals (user_terminal_id, account_id, account_number, kit_serial_number, service_line_number, active, condition, assigned_customer_id, assigned_at, sync_status)
      SELECT 'UTB-' || lpad(g::text, 7, '0'), 1, 'ACC-BENCH', 'KITB' || lpad(g::text, 7, '0'), ${LINE(g)}, true, 'active', ${CUSTOMER(g, o)}, ${at}::timestamptz, 'synced'
      FROM ${series}`);
    await db.execute(sql`
      INSERT INTO service_line_usage_cycles (service_line_number, cycle_start, cycle_end, priority_gb, standard_gb, overage_gb, synced_at)
      SELECT ${LINE(g)}, '2025-11-01', '2025-11-30', 40, 0, CASE WHEN g % 10 = 3 THEN round(((g % 997) / 10.0)::numeric, 2) END, ${at}::timestamptz
      FROM ${series}`);
    await db.execute(sql`
      INSERT INTO billing_line_top_ups (service_line_number, cycle, one_time_blocks, opt_in_blocks)
      SELECT ${LINE(g)}, ${CYCLE}, 1 + g % 2, 0 FROM ${series} WHERE g % 20 = 11`);
    await db.execute(sql`
      INSERT INTO service_line_periods (service_line_number, period_start, period_end, product_reference_id)
      SELECT ${LINE(g)}, p.s, p.e, p.product
      FROM ${series}
      CROSS JOIN LATERAL (VALUES ('2025-11-01T00:00:00Z'::timestamptz, '2025-11-15T10:00:00Z'::timestamptz, 'bench-50'),
                                 ('2025-11-15T10:00:00Z'::timestamptz, '2025-12-01T00:00:00Z'::timestamptz, 'bench-1tb')) AS p(s, e, product)
      WHERE g % 50 = 5`);
  }
  await database.exec(database.kind === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE');
}

/** A usage sync that re-read a tenth of the lines and found more overage. */
async function usageSync(db: Db): Promise<number> {
  const result = await db.execute(sql`
    UPDATE service_line_usage_cycles SET overage_gb = coalesce(overage_gb, 0) + 1.25
    WHERE cycle_start = '2025-11-01' AND right(service_line_number, 1) = '9'
    RETURNING 1`);
  return rowsOf(result).length;
}

async function run(kind: 'pglite' | 'postgres', database: Database, o: Options) {
  const failures: string[] = [];
  const seedStart = performance.now();
  await seed(database, o);
  const seedMs = Math.round(performance.now() - seedStart);
  const repos = createRepositories(database.db);
  const now = () => NOW;
  const audit = createAuditService({ audit: repos.audit, now });
  const service = createStatementsService({
    repos,
    audit,
    now,
    provider: null,
    customers: { get: () => Promise.reject(new Error('not used by the benchmark')) },
  });
  const timed = async <T>(what: () => Promise<T>) => {
    const start = performance.now();
    const value = await what();
    return { ms: Math.round(performance.now() - start), value };
  };

  const refreshFirst = await timed(() => service.refresh(CYCLE, { rest: false }));
  const refreshUnchanged = await timed(() => service.refresh(CYCLE, { rest: false }));
  if (refreshUnchanged.value.changed !== 0) failures.push(`an unchanged refresh rewrote ${refreshUnchanged.value.changed} drafts`);
  const changedLines = await usageSync(database.db);
  const refreshChanged = await timed(() => service.refresh(CYCLE, { rest: false }));
  if (changedLines > 0 && refreshChanged.value.changed === 0) failures.push(`${changedLines} lines changed and no draft was rewritten`);
  const close = await timed(() => service.close(CYCLE));
  console.error(`${kind}: refresh ${refreshFirst.ms} ms, unchanged ${refreshUnchanged.ms} ms, changed ${refreshChanged.ms} ms, close ${close.ms} ms`);

  let csv = '';
  const exportCsv = await timed(async () => {
    for await (const chunk of service.exportCsv({ cycle: CYCLE, status: null, customer: null, search: null })) csv += chunk;
    return csv.length;
  });

  const figures = await one(
    database.db,
    sql`
    SELECT
      (SELECT count(*) FROM billing_statements WHERE cycle = ${CYCLE}) AS statements,
      (SELECT count(*) FROM billing_statements WHERE cycle = ${CYCLE} AND status = 'closed') AS closed,
      (SELECT count(DISTINCT number) FROM billing_statements WHERE cycle = ${CYCLE}) AS numbers,
      (SELECT coalesce(sum(total_minor), 0) FROM billing_statements WHERE cycle = ${CYCLE}) AS total,
      (SELECT count(*) FROM billing_statement_items i JOIN billing_statements s ON s.id = i.statement_id WHERE s.cycle = ${CYCLE}) AS items,
      (SELECT count(*) FROM billing_statements s WHERE s.cycle = ${CYCLE}
         AND s.total_minor <> (SELECT coalesce(sum(amount_minor), 0) FROM billing_statement_items i WHERE i.statement_id = s.id)) AS unbalanced,
      (SELECT count(*) FROM billing_adjustments WHERE applied_statement_id IS NOT NULL) AS credits_applied,
      (SELECT count(*) FROM billing_adjustments) AS credits`,
  );
  const statements = count(figures.statements);
  if (statements !== o.customers) failures.push(`${statements} statements for ${o.customers} customers`);
  if (count(figures.closed) !== statements) failures.push('not every statement is closed');
  if (count(figures.numbers) !== statements) failures.push('statement numbers are not distinct');
  if (count(figures.unbalanced) !== 0) failures.push(`${count(figures.unbalanced)} statements whose total is not the sum of their lines`);
  if (count(figures.credits_applied) !== count(figures.credits)) failures.push('a credit was not applied');

  // The CSV, parsed back: per statement the lines add up to statement_total, and all to the grand total.
  const { header, rows, statements: perStatement } = statementsOfCsv(csv);
  if (header.join(',') !== STATEMENT_CSV_COLUMNS.join(',')) failures.push('the CSV header differs from STATEMENT_CSV_COLUMNS');
  const csvTotal = [...perStatement.values()].reduce((sum, s) => sum + s.total, 0);
  if ([...perStatement.values()].some((s) => s.lines !== s.total)) failures.push('a CSV statement does not add up');
  if (perStatement.size !== statements) failures.push(`the CSV holds ${perStatement.size} statements, the database ${statements}`);
  if (csvTotal !== count(figures.total)) failures.push(`the CSV totals ${csvTotal}, the statements ${count(figures.total)}`);
  if (rows.length !== count(figures.items)) failures.push(`the CSV has ${rows.length} rows for ${count(figures.items)} statement lines`);

  // Closed means closed: the service refuses a second close, the database a change.
  // Each refusal must be the one meant: any other error (a crash, bad SQL) is a failure too.
  const message = (error: unknown) => `${error instanceof Error ? error.message : String(error)} ${(error as { cause?: Error })?.cause?.message ?? ''}`;
  const again = await service.close(CYCLE).then(
    () => 'closed twice',
    (error: unknown) => (message(error).includes(BILLING_MESSAGES.cycleClosed) ? null : `a second close failed otherwise: ${message(error)}`),
  );
  if (again) failures.push(again);
  const tampered = await database.db.execute(sql`UPDATE billing_statements SET total_minor = total_minor + 1 WHERE cycle = ${CYCLE}`).then(
    () => 'a closed statement was updated',
    (error: unknown) => (/is closed and cannot change/.test(message(error)) ? null : `the update failed otherwise: ${message(error)}`),
  );
  if (tampered) failures.push(tampered);

  return {
    database: kind === 'pglite' ? 'PGlite (in memory)' : 'PostgreSQL',
    seedMs,
    statements,
    statementLines: count(figures.items),
    totalMinor: count(figures.total),
    cases: {
      refreshFirst: { ms: refreshFirst.ms, ...refreshFirst.value },
      refreshUnchanged: { ms: refreshUnchanged.ms, ...refreshUnchanged.value },
      refreshChanged: { ms: refreshChanged.ms, changedLines, ...refreshChanged.value },
      close: { ms: close.ms, msPer1000Lines: Math.round((close.ms / o.lines) * 1000 * 10) / 10, statements: close.value.statements },
      exportCsv: { ms: exportCsv.ms, bytes: exportCsv.value, rows: rows.length },
    },
    failures,
  };
}

async function main(): Promise<void> {
  const o = options();
  const runs = await onEachDatabase('bench_billing', (kind, database) => run(kind, database, o));
  const failed = runs.flatMap((r) => r.failures.map((f) => `${r.database}: ${f}`));
  console.log(
    JSON.stringify(
      {
        benchmark: 'billing-close',
        node: process.version,
        clock: NOW.toISOString(),
        cycle: CYCLE,
        customers: o.customers,
        lines: o.lines,
        refreshBatchCustomers: REFRESH_BATCH,
        shares: { overage: 0.1, topUps: 0.05, planChanges: 0.02, startedMidCycle: 0.01, discountedCustomers: 0.1, negotiatedCustomers: 0.02, credits: 0.05 },
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
