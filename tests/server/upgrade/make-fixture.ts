// Writes the database a release leaves behind, for the next release's upgrade test: the real server
// entry of the checked-out release runs on a fresh database (embedded, or PostgreSQL with
// DATABASE_URL), syncs its simulator's fleet, starts an inventory sync and is killed (SIGKILL) while
// that sync is in progress. Then the release's own job queue, with no workers, queues the work that
// must survive an upgrade: two jobs due now and one due at a fixed future time.
//
//   npx tsx tests/server/upgrade/make-fixture.ts pglite   <out.tar.xz>
//   DATABASE_URL=postgres://… npx tsx tests/server/upgrade/make-fixture.ts postgres <out.sql.gz>
//
// The PostgreSQL database in DATABASE_URL must exist and be empty; it is dumped with pg_dump. The
// fixture's README records the commit whose code ran this.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../../server/db/client';
import { rowsOf } from '../../../server/db/repositories/results';
import { createJobQueue } from '../../../server/jobs/queue';
import { login } from '../crash/writer';
import { startServer } from '../crash/server-process';
import { FIXTURE_ADMIN, FIXTURE_JOBS, FIXTURE_JWT_SECRET } from './fixture-facts';

const [mode, out] = process.argv.slice(2);
if ((mode !== 'pglite' && mode !== 'postgres') || !out) throw new Error('usage: make-fixture.ts pglite|postgres <out file>');
const databaseUrl = mode === 'postgres' ? process.env.DATABASE_URL : undefined;
if (mode === 'postgres' && !databaseUrl) throw new Error('DATABASE_URL names the empty PostgreSQL database to write');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
type Run = { id: string; kind: string; status: string; progress: number | null };

const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-upgrade-fixture-'));
const server = await startServer({
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  JWT_SECRET: FIXTURE_JWT_SECRET,
  ADMIN_EMAIL: FIXTURE_ADMIN.email,
  ADMIN_PASSWORD: FIXTURE_ADMIN.password,
  SEED_DEMO: '1',
  LOG_LEVEL: 'warn',
  CLIENT_DIR: path.join(dataDir, 'no-client'),
  SIM_SEED: 'upgrade-fixture',
  SIM_TERMINALS: '40',
  USAGE_HISTORY_CYCLES: '2',
  // Slow enough that the sync below is caught halfway.
  SIM_LATENCY_MS: '150',
});
const token = await login(server.baseUrl, FIXTURE_ADMIN.email, FIXTURE_ADMIN.password);
const api = async <T>(method: string, pathname: string): Promise<T> => {
  const response = await fetch(`${server.baseUrl}/api/v1${pathname}`, { method, headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { data: T };
  if (!response.ok) throw new Error(`${method} ${pathname} answered ${response.status}: ${JSON.stringify(body)}`);
  return body.data;
};
const queue = () => api<{ active: Run | null; recent: Run[] }>('GET', '/terminals/sync/queue');

// The first start's syncs, inventory then usage, and the demo's hand-out after them.
for (let deadline = Date.now() + 120_000; ; ) {
  const { active, recent } = await queue();
  const done = (kind: string) => recent.some((run) => run.kind === kind && run.status === 'succeeded');
  if (!active && done('inventory') && done('usage') && !recent.some((run) => run.status === 'queued' || run.status === 'running')) break;
  if (Date.now() > deadline) throw new Error('the first sync did not finish');
  await sleep(200);
}
await sleep(2000);

await api('POST', '/terminals/sync');
let inProgress: Run | null = null;
for (let deadline = Date.now() + 60_000; !inProgress; ) {
  const { active } = await queue();
  // Caught once it has made some progress, so the resumed run starts again from part-way.
  if (active?.status === 'running' && (active.progress ?? 0) > 0) inProgress = active;
  else if (Date.now() > deadline) throw new Error('the sync did not start');
  else await sleep(20);
}
await server.kill();
console.log(`killed the server while sync run ${inProgress.id} was running`);

// The release's own queue, no workers: what it writes is what a running portal writes.
const database = databaseUrl ? await openDatabase({ url: databaseUrl }) : await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
const jobs = createJobQueue({ database, log: { info: () => {}, warn: console.warn, error: console.error } });
await jobs.start();
const caught = await database.db.execute(sql`select status from sync_runs where id = ${inProgress.id}`);
if (rowsOf<{ status: string }>(caught)[0]?.status !== 'running') throw new Error(`the sync ended before the kill (${JSON.stringify(rowsOf(caught))}); make the simulator slower`);
for (const job of FIXTURE_JOBS) {
  await jobs.send(job.queue, job.payload as never, { id: job.id, ...(job.startAfter ? { startAfter: new Date(job.startAfter) } : {}) });
}
await jobs.stop();
await database.close();

if (mode === 'pglite') {
  execFileSync('tar', ['-cJf', path.resolve(out), '--exclude=portal.lock', '-C', dataDir, 'pglite']);
} else {
  const dump = execFileSync('pg_dump', ['--no-owner', '--no-privileges', databaseUrl!], { maxBuffer: 1 << 30 });
  await writeFile(out, gzipSync(dump, { level: 9 }));
}
await rm(dataDir, { recursive: true, force: true });
console.log(`wrote ${out}`);
