// A full terminal inventory sync at scale: the provider simulator runs in its own process (as the
// real provider is remote) with 10,000 and 100,000 terminals and no rate limit, the client's limit
// is lifted, and the sync engine runs as the worker runs it (claim, fetch everything, apply in
// batched transactions, finish) into a fresh PGlite and, when TEST_DATABASE_URL (or
// BENCH_DATABASE_URL) is set, a fresh database on that PostgreSQL server. Each size runs twice:
// the first sync on an empty inventory (everything added), then an identical one (everything
// unchanged). Prints JSON: wall time split into fetch and apply, terminals a second, provider
// calls, and the peak RSS of this process (the simulator's is apart).
//
//   npm run bench:sync                                    (BENCH_SIZES=10000,100000)
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:sync
//   (BENCH_ONLY=pglite or BENCH_ONLY=postgres to run one of the two; BENCH_USAGE=1 and
//   BENCH_CUSTOMER_DAILY=compare: see below)
//
// The schema is the migrated one: the storage settings BENCH_SCHEMA=tuned used to try out are
// migration 0004's now, so BENCH_SCHEMA is ignored.
//
// Targets: 100,000 terminals in under 30 s on PostgreSQL and under 60 s on PGlite.
// Not a test: figures depend on the machine. Compare runs on one machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../server/db/client';
import { migrate } from '../server/db/migrate';
import { createRepositories } from '../server/db/repositories';
import type { SyncRunReport } from '../server/db/repositories/sync-runs';
import { createStarlinkClient } from '../server/provider';
import { singleAccount } from '../server/provider-access';
import { createAuditService } from '../server/services/audit';
import { createLineRowsRefresher } from '../server/services/line-rows';
import { createTerminalSyncService, type SyncRunTracker } from '../server/services/terminal-sync';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map((s) => Number(s.trim())).filter((n) => n > 0);
const PG_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || null;
const ONLY = process.env.BENCH_ONLY ?? null;
/** BENCH_USAGE=1: also time the usage run that follows each inventory run (a year of days a line the first time). */
const WITH_USAGE = process.env.BENCH_USAGE === '1';
/**
 * BENCH_CUSTOMER_DAILY=compare (with BENCH_USAGE=1): two thirds of the lines held by 100 customers
 * before the usage runs, and each database run twice, side by side: with the triggers that keep
 * each customer's daily usage (migration 0012) and with them disabled, to show what they cost.
 */
const COMPARE_CUSTOMER_DAILY = process.env.BENCH_CUSTOMER_DAILY === 'compare';
const CUSTOMER_DAILY_TRIGGERS = [
  'service_line_usage_daily customer_usage_daily_days_insert',
  'service_line_usage_daily customer_usage_daily_days_update',
  'service_line_usage_daily customer_usage_daily_days_delete',
  'terminals customer_usage_daily_holders_insert',
  'terminals customer_usage_daily_holders_update',
  'terminals customer_usage_daily_holders_delete',
];
const TARGET_MS = { pglite: 60_000, postgres: 30_000 } as const;
const TARGET_SIZE = 100_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Simulator {
  baseUrl: string;
  stop(): Promise<void>;
}

/** The simulator CLI in a child process; resolves once it prints its base URL. */
function startSimulatorProcess(terminals: number): Promise<Simulator> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/simulator/cli.ts', '--port', '0'], {
      cwd: root,
      env: { ...process.env, SIM_TERMINALS: String(terminals), SIM_RATE_LIMIT: 'off', SIM_SEED: 'bench-sync' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /base URL\s+(\S+)/.exec(out);
      if (match) {
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        resolve({
          baseUrl: match[1]!,
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`simulator exited (${code}) before it listened: ${out}`)));
  });
}

interface Target {
  kind: 'pglite' | 'postgres';
  open(): Promise<{ database: Database; drop(): Promise<void> }>;
}

const pgliteTarget: Target = {
  kind: 'pglite',
  async open() {
    // On disk, like the embedded server's ./data.
    const dir = await mkdtemp(path.join(tmpdir(), 'bench-sync-'));
    const database = await openDatabase({ dataDir: dir });
    await migrate(database);
    return {
      database,
      async drop() {
        await database.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
};

function postgresTarget(url: string): Target {
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  return {
    kind: 'postgres',
    async open() {
      const name = `bench_sync_${randomBytes(5).toString('hex')}`;
      await admin(`CREATE DATABASE ${name}`);
      const target = new URL(url);
      target.pathname = `/${name}`;
      const database = await openDatabase({ url: target.toString() });
      await migrate(database);
        return {
        database,
        async drop() {
          await database.close();
          await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        },
      };
    },
  };
}

const peakRssMB = () => Math.round(process.resourceUsage().maxRSS / 1024);

/** One run as the worker runs it: claim, engine, finish; the phase changes timed. */
async function runOnce(database: Database, sim: Simulator) {
  const repos = createRepositories(database.db);
  const now = () => new Date();
  const client = createStarlinkClient({
    apiUrl: sim.baseUrl,
    tokenUrl: `${sim.baseUrl}/auth/connect/token`,
    clientId: 'simulator-demo-client',
    clientSecret: 'simulator-demo-secret',
    requestsPerMinute: 1_000_000_000,
    timeoutMs: 60_000,
  });
  const sync = createTerminalSyncService({
    db: database.db,
    repos,
    audit: createAuditService({ audit: repos.audit, now }),
    now,
    provider: singleAccount({ kind: 'simulator', client: () => client }),
    lineRows: createLineRowsRefresher({ repos }),
    noProvider: 'no provider',
  });
  const inserted = await repos.syncRuns.insertQueued({ kind: 'inventory', accountId: 1, trigger: 'manual', requestedBy: null, at: now() });
  if (!inserted.ok) throw new Error('a run is already active');
  const workerId = 'bench';
  const run = (await repos.syncRuns.claim(inserted.row.id, workerId, now()))!;

  const started = performance.now();
  let applyStartedAt: number | null = null;
  let pending: SyncRunReport = {};
  // Time spent per phase kind ("Writing terminals (2,000 of 10,000 written)" counts as "Writing terminals").
  const phases: Record<string, number> = {};
  let phase: { name: string; since: number } | null = null;
  const enter = (name: string | null) => {
    const t = performance.now();
    if (phase) phases[phase.name] = Math.round((phases[phase.name] ?? 0) + t - phase.since);
    phase = name === null ? null : { name, since: t };
  };
  const tracker: SyncRunTracker = {
    run,
    signal: new AbortController().signal,
    report(update) {
      if (applyStartedAt === null && update.phase && !update.phase.startsWith('Reading')) applyStartedAt = performance.now();
      if (update.phase) {
        const name = update.phase.replace(/\s*\(.*$/, '');
        if (name !== phase?.name) enter(name);
      }
      pending = { ...pending, ...update };
    },
    async checkpoint(tx) {
      if (!(await repos.syncRuns.holdClaim(run.id, workerId, tx))) throw new Error('lost the run');
      const report = pending;
      pending = {};
      await repos.syncRuns.beat(run.id, workerId, now(), report, tx);
    },
  };
  const heartbeat = setInterval(() => {
    const report = pending;
    pending = {};
    void repos.syncRuns.beat(run.id, workerId, now(), report);
  }, 5_000);
  try {
    const outcome = await sync.syncInventory(tracker);
    const finished = performance.now();
    enter(null);
    await repos.syncRuns.finish(run.id, workerId, { status: 'succeeded', at: now(), message: outcome.message, counts: outcome.counts, providerCalls: outcome.providerCalls });
    const wallMs = finished - started;
    const total = outcome.counts.added + outcome.counts.updated + outcome.counts.unchanged + outcome.counts.failed;
    return {
      wallMs: Math.round(wallMs),
      fetchMs: Math.round((applyStartedAt ?? finished) - started),
      applyMs: Math.round(finished - (applyStartedAt ?? finished)),
      terminalsPerSecond: Math.round(total / (wallMs / 1000)),
      providerCalls: outcome.providerCalls,
      retries: client.usage().retries,
      counts: outcome.counts,
      message: outcome.message,
      phasesMs: phases,
      usage: WITH_USAGE ? await (COMPARE_CUSTOMER_DAILY ? holdLines(database) : Promise.resolve()).then(() => runUsage(repos, sync, client)) : undefined,
    };
  } finally {
    clearInterval(heartbeat);
  }
}

/** Two thirds of the live terminals held by 100 customers, as a reseller's fleet is (once: later calls find them held). */
async function holdLines(database: Database): Promise<void> {
  await database.db.execute(sql`
    INSERT INTO customers (email, name, company)
    SELECT 'bench-holder-' || n || '@bench.example', 'Holder ' || n, 'Bench' FROM generate_series(1, 100) n
    ON CONFLICT DO NOTHING`);
  await database.db.execute(sql`
    WITH holders AS (SELECT id, row_number() OVER (ORDER BY email) - 1 AS k FROM customers WHERE email LIKE 'bench-holder-%'),
    lines AS (SELECT service_line_number, row_number() OVER (ORDER BY service_line_number) - 1 AS k FROM (
      SELECT DISTINCT service_line_number FROM terminals WHERE removed_at IS NULL AND service_line_number IS NOT NULL) l)
    UPDATE terminals t SET assigned_customer_id = h.id, assigned_at = now()
    FROM lines l JOIN holders h ON h.k = l.k % 100
    WHERE t.service_line_number = l.service_line_number AND t.removed_at IS NULL AND t.assigned_customer_id IS NULL AND l.k % 3 <> 2`);
}

async function disableCustomerDailyTriggers(database: Database): Promise<void> {
  for (const entry of CUSTOMER_DAILY_TRIGGERS) {
    const [table, trigger] = entry.split(' ');
    await database.exec(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`);
  }
}

/** The usage run the worker queues after an inventory run, timed the same way. */
async function runUsage(repos: ReturnType<typeof createRepositories>, sync: ReturnType<typeof createTerminalSyncService>, client: ReturnType<typeof createStarlinkClient>) {
  const now = () => new Date();
  const inserted = await repos.syncRuns.insertQueued({ kind: 'usage', accountId: 1, trigger: 'manual', requestedBy: null, at: now() });
  if (!inserted.ok) throw new Error('a usage run is already active');
  const run = (await repos.syncRuns.claim(inserted.row.id, 'bench', now()))!;
  const before = client.usage().requests;
  const started = performance.now();
  const outcome = await sync.syncUsage({
    run,
    signal: new AbortController().signal,
    report: () => undefined,
    checkpoint: async (tx) => {
      await repos.syncRuns.beat(run.id, 'bench', now(), {}, tx);
    },
  });
  const wallMs = Math.round(performance.now() - started);
  await repos.syncRuns.finish(run.id, 'bench', { status: 'succeeded', at: now(), message: outcome.message, counts: outcome.counts, providerCalls: outcome.providerCalls });
  return { wallMs, linesRead: outcome.counts.added + outcome.counts.updated, providerCalls: client.usage().requests - before };
}

async function main(): Promise<void> {
  const targets: Target[] = [];
  if (ONLY !== 'postgres') targets.push(pgliteTarget);
  if (PG_URL && ONLY !== 'pglite') targets.push(postgresTarget(PG_URL));

  const results: (Awaited<ReturnType<typeof runOnce>> & { database: Target['kind']; terminals: number; pass: string; customerDaily?: 'kept' | 'off'; peakRssMB: number; simulatorStartMs: number })[] = [];
  for (const size of SIZES) {
    const simStarted = performance.now();
    const sim = await startSimulatorProcess(size);
    const simStartMs = Math.round(performance.now() - simStarted);
    try {
      for (const target of targets) for (const customerDaily of COMPARE_CUSTOMER_DAILY ? (['kept', 'off'] as const) : ([null] as const)) {
        const { database, drop } = await target.open();
        try {
          if (customerDaily === 'off') await disableCustomerDailyTriggers(database);
          for (const pass of ['first sync (empty inventory)', 'identical second sync'] as const) {
            const result = await runOnce(database, sim);
            results.push({ database: target.kind, terminals: size, pass, ...(customerDaily ? { customerDaily } : {}), ...result, peakRssMB: peakRssMB(), simulatorStartMs: simStartMs });
            console.error(`${target.kind} ${size} ${pass}${customerDaily ? ` (customer daily ${customerDaily})` : ''}: ${result.wallMs} ms (fetch ${result.fetchMs}, apply ${result.applyMs})${result.usage ? `, usage ${result.usage.wallMs} ms` : ''}`);
          }
        } finally {
          await drop();
        }
      }
    } finally {
      await sim.stop();
    }
  }

  const verdicts = targets.map((t) => {
    const slowest = results.filter((r) => r.database === t.kind && r.terminals === TARGET_SIZE).reduce((m, r) => Math.max(m, r.wallMs), 0);
    return { database: t.kind, targetMs: TARGET_MS[t.kind], slowest100kMs: slowest || null, met: slowest > 0 ? slowest < TARGET_MS[t.kind] : null };
  });
  console.log(
    JSON.stringify(
      {
        benchmark: 'terminals-sync',
        node: process.version,
        simulator: 'separate process, rate limit off, no faults',
        clientRequestsPerMinute: 'unlimited',
        results,
        targets: verdicts,
      },
      null,
      2,
    ),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
