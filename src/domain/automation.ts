// Automatic actions and scheduled changes: what the portal does to a line or a customer without a
// person's click at that moment. Shared by the server (evaluation, runs, validation, answers) and
// the client (the rule form's actions, the Actions queue, the Schedule page, the schedule dialog).
//
// An action belongs to a level of an alert rule (data use at 90 %, projected overage): when the
// rule opens its alert for a line, the action is proposed to an admin ("propose") or run at once
// and then reported ("act"). It runs at most once per line, rule, level and billing cycle. Where
// the provider can take it back (opt in again, restore the recurring blocks, unblock sign-in) it
// can be undone from its alert.
//
// A scheduled change is one single-line or customer action set for a moment: a date and time, or
// the line's next billing cycle. It runs through the same services as the click, once, across
// server processes; while the provider is unavailable it is retried, and a final failure raises an
// alert.
import type { AlertKind } from './alerts';
import type { Pagination } from './customers';

// ---- Actions on alert rules ----------------------------------------------------------------

/** What a rule's level may do besides telling people ("notify only" is no action at all). */
export const RULE_ACTIONS = ['opt_out', 'stop_recurring_blocks', 'change_plan', 'block_sign_in', 'end_at_cycle_end'] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];

export const ACTION_MODES = ['propose', 'act'] as const;
export type ActionMode = (typeof ACTION_MODES)[number];

/** The rules whose alerts may carry actions: those about a line's data in its billing cycle. */
export const ACTION_ALERT_KINDS = ['usage', 'overage_forecast'] as const satisfies readonly AlertKind[];
export type ActionAlertKind = (typeof ACTION_ALERT_KINDS)[number];
/** What may propose an action: a rule's alert, or dunning (ending the lines of a customer blocked for non-payment). */
export const ACTION_SOURCES = [...ACTION_ALERT_KINDS, 'dunning'] as const;
export type ActionSource = (typeof ACTION_SOURCES)[number];

/** At most this many actions on one rule (or one override): one per level and action. */
export const RULE_ACTIONS_MAX = 10;

/** One action of a rule: at `level` (the usage level; 0 for projected overage), do `action`. */
export interface RuleActionWire {
  level: number;
  action: RuleAction;
  mode: ActionMode;
  /** change_plan only: the plan the line moves to. */
  productReferenceId: string | null;
}

export const RULE_ACTION_LABELS: Readonly<Record<RuleAction, string>> = {
  opt_out: 'Opt out of priority data',
  stop_recurring_blocks: 'Stop recurring blocks from the next cycle',
  change_plan: 'Move to another plan',
  block_sign_in: "Block the customer's portal sign-in",
  end_at_cycle_end: 'End the line at the end of the cycle',
};

export const ACTION_MODE_LABELS: Readonly<Record<ActionMode, string>> = {
  propose: 'Propose to an admin',
  act: 'Act, then notify',
};

/** Actions the provider (or the portal) can take back, and what taking it back does. */
export const UNDOABLE_ACTIONS: Readonly<Partial<Record<RuleAction, string>>> = {
  opt_out: 'Opt back in',
  stop_recurring_blocks: 'Restore the recurring blocks',
  block_sign_in: 'Unblock sign-in',
  change_plan: 'Move back to the previous plan',
};
export const isUndoable = (action: RuleAction): boolean => UNDOABLE_ACTIONS[action] !== undefined;

export const AUTOMATIC_ACTION_STATUSES = ['proposed', 'queued', 'running', 'executed', 'failed', 'dismissed', 'undone', 'skipped'] as const;
export type AutomaticActionStatus = (typeof AUTOMATIC_ACTION_STATUSES)[number];
/** The Actions page's filter: `waiting` is proposed and queued together (what still needs doing). */
export const ACTION_STATUS_FILTERS = ['waiting', 'proposed', 'executed', 'failed', 'dismissed', 'undone', 'all'] as const;
export type ActionStatusFilter = (typeof ACTION_STATUS_FILTERS)[number];

export const AUTOMATIC_ACTION_STATUS_LABELS: Readonly<Record<AutomaticActionStatus, string>> = {
  proposed: 'Waiting for approval',
  queued: 'Queued',
  running: 'Running',
  executed: 'Done',
  failed: 'Failed',
  dismissed: 'Dismissed',
  undone: 'Undone',
  skipped: 'Skipped',
};

/** One automatic action, proposed or taken (`GET /automatic-actions`, and on its alert). */
export interface AutomaticActionWire {
  id: string;
  ruleKind: ActionSource;
  level: number;
  action: RuleAction;
  mode: ActionMode;
  status: AutomaticActionStatus;
  serviceLineNumber: string;
  customer: { uuid: string; name: string } | null;
  /** The alert that led to it. */
  alertId: string | null;
  /** The billing cycle's first day: the action runs once in it. */
  cycleStart: string;
  /** change_plan: the plan moved to. */
  productReferenceId: string | null;
  planName: string | null;
  /** What the action is projected to save this cycle (overage avoided), or null where none can be told. */
  projectedSaving: number | null;
  currency: string | null;
  /** "Data use rule at 90 %" */
  ruleLabel: string;
  /** The admin who last saved the rule's actions. */
  setUpBy: string | null;
  /** Who approved or dismissed a proposal. */
  decidedBy: string | null;
  decidedAt: string | null;
  executedAt: string | null;
  /** What happened, in a sentence (the provider's refusal, why it was skipped…). */
  outcome: string | null;
  /** Whether Undo is offered now. */
  undoable: boolean;
  undoneAt: string | null;
  undoneBy: string | null;
  createdAt: string;
}

export interface AutomaticActionListWire {
  actions: AutomaticActionWire[];
  pagination: Pagination;
  /** Proposals waiting for an admin. */
  waiting: number;
}

export interface AutomaticActionListQuery {
  status?: ActionStatusFilter;
  /** Part of a service line number or customer name. */
  search?: string;
  page?: number;
  limit?: number;
}

/** `PUT /alert-rules/:kind/actions` body, and an override's `actions` (null: the rule's). */
export interface RuleActionsPayload {
  actions: RuleActionWire[];
}

export const ACTIONS_PAGE_SIZE = 25;
export const ACTIONS_MAX_PAGE_SIZE = 100;
/** A proposal is worth acting on while its cycle lasts; a run retries a provider outage this many times. */
export const ACTION_MAX_ATTEMPTS = 5;

/** "Data use rule at 90 %", "Projected overage rule". */
export function ruleLabel(kind: ActionSource, level: number): string {
  if (kind === 'dunning') return 'Dunning: blocked for non-payment';
  return kind === 'usage' ? `Data use rule at ${level} %` : 'Projected overage rule';
}

/**
 * The form's problem with a rule's actions, or null. `levels` are the usage levels the rule (or
 * override) watches: an action must sit on one of them; projected overage has the one level 0.
 */
export function ruleActionsProblem(kind: AlertKind, actions: readonly RuleActionWire[], levels: readonly number[]): string | null {
  if (actions.length === 0) return null;
  if (!(ACTION_ALERT_KINDS as readonly string[]).includes(kind)) return AUTOMATION_MESSAGES.actionsNotOfKind;
  if (actions.length > RULE_ACTIONS_MAX) return AUTOMATION_MESSAGES.tooManyActions;
  const seen = new Set<string>();
  for (const a of actions) {
    if (kind === 'usage' ? !levels.includes(a.level) : a.level !== 0) return AUTOMATION_MESSAGES.actionLevelUnknown(a.level);
    if (a.action === 'change_plan' && !a.productReferenceId) return AUTOMATION_MESSAGES.planRequired;
    if (a.action !== 'change_plan' && a.productReferenceId) return AUTOMATION_MESSAGES.planNotOfAction;
    const key = `${a.level}:${a.action}`;
    if (seen.has(key)) return AUTOMATION_MESSAGES.actionRepeated;
    seen.add(key);
  }
  return null;
}

// ---- Scheduled changes ---------------------------------------------------------------------

export const SCHEDULE_LINE_OPERATIONS = ['change_plan', 'opt_in', 'opt_out', 'recurring_blocks', 'deactivate'] as const;
export const SCHEDULE_CUSTOMER_OPERATIONS = ['block', 'unblock', 'extend'] as const;
export const SCHEDULE_OPERATIONS = [...SCHEDULE_LINE_OPERATIONS, ...SCHEDULE_CUSTOMER_OPERATIONS] as const;
export type ScheduleLineOperation = (typeof SCHEDULE_LINE_OPERATIONS)[number];
export type ScheduleCustomerOperation = (typeof SCHEDULE_CUSTOMER_OPERATIONS)[number];
export type ScheduleOperation = (typeof SCHEDULE_OPERATIONS)[number];
export type ScheduleTargetType = 'line' | 'customer';

export const SCHEDULE_OPERATION_LABELS: Readonly<Record<ScheduleOperation, string>> = {
  change_plan: 'Change plan',
  opt_in: 'Opt in to priority data',
  opt_out: 'Opt out of priority data',
  recurring_blocks: 'Set recurring blocks',
  deactivate: 'Deactivate the line',
  block: 'Block the customer',
  unblock: 'Unblock the customer',
  extend: 'Extend the account',
};

export const targetTypeOf = (operation: ScheduleOperation): ScheduleTargetType =>
  (SCHEDULE_LINE_OPERATIONS as readonly string[]).includes(operation) ? 'line' : 'customer';

export const SCHEDULE_STATUSES = ['scheduled', 'running', 'done', 'failed', 'skipped', 'cancelled'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];
/** The Schedule page's filter: `upcoming` is scheduled and running together. */
export const SCHEDULE_STATUS_FILTERS = ['upcoming', ...SCHEDULE_STATUSES, 'all'] as const;
export type ScheduleStatusFilter = (typeof SCHEDULE_STATUS_FILTERS)[number];

export const SCHEDULE_STATUS_LABELS: Readonly<Record<ScheduleStatus, string>> = {
  scheduled: 'Scheduled',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  skipped: 'Skipped',
  cancelled: 'Cancelled',
};

/** What an operation takes besides its target. */
export interface ScheduleParameters {
  /** change_plan */
  productReferenceId?: string;
  /** recurring_blocks */
  productId?: string;
  count?: number;
  /** deactivate, block */
  reason?: string;
  /** extend */
  days?: number;
}

/** `POST /scheduled-changes` body: `at` (ISO 8601) or `atNextCycle` (lines only), not both. */
export interface SchedulePayload {
  operation: ScheduleOperation;
  /** The service line number or the customer's uuid. */
  target: string;
  parameters: ScheduleParameters;
  at?: string | null;
  atNextCycle?: boolean;
}

export interface ScheduledChangeWire {
  id: string;
  operation: ScheduleOperation;
  targetType: ScheduleTargetType;
  target: string;
  /** The line's nickname or the customer's name. */
  targetLabel: string | null;
  parameters: ScheduleParameters;
  /** "Plan Local Priority 1 TB", "2 × DATA-BLOCK-PRIORITY-50GB", "30 days": the parameters in words. */
  summary: string;
  runAt: string;
  atNextCycle: boolean;
  status: ScheduleStatus;
  attempts: number;
  outcome: string | null;
  createdBy: string | null;
  createdAt: string;
  executedAt: string | null;
  cancelledBy: string | null;
  cancelledAt: string | null;
}

export interface ScheduledChangeListWire {
  changes: ScheduledChangeWire[];
  pagination: Pagination;
  upcoming: number;
}

export interface ScheduledChangeListQuery {
  status?: ScheduleStatusFilter;
  /** Only those of this line or customer. */
  target?: string;
  page?: number;
  limit?: number;
}

export const SCHEDULE_PAGE_SIZE = 25;
export const SCHEDULE_MAX_PAGE_SIZE = 100;
/** A change may be set at most this many months ahead. */
export const SCHEDULE_MAX_MONTHS_AHEAD = 13;
/** Provider outages a scheduled change outlasts before it fails for good. */
export const SCHEDULE_MAX_ATTEMPTS = 5;
export const SCHEDULE_REASON_MAX_LENGTH = 200;
export const SCHEDULE_EXTEND_MAX_DAYS = 3650;
export const SCHEDULE_BLOCKS_MAX = 20;

/** The latest moment a change may be set for, from `now`. */
export function latestScheduleTime(now: Date): Date {
  const latest = new Date(now.getTime());
  latest.setUTCMonth(latest.getUTCMonth() + SCHEDULE_MAX_MONTHS_AHEAD);
  return latest;
}

/** The problem with a requested time, or null. */
export function scheduleTimeProblem(at: Date, now: Date): string | null {
  if (Number.isNaN(at.getTime())) return AUTOMATION_MESSAGES.timeInvalid;
  if (at.getTime() <= now.getTime()) return AUTOMATION_MESSAGES.timeInPast;
  if (at.getTime() > latestScheduleTime(now).getTime()) return AUTOMATION_MESSAGES.timeTooFar;
  return null;
}

/** The problem with an operation's parameters, or null (`path`, message). */
export function scheduleParametersProblem(operation: ScheduleOperation, p: ScheduleParameters): { path: string; message: string } | null {
  const M = AUTOMATION_MESSAGES;
  switch (operation) {
    case 'change_plan':
      return p.productReferenceId ? null : { path: 'parameters.productReferenceId', message: M.planRequired };
    case 'recurring_blocks':
      if (!p.productId) return { path: 'parameters.productId', message: M.blockRequired };
      if (p.count === undefined || !Number.isInteger(p.count) || p.count < 0 || p.count > SCHEDULE_BLOCKS_MAX) return { path: 'parameters.count', message: M.blockCount };
      return null;
    case 'deactivate':
    case 'block':
      if (!p.reason?.trim()) return { path: 'parameters.reason', message: M.reasonRequired };
      if (p.reason.trim().length > SCHEDULE_REASON_MAX_LENGTH) return { path: 'parameters.reason', message: M.reasonTooLong };
      return null;
    case 'extend':
      if (p.days === undefined || !Number.isInteger(p.days) || p.days < 1 || p.days > SCHEDULE_EXTEND_MAX_DAYS) return { path: 'parameters.days', message: M.daysRange };
      return null;
    default:
      return null;
  }
}

/** The parameters in words, for lists and emails. */
export function scheduleSummary(operation: ScheduleOperation, p: ScheduleParameters, planName?: string | null): string {
  switch (operation) {
    case 'change_plan':
      return `To ${planName ?? p.productReferenceId ?? 'another plan'}`;
    case 'recurring_blocks':
      return p.count === 0 ? 'No recurring blocks' : `${p.count ?? 0} × ${p.productId ?? ''}`;
    case 'deactivate':
    case 'block':
      return p.reason?.trim() ?? '';
    case 'extend':
      return `${p.days ?? 0} day${p.days === 1 ? '' : 's'}`;
    default:
      return '';
  }
}

// ---- Texts ---------------------------------------------------------------------------------

export const AUTOMATION_MESSAGES = {
  actionsPageTitle: 'Automatic actions',
  schedulePageTitle: 'Schedule',
  noActions: 'No automatic actions match.',
  noChanges: 'No scheduled changes match.',
  actionsSaved: 'Actions saved',
  actionsNotOfKind: 'Only the data use and projected overage rules can act on a line',
  tooManyActions: `At most ${RULE_ACTIONS_MAX} actions on one rule`,
  actionLevelUnknown: (level: number) => `There is no level ${level} % on this rule`,
  actionRepeated: 'An action appears twice on one level',
  planRequired: 'Choose the plan',
  planNotOfAction: 'Only a plan change names a plan',
  planUnknown: 'No such plan',
  blockRequired: 'Choose the recurring block',
  blockCount: `The number of blocks is a whole number from 0 to ${SCHEDULE_BLOCKS_MAX}`,
  reasonRequired: 'Enter a reason',
  reasonTooLong: `The reason is at most ${SCHEDULE_REASON_MAX_LENGTH} characters`,
  daysRange: `The days are a whole number from 1 to ${SCHEDULE_EXTEND_MAX_DAYS}`,
  /** Saving a rule whose action some lines' plans cannot take. */
  linesCannotTake: (action: RuleAction, lines: readonly string[], total: number) =>
    `${RULE_ACTION_LABELS[action]} cannot apply to ${total} line${total === 1 ? '' : 's'} whose plan does not allow it: ${lines.join(', ')}${total > lines.length ? ` and ${total - lines.length} more` : ''}`,
  approved: 'Action approved',
  dismissed: 'Action dismissed',
  undone: 'Action undone',
  notUndoable: 'This action cannot be undone',
  notWaiting: 'This action is no longer waiting for approval',
  notExecuted: 'Only a done action can be undone',
  actionNotFound: 'Automatic action not found',
  timeInvalid: 'Enter a date and time',
  timeInPast: 'The time is in the past',
  timeTooFar: `A change can be scheduled at most ${SCHEDULE_MAX_MONTHS_AHEAD} months ahead`,
  timeOrNextCycle: 'Choose a time or the next cycle, not both',
  timeRequired: 'Choose a time or the next cycle',
  nextCycleLinesOnly: "Only a line's change can wait for its next cycle",
  noNextCycle: 'The line has no billing cycle yet: choose a date and time',
  targetNotFound: 'No such service line or customer',
  scheduled: 'Change scheduled',
  cancelled: 'Scheduled change cancelled',
  notCancellable: 'Only a change that has not run yet can be cancelled',
  changeNotFound: 'Scheduled change not found',
  lineEnded: 'Skipped: the line has ended',
  customerGone: 'Skipped: the customer no longer exists',
} as const;
