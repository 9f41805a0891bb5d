// The changes the portal makes without a person's click at that moment (an alert rule's action, a
// scheduled change), made through the same services as the click: the same checks, the same
// provider write recorded as an intent under the change's own key (sent once, across lost answers
// and crashes), the same audit entry with the rule or the schedule as its actor.
//
// What comes back says what became of it:
// - made: the provider (or the portal) made it;
// - skipped: there was nothing to do (the line already shows it, the line has ended, the customer
//   is gone), with the reason;
// - refused: it cannot be made (the provider or a check said no), with the words;
// - a thrown error: the provider could not be reached or did not answer; the caller tries again.
import type { CustomersService } from './customers';
import type { RequestContext } from './audit';
import type { ServiceLinesService } from './service-lines';
import type { SubscriptionsService } from './subscriptions';
import { AppError, BadGatewayError, ConflictError, GatewayTimeoutError, NotFoundError, ServiceUnavailableError } from '../errors';
import { SERVICE_LINE_MESSAGES } from '../../src/domain/service-lines';
import { SUBSCRIPTION_MESSAGES } from '../../src/domain/subscriptions';
import type { Repositories } from '../db/repositories';

export type ChangeOperation =
  | { kind: 'opt_out' }
  | { kind: 'opt_in' }
  | { kind: 'recurring_blocks'; productId: string; count: number }
  /** The fewest recurring blocks the plan takes (one of its smallest block), from the next cycle. */
  | { kind: 'minimum_recurring_blocks' }
  | { kind: 'change_plan'; productReferenceId: string }
  | { kind: 'deactivate'; endNow: boolean; reason: string }
  | { kind: 'block'; reason: string }
  | { kind: 'unblock' }
  | { kind: 'extend'; days: number };

export type ChangeTarget = { type: 'line'; serviceLineNumber: string } | { type: 'customer'; customerId: string };

export type ChangeResult =
  | { result: 'made'; outcome: string; undoState?: Record<string, unknown> }
  | { result: 'skipped'; outcome: string }
  | { result: 'refused'; outcome: string };

export const CHANGE_OUTCOMES = {
  made: 'Done',
  alreadySo: 'Skipped: the line already shows it',
  alreadyBlocked: 'Skipped: the customer is already blocked',
  notBlocked: 'Skipped: the customer is not blocked',
  atMinimum: 'Skipped: the recurring blocks are already at the fewest the plan takes',
  noBlocks: "Skipped: the line's plan has no recurring blocks",
  lineEnded: 'Skipped: the line has ended',
  lineGone: 'Skipped: the line is no longer in the inventory',
  customerGone: 'Skipped: the customer no longer exists',
  noCustomer: 'Skipped: no customer holds the line',
} as const;

/** Whether a failure is the provider being out of reach (try again later), not an answer. */
export function isTransient(error: unknown): boolean {
  return error instanceof BadGatewayError || error instanceof GatewayTimeoutError || error instanceof ServiceUnavailableError;
}

export interface ChangeOperations {
  perform(target: ChangeTarget, operation: ChangeOperation, context: RequestContext, intentKey: string): Promise<ChangeResult>;
}

export function createChangeOperations(deps: {
  repos: Pick<Repositories, 'customers'>;
  serviceLines: () => ServiceLinesService;
  subscriptions: () => SubscriptionsService;
  customers: () => CustomersService;
}): ChangeOperations {
  async function onLine(serviceLineNumber: string, operation: ChangeOperation, context: RequestContext, intentKey: string): Promise<ChangeResult> {
    const lines = deps.serviceLines();
    const options = { intentKey };
    switch (operation.kind) {
      case 'opt_out':
      case 'opt_in':
        await lines.setPriorityData(serviceLineNumber, operation.kind === 'opt_in', context, options);
        return { result: 'made', outcome: CHANGE_OUTCOMES.made };
      case 'recurring_blocks':
        await lines.setRecurringBlocks(serviceLineNumber, { productId: operation.productId, count: operation.count, applyToCurrentCycle: false }, context, options);
        return { result: 'made', outcome: CHANGE_OUTCOMES.made };
      case 'minimum_recurring_blocks': {
        const settings = await lines.settings(serviceLineNumber);
        const smallest = [...settings.blockProducts].sort((a, b) => a.dataGB - b.dataGB)[0];
        const next = settings.nextRecurringBlocks ?? settings.recurringBlocks;
        if (settings.planKind !== 'blocks' || !smallest) return { result: 'skipped', outcome: CHANGE_OUTCOMES.noBlocks };
        if (next && next.productId === smallest.productId && next.count <= 1) return { result: 'skipped', outcome: CHANGE_OUTCOMES.atMinimum };
        await lines.setRecurringBlocks(serviceLineNumber, { productId: smallest.productId, count: 1, applyToCurrentCycle: false }, context, options);
        return { result: 'made', outcome: CHANGE_OUTCOMES.made, undoState: next ? { productId: next.productId, count: next.count } : {} };
      }
      case 'change_plan': {
        const before = (await lines.settings(serviceLineNumber)).productReferenceId;
        await deps.subscriptions().changePlan({ serviceLineNumber, productReferenceId: operation.productReferenceId }, context, options);
        return { result: 'made', outcome: CHANGE_OUTCOMES.made, undoState: { productReferenceId: before } };
      }
      case 'deactivate':
        await lines.deactivate(serviceLineNumber, { when: operation.endNow ? 'now' : 'end_of_cycle', reason: operation.reason }, context, options);
        return { result: 'made', outcome: CHANGE_OUTCOMES.made };
      default:
        return { result: 'refused', outcome: `${operation.kind} is not a change of a line` };
    }
  }

  async function onCustomer(customerId: string, operation: ChangeOperation, context: RequestContext): Promise<ChangeResult> {
    const customer = await deps.repos.customers.findLiveById(customerId);
    if (!customer) return { result: 'skipped', outcome: CHANGE_OUTCOMES.customerGone };
    const customers = deps.customers();
    switch (operation.kind) {
      case 'block':
        if (customer.blockedEnabled) return { result: 'skipped', outcome: CHANGE_OUTCOMES.alreadyBlocked };
        await customers.update(customerId, { blocked_enabled: true, blocked_reason: operation.reason }, context);
        return { result: 'made', outcome: CHANGE_OUTCOMES.made };
      case 'unblock':
        if (!customer.blockedEnabled) return { result: 'skipped', outcome: CHANGE_OUTCOMES.notBlocked };
        await customers.update(customerId, { blocked_enabled: false }, context);
        return { result: 'made', outcome: CHANGE_OUTCOMES.made };
      case 'extend':
        await customers.extend(customerId, operation.days, context);
        return { result: 'made', outcome: CHANGE_OUTCOMES.made };
      default:
        return { result: 'refused', outcome: `${operation.kind} is not a change of a customer` };
    }
  }

  return {
    async perform(target, operation, context, intentKey) {
      try {
        return target.type === 'line' ? await onLine(target.serviceLineNumber, operation, context, intentKey) : await onCustomer(target.customerId, operation, context);
      } catch (error) {
        if (isTransient(error)) throw error;
        if (error instanceof NotFoundError && target.type === 'line') return { result: 'skipped', outcome: CHANGE_OUTCOMES.lineGone };
        if (error instanceof ConflictError) {
          if (error.message === SERVICE_LINE_MESSAGES.inactive || error.message === SERVICE_LINE_MESSAGES.alreadyEnding) return { result: 'skipped', outcome: CHANGE_OUTCOMES.lineEnded };
          if (error.message === SERVICE_LINE_MESSAGES.noChange || error.message === SUBSCRIPTION_MESSAGES.samePlan) return { result: 'skipped', outcome: CHANGE_OUTCOMES.alreadySo };
        }
        if (error instanceof AppError) return { result: 'refused', outcome: error.message };
        throw error;
      }
    },
  };
}
