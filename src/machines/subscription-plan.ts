/**
 * The Change Plan dialog of the subscriptions page, one per page; `user.open` names the
 * subscription.
 *
 *   closed         no dialog
 *   loadingPlans   the terminal and its plan; the offered plans loading          (tag: open)
 *   choosing       the offered plans, the current one marked and not choosable;
 *                  `error` when the plans could not be loaded                   (tag: open)
 *   confirming     "from X to Y": the new monthly data and price; Confirm, Back;
 *                  `error` when the provider refused the change                 (tag: open)
 *   changing       "Changing..."; every button disabled                         (tags: open, busy)
 *
 * A change tells the page (`planChanged`) so it reloads the list.
 */
import { assign, fromPromise, setup } from 'xstate';
import { SUBSCRIPTION_MESSAGES, type SubscriptionPlanWire, type SubscriptionWire } from '../domain/subscriptions';
import { FALLBACK_LOAD_ERROR, type LoadOutcome } from './resource';

export interface SubscriptionPlanContext {
  /** null only before the dialog is first opened. */
  subscription: SubscriptionWire | null;
  plans: SubscriptionPlanWire[];
  /** The chosen plan's productReferenceId. */
  chosen: string | null;
  /** Why the plans could not be loaded or the change was refused. */
  error: string | null;
}

export type SubscriptionPlanEvent =
  | { type: 'user.open'; subscription: SubscriptionWire }
  | { type: 'user.choose'; productReferenceId: string }
  | { type: 'user.next' }
  | { type: 'user.back' }
  | { type: 'user.confirm' }
  | { type: 'user.cancel' };

export interface ChangePlanRequest {
  serviceLineNumber: string;
  productReferenceId: string;
}

export type PlansOutcome = LoadOutcome<SubscriptionPlanWire[]>;
/** Whose plans: the account of the line being changed (null when the row did not say). */
export interface PlansRequest {
  accountId: number | null;
}
export type ChangePlanOutcome = LoadOutcome<SubscriptionWire>;

const messageOf = (outcome: LoadOutcome<unknown>) => (outcome.ok ? '' : outcome.message.trim()) || FALLBACK_LOAD_ERROR;

/** The chosen plan, as offered. */
export const chosenPlan = (context: SubscriptionPlanContext) => context.plans.find((p) => p.productReferenceId === context.chosen) ?? null;

export const subscriptionPlanMachine = setup({
  types: {
    context: {} as SubscriptionPlanContext,
    events: {} as SubscriptionPlanEvent,
  },
  actors: {
    /** Input: the account of the line being changed (its own account's plans are the ones it may take). */
    loadPlans: fromPromise<PlansOutcome, PlansRequest>(async () => {
      throw new Error('loadPlans is provided by the app');
    }),
    changePlan: fromPromise<ChangePlanOutcome, ChangePlanRequest>(async () => {
      throw new Error('changePlan is provided by the app');
    }),
  },
  actions: {
    openFor: assign((_, subscription: SubscriptionWire) => ({ subscription, plans: [], chosen: null, error: null })),
    storePlans: assign((_, outcome: PlansOutcome) => (outcome.ok ? { plans: outcome.data, error: null } : {})),
    storeError: assign((_, message: string) => ({ error: message })),
    clearError: assign({ error: null }),
    storeChoice: assign((_, productReferenceId: string) => ({ chosen: productReferenceId })),
    /** The success toast. */
    notifySuccess: (_, _message: string) => {},
    /** The failure toast. */
    notifyFailure: (_, _message: string) => {},
    /** The page reloads its list. */
    planChanged: (_, _subscription: SubscriptionWire) => {},
  },
  guards: {
    isLoaded: (_, outcome: LoadOutcome<unknown>) => outcome.ok,
    // The current plan is not offered as a change, nor is a plan the provider did not list.
    canChoose: ({ context }, productReferenceId: string) =>
      productReferenceId !== context.subscription?.productReferenceId && context.plans.some((p) => p.productReferenceId === productReferenceId),
    hasChoice: ({ context }) => chosenPlan(context) !== null,
  },
}).createMachine({
  id: 'subscriptionPlan',
  context: { subscription: null, plans: [], chosen: null, error: null },
  initial: 'closed',
  states: {
    closed: {
      on: { 'user.open': { target: 'loadingPlans', actions: { type: 'openFor', params: ({ event }) => event.subscription } } },
    },
    loadingPlans: {
      tags: ['open'],
      on: { 'user.cancel': 'closed' },
      invoke: {
        id: 'loadPlans',
        src: 'loadPlans',
        input: ({ context }) => ({ accountId: context.subscription?.accountId ?? null }),
        onDone: [
          {
            guard: { type: 'isLoaded', params: ({ event }) => event.output },
            target: 'choosing',
            actions: { type: 'storePlans', params: ({ event }) => event.output },
          },
          { target: 'choosing', actions: { type: 'storeError', params: ({ event }) => messageOf(event.output) } },
        ],
        onError: { target: 'choosing', actions: { type: 'storeError', params: FALLBACK_LOAD_ERROR } },
      },
    },
    choosing: {
      tags: ['open'],
      on: {
        'user.choose': {
          guard: { type: 'canChoose', params: ({ event }) => event.productReferenceId },
          actions: { type: 'storeChoice', params: ({ event }) => event.productReferenceId },
        },
        'user.next': { guard: 'hasChoice', target: 'confirming' },
        'user.cancel': 'closed',
      },
    },
    confirming: {
      tags: ['open'],
      on: {
        'user.confirm': { target: 'changing', actions: 'clearError' },
        'user.back': { target: 'choosing', actions: 'clearError' },
        'user.cancel': 'closed',
      },
    },
    // Cancel is not offered here: the provider may already be changing the line.
    changing: {
      tags: ['open', 'busy'],
      invoke: {
        id: 'changePlan',
        src: 'changePlan',
        input: ({ context }) => ({ serviceLineNumber: context.subscription!.serviceLineNumber, productReferenceId: context.chosen! }),
        onDone: [
          {
            guard: { type: 'isLoaded', params: ({ event }) => event.output },
            target: 'closed',
            actions: [
              {
                type: 'notifySuccess',
                params: ({ context, event }) =>
                  SUBSCRIPTION_MESSAGES.planChanged(context.subscription!.serviceLineNumber, event.output.ok ? event.output.data.plan : ''),
              },
              { type: 'planChanged', params: ({ event }) => (event.output as { ok: true; data: SubscriptionWire }).data },
            ],
          },
          {
            target: 'confirming',
            actions: [
              { type: 'storeError', params: ({ event }) => messageOf(event.output) },
              { type: 'notifyFailure', params: ({ event }) => SUBSCRIPTION_MESSAGES.planChangeFailed(messageOf(event.output)) },
            ],
          },
        ],
        onError: {
          target: 'confirming',
          actions: [
            { type: 'storeError', params: FALLBACK_LOAD_ERROR },
            { type: 'notifyFailure', params: SUBSCRIPTION_MESSAGES.planChangeFailed(FALLBACK_LOAD_ERROR) },
          ],
        },
      },
    },
  },
});

export type SubscriptionPlanMachine = typeof subscriptionPlanMachine;
