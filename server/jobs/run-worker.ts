// Runs one sync run for a job: claims it (queued → running, one more attempt, this worker's id),
// beats a heartbeat while the engine works, and records how it ended. Shared by the terminal-sync
// and usage-sync workers; what differs is the engine and what follows a success.
//
// How a run can end here:
// - succeeded or failed (with the reason in `message`): written by this worker;
// - the server shuts down: back to queued with the attempt not counted, and a new job, so the
//   next free worker (this server after a restart, or another one) runs it again from scratch;
// - another worker took it over (this one stopped beating for longer than the stale threshold):
//   nothing more is written, the new owner has it.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import type { SyncRunReport, SyncRunsRepository } from '../db/repositories/sync-runs';
import type { SyncRunRow } from '../db/schema';
import { isProviderError } from '../provider';
import { LostClaimError, runFailureMessage, type SyncDispatcher, type SyncOutcome, type SyncRunTracker } from '../services/terminal-sync';
import type { JobLog } from './queue';

/** The abort reason when the server stops: the run goes back to the queue. */
export class ShutdownError extends Error {
  override name = 'ShutdownError';
  constructor() {
    super('The server is shutting down');
  }
}

export interface RunWorkerDeps {
  runs: SyncRunsRepository;
  now: Clock;
  log: JobLog;
  /** The engine: reads the provider, writes the inventory, reports through the tracker. */
  engine: (tracker: SyncRunTracker) => Promise<SyncOutcome>;
  /** "Terminal sync failed", … : the start of a failed run's message. */
  failureSummary: string;
  dispatcher: SyncDispatcher;
  /** After a success (e.g. the inventory run queues a usage run). */
  onSucceeded?: (run: SyncRunRow) => Promise<void>;
  /**
   * After the run let go of the lane, however it ended: a run of the other kind that was refused
   * while this one ran is handed to the queue again.
   */
  afterRun?: (run: SyncRunRow) => Promise<void>;
  /** How often the heartbeat (with the latest progress) is written; default 5 s. */
  heartbeatMs?: number;
}

export interface RunWorker {
  /** The job handler: runs the run named by the job, if it is still queued. */
  handle(runId: string): Promise<void>;
  /** Aborts the runs in progress (they go back to the queue) and waits for them to let go. */
  stop(): Promise<void>;
}

export function createRunWorker(deps: RunWorkerDeps): RunWorker {
  const { runs, now, log } = deps;
  const heartbeatMs = deps.heartbeatMs ?? 5_000;
  const inProgress = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let stopping = false;

  async function execute(run: SyncRunRow, workerId: string, controller: AbortController): Promise<void> {
    let pending: SyncRunReport = {};
    const take = () => {
      const report = pending;
      pending = {};
      return report;
    };
    const lost = () => {
      if (!controller.signal.aborted) controller.abort(new LostClaimError(`Run ${run.id} was taken over by another worker`));
    };

    let beating: Promise<void> | null = null;
    const beat = () => {
      beating ??= (async () => {
        try {
          if (!(await runs.beat(run.id, workerId, now(), take()))) lost();
        } catch (error) {
          // A missed beat is not fatal: the next one, or the sweeper's patience, covers it.
          log.warn({ err: error, runId: run.id }, 'sync heartbeat failed');
        } finally {
          beating = null;
        }
      })();
    };
    const timer = setInterval(beat, heartbeatMs);

    const tracker: SyncRunTracker = {
      run,
      signal: controller.signal,
      report(update) {
        pending = { ...pending, ...update };
      },
      async checkpoint(tx: Db) {
        if (!(await runs.holdClaim(run.id, workerId, tx))) {
          lost();
          throw new LostClaimError(`Run ${run.id} was taken over by another worker`);
        }
        await runs.beat(run.id, workerId, now(), take(), tx);
      },
    };

    try {
      const outcome = await deps.engine(tracker);
      clearInterval(timer);
      await beating;
      const finished = await runs.finish(run.id, workerId, {
        status: 'succeeded',
        at: now(),
        message: outcome.message,
        counts: outcome.counts,
        providerCalls: outcome.providerCalls,
        phase: 'Finished',
        progress: 100,
      });
      if (!finished) {
        log.warn({ runId: run.id }, 'sync finished after its run was taken over; result dropped');
        return;
      }
      log.info({ runId: run.id, kind: run.kind, counts: outcome.counts, providerCalls: outcome.providerCalls }, 'sync succeeded');
      await deps.onSucceeded?.(finished).catch((error: unknown) => log.error({ err: error, runId: run.id }, 'after-sync step failed'));
    } catch (error) {
      clearInterval(timer);
      await beating;
      const reason: unknown = controller.signal.aborted ? controller.signal.reason : null;
      if (reason instanceof LostClaimError || error instanceof LostClaimError) {
        log.warn({ runId: run.id }, 'sync run taken over by another worker; stopping');
        return;
      }
      if (reason instanceof ShutdownError) {
        const requeued = await runs.requeue(run.id, {
          workerId,
          message: 'Interrupted by a server shutdown; it runs again from the start when a worker is free',
          uncountAttempt: true,
        });
        if (requeued) await deps.dispatcher.dispatch(requeued);
        log.info({ runId: run.id }, 'sync interrupted by shutdown; queued again');
        return;
      }
      const message = runFailureMessage(error, deps.failureSummary);
      // A provider outage is news, not a bug: the stack trace is for everything else.
      if (isProviderError(error)) log.warn({ runId: run.id, reason: message }, 'sync failed');
      else log.error({ err: error, runId: run.id }, 'sync failed');
      const report = take();
      await runs.finish(run.id, workerId, { ...report, status: 'failed', at: now(), message });
    }
  }

  return {
    async handle(runId) {
      if (stopping) return;
      const workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
      const run = await runs.claim(runId, workerId, now());
      // Not queued any more: another worker has it, or it already ended.
      if (!run) return;
      const controller = new AbortController();
      const done = execute(run, workerId, controller)
        .then(() => deps.afterRun?.(run))
        .catch((error: unknown) => log.error({ err: error, runId: run.id }, 'after-sync step failed'))
        .finally(() => inProgress.delete(run.id));
      inProgress.set(run.id, { controller, done });
      await done;
    },

    async stop() {
      stopping = true;
      const running = [...inProgress.values()];
      for (const { controller } of running) controller.abort(new ShutdownError());
      await Promise.allSettled(running.map((r) => r.done));
    },
  };
}
