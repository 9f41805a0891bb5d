// Automatic actions: what an alert rule's level does to the line whose alert it opened.
//
// - Saving a rule's (or an override's) actions checks them: an action a line's plan cannot take is
//   refused then, naming the lines, not discovered at the first alert.
// - The evaluation proposes them in the transaction that opens the alerts (`propose`): one row per
//   line, rule, level, cycle and action, whatever number of processes evaluate at once (the unique
//   index drops the second). "propose" waits for an admin; "act" is queued to run.
// - A run (`runDue`, queued after an evaluation and on each tick) claims the queued ones, one
//   process each, and makes them through change-operations.ts in the background lane of the
//   provider budget, under the action's own intent key: a write whose answer was lost is looked up
//   before it is sent again. A provider outage is tried again with back-off; the last failure
//   raises an alert. What was done is audited with the rule as the actor, published as a webhook
//   event, and emailed to the customer when the rule emails customers.
// - An admin approves (made at once, in the person's lane) or dismisses a proposal, and undoes a
//   done action where the provider can take it back.
import {
  ACTION_ALERT_KINDS,
  ACTION_MAX_ATTEMPTS,
  AUTOMATION_MESSAGES as M,
  RULE_ACTION_LABELS,
  UNDOABLE_ACTIONS,
  isUndoable,
  ruleLabel,
  ruleActionsProblem,
  type ActionAlertKind,
  type ActionStatusFilter,
  type AutomaticActionListWire,
  type AutomaticActionStatus,
  type AutomaticActionWire,
  type RuleActionWire,
} from '../../src/domain/automation';
import type { AlertActionSummaryWire, AlertKind } from '../../src/domain/alerts';
import { paginationOf } from '../../src/domain/customers';
import { isoOrNull, type Clock } from '../clock';
import type { Db } from '../db/client';
import type { Repositories } from '../db/repositories';
import type { AutomaticActionListRow, NewAutomaticAction } from '../db/repositories/automatic-actions';
import type { AutomaticActionRow } from '../db/schema';
import { automaticActionEmail } from '../email/templates';
import { ConflictError, NotFoundError, fieldError } from '../errors';
import { inBackgroundLane } from '../provider/client';
import { auditSource, type AuditService, type RequestContext } from './audit';
import { CHANGE_OUTCOMES, isTransient, type ChangeOperation, type ChangeOperations, type ChangeResult, type ChangeTarget } from './change-operations';
import type { EmailLogger, EmailSender, RecordedEmail } from './email';
import type { PublishedEventType } from './webhooks';

/** Actions one run claims; the next run (queued when this one took a full batch) takes the rest. */
export const ACTIONS_PER_RUN = 50;
/** How long a claimed action is this process's: past it, a stopped process's claim is taken again. */
export const ACTION_CLAIM_MS = 10 * 60_000;
/** How many lines a refusal names. */
const LINES_NAMED = 5;

/** The wait before the next attempt after `attempts` failed ones: 1, 2, 4, 8 minutes… */
export const retryDelayMs = (attempts: number) => 60_000 * 2 ** Math.max(0, attempts - 1);

export interface ActionEventPublisher {
  publish(events: { type: PublishedEventType; data: unknown }[], tx?: Db): Promise<{ events: number; deliveries: number }>;
  wake(): void;
}

/** A line's alert the evaluation just opened, with what its rule does at the alert's level. */
export interface OpenedLineAlert {
  alertId: string;
  kind: AlertKind;
  level: number;
  serviceLineNumber: string;
  customerId: string | null;
  cycleStart: string;
  actions: readonly RuleActionWire[];
  /** The overage the cycle is projected to run up (what opting out saves), when known. */
  projectedCharge: number | null;
  currency: string | null;
  setUpBy: string | null;
}

export interface AutomaticActionListQuery {
  status: ActionStatusFilter;
  search: string | null;
  page: number;
  limit: number;
}

export interface AutomaticActionsService {
  /** Refuses actions the rule cannot take, or a plan some covered lines' plans cannot take. */
  check(kind: AlertKind, actions: readonly RuleActionWire[], levels: readonly number[], scope: { scope: 'rule' } | { scope: 'customer' | 'line'; key: string }): Promise<void>;
  /** Inside the evaluation's transaction: the opened alerts' actions, proposed or queued. */
  propose(opened: readonly OpenedLineAlert[], at: Date, tx: Db): Promise<{ proposed: number; queued: number; events: number }>;
  /**
   * Dunning blocked a customer for an unpaid statement due `dueOn`: proposes ending each of their
   * active lines at the end of its cycle, for an admin to approve (once per line and statement).
   */
  proposeLineEnds(customerId: string, dueOn: string): Promise<number>;
  /** Runs the queued actions that are due (one batch); answers how many ran and whether more wait. */
  runDue(): Promise<{ ran: number; more: boolean }>;
  /** Whether any action is due now (a retry's time came, or a stopped process's claim expired). */
  anyDue(): Promise<boolean>;
  list(query: AutomaticActionListQuery): Promise<AutomaticActionListWire>;
  approve(id: string, context: RequestContext & { userId: string }): Promise<AutomaticActionWire>;
  dismiss(id: string, context: RequestContext & { userId: string }): Promise<AutomaticActionWire>;
  undo(id: string, context: RequestContext & { userId: string }): Promise<AutomaticActionWire>;
  /** What each alert's rule did, for the alert's own answer. */
  summariesOf(alertIds: readonly string[]): Promise<Map<string, AlertActionSummaryWire[]>>;
}

const STATUSES_OF: Record<ActionStatusFilter, AutomaticActionStatus[] | null> = {
  waiting: ['proposed', 'queued', 'running'],
  proposed: ['proposed'],
  executed: ['executed'],
  failed: ['failed', 'skipped'],
  dismissed: ['dismissed'],
  undone: ['undone'],
  all: null,
};

/** What the action does, as the change-operations make it. */
function operationOf(row: Pick<AutomaticActionRow, 'action' | 'productReferenceId'>, reason: string): ChangeOperation {
  switch (row.action) {
    case 'opt_out':
      return { kind: 'opt_out' };
    case 'stop_recurring_blocks':
      return { kind: 'minimum_recurring_blocks' };
    case 'change_plan':
      return { kind: 'change_plan', productReferenceId: row.productReferenceId ?? '' };
    case 'end_at_cycle_end':
      return { kind: 'deactivate', endNow: false, reason };
    case 'block_sign_in':
      return { kind: 'block', reason };
  }
}

/** What taking a done action back does; null where nothing can. */
function undoOperationOf(row: AutomaticActionRow): ChangeOperation | null {
  const state = row.undoState ?? {};
  switch (row.action) {
    case 'opt_out':
      return { kind: 'opt_in' };
    case 'stop_recurring_blocks':
      return typeof state.productId === 'string' && typeof state.count === 'number' ? { kind: 'recurring_blocks', productId: state.productId, count: state.count } : null;
    case 'change_plan':
      return typeof state.productReferenceId === 'string' ? { kind: 'change_plan', productReferenceId: state.productReferenceId } : null;
    case 'block_sign_in':
      return { kind: 'unblock' };
    default:
      return null;
  }
}

/** Blocking sign-in is the customer's; every other action is the line's. */
function targetOf(row: AutomaticActionRow): ChangeTarget | null {
  if (row.action !== 'block_sign_in') return { type: 'line', serviceLineNumber: row.serviceLineNumber };
  return row.customerId ? { type: 'customer', customerId: row.customerId } : null;
}

const undoableNow = (row: AutomaticActionRow) => row.status === 'executed' && isUndoable(row.action) && undoOperationOf(row) !== null;

/** "Opted out of priority data automatically at 90 % of the plan". */
export function actionText(row: Pick<AutomaticActionRow, 'action' | 'status' | 'ruleKind' | 'level'>): string {
  const label = RULE_ACTION_LABELS[row.action];
  const why = row.ruleKind === 'usage' ? `at ${row.level} % of the plan` : row.ruleKind === 'dunning' ? 'as a statement is unpaid' : 'as overage was projected';
  switch (row.status) {
    case 'proposed':
      return `Proposed: ${label}, ${why}`;
    case 'queued':
    case 'running':
      return `Under way: ${label}, ${why}`;
    case 'executed':
      return `Done automatically: ${label}, ${why}`;
    case 'undone':
      return `Undone: ${label}, ${why}`;
    case 'dismissed':
      return `Dismissed: ${label}, ${why}`;
    default:
      return `Not done: ${label}, ${why}`;
  }
}

export function toActionWire(row: AutomaticActionListRow): AutomaticActionWire {
  return {
    id: row.id,
    ruleKind: row.ruleKind,
    level: row.level,
    action: row.action,
    mode: row.mode,
    status: row.status,
    serviceLineNumber: row.serviceLineNumber,
    customer: row.customerId ? { uuid: row.customerId, name: row.customerName ?? '' } : null,
    alertId: row.alertId,
    cycleStart: row.cycleStart,
    productReferenceId: row.productReferenceId,
    planName: row.planName,
    projectedSaving: row.projectedSaving,
    currency: row.currency,
    ruleLabel: ruleLabel(row.ruleKind, row.level),
    setUpBy: row.setUpByName,
    decidedBy: row.decidedByName,
    decidedAt: isoOrNull(row.decidedAt),
    executedAt: isoOrNull(row.executedAt),
    outcome: row.outcome,
    undoable: undoableNow(row),
    undoneAt: isoOrNull(row.undoneAt),
    undoneBy: row.undoneByName,
    createdAt: row.createdAt.toISOString(),
  };
}

export function createAutomaticActionsService(deps: {
  repos: Repositories;
  audit: AuditService;
  now: Clock;
  changes: ChangeOperations;
  email: EmailSender;
  log: EmailLogger;
  portalUrl: string | null;
  webhooks: () => ActionEventPublisher | null;
  /** Raises the alert of an action that failed for good. */
  raiseFailure: (failure: { serviceLineNumber: string; customerId: string | null; changeId: string; change: string; failure: string }) => Promise<void>;
}): AutomaticActionsService {
  const { repos, now } = deps;
  const store = repos.automaticActions;

  const ruleActor = (row: AutomaticActionRow): RequestContext => ({ actor: { type: 'rule', id: row.id }, ip: null, requestId: null });
  const reasonOf = (row: AutomaticActionRow) => `Automatic: ${ruleLabel(row.ruleKind, row.level)}`;

  async function publish(type: PublishedEventType, rows: readonly AutomaticActionRow[], tx?: Db) {
    const publisher = deps.webhooks();
    if (!publisher || rows.length === 0) return 0;
    const listed = await store.byIds(
      rows.map((r) => r.id),
      tx,
    );
    const { events } = await publisher.publish(
      listed.map((row) => ({ type, data: { action: toActionWire(row) } })),
      tx,
    );
    return events;
  }

  /** The customer hears of a done action when the rule emails customers. */
  async function tellCustomer(row: AutomaticActionRow): Promise<RecordedEmail | null> {
    if (!row.customerId) return null;
    const rule = (await repos.alerts.rules()).find((r) => r.kind === row.ruleKind);
    if (!rule?.notifyCustomer) return null;
    const contact = (await repos.alerts.customerContacts([row.customerId])).get(row.customerId);
    if (!contact) return null;
    return deps.email.record({
      to: contact.email,
      ...automaticActionEmail({
        name: contact.name,
        serviceLineNumber: row.serviceLineNumber,
        what: RULE_ACTION_LABELS[row.action],
        why: row.ruleKind === 'usage' ? `the line reached ${row.level} % of its plan this billing cycle` : 'the line was projected to run up overage this billing cycle',
        link: deps.portalUrl ? `${deps.portalUrl}/my/alerts` : null,
      }),
    });
  }

  /** Makes one claimed action, and records what became of it. */
  async function make(row: AutomaticActionRow, context: RequestContext): Promise<AutomaticActionRow> {
    let result: ChangeResult;
    const target = targetOf(row);
    try {
      result = target ? await deps.changes.perform(target, operationOf(row, reasonOf(row)), context, `action:${row.id}`) : { result: 'skipped', outcome: CHANGE_OUTCOMES.noCustomer };
    } catch (error) {
      const words = error instanceof Error ? error.message : String(error);
      if (isTransient(error) && row.attempts < ACTION_MAX_ATTEMPTS) {
        const back = await store.transition(row.id, ['running'], 'queued', { claimedUntil: null, nextAttemptAt: new Date(now().getTime() + retryDelayMs(row.attempts)), outcome: `Will try again: ${words}` });
        return back ?? row;
      }
      result = { result: 'refused', outcome: words };
    }
    const at = now();
    const status = result.result === 'made' ? 'executed' : result.result === 'skipped' ? 'skipped' : 'failed';
    const settled = await store.transition(row.id, ['running'], status, {
      claimedUntil: null,
      nextAttemptAt: null,
      executedAt: result.result === 'made' ? at : null,
      outcome: result.outcome,
      undoState: result.result === 'made' ? (result.undoState ?? null) : null,
    });
    if (!settled) return row;
    const events = await publish(status === 'executed' ? 'action.executed' : 'action.failed', [settled]);
    if (events > 0) deps.webhooks()?.wake();
    if (status === 'executed') {
      const message = await tellCustomer(settled);
      if (message) void deps.email.deliver(message, { log: deps.log });
    }
    if (status === 'failed') {
      await deps.raiseFailure({
        serviceLineNumber: settled.serviceLineNumber,
        customerId: settled.customerId,
        changeId: settled.id,
        change: `Automatic action: ${RULE_ACTION_LABELS[settled.action]}`,
        failure: result.outcome,
      });
    }
    return settled;
  }

  async function wireOf(id: string): Promise<AutomaticActionWire> {
    const row = await store.byId(id);
    if (!row) throw new NotFoundError(M.actionNotFound);
    return toActionWire(row);
  }

  return {
    async check(kind, actions, levels, scope) {
      const problem = ruleActionsProblem(kind, actions, levels);
      if (problem) throw fieldError('actions', problem);
      if (!(ACTION_ALERT_KINDS as readonly string[]).includes(kind)) return;
      const ruleKind = kind as ActionAlertKind;
      const seen = new Set<string>();
      for (const a of actions) {
        const key = `${a.action}:${a.productReferenceId ?? ''}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const { lines, total } = await store.linesThatCannot(a.action, ruleKind, scope, a.productReferenceId, LINES_NAMED);
        if (total > 0) throw fieldError('actions', M.linesCannotTake(a.action, lines, total));
      }
    },

    async propose(opened, at, tx) {
      const rows: (NewAutomaticAction & { status: 'proposed' | 'queued' })[] = [];
      for (const alert of opened) {
        if (!(ACTION_ALERT_KINDS as readonly string[]).includes(alert.kind)) continue;
        for (const a of alert.actions) {
          if (a.level !== alert.level) continue;
          rows.push({
            ruleKind: alert.kind as ActionAlertKind,
            level: alert.level,
            action: a.action,
            mode: a.mode,
            status: a.mode === 'act' ? 'queued' : 'proposed',
            serviceLineNumber: alert.serviceLineNumber,
            customerId: alert.customerId,
            alertId: alert.alertId,
            cycleStart: alert.cycleStart,
            productReferenceId: a.action === 'change_plan' ? a.productReferenceId : null,
            // Opting out stops the overage the cycle is heading for; the other actions' saving is not told here.
            projectedSaving: a.action === 'opt_out' ? alert.projectedCharge : null,
            currency: a.action === 'opt_out' ? alert.currency : null,
            setUpBy: alert.setUpBy,
          });
        }
      }
      const inserted = await store.insertMany(rows, at, tx);
      const proposed = inserted.filter((r) => r.status === 'proposed');
      const events = await publish('action.proposed', proposed, tx);
      return { proposed: proposed.length, queued: inserted.length - proposed.length, events };
    },

    async proposeLineEnds(customerId, dueOn) {
      const lines = await repos.serviceLines.activeLinesOfCustomer(customerId);
      const rows = lines.map((serviceLineNumber) => ({
        ruleKind: 'dunning' as const,
        level: 0,
        action: 'end_at_cycle_end' as const,
        mode: 'propose' as const,
        status: 'proposed' as const,
        serviceLineNumber,
        customerId,
        alertId: null,
        cycleStart: dueOn,
        productReferenceId: null,
        projectedSaving: null,
        currency: null,
        setUpBy: null,
      }));
      const proposed = await store.insertMany(rows, now());
      if ((await publish('action.proposed', proposed)) > 0) deps.webhooks()?.wake();
      return proposed.length;
    },

    async runDue() {
      const at = now();
      const claimed = await store.claimDue(at, new Date(at.getTime() + ACTION_CLAIM_MS), ACTIONS_PER_RUN);
      // Nobody waits on these: their provider calls go behind people's, inside the background share.
      for (const row of claimed) await inBackgroundLane(() => make(row, ruleActor(row)));
      return { ran: claimed.length, more: claimed.length === ACTIONS_PER_RUN };
    },

    anyDue: () => store.anyDue(now()),

    async list(query) {
      const filter = { statuses: STATUSES_OF[query.status], search: query.search?.trim() || null };
      const { rows, total } = await store.list(filter, { offset: (query.page - 1) * query.limit, limit: query.limit });
      return { actions: rows.map(toActionWire), pagination: paginationOf(total, query.page, query.limit), waiting: await store.waitingCount() };
    },

    async approve(id, context) {
      const at = now();
      // Approved is claimed by this request at once: made now, in the person's lane, as a click is.
      const claimed = await store.transition(id, ['proposed'], 'running', { decidedBy: context.userId, decidedAt: at, claimedUntil: new Date(at.getTime() + ACTION_CLAIM_MS), attempts: 1 });
      if (!claimed) {
        if (!(await store.byId(id))) throw new NotFoundError(M.actionNotFound);
        throw new ConflictError(M.notWaiting);
      }
      await deps.audit.record({ ...auditSource(context), action: 'automatic_action.approved', targetType: 'automatic_action', targetId: id, after: { action: claimed.action, serviceLineNumber: claimed.serviceLineNumber } });
      await make(claimed, ruleActor(claimed));
      return wireOf(id);
    },

    async dismiss(id, context) {
      const row = await store.transition(id, ['proposed'], 'dismissed', { decidedBy: context.userId, decidedAt: now(), outcome: M.dismissed });
      if (!row) {
        if (!(await store.byId(id))) throw new NotFoundError(M.actionNotFound);
        throw new ConflictError(M.notWaiting);
      }
      await deps.audit.record({ ...auditSource(context), action: 'automatic_action.dismissed', targetType: 'automatic_action', targetId: id, after: { action: row.action, serviceLineNumber: row.serviceLineNumber } });
      if ((await publish('action.dismissed', [row])) > 0) deps.webhooks()?.wake();
      return wireOf(id);
    },

    async undo(id, context) {
      const row = (await store.byId(id)) ?? null;
      if (!row) throw new NotFoundError(M.actionNotFound);
      if (!isUndoable(row.action)) throw new ConflictError(M.notUndoable);
      if (row.status !== 'executed') throw new ConflictError(M.notExecuted);
      const operation = undoOperationOf(row);
      if (!operation) throw new ConflictError(M.notUndoable);
      // The person undoes it under their own name; the write is sent once under the undo's own key.
      const target = targetOf(row);
      if (!target) throw new ConflictError(M.notUndoable);
      const result = await deps.changes.perform(target, operation, context, `action-undo:${row.id}`);
      if (result.result === 'refused') throw new ConflictError(result.outcome);
      const undone = await store.transition(id, ['executed'], 'undone', { undoneAt: now(), undoneBy: context.userId, outcome: `${UNDOABLE_ACTIONS[row.action] ?? 'Undone'}: ${result.outcome}` });
      if (undone && (await publish('action.undone', [undone])) > 0) deps.webhooks()?.wake();
      return wireOf(id);
    },

    async summariesOf(alertIds) {
      const out = new Map<string, AlertActionSummaryWire[]>();
      for (const row of await store.ofAlerts(alertIds)) {
        if (!row.alertId) continue;
        const list = out.get(row.alertId) ?? [];
        list.push({ id: row.id, action: row.action, status: row.status, text: actionText(row), undoable: undoableNow(row) });
        out.set(row.alertId, list);
      }
      return out;
    },
  };
}
