// One handle over either database: embedded PGlite (a directory, or memory) or a PostgreSQL
// server. Query code sees only `db`, typed as the common PgDatabase, so it runs on both.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** The query handle repositories take; a transaction is one too. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Runs parameterless SQL that may hold several statements; rolls back what it left open on error. */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** postgres://… → PostgreSQL server; otherwise embedded. */
  url?: string;
  /** Embedded data directory, or 'memory://' for a throwaway database. */
  dataDir?: string;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url);
  return openPglite(options.dataDir ?? 'memory://');
}

export class DatabaseInUseError extends Error {
  override name = 'DatabaseInUseError';
}

const LOCK_FILE = 'portal.lock';

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else — still alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite is one process's database: a second server opening the same directory would corrupt it.
 * A lock file holding the owner's pid keeps the second one out; a lock left by a dead process is
 * taken over.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lockPath = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lockPath, String(process.pid), { flag: 'wx' });
      return async () => {
        await rm(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number((await readFile(lockPath, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && processIsAlive(owner)) {
        throw new DatabaseInUseError(
          `The embedded database in ${dataDir} is in use by another process (pid ${owner}). Stop it first, or use another DATA_DIR.`,
        );
      }
      await rm(lockPath, { force: true });
    }
  }
  throw new DatabaseInUseError(`Could not lock the embedded database in ${dataDir}`);
}

async function openPglite(dataDir: string): Promise<Database> {
  let unlock = async () => {};
  if (!dataDir.startsWith('memory://')) {
    await mkdir(dataDir, { recursive: true });
    unlock = await lockDataDir(dataDir);
  }
  const client = new PGlite(dataDir, { extensions: { pg_trgm } });
  try {
    await client.waitReady;
  } catch (error) {
    await unlock();
    throw error;
  }
  const db: Db = drizzlePglite({ client, schema });
  return {
    kind: 'pglite',
    db,
    async exec(sql) {
      try {
        await client.exec(sql);
      } catch (error) {
        // One connection: leaving it inside an aborted transaction would poison every later query.
        await client.exec('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
    async close() {
      if (!client.closed) await client.close();
      await unlock();
    },
  };
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client losing its connection emits here; without a listener the process would crash.
  pool.on('error', () => undefined);
  const probe = await pool.connect();
  probe.release();
  const db: Db = drizzleNodePg({ client: pool, schema });
  let closed = false;
  return {
    kind: 'postgres',
    db,
    async exec(sql) {
      const connection = await pool.connect();
      try {
        await connection.query(sql);
      } catch (error) {
        await connection.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        connection.release();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/**
 * PGlite runs no autovacuum, so nothing refreshes the planner's statistics as tables grow, and
 * plans drift (the customers bench: a last page 56 ms with statistics, 151 ms without). The server
 * refreshes them at start-up; on PostgreSQL autovacuum already does.
 */
export async function refreshEmbeddedStatistics(database: Database): Promise<void> {
  if (database.kind === 'pglite') await database.exec('ANALYZE');
}
