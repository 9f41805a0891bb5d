// pg-boss 10 marks a finished job done without awaiting it, so the queue's stop() could return
// while that statement still ran, and closing the database next failed it (an unhandled rejection
// in CI). The queue's executor counts the statements in flight and stop() waits for them; and a
// handler that outlasts pg-boss's own stop timeout is waited for too (its late completion failed a
// closed pool in CI: "Cannot use a pool after calling end on the pool"); and so is a job whose fetch was
// still on its way when stop() began (the same failure, seen in CI after the first fix).
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createJobQueue, settling } from '../../server/jobs/queue';
import { createTestDatabase, type TestDatabase } from './helpers';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * Runs `body` on a fresh database, then closes that database and waits a few turns: whatever the
 * queue left running fails then, as an unhandled rejection, which fails the test.
 */
async function withoutUnhandledRejections(body: (testDb: TestDatabase) => Promise<void>) {
  const testDb = await createTestDatabase();
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    await body(testDb);
    await testDb.drop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(unhandled).toEqual([]);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
}

describe("the job queue's executor", () => {
  it('settles only once every statement it started has answered, failed ones included', async () => {
    const finish: (() => void)[] = [];
    const executor = settling({
      executeSql: (text: string) =>
        new Promise((resolve, reject) => finish.push(() => (text === 'fail' ? reject(new Error('closed')) : resolve({ rows: [{ text }] })))),
    });
    const done = executor.executeSql('UPDATE job SET state = completed', []);
    const failed = executor.executeSql('fail', []).catch((error: Error) => error.message);
    let settled = false;
    const settling_ = executor.settled().then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    finish[0]!();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    finish[1]!();
    await settling_;
    expect(settled).toBe(true);
    expect(await done).toEqual({ rows: [{ text: 'UPDATE job SET state = completed' }] });
    expect(await failed).toBe('closed');
    // Nothing running: settles at once.
    await expect(executor.settled()).resolves.toBeUndefined();
  });
});

describe("the job queue's stop()", () => {
  it('returns only after a handler that outlasts the stop timeout has ended, so closing the database next fails nothing', async () => {
    await withoutUnhandledRejections(async (testDb) => {
      const queue = createJobQueue({ database: testDb.database, log: quiet, options: { pollingIntervalSeconds: 0.5, stopTimeoutSeconds: 1 } });
      await queue.start();
      let started = false;
      let endedAt = 0;
      let failedByStop = false;
      // The handler runs on until pg-boss has given up on it: its stop timeout passed and it failed
      // the job ("shut down while active"). Only then does it end, so it outlasts the timeout for
      // certain, and by no more than a poll (a fixed sleep had to outlast it on a slow machine too).
      await queue.work('alerts-evaluate', async (job) => {
        started = true;
        const deadline = Date.now() + 30_000;
        while (!failedByStop && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 25));
          const state = (await testDb.database.db.execute(sql`SELECT state FROM job_queue.job WHERE id = ${job.id}`)) as unknown as { rows: { state: string }[] };
          failedByStop = state.rows[0]?.state === 'failed';
        }
        endedAt = Date.now();
      });
      await queue.send('alerts-evaluate', { reason: 'sync' });
      const deadline = Date.now() + 10_000;
      while (!started && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(started).toBe(true);
      await queue.stop();
      const stoppedAt = Date.now();
      expect(failedByStop).toBe(true);
      expect(endedAt).toBeGreaterThan(0);
      expect(endedAt).toBeLessThanOrEqual(stoppedAt);
    });
  }, 60_000);
});

describe("the job queue's stop() during a fetch", () => {
  it('waits for a job whose fetch was still on its way when stop() began, and for its completion', async () => {
    await withoutUnhandledRejections(async (testDb) => {
      // pg-boss's fetch of the next job, held back so stop() begins while it is on its way. The
      // fetch is the statement that locks the next job (FOR UPDATE OF j SKIP LOCKED); pg-boss sends
      // it without parameters, which the PGlite executor runs through exec(), so both are watched.
      // (Matching any SKIP LOCKED caught pg-boss's flow audit instead, seconds later, after the job
      // had long been fetched and done.)
      let slowFetch = false;
      let fetching = false;
      const client = testDb.database.client as { query: (...args: unknown[]) => Promise<unknown> };
      const slowed = new Proxy(client, {
        get(target, property, receiver) {
          const value: unknown = Reflect.get(target, property, receiver);
          if ((property !== 'query' && property !== 'exec') || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
          return async (...args: unknown[]) => {
            if (slowFetch && typeof args[0] === 'string' && args[0].includes('FOR UPDATE OF j SKIP LOCKED')) {
              fetching = true;
              await new Promise((resolve) => setTimeout(resolve, 400));
            }
            return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          };
        },
      });
      const database = { ...testDb.database, client: slowed } as typeof testDb.database;
      const queue = createJobQueue({ database, log: quiet, options: { pollingIntervalSeconds: 0.5, stopTimeoutSeconds: 1 } });
      await queue.start();
      let handled = 0;
      await queue.work('alerts-evaluate', async () => {
        handled += 1;
        await new Promise((resolve) => setTimeout(resolve, 50));
      });
      slowFetch = true;
      const id = await queue.send('alerts-evaluate', { reason: 'sync' });
      const deadline = Date.now() + 10_000;
      while (!fetching && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(fetching).toBe(true);
      await queue.stop();
      // The job the fetch brought was handled and marked done before stop() returned.
      expect(handled).toBe(1);
      const done = (await testDb.database.db.execute(sql`SELECT state FROM job_queue.job WHERE id = ${id}`)) as unknown as { rows: { state: string }[] };
      expect(done.rows.map((row) => row.state)).toEqual(['completed']);
    });
  }, 60_000);
});
