// The provider call budget: one per provider account, shared by every caller in every server
// process (server/services/provider-call-budget.ts keeps it in the database), and the sync
// schedule sized to it. Pure arithmetic over times and counts, so it is tested with a fake clock
// (tests/unit/provider-budget.test.ts); the server and the terminals page both read it.
//
// - At most `requestsPerMinute` calls start in any window of `windowMs` (60 s), every lane.
// - Background syncs (lane 'sync') start at most `syncShare` of them; people (lane 'person': a
//   request handler, the console, an activation) may use all of them.
// - While a person waits for a slot, sync calls wait too; after a 429 nobody starts a call until
//   the pause ends.
// - A sync run that used C calls is followed by the next one of its kind no sooner than
//   C / (syncShare × requestsPerMinute) minutes after it started: the effective interval is the
//   larger of that and the configured one.
import type { SyncJobKind, SyncJobStatus } from './terminals';

export const CALL_LANES = ['person', 'sync'] as const;
/** Who a provider call is for: a person waiting for an answer, or a background sync. */
export type CallLane = (typeof CALL_LANES)[number];

export const BUDGET_WINDOW_MS = 60_000;
/** How long the budget keeps call starts: the hour the terminals page charts. */
export const BUDGET_HISTORY_MS = 3_600_000;
/** PROVIDER_SYNC_SHARE's default: syncs may use 70 % of the budget. */
export const DEFAULT_SYNC_SHARE = 0.7;
export const SYNC_SHARE_RANGE = { min: 0.1, max: 1 } as const;

export interface CallBudgetPolicy {
  /** Calls that may start in any window, every lane together (STARLINK_REQUESTS_PER_MINUTE). */
  requestsPerMinute: number;
  /** The share of them background syncs may use, 0.1–1 (PROVIDER_SYNC_SHARE). */
  syncShare: number;
  /** Default one minute. */
  windowMs?: number;
}

const windowOf = (policy: CallBudgetPolicy) => policy.windowMs ?? BUDGET_WINDOW_MS;

/** Sync calls allowed in one window: the share of the limit, rounded down, at least one. */
export function syncLimitOf(policy: CallBudgetPolicy): number {
  return Math.max(1, Math.floor(policy.requestsPerMinute * policy.syncShare + 1e-9));
}

/** The budget as the database holds it at one instant, for one account. */
export interface CallWindow {
  /** Calls started within the window (the last `windowMs` before now), every lane. */
  total: number;
  /** Of those, sync calls. */
  sync: number;
  /** The start that fills the window: the `requestsPerMinute`-th newest (null when fewer started). */
  totalFullSince: Date | null;
  /** The sync start that fills the sync share: the `syncLimitOf`-th newest sync start, or null. */
  syncFullSince: Date | null;
  /** After a 429: nobody starts a call before this. */
  pausedUntil: Date | null;
  /** Until then a person is waiting for a slot, so sync calls hold back. */
  peopleWaitingUntil: Date | null;
}

export type CallWaitReason = 'paused' | 'full' | 'syncShare' | 'peopleWaiting';

export type CallDecision = { granted: true } | { granted: false; retryAt: Date; reason: CallWaitReason };

/**
 * May a call of `lane` start at `now`? If not, the earliest instant it might (the latest of the
 * reasons that hold it back) and the reason that holds it longest.
 */
export function decideCall(lane: CallLane, window: CallWindow, policy: CallBudgetPolicy, now: Date): CallDecision {
  const t = now.getTime();
  const windowMs = windowOf(policy);
  const waits: { at: number; reason: CallWaitReason }[] = [];
  if (window.pausedUntil && window.pausedUntil.getTime() > t) waits.push({ at: window.pausedUntil.getTime(), reason: 'paused' });
  if (window.total >= policy.requestsPerMinute) {
    waits.push({ at: (window.totalFullSince?.getTime() ?? t) + windowMs, reason: 'full' });
  }
  if (lane === 'sync') {
    if (window.sync >= syncLimitOf(policy)) waits.push({ at: (window.syncFullSince?.getTime() ?? t) + windowMs, reason: 'syncShare' });
    if (window.peopleWaitingUntil && window.peopleWaitingUntil.getTime() > t) {
      waits.push({ at: window.peopleWaitingUntil.getTime(), reason: 'peopleWaiting' });
    }
  }
  if (waits.length === 0) return { granted: true };
  const longest = waits.reduce((a, b) => (b.at > a.at ? b : a));
  return { granted: false, retryAt: new Date(Math.max(longest.at, t + 1)), reason: longest.reason };
}

// ---- The sync schedule sized to the budget -------------------------------------------------

export interface SyncBudgetShape {
  requestsPerMinute: number;
  syncShare: number;
}

/** How long `providerCalls` take at the sync share of the budget: the least time between two runs of a kind. */
export function syncSpacingMs(providerCalls: number, budget: SyncBudgetShape): number {
  const perMinute = budget.requestsPerMinute * budget.syncShare;
  if (!(providerCalls > 0) || !(perMinute > 0)) return 0;
  return Math.ceil((providerCalls / perMinute) * BUDGET_WINDOW_MS);
}

/** max(configured, spacing of the last run's calls); null when the schedule is off. */
export function effectiveIntervalMs(configuredMs: number | null, lastProviderCalls: number, budget: SyncBudgetShape): number | null {
  if (configuredMs === null) return null;
  return Math.max(configuredMs, syncSpacingMs(lastProviderCalls, budget));
}

/** The last run of a kind as the schedule reads it. */
export interface LastSyncRun {
  status: SyncJobStatus;
  /** When it started (when it was queued, for a run that never started). */
  startedAt: Date;
  providerCalls: number;
}

/**
 * When the next run of a kind is due: null when its schedule is off or a run of it is queued or
 * running; `now` when none ever ran; else the last start plus the effective interval.
 */
export function nextRunAt(last: LastSyncRun | null, configuredMs: number | null, budget: SyncBudgetShape, now: Date): Date | null {
  if (configuredMs === null) return null;
  if (!last) return now;
  if (last.status === 'queued' || last.status === 'running') return null;
  const interval = effectiveIntervalMs(configuredMs, last.providerCalls, budget) ?? configuredMs;
  return new Date(last.startedAt.getTime() + interval);
}

/** Due on this tick: a next time that has come. */
export function isRunDue(last: LastSyncRun | null, configuredMs: number | null, budget: SyncBudgetShape, now: Date): boolean {
  const next = nextRunAt(last, configuredMs, budget, now);
  return next !== null && next.getTime() <= now.getTime();
}

// ---- What GET /api/v1/terminals/sync/budget answers ----------------------------------------

export const SYNC_SCHEDULE_STATES = ['off', 'due', 'scheduled', 'queued', 'running'] as const;
/** off: no automatic runs; due: on the next per-minute tick; scheduled: at `nextAt`; queued/running: a run is under way. */
export type SyncScheduleState = (typeof SYNC_SCHEDULE_STATES)[number];

export interface SyncRunFigures {
  id: string;
  status: SyncJobStatus;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  providerCalls: number;
}

export interface SyncScheduleEntry {
  kind: SyncJobKind;
  state: SyncScheduleState;
  /** SYNC_INTERVAL or USAGE_SYNC_INTERVAL; null when off. */
  configuredIntervalMs: number | null;
  /** What the scheduler waits after the last start: the configured interval, or longer for a costly last run. */
  effectiveIntervalMs: number | null;
  nextAt: string | null;
  /** The last run of the kind that ended. */
  lastRun: SyncRunFigures | null;
}

export interface ProviderCallsMinute {
  /** The minute's start (ISO). */
  minute: string;
  sync: number;
  person: number;
}

export interface SyncBudget {
  budget: {
    requestsPerMinute: number;
    syncShare: number;
    /** The sync calls a minute may hold: the share of the limit. */
    syncRequestsPerMinute: number;
    /** True when the limit is the database's, shared by every server process; false: this process's own. */
    shared: boolean;
    /** After a 429, nobody calls the provider before this. */
    pausedUntil: string | null;
  };
  inventory: SyncScheduleEntry;
  usage: SyncScheduleEntry;
  /** The last 60 minutes, oldest first, the current minute last. */
  perMinute: ProviderCallsMinute[];
}

/** The 60 minutes up to `now` (oldest first), each with its counts or zero. */
export function lastHourByMinute(counts: readonly { minute: Date; lane: CallLane; calls: number }[], now: Date): ProviderCallsMinute[] {
  const current = Math.floor(now.getTime() / BUDGET_WINDOW_MS);
  const minutes = BUDGET_HISTORY_MS / BUDGET_WINDOW_MS;
  const byMinute = new Map<number, { sync: number; person: number }>();
  for (const row of counts) {
    const key = Math.floor(row.minute.getTime() / BUDGET_WINDOW_MS);
    const entry = byMinute.get(key) ?? { sync: 0, person: 0 };
    entry[row.lane] += row.calls;
    byMinute.set(key, entry);
  }
  return Array.from({ length: minutes }, (_, i) => {
    const key = current - (minutes - 1) + i;
    const entry = byMinute.get(key) ?? { sync: 0, person: 0 };
    return { minute: new Date(key * BUDGET_WINDOW_MS).toISOString(), ...entry };
  });
}

/** "3 min 12 s", "45 s", "1 h 5 min", "under 1 s": a run's length. */
export function formatRunDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds === 0) return 'under 1 s';
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

export const SYNC_BUDGET_MESSAGES = {
  title: 'Provider calls',
  chartTitle: 'Provider calls per minute, last hour',
  loadFailed: 'The provider call budget could not be loaded',
  syncLegend: 'Syncs',
  personLegend: 'People',
} as const;
