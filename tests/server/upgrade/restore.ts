// The previous release's databases (./fixtures), put where today's code will look for them: the
// embedded one unpacked into a data directory, the PostgreSQL one restored from its pg_dump with
// psql, as an operator restores a dump.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');

/** Unpacks the embedded database into `dataDir`/pglite. */
export async function unpackPgliteFixture(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  execFileSync('tar', ['-xJf', path.join(FIXTURES, 'pglite.tar.xz'), '-C', dataDir]);
}

/** Restores the PostgreSQL dump into the empty database at `url`. */
export async function restorePostgresFixture(url: string): Promise<void> {
  const dump = gunzipSync(await readFile(path.join(FIXTURES, 'postgres.sql.gz')));
  execFileSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-d', url, '-f', '-'], { input: dump, stdio: ['pipe', 'ignore', 'pipe'] });
}
