// One handle over either database: embedded PGlite (a directory, or memory) or a PostgreSQL
// server. Query code sees only `db`, typed as the common PgDatabase, so it runs on both.
import { mkdir } from 'node:fs/promises';
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

async function openPglite(dataDir: string): Promise<Database> {
  if (!dataDir.startsWith('memory://')) await mkdir(dataDir, { recursive: true });
  const client = new PGlite(dataDir, { extensions: { pg_trgm } });
  await client.waitReady;
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
