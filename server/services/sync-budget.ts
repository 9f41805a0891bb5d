// What the terminals page shows of the provider call budget (GET /terminals/sync/budget): the
// budget itself, when the next inventory and usage runs are due as the sized scheduler computes
// them (server/jobs/scheduler.ts), how long the last run of each took and how many calls it used,
// and the calls of the last hour by minute, syncs apart from people.
import {
  BUDGET_HISTORY_MS,
  BUDGET_WINDOW_MS,
  effectiveIntervalMs,
  lastHourByMinute,
  nextRunAt,
  syncLimitOf,
  type LastSyncRun,
  type SyncBudget,
  type SyncBudgetShape,
  type SyncRunFigures,
  type SyncScheduleEntry,
  type SyncScheduleState,
} from '../../src/domain/provider-budget';
import type { SyncJobKind } from '../../src/domain/terminals';
import { isoOrNull, type Clock } from '../clock';
import type { Config } from '../config';
import type { Repositories } from '../db/repositories';
import type { SyncRunRow } from '../db/schema';
import { PROVIDER_DEFAULTS } from '../provider';
import type { ProviderDirectory } from '../provider-access';

/** A run as the schedule reads it: its status, when it started (queued, if it never did) and its calls. */
export function lastRunOf(row: SyncRunRow | null): LastSyncRun | null {
  return row ? { status: row.status, startedAt: row.startedAt ?? row.queuedAt, providerCalls: row.providerCalls } : null;
}

function figuresOf(row: SyncRunRow | null): SyncRunFigures | null {
  if (!row) return null;
  const durationMs = row.startedAt && row.finishedAt ? Math.max(0, row.finishedAt.getTime() - row.startedAt.getTime()) : null;
  return {
    id: row.id,
    status: row.status,
    startedAt: isoOrNull(row.startedAt),
    finishedAt: isoOrNull(row.finishedAt),
    durationMs,
    providerCalls: row.providerCalls,
  };
}

export type SyncBudgetService = ReturnType<typeof createSyncBudgetService>;

export function createSyncBudgetService(deps: {
  repos: Repositories;
  now: Clock;
  config: Pick<Config, 'syncIntervalMs' | 'usageSyncIntervalMs' | 'providerSyncShare'>;
  provider: ProviderDirectory | null;
}) {
  const { repos, now, config } = deps;
  const runs = repos.syncRuns;

  /** The share of every account's budget the schedule sizes syncs to, and the client's default limit. */
  function shape(): SyncBudgetShape {
    return { requestsPerMinute: PROVIDER_DEFAULTS.requestsPerMinute, syncShare: config.providerSyncShare };
  }

  /** One account's budget as shared in the database (null in tests that give the client its own limit). */
  async function accountBudget(accountId: number) {
    if (!deps.provider) return null;
    try {
      return (await deps.provider.access(accountId)).budget?.() ?? null;
    } catch {
      // A disabled or unusable account has no budget being spent: the schedule says so.
      return null;
    }
  }

  async function entry(kind: SyncJobKind, accountId: number, configuredMs: number | null, budget: SyncBudgetShape, at: Date): Promise<SyncScheduleEntry> {
    const [latest, ended] = await Promise.all([runs.latest(kind, accountId), runs.latestEnded(kind, accountId)]);
    const active = latest?.status === 'queued' || latest?.status === 'running' ? latest.status : null;
    const next = nextRunAt(lastRunOf(latest), configuredMs, budget, at);
    const state: SyncScheduleState = configuredMs === null ? 'off' : (active ?? (next && next.getTime() > at.getTime() ? 'scheduled' : 'due'));
    return {
      kind,
      state,
      configuredIntervalMs: configuredMs,
      effectiveIntervalMs: effectiveIntervalMs(configuredMs, (ended ?? latest)?.providerCalls ?? 0, budget),
      nextAt: state === 'off' || active ? null : isoOrNull(next),
      lastRun: figuresOf(ended),
    };
  }

  return {
    shape,

    /** One account's budget and schedule: the account asked for, else the first enabled one. */
    async report(accountId?: number): Promise<SyncBudget> {
      const at = now();
      const account = accountId ?? (deps.provider ? await deps.provider.defaultAccount() : 1);
      const shared = await accountBudget(account);
      const row = await repos.providerAccounts.find(account);
      const budget: SyncBudgetShape = shared
        ? { requestsPerMinute: shared.requestsPerMinute, syncShare: shared.syncShare }
        : { requestsPerMinute: row?.requestsPerMinute ?? PROVIDER_DEFAULTS.requestsPerMinute, syncShare: config.providerSyncShare };
      // No provider: no background sync at all. SYNC_INTERVAL=off stops the usage schedule too; an
      // account's own interval replaces the portal's.
      const own = row?.syncIntervalMinutes ?? null;
      const inventoryMs = deps.provider && config.syncIntervalMs !== null ? (own === null ? config.syncIntervalMs : own * 60_000) : null;
      const usageMs = inventoryMs === null ? null : config.usageSyncIntervalMs;
      const since = new Date((Math.floor(at.getTime() / BUDGET_WINDOW_MS) + 1) * BUDGET_WINDOW_MS - BUDGET_HISTORY_MS);
      const [inventory, usage, counts, pausedUntil] = await Promise.all([
        entry('inventory', account, inventoryMs, budget, at),
        entry('usage', account, usageMs, budget, at),
        shared ? repos.providerCallBudget.perMinute(shared.accountKey, since) : Promise.resolve([]),
        shared ? repos.providerCallBudget.pausedUntil(shared.accountKey) : Promise.resolve(null),
      ]);
      return {
        budget: {
          requestsPerMinute: budget.requestsPerMinute,
          syncShare: budget.syncShare,
          syncRequestsPerMinute: syncLimitOf(budget),
          shared: shared !== null,
          pausedUntil: pausedUntil && pausedUntil.getTime() > at.getTime() ? pausedUntil.toISOString() : null,
        },
        inventory,
        usage,
        perMinute: lastHourByMinute(counts, at),
      };
    },
  };
}
