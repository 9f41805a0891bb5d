// A job sent with `startAfter` (the next webhook retry's time) waits until then: the worker does
// not get it before, and gets it once the time has come — on PGlite's executor and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue, type JobQueue } from '../../server/jobs/queue';
import { createTestDatabase, type TestDatabase } from './helpers';

let testDb: TestDatabase;
let queue: JobQueue;
const ran: number[] = [];
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

beforeAll(async () => {
  testDb = await createTestDatabase();
  queue = createJobQueue({ database: testDb.database, log: quiet, options: { pollingIntervalSeconds: 0.5 } });
  await queue.start();
  await queue.work('webhook-deliver', async () => {
    ran.push(Date.now());
  });
}, 60_000);

afterAll(async () => {
  await queue?.stop();
  await testDb?.drop();
});

describe('a delayed job', () => {
  it('runs once its start time has come, not before', async () => {
    const sentAt = Date.now();
    const id = await queue.send('webhook-deliver', {}, { startAfter: new Date(sentAt + 2_000) });
    expect(id).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(ran).toEqual([]);
    expect((await queue.job('webhook-deliver', id!))?.state).toBe('created');
    const deadline = Date.now() + 10_000;
    while (ran.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ran).toHaveLength(1);
    expect(ran[0]! - sentAt).toBeGreaterThanOrEqual(1_900);
  }, 20_000);
});
