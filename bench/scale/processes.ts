// The child processes of a run: the provider simulator (server/simulator/cli.ts, as
// bench/terminals-sync.ts starts it) and the real portal server (server/server.ts, the file
// `npm start` ends in, run without the SPA build step). Each is registered for clean-up as soon as
// it is spawned, logs to a file in the run's directory (the last lines are kept for error
// reports), and is stopped with SIGTERM, then SIGKILL if it has not exited after a grace period.
// CPU time is read from /proc: utime + stime of the process and of any descendants it has.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { defer } from './cleanup';

const TAIL_LINES = 60;
const STOP_GRACE_MS = 30_000;

/** Output of a child, to a file and the last lines in memory. */
function capture(child: ChildProcess, logFile: string, onLine: (line: string) => void): { tail(): string } {
  const file = createWriteStream(logFile, { flags: 'a' });
  const lines: string[] = [];
  let partial = '';
  const take = (chunk: Buffer) => {
    file.write(chunk);
    const text = partial + chunk.toString('utf8');
    const parts = text.split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      if (lines.length > TAIL_LINES) lines.shift();
      onLine(line);
    }
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  child.once('exit', () => file.end());
  return { tail: () => [...lines, partial].filter(Boolean).join('\n') };
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  if (await waitForExit(child, STOP_GRACE_MS)) return;
  child.kill('SIGKILL');
  await waitForExit(child, 5_000);
}

/** Spawns `node --import tsx …args` and resolves once a stdout/stderr line matches `ready`. */
function spawnUntilReady(options: {
  label: string;
  cwd: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  logFile: string;
  ready: RegExp;
  timeoutMs: number;
  onLine?: (line: string) => void;
}): Promise<{ child: ChildProcess; match: RegExpExecArray; lines: string[]; tail(): string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...options.args], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = defer(`${options.label} (pid ${child.pid ?? '?'})`, () => stopChild(child));
  const seen: string[] = [];
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop().finally(() => reject(new Error(`${message}\n--- last lines of ${options.label} (${options.logFile}) ---\n${output.tail()}`)));
    };
    const output = capture(child, options.logFile, (line) => {
      options.onLine?.(line);
      if (settled) return;
      seen.push(line);
      const match = options.ready.exec(line);
      if (match) {
        settled = true;
        clearTimeout(timer);
        resolve({ child, match, lines: seen, tail: output.tail, stop });
      }
    });
    const timer = setTimeout(() => fail(`${options.label} did not start within ${options.timeoutMs / 1000} s`), options.timeoutMs);
    child.once('error', (error) => fail(`${options.label} could not start: ${error.message}`));
    child.once('exit', (code, signal) => fail(`${options.label} exited (${signal ?? code}) before it was ready`));
  });
}

// ---- The provider simulator ------------------------------------------------------------------

export interface Simulator {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  seed: string;
  terminals: number;
  stop(): Promise<void>;
}

export async function startSimulator(options: { root: string; terminals: number; seed: string; logFile: string }): Promise<Simulator> {
  const started = await spawnUntilReady({
    label: 'provider simulator',
    cwd: options.root,
    args: ['server/simulator/cli.ts', '--port', '0', '--host', '127.0.0.1'],
    // No rate limit and no faults: the fill is limited by the portal's work, not by a provider.
    env: { ...cleanEnv(), SIM_TERMINALS: String(options.terminals), SIM_SEED: options.seed, SIM_RATE_LIMIT: 'off' },
    logFile: options.logFile,
    ready: /^\s*faults\s/,
    timeoutMs: 120_000,
  });
  const field = (name: string) => {
    const line = started.lines.find((l) => new RegExp(`^\\s*${name}\\s`).test(l));
    const value = line?.trim().slice(name.length).trim();
    if (!value) throw new Error(`the simulator printed no ${name}:\n${started.tail()}`);
    return value;
  };
  return {
    baseUrl: field('base URL'),
    clientId: field('client id'),
    clientSecret: field('client secret'),
    seed: options.seed,
    terminals: options.terminals,
    stop: started.stop,
  };
}

// ---- The portal server -----------------------------------------------------------------------

export interface ServerProcess {
  label: string;
  pid: number;
  host: string;
  port: number;
  /** Whether the preload lifted the provider client's limit (null: not asked to). */
  providerLimitLifted: boolean | null;
  /** Seconds from spawn to "Portal ready" (migrations and, on PGlite, ANALYZE included). */
  startSeconds: number;
  /** The console lines up to "Portal ready" (applied migrations, the schema version). */
  startupLines: string[];
  /** Peak resident memory so far (VmHWM), MB. */
  peakRssMB(): Promise<number | null>;
  /** CPU milliseconds of the server and its descendants so far. */
  cpuMs(): Promise<number>;
  /** Whether the process is still alive. */
  alive(): boolean;
  tail(): string;
  stop(): Promise<void>;
}

const LIFT_PRELOAD = fileURLToPath(new URL('./lift-provider-limit.ts', import.meta.url));

/**
 * server/server.ts of the checkout in `cwd`, on 127.0.0.1 and an ephemeral port. `env` carries the
 * database, the provider and the sync settings; the rest of the environment is cleared of
 * anything that would point it elsewhere.
 */
export async function startServer(options: { label: string; cwd: string; env: Record<string, string>; logFile: string; liftProviderLimit: boolean }): Promise<ServerProcess> {
  let lifted: boolean | null = null;
  const spawnedAt = performance.now();
  const started = await spawnUntilReady({
    label: options.label,
    cwd: options.cwd,
    args: [...(options.liftProviderLimit ? ['--import', pathToFileURL(LIFT_PRELOAD).href] : []), 'server/server.ts'],
    env: { ...cleanEnv(), NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', ...options.env },
    logFile: options.logFile,
    ready: /Portal ready at (http:\/\/[^\s]+)/,
    // Start-up migrates (a new migration may rebuild tables of a filled database) and, on PGlite,
    // runs ANALYZE over the whole database.
    timeoutMs: 30 * 60_000,
    onLine: (line) => {
      if (line.startsWith('bench-scale: provider client limit')) lifted = line.includes(' lifted (was');
    },
  });
  const url = new URL(started.match[1]!);
  const pid = started.child.pid!;
  return {
    label: options.label,
    pid,
    host: url.hostname,
    port: Number(url.port),
    providerLimitLifted: options.liftProviderLimit ? lifted : null,
    startSeconds: Math.round((performance.now() - spawnedAt) / 100) / 10,
    startupLines: started.lines,
    peakRssMB: async () => {
      const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
      const kb = /VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1];
      return kb ? Math.round(Number(kb) / 1024) : null;
    },
    cpuMs: () => processTreeCpuMs(pid),
    alive: () => started.child.exitCode === null && started.child.signalCode === null,
    tail: started.tail,
    stop: started.stop,
  };
}

/**
 * The parent's environment without anything that would point a child at another database,
 * provider, port or admin, or change its schedules: the run sets those itself.
 */
function cleanEnv(): NodeJS.ProcessEnv {
  const drop = /^(DATABASE_URL|TEST_DATABASE_URL|BENCH_DATABASE_URL|DATA_DIR|PORT|HOST|API_PORT|PUBLIC_URL|TRUST_PROXY|CLIENT_DIR|SKIP_BUILD|STARLINK_.*|SIM_.*|SYNC_.*|USAGE_SYNC_.*|ADMIN_.*|SEED_DEMO|JWT_.*|MFA_ENCRYPTION_KEY|LOGIN_RATE_LIMIT|NOT_FOUND_RATE_LIMIT|LOG_LEVEL|SMTP_URL|MAIL_FROM|NODE_ENV|NODE_OPTIONS)$/;
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !drop.test(name)));
}

// ---- CPU time from /proc ---------------------------------------------------------------------

let clockTicks: number | null = null;
function ticksPerSecond(): number {
  if (clockTicks === null) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** [ppid, utime + stime in ticks] of one process, or null once it is gone. */
async function statOf(pid: number): Promise<[number, number] | null> {
  try {
    const text = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return [Number(fields[1]), Number(fields[11]) + Number(fields[12])];
  } catch {
    return null;
  }
}

/** CPU milliseconds of each of `pids` still alive. */
export async function processesCpuMs(pids: readonly number[]): Promise<Map<number, number>> {
  const cpu = new Map<number, number>();
  await Promise.all(
    pids.map(async (pid) => {
      const stat = await statOf(pid);
      if (stat) cpu.set(pid, (stat[1] * 1000) / ticksPerSecond());
    }),
  );
  return cpu;
}

export async function processTreeCpuMs(root: number): Promise<number> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  const stats = new Map<number, [number, number]>();
  await Promise.all(
    pids.map(async (pid) => {
      const stat = await statOf(pid);
      if (stat) stats.set(pid, stat);
    }),
  );
  let ticks = 0;
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    const stat = stats.get(pid);
    if (!stat) continue;
    ticks += stat[1];
    for (const [child, [ppid]] of stats) if (ppid === pid) pending.push(child);
  }
  return (ticks * 1000) / ticksPerSecond();
}
