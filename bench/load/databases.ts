// The two databases the load runs on, each fresh and migrated: PGlite in a new temporary
// directory (the on-disk embedded database `npm start` uses, not the in-memory one the other
// benches take) and a new uniquely named database on a PostgreSQL server, dropped afterwards.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';

export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

export interface LoadDatabase {
  database: Database;
  /** Where it lives: the PGlite directory, or the PostgreSQL database's name. */
  where: string;
  /** Closes it and removes it (the directory, or the database). */
  drop(): Promise<void>;
}

export async function openEmbedded(): Promise<LoadDatabase> {
  const dir = await mkdtemp(path.join(tmpdir(), 'portal-load-'));
  try {
    const database = await openDatabase({ dataDir: dir });
    await migrate(database);
    return {
      database,
      where: dir,
      async drop() {
        await database.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function withAdminClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Throws when the server cannot be reached; the caller turns that into a skip note. */
export async function openServerDatabase(serverUrl: string): Promise<LoadDatabase> {
  const name = `bench_load_${randomBytes(5).toString('hex')}`;
  await withAdminClient(serverUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const dropDatabase = () => withAdminClient(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    const database = await openDatabase({ url: url.toString() });
    try {
      await migrate(database);
    } catch (error) {
      await database.close();
      throw error;
    }
    return {
      database,
      where: name,
      async drop() {
        await database.close();
        await dropDatabase();
      },
    };
  } catch (error) {
    await dropDatabase();
    throw error;
  }
}
