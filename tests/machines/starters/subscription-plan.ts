// Starts the subscriptionPlan machine with scripted plan and change answers and recorded actions:
// shared by its actor tests and the pinned journeys of its model.
import { vi } from 'vitest';
import { createActor } from 'xstate';
import {
  subscriptionPlanMachine,
  type ChangePlanOutcome,
  type ChangePlanRequest,
  type PlansOutcome,
  type PlansRequest,
} from '../../../src/machines/subscription-plan';
import { plan1TB, plan50, subscription } from '../../fixtures/subscriptions-client';
import { ok, scriptedActors, type Answer } from '../scripted-actors';

export const current = subscription();
export const changed = subscription({ plan: '1 TB', productReferenceId: plan1TB.productReferenceId, monthlyDataGB: 1000, status: 'Active' });

export interface Answers {
  plans?: Array<Answer<PlansOutcome>>;
  change?: Array<Answer<ChangePlanOutcome>>;
}

export function startDialog(answers: Answers = {}) {
  const { calls, called, answer } = scriptedActors();
  const notifySuccess = vi.fn();
  const notifyFailure = vi.fn();
  const planChanged = vi.fn();
  const actor = createActor(
    subscriptionPlanMachine.provide({
      actors: {
        loadPlans: answer<PlansOutcome, PlansRequest>('loadPlans', answers.plans ?? [ok([plan50, plan1TB])]),
        changePlan: answer<ChangePlanOutcome, ChangePlanRequest>('changePlan', answers.change ?? [ok(changed)]),
      },
      actions: {
        notifySuccess: (_, message) => notifySuccess(message),
        notifyFailure: (_, message) => notifyFailure(message),
        planChanged: (_, s) => planChanged(s),
      },
    }),
  ).start();
  return { actor, calls, called, notifySuccess, notifyFailure, planChanged };
}

export const open = { type: 'user.open', subscription: current } as const;
export const choose = (productReferenceId: string) => ({ type: 'user.choose', productReferenceId }) as const;
export const next = { type: 'user.next' } as const;
export const back = { type: 'user.back' } as const;
export const confirm = { type: 'user.confirm' } as const;
export const cancel = { type: 'user.cancel' } as const;
