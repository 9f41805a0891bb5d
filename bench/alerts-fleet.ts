// The fleet the alert benchmarks seed (bench/alerts-evaluate.ts, bench/automatic-actions.ts): N
// service lines, one terminal each (four in five held by N/10 customers), a current usage cycle a
// line with its use spread below 80 %, between 80 and 100 % and above the cap, and telemetry with a
// few terminals offline, written in bulk with generate_series; the usage sync that changes a share
// of the lines; the checks of the alerts against the data; and the time spent in repository calls.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { Database, Db } from '../server/db/client';
import type { Repositories } from '../server/db/repositories';
import { rowsOf } from '../server/db/repositories/results';
import { randomBytes } from 'node:crypto';
import type { AlertEventPublisher } from '../server/services/alerts';
import type { AuditService } from '../server/services/audit';
import type { EmailLogger, EmailSender } from '../server/services/email';
import { createWebhookService } from '../server/services/webhooks';

/** The clock of every run: the 24th of a 30-day cycle, so a line's projection is 1.25 × its use. */
export const NOW = new Date('2025-06-24T12:00:00.000Z');
export const CYCLE = { start: '2025-06-01', end: '2025-06-30' } as const;
/** Terminals whose last report is 3 hours older than the reading (the offline rule's default is 60 minutes). */
export const STALE_PERCENT = 3;
/** Rows a seeding statement writes: keeps the triggers' transition tables of PGlite within bounds. */
const SEED_SLICE = 25_000;
/** Portal users subscribed to the line rules: the evaluation writes their emails to the outbox. */
export const SUBSCRIBERS = 2;

/** The size of a seeded fleet. */
export interface FleetSize {
  lines: number;
  customers: number;
}

export const quiet: EmailLogger = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as EmailLogger;

export async function one<T extends Record<string, unknown>>(db: Db, query: ReturnType<typeof sql>): Promise<T> {
  const [row] = rowsOf<T>(await db.execute(query));
  if (!row) throw new Error('expected one row');
  return row;
}

export const count = (value: unknown) => Number(value ?? 0);

/** The line number, terminal id and customer of line g, the same in every statement. */
export const LINE = (g: ReturnType<typeof sql>) => sql`'SLB-' || lpad((${g})::text, 7, '0')`;
export const TERMINAL = (g: ReturnType<typeof sql>) => sql`'UTB-' || lpad((${g})::text, 7, '0')`;
/** Line g's cap: 50 GB on even lines, 1 TB on odd ones (as the terminal carries it). */
export const CAP_GB = (g: ReturnType<typeof sql>) => sql`(CASE WHEN (${g}) % 2 = 0 THEN 50 ELSE 1000 END)`;

/**
 * Line g's use in percent of its cap: 70 % of the lines below 80, 20 % from 80 to 100, 10 % from
 * 100 to 150, spread by a permutation of g mod 1000 so no slice of numbers shares one level.
 */
export const PERCENT = (g: ReturnType<typeof sql>) => sql`(
  SELECT CASE WHEN u < 0.7 THEN u / 0.7 * 80 WHEN u < 0.9 THEN 80 + (u - 0.7) / 0.2 * 20 ELSE 100 + (u - 0.9) / 0.1 * 50 END
  FROM (SELECT ((${g})::bigint * 7919 % 1000) / 1000.0 AS u) p)`;

/** The k-th slice (0, 1, …) of `share` of the lines, by g mod 1000; slices do not overlap while k × share < 1. */
export const IN_SLICE = (g: ReturnType<typeof sql>, share: number, k: number) =>
  sql`(((${g}) % 1000) + 1000 - ${Math.round(k * share * 1000)}::int) % 1000 < ${Math.round(share * 1000)}::int`;

export async function seed(database: Database, o: FleetSize, options: { productRaw?: Record<string, unknown> } = {}): Promise<void> {
  const db = database.db;
  const at = NOW.toISOString();
  const g = sql`g`;
  await db.execute(sql`
    INSERT INTO provider_products (product_reference_id, account_id, account_number, name, price, iso_currency_code, raw, synced_at)
    VALUES ('bench-product', 1, 'ACC-BENCH', 'Bench plan', 100, 'USD', ${JSON.stringify(options.productRaw ?? {})}::jsonb, ${at}::timestamptz)`);
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
export async function usageSync(db: Db, o: FleetSize & { changed: number }, k: number): Promise<number> {
  const result = await db.execute(sql`
    UPDATE service_line_usage_cycles c
    SET priority_gb = c.priority_gb + ${CAP_GB(sql`s.g`)} * 0.12, synced_at = ${NOW.toISOString()}::timestamptz
    FROM (SELECT g, ${LINE(sql`g`)} AS line FROM generate_series(1, ${o.lines}::int) g) s
    WHERE c.service_line_number = s.line AND c.cycle_start = ${CYCLE.start}::date AND ${IN_SLICE(sql`s.g`, o.changed, k)}
    RETURNING 1`);
  return rowsOf(result).length;
}

/** What the data asks for and what the alerts table holds, read apart from the evaluation. */
export async function checks(db: Db) {
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

/**
 * What the alerts publish to: the webhook service itself ('real': events and deliveries written;
 * no waker is attached, so nothing is sent), or a publisher that only counts the events, leaving
 * out their writes (one statement a transaction).
 */
export function alertPublisher(mode: 'real' | 'counting', deps: { repos: Repositories; audit: AuditService; now: () => Date; email: EmailSender }): AlertEventPublisher {
  if (mode === 'counting') return { publish: (events) => Promise.resolve({ events: events.length, deliveries: 0 }), wake: () => undefined };
  return createWebhookService({ ...deps, config: { webhookAllowHttpLocalhost: false, webhookAllowedNetworks: [], mfaEncryptionKey: randomBytes(32) } });
}

/** Time spent in each repository method the evaluation calls (the transaction itself aside), per case. */
export function timeRepositoryCalls(repos: Repositories, names: readonly (keyof Repositories)[] = ['alerts', 'emailOutbox', 'webhooks']) {
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
  for (const name of names) wrap(name, repos[name] as unknown as Record<string, unknown>);
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

