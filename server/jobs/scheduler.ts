// Starts sync runs on their own. Inventory: once on the first start with an empty inventory (so
// the demo has terminals), then whenever the last run started more than SYNC_INTERVAL ago. Usage:
// every inventory run that succeeds queues one, and besides that one starts whenever the last
// usage run started more than USAGE_SYNC_INTERVAL ago (usage moves daily; the inventory rarely).
// The per-minute tick asks; the unique index on sync_runs keeps a second run of a kind out when
// two processes ask at once, and a manual run counts as "the last one" like any other.
//
// Sized to the provider budget: a run that used C calls is followed by the next of its kind no
// sooner than C / (sync share × calls a minute) minutes after it started, so a kind's runs use at
// most the sync share on average; the effective interval is the larger of that and the configured
// one (src/domain/provider-budget.ts). The two kinds never run at once: the claim of a run waits
// while the other kind runs (sync-runs repository).
import { DEFAULT_SYNC_SHARE, isRunDue, type SyncBudgetShape } from '../../src/domain/provider-budget';
import type { Clock } from '../clock';
import type { SyncRunsRepository } from '../db/repositories/sync-runs';
import type { SyncRunRow } from '../db/schema';
import { PROVIDER_DEFAULTS } from '../provider';
import { lastRunOf } from '../services/sync-budget';
import type { TerminalSyncService } from '../services/terminal-sync';

export interface Scheduler {
  /** On start-up: a run when nothing was ever synced. */
  startup(): Promise<SyncRunRow | null>;
  /** On each tick: an inventory run when the effective SYNC_INTERVAL has passed since the last one started. */
  tick(): Promise<SyncRunRow | null>;
  /** On each tick, after `tick`: a usage run when the effective USAGE_SYNC_INTERVAL has passed since the last one started. */
  tickUsage(): Promise<SyncRunRow | null>;
}

/** The budget the schedule is sized to when none is given: the client's default limit and share. */
export const DEFAULT_SYNC_BUDGET: SyncBudgetShape = { requestsPerMinute: PROVIDER_DEFAULTS.requestsPerMinute, syncShare: DEFAULT_SYNC_SHARE };

/**
 * Nothing of the kind queued or running, and the last run started at least the effective interval
 * ago: the configured one, or longer when its calls at the sync share take longer (or never ran).
 */
function isDue(last: SyncRunRow | null, intervalMs: number, budget: SyncBudgetShape, at: Date): boolean {
  return isRunDue(lastRunOf(last), intervalMs, budget, at);
}

export function createScheduler(deps: {
  runs: SyncRunsRepository;
  sync: Pick<TerminalSyncService, 'tryStart' | 'inventoryIsEmpty'>;
  now: Clock;
  /** Null: automatic syncs are off (SYNC_INTERVAL=off), usage ones included. */
  intervalMs: number | null;
  /** Null: usage runs only follow inventory runs (USAGE_SYNC_INTERVAL=off). */
  usageIntervalMs: number | null;
  /** The provider budget the intervals are sized to, read on each tick (default DEFAULT_SYNC_BUDGET). */
  budget?: () => SyncBudgetShape;
}): Scheduler {
  const { runs, sync, now, intervalMs, usageIntervalMs } = deps;
  const budget = () => deps.budget?.() ?? DEFAULT_SYNC_BUDGET;
  return {
    async startup() {
      if (intervalMs === null || !(await sync.inventoryIsEmpty())) return null;
      return sync.tryStart({ kind: 'inventory', trigger: 'startup', requestedBy: null });
    },
    async tick() {
      if (intervalMs === null) return null;
      if (!isDue(await runs.latest('inventory'), intervalMs, budget(), now())) return null;
      return sync.tryStart({ kind: 'inventory', trigger: 'schedule', requestedBy: null });
    },
    async tickUsage() {
      if (intervalMs === null || usageIntervalMs === null) return null;
      // An inventory run queues a usage run when it succeeds. One started now could read the lines
      // before that run writes them, and would then keep the follow-up run out (one at a time).
      if (await runs.active('inventory')) return null;
      if (!isDue(await runs.latest('usage'), usageIntervalMs, budget(), now())) return null;
      return sync.tryStart({ kind: 'usage', trigger: 'schedule', requestedBy: null });
    },
  };
}
