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

/**
 * Migrations whose comments were reworded after they were applied, their SQL unchanged: a
 * database that applied one keeps the checksum of its first wording (`applied`), which still
 * passes as long as the file's statements (every line but whole-line comments) hash to what
 * they did then (`statements`). Anything else changed in such a file is refused like any edit.
 */
export const REWORDED_MIGRATIONS: Readonly<Record<string, { applied: string; statements: string }>> = {
  '0015_customer_self_service.sql': {
    applied: '06d274c421fb2b9f4766c17e5e9a2142f18846878f82fbad549c6f52cd23768f',
    statements: '40c4a5063a56e79cbdf013eb151207705323539457b2e7b63a12ad9489675a8d',
  },
  '0016_alerts_and_webhooks.sql': {
    applied: 'c78e3cbb49a666bc970561c08cec25359a3f0298e0ee35e39592bcc9b159dccf',
    statements: '73988c2087261a1bb67e5565b50b49bc1fce50acb9017c8eab82138de1931d0e',
  },
  '0017_billing.sql': {
    applied: '7d42bf6c7eda3310e5278a37d0a739bf22f25e648fca8f9d6b39fe1d9abfbaf8',
    statements: '1e8146ecb4ddbf8e923aad85237e52ed4ee9d8332d7841953eb3faa74d4a76ed',
  },
  '0018_audit_log_by_action.sql': {
    applied: 'f5b67fe0fc8076b2edd20a7a0296f50bebbf7f03c9e8949178e2c56df3335734',
    statements: 'c66566a3fdff0cc8132a311c5c4c847124bc984c5afca518314bc8fd4a43866b',
  },
  '0019_bulk_operations.sql': {
    applied: '4f33a1e386bac9c852504bd6f5f55348235da620f989c4d8a1c226375b5cb454',
    statements: 'ad3b51b7b8eae80a1d881a3d232e5172037231b572caed6d23f8b028cd342398',
  },
};

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A migration's statements: every line but whole-line `--` comments. */
export const statementsOf = (sql: string) =>
  sql
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n');

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
    files.push({ version, name, sql, checksum: sha256(sql) });
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
  const reworded = REWORDED_MIGRATIONS[file.name];
  const onlyReworded = reworded !== undefined && checksum === reworded.applied && sha256(statementsOf(file.sql)) === reworded.statements;
  if (checksum !== file.checksum && !onlyReworded) {
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
