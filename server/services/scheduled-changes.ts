// Scheduled changes: one line's or customer's change set for a later moment (a date and time, or the
// line's next billing cycle), listed on the Schedule page until it runs, and cancellable until then.
//
// A due change is claimed by one process (scheduled → running; a claim a stopped process left is
// taken again once it expires) and made through change-operations.ts, the services a click uses,
// under the schedule's own intent key: a provider write whose answer was lost is looked up before it
// is sent again. Its provider calls take the background lane of the budget. While the provider is
// out of reach it is tried again with back-off; the last failure raises an alert. A change whose
// line has ended, or whose customer is gone, is skipped with the reason. Each outcome is audited
// with the schedule as the actor (the audit log names who set it up) and published as a webhook
// event.
import {
  AUTOMATION_MESSAGES as M,
  SCHEDULE_MAX_ATTEMPTS,
  SCHEDULE_OPERATION_LABELS,
  scheduleParametersProblem,
  scheduleSummary,
  scheduleTimeProblem,
  targetTypeOf,
  type ScheduleParameters,
  type SchedulePayload,
  type ScheduleStatus,
  type ScheduleStatusFilter,
  type ScheduledChangeListWire,
  type ScheduledChangeWire,
} from '../../src/domain/automation';
import { paginationOf } from '../../src/domain/customers';
import { isoOrNull, type Clock } from '../clock';
import type { Db } from '../db/client';
import type { Repositories } from '../db/repositories';
import type { ScheduledChangeListRow } from '../db/repositories/scheduled-changes';
import type { ScheduledChangeRow } from '../db/schema';
import { ConflictError, NotFoundError, fieldError } from '../errors';
import { inBackgroundLane } from '../provider/client';
import { auditSource, type AuditService, type RequestContext } from './audit';
import { retryDelayMs } from './automatic-actions';
import { isTransient, type ChangeOperation, type ChangeOperations, type ChangeResult, type ChangeTarget } from './change-operations';
import type { PublishedEventType } from './webhooks';

/** Changes one run claims; the tick queues the next run for the rest. */
export const SCHEDULES_PER_RUN = 50;
/** How long a claimed change is this process's. */
export const SCHEDULE_CLAIM_MS = 10 * 60_000;
const DAY_MS = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ScheduleListQuery {
  status: ScheduleStatusFilter;
  target: string | null;
  page: number;
  limit: number;
}

export interface ScheduledChangesService {
  schedule(payload: SchedulePayload, context: RequestContext & { userId: string }): Promise<ScheduledChangeWire>;
  list(query: ScheduleListQuery): Promise<ScheduledChangeListWire>;
  cancel(id: string, context: RequestContext & { userId: string }): Promise<ScheduledChangeWire>;
  /** Makes the changes that are due (one batch); answers how many ran and whether more wait. */
  runDue(): Promise<{ ran: number; more: boolean }>;
  /** Whether any change is due now. */
  anyDue(): Promise<boolean>;
}

const STATUSES_OF: Record<ScheduleStatusFilter, ScheduleStatus[] | null> = {
  upcoming: ['scheduled', 'running'],
  scheduled: ['scheduled'],
  running: ['running'],
  done: ['done'],
  failed: ['failed'],
  skipped: ['skipped'],
  cancelled: ['cancelled'],
  all: null,
};

function operationOf(row: Pick<ScheduledChangeRow, 'operation' | 'parameters'>): ChangeOperation {
  const p = row.parameters;
  switch (row.operation) {
    case 'change_plan':
      return { kind: 'change_plan', productReferenceId: p.productReferenceId ?? '' };
    case 'opt_in':
      return { kind: 'opt_in' };
    case 'opt_out':
      return { kind: 'opt_out' };
    case 'recurring_blocks':
      return { kind: 'recurring_blocks', productId: p.productId ?? '', count: p.count ?? 0 };
    case 'deactivate':
      return { kind: 'deactivate', endNow: true, reason: p.reason ?? '' };
    case 'block':
      return { kind: 'block', reason: p.reason ?? '' };
    case 'unblock':
      return { kind: 'unblock' };
    case 'extend':
      return { kind: 'extend', days: p.days ?? 0 };
  }
}

const targetOf = (row: Pick<ScheduledChangeRow, 'targetType' | 'targetKey'>): ChangeTarget =>
  row.targetType === 'line' ? { type: 'line', serviceLineNumber: row.targetKey } : { type: 'customer', customerId: row.targetKey };

/** Only what the operation takes is kept (a stray field is not stored, nor sent later). */
function parametersOf(operation: SchedulePayload['operation'], p: ScheduleParameters): ScheduleParameters {
  switch (operation) {
    case 'change_plan':
      return { productReferenceId: p.productReferenceId?.trim() ?? '' };
    case 'recurring_blocks':
      return { productId: p.productId?.trim() ?? '', count: p.count ?? 0 };
    case 'deactivate':
    case 'block':
      return { reason: p.reason?.trim() ?? '' };
    case 'extend':
      return { days: p.days ?? 0 };
    default:
      return {};
  }
}

export function toScheduleWire(row: ScheduledChangeListRow, planName: string | null = null): ScheduledChangeWire {
  return {
    id: row.id,
    operation: row.operation,
    targetType: row.targetType,
    target: row.targetKey,
    targetLabel: row.targetLabel,
    parameters: row.parameters,
    summary: scheduleSummary(row.operation, row.parameters, planName),
    runAt: row.runAt.toISOString(),
    atNextCycle: row.atNextCycle,
    status: row.status,
    attempts: row.attempts,
    outcome: row.outcome,
    createdBy: row.createdByName,
    createdAt: row.createdAt.toISOString(),
    executedAt: isoOrNull(row.executedAt),
    cancelledBy: row.cancelledByName,
    cancelledAt: isoOrNull(row.cancelledAt),
  };
}

export function createScheduledChangesService(deps: {
  repos: Repositories;
  audit: AuditService;
  now: Clock;
  changes: ChangeOperations;
  webhooks: () => { publish(events: { type: PublishedEventType; data: unknown }[], tx?: Db): Promise<{ events: number }>; wake(): void } | null;
  raiseFailure: (failure: { serviceLineNumber?: string | null; customerId: string | null; changeId: string; change: string; failure: string }) => Promise<void>;
}): ScheduledChangesService {
  const { repos, now } = deps;
  const store = repos.scheduledChanges;

  async function wireOf(id: string): Promise<ScheduledChangeWire> {
    const row = await store.byId(id);
    if (!row) throw new NotFoundError(M.changeNotFound);
    return toScheduleWire(row);
  }

  async function publish(type: PublishedEventType, id: string) {
    const publisher = deps.webhooks();
    if (!publisher) return;
    const { events } = await publisher.publish([{ type, data: { change: await wireOf(id) } }]);
    if (events > 0) publisher.wake();
  }

  /** The first moment of the line's next billing cycle: the day after its current cycle ends. */
  async function nextCycleStart(serviceLineNumber: string): Promise<Date | null> {
    const end = await repos.serviceLines.currentCycleEnd(serviceLineNumber);
    return end ? new Date(Date.parse(`${end}T00:00:00Z`) + DAY_MS) : null;
  }

  async function make(row: ScheduledChangeRow): Promise<void> {
    const context: RequestContext = { actor: { type: 'schedule', id: row.id }, ip: null, requestId: null };
    let result: ChangeResult;
    try {
      result = await inBackgroundLane(() => deps.changes.perform(targetOf(row), operationOf(row), context, `schedule:${row.id}`));
    } catch (error) {
      const words = error instanceof Error ? error.message : String(error);
      if (isTransient(error) && row.attempts < SCHEDULE_MAX_ATTEMPTS) {
        await store.transition(row.id, ['running'], 'scheduled', { claimedUntil: null, nextAttemptAt: new Date(now().getTime() + retryDelayMs(row.attempts)), outcome: `Will try again: ${words}` });
        return;
      }
      result = { result: 'refused', outcome: words };
    }
    const status = result.result === 'made' ? 'done' : result.result === 'skipped' ? 'skipped' : 'failed';
    const settled = await store.transition(row.id, ['running'], status, { claimedUntil: null, executedAt: now(), outcome: result.outcome });
    if (!settled) return;
    await publish(status === 'done' ? 'schedule.executed' : status === 'skipped' ? 'schedule.skipped' : 'schedule.failed', row.id);
    if (status === 'failed') {
      await deps.raiseFailure({
        serviceLineNumber: row.targetType === 'line' ? row.targetKey : null,
        customerId: row.targetType === 'customer' ? row.targetKey : null,
        changeId: row.id,
        change: `Scheduled change: ${SCHEDULE_OPERATION_LABELS[row.operation]}`,
        failure: result.outcome,
      });
    }
  }

  return {
    async schedule(payload, context) {
      const operation = payload.operation;
      const targetType = targetTypeOf(operation);
      const target = payload.target.trim();
      const parameters = parametersOf(operation, payload.parameters ?? {});
      const problem = scheduleParametersProblem(operation, parameters);
      if (problem) throw fieldError(problem.path, problem.message);

      // The target exists now (a line in the inventory, a customer not deleted); a customer is named by its UUID.
      if (targetType === 'customer' && !UUID.test(target)) throw fieldError('target', M.targetNotFound);
      if (targetType === 'line') {
        if (!(await repos.serviceLines.context(target))) throw fieldError('target', M.targetNotFound);
      } else if (!(await repos.customers.findLiveById(target))) throw fieldError('target', M.targetNotFound);

      const at = now();
      let runAt: Date;
      if (payload.atNextCycle) {
        if (payload.at) throw fieldError('at', M.timeOrNextCycle);
        if (targetType !== 'line') throw fieldError('atNextCycle', M.nextCycleLinesOnly);
        const start = await nextCycleStart(target);
        if (!start || start.getTime() <= at.getTime()) throw fieldError('atNextCycle', M.noNextCycle);
        runAt = start;
      } else {
        if (!payload.at) throw fieldError('at', M.timeRequired);
        runAt = new Date(payload.at);
        const timeProblem = scheduleTimeProblem(runAt, at);
        if (timeProblem) throw fieldError('at', timeProblem);
      }
      if (operation === 'change_plan') {
        const line = await repos.serviceLines.context(target);
        if (!line || !(await repos.subscriptions.findLiveProduct(parameters.productReferenceId ?? '', line.accountId))) throw fieldError('parameters.productReferenceId', M.planUnknown);
      }

      const row = await repos.scheduledChanges.transaction(async (tx) => {
        const made = await repos.scheduledChanges.insert({ operation, targetType, targetKey: target, parameters, runAt, atNextCycle: payload.atNextCycle === true, createdBy: context.userId }, at, tx);
        await deps.audit.record(
          { ...auditSource(context), action: 'scheduled_change.created', targetType: 'scheduled_change', targetId: made.id, after: { operation, target, parameters, runAt: runAt.toISOString(), atNextCycle: made.atNextCycle } },
          tx,
        );
        return made;
      });
      return wireOf(row.id);
    },

    async list(query) {
      const { rows, total } = await store.list({ statuses: STATUSES_OF[query.status], target: query.target?.trim() || null }, { offset: (query.page - 1) * query.limit, limit: query.limit });
      return { changes: rows.map((r) => toScheduleWire(r)), pagination: paginationOf(total, query.page, query.limit), upcoming: await store.upcomingCount() };
    },

    async cancel(id, context) {
      const row = await store.transaction(async (tx) => {
        const cancelled = await store.transition(id, ['scheduled'], 'cancelled', { cancelledBy: context.userId, cancelledAt: now(), nextAttemptAt: null }, tx);
        if (cancelled) await deps.audit.record({ ...auditSource(context), action: 'scheduled_change.cancelled', targetType: 'scheduled_change', targetId: id, before: { status: 'scheduled' } }, tx);
        return cancelled;
      });
      if (!row) {
        if (!(await store.byId(id))) throw new NotFoundError(M.changeNotFound);
        throw new ConflictError(M.notCancellable);
      }
      return wireOf(id);
    },

    async runDue() {
      const at = now();
      const claimed = await store.claimDue(at, new Date(at.getTime() + SCHEDULE_CLAIM_MS), SCHEDULES_PER_RUN);
      for (const row of claimed) await make(row);
      return { ran: claimed.length, more: claimed.length === SCHEDULES_PER_RUN };
    },

    anyDue: () => store.anyDue(now()),
  };
}
