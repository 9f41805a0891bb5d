// One handle over either database: embedded PGlite (a directory, or memory) or a PostgreSQL
// server. Query code sees only `db`, typed as the common PgDatabase, so it runs on both.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite, types, type ParserOptions, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createPgliteStatements, type PgliteStatements } from './pglite-statements';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** The query handle repositories take; a transaction is one too. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

interface DatabaseHandle {
  db: Db;
  /** Runs parameterless SQL that may hold several statements; rolls back what it left open on error. */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * `client` is the driver under `db`, for what speaks to it directly (the job queue's executor).
 * PGlite's instance parses a few types as Drizzle does, not as PGlite's defaults (DRIZZLE_PARSERS).
 */
export type Database = DatabaseHandle & ({ kind: 'pglite'; client: PGlite } | { kind: 'postgres'; client: pg.Pool });

export interface OpenDatabaseOptions {
  /** postgres://… → PostgreSQL server; otherwise embedded. */
  url?: string;
  /** Embedded data directory, or 'memory://' for a throwaway database. */
  dataDir?: string;
  /**
   * Embedded only: a new data directory starts as a copy of this image (PGlite's dumpDataDir of
   * another database) instead of an empty cluster, which skips initdb and whatever the image's
   * database already holds (its migrations).
   */
  image?: Blob;
  /**
   * Embedded only: server settings for this start, on top of PGlite's own (`shared_buffers`, …).
   * The portal runs with PostgreSQL's defaults; a test's small throwaway database starts in half
   * the time with a small buffer pool, as zeroing the default 128 MB is most of its start-up.
   */
  settings?: Readonly<Record<string, string>>;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url);
  return openPglite(options.dataDir ?? 'memory://', options.image, options.settings);
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

const unparsed = (value: string) => value;

/** Element type → array type, for the types Drizzle reads as text. */
const DRIZZLE_TEXT_TYPES: [element: number, array: number][] = [
  [types.TIMESTAMP, 1115],
  [types.TIMESTAMPTZ, 1185],
  [types.INTERVAL, 1187],
  [types.DATE, 1182],
  [types.NUMERIC, 1231],
];

/**
 * The parsers Drizzle passes with every query (drizzle-orm/pglite/session.js): timestamp,
 * timestamptz, interval and date, and the arrays timestamp[], timestamptz[], interval[], date[]
 * and numeric[], all left as text for Drizzle to convert. (numeric itself keeps PGlite's parser.)
 */
export const DRIZZLE_PARSERS: ParserOptions = Object.fromEntries(
  DRIZZLE_TEXT_TYPES.flatMap(([element, array]) => (element === types.NUMERIC ? [array] : [element, array])).map((oid) => [oid, unparsed]),
);

/**
 * PGlite's own parsing of the same types (Date objects, arrays of them), for callers that are not
 * Drizzle: the instance's parsers no longer give it.
 */
export const PGLITE_DEFAULT_PARSERS: ParserOptions = Object.fromEntries(
  DRIZZLE_TEXT_TYPES.flatMap(([element, array]) => {
    const parseElement = (value: string) => types.parseType(value, element) as unknown;
    const parseArray = (value: string) => types.arrayParser(value, parseElement, array) as unknown;
    return element === types.NUMERIC ? [[array, parseArray]] : [[element, parseElement], [array, parseArray]];
  }),
);

/** True when every parser of `parsers` is one the instance already applies (DRIZZLE_PARSERS). */
function coveredByInstance(parsers: ParserOptions): boolean {
  for (const oid in parsers) if (DRIZZLE_PARSERS[oid] === undefined) return false;
  return true;
}

/**
 * Drizzle hands PGlite its parsers with every query, and PGlite then copies its ~320 built-in
 * parsers into a new object to merge them: measured at 100–200 µs a query, as much as a small
 * query itself, and most of a page's garbage. The instance is given the same parsers once
 * (DRIZZLE_PARSERS), so the copy Drizzle sends adds nothing and is dropped here; any parser the
 * instance lacks (a Drizzle upgrade adding a type) is passed on as before.
 */
function withoutCoveredParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  if (!options?.parsers || !coveredByInstance(options.parsers)) return options;
  const { parsers: _covered, ...rest } = options;
  return rest;
}

/** `target` with some members replaced; everything else is the target's own, bound to it. */
function overriding<T extends object>(target: T, own: Partial<T>): T {
  return new Proxy(target, {
    get(object, property) {
      if (Object.hasOwn(own, property)) return own[property as keyof T];
      const value: unknown = Reflect.get(object, property, object);
      // PGlite's methods use private fields, so they must run on the instance, not the proxy.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
  });
}

/** The client Drizzle is given: its queries, in and out of transactions, run as prepared statements. */
function drizzleClient(client: PGlite, statements: PgliteStatements): PGlite {
  const transactionOf = (tx: Transaction) =>
    overriding(tx, {
      query: ((text: string, params?: unknown[], options?: QueryOptions) => statements.queryIn(tx, text, params, withoutCoveredParsers(options))) as Transaction['query'],
    });
  return overriding(client, {
    query: ((text: string, params?: unknown[], options?: QueryOptions) => statements.query(text, params, withoutCoveredParsers(options))) as PGlite['query'],
    transaction: ((callback: (tx: Transaction) => Promise<unknown>) => client.transaction((tx) => callback(transactionOf(tx)))) as PGlite['transaction'],
  });
}

/** PGlite's start parameters with `settings` on top (`-c name=value` each), or none to keep its own. */
export function pgliteStartParams(settings: Readonly<Record<string, string>>): { startParams?: string[] } {
  const extra = Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  return extra.length > 0 ? { startParams: [...PGlite.defaultStartParams, ...extra] } : {};
}

async function openPglite(dataDir: string, image?: Blob, settings: Readonly<Record<string, string>> = {}): Promise<Database> {
  let unlock = async () => {};
  if (!dataDir.startsWith('memory://')) {
    await mkdir(dataDir, { recursive: true });
    unlock = await lockDataDir(dataDir);
  }
  const client = new PGlite(dataDir, { extensions: { pg_trgm }, ...(image ? { loadDataDir: image } : {}), ...pgliteStartParams(settings) });
  try {
    await client.waitReady;
  } catch (error) {
    await unlock();
    throw error;
  }
  // After start-up, which sets the array types' parsers (a constructor option would lose to it).
  client.parsers = { ...client.parsers, ...DRIZZLE_PARSERS };
  const db: Db = drizzlePglite({ client: drizzleClient(client, await createPgliteStatements(client)), schema });
  return {
    kind: 'pglite',
    client,
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

/**
 * Settings of every session the server opens, as startup options (no round trip). No JIT: the
 * planner's costs of the statement-level triggers (0012's customer-days upkeep joins the usage
 * days) pass jit_above_cost at 100,000 terminals, and LLVM then compiled for ~0.8 s to update the
 * data caps of five lines, so the usage sync's paced transactions ran at a line a second. Nothing
 * the server runs gains from JIT (short statements, scans of at most the fleet). node-postgres
 * takes a URL's own `options` over the pool's, so those are joined in the URL.
 */
const SESSION_OPTIONS = '-c jit=off';

export function withSessionOptions(url: string): { connectionString: string; options?: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { connectionString: url, options: SESSION_OPTIONS };
  }
  const own = parsed.searchParams.get('options');
  if (!own) return { connectionString: url, options: SESSION_OPTIONS };
  parsed.searchParams.set('options', `${own} ${SESSION_OPTIONS}`);
  return { connectionString: parsed.toString() };
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ ...withSessionOptions(url), max: 10 });
  // An idle client losing its connection emits here; without a listener the process would crash.
  pool.on('error', () => undefined);
  const probe = await pool.connect();
  probe.release();
  const db: Db = drizzleNodePg({ client: pool, schema });
  let closed = false;
  return {
    kind: 'postgres',
    client: pool,
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
