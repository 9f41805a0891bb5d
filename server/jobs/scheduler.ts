// Starts sync runs on their own. Inventory: once on the first start with an empty inventory (so
// the demo has terminals), then whenever the last run started more than SYNC_INTERVAL ago. Usage:
// every inventory run that succeeds queues one, and besides that one starts whenever the last
// usage run started more than USAGE_SYNC_INTERVAL ago (usage moves daily; the inventory rarely).
// The per-minute tick asks; the unique index on sync_runs keeps a second run of a kind out when
// two processes ask at once, and a manual run counts as "the last one" like any other.
import type { Clock } from '../clock';
import type { SyncRunsRepository } from '../db/repositories/sync-runs';
import type { SyncRunRow } from '../db/schema';
import type { TerminalSyncService } from '../services/terminal-sync';

export interface Scheduler {
  /** On start-up: a run when nothing was ever synced. */
  startup(): Promise<SyncRunRow | null>;
  /** On each tick: an inventory run when SYNC_INTERVAL has passed since the last one started. */
  tick(): Promise<SyncRunRow | null>;
  /** On each tick, after `tick`: a usage run when USAGE_SYNC_INTERVAL has passed since the last one started. */
  tickUsage(): Promise<SyncRunRow | null>;
}

/** Nothing of the kind queued or running, and the last run started at least `intervalMs` ago (or never ran). */
function isDue(last: SyncRunRow | null, intervalMs: number, at: Date): boolean {
  if (!last) return true;
  if (last.status === 'queued' || last.status === 'running') return false;
  const lastStart = last.startedAt ?? last.queuedAt;
  return at.getTime() - lastStart.getTime() >= intervalMs;
}

export function createScheduler(deps: {
  runs: SyncRunsRepository;
  sync: Pick<TerminalSyncService, 'tryStart' | 'inventoryIsEmpty'>;
  now: Clock;
  /** Null: automatic syncs are off (SYNC_INTERVAL=off), usage ones included. */
  intervalMs: number | null;
  /** Null: usage runs only follow inventory runs (USAGE_SYNC_INTERVAL=off). */
  usageIntervalMs: number | null;
}): Scheduler {
  const { runs, sync, now, intervalMs, usageIntervalMs } = deps;
  return {
    async startup() {
      if (intervalMs === null || !(await sync.inventoryIsEmpty())) return null;
      return sync.tryStart({ kind: 'inventory', trigger: 'startup', requestedBy: null });
    },
    async tick() {
      if (intervalMs === null) return null;
      if (!isDue(await runs.latest('inventory'), intervalMs, now())) return null;
      return sync.tryStart({ kind: 'inventory', trigger: 'schedule', requestedBy: null });
    },
    async tickUsage() {
      if (intervalMs === null || usageIntervalMs === null) return null;
      // An inventory run queues a usage run when it succeeds. One started now could read the lines
      // before that run writes them, and would then keep the follow-up run out (one at a time).
      if (await runs.active('inventory')) return null;
      if (!isDue(await runs.latest('usage'), usageIntervalMs, now())) return null;
      return sync.tryStart({ kind: 'usage', trigger: 'schedule', requestedBy: null });
    },
  };
}
