// The only file that listens: config → database → migrations → bootstrap → app → listen → the
// background sync, and a graceful close on SIGINT/SIGTERM (runs in progress go back to the queue).
// With WORKERS=N it is the cluster's primary first (cluster.ts), then each worker runs it again.
// First: an unsupported Node.js stops here, with the reason.
import { createShiftableClock } from './clock';
import './runtime';
import cluster from 'node:cluster';
import { buildApp } from './app';
import { runPrimary } from './cluster';
import { providerRegistryFromEnv, type ProviderRegistry } from './provider-access';
import { bootstrap, type BootstrapResult } from './bootstrap';
import { ConfigError, embeddedDataDir, loadConfig, type Config } from './config';
import { openDatabase, refreshEmbeddedStatistics, type Database } from './db/client';
import { migrate, MigrationError } from './db/migrate';
import { createProviderCallBudgetRepository } from './db/repositories/provider-call-budget';
import { createProviderCallBudget } from './services/provider-call-budget';

function printBox(lines: string[]): void {
  const width = Math.max(...lines.map((l) => l.length));
  const bar = '═'.repeat(width + 2);
  console.log(`\n╔${bar}╗\n${lines.map((l) => `║ ${l.padEnd(width)} ║`).join('\n')}\n╚${bar}╝\n`);
}

function reportBootstrap(result: BootstrapResult, url: string): void {
  const { admin } = result;
  if (admin.status === 'created' && admin.source === 'demo') {
    printBox([
      'Demo administrator created. This password is shown only once:',
      '',
      `  URL:      ${url}`,
      `  Email:    ${admin.email}`,
      `  Password: ${admin.password}`,
      '',
      'Set ADMIN_EMAIL and ADMIN_PASSWORD on a fresh database to choose your own.',
    ]);
  } else if (admin.status === 'created') {
    console.log(`Administrator ${admin.email} created from ADMIN_EMAIL / ADMIN_PASSWORD.`);
  } else if (admin.status === 'missing') {
    printBox([
      'No administrator exists yet, so nobody can sign in.',
      'Restart once with both variables set to create the first one:',
      '',
      "  ADMIN_EMAIL=you@example.com ADMIN_PASSWORD='at least 8 characters'",
      '',
      '(or SEED_DEMO=1 for a demo administrator and demo data)',
    ]);
  }
  if (result.demo === 'seeded') console.log('Demo data seeded: 48 portal users and 24 customers.');
  if (result.demoCustomer) {
    printBox([
      'Demo customer who can sign in (the customer area at /my). Shown only once:',
      '',
      `  URL:      ${url}/login`,
      `  Email:    ${result.demoCustomer.email}`,
      `  Password: ${result.demoCustomer.password}`,
    ]);
  }
}

/** The address people open: PUBLIC_URL, else this host and port (a wildcard host shown as localhost). */
function portalUrl(config: Config, port: number | string): string {
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  return config.publicUrl ?? `http://${shownHost}:${port}`;
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  let config: Config;
  try {
    config = await loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  if (config.workers > 1 && cluster.isPrimary) {
    try {
      await runPrimary(config, process.env, { reportBootstrap: (result) => reportBootstrap(result, portalUrl(config, config.port)) });
    } catch (error) {
      if (error instanceof MigrationError || error instanceof ConfigError) console.error(error.message);
      else console.error('Start-up failed:', error);
      process.exit(1);
    }
    return;
  }

  // The system clock, unless the simulator's controls move it forward (a demo, a browser journey).
  const clock = createShiftableClock();
  let provider: ProviderRegistry;
  try {
    provider = providerRegistryFromEnv(process.env, clock.now);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  let database: Database;
  try {
    database = config.databaseUrl
      ? await openDatabase({ url: config.databaseUrl })
      : await openDatabase({ dataDir: embeddedDataDir(config) });
  } catch (error) {
    const where = config.databaseUrl ? 'the PostgreSQL server in DATABASE_URL' : `the embedded database in ${embeddedDataDir(config)}`;
    console.error(`Cannot open ${where}: ${(error as Error).message}`);
    process.exit(1);
  }

  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let closing = false;
  const close = async (signal: string) => {
    if (closing) {
      // A cluster worker hears Ctrl+C twice (from the terminal and passed on by the primary),
      // and the primary stops a worker that takes too long itself.
      if (cluster.isWorker) return;
      console.error(`${signal} again: exiting without waiting.`);
      process.exit(1);
    }
    closing = true;
    console.log(`${signal} received: closing.`);
    try {
      await app?.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      console.error('Error while closing:', error);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));

  try {
    const migrated = await migrate(database, { log: (m) => console.log(m) });
    const result = await bootstrap({ database, config, now: clock.now });
    await refreshEmbeddedStatistics(database);
    // One call budget per provider account, in the database: every process shares it, and an
    // account never spends another's.
    const budgetRepo = createProviderCallBudgetRepository(database.db);
    provider.useBudgets((account) =>
      createProviderCallBudget({
        db: database.db,
        repo: budgetRepo,
        accountKey: account.key,
        requestsPerMinute: account.requestsPerMinute,
        syncShare: config.providerSyncShare,
      }),
    );
    app = await buildApp({ config, database, provider, startSyncJobs: 'manual', now: clock.now, clock });
    // The first start of this release: the account the migration made from what the portal held
    // takes today's settings (STARLINK_* or the simulator's first account).
    for (const line of await app.services.providerAccounts.adoptPending({ seedDemo: config.seedDemo })) console.log(line);
    const address = await app.listen({ port: config.port, host: config.host });
    // The built-in simulator is reached over HTTP like the real provider, on this server's own port.
    const selfHost = ['0.0.0.0', '::', 'localhost'].includes(config.host) ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
    provider.bind(`http://${selfHost}:${new URL(address).port}`);
    // Only now can a worker reach the provider (the built-in simulator listens on this very port).
    await app.syncJobs?.start();
    const url = portalUrl(config, new URL(address).port);
    reportBootstrap(result, url);
    const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
    console.log(
      `Portal ready at ${url} (${database.kind === 'pglite' ? 'embedded database' : 'PostgreSQL'}, schema v${migrated.version}, started in ${seconds} s). API docs: ${url}/api/docs`,
    );
    console.log(`Provider: ${provider.describe()}`);
    console.log(
      `Provider calls: each account's own budget (Provider accounts page), shared by every server process on this database; syncs up to ${Math.round(config.providerSyncShare * 100)} % of it (PROVIDER_SYNC_SHARE)`,
    );
    console.log(`Terminal sync: ${config.syncIntervalMs === null ? 'automatic syncs off (SYNC_INTERVAL=off)' : `every ${Math.round(config.syncIntervalMs / 60_000)} min (SYNC_INTERVAL)`}`);
    // Usage follows every inventory run; its own schedule only runs while automatic syncs are on.
    if (config.syncIntervalMs !== null) {
      console.log(
        `Usage sync: after each terminal sync${config.usageSyncIntervalMs === null ? '' : `, and every ${Math.round(config.usageSyncIntervalMs / 60_000)} min (USAGE_SYNC_INTERVAL)`}`,
      );
    }
  } catch (error) {
    if (error instanceof MigrationError) console.error(error.message);
    else console.error('Start-up failed:', error);
    await app?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    process.exit(1);
  }
}

await main();
