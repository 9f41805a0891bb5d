// Automatic actions (the Actions queue: approve, dismiss, undo) and scheduled changes (the Schedule
// page: list, schedule, cancel), and the rule actions' readers the alerts module shares. The wire
// is the shared contract of src/domain/automation.ts; rows that cannot be read are skipped.
import { mapResult, type ApiClient, type ApiResult } from './client';
import { bool, int, isRecord, present, text, withSignal } from './normalise';
import { listOf, num, oneOf } from './terminals';
import { normalisePagination } from './customers';
import {
  ACTION_MODES,
  ACTION_SOURCES,
  ACTIONS_PAGE_SIZE,
  AUTOMATIC_ACTION_STATUSES,
  RULE_ACTIONS,
  SCHEDULE_OPERATIONS,
  SCHEDULE_PAGE_SIZE,
  SCHEDULE_STATUSES,
  type AutomaticActionListQuery,
  type AutomaticActionListWire,
  type AutomaticActionWire,
  type RuleActionWire,
  type ScheduleParameters,
  type SchedulePayload,
  type ScheduledChangeListQuery,
  type ScheduledChangeListWire,
  type ScheduledChangeWire,
} from '../domain/automation';
import type { AlertActionSummaryWire } from '../domain/alerts';

const whole = (value: unknown) => Math.max(0, int(value, 0));

/** One action of a rule; null without a known action and mode. */
export function normaliseRuleAction(raw: unknown): RuleActionWire | null {
  if (!isRecord(raw)) return null;
  const action = oneOf(RULE_ACTIONS, raw.action);
  const mode = oneOf(ACTION_MODES, raw.mode);
  if (!action || !mode) return null;
  return { level: whole(raw.level), action, mode, productReferenceId: text(raw.productReferenceId) };
}

export const normaliseRuleActions = (value: unknown): RuleActionWire[] => listOf(value).map(normaliseRuleAction).filter(present);

export function normaliseActionSummary(raw: unknown): AlertActionSummaryWire | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  const action = oneOf(RULE_ACTIONS, raw.action);
  const status = oneOf(AUTOMATIC_ACTION_STATUSES, raw.status);
  if (!id || !action || !status) return null;
  return { id, action, status, text: text(raw.text) ?? '', undoable: bool(raw.undoable) };
}

export function normaliseAutomaticAction(raw: unknown): AutomaticActionWire | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  const ruleKind = oneOf(ACTION_SOURCES, raw.ruleKind);
  const action = oneOf(RULE_ACTIONS, raw.action);
  const mode = oneOf(ACTION_MODES, raw.mode);
  const status = oneOf(AUTOMATIC_ACTION_STATUSES, raw.status);
  const serviceLineNumber = text(raw.serviceLineNumber);
  if (!id || !ruleKind || !action || !mode || !status || !serviceLineNumber) return null;
  const customer = isRecord(raw.customer) && text(raw.customer.uuid) ? { uuid: text(raw.customer.uuid)!, name: text(raw.customer.name) ?? 'Customer' } : null;
  return {
    id,
    ruleKind,
    level: whole(raw.level),
    action,
    mode,
    status,
    serviceLineNumber,
    customer,
    alertId: text(raw.alertId),
    cycleStart: text(raw.cycleStart) ?? '',
    productReferenceId: text(raw.productReferenceId),
    planName: text(raw.planName),
    projectedSaving: num(raw.projectedSaving),
    currency: text(raw.currency),
    ruleLabel: text(raw.ruleLabel) ?? '',
    setUpBy: text(raw.setUpBy),
    decidedBy: text(raw.decidedBy),
    decidedAt: text(raw.decidedAt),
    executedAt: text(raw.executedAt),
    outcome: text(raw.outcome),
    undoable: bool(raw.undoable),
    undoneAt: text(raw.undoneAt),
    undoneBy: text(raw.undoneBy),
    createdAt: text(raw.createdAt) ?? '',
  };
}

export function normaliseActionList(data: unknown, query: AutomaticActionListQuery = {}): AutomaticActionListWire | null {
  if (!isRecord(data) || !Array.isArray(data.actions)) return null;
  const actions = data.actions.map(normaliseAutomaticAction).filter(present);
  return {
    actions,
    pagination: normalisePagination(data.pagination, actions.length, { page: query.page, limit: query.limit ?? ACTIONS_PAGE_SIZE }),
    waiting: whole(data.waiting),
  };
}

function parameters(raw: unknown): ScheduleParameters {
  if (!isRecord(raw)) return {};
  const out: ScheduleParameters = {};
  const productReferenceId = text(raw.productReferenceId);
  const productId = text(raw.productId);
  const reason = text(raw.reason);
  const count = num(raw.count);
  const days = num(raw.days);
  if (productReferenceId) out.productReferenceId = productReferenceId;
  if (productId) out.productId = productId;
  if (reason) out.reason = reason;
  if (count !== null) out.count = count;
  if (days !== null) out.days = days;
  return out;
}

export function normaliseScheduledChange(raw: unknown): ScheduledChangeWire | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  const operation = oneOf(SCHEDULE_OPERATIONS, raw.operation);
  const targetType = oneOf(['line', 'customer'] as const, raw.targetType);
  const status = oneOf(SCHEDULE_STATUSES, raw.status);
  const target = text(raw.target);
  const runAt = text(raw.runAt);
  if (!id || !operation || !targetType || !status || !target || !runAt) return null;
  return {
    id,
    operation,
    targetType,
    target,
    targetLabel: text(raw.targetLabel),
    parameters: parameters(raw.parameters),
    summary: text(raw.summary) ?? '',
    runAt,
    atNextCycle: bool(raw.atNextCycle),
    status,
    attempts: whole(raw.attempts),
    outcome: text(raw.outcome),
    createdBy: text(raw.createdBy),
    createdAt: text(raw.createdAt) ?? '',
    executedAt: text(raw.executedAt),
    cancelledBy: text(raw.cancelledBy),
    cancelledAt: text(raw.cancelledAt),
  };
}

export function normaliseScheduleList(data: unknown, query: ScheduledChangeListQuery = {}): ScheduledChangeListWire | null {
  if (!isRecord(data) || !Array.isArray(data.changes)) return null;
  const changes = data.changes.map(normaliseScheduledChange).filter(present);
  return {
    changes,
    pagination: normalisePagination(data.pagination, changes.length, { page: query.page, limit: query.limit ?? SCHEDULE_PAGE_SIZE }),
    upcoming: whole(data.upcoming),
  };
}

const actionPath = (id: string, verb: 'approve' | 'dismiss' | 'undo') => `/automatic-actions/${encodeURIComponent(id)}/${verb}`;

export function createAutomationApi(client: ApiClient) {
  const act = async (id: string, verb: 'approve' | 'dismiss' | 'undo', signal?: AbortSignal): Promise<ApiResult<AutomaticActionWire>> =>
    mapResult(await client.request<unknown>(actionPath(id, verb), { method: 'POST', ...withSignal(signal) }), normaliseAutomaticAction);
  return {
    actions: async (query: AutomaticActionListQuery = {}, signal?: AbortSignal): Promise<ApiResult<AutomaticActionListWire>> =>
      mapResult(
        await client.request<unknown>('/automatic-actions', {
          query: { status: query.status ?? 'waiting', search: query.search || undefined, page: query.page ?? 1, limit: query.limit ?? ACTIONS_PAGE_SIZE },
          ...withSignal(signal),
        }),
        (data) => normaliseActionList(data, query),
      ),
    approve: (id: string, signal?: AbortSignal) => act(id, 'approve', signal),
    dismiss: (id: string, signal?: AbortSignal) => act(id, 'dismiss', signal),
    undo: (id: string, signal?: AbortSignal) => act(id, 'undo', signal),

    schedule: async (query: ScheduledChangeListQuery = {}, signal?: AbortSignal): Promise<ApiResult<ScheduledChangeListWire>> =>
      mapResult(
        await client.request<unknown>('/scheduled-changes', {
          query: { status: query.status ?? 'upcoming', target: query.target || undefined, page: query.page ?? 1, limit: query.limit ?? SCHEDULE_PAGE_SIZE },
          ...withSignal(signal),
        }),
        (data) => normaliseScheduleList(data, query),
      ),
    scheduleChange: async (payload: SchedulePayload, signal?: AbortSignal): Promise<ApiResult<ScheduledChangeWire>> =>
      mapResult(await client.request<unknown>('/scheduled-changes', { method: 'POST', body: payload, ...withSignal(signal) }), normaliseScheduledChange),
    cancelChange: async (id: string, signal?: AbortSignal): Promise<ApiResult<ScheduledChangeWire>> =>
      mapResult(await client.request<unknown>(`/scheduled-changes/${encodeURIComponent(id)}/cancel`, { method: 'POST', ...withSignal(signal) }), normaliseScheduledChange),
  };
}

export type AutomationApi = ReturnType<typeof createAutomationApi>;
