// The 'terminal-sync' worker: runs an inventory run and, when it succeeded, queues a usage run so
// the caps and usage figures follow the fresh inventory.
import { TERMINAL_SYNC_MESSAGES, type SyncDispatcher, type TerminalSyncService } from '../services/terminal-sync';
import type { Clock } from '../clock';
import type { SyncRunsRepository } from '../db/repositories/sync-runs';
import type { JobLog } from './queue';
import { createRunWorker, type RunWorker } from './run-worker';

export function createTerminalSyncWorker(deps: {
  runs: SyncRunsRepository;
  sync: TerminalSyncService;
  dispatcher: SyncDispatcher;
  now: Clock;
  log: JobLog;
  heartbeatMs?: number;
}): RunWorker {
  return createRunWorker({
    runs: deps.runs,
    now: deps.now,
    log: deps.log,
    dispatcher: deps.dispatcher,
    heartbeatMs: deps.heartbeatMs,
    failureSummary: TERMINAL_SYNC_MESSAGES.syncFailed,
    engine: (tracker) => deps.sync.syncInventory(tracker),
    async onSucceeded(run) {
      // Already queued or running: that one reads the lines just written anyway.
      await deps.sync.tryStart({ kind: 'usage', trigger: run.trigger, requestedBy: run.requestedBy });
    },
  });
}
