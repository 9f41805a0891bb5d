// pg-boss 10 marks a finished job done without awaiting it, so the queue's stop() could return
// while that statement still ran, and closing the database next failed it (an unhandled rejection
// in CI). The queue's executor counts the statements in flight and stop() waits for them.
import { describe, expect, it } from 'vitest';
import { settling } from '../../server/jobs/queue';

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
