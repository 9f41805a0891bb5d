// Applies the ordered SQL files in ./migrations, each in its own transaction, and records them in
// schema_migrations. Every transaction first takes one advisory lock, so two processes starting
// together on one PostgreSQL server take turns; the loser then finds the version row already
// there and moves on.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { asc } from 'drizzle-orm';
import type { Database } from './client';
import { schemaMigrations } from './schema';

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Arbitrary constant shared by every process running these migrations. */
const MIGRATION_LOCK_KEY = 720_150_001;
const FILE_PATTERN = /^(\d{4})_([a-z0-9_]+)\.sql$/;

export interface MigrationFile {
  version: number;
  name: string;
  checksum: string;
  sql: string;
}

export interface MigrateOptions {
  dir?: string;
  log?: (message: string) => void;
}

export interface MigrateResult {
  /** File names applied by this call, in order. */
  applied: string[];
  /** Highest version now in the database. */
  version: number;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export async function readMigrationFiles(dir: string = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const entries = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const files: MigrationFile[] = [];
  for (const name of entries) {
    const match = FILE_PATTERN.exec(name);
    if (!match) throw new MigrationError(`Migration file name "${name}" must look like 0001_some_name.sql`);
    // Line endings are normalised so a checkout with CRLF does not count as an edited file.
    const sql = (await readFile(path.join(dir, name), 'utf8')).replace(/\r\n/g, '\n');
    const version = Number(match[1]);
    if (files.some((f) => f.version === version)) throw new MigrationError(`Two migration files share version ${version}`);
    files.push({ version, name, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return files;
}

export async function migrate(database: Database, options: MigrateOptions = {}): Promise<MigrateResult> {
  const files = await readMigrationFiles(options.dir);
  const lock = `SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY});`;
  await database.exec(`BEGIN;
${lock}
CREATE TABLE IF NOT EXISTS schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  checksum text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
);
COMMIT;`);

  const applied: string[] = [];
  let known = await appliedVersions(database);
  for (const file of files) {
    const existing = known.get(file.version);
    if (existing) {
      assertUnchanged(file, existing.checksum);
      continue;
    }
    try {
      // Name and checksum come from the file-name pattern and a hex digest: safe as literals.
      await database.exec(`BEGIN;
${lock}
INSERT INTO schema_migrations (version, name, checksum) VALUES (${file.version}, '${file.name}', '${file.checksum}');
${file.sql}
;
COMMIT;`);
    } catch (error) {
      known = await appliedVersions(database);
      const raced = known.get(file.version);
      if (!raced) {
        throw new MigrationError(`Migration ${file.name} failed: ${(error as Error).message}`, { cause: error });
      }
      // Another process applied it while this one waited for the lock.
      assertUnchanged(file, raced.checksum);
      continue;
    }
    applied.push(file.name);
    options.log?.(`Applied migration ${file.name}`);
  }
  known = await appliedVersions(database);
  return { applied, version: Math.max(0, ...known.keys()) };
}

function assertUnchanged(file: MigrationFile, checksum: string): void {
  if (checksum !== file.checksum) {
    throw new MigrationError(
      `Migration ${file.name} was changed after it was applied (checksum differs). ` +
        'Applied migrations are immutable: restore the file and add a new numbered migration instead.',
    );
  }
}

async function appliedVersions(database: Database): Promise<Map<number, { name: string; checksum: string }>> {
  const rows = await database.db
    .select({ version: schemaMigrations.version, name: schemaMigrations.name, checksum: schemaMigrations.checksum })
    .from(schemaMigrations)
    .orderBy(asc(schemaMigrations.version));
  return new Map(rows.map((r) => [r.version, { name: r.name, checksum: r.checksum }]));
}
