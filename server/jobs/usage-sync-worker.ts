// The 'usage-sync' worker: reads billing-cycle and daily usage for the stored service lines.
import { TERMINAL_SYNC_MESSAGES, type SyncDispatcher, type TerminalSyncService } from '../services/terminal-sync';
import type { Clock } from '../clock';
import type { SyncRunsRepository } from '../db/repositories/sync-runs';
import type { JobLog } from './queue';
import { createRunWorker, type RunWorker } from './run-worker';

export function createUsageSyncWorker(deps: {
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
    failureSummary: TERMINAL_SYNC_MESSAGES.usageFailed,
    engine: (tracker) => deps.sync.syncUsage(tracker),
  });
}
