// Finds sync runs no worker is looking after and gives them back to the queue, or gives up on
// them. Runs at start-up and on every per-minute tick, on whichever process gets the tick.
//
// - running, heartbeat older than the stale threshold: its worker died (or hangs). Queued again
//   to run from scratch while it has attempts left (3), else failed with why. Every write checks
//   the heartbeat is still old, so a worker that was only slow and beats again keeps its run.
// - queued, but no pg-boss job would run it: the job was lost (a crash between the run's insert
//   and its job, or a process that fetched the job and died before claiming it). Enqueued again.
//
// On PGlite only this process can have workers, so at start-up every running run is dead and
// every active job is an orphan: no need to wait for the threshold.
import type { Clock } from '../clock';
import type { SyncRunsRepository } from '../db/repositories/sync-runs';
import type { SyncRunRow } from '../db/schema';
import type { SyncDispatcher } from '../services/terminal-sync';
import { QUEUE_OF_KIND } from './contracts';
import type { JobLog, JobQueue } from './queue';

/** A run is tried this many times before the sweeper gives up on it. */
export const MAX_SYNC_ATTEMPTS = 3;

export interface SweepResult {
  resumed: string[];
  failed: string[];
  reenqueued: string[];
}

export interface Sweeper {
  sweep(options?: { startup?: boolean }): Promise<SweepResult>;
}

const ago = (run: SyncRunRow) => run.heartbeatAt?.toISOString() ?? 'never';

export function createSweeper(deps: {
  runs: SyncRunsRepository;
  queue: Pick<JobQueue, 'job'>;
  dispatcher: SyncDispatcher;
  now: Clock;
  log: JobLog;
  staleAfterMs: number;
  /** True on PGlite: nothing outside this process can be working. */
  singleProcess: boolean;
  maxAttempts?: number;
}): Sweeper {
  const { runs, now, log } = deps;
  const maxAttempts = deps.maxAttempts ?? MAX_SYNC_ATTEMPTS;

  return {
    async sweep(options = {}) {
      const result: SweepResult = { resumed: [], failed: [], reenqueued: [] };
      const at = now();
      const everything = options.startup === true && deps.singleProcess;
      const staleBefore = everything ? undefined : new Date(at.getTime() - deps.staleAfterMs);

      for (const run of await runs.staleRunning(staleBefore ?? null)) {
        if (run.attempts < maxAttempts) {
          const requeued = await runs.requeue(run.id, {
            staleBefore,
            message: `Attempt ${run.attempts} stopped responding (last heartbeat ${ago(run)}); running it again from the start`,
          });
          if (!requeued) continue;
          await deps.dispatcher.dispatch(requeued);
          result.resumed.push(run.id);
          log.warn({ runId: run.id, attempts: run.attempts }, 'stale sync run queued again');
        } else {
          const failed = await runs.abandon(run.id, {
            from: 'running',
            staleBefore,
            at,
            message: `The sync stopped responding ${run.attempts} times (last heartbeat ${ago(run)}) and was given up. Start a new sync.`,
          });
          if (!failed) continue;
          result.failed.push(run.id);
          log.error({ runId: run.id, attempts: run.attempts }, 'stale sync run given up');
        }
      }

      // pg-boss keeps its own time (the database's); compare its dates with the wall clock.
      const orphanedBefore = Date.now() - deps.staleAfterMs;
      // A run waiting for the other kind to finish has no job on purpose: the worker of the
      // running one gives it one when it ends (and if that worker died, its run is stale above).
      const runningKinds = new Set((await runs.running()).map((r) => r.kind));
      for (const run of await runs.queued()) {
        const job = await deps.queue.job(QUEUE_OF_KIND[run.kind], run.id);
        const waiting = job !== null && (job.state === 'created' || job.state === 'retry');
        const beingClaimed = job !== null && job.state === 'active' && !everything && (job.startedOn?.getTime() ?? 0) > orphanedBefore;
        if (waiting || beingClaimed) continue;
        if (run.attempts >= maxAttempts) {
          const failed = await runs.abandon(run.id, {
            from: 'queued',
            at,
            message: `The sync was lost ${run.attempts} times before it could finish and was given up. Start a new sync.`,
          });
          if (failed) result.failed.push(run.id);
          continue;
        }
        if ([...runningKinds].some((kind) => kind !== run.kind)) continue;
        if (await deps.dispatcher.dispatch(run)) {
          result.reenqueued.push(run.id);
          log.warn({ runId: run.id, job: job?.state ?? 'none' }, 'queued sync run had no job; enqueued again');
        }
      }
      return result;
    },
  };
}
