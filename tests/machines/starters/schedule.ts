// Starts the scheduleChange and scheduleCancel machines with scripted answers and recorded toasts
// and page notices: shared by their actor tests and the pinned journeys of their models.
import { vi } from 'vitest';
import { createActor, type SimulatedClock } from 'xstate';
import type { ScheduledChangeWire, SchedulePayload } from '../../../src/domain/automation';
import type { SubscriptionPlanWire } from '../../../src/domain/subscriptions';
import { scheduleCancelMachine, type CancelOutcome } from '../../../src/machines/schedule-cancel';
import { scheduleChangeMachine, type CustomerChoice, type ScheduleTarget } from '../../../src/machines/schedule-change';
import type { LoadOutcome } from '../../../src/machines/resource';
import type { SaveOutcome } from '../../../src/machines/user-form';
import { SCHEDULE_CUSTOMER, SCHEDULE_LINE, doneChange, schedulePlans, upcomingChange } from '../../fixtures/schedule';
import { ok, scriptedActors, type Answer } from '../scripted-actors';

/** The moment Schedule is pressed in these tests, and times around it. */
export const NOW = Date.parse('2026-03-02T09:00:00.000Z');
export const IN_A_WEEK = new Date(NOW + 7 * 24 * 3600_000).toISOString();
export const YESTERDAY = new Date(NOW - 24 * 3600_000).toISOString();

export const lineTarget: ScheduleTarget = { type: 'line', id: SCHEDULE_LINE, label: 'Barn dish', blockProducts: ['DATA-BLOCK-PRIORITY-50GB'] };
export const customerTarget: ScheduleTarget = { type: 'customer', id: SCHEDULE_CUSTOMER.uuid, label: SCHEDULE_CUSTOMER.name };
export const customerChoice: CustomerChoice = SCHEDULE_CUSTOMER;

export interface ScheduleAnswers {
  schedule?: ReadonlyArray<Answer<SaveOutcome<ScheduledChangeWire>>>;
  customers?: ReadonlyArray<Answer<LoadOutcome<CustomerChoice[]>>>;
  plans?: ReadonlyArray<Answer<LoadOutcome<SubscriptionPlanWire[]>>>;
}

export function startScheduleChange(answers: ScheduleAnswers = {}, clock?: SimulatedClock) {
  const { calls, called, answer } = scriptedActors();
  const notifySuccess = vi.fn();
  const notifyFailure = vi.fn();
  const changeScheduled = vi.fn();
  const actor = createActor(
    scheduleChangeMachine.provide({
      actors: {
        scheduleChange: answer<SaveOutcome<ScheduledChangeWire>, SchedulePayload>('scheduleChange', answers.schedule ?? [ok(upcomingChange)]),
        findCustomers: answer<LoadOutcome<CustomerChoice[]>, string>('findCustomers', answers.customers ?? [ok([customerChoice])]),
        loadPlans: answer<LoadOutcome<SubscriptionPlanWire[]>, unknown>('loadPlans', answers.plans ?? [ok(schedulePlans)]),
      },
      actions: {
        notifySuccess: (_, message) => notifySuccess(message),
        notifyFailure: (_, message) => notifyFailure(message),
        changeScheduled: () => changeScheduled(),
      },
    }),
    clock ? { clock } : {},
  ).start();
  return { actor, calls, called, notifySuccess, notifyFailure, changeScheduled };
}

export function startScheduleCancel(answers: ReadonlyArray<Answer<CancelOutcome>> = [ok({ ...upcomingChange, status: 'cancelled' as const })]) {
  const { calls, called, answer } = scriptedActors();
  const notifySuccess = vi.fn();
  const notifyFailure = vi.fn();
  const changeCancelled = vi.fn();
  const actor = createActor(
    scheduleCancelMachine.provide({
      actors: { cancelChange: answer<CancelOutcome, string>('cancelChange', answers) },
      actions: {
        notifySuccess: (_, message) => notifySuccess(message),
        notifyFailure: (_, message) => notifyFailure(message),
        changeCancelled: () => changeCancelled(),
      },
    }),
  ).start();
  return { actor, calls, called, notifySuccess, notifyFailure, changeCancelled };
}

export const open = (target: ScheduleTarget | null = null) => ({ type: 'user.open', target }) as const;
export const targetType = (value: 'line' | 'customer') => ({ type: 'user.targetType', targetType: value }) as const;
export const line = (value: string) => ({ type: 'user.line', value }) as const;
export const customerSearch = (value: string) => ({ type: 'user.customerSearch', value }) as const;
export const chooseCustomer = (customer: CustomerChoice = customerChoice) => ({ type: 'user.customer', customer }) as const;
export const operation = (value: SchedulePayload['operation']) => ({ type: 'user.operation', operation: value }) as const;
export const parameter = (field: 'productReferenceId' | 'productId' | 'count' | 'reason' | 'days', value: string) => ({ type: 'user.parameter', field, value }) as const;
export const timing = (value: 'at' | 'nextCycle') => ({ type: 'user.timing', timing: value }) as const;
export const at = (value: string) => ({ type: 'user.at', value }) as const;
export const retryPlans = { type: 'user.retryPlans' } as const;
export const submit = (now = NOW) => ({ type: 'user.submit', now }) as const;
export const close = { type: 'user.close' } as const;

export const cancelChange = (change: ScheduledChangeWire = upcomingChange) => ({ type: 'user.cancelChange', change }) as const;
export const confirm = { type: 'user.confirm' } as const;
export { doneChange, upcomingChange };
