// The two sync workers over one run worker (run-worker.ts): 'terminal-sync' runs an inventory run
// and, when it succeeded, queues a usage run so caps and usage follow the fresh inventory (and,
// after the first-start run, lets the demo hand out its terminals); 'usage-sync' reads billing-cycle and daily usage for the stored service lines.
import { TERMINAL_SYNC_MESSAGES, type SyncDispatcher, type TerminalSyncService } from '../services/terminal-sync';
import type { Clock } from '../clock';
import type { SyncRunsRepository } from '../db/repositories/sync-runs';
import type { SyncRunRow } from '../db/schema';
import type { JobLog } from './queue';
import { createRunWorker, type RunWorker } from './run-worker';

export interface SyncWorkerDeps {
  runs: SyncRunsRepository;
  sync: TerminalSyncService;
  dispatcher: SyncDispatcher;
  now: Clock;
  log: JobLog;
  heartbeatMs?: number;
  /** After the first-start inventory run succeeded (the demo hands out its terminals). */
  afterStartupSync?: () => Promise<unknown>;
  /** After any run ended, succeeded or failed (the alert evaluation is queued). */
  afterSync?: () => void;
}

/**
 * The two kinds share one lane: a run of one kind refused while the other ran waits queued with
 * no job; the worker that lets go of the lane gives it one again.
 */
async function dispatchWaiting(deps: SyncWorkerDeps, finished: SyncRunRow): Promise<void> {
  for (const run of await deps.runs.queued()) {
    if (run.kind !== finished.kind) await deps.dispatcher.dispatch(run);
  }
}

const common = (deps: SyncWorkerDeps) => {
  const { runs, now, log, dispatcher, heartbeatMs } = deps;
  return {
    runs,
    now,
    log,
    dispatcher,
    heartbeatMs,
    afterRun: async (run: SyncRunRow) => {
      await dispatchWaiting(deps, run);
      deps.afterSync?.();
    },
  };
};

export function createTerminalSyncWorker(deps: SyncWorkerDeps): RunWorker {
  return createRunWorker({
    ...common(deps),
    failureSummary: TERMINAL_SYNC_MESSAGES.syncFailed,
    engine: (tracker) => deps.sync.syncInventory(tracker),
    async onSucceeded(run) {
      // Already queued or running: that one reads the lines just written anyway.
      await deps.sync.tryStart({ kind: 'usage', accountId: run.accountId, trigger: run.trigger, requestedBy: run.requestedBy });
      if (run.trigger === 'startup') await deps.afterStartupSync?.();
    },
  });
}

export function createUsageSyncWorker(deps: SyncWorkerDeps): RunWorker {
  return createRunWorker({
    ...common(deps),
    failureSummary: TERMINAL_SYNC_MESSAGES.usageFailed,
    engine: (tracker) => deps.sync.syncUsage(tracker),
  });
}
