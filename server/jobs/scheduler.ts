// Starts inventory runs on their own: once on the first start with an empty inventory (so the
// demo has terminals), then whenever the last run started more than SYNC_INTERVAL ago. The
// per-minute tick asks; the unique index on sync_runs keeps a second run out when two processes
// ask at once, and a manual run counts as "the last one" like any other.
import type { Clock } from '../clock';
import type { SyncRunsRepository } from '../db/repositories/sync-runs';
import type { SyncRunRow } from '../db/schema';
import type { TerminalSyncService } from '../services/terminal-sync';

export interface Scheduler {
  /** On start-up: a run when nothing was ever synced. */
  startup(): Promise<SyncRunRow | null>;
  /** On each tick: a run when the interval has passed since the last one started. */
  tick(): Promise<SyncRunRow | null>;
}

export function createScheduler(deps: {
  runs: SyncRunsRepository;
  sync: Pick<TerminalSyncService, 'tryStart' | 'inventoryIsEmpty'>;
  now: Clock;
  /** Null: automatic syncs are off (SYNC_INTERVAL=off). */
  intervalMs: number | null;
}): Scheduler {
  const { runs, sync, now, intervalMs } = deps;
  return {
    async startup() {
      if (intervalMs === null || !(await sync.inventoryIsEmpty())) return null;
      return sync.tryStart({ kind: 'inventory', trigger: 'startup', requestedBy: null });
    },
    async tick() {
      if (intervalMs === null) return null;
      const last = await runs.latest('inventory');
      if (last && (last.status === 'queued' || last.status === 'running')) return null;
      const lastStart = last ? (last.startedAt ?? last.queuedAt) : null;
      if (lastStart && now().getTime() - lastStart.getTime() < intervalMs) return null;
      return sync.tryStart({ kind: 'inventory', trigger: 'schedule', requestedBy: null });
    },
  };
}
