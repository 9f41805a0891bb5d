// Starts sync runs on their own, for each provider account whose syncs may run (enabled, set up,
// credentials not refused), each on its own schedule and its own budget. Inventory: once on the
// first start of an account with no terminals (so the demo has some), then whenever the account's
// last run started more than its interval (its own, else SYNC_INTERVAL) ago. Usage:
// every inventory run that succeeds queues one, and besides that one starts whenever the last
// usage run started more than USAGE_SYNC_INTERVAL ago (usage moves daily; the inventory rarely).
// The per-minute tick asks; the unique index on sync_runs keeps a second run of a kind out when
// two processes ask at once, and a manual run counts as "the last one" like any other.
//
// Sized to the provider budget: a run that used C calls is followed by the next of its kind no
// sooner than C / (sync share × calls a minute) minutes after it started, so a kind's runs use at
// most the sync share on average; the effective interval is the larger of that and the configured
// one (src/domain/provider-budget.ts). An account's two kinds never run at once: the claim of a run
// waits while the other kind runs for that account (sync-runs repository).
import { DEFAULT_SYNC_SHARE, isRunDue, type SyncBudgetShape } from '../../src/domain/provider-budget';
import type { Clock } from '../clock';
import type { SyncRunsRepository } from '../db/repositories/sync-runs';
import type { SyncRunRow } from '../db/schema';
import { PROVIDER_DEFAULTS } from '../provider';
import { lastRunOf } from '../services/sync-budget';
import type { TerminalSyncService } from '../services/terminal-sync';

export interface Scheduler {
  /** On start-up: a run for each account that never synced. */
  startup(): Promise<SyncRunRow[]>;
  /** On each tick: an inventory run for each account whose effective SYNC_INTERVAL has passed since its last one started. */
  tick(): Promise<SyncRunRow[]>;
  /** On each tick, after `tick`: a usage run for each account whose effective USAGE_SYNC_INTERVAL has passed. */
  tickUsage(): Promise<SyncRunRow[]>;
}

/** The budget the schedule is sized to when none is given: the client's default limit and share. */
export const DEFAULT_SYNC_BUDGET: SyncBudgetShape = { requestsPerMinute: PROVIDER_DEFAULTS.requestsPerMinute, syncShare: DEFAULT_SYNC_SHARE };

/** An account as the schedule reads it: its id, its own interval (null: the portal's) and its own budget. */
export interface ScheduledAccount {
  id: number;
  syncIntervalMinutes: number | null;
  requestsPerMinute: number;
}

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
  /**
   * The accounts whose syncs may run now (enabled, set up, credentials not refused), read on each
   * tick. Absent: account one alone, on the portal's settings (the tests' single provider).
   */
  accounts?: () => Promise<ScheduledAccount[]>;
  /** The sync share of every budget, read on each tick (default DEFAULT_SYNC_BUDGET's). */
  budget?: () => SyncBudgetShape;
}): Scheduler {
  const { runs, sync, now, intervalMs, usageIntervalMs } = deps;
  const accounts = async (): Promise<ScheduledAccount[]> =>
    deps.accounts ? deps.accounts() : [{ id: 1, syncIntervalMinutes: null, requestsPerMinute: (deps.budget?.() ?? DEFAULT_SYNC_BUDGET).requestsPerMinute }];
  // Each account is sized to its own budget: ten accounts syncing at once each spend only their own.
  const budgetOf = (account: ScheduledAccount): SyncBudgetShape => ({
    requestsPerMinute: account.requestsPerMinute,
    syncShare: (deps.budget?.() ?? DEFAULT_SYNC_BUDGET).syncShare,
  });
  const intervalOf = (account: ScheduledAccount, portalMs: number) => (account.syncIntervalMinutes === null ? portalMs : account.syncIntervalMinutes * 60_000);
  /** One account at a time, so that a failing account never keeps the others from their runs. */
  const each = async (work: (account: ScheduledAccount) => Promise<SyncRunRow | null>): Promise<SyncRunRow[]> => {
    const started: SyncRunRow[] = [];
    for (const account of await accounts()) {
      const row = await work(account).catch(() => null);
      if (row) started.push(row);
    }
    return started;
  };
  return {
    async startup() {
      if (intervalMs === null) return [];
      return each(async (account) =>
        (await sync.inventoryIsEmpty(account.id)) ? sync.tryStart({ kind: 'inventory', accountId: account.id, trigger: 'startup', requestedBy: null }) : null,
      );
    },
    async tick() {
      if (intervalMs === null) return [];
      return each(async (account) => {
        if (!isDue(await runs.latest('inventory', account.id), intervalOf(account, intervalMs), budgetOf(account), now())) return null;
        return sync.tryStart({ kind: 'inventory', accountId: account.id, trigger: 'schedule', requestedBy: null });
      });
    },
    async tickUsage() {
      if (intervalMs === null || usageIntervalMs === null) return [];
      return each(async (account) => {
        // An inventory run queues a usage run when it succeeds. One started now could read the lines
        // before that run writes them, and would then keep the follow-up run out (one at a time).
        if (await runs.active('inventory', account.id)) return null;
        if (!isDue(await runs.latest('usage', account.id), usageIntervalMs, budgetOf(account), now())) return null;
        return sync.tryStart({ kind: 'usage', accountId: account.id, trigger: 'schedule', requestedBy: null });
      });
    },
  };
}
