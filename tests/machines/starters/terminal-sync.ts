// Starts the terminalSync machine on a simulated clock with scripted queue, start and poll answers
// and recorded actions: shared by its actor tests and the pinned journeys of its model.
import { vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise, type SnapshotFrom } from 'xstate';
import { SYNC_POLL_INTERVAL_MS, type SyncJob } from '../../../src/domain/terminals';
import { terminalSyncMachine, type SyncJobOutcome, type SyncQueueOutcome, type SyncStartOutcome } from '../../../src/machines/terminal-sync';
import { syncJobFixture, syncQueueFixture } from '../../fixtures/terminals-client';

export const queued = syncJobFixture();
export const running = syncJobFixture({ status: 'running', phase: 'Reading user terminals (page 3)', progress: 40, startedAt: '2026-11-20T10:00:01.000Z' });
export const succeeded = syncJobFixture({
  status: 'succeeded',
  progress: 100,
  finishedAt: '2026-11-20T10:02:00.000Z',
  counts: { added: 2, updated: 5, unchanged: 90, removed: 0, failed: 0 },
});
export const failedJob = syncJobFixture({ status: 'failed', message: 'Provider unavailable', finishedAt: '2026-11-20T10:01:00.000Z' });

export const ok = <T>(data: T, message = 'ok') => ({ ok: true as const, status: 200, data, message });
export const refused = (status: number, message: string) => ({ ok: false as const, status, message });
export const nothingRunning: SyncQueueOutcome = ok(syncQueueFixture(null, [succeeded]));
export const started = (job: SyncJob = queued, message = 'Sync queued'): SyncStartOutcome => ({ ok: true, data: job, message });
export const alreadyRunning = refused(409, 'A terminal sync is already running');

export type Answer<T> = T | Error | 'hang';
export interface Answers {
  queue?: Array<Answer<SyncQueueOutcome>>;
  start?: Array<Answer<SyncStartOutcome>>;
  poll?: Array<Answer<SyncJobOutcome>>;
}

export function startSync(answers: Answers = {}) {
  const clock = new SimulatedClock();
  const calls: Array<{ name: string; input: unknown; signal: AbortSignal }> = [];
  const reloadList = vi.fn();
  const notifyFinished = vi.fn();
  const answer = <T, I>(name: string, list: Array<Answer<T>>) =>
    fromPromise<T, I>(async ({ input, signal }) => {
      calls.push({ name, input, signal });
      const made = calls.filter((c) => c.name === name).length;
      const next = list[Math.min(made - 1, list.length - 1)]!;
      if (next === 'hang') return new Promise<never>(() => {});
      if (next instanceof Error) throw next;
      return next;
    });
  const actor = createActor(
    terminalSyncMachine.provide({
      actors: {
        loadQueue: answer<SyncQueueOutcome, unknown>('loadQueue', answers.queue ?? [nothingRunning]),
        startSync: answer<SyncStartOutcome, unknown>('startSync', answers.start ?? [started()]),
        pollJob: answer<SyncJobOutcome, string>('pollJob', answers.poll ?? [ok(running)]),
      },
      actions: {
        reloadList: () => reloadList(),
        notifyFinished: (_, job) => notifyFinished(job),
      },
    }),
    { clock },
  ).start();
  const polls = () => calls.filter((c) => c.name === 'pollJob');
  /** Moves the clock on in poll-sized steps, letting each poll answer before the next. */
  const advance = async (ms: number) => {
    for (let left = ms; left > 0; left -= SYNC_POLL_INTERVAL_MS) {
      clock.increment(Math.min(left, SYNC_POLL_INTERVAL_MS));
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };
  return { actor, clock, calls, polls, advance, reloadList, notifyFinished };
}

export type Snapshot = SnapshotFrom<typeof terminalSyncMachine>;
export const isIdle = (s: Snapshot) => s.matches('idle');
export const isWaiting = (s: Snapshot) => s.matches({ running: 'waiting' });
export const sync = { type: 'user.sync' } as const;
export const dismiss = { type: 'user.dismissNotice' } as const;
