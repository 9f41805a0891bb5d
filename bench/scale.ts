// Fleet scale: how fast every admin page's API answers with a production-sized inventory, measured
// from outside the real server process. For each database (PostgreSQL at 100,000 terminals, PGlite
// at 10,000) it makes a fresh database, starts the provider simulator in its own process (that many
// terminals, no rate limit, no faults) and the real portal server (server/server.ts) as a child
// process pointed at it (STARLINK_API_URL, schedules off, no demo data, a first administrator from
// ADMIN_EMAIL / ADMIN_PASSWORD), and fills it through the API as production is filled: the
// inventory sync and the usage run it queues (followed through the sync job endpoints), then
// customers, portal users and two thirds of the service lines assigned to customers. The server's
// provider client limit is lifted for the run (bench/scale/lift-provider-limit.ts; the figures say
// how long the same provider calls take at the client's default limit). On PostgreSQL the filled
// database is then vacuumed and analysed, as autovacuum would leave it after a while.
//
// Then, for every list and summary call the admin pages make (bench/scale/pages.ts, with the SPA's
// own query parameters), over HTTP keep-alive from this process:
//   - latency: p50 / p95 / max of --samples sequential requests after 3 warm-up ones, first with
//     the server idle (once it and its database backends have used under 50 ms of CPU a second
//     for 3 s: a server just started recounts and refreshes what the fill left marked), then
//     while a sync is writing (an inventory run started through the API and
//     the usage run it queues; each page's entry says which run was writing and whether it was
//     still running at the end of the page's requests), then the pages that read the stored page
//     rows (Subscriptions, a customer's usage table) again while a usage run writes (duringSync.usageRun:
//     it rewrites every line's cycle, marking a sync's worth of their rows), and with one account
//     the Subscriptions page's calls while the fill's first inventory run writes (firstInventory,
//     on the filling server); all of these are judged by the target while a sync writes;
//   - throughput: --connections keep-alive connections for --duration seconds per page:
//     requests/s and CPU milliseconds per request of the server process (/proc utime + stime; on
//     PGlite the database's work is in it) and, apart, of the PostgreSQL backends serving its
//     database (when PostgreSQL runs on this machine).
// With --baseline <rev>, the same against the server of that commit, side by side: a git worktree
// of it (this checkout's node_modules symlinked in), which fills the database (the realistic
// upgrade path: the current server then migrates its copy forward, as an upgrade would), a copy
// of the filled database for the current server (PostgreSQL: CREATE DATABASE … TEMPLATE; PGlite:
// the data directory copied while no server has it open), the two servers alternating page by page
// (idle and throughput) and one after the other while a sync writes; `comparison` entries per page.
// Targets (issue "Fleet scale: every admin page fast at 100,000 terminals") are printed with
// met: true/false (bench/scale/targets.ts).
//
// With --accounts N (PostgreSQL only; PGlite keeps one account): N provider accounts of
// --pg-terminals / N terminals each, every one with a simulator of its own (seed bench-scale-<k>).
// Account 1 is the one the server makes from STARLINK_* as before; accounts 2..N are added through
// the API, and the fill goes on once every account's inventory run and the usage run it queued
// have ended (customers then hold lines of every account). The pages add the Terminals list of one
// account and the Provider accounts page, and a sync while pages are timed is every account's at
// once (POST /terminals/sync starts them all). Every provider call start of the run is read from
// provider_call_starts as it happens, and each account's busiest 60 s is checked against its own
// budget (bench/scale/accounts.ts): the lifted client default does not reach the accounts' clients,
// which take their slots from their database budgets at their rows' requests_per_minute; the JSON
// says which limit applied. With --baseline the current server fills and the baseline runs on a copy.
//
//   npm run bench:scale                                   (PostgreSQL 100,000 and PGlite 10,000)
//   npm run bench:scale -- --baseline 393ac32             (the same, side by side with that commit)
//   npm run bench:scale -- --pg-terminals 2000 --pglite-terminals 1000 --samples 5 --duration 2
//   npm run bench:scale -- --only pglite|postgres --connections 10 --customers 500
//   npm run bench:scale -- --only postgres --workers 2   (throughput of 1 and of 2 server processes)
//   npm run bench:scale -- --only pglite --pglite-terminals 156 --baseline 393ac32 --no-sync-pass
//                                                         (the demo fleet, where the issue's throughput
//                                                          figures were taken; its syncs are too short
//                                                          to time pages under)
//   npm run bench:scale -- --only postgres --accounts 10 --pg-terminals 100000
//                                                         (10 provider accounts × 10,000 terminals)
//   npm run bench:scale -- --only postgres --accounts 10 --keep   (the filled database is kept, its URL printed)
//   npm run bench:scale -- --only postgres --first-inventory-only --baseline HEAD
//                                                         (only the first inventory run of 100,000 terminals,
//                                                          the Subscriptions page timed while it writes, for
//                                                          each server on a fresh database: minutes, not an hour)
//   BENCH_DATABASE_URL=postgres://… npm run bench:scale     (else TEST_DATABASE_URL, else
//                                                           postgres://postgres@127.0.0.1:5432/test;
//                                                           skipped with a note when unreachable)
//
// Prints one JSON object per database, one a line, then a summary object; progress goes to stderr.
// Everything it makes (processes, databases, data directories, the worktree) is removed at the
// end, on failure and on SIGINT/SIGTERM. Exits 1 on any error (a non-200 answer while timing, a
// failed sync, a server that would not start), 2 on a bad argument. Server logs are kept in the
// run's temporary directory until the end and their last lines are printed on a failure.
//
// Not a test: figures depend on the machine (the client, the server, the simulator and PostgreSQL
// share its cores). Compare runs on one machine, and baseline and current within one run.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { addAccounts, budgetReport, collectCallStarts, liftReach, LIFTED_LIMIT, syncEveryAccount, type BudgetReport, type CallStartsCollector } from './scale/accounts';
import type { SyncJob } from '../src/domain/terminals';
import { signIn, syncJob, type Portal } from './scale/api';
import { parseOptions, UsageError, USAGE, type DatabaseKind, type ScaleOptions } from './scale/args';
import { cleanUp, cleanUpOnSignals, defer } from './scale/cleanup';
import { createPglite, createPostgres, postgresServerUrl, type BenchDatabase } from './scale/databases';
import { fill, runInventory, type FillReport, type PageContext, type SyncFigures } from './scale/fill';
import { latencyOf, pageLatency, pageSamples, pageThroughput, waitUntilQuiet, type Latency, type RequestError, type Throughput } from './scale/measure';
import { adminPages, firstSyncPages, judgedPages, STORED_ROWS_PAGES, type Page } from './scale/pages';
import { startServer, startSimulator, type ServerProcess, type Simulator } from './scale/processes';
import { createSyncDriver, isWriting, type SyncWindow } from './scale/sync-load';
import { budgetTarget, compare, judge, latencyTarget, type Comparison, type Target } from './scale/targets';
import { addWorktree, describeCheckout, resolveCommit } from './scale/worktree';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SIM_SEED = 'bench-scale';
/** A sync at 100,000 terminals on a busy machine: generous, but a hung run must still end the bench. */
const SYNC_TIMEOUT_MS = 120 * 60_000;
const START_ATTEMPTS = 3;
const log = (message: string) => console.error(`scale: ${message}`);

type Role = 'baseline' | 'current';

interface Code {
  role: Role;
  /** Where its server/server.ts is: this checkout, or the baseline's worktree. */
  dir: string;
  commit: string;
  /** Files differ from the commit (the current checkout only). */
  dirty: boolean;
}

interface ServerReport {
  role: Role;
  commit: string;
  dirty: boolean;
  database: string;
  startSeconds: number;
  /** Whether its provider client's limit was lifted for the run (see bench/scale/lift-provider-limit.ts). */
  providerLimitLifted: boolean | null;
  schemaVersion: number | null;
  migrationsApplied: string[];
  /** How long the server took to become quiet before the idle pass (quiet: false when it never did). */
  quietBeforeIdle: { seconds: number; quiet: boolean } | null;
  idle: Record<string, Latency>;
  duringSync: {
    pages: Record<string, Latency & { sync: SyncWindow }>;
    /**
     * The pages that read the stored page rows (STORED_ROWS_PAGES) again, each while a usage run
     * writes: it rewrites every line's cycle, so their reads meet a sync's worth of marked lines.
     */
    usageRun: Record<string, Latency & { sync: SyncWindow }>;
    runsStarted: string[];
    /** Every page's run was still running when its requests ended. */
    stayedRunningThroughout: boolean;
    /** Pages during whose requests the run they started with ended (a new one was started for the next page). */
    endedEarlyOn: string[];
  };
  throughput: Record<string, Throughput>;
  /** With --workers N on PostgreSQL: the same throughput pass with WORKERS=N (current server only). */
  workers?: { n: number; startSeconds: number; throughput: Record<string, Throughput> };
  /** Optional pages this server has no route for. */
  absentPages: string[];
  peakRssMB: number | null;
}

interface DatabaseReport {
  benchmark: 'scale';
  database: DatabaseKind;
  terminals: number;
  where: string;
  node: string;
  machine: { cpus: number; memoryGB: number };
  settings: { samples: number; warmUp: number; connections: number; durationS: number; logLevel: string };
  simulator: { seed: string; terminals: number; rateLimit: 'off'; faults: 'none' };
  fill: FillReport & { vacuumAnalyzeSeconds: number | null; databaseMB: number };
  /**
   * One account: the Subscriptions page's calls and the Terminals list timed while the fill's first
   * inventory run wrote (every terminal new, each batch marking its lines), on the filling server,
   * round after round through its writing (WRITING_ROUNDS rounds of --samples requests at most).
   */
  firstInventory: { server: Role; pages: Record<string, Latency & { sync: SyncWindow; rounds: number }> } | null;
  context: PageContext;
  servers: ServerReport[];
  comparison: Comparison[] | null;
  /** With --baseline: the stored rows' pages while a usage run writes, p95 side by side (ratio = current / baseline). */
  usageRunComparison: { page: string; p95: { baseline: number | null; current: number; ratio: number | null } }[] | null;
  targets: Target[];
  errors: RequestError[];
  /**
   * With --accounts N (PostgreSQL): the accounts, each with a simulator of its own (`simulator`
   * above is account 1's), and the budget check over the whole run (fill, idle, throughput and
   * every account syncing at once).
   */
  accounts?: { count: number; terminalsPerAccount: number; seeds: string[]; budgets: BudgetReport };
}

const credentials = { email: 'scale-admin@example.com', password: randomBytes(18).toString('base64url') };
// One secret pair for every server of the run: the copies hold the same users.
const secrets = { JWT_SECRET: randomBytes(48).toString('base64url'), MFA_ENCRYPTION_KEY: randomBytes(32).toString('hex') };
const LOG_LEVEL = 'warn';

function serverEnv(database: BenchDatabase, simulator: Simulator, runDir: string): Record<string, string> {
  return {
    ...database.env,
    ...secrets,
    ADMIN_EMAIL: credentials.email,
    ADMIN_PASSWORD: credentials.password,
    SEED_DEMO: '0',
    // The run starts every sync itself; no schedule may start one in the middle of a measurement.
    SYNC_INTERVAL: 'off',
    USAGE_SYNC_INTERVAL: 'off',
    STARLINK_API_URL: simulator.baseUrl,
    STARLINK_TOKEN_URL: `${simulator.baseUrl}/auth/connect/token`,
    STARLINK_CLIENT_ID: simulator.clientId,
    STARLINK_CLIENT_SECRET: simulator.clientSecret,
    LOGIN_RATE_LIMIT: '100000',
    NOT_FOUND_RATE_LIMIT: '100000',
    // Per-request log lines would time pino and the pipe to this process, not the portal.
    LOG_LEVEL,
    // The API only: no SPA build, nothing served from dist/.
    CLIENT_DIR: path.join(runDir, 'no-client'),
  };
}

async function launch(code: Code, database: BenchDatabase, simulator: Simulator, runDir: string, label: string, extraEnv: Record<string, string> = {}): Promise<ServerProcess> {
  log(`starting the ${code.role} server (${code.commit.slice(0, 10)}${code.dirty ? ' + local changes' : ''}) on ${database.where}`);
  const server = await startServer({
    label: `${code.role} server (${label})`,
    cwd: code.dir,
    env: { ...serverEnv(database, simulator, runDir), ...extraEnv },
    logFile: path.join(runDir, `${database.kind}-${code.role}-${label}.log`),
    liftProviderLimit: true,
  });
  log(`  ${code.role} server ready in ${server.startSeconds} s on port ${server.port}`);
  return server;
}

/** A server and its signed-in administrator; `stop` ends both. */
interface Running {
  code: Code;
  database: BenchDatabase;
  simulator: Simulator;
  server: ServerProcess;
  portal: Portal;
  stop(): Promise<void>;
}

async function run(code: Code, database: BenchDatabase, simulator: Simulator, runDir: string, label: string, extraEnv: Record<string, string> = {}): Promise<Running> {
  const server = await launch(code, database, simulator, runDir, label, extraEnv);
  try {
    const portal = await signIn(server, credentials);
    return {
      code,
      database,
      simulator,
      server,
      portal,
      async stop() {
        portal.close();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/**
 * `run`, tried again twice, two minutes apart, when the server will not start: the current tree may
 * be mid-edit (a half-written file, a migration being changed) while a long run reaches it.
 */
async function runPatiently(code: Code, database: BenchDatabase, simulator: Simulator, runDir: string, label: string): Promise<Running> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(code, database, simulator, runDir, attempt === 1 ? label : `${label}-attempt-${attempt}`);
    } catch (error) {
      if (attempt >= START_ATTEMPTS) throw error;
      log(`the ${code.role} server did not start (attempt ${attempt} of ${START_ATTEMPTS}), trying again in 2 min: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 120_000));
    }
  }
}

async function vacuumAnalyze(database: BenchDatabase): Promise<number> {
  const client = new pg.Client({ connectionString: database.env.DATABASE_URL });
  await client.connect();
  try {
    const started = performance.now();
    await client.query('VACUUM (ANALYZE)');
    return Math.round((performance.now() - started) / 100) / 10;
  } finally {
    await client.end();
  }
}

function serverReport(running: Running, database: string): ServerReport {
  const ready = running.server.startupLines.find((l) => l.includes('Portal ready at')) ?? '';
  const version = /schema v(\d+)/.exec(ready)?.[1];
  return {
    role: running.code.role,
    commit: running.code.commit,
    dirty: running.code.dirty,
    database,
    startSeconds: running.server.startSeconds,
    providerLimitLifted: running.server.providerLimitLifted,
    schemaVersion: version === undefined ? null : Number(version),
    migrationsApplied: running.server.startupLines.filter((l) => l.startsWith('Applied migration')).map((l) => l.replace('Applied migration ', '')),
    quietBeforeIdle: null,
    idle: {},
    duringSync: { pages: {}, usageRun: {}, runsStarted: [], stayedRunningThroughout: true, endedEarlyOn: [] },
    throughput: {},
    absentPages: [],
    peakRssMB: null,
  };
}

async function measureDuringSync(running: Running, report: ServerReport, pages: Page[], options: ScaleOptions, errors: RequestError[]): Promise<void> {
  const driver = createSyncDriver(running.portal, { timeoutMs: SYNC_TIMEOUT_MS, log: (m) => log(`  ${running.code.role}: ${m}`) });
  for (const page of pages) {
    const writing = await driver.ensureWriting();
    const latency = await pageLatency(running.portal, page, { samples: options.samples, warmUp: options.warmUp, phase: `${running.code.role} during sync`, errors });
    const sync = await driver.windowOf(writing);
    report.duringSync.pages[page.name] = { ...latency, sync };
    log(`  ${page.name}: p95 ${latency.p95} ms during ${sync.run.kind} run ${sync.run.id.slice(0, 8)}${sync.stayedRunning ? '' : ` (ended: ${sync.after.status})`}`);
    // A run that fails under the measurement is a server error like a 5xx.
    if (sync.after.status === 'failed') {
      errors.push({ page: page.name, phase: `${running.code.role} during sync`, status: null, message: `${sync.run.kind} run ${sync.run.id} failed: ${sync.after.phase ?? ''}` });
    }
    if (!sync.stayedRunning) {
      report.duringSync.stayedRunningThroughout = false;
      report.duringSync.endedEarlyOn.push(page.name);
    }
  }
  // The inventory run above, on a filled database, changes few terminals and marks few lines; the
  // usage run it queues marks every line it writes.
  for (const page of pages.filter((p) => STORED_ROWS_PAGES.includes(p.name))) {
    const writing = await driver.ensureWriting('usage');
    const latency = await pageLatency(running.portal, page, { samples: options.samples, warmUp: options.warmUp, phase: `${running.code.role} during a usage run`, errors });
    const sync = await driver.windowOf(writing);
    report.duringSync.usageRun[page.name] = { ...latency, sync };
    log(`  ${page.name}: p95 ${latency.p95} ms during usage run ${sync.run.id.slice(0, 8)}${sync.stayedRunning ? '' : ` (ended: ${sync.after.status})`}`);
    if (sync.after.status === 'failed') {
      errors.push({ page: page.name, phase: `${running.code.role} during a usage run`, status: null, message: `usage run ${sync.run.id} failed: ${sync.after.phase ?? ''}` });
    }
  }
  report.duringSync.runsStarted = [...driver.started];
}

/**
 * While one run writes: a rest between rounds of --samples requests per page, so that the rounds
 * spread over its writing without loading it, and at most this many rounds.
 */
const WRITING_ROUND_REST_MS = 2_000;
const WRITING_ROUNDS = 60;

/**
 * Times `pages` on `portal` round after round (--samples requests each) for as long as the run
 * `writing` writes, so that the figures cover the whole of its writing (a first inventory run's
 * early batches find few rows, its late ones many): each page's figures are over all its rounds,
 * and its entry says how the run stood after its last round.
 */
async function timeWhileWriting(portal: Portal, writing: SyncJob, pages: Page[], options: ScaleOptions, phase: string, errors: RequestError[]) {
  const driver = createSyncDriver(portal, { timeoutMs: SYNC_TIMEOUT_MS, log });
  const samples = new Map<string, number[]>(pages.map((page) => [page.name, []]));
  const windows = new Map<string, SyncWindow>();
  let rounds = 0;
  do {
    rounds++;
    for (const page of pages) {
      samples.get(page.name)!.push(...(await pageSamples(portal, page, { samples: options.samples, warmUp: rounds === 1 ? options.warmUp : 0, phase, errors })));
      windows.set(page.name, await driver.windowOf(writing));
    }
    await new Promise((resolve) => setTimeout(resolve, WRITING_ROUND_REST_MS));
  } while (rounds < WRITING_ROUNDS && isWriting(await syncJob(portal, writing.id)));
  const timed: Record<string, Latency & { sync: SyncWindow; rounds: number }> = {};
  for (const page of pages) {
    timed[page.name] = { ...latencyOf(samples.get(page.name)!), sync: windows.get(page.name)!, rounds };
    log(`  ${page.name}: p95 ${timed[page.name]!.p95} ms during ${phase} (${rounds} rounds, then ${windows.get(page.name)!.after.phase ?? windows.get(page.name)!.after.status})`);
  }
  return timed;
}

/** Entries of `pages` under their name and a note of when they were timed, to sit beside the others. */
const noted = <T>(pages: Record<string, T>, note: string): Record<string, T> => Object.fromEntries(Object.entries(pages).map(([name, f]) => [`${name} (${note})`, f]));

/**
 * The current server's throughput pass again with WORKERS=N, on the same database while the
 * single process is stopped (then started again for what follows), so the two compare directly.
 */
async function measureWorkers(single: Running, report: ServerReport, pages: Page[], options: ScaleOptions, runDir: string, errors: RequestError[]): Promise<void> {
  const n = options.workers!;
  log(`postgres: throughput with WORKERS=${n}`);
  await single.stop();
  const multi = await run(single.code, single.database, single.simulator, runDir, `workers-${n}`, { WORKERS: String(n) });
  try {
    // The first worker's ready line started the run; the others print theirs a moment later.
    const deadline = Date.now() + 60_000;
    while ((multi.server.tail().match(/Portal ready at/g) ?? []).length < n && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    const throughput: Record<string, Throughput> = {};
    for (const page of pages) {
      throughput[page.name] = await pageThroughput(multi.portal, page, {
        connections: options.connections,
        durationMs: options.durationMs,
        cpuMs: multi.server.cpuMs,
        databaseCpuMs: () => multi.database.backendCpuMs(),
        phase: `current WORKERS=${n} throughput`,
        errors,
      });
      log(`  ${page.name}: 1 process ${report.throughput[page.name]?.rps ?? '?'} req/s, ${n} processes ${throughput[page.name]!.rps} req/s`);
    }
    report.workers = { n, startSeconds: multi.server.startSeconds, throughput };
  } finally {
    await multi.stop();
  }
  Object.assign(single, await run(single.code, single.database, single.simulator, runDir, 'measure-again'));
}

/** Fails unless the baseline's server/db/migrations holds the same files as the current one's. */
async function sameMigrations(current: Code, baseline: Code): Promise<void> {
  const list = async (code: Code) => (await readdir(path.join(code.dir, 'server/db/migrations'))).sort().join(', ');
  const [ours, theirs] = await Promise.all([list(current), list(baseline)]);
  if (ours !== theirs) throw new Error(`--baseline with --accounts runs the baseline on a copy of the current server's database, so both must have the same migrations:\n  current: ${ours}\n  baseline: ${theirs}`);
}

async function runDatabase(kind: DatabaseKind, options: ScaleOptions, codes: { current: Code; baseline: Code | null }, runDir: string): Promise<DatabaseReport | { database: DatabaseKind; skipped: string }> {
  // Several accounts on PostgreSQL only: each holds an equal share of the fleet.
  const accountCount = kind === 'postgres' ? options.accounts : 1;
  const terminalsPerAccount = Math.floor(options.terminals[kind] / accountCount);
  const terminals = terminalsPerAccount * accountCount;
  const dbDir = path.join(runDir, kind);
  await mkdir(dbDir, { recursive: true });
  log(`${kind}: ${terminals} terminals${accountCount > 1 ? ` in ${accountCount} provider accounts of ${terminalsPerAccount}` : ''}`);

  let filled: BenchDatabase;
  try {
    filled = kind === 'postgres' ? await createPostgres(postgresServerUrl(), { keep: options.keep }) : await createPglite(dbDir);
  } catch (error) {
    return { database: kind, skipped: `not reachable: ${error instanceof Error ? error.message : String(error)}` };
  }

  let simulator: Simulator;
  // Accounts 2..N: one simulator each (account 1's is `simulator`, as with one account).
  const moreSimulators: Simulator[] = [];
  const seeds = accountCount > 1 ? Array.from({ length: accountCount }, (_, k) => `${SIM_SEED}-${k + 1}`) : [SIM_SEED];
  try {
    simulator = await startSimulator({ root, terminals: terminalsPerAccount, seed: seeds[0]!, logFile: path.join(runDir, `${kind}-simulator.log`) });
    for (let k = 1; k < accountCount; k++) {
      moreSimulators.push(await startSimulator({ root, terminals: terminalsPerAccount, seed: seeds[k]!, logFile: path.join(runDir, `${kind}-simulator-${k + 1}.log`) }));
    }
  } catch (error) {
    for (const s of moreSimulators) await s.stop();
    await filled.drop();
    throw error;
  }
  // Every provider call start of the run, read as it happens (the server prunes them after an hour).
  const collector: CallStartsCollector | null = accountCount > 1 ? collectCallStarts(filled.env.DATABASE_URL!, log) : null;
  let budgets: BudgetReport | null = null;
  const running: Running[] = [];
  const copies: BenchDatabase[] = [];
  try {
    // Fill with the baseline's server when there is one: the current server then migrates a copy
    // forward, as an upgrade does. With several accounts the current server fills instead: the
    // budgets judge the provider calls of the fill's syncs, and those must be the current code's.
    // The baseline then runs on a copy, so it must know every migration the current one applied.
    const fillerCode = accountCount > 1 || !codes.baseline ? codes.current : codes.baseline;
    if (codes.baseline && fillerCode === codes.current) await sameMigrations(codes.current, codes.baseline);
    log(`${kind}: filling with the ${fillerCode.role} server`);
    const filler = await runPatiently(fillerCode, filled, simulator, dbDir, 'fill');
    let fillResult: Awaited<ReturnType<typeof fill>>;
    // Set by the fill's callback (`as`: TypeScript would narrow a plain null across the closure).
    let firstInventory = null as DatabaseReport['firstInventory'];
    const fillErrors: RequestError[] = [];
    try {
      fillResult = await fill({
        portal: filler.portal,
        filledBy: fillerCode.role,
        providerClientLimitLifted: filler.server.providerLimitLifted,
        simulator,
        customers: options.customers ?? Math.max(10, Math.round(terminals / 100)),
        syncTimeoutMs: SYNC_TIMEOUT_MS,
        ...(options.syncPass && accountCount === 1
          ? {
              whileInventoryWrites: async (writing: SyncJob) => {
                log(`${kind}: latency while the first inventory run writes (${fillerCode.role})`);
                firstInventory = {
                  server: fillerCode.role,
                  pages: await timeWhileWriting(filler.portal, writing, firstSyncPages(), options, `${fillerCode.role} first inventory run`, fillErrors),
                };
              },
            }
          : {}),
        ...(accountCount > 1
          ? {
              accounts: {
                fleets: [simulator, ...moreSimulators].map((s) => ({ seed: s.seed, terminals: s.terminals })),
                sync: async () => {
                  // Account 1 is the one the server made from STARLINK_*; the others are added as an administrator adds them.
                  const first = (await filler.portal.data<{ id: number; name: string }[]>('GET', '/provider-accounts/refs'))[0];
                  if (!first) throw new Error('the server made no provider account from STARLINK_*');
                  log(`${kind}: adding ${moreSimulators.length} provider accounts`);
                  const added = await addAccounts(filler.portal, moreSimulators, 2);
                  const synced = await syncEveryAccount({
                    portal: filler.portal,
                    databaseUrl: filled.env.DATABASE_URL!,
                    accountIds: [first.id, ...added.map((a) => a.id)],
                    // A fresh database: every run in it is the fill's.
                    since: new Date(0),
                    timeoutMs: SYNC_TIMEOUT_MS,
                  });
                  return { ...synced, filtered: added.at(-1)! };
                },
              },
            }
          : {}),
      });
    } catch (error) {
      console.error(`--- last lines of the ${fillerCode.role} server (fill) ---\n${filler.server.tail()}`);
      throw error;
    } finally {
      await filler.stop();
    }
    log(`${kind}: filled in ${fillResult.report.seconds} s (${fillResult.report.providerCalls} provider calls, ${fillResult.report.atRealLimit.minutes} min at ${fillResult.report.atRealLimit.requestsPerMinute}/min)`);
    // Also here, so that the fill's figures survive a failure later in the run.
    log(`${kind}: fill ${JSON.stringify(fillResult.report)}`);
    const vacuumAnalyzeSeconds = kind === 'postgres' ? await vacuumAnalyze(filled) : null;
    const databaseMB = Math.round((await filled.sizeBytes()) / 1024 / 1024);

    // The filled database is the filler's; the other server gets a copy taken now, before either runs.
    const databases: Partial<Record<Role, BenchDatabase>> = { [fillerCode.role]: filled };
    // The collector of the accounts' provider calls is connected to the filled database: it lets go while the copy is taken.
    const copy = () => (collector ? collector.whilePaused(() => filled.copy()) : filled.copy());
    if (codes.baseline) copies.push((databases[fillerCode.role === 'current' ? 'baseline' : 'current'] = await copy()));
    const order: Code[] = codes.baseline ? [codes.baseline, codes.current] : [codes.current];
    for (const code of order) running.push(await runPatiently(code, databases[code.role]!, simulator, dbDir, 'measure'));

    const pages = adminPages(fillResult.context);
    const errors: RequestError[] = [...fillErrors];
    const reports = new Map(running.map((r) => [r.code.role, serverReport(r, r.database.where)]));
    // Routes a server does not have (an optional page on an older server) are left out for it.
    const pagesOf = new Map<Role, Page[]>();
    for (const r of running) {
      const absent: string[] = [];
      for (const page of pages.filter((p) => p.optional)) {
        const answer = await r.portal.get(page.path);
        const message = (answer.body as { message?: unknown } | null)?.message;
        if (answer.status === 404 && typeof message === 'string' && message.startsWith('Route not found')) absent.push(page.name);
      }
      pagesOf.set(r.code.role, pages.filter((p) => !absent.includes(p.name)));
      reports.get(r.code.role)!.absentPages = absent;
    }
    const has = (r: Running, page: Page) => pagesOf.get(r.code.role)!.includes(page);

    // Idle means idle: each server first finishes what its start set going (summaries recounted,
    // the subscription rows the fill marked refreshed); backends of the database count too.
    for (const r of running) {
      const settled = await waitUntilQuiet({ cpuMs: r.server.cpuMs, databaseCpuMs: () => r.database.backendCpuMs() });
      reports.get(r.code.role)!.quietBeforeIdle = settled;
      log(`${kind}: ${r.code.role} server ${settled.quiet ? 'quiet' : 'still busy'} after ${settled.seconds} s`);
    }
    log(`${kind}: idle latency, ${pages.length} pages`);
    for (const page of pages) {
      for (const r of running.filter((r) => has(r, page))) {
        reports.get(r.code.role)!.idle[page.name] = await pageLatency(r.portal, page, { samples: options.samples, warmUp: options.warmUp, phase: `${r.code.role} idle`, errors });
      }
      log(`  ${page.name}: p95 ${running.map((r) => `${r.code.role} ${reports.get(r.code.role)!.idle[page.name]?.p95 ?? '(no such route)'} ms`).join(', ')}`);
    }
    log(`${kind}: throughput, ${options.connections} connections × ${options.durationMs / 1000} s a page`);
    for (const page of pages) {
      for (const r of running.filter((r) => has(r, page))) {
        reports.get(r.code.role)!.throughput[page.name] = await pageThroughput(r.portal, page, {
          connections: options.connections,
          durationMs: options.durationMs,
          cpuMs: r.server.cpuMs,
          databaseCpuMs: () => r.database.backendCpuMs(),
          phase: `${r.code.role} throughput`,
          errors,
        });
      }
      log(`  ${page.name}: ${running.map((r) => `${r.code.role} ${reports.get(r.code.role)!.throughput[page.name]?.rps ?? '(no such route)'} req/s`).join(', ')}`);
    }
    if (options.workers !== null && kind === 'postgres') await measureWorkers(running.find((r) => r.code.role === 'current')!, reports.get('current')!, pagesOf.get('current')!, options, runDir, errors);
    // One server at a time while a sync writes, each stopped afterwards: its sync must not load
    // the machine while the other is measured (a stopped server hands its run back to the queue).
    for (const r of running) {
      const report = reports.get(r.code.role)!;
      if (options.syncPass) {
        log(`${kind}: latency while a sync writes (${r.code.role})`);
        await measureDuringSync(r, report, pagesOf.get(r.code.role)!, options, errors);
      }
      report.peakRssMB = await r.server.peakRssMB();
      // Read before the database goes: the run's provider call starts against each account's budget.
      if (collector && r.database === filled) {
        await collector.stop();
        budgets = await budgetReport({
          databaseUrl: filled.env.DATABASE_URL!,
          collector,
          lift: await liftReach(r.code.dir, r.server.providerLimitLifted),
          liftedLimit: LIFTED_LIMIT,
        });
        for (const a of budgets.accounts) log(`  account ${a.accountId}: at most ${a.maxIn60s} provider calls in 60 s, budget ${a.budget}${a.met ? '' : ' EXCEEDED'}`);
      }
      await r.stop();
      // Nothing of it may keep the machine busy (PostgreSQL's autovacuum after the sync's writes)
      // while the next server is measured.
      await r.database.drop();
    }

    const current = reports.get('current')!;
    const baseline = reports.get('baseline') ?? null;
    const pick = (r: ServerReport) => ({ idle: r.idle, duringSync: Object.fromEntries(Object.entries(r.duringSync.pages).map(([k, v]) => [k, v as Latency])), throughput: r.throughput });
    const firstInventoryJudged = firstInventory?.server === 'current' ? firstInventory.pages : {};
    return {
      benchmark: 'scale',
      database: kind,
      terminals,
      where: filled.where,
      node: process.version,
      machine: { cpus: os.cpus().length, memoryGB: Math.round(os.totalmem() / 1024 ** 3) },
      settings: { samples: options.samples, warmUp: options.warmUp, connections: options.connections, durationS: options.durationMs / 1000, logLevel: LOG_LEVEL },
      simulator: { seed: seeds[0]!, terminals: terminalsPerAccount, rateLimit: 'off', faults: 'none' },
      fill: { ...fillResult.report, vacuumAnalyzeSeconds, databaseMB },
      firstInventory,
      context: fillResult.context,
      servers: [...reports.values()],
      comparison: baseline ? compare(pick(baseline), pick(current)) : null,
      usageRunComparison: baseline ? usageRunComparison(baseline, current) : null,
      targets: judge({
        database: kind,
        terminals,
        idle: judgedPages(pages, current.idle),
        duringSync: options.syncPass
          ? { ...judgedPages(pages, pick(current).duringSync), ...noted(current.duringSync.usageRun, 'usage run'), ...noted(firstInventoryJudged, 'first inventory run') }
          : null,
        throughput: baseline ? { baseline: baseline.throughput, current: current.throughput } : null,
      }).concat(budgets ? [budgetTarget(kind, terminals, budgets.accounts)] : []),
      errors,
      ...(budgets ? { accounts: { count: accountCount, terminalsPerAccount, seeds, budgets } } : {}),
    };
  } catch (error) {
    for (const r of running) if (r.server.alive()) console.error(`--- last lines of the ${r.code.role} server ---\n${r.server.tail()}`);
    throw error;
  } finally {
    for (const r of running) await r.stop().catch(() => undefined);
    await collector?.stop().catch(() => undefined);
    await simulator.stop();
    for (const s of moreSimulators) await s.stop();
    // Gone before the next database is filled: at 100,000 terminals each copy is gigabytes.
    for (const database of [...copies, filled]) await database.drop().catch((error: unknown) => log(`could not remove ${database.where}: ${String(error)}`));
  }
}

/**
 * --first-inventory-only: for each server (the baseline's first), a fresh database and the first
 * inventory run of the simulator's fleet into it, the Subscriptions page's calls and the Terminals
 * list timed round after round while it writes; nothing else is filled or timed.
 */
async function runFirstInventoryOnly(kind: DatabaseKind, options: ScaleOptions, codes: { current: Code; baseline: Code | null }, runDir: string) {
  const terminals = options.terminals[kind];
  const dbDir = path.join(runDir, kind);
  await mkdir(dbDir, { recursive: true });
  const errors: RequestError[] = [];
  const servers: { role: Role; commit: string; dirty: boolean; inventory: SyncFigures; pages: Record<string, Latency & { sync: SyncWindow; rounds: number }> }[] = [];
  const simulator = await startSimulator({ root, terminals, seed: SIM_SEED, logFile: path.join(runDir, `${kind}-simulator.log`) });
  try {
    for (const code of codes.baseline ? [codes.baseline, codes.current] : [codes.current]) {
      const database = kind === 'postgres' ? await createPostgres(postgresServerUrl()) : await createPglite(dbDir);
      try {
        const running = await runPatiently(code, database, simulator, dbDir, 'first-inventory');
        try {
          let pages: (typeof servers)[number]['pages'] = {};
          log(`${kind}: the first inventory run of ${terminals} terminals (${code.role})`);
          const { figures } = await runInventory(running.portal, SYNC_TIMEOUT_MS, async (writing) => {
            pages = await timeWhileWriting(running.portal, writing, firstSyncPages(), options, `${code.role} first inventory run`, errors);
          });
          servers.push({ role: code.role, commit: code.commit, dirty: code.dirty, inventory: figures, pages });
        } finally {
          await running.stop();
        }
      } finally {
        await database.drop();
      }
    }
  } finally {
    await simulator.stop();
  }
  const current = servers.find((s) => s.role === 'current')!;
  const baseline = servers.find((s) => s.role === 'baseline') ?? null;
  return {
    benchmark: 'scale',
    mode: 'first-inventory',
    database: kind,
    terminals,
    node: process.version,
    machine: { cpus: os.cpus().length, memoryGB: Math.round(os.totalmem() / 1024 ** 3) },
    settings: { samples: options.samples, warmUp: options.warmUp, roundRestMs: WRITING_ROUND_REST_MS, maxRounds: WRITING_ROUNDS },
    servers,
    comparison: baseline
      ? Object.entries(current.pages).map(([page, f]) => {
          const before = baseline.pages[page]?.p95 ?? null;
          return { page, p95: { baseline: before, current: f.p95, ratio: before ? Math.round((f.p95 / before) * 100) / 100 : null } };
        })
      : null,
    targets: [latencyTarget(kind, terminals, 'every page p95 ≤ 100 ms while the first inventory run writes', 100, current.pages)],
    errors,
  };
}

async function main(): Promise<number> {
  let options: ScaleOptions;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(error.message);
      return error.message === USAGE ? 0 : 2;
    }
    throw error;
  }
  const checkout = await describeCheckout(root);
  const current: Code = { role: 'current', dir: root, commit: checkout.commit, dirty: checkout.dirty };
  const baselineCommit = options.baseline === null ? null : await resolveCommit(root, options.baseline);
  if (options.baseline !== null && baselineCommit === null) {
    console.error(`--baseline "${options.baseline}" names no commit in this repository\n${USAGE}`);
    return 2;
  }

  cleanUpOnSignals();
  const runDir = await mkdtemp(path.join(os.tmpdir(), 'bench-scale-'));
  defer(`run directory ${runDir}`, () => rm(runDir, { recursive: true, force: true }));
  let ok = true;
  const databaseReports: DatabaseReport[] = [];
  try {
    let baseline: Code | null = null;
    if (baselineCommit !== null) {
      log(`baseline ${options.baseline} = ${baselineCommit}: adding a worktree`);
      baseline = { role: 'baseline', dir: await addWorktree(root, baselineCommit, runDir), commit: baselineCommit, dirty: false };
    }
    if (options.firstInventoryOnly) {
      for (const kind of options.databases) {
        try {
          const report = await runFirstInventoryOnly(kind, options, { current, baseline }, runDir);
          console.log(JSON.stringify(report));
          if (report.errors.length > 0) ok = false;
          ok &&= report.targets.every((t) => t.met);
        } catch (error) {
          ok = false;
          log(`${kind} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
          console.log(JSON.stringify({ benchmark: 'scale', mode: 'first-inventory', database: kind, error: error instanceof Error ? error.message : String(error) }));
        }
      }
      return ok ? 0 : 1;
    }
    for (const kind of options.databases) {
      try {
        const report = await runDatabase(kind, options, { current, baseline }, runDir);
        console.log(JSON.stringify(report));
        if ('skipped' in report) continue;
        databaseReports.push(report);
        if (report.errors.length > 0) {
          ok = false;
          log(`${kind}: ${report.errors.length} request(s) failed, e.g. ${JSON.stringify(report.errors[0])}`);
        }
      } catch (error) {
        ok = false;
        log(`${kind} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        console.log(JSON.stringify({ benchmark: 'scale', database: kind, error: error instanceof Error ? error.message : String(error) }));
      }
    }
  } finally {
    log('cleaning up');
    await cleanUp();
  }

  const targets = databaseReports.flatMap((r) => r.targets);
  console.log(
    JSON.stringify({
      benchmark: 'scale',
      summary: true,
      current: { commit: current.commit, localChanges: current.dirty },
      baseline: baselineCommit === null ? null : { rev: options.baseline, commit: baselineCommit },
      databases: databaseReports.map((r) => ({
        database: r.database,
        terminals: r.terminals,
        fillSeconds: r.fill.seconds,
        providerCalls: r.fill.providerCalls,
        minutesAtRealLimit: r.fill.atRealLimit.minutes,
        slowestIdle: slowest(r.servers.find((s) => s.role === 'current')!.idle),
        slowestDuringSync: slowest(r.servers.find((s) => s.role === 'current')!.duringSync.pages),
        slowestDuringUsageRun: slowest(r.servers.find((s) => s.role === 'current')!.duringSync.usageRun),
        slowestDuringFirstInventory: r.firstInventory ? { server: r.firstInventory.server, ...slowest(r.firstInventory.pages) } : null,
        syncStayedRunningThroughout: r.servers.every((s) => s.duringSync.stayedRunningThroughout),
        errors: r.errors.length,
        ...(r.accounts
          ? {
              accounts: r.accounts.count,
              terminalsPerAccount: r.accounts.terminalsPerAccount,
              liftReachesAccountClients: r.accounts.budgets.lift.reachesAccountClients,
              busiestMinutePerAccount: r.accounts.budgets.accounts.map((a) => ({ account: a.accountId, maxIn60s: a.maxIn60s, budget: a.budget, met: a.met })),
            }
          : {}),
      })),
      targets: targets.map((t) => ({ database: t.database, target: t.target, atTargetSize: t.atTargetSize, met: t.met, worst: t.worst })),
      allTargetsMet: targets.length > 0 && targets.every((t) => t.met),
      ok,
    }),
  );
  return ok ? 0 : 1;
}

function usageRunComparison(baseline: ServerReport, current: ServerReport): NonNullable<DatabaseReport['usageRunComparison']> {
  return Object.entries(current.duringSync.usageRun).map(([page, f]) => {
    const before = baseline.duringSync.usageRun[page]?.p95 ?? null;
    return { page, p95: { baseline: before, current: f.p95, ratio: before === null || before === 0 ? null : Math.round((f.p95 / before) * 100) / 100 } };
  });
}

function slowest(pages: Record<string, Latency>): { page: string; p95: number } | null {
  let worst: { page: string; p95: number } | null = null;
  for (const [page, f] of Object.entries(pages)) if (worst === null || f.p95 > worst.p95) worst = { page, p95: f.p95 };
  return worst;
}

main().then(
  (code) => process.exit(code),
  async (error: unknown) => {
    console.error(error);
    await cleanUp();
    process.exit(1);
  },
);
