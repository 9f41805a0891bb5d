// What the tests that run the real server process as a child share: a migrated database it is
// given (a scratch PostgreSQL database when TEST_DATABASE_URL is set, else an embedded data
// directory seeded from the tier's image, so kills come once writes flow, never during a
// migration), the environment it starts from, and the wait for its first start's syncs.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../../server/db/client';
import { migratedDataDir, seedDataDir } from '../database-image';
import { createScratchPostgres, TEST_DATABASE_URL, TEST_JWT_SECRET, useTestSettingsIn } from '../helpers';

export interface PortalDatabase {
  dataDir: string;
  /** Null: the embedded database in `dataDir`. */
  databaseUrl: string | null;
  /** The server's environment: this database, `admin` as the first administrator, no demo data, then `extra`. */
  env(admin: { email: string; password: string }, extra: Record<string, string>): Record<string, string>;
  /** The database itself, while no server has it open (the embedded one allows one process). */
  open(): Promise<Database>;
  dispose(): Promise<void>;
}

export async function portalDatabase(name: string): Promise<PortalDatabase> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `${name.replace(/_/g, '-')}-`));
  const scratch = TEST_DATABASE_URL ? await createScratchPostgres(name, inject('postgresTemplate')) : null;
  if (!scratch) {
    await seedDataDir(await migratedDataDir(), dataDir);
    // Opened several times (each server life and the checks between them).
    await useTestSettingsIn(dataDir);
  }
  const databaseUrl = scratch?.url ?? null;
  return {
    dataDir,
    databaseUrl,
    env: (admin, extra) => ({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      JWT_SECRET: TEST_JWT_SECRET,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT: '1000',
      CLIENT_DIR: path.join(dataDir, 'no-client'),
      ...extra,
    }),
    open: () => (databaseUrl ? openDatabase({ url: databaseUrl }) : openDatabase({ dataDir: path.join(dataDir, 'pglite') })),
    async dispose() {
      await scratch?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The first start syncs the provider's inventory, then its usage: until both are in. */
export async function waitForFirstSync(baseUrl: string, token: string): Promise<void> {
  type Run = { kind: string; status: string; message: string | null };
  const deadline = Date.now() + 45_000;
  for (;;) {
    const response = await fetch(`${baseUrl}/api/v1/terminals/sync/queue`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await response.json()) as { data: { active: Run | null; recent: Run[] } };
    if (!response.ok) throw new Error(`The sync queue answered ${response.status}: ${JSON.stringify(body)}`);
    const queue = body.data;
    const failed = queue.recent.find((run) => run.status === 'failed');
    if (failed) throw new Error(`The first ${failed.kind} sync failed: ${failed.message}`);
    const finished = (kind: string) => queue.recent.some((run) => run.kind === kind && run.status === 'succeeded');
    const busy = queue.recent.some((run) => run.status === 'queued' || run.status === 'running');
    if (!queue.active && !busy && finished('inventory') && finished('usage')) return;
    if (Date.now() > deadline) throw new Error(`The first sync did not finish: ${JSON.stringify(queue)}`);
    await sleep(100);
  }
}
