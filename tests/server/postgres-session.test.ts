// The server's PostgreSQL sessions (server/db/client.ts): JIT off on every pooled connection, so a
// statement-level trigger's large estimated cost does not compile LLVM code for a five-row update.
// PostgreSQL only (TEST_DATABASE_URL); PGlite has no JIT.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from './helpers';

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
});
