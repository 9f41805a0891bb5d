// The embedded database's client: Drizzle's queries run as prepared statements
// (server/db/pglite-statements.ts), and Drizzle's per-query type parsers are applied by the
// PGlite instance itself, so no query carries them (PGlite would copy its ~320 built-in parsers to
// merge them, about half a small query's cost), while every value reads as before: timestamps and
// dates as Drizzle converts them, and pg-boss's rows with PGlite's own Date objects.
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DRIZZLE_PARSERS, openDatabase, type Database } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';
import { users } from '../../server/db/schema';
import { pgliteExecutor } from '../../server/jobs/queue';
import { databaseImage, TEST_PGLITE_SETTINGS } from './helpers';

let database: Database | null = null;
afterEach(async () => {
  vi.restoreAllMocks();
  await database?.close();
  database = null;
});

async function embedded(): Promise<Database & { kind: 'pglite' }> {
  // From the empty cluster's image (initdb done once per run), migrated here as the server does.
  database = await openDatabase({ dataDir: 'memory://', settings: TEST_PGLITE_SETTINGS, image: await databaseImage('empty') });
  if (database.kind !== 'pglite') throw new Error('expected the embedded database');
  await migrate(database);
  return database;
}

describe('embedded database client', () => {
  it('starts with the settings it is given on top of PGlite’s own, and PostgreSQL’s defaults without', async () => {
    const db = await embedded();
    expect((await db.client.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]!.shared_buffers).toBe(TEST_PGLITE_SETTINGS.shared_buffers);
    // PGlite's own parameters are kept: its search path among them.
    expect((await db.client.query<{ search_path: string }>('SHOW search_path')).rows[0]!.search_path).toBe('public');
    await db.close();
    database = await openDatabase({ dataDir: 'memory://', image: await databaseImage('empty') });
    if (database.kind !== 'pglite') throw new Error('expected the embedded database');
    expect((await database.client.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]!.shared_buffers).toBe('128MB');
  });

  it('the instance applies every parser Drizzle sends with a query', async () => {
    const { db } = await embedded();
    // Drizzle's prepared PGlite query keeps the parsers it passes; a Drizzle upgrade adding one
    // would put it back on every query (correct, but slow) until DRIZZLE_PARSERS names it too.
    const prepared = db.select({ n: sql<number>`1` }).from(users).prepare('parsers_probe') as unknown as {
      queryConfig: { parsers: Record<string, unknown> };
      rawQueryConfig: { parsers: Record<string, unknown> };
    };
    const sent = [...Object.keys(prepared.queryConfig.parsers), ...Object.keys(prepared.rawQueryConfig.parsers)];
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((oid) => DRIZZLE_PARSERS[Number(oid)] === undefined)).toEqual([]);
  });

  it('runs Drizzle’s queries as prepared statements, in and out of transactions, never through PGlite’s own query', async () => {
    // PGlite's query is what Drizzle's parsers, or anything the prepared path does not handle, fall back to.
    const own = vi.spyOn(PGlite.prototype, 'query');
    const transaction = PGlite.prototype.transaction;
    const ownInTransaction = vi.fn();
    vi.spyOn(PGlite.prototype, 'transaction').mockImplementation(function (this: PGlite, callback) {
      return transaction.call(this, (tx) => {
        const txQuery = tx.query.bind(tx);
        tx.query = (text, params, options) => {
          ownInTransaction(text);
          return txQuery(text, params, options);
        };
        return callback(tx);
      });
    });
    const { db, client } = await embedded();
    own.mockClear();
    await db.select().from(users);
    await db.select().from(users);
    await db.execute(sql`SELECT now() AS at`);
    await db.transaction(async (tx) => {
      await tx.select().from(users);
      await tx.execute(sql`SELECT now() AS at`);
    });
    expect(own).not.toHaveBeenCalled();
    expect(ownInTransaction).not.toHaveBeenCalled();
    // Each text prepared once, however often it ran.
    const { rows } = await client.query<{ statement: string }>("SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%from \"users\"%'");
    expect(rows).toHaveLength(1);
  });

  it('reads timestamps, dates and intervals as Drizzle expects them', async () => {
    const { db } = await embedded();
    const [row] = await db
      .select({
        at: sql<string>`'2026-03-01T10:20:30Z'::timestamptz`,
        local: sql<string>`'2026-03-01 10:20:30'::timestamp`,
        day: sql<string>`'2026-02-28'::date`,
        span: sql<string>`'3 days'::interval`,
        days: sql<string[]>`ARRAY['2026-02-28'::date, '2024-02-29'::date]`,
      })
      .from(sql`(SELECT 1) AS one`);
    // Arrays of these types stay one text value too, as Drizzle's own parsers leave them.
    expect(row).toEqual({ at: '2026-03-01 10:20:30+00', local: '2026-03-01 10:20:30', day: '2026-02-28', span: '3 days', days: '{2026-02-28,2024-02-29}' });
    // A timestamptz column through Drizzle's mapping is a Date at the same instant.
    const [user] = await db
      .insert(users)
      .values({ email: 'parsers@example.com', name: 'Parsers', passwordHash: 'x', role: 'admin', createdAt: new Date('2026-03-01T10:20:30.123Z') })
      .returning({ createdAt: users.createdAt });
    expect(user?.createdAt).toEqual(new Date('2026-03-01T10:20:30.123Z'));
  });

  it('gives pg-boss PGlite’s own Date objects, with and without parameters', async () => {
    const { client } = await embedded();
    const executor = pgliteExecutor(client);
    const withParams = await executor.executeSql("SELECT $1::timestamptz AS at, '2026-02-28'::date AS day", ['2026-03-01T10:20:30Z']);
    expect(withParams.rows[0]).toEqual({ at: new Date('2026-03-01T10:20:30Z'), day: new Date('2026-02-28T00:00:00Z') });
    const withoutParams = await executor.executeSql("SELECT '2026-03-01T10:20:30Z'::timestamptz AS at, ARRAY['2026-03-01T10:20:30Z'::timestamptz] AS ats", []);
    expect(withoutParams.rows[0]).toEqual({ at: new Date('2026-03-01T10:20:30Z'), ats: [new Date('2026-03-01T10:20:30Z')] });
  });
});
