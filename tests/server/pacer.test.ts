// The pacer of background writes (server/services/pacer.ts) on a scripted clock: each transaction
// sized from the last one's pace, and on the embedded database a rest after each, as long as it took.
import { describe, expect, it } from 'vitest';
import { createPacer, nextPacedSize, PACED_TRANSACTION_MS } from '../../server/services/pacer';

const BOUNDS = { first: 40, min: 5, max: 400 };

function scripted(msPerItem: number, restRatio?: number, wanted?: () => boolean) {
  let now = 0;
  const rests: number[] = [];
  const pacer = createPacer(BOUNDS, {
    monotonic: () => now,
    restRatio,
    wanted,
    sleep: async (ms) => {
      rests.push(ms);
      now += ms;
    },
  });
  const transaction = (available: number) => (size: number) => {
    const items = Math.min(size, available);
    now += items * msPerItem;
    return Promise.resolve(items);
  };
  return { pacer, rests, transaction };
}

describe('the pacer of background writes', () => {
  it('sizes each transaction from the last full one, towards the target time', async () => {
    const { pacer, transaction } = scripted(2);
    expect(pacer.size).toBe(BOUNDS.first);
    await pacer.timed(transaction(1_000));
    // 40 items took 80 ms: 10 make the 20 ms target.
    expect(pacer.size).toBe(PACED_TRANSACTION_MS / 2);
    // A short tail (fewer items than asked) teaches nothing.
    await pacer.timed(transaction(3));
    expect(pacer.size).toBe(10);
  });

  it('rests after each transaction as long as it took, times the ratio, and not after an empty one', async () => {
    const embedded = scripted(1, 1);
    await embedded.pacer.timed(embedded.transaction(1_000));
    await embedded.pacer.timed(embedded.transaction(1_000));
    await embedded.pacer.timed(embedded.transaction(0));
    expect(embedded.rests).toEqual([40, 20]);

    // A request doing the work itself does not rest.
    await embedded.pacer.timed(embedded.transaction(1_000), { rest: false });
    expect(embedded.rests).toEqual([40, 20]);

    const server = scripted(1, 0);
    await server.pacer.timed(server.transaction(1_000));
    expect(server.rests).toEqual([]);
  });

  it('rests only while someone is waiting for the thread', async () => {
    let waiting = false;
    const embedded = scripted(1, 1, () => waiting);
    await embedded.pacer.timed(embedded.transaction(1_000));
    expect(embedded.rests).toEqual([]);
    waiting = true;
    await embedded.pacer.timed(embedded.transaction(1_000));
    expect(embedded.rests).toEqual([20]);
    waiting = false;
    await embedded.pacer.timed(embedded.transaction(1_000));
    expect(embedded.rests).toEqual([20]);
  });

  it('keeps the next size within its bounds and at most doubles it', () => {
    expect(nextPacedSize(BOUNDS, 100, PACED_TRANSACTION_MS)).toBe(100);
    expect(nextPacedSize(BOUNDS, 100, 0)).toBe(200);
    expect(nextPacedSize(BOUNDS, 300, 1)).toBe(BOUNDS.max);
    expect(nextPacedSize(BOUNDS, 5, 10_000)).toBe(BOUNDS.min);
  });
});
