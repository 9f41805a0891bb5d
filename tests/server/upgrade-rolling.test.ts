// A rolling restart across the upgrade, on PostgreSQL (the embedded database belongs to one
// process, so it has no rolling restart): a process of the previous release (its queue, pg-boss
// 10 in schema `pgboss`) and one of today's (pg-boss 12 in `job_queue`) share the database the
// previous release wrote. What the old one queues is either worked by it or moved across by the
// new one's tick; every job runs exactly once. Once the old one is gone, what it left waiting runs
// on the new side. And a rollback works: the previous release's queue starts again where it was.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import PgBossV10 from 'pg-boss-v10';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/client';
import { rowsOf } from '../../server/db/repositories/results';
import { createJobQueue, type JobQueue } from '../../server/jobs/queue';
import { createScratchPostgres, TEST_DATABASE_URL, until } from './helpers';
import { restorePostgresFixture } from './upgrade/restore';

const MIGRATIONS = path.join(import.meta.dirname, '../../server/db/migrations');
const QUEUE = 'alerts-evaluate';
const quiet = { info: () => {}, warn: () => {}, error: (...args: unknown[]) => console.error(...args) };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let scratch: Awaited<ReturnType<typeof createScratchPostgres>> | null = null;
let database: Database | undefined;
let current: JobQueue | undefined;
const old: PgBossV10[] = [];

beforeAll(async () => {
  if (!TEST_DATABASE_URL) return;
  scratch = await createScratchPostgres('portal_rolling');
  await restorePostgresFixture(scratch.url);
  database = await openDatabase({ url: scratch.url });
});

afterAll(async () => {
  await current?.stop().catch(() => undefined);
  for (const boss of old) await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
  await database?.close();
  await scratch?.drop();
});

/** A process of the previous release: its queue library on its schema, with its own connections. */
async function startOldProcess(): Promise<PgBossV10> {
  const boss = new PgBossV10({ connectionString: scratch!.url, max: 3 });
  boss.on('error', (error) => console.error('old queue', error));
  await boss.start();
  old.push(boss);
  return boss;
}

describe.skipIf(!TEST_DATABASE_URL)('a rolling restart from the previous release (PostgreSQL)', () => {
  it('shares the database with an old process: each job runs once, what the old one left runs on the new side, and a rollback starts', async () => {
    // Old and new processes share the portal's own tables as they are: the claim holds only for a
    // release that changes none of them. One that does needs new fixtures and another look at it.
    const applied = rowsOf<{ n: number }>(await database!.db.execute(sql`SELECT count(*)::int AS n FROM schema_migrations`))[0]!.n;
    const shipped = (await readdir(MIGRATIONS)).filter((file) => file.endsWith('.sql')).length;
    const why = 'a database migration since the previous release: check again whether old and new processes can share the database';
    expect(shipped, why).toBe(applied);

    const ran = new Map<string, string[]>();
    const record = (id: string, by: string) => ran.set(id, [...(ran.get(id) ?? []), by]);

    const before = await startOldProcess();
    await before.work<object>(QUEUE, { pollingIntervalSeconds: 0.5, batchSize: 1 }, async ([job]) => {
      record(job!.id, 'old');
      await sleep(20);
    });
    current = createJobQueue({ database: database!, log: quiet, options: { pollingIntervalSeconds: 0.5 } });
    await current.start();
    await current.work(QUEUE, async (job) => {
      record(job.id, 'new');
      await sleep(20);
    });
    // The new side's tick, faster than once a minute.
    let ticking = true;
    const ticks = (async () => {
      while (ticking) {
        await current!.adoptLegacy();
        await sleep(100);
      }
    })();

    // The old process keeps queueing while both run; the old and the new side each take some.
    const sent: string[] = [];
    for (let i = 0; i < 16; i++) {
      sent.push((await before.send(QUEUE, { reason: 'tick' }))!);
      await sleep(30);
    }
    await until('every job sent during the overlap ran', () => sent.every((id) => ran.has(id)));
    expect([...ran.entries()].filter(([, by]) => by.length > 1), 'a job ran twice').toEqual([]);
    const sides = new Set(sent.map((id) => ran.get(id)![0]));
    expect(sides, 'both sides worked jobs during the overlap').toEqual(new Set(['old', 'new']));

    // The old process goes, leaving jobs queued that it never worked.
    await before.offWork(QUEUE);
    const leftBehind: string[] = [];
    for (let i = 0; i < 5; i++) leftBehind.push((await before.send(QUEUE, { reason: 'rules' }))!);
    await before.stop({ graceful: true, wait: true, timeout: 2000 });
    await until('what the old process left ran on the new side', () => leftBehind.every((id) => ran.has(id)));
    expect(leftBehind.map((id) => ran.get(id))).toEqual(leftBehind.map(() => ['new']));
    ticking = false;
    await ticks;
    await current.stop();
    current = undefined;

    // Rollback: the previous release's queue starts on its own schema, beside the new one, and works.
    const rolledBack = await startOldProcess();
    const again = await rolledBack.send(QUEUE, { reason: 'tick' });
    await rolledBack.work<object>(QUEUE, { pollingIntervalSeconds: 0.5 }, async ([job]) => record(job!.id, 'rolled back'));
    await until('the rolled-back queue works', () => ran.has(again!));
    await rolledBack.stop({ graceful: true, wait: true, timeout: 2000 });
  }, 90_000);
});
