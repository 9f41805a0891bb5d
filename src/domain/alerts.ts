// Alerts: the rules that watch the fleet, the alerts they raise, and their texts.
// Shared by the server (evaluation, answers, validation) and the client (pages, bell, forms).
//
// A rule raises at most one alert per target, period and level: a line crossing 80 % of its cap
// twice in one billing cycle is warned once. An alert is open until someone acknowledges it, and
// resolved by itself when its condition clears (usage falls back under a new cap, the cycle ends,
// the terminal reports again, a sync succeeds, the account is extended) or its line moves to
// another customer (the new customer gets their own alert).
import type { AutomaticActionStatus, RuleAction, RuleActionWire } from './automation';
import type { Pagination } from './customers';

export const ALERT_KINDS = ['usage', 'overage_forecast', 'offline', 'sync_failed', 'account_expiring', 'change_failed'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
/** The rules measured against a threshold (the others have levels, or fire on an event). */
export type ThresholdKind = Exclude<AlertKind, 'usage' | 'sync_failed' | 'change_failed'>;
/** Rules about the portal's own work (a sync, an automatic or scheduled change): nothing to tell a customer. */
export const PORTAL_ALERT_KINDS = ['sync_failed', 'change_failed'] as const satisfies readonly AlertKind[];

/** The rules that can be set per customer and per line (the others are fleet-wide or per customer only). */
export const LINE_ALERT_KINDS = ['usage', 'overage_forecast', 'offline'] as const satisfies readonly AlertKind[];
export type LineAlertKind = (typeof LINE_ALERT_KINDS)[number];
/** Rules a customer override may set: the line rules and the account's expiry. */
export const CUSTOMER_ALERT_KINDS = ['usage', 'overage_forecast', 'offline', 'account_expiring'] as const satisfies readonly AlertKind[];
export type CustomerAlertKind = (typeof CUSTOMER_ALERT_KINDS)[number];

export const ALERT_STATUSES = ['open', 'acknowledged', 'resolved'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];
/** The Alerts page's status filter: `active` is open and acknowledged together. */
export const ALERT_STATUS_FILTERS = ['active', ...ALERT_STATUSES, 'all'] as const;
export type AlertStatusFilter = (typeof ALERT_STATUS_FILTERS)[number];

export const ALERT_SEVERITIES = ['warning', 'critical'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

export const ALERT_TARGET_TYPES = ['line', 'terminal', 'customer', 'sync'] as const;
export type AlertTargetType = (typeof ALERT_TARGET_TYPES)[number];

export const DEFAULT_USAGE_LEVELS = [80, 90, 100] as const;
/** A usage level is a whole percent of the cap. Over 100 warns of overage already run up. */
export const USAGE_LEVEL_MIN = 1;
export const USAGE_LEVEL_MAX = 500;
export const USAGE_LEVELS_MAX_COUNT = 5;
/** The usage level from which an alert is critical: the cap is used up. */
export const CRITICAL_USAGE_LEVEL = 100;

/** The bounds of each rule's threshold (the unit is in THRESHOLD_UNITS). */
export const THRESHOLD_BOUNDS: Readonly<Record<ThresholdKind, { min: number; max: number }>> = {
  overage_forecast: { min: 0, max: 1_000_000 },
  offline: { min: 5, max: 43_200 },
  account_expiring: { min: 1, max: 365 },
};
export const THRESHOLD_UNITS: Readonly<Record<ThresholdKind, string>> = {
  overage_forecast: 'projected overage charge',
  offline: 'minutes offline',
  account_expiring: 'days before expiry',
};
export const hasThreshold = (kind: AlertKind): kind is ThresholdKind => kind in THRESHOLD_BOUNDS;
export const isPortalAlertKind = (kind: AlertKind): boolean => (PORTAL_ALERT_KINDS as readonly string[]).includes(kind);

export const ALERTS_PAGE_SIZE = 25;
export const ALERTS_MAX_PAGE_SIZE = 100;
/** One bulk acknowledgement takes at most this many alerts. */
export const ALERTS_ACKNOWLEDGE_MAX = 500;
/** The bell's panel lists this many of the newest unresolved alerts. */
export const ALERT_BELL_LATEST = 8;
/** How often the shell asks for the bell's count. */
export const ALERT_BELL_POLL_MS = 30_000;
export const ALERT_SEARCH_MAX_LENGTH = 100;

/**
 * A run of the evaluation that opens more than this many alerts for one recipient sends one
 * digest email instead of one email per alert (a first sync of a large fleet must not send
 * thousands of messages).
 */
export const ALERT_EMAIL_DIGEST_AFTER = 5;

// ---- Wire shapes ---------------------------------------------------------------------------

/** The figures an alert was raised on (those that apply to its kind). */
export interface AlertFigures {
  usedGB?: number;
  capGB?: number;
  percent?: number;
  projectedUsedGB?: number;
  projectedOverageGB?: number;
  projectedCharge?: number;
  currency?: string;
  offlineMinutes?: number;
  lastReportAt?: string | null;
  syncKind?: 'inventory' | 'usage';
  runId?: string;
  failure?: string | null;
  /** change_failed: what was to be done ("Scheduled change: Change plan", "Automatic action: Opt out of priority data"). */
  change?: string;
  /** change_failed: the scheduled change's or automatic action's id. */
  changeId?: string;
  expiresAt?: string;
  daysLeft?: number;
  /** The threshold it was measured against (percent, amount, minutes or days). */
  threshold?: number;
  /** The billing cycle measured (usage, overage_forecast): the alert resolves when it ends. */
  cycleStart?: string;
  cycleEnd?: string;
}

export interface AlertWire {
  id: string;
  kind: AlertKind;
  /** The usage level crossed (80, 90, 100…); 0 for the other kinds. */
  level: number;
  severity: AlertSeverity;
  status: AlertStatus;
  /** "80 % of plan used", "Terminal offline", … */
  title: string;
  /** One sentence with the figures. */
  message: string;
  targetType: AlertTargetType;
  targetKey: string;
  /** The billing cycle's first day, the outage's last report, the failing run or the expiry date. */
  period: string;
  serviceLineNumber: string | null;
  userTerminalId: string | null;
  customer: { uuid: string; name: string; company: string } | null;
  figures: AlertFigures;
  openedAt: string;
  acknowledgedAt: string | null;
  /** The name of the admin who acknowledged it. */
  acknowledgedBy: string | null;
  resolvedAt: string | null;
  resolvedReason: string | null;
  /**
   * The provider account of the alert's line or terminal, on the Alerts list only (absent
   * elsewhere); null for an alert on no line, or a line no longer known.
   */
  accountId?: number | null;
  accountName?: string | null;
  /** What the rule did about it (automatic actions), on the Alerts list and the customer's alerts. */
  automaticActions?: AlertActionSummaryWire[];
}

/** An automatic action as its alert shows it: why the line changed, and Undo where it can be. */
export interface AlertActionSummaryWire {
  id: string;
  action: RuleAction;
  status: AutomaticActionStatus;
  /** "Opted out of priority data automatically at 90 % of the plan" */
  text: string;
  undoable: boolean;
}

export type AlertCounts = Record<AlertStatus, number>;

/** `GET /alerts` data. */
export interface AlertListWire {
  alerts: AlertWire[];
  pagination: Pagination;
  counts: AlertCounts;
}

/** `GET /alerts/bell` data: what the shell's bell shows. */
export interface AlertBellWire {
  /** Unresolved alerts opened since this user last opened the bell. */
  unread: number;
  /** Alerts open (not yet acknowledged). */
  open: number;
  latest: AlertWire[];
}

/** `POST /alerts/acknowledge` data. */
export interface AcknowledgeResultWire {
  /** Ids acknowledged by this call. */
  acknowledged: string[];
  /** Ids already acknowledged or resolved (left as they were). */
  unchanged: string[];
  /** Ids that name no alert. */
  notFound: string[];
}

/** A rule as the Alert rules page shows it. */
export interface AlertRuleWire {
  kind: AlertKind;
  enabled: boolean;
  /** usage only. */
  usageLevels: number[] | null;
  /** overage_forecast, offline, account_expiring. */
  threshold: number | null;
  notifyCustomer: boolean;
  /** Whether the signed-in admin gets an email when it opens an alert. */
  subscribed: boolean;
  /** Overrides of this rule (customer and line). */
  overrides: number;
  /** What the rule does at its levels besides notifying (none: notify only). */
  actions: RuleActionWire[];
  updatedAt: string;
}

/** An override of a rule for one customer or one line. */
export interface AlertOverrideWire {
  kind: AlertKind;
  scope: 'customer' | 'line';
  /** The customer's uuid or the service line number. */
  key: string;
  /** The customer's name, or the line's nickname, to read the row by. */
  label: string | null;
  enabled: boolean;
  usageLevels: number[] | null;
  threshold: number | null;
  /** This customer's or line's own actions; null: the rule's. */
  actions: RuleActionWire[] | null;
  updatedAt: string;
}

/** `GET /my/alerts` data: the customer's own alerts, unresolved first. */
export interface MyAlertsWire {
  alerts: AlertWire[];
}

/** The evaluation's figures for one run (logged, and answered by the benchmark). */
export interface AlertEvaluationReport {
  linesRead: number;
  opened: number;
  /** Automatic actions the opened alerts proposed or queued. */
  actions: number;
  resolved: number;
  emails: number;
  webhookEvents: number;
  queries: number;
  ms: number;
}

// ---- Payloads ------------------------------------------------------------------------------

export interface AlertListQuery {
  status?: AlertStatusFilter;
  kind?: AlertKind | 'all';
  severity?: AlertSeverity | 'all';
  customer?: string;
  /** A service line number, terminal id or customer name (part of one). */
  search?: string;
  /** Only the alerts on this provider account's lines and terminals; every account's when missing. */
  accountId?: number;
  page?: number;
  limit?: number;
}

export interface AcknowledgePayload {
  ids: string[];
}

export interface AlertRulePayload {
  enabled: boolean;
  usageLevels?: number[] | null;
  threshold?: number | null;
  notifyCustomer: boolean;
}

export interface AlertOverridePayload {
  scope: 'customer' | 'line';
  key: string;
  enabled: boolean;
  usageLevels?: number[] | null;
  threshold?: number | null;
  /** Own actions for this customer or line; null or missing: the rule's. */
  actions?: RuleActionWire[] | null;
}

// ---- Rules ---------------------------------------------------------------------------------

/**
 * The highest level `usedGB` has reached of `capGB`, or null under the lowest. Exact: 79.9 % is
 * under 80; the comparison is on the figures, not on a rounded percent.
 */
export function usageLevelReached(usedGB: number, capGB: number, levels: readonly number[]): number | null {
  if (!(capGB > 0)) return null;
  let reached: number | null = null;
  for (const level of levels) if (usedGB * 100 >= level * capGB && (reached === null || level > reached)) reached = level;
  return reached;
}

export const usageSeverity = (level: number): AlertSeverity => (level >= CRITICAL_USAGE_LEVEL ? 'critical' : 'warning');

export const SEVERITY_OF: Readonly<Record<Exclude<AlertKind, 'usage'>, AlertSeverity>> = {
  overage_forecast: 'warning',
  offline: 'critical',
  sync_failed: 'critical',
  account_expiring: 'warning',
  change_failed: 'critical',
};

/** The form's problem with a level list, or null. Levels are sorted and unique once accepted. */
export function usageLevelsProblem(levels: readonly number[]): string | null {
  if (levels.length === 0) return ALERT_MESSAGES.levelsRequired;
  if (levels.length > USAGE_LEVELS_MAX_COUNT) return ALERT_MESSAGES.levelsTooMany;
  for (const level of levels) {
    if (!Number.isInteger(level) || level < USAGE_LEVEL_MIN || level > USAGE_LEVEL_MAX) return ALERT_MESSAGES.levelOutOfRange;
  }
  if (new Set(levels).size !== levels.length) return ALERT_MESSAGES.levelsRepeated;
  return null;
}

/** The form's problem with a threshold of `kind`, or null. */
export function thresholdProblem(kind: AlertKind, threshold: number | null | undefined): string | null {
  if (!hasThreshold(kind)) return null;
  if (threshold === null || threshold === undefined || !Number.isFinite(threshold)) return ALERT_MESSAGES.thresholdRequired;
  const { min, max } = THRESHOLD_BOUNDS[kind];
  if (threshold < min || threshold > max) return ALERT_MESSAGES.thresholdOutOfRange(kind);
  if (kind !== 'overage_forecast' && !Number.isInteger(threshold)) return ALERT_MESSAGES.thresholdWhole;
  return null;
}

/** "80,90, 100" → [80, 90, 100] (sorted); null when a part is not a number. */
export function parseUsageLevels(text: string): number[] | null {
  const parts = text
    .split(/[\s,;]+/)
    .map((p) => p.trim().replace(/%$/, ''))
    .filter((p) => p !== '');
  const levels = parts.map(Number);
  if (levels.some((n) => !Number.isFinite(n))) return null;
  return [...levels].sort((a, b) => a - b);
}

export const ALERT_KIND_LABELS: Readonly<Record<AlertKind, string>> = {
  usage: 'Data use',
  overage_forecast: 'Projected overage',
  offline: 'Terminal offline',
  sync_failed: 'Sync failed',
  account_expiring: 'Account expiring',
  change_failed: 'Automatic change failed',
};

export const ALERT_STATUS_LABELS: Readonly<Record<AlertStatus, string>> = {
  open: 'Open',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
};

export const ALERT_SEVERITY_LABELS: Readonly<Record<AlertSeverity, string>> = { warning: 'Warning', critical: 'Critical' };

/** "Line AST-…", "Terminal UT…", "Inventory sync": the alert's target in a few words. */
export function targetText(alert: Pick<AlertWire, 'targetType' | 'targetKey' | 'serviceLineNumber' | 'userTerminalId' | 'customer'>): string {
  switch (alert.targetType) {
    case 'line':
      return `Line ${alert.serviceLineNumber ?? alert.targetKey}`;
    case 'terminal':
      return `Terminal ${alert.userTerminalId ?? alert.targetKey}`;
    case 'customer':
      return alert.customer?.name ?? alert.targetKey;
    case 'sync':
      return `${alert.targetKey === 'usage' ? 'Usage' : 'Inventory'} sync`;
  }
}

/** Why an alert resolved itself (resolved_reason). */
export const ALERT_RESOLVED_REASONS = {
  cleared: 'The condition cleared',
  cycleEnded: 'The billing cycle ended',
  moved: 'The line moved to another customer',
  removed: 'The line or terminal is no longer in the inventory',
  online: 'The terminal reported again',
  syncSucceeded: 'A later sync succeeded',
  extended: 'The account was extended or no longer expires',
  ruleOff: 'The rule was turned off',
  superseded: 'A higher level was reached',
} as const;

const money = (amount: number, currency: string | undefined) => `${currency ?? 'USD'} ${amount.toFixed(2)}`;

/** The alert's title, from its kind and level. */
export function alertTitle(kind: AlertKind, level: number): string {
  switch (kind) {
    case 'usage':
      return level === CRITICAL_USAGE_LEVEL ? 'Plan data used up' : `${level} % of plan used`;
    case 'overage_forecast':
      return 'Overage projected';
    case 'offline':
      return 'Terminal offline';
    case 'sync_failed':
      return 'Sync failed';
    case 'account_expiring':
      return 'Account expiring';
    case 'change_failed':
      return 'Automatic change failed';
  }
}

/** The alert's sentence, from its kind, target and figures. */
export function alertMessage(kind: AlertKind, target: string, f: AlertFigures): string {
  switch (kind) {
    case 'usage':
      return `Service line ${target} has used ${f.usedGB ?? 0} GB of its ${f.capGB ?? 0} GB plan (${f.percent ?? 0} %) this billing cycle.`;
    case 'overage_forecast':
      return `Service line ${target} is projected to use ${f.projectedUsedGB ?? 0} GB this cycle, ${f.projectedOverageGB ?? 0} GB over its plan: about ${money(f.projectedCharge ?? 0, f.currency)} of overage.`;
    case 'offline':
      return `Terminal ${target} has not reported for ${f.offlineMinutes ?? 0} minutes.`;
    case 'sync_failed':
      return `The ${f.syncKind === 'usage' ? 'usage' : 'terminal'} sync failed${f.failure ? `: ${f.failure}` : '.'}`;
    case 'account_expiring':
      return `The account of ${target} expires in ${f.daysLeft ?? 0} day${f.daysLeft === 1 ? '' : 's'} (${(f.expiresAt ?? '').slice(0, 10)}).`;
    case 'change_failed':
      return `${f.change ?? 'A change'} of ${target} failed${f.failure ? `: ${f.failure}` : '.'}`;
  }
}

// ---- Texts ---------------------------------------------------------------------------------

export const ALERT_MESSAGES = {
  pageTitle: 'Alerts',
  rulesTitle: 'Alert rules',
  noAlerts: 'No alerts match.',
  bellLabel: (unread: number) => (unread === 0 ? 'Alerts, none unread' : `Alerts, ${unread} unread`),
  acknowledged: (n: number) => `${n} alert${n === 1 ? '' : 's'} acknowledged`,
  nothingToAcknowledge: 'The selected alerts were already acknowledged or resolved.',
  acknowledgeTooMany: `At most ${ALERTS_ACKNOWLEDGE_MAX} alerts can be acknowledged at once`,
  acknowledgeEmpty: 'Choose at least one alert',
  ruleSaved: 'Alert rule saved',
  overrideSaved: 'Override saved',
  overrideRemoved: 'Override removed',
  subscribed: 'You will get an email when this rule opens an alert',
  unsubscribed: 'You will no longer get emails for this rule',
  levelsRequired: 'Enter at least one level',
  levelsTooMany: `At most ${USAGE_LEVELS_MAX_COUNT} levels`,
  levelOutOfRange: `Each level is a whole percent from ${USAGE_LEVEL_MIN} to ${USAGE_LEVEL_MAX}`,
  levelsRepeated: 'A level appears twice',
  levelsNotOfKind: 'Only the data use rule has levels',
  thresholdRequired: 'Enter a threshold',
  thresholdWhole: 'The threshold is a whole number',
  thresholdNotOfKind: 'This rule has no threshold',
  thresholdOutOfRange: (kind: ThresholdKind) =>
    `The ${THRESHOLD_UNITS[kind]} must be from ${THRESHOLD_BOUNDS[kind].min} to ${THRESHOLD_BOUNDS[kind].max}`,
  overrideScopeNotAllowed: 'This rule cannot be set for a single line or customer',
  overrideTargetNotFound: 'No such customer or service line',
  alertNotFound: 'Alert not found',
  ruleNotFound: 'No such alert rule',
} as const;
