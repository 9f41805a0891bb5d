// The upgrade from the previous release, on a database that release really wrote (upgrade/fixtures:
// its own server, killed halfway through an inventory sync, and its own queue given three jobs).
// Today's server starts on it as an operator would, and the portal carries on: the administrator
// signs in (an Owner now, as every administrator of the two-role days), the interrupted sync resumes and finishes (under provider
// account one, which now holds everything the single account held), the jobs queued before the upgrade run
// after it, the one due in 2040 keeps its time and waits, and the per-minute schedule is there.
// Embedded PGlite by default; PostgreSQL, restored from its pg_dump, when TEST_DATABASE_URL is set.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/client';
import { rowsOf } from '../../server/db/repositories/results';
import { JOB_QUEUE_SCHEMA } from '../../server/jobs/queue';
import { login } from './crash/writer';
import { startServer, type ServerProcess } from './crash/server-process';
import { createScratchPostgres, TEST_DATABASE_URL, useTestSettingsIn } from './helpers';
import { FIXTURE_ADMIN, FIXTURE_JOBS, FIXTURE_JWT_SECRET } from './upgrade/fixture-facts';
import { restorePostgresFixture, unpackPgliteFixture } from './upgrade/restore';

const on = TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite';

let dataDir = '';
let scratch: Awaited<ReturnType<typeof createScratchPostgres>> | null = null;
let server: ServerProcess | undefined;

/** The previous release's database, put where today's server will look for it. */
async function restoreFixture(): Promise<void> {
  dataDir = await mkdtemp(path.join(tmpdir(), 'portal-upgrade-'));
  if (TEST_DATABASE_URL) {
    scratch = await createScratchPostgres('portal_upgrade');
    await restorePostgresFixture(scratch.url);
  } else {
    await unpackPgliteFixture(dataDir);
    // Opened three times here (two server lives and the check before or after).
    await useTestSettingsIn(dataDir);
  }
}

function open(): Promise<Database> {
  return scratch ? openDatabase({ url: scratch.url }) : openDatabase({ dataDir: path.join(dataDir, 'pglite') });
}

async function query<T>(database: Database, statement: ReturnType<typeof sql>): Promise<T[]> {
  return rowsOf<T>(await database.db.execute(statement));
}

interface Before {
  interruptedRunId: string;
  customers: number;
  terminals: number;
}

beforeAll(async () => {
  await restoreFixture();
});

afterAll(async () => {
  await server?.kill();
  await scratch?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`the upgrade from the previous release (${on})`, () => {
  it('starts on its database and carries on: the interrupted sync resumes, queued jobs run, timed ones keep their time', async () => {
    // What the previous release left, read before today's code touches it.
    let before: Before;
    {
      const database = await open();
      const [run] = await query<{ id: string }>(database, sql`SELECT id::text FROM sync_runs WHERE status = 'running'`);
      const [counts] = await query<{ customers: number; terminals: number }>(
        database,
        sql`SELECT (SELECT count(*)::int FROM customers) AS customers, (SELECT count(*)::int FROM terminals) AS terminals`,
      );
      const waiting = await query<{ id: string }>(database, sql`SELECT id::text FROM pgboss.job WHERE state = 'created'`);
      expect(waiting.map((job) => job.id)).toEqual(expect.arrayContaining(FIXTURE_JOBS.map((job) => job.id)));
      expect(run, 'the fixture holds a sync that was running when the server died').toBeDefined();
      before = { interruptedRunId: run!.id, customers: counts!.customers, terminals: counts!.terminals };
      await database.close();
    }

    server = await startServer({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      JWT_SECRET: FIXTURE_JWT_SECRET,
      LOG_LEVEL: 'info',
      CLIENT_DIR: path.join(dataDir, 'no-client'),
      SIM_SEED: 'upgrade-fixture',
      SIM_TERMINALS: '40',
      USAGE_HISTORY_CYCLES: '2',
    });
    const printed = server.output();
    expect(printed.slice(0, printed.indexOf('Portal ready at')), 'nothing went wrong on the way up').not.toMatch(/"level":\s*[56]0/);
    expect(printed).toMatch(/moved the jobs waiting in the previous release's queue/);

    // The administrator the previous release knew signs in with the same password.
    const token = await login(server.baseUrl, FIXTURE_ADMIN.email, FIXTURE_ADMIN.password);
    type Run = { id: string; status: string; message: string | null };
    let resumed: Run | undefined;
    // A short poll: the run ends a few seconds in, and each look is one small request.
    for (const deadline = Date.now() + 30_000; resumed?.status !== 'succeeded'; await sleep(50)) {
      const response = await fetch(`${server.baseUrl}/api/v1/terminals/sync/queue`, { headers: { authorization: `Bearer ${token}` } });
      const queue = ((await response.json()) as { data: { active: Run | null; recent: Run[] } }).data;
      resumed = [queue.active, ...queue.recent].find((run) => run?.id === before.interruptedRunId) ?? undefined;
      expect(resumed?.status, resumed?.message ?? '').not.toBe('failed');
      if (Date.now() > deadline) throw new Error(`the interrupted sync did not finish: ${JSON.stringify(resumed)}`);
    }
    expect(await server.stop()).toBe(0);
    server = undefined;

    const database = await open();
    try {
      const [run] = await query<{ status: string; attempts: number }>(
        database,
        sql`SELECT status, attempts FROM sync_runs WHERE id = ${before.interruptedRunId}`,
      );
      expect(run).toEqual({ status: 'succeeded', attempts: 2 });
      const [counts] = await query<{ customers: number; terminals: number }>(
        database,
        sql`SELECT (SELECT count(*)::int FROM customers) AS customers, (SELECT count(*)::int FROM terminals) AS terminals`,
      );
      expect(counts).toEqual({ customers: before.customers, terminals: before.terminals });

      // The single account of the previous release is provider account one, with everything it
      // held attached: today's settings (here the built-in simulator's first account) filled it in.
      const accounts = await query<{ id: number; kind: string; simulator_account: string | null; name: string }>(
        database,
        sql`SELECT id, kind, simulator_account, name FROM provider_accounts ORDER BY id`,
      );
      expect(accounts[0]).toEqual({ id: 1, kind: 'simulator', simulator_account: 'us', name: 'Demo US' });
      const [attached] = await query<{ terminals: number; lines: number; runs: number; elsewhere: number }>(
        database,
        sql`SELECT (SELECT count(*)::int FROM terminals WHERE account_id = 1) AS terminals,
                   (SELECT count(*)::int FROM service_lines WHERE account_id = 1) AS lines,
                   (SELECT count(*)::int FROM sync_runs WHERE account_id = 1 AND id = ${before.interruptedRunId}) AS runs,
                   (SELECT count(*)::int FROM terminals WHERE account_id <> 1) AS elsewhere`,
      );
      expect(attached).toMatchObject({ terminals: before.terminals, runs: 1, elsewhere: 0 });
      expect(attached!.lines).toBeGreaterThan(0);

      // Nobody's access changed: every administrator of the two-role days is an Owner, every
      // other portal user a read-only Admin, and each holds that one role only.
      const held = await query<{ role: string; keys: string[] }>(
        database,
        sql`SELECT u.role, array_agg(r.key ORDER BY r.key) AS keys FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id GROUP BY u.id, u.role`,
      );
      const [everyone] = await query<{ users: number }>(database, sql`SELECT count(*)::int AS users FROM users`);
      expect(held).toHaveLength(everyone!.users);
      for (const user of held) expect(user.keys).toEqual([user.role === 'admin' ? 'owner' : 'admin_read_only']);
      expect(held.filter((user) => user.role === 'admin').length).toBeGreaterThan(0);

      // Each job the previous release queued is in today's queue, under its own id.
      const queue = sql.identifier(JOB_QUEUE_SCHEMA);
      type JobRow = { id: string; name: string; state: string; start_after: Date | string; keep_until: Date | string };
      const ids = `{${FIXTURE_JOBS.map((job) => job.id).join(',')}}`;
      const jobs = await query<JobRow>(
        database,
        sql`SELECT id::text, name, state::text, start_after, keep_until FROM ${queue}.job WHERE id::text = ANY(${ids}::text[])`,
      );
      for (const job of FIXTURE_JOBS) {
        const found = jobs.find((row) => row.id === job.id);
        expect(found, `${job.queue} ${job.id}`).toBeDefined();
        expect(found!.name).toBe(job.queue);
        if (job.startAfter) {
          expect(found!.state, 'a job due in the future waits for its time').toBe('created');
          expect(new Date(found!.start_after).toISOString()).toBe(job.startAfter);
          // pg-boss keeps a waiting job 14 days past its start, as the previous release did.
          expect(new Date(found!.keep_until).getTime() - new Date(job.startAfter).getTime()).toBe(14 * 86_400_000);
        } else {
          expect(found!.state, 'a job due at once ran after the upgrade').toBe('completed');
        }
      }
      // Nothing is left waiting on the old side; the old queue itself stays, for a rollback.
      const leftBehind = await query<{ n: number }>(
        database,
        sql`SELECT count(*)::int AS n FROM pgboss.job WHERE state IN ('created', 'retry')`,
      );
      expect(leftBehind[0]!.n).toBe(0);
      const schedules = await query<{ name: string; cron: string; timezone: string }>(
        database,
        sql`SELECT name, cron, timezone FROM ${queue}.schedule`,
      );
      expect(schedules).toEqual([{ name: 'sync-tick', cron: '* * * * *', timezone: 'UTC' }]);
    } finally {
      await database.close();
    }
  }, 120_000);
});
