// The databases of a run, each made fresh and registered for removal as it is made: a new
// `bench_scale_<random>` database on the PostgreSQL server (BENCH_DATABASE_URL, else
// TEST_DATABASE_URL, else the local one) or a new temporary PGlite data directory. A copy is taken
// only while no server has the original open: PostgreSQL's CREATE DATABASE … TEMPLATE refuses a
// template with open connections, and a live PGlite directory is not safe to copy (it does not
// fsync, and the server holds a lock file in it).
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseKind } from './args';
import { defer } from './cleanup';
import { processesCpuMs } from './processes';

export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

export interface BenchDatabase {
  kind: DatabaseKind;
  /** The PostgreSQL database's name, or the PGlite data directory. */
  where: string;
  /** What a server is started with to use it (DATABASE_URL, or DATA_DIR). */
  env: Record<string, string>;
  /** A copy under a new name or directory; only while no server has this one open. */
  copy(): Promise<BenchDatabase>;
  /** Bytes on disk. */
  sizeBytes(): Promise<number>;
  /** Removes it now rather than at the end of the run. */
  drop(): Promise<void>;
  /**
   * CPU milliseconds so far of each PostgreSQL backend connected to it (read from /proc, so only
   * when the server runs on this machine); null for PGlite, whose work is the server process's own.
   */
  backendCpuMs(): Promise<Map<number, number> | null>;
}

export function postgresServerUrl(): string {
  return process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || DEFAULT_POSTGRES_URL;
}

async function withAdminClient<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const newName = () => `bench_scale_${randomBytes(5).toString('hex')}`;

function postgresDatabase(serverUrl: string, name: string, drop: () => Promise<void>): BenchDatabase {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    where: name,
    env: { DATABASE_URL: url.toString() },
    async copy() {
      const copyName = newName();
      await withAdminClient(serverUrl, async (client) => {
        // A server that has just exited may leave a backend a moment longer; the template must be idle.
        for (let attempt = 1; ; attempt++) {
          try {
            await client.query(`CREATE DATABASE ${copyName} TEMPLATE ${name}`);
            break;
          } catch (error) {
            if (attempt >= 10 || !/being accessed by other users/.test((error as Error).message)) throw error;
            await new Promise((resolve) => setTimeout(resolve, 1_000));
          }
        }
      });
      return postgresDatabase(serverUrl, copyName, defer(`database ${copyName}`, () => dropPostgres(serverUrl, copyName)));
    },
    sizeBytes: () => withAdminClient(serverUrl, async (client) => Number((await client.query<{ size: string }>('SELECT pg_database_size($1) AS size', [name])).rows[0]!.size)),
    drop,
    async backendCpuMs() {
      const pids = await withAdminClient(serverUrl, async (client) => (await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [name])).rows.map((r) => r.pid));
      const cpu = await processesCpuMs(pids);
      return pids.length > 0 && cpu.size === 0 ? null : cpu;
    },
  };
}

async function dropPostgres(serverUrl: string, name: string): Promise<void> {
  await withAdminClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/**
 * A fresh database on the PostgreSQL server; throws when the server cannot be reached. With `keep`
 * it outlives the run: its URL is printed at the end instead of the database being dropped.
 */
export async function createPostgres(serverUrl: string, { keep = false }: { keep?: boolean } = {}): Promise<BenchDatabase> {
  const name = newName();
  await withAdminClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const kept = async () => {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    console.error(`scale: kept the filled database: ${url.toString()} (DROP DATABASE ${name} WITH (FORCE) when done)`);
  };
  return postgresDatabase(serverUrl, name, defer(`database ${name}`, keep ? kept : () => dropPostgres(serverUrl, name)));
}

async function directorySize(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await directorySize(full);
    else if (entry.isFile()) total += (await stat(full)).size;
  }
  return total;
}

function pgliteDatabase(parent: string, dir: string, drop: () => Promise<void>): BenchDatabase {
  return {
    kind: 'pglite',
    where: dir,
    env: { DATA_DIR: dir },
    async copy() {
      const copyDir = await mkdtemp(path.join(parent, 'pglite-'));
      const dropCopy = defer(`data directory ${copyDir}`, () => rm(copyDir, { recursive: true, force: true }));
      await cp(dir, copyDir, { recursive: true });
      return pgliteDatabase(parent, copyDir, dropCopy);
    },
    sizeBytes: () => directorySize(dir),
    drop,
    backendCpuMs: async () => null,
  };
}

/** A fresh, empty PGlite data directory inside `parent` (the server creates the database in it). */
export async function createPglite(parent: string): Promise<BenchDatabase> {
  const dir = await mkdtemp(path.join(parent, 'pglite-'));
  return pgliteDatabase(parent, dir, defer(`data directory ${dir}`, () => rm(dir, { recursive: true, force: true })));
}
