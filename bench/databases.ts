// The databases a benchmark runs on: the embedded PGlite (in memory) and, when TEST_DATABASE_URL
// is set, a throwaway database on that PostgreSQL server (created here, dropped afterwards), each
// migrated. BENCH_ONLY=pglite or BENCH_ONLY=postgres runs one of the two.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../server/db/client';
import { migrate } from '../server/db/migrate';

export type BenchDatabaseKind = 'pglite' | 'postgres';

async function withAdminClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** `run` on each database in turn; the answers in that order. */
export async function onEachDatabase<T>(prefix: string, run: (kind: BenchDatabaseKind, database: Database) => Promise<T>): Promise<T[]> {
  const only = process.env.BENCH_ONLY;
  const answers: T[] = [];
  if (only !== 'postgres') {
    const embedded = await openDatabase({ dataDir: 'memory://' });
    await migrate(embedded);
    try {
      answers.push(await run('pglite', embedded));
    } finally {
      await embedded.close();
    }
  }

  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl && only !== 'pglite') {
    const name = `${prefix}_${randomBytes(4).toString('hex')}`;
    await withAdminClient(serverUrl, (c) => c.query(`CREATE DATABASE ${name}`));
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const server = await openDatabase({ url: url.toString() });
    try {
      await migrate(server);
      answers.push(await run('postgres', server));
    } finally {
      await server.close();
      await withAdminClient(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    }
  }
  return answers;
}
