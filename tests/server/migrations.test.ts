import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../../server/db/client';
import { createHash } from 'node:crypto';
import { migrate, MigrationError, MIGRATIONS_DIR, readMigrationFiles, REWORDED_MIGRATIONS, statementsOf, type MigrateResult } from '../../server/db/migrate';
import * as schema from '../../server/db/schema';
import { createTestDatabase, type TestDatabase } from './helpers';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'portal-migrations-'));
});

/**
 * One empty database migrated by these files, with what that first run answered. The tests of
 * what the migrations left behind read it, and those that edit a copy of the files after they were
 * applied migrate it again (an unchanged copy applies nothing, an edited one is refused before it
 * writes anything): none of them needs a database of its own. A test that changes it puts it back.
 */
let migratedByFiles: Promise<{ handle: TestDatabase; first: MigrateResult }> | null = null;
function migratedDatabase(): Promise<{ handle: TestDatabase; first: MigrateResult }> {
  migratedByFiles ??= (async () => {
    const handle = await createTestDatabase({ migrate: false });
    return { handle, first: await migrate(handle.database) };
  })();
  return migratedByFiles;
}
async function withMigratedDatabase(fn: (database: Database) => Promise<void>) {
  await fn((await migratedDatabase()).handle.database);
}

afterAll(async () => {
  if (migratedByFiles) await (await migratedByFiles).handle.drop();
  await rm(dir, { recursive: true, force: true });
});

async function rows<T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await database.db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** An empty database of its own, for a test that must see the migrations run on one. */
async function withDatabase(fn: (handle: TestDatabase) => Promise<void>) {
  const handle = await createTestDatabase({ migrate: false });
  try {
    await fn(handle);
  } finally {
    await handle.drop();
  }
}

/** A copy of the migration files to edit; with `first`, of only that many of them. */
async function copyMigrations(name: string, first?: number): Promise<string> {
  const target = path.join(dir, name);
  if (first === undefined) {
    await cp(MIGRATIONS_DIR, target, { recursive: true });
  } else {
    await mkdir(target);
    for (const file of (await readMigrationFiles()).slice(0, first)) await writeFile(path.join(target, file.name), file.sql);
  }
  return target;
}

describe('migrations', () => {
  it('applies every file once and nothing on a second run', async () => {
    const { handle, first } = await migratedDatabase();
    await withMigratedDatabase(async (database) => {
      expect(handle.database).toBe(database);
      const files = await readMigrationFiles();
      expect(first.applied).toEqual(files.map((f) => f.name));
      expect(first.version).toBe(files.at(-1)?.version);

      const second = await migrate(database);
      expect(second).toEqual({ applied: [], version: first.version });
      const recorded = await rows<{ version: number; name: string; checksum: string }>(
        database,
        sql`SELECT version, name, checksum FROM schema_migrations ORDER BY version`,
      );
      expect(recorded).toEqual(files.map((f) => ({ version: f.version, name: f.name, checksum: f.checksum })));
    });
  });

  it('refuses to run when an applied file has been edited', async () => {
    const copy = await copyMigrations('edited');
    await withMigratedDatabase(async (database) => {
      // The same files, applied already: nothing to do.
      await expect(migrate(database, { dir: copy })).resolves.toMatchObject({ applied: [] });
      const file = path.join(copy, '0001_accounts_and_audit.sql');
      await writeFile(file, `${await readFile(file, 'utf8')}\n-- an innocent-looking edit\n`);
      await expect(migrate(database, { dir: copy })).rejects.toThrow(/0001_accounts_and_audit\.sql was changed after it was applied/);
      await expect(migrate(database, { dir: copy })).rejects.toBeInstanceOf(MigrationError);
    });
  });

  it('keeps the SQL of the migrations whose comments were reworded as it was when they were applied', async () => {
    const files = await readMigrationFiles();
    for (const [name, reworded] of Object.entries(REWORDED_MIGRATIONS)) {
      const file = files.find((f) => f.name === name);
      expect(file, name).toBeDefined();
      expect(createHash('sha256').update(statementsOf(file!.sql)).digest('hex'), name).toBe(reworded.statements);
    }
  });

  it("starts a database that applied a reworded migration's first wording, and still refuses an edit of its SQL", async () => {
    const copy = await copyMigrations('reworded');
    const [name, reworded] = Object.entries(REWORDED_MIGRATIONS)[0]!;
    const files = await readMigrationFiles();
    await withMigratedDatabase(async (database) => {
      await expect(migrate(database, { dir: copy })).resolves.toMatchObject({ applied: [] });
      // As a database that applied the file before its comments were reworded holds it.
      await database.db.execute(sql`UPDATE schema_migrations SET checksum = ${reworded.applied} WHERE name = ${name}`);
      try {
        await expect(migrate(database, { dir: copy })).resolves.toMatchObject({ applied: [] });
        const file = path.join(copy, name);
        await writeFile(file, `${await readFile(file, 'utf8')}\nSELECT 1;\n`);
        await expect(migrate(database, { dir: copy })).rejects.toThrow(new RegExp(`${name.replace('.', '\\.')} was changed after it was applied`));
      } finally {
        // The shared database holds the checksum its own run recorded again.
        const current = files.find((f) => f.name === name)!.checksum;
        await database.db.execute(sql`UPDATE schema_migrations SET checksum = ${current} WHERE name = ${name}`);
      }
    });
  });

  it('rolls back a failing file completely and leaves the connection usable', async () => {
    // The first files and a broken one after them: what a failing file does to the files before
    // it in the same run does not depend on how many there are.
    const copy = await copyMigrations('failing', 3);
    await writeFile(path.join(copy, '0999_broken.sql'), 'CREATE TABLE half_done (id int);\nSELECT 1 / 0;\n');
    await withDatabase(async ({ database }) => {
      await expect(migrate(database, { dir: copy })).rejects.toThrow(/0999_broken\.sql failed: division by zero/);
      const tables = await rows<{ n: number }>(database, sql`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'half_done'`);
      expect(tables[0]?.n).toBe(0);
      const versions = await rows<{ version: number }>(database, sql`SELECT version FROM schema_migrations ORDER BY version`);
      expect(versions.map((v) => v.version)).not.toContain(999);
      // The earlier files stay applied: each file is its own transaction.
      expect(versions.map((v) => v.version)).toEqual([1, 2, 3]);
    });
  });

  it('lets two migrators start together and applies each file exactly once', async () => {
    await withDatabase(async (handle) => {
      const other = await handle.connectAgain();
      try {
        const [a, b] = await Promise.all([migrate(handle.database), migrate(other)]);
        const files = await readMigrationFiles();
        expect([...a.applied, ...b.applied].sort()).toEqual(files.map((f) => f.name).sort());
        const recorded = await rows<{ n: number }>(handle.database, sql`SELECT count(*)::int AS n FROM schema_migrations`);
        expect(recorded[0]?.n).toBe(files.length);
      } finally {
        await other.close();
      }
    });
  });

  it('creates the pg_trgm extension', async () => {
    await withMigratedDatabase(async (database) => {
      const ext = await rows<{ extname: string }>(database, sql`SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'`);
      expect(ext).toHaveLength(1);
    });
  });

  it('matches the Drizzle schema: same tables, columns and nullability', async () => {
    await withMigratedDatabase(async (database) => {
      const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable));
      expect(tables.length).toBeGreaterThanOrEqual(5);
      for (const table of tables) {
        const config = getTableConfig(table);
        const actual = await rows<{ column_name: string; is_nullable: string }>(
          database,
          sql`SELECT column_name, is_nullable FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ${config.name} ORDER BY column_name`,
        );
        const expected = config.columns
          .map((c) => ({ column_name: c.name, is_nullable: c.notNull ? 'NO' : 'YES' }))
          .sort((x, y) => x.column_name.localeCompare(y.column_name));
        expect({ table: config.name, columns: actual }).toEqual({ table: config.name, columns: expected });
      }
    });
  });

  it('gives terminals the sync storage settings of 0004: fastupdate on the trigram index, fillfactor 70, no sync_status index', async () => {
    await withMigratedDatabase(async (database) => {
      const options = await rows<{ relname: string; reloptions: string[] | string | null }>(
        database,
        sql`SELECT relname, reloptions FROM pg_class WHERE relname IN ('terminals', 'terminals_search_trgm_idx', 'terminals_sync_status_idx') ORDER BY relname`,
      );
      const text = (value: string[] | string | null) => (Array.isArray(value) ? value.join(',') : (value ?? ''));
      expect(options.map((o) => [o.relname, text(o.reloptions)])).toEqual([
        ['terminals', expect.stringContaining('fillfactor=70')],
        ['terminals_search_trgm_idx', expect.stringContaining('fastupdate=on')],
      ]);
      // The schema file says the same of the index.
      const config = getTableConfig(schema.terminals);
      expect(config.indexes.map((i) => i.config.name).sort()).toEqual([
        'terminals_account_line_idx',
        'terminals_account_live_idx',
        'terminals_customer_idx',
        'terminals_customer_live_idx',
        'terminals_live_line_idx',
        'terminals_removed_line_idx',
        'terminals_search_trgm_idx',
      ]);
      expect(config.indexes.find((i) => i.config.name === 'terminals_search_trgm_idx')?.config.with).toEqual({ fastupdate: true });
      // 0013: what the schema file cannot say of the customer's list index.
      const [live] = await rows<{ def: string }>(database, sql`SELECT pg_get_indexdef('terminals_customer_live_idx'::regclass) AS def`);
      expect(live?.def).toContain('(assigned_customer_id, service_line_number, user_terminal_id) INCLUDE (kit_serial_number, active, assigned_at) WHERE ((removed_at IS NULL) AND (assigned_customer_id IS NOT NULL))');
      // 0014: the customer's usage rows are read from their index alone.
      const [usageRows] = await rows<{ def: string }>(database, sql`SELECT pg_get_indexdef('customer_usage_rows_customer_idx'::regclass) AS def`);
      expect(usageRows?.def).toContain(
        '(customer_id, service_line_number, user_terminal_id) INCLUDE (location, terminal_type, plan, active, condition, sync_status, data_cap_amount, data_cap_unit, line_active, cycle_start, cycle_end, priority_gb, standard_gb, cycle_limit_gb, status, allowance_gb)',
      );
    });
  });

  it('enforces one live account per email, case-insensitively, and frees it on soft delete', async () => {
    await withMigratedDatabase(async (database) => {
      await database.exec("INSERT INTO users (email, name) VALUES ('Ana@Example.com', 'Ana')");
      await expect(database.exec("INSERT INTO users (email, name) VALUES ('ana@example.COM', 'Ana 2')")).rejects.toThrow(/users_email_live_uq/);
      await database.exec("UPDATE users SET deleted_at = now() WHERE email = 'Ana@Example.com'");
      await database.exec("INSERT INTO users (email, name) VALUES ('ana@example.com', 'Ana again')");
      await expect(database.exec("INSERT INTO users (email, name, role) VALUES ('x@example.com', 'X', 'owner')")).rejects.toThrow(/users_role_check/);
    });
  });
});
