// The server's PostgreSQL sessions (server/db/client.ts): JIT off on every pooled connection, so a
// statement-level trigger's large estimated cost does not compile LLVM code for a five-row update.
// PostgreSQL only (TEST_DATABASE_URL); PGlite has no JIT.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, withSessionOptions } from '../../server/db/client';
import { createScratchPostgres, createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from './helpers';

describe.skipIf(!TEST_DATABASE_URL)('the server’s PostgreSQL sessions', () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(async () => {
    await testDb?.drop();
  });

  it('have JIT off on every connection of the pool, however many are open at once', async () => {
    expect(testDb.database.kind).toBe('postgres');
    const { db } = testDb.database;
    // Ten transactions at once hold ten connections: every one of them is asked.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const settings: string[] = [];
    const pids = new Set<number>();
    const sessions = Array.from({ length: 10 }, () =>
      db.transaction(async (tx) => {
        const result = (await tx.execute(sql`SELECT current_setting('jit') AS jit, pg_backend_pid() AS pid`)) as unknown as { rows: { jit: string; pid: number }[] };
        settings.push(result.rows[0]!.jit);
        pids.add(result.rows[0]!.pid);
        if (settings.length === 10) release();
        await held;
      }),
    );
    await Promise.all(sessions);
    expect(pids.size).toBe(10);
    expect(settings).toEqual(Array.from({ length: 10 }, () => 'off'));
  });

  it("keep a DATABASE_URL's own startup options, with JIT off beside them", async () => {
    const scratch = await createScratchPostgres('session_options');
    const url = new URL(scratch.url);
    url.searchParams.set('options', '-c work_mem=8MB');
    const database = await openDatabase({ url: url.toString() });
    try {
      const result = (await database.db.execute(sql`SELECT current_setting('jit') AS jit, current_setting('work_mem') AS work_mem`)) as unknown as {
        rows: { jit: string; work_mem: string }[];
      };
      expect(result.rows[0]).toEqual({ jit: 'off', work_mem: '8MB' });
    } finally {
      await database.close();
      await scratch.drop();
    }
  });
});

describe('the session options joined to a database URL', () => {
  it('go beside the pool when the URL has none, into the URL when it has its own, and beside anything not a URL', () => {
    expect(withSessionOptions('postgres://u@h:5432/db')).toEqual({ connectionString: 'postgres://u@h:5432/db', options: '-c jit=off' });
    const joined = withSessionOptions('postgres://u@h:5432/db?options=-c%20work_mem%3D8MB&sslmode=disable');
    expect(joined.options).toBeUndefined();
    const params = new URL(joined.connectionString).searchParams;
    expect(params.get('options')).toBe('-c work_mem=8MB -c jit=off');
    expect(params.get('sslmode')).toBe('disable');
    expect(withSessionOptions('not a url')).toEqual({ connectionString: 'not a url', options: '-c jit=off' });
  });
});
