// WORKERS=N: N server processes behind one port (node:cluster hands each new connection to one of
// them), on one PostgreSQL database. What the processes share lives in the database already: the
// job queue (pg-boss gives each sync to one process), the provider call budget, account lockout
// and the sessions' accounts. This primary process serves no request itself; it
// - migrates and bootstraps once, so N processes do not race to create the first administrator
//   (the demo password box is printed here, once);
// - runs the built-in provider simulator when no Starlink credentials are set, so every worker
//   calls one provider (each mounting its own would give each its own fleet and account);
// - starts the workers, starts a worker again when one dies (not when they keep dying at start),
//   and on SIGINT/SIGTERM passes the signal on and waits for them to close.
import cluster, { type Worker } from 'node:cluster';
import type { Config, Env } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { bootstrap, type BootstrapResult } from './bootstrap';
import { providerSettingsFromEnv } from './provider';
import { generatedSimulatorCredentials, SHARED_SIMULATOR_ENV, sharedSimulatorsEnvValue, type SimulatedEndpoint } from './provider-access';
import { simulatedAccountsFromEnv, startSimulator, type RunningSimulator } from './simulator';

/** A worker that exits within this long of its start counts as failing at start-up. */
const EARLY_EXIT_MS = 10_000;
/** Start-up failures in a row after which the primary stops instead of starting workers forever. */
const MAX_EARLY_EXITS = 3;
/** How long the workers get to close after the signal is passed on. */
const CLOSE_TIMEOUT_MS = 20_000;

export interface PrimaryHooks {
  /** Prints what bootstrap did (the demo password box), as a single process would. */
  reportBootstrap(result: BootstrapResult): void;
}

export async function runPrimary(config: Config, env: Env, hooks: PrimaryHooks): Promise<void> {
  if (!config.databaseUrl) throw new Error('WORKERS > 1 needs DATABASE_URL (the configuration check should have said so)');
  console.log(`Cluster: starting ${config.workers} server processes on port ${config.port} (WORKERS=${config.workers}).`);

  const database = await openDatabase({ url: config.databaseUrl });
  try {
    await migrate(database, { log: (m) => console.log(m) });
    hooks.reportBootstrap(await bootstrap({ database, config }));
  } finally {
    await database.close();
  }

  const workerEnv: Env = {};
  const simulators: RunningSimulator[] = [];
  if (!providerSettingsFromEnv(env)) {
    // Each of the simulator's accounts on its own port, with one set of credentials every worker uses.
    const endpoints: SimulatedEndpoint[] = [];
    for (const account of simulatedAccountsFromEnv(env)) {
      const credentials = account.options.credentials ?? generatedSimulatorCredentials();
      const running = await startSimulator({ ...account.options, credentials, port: 0, host: '127.0.0.1' });
      simulators.push(running);
      endpoints.push({
        slug: account.slug,
        name: account.name,
        currency: account.options.currency ?? 'USD',
        terminals: account.options.terminals ?? 156,
        credentials,
        baseUrl: running.baseUrl,
      });
    }
    Object.assign(workerEnv, { [SHARED_SIMULATOR_ENV]: sharedSimulatorsEnvValue(endpoints) });
    console.log(`Cluster: the built-in provider simulator's accounts run in this process (${endpoints.map((e) => `${e.name} at ${e.baseUrl}`).join('; ')}), for every worker.`);
  }

  let closing = false;
  let earlyExits = 0;
  /** The live workers and when each started. */
  const live = new Map<number, { worker: Worker; startedAt: number }>();
  const fork = (): void => {
    const worker = cluster.fork(workerEnv);
    live.set(worker.id, { worker, startedAt: Date.now() });
  };
  const signalAll = (signal: NodeJS.Signals) => {
    for (const { worker } of live.values()) worker.process.kill(signal);
  };
  const allClosed = () =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (live.size === 0) resolve();
      };
      cluster.on('exit', check);
      check();
    });

  const stop = async (signal: NodeJS.Signals, code: number) => {
    if (closing) {
      console.error(`${signal} again: stopping the workers without waiting.`);
      signalAll('SIGKILL');
      process.exit(1);
    }
    closing = true;
    console.log(`${signal} received: closing the ${live.size} workers.`);
    signalAll(signal);
    const timeout = setTimeout(() => {
      console.error(`Workers still running after ${CLOSE_TIMEOUT_MS / 1000} s: stopping them.`);
      signalAll('SIGKILL');
    }, CLOSE_TIMEOUT_MS);
    await allClosed();
    clearTimeout(timeout);
    await Promise.all(simulators.map((simulator) => simulator.close().catch(() => undefined)));
    process.exit(code);
  };
  process.on('SIGINT', () => void stop('SIGINT', 0));
  process.on('SIGTERM', () => void stop('SIGTERM', 0));

  // Registered before allClosed's listener, so `live` is current when that one looks.
  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (live.get(worker.id)?.startedAt ?? 0);
    live.delete(worker.id);
    if (closing) return;
    console.error(`Cluster: worker ${worker.process.pid} exited (${signal ?? `code ${code}`}) after ${(lived / 1000).toFixed(1)} s.`);
    earlyExits = lived < EARLY_EXIT_MS ? earlyExits + 1 : 0;
    if (earlyExits >= MAX_EARLY_EXITS) {
      console.error(`Cluster: ${earlyExits} workers in a row failed at start-up; stopping (see their messages above).`);
      void stop('SIGTERM', 1);
      return;
    }
    fork();
  });

  for (let i = 0; i < config.workers; i += 1) fork();
}
