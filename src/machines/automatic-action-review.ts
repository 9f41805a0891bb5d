/**
 * An admin deciding one automatic action: Approve or Dismiss a proposal on the Automatic actions
 * page, or Undo one that was done (there, and from its alert on the Alerts page). One per page;
 * `user.approve` / `user.dismiss` / `user.undo` name the action.
 *
 *   closed      no dialog
 *   confirming  "Approve {action} on {line}?", "Dismiss …?" or "Undo …? {what undoing does}"  (tag: open)
 *   submitting  the dialog's button says it is working; it cannot be closed          (tags: open, busy)
 *
 * A refusal (the provider's words, "no longer waiting for approval", …) goes back to confirming
 * with the server's words in the dialog and a toast; a success is a toast too and tells the page
 * (`actionDecided`), which reloads what it lists.
 */
import { assign, fromPromise, setup } from 'xstate';
import { AUTOMATION_MESSAGES, type AutomaticActionStatus, type AutomaticActionWire, type RuleAction } from '../domain/automation';
import type { LoadOutcome } from './resource';
import { submittingStates } from './submit';

export type ActionVerb = 'approve' | 'dismiss' | 'undo';

/** What the dialog needs of an action: a row of the Actions page, or an alert's summary with its line. */
export interface ActionRef {
  id: string;
  action: RuleAction;
  status: AutomaticActionStatus;
  undoable: boolean;
  serviceLineNumber: string | null;
}

export interface DecideActionInput {
  id: string;
  verb: ActionVerb;
}

export type DecideActionOutcome = LoadOutcome<AutomaticActionWire>;

export interface ActionReviewContext {
  target: ActionRef | null;
  verb: ActionVerb | null;
  /** Why the last request was refused (shown in the dialog as well as the toast). */
  failure: string | null;
}

export type ActionReviewEvent =
  | { type: 'user.approve'; target: ActionRef }
  | { type: 'user.dismiss'; target: ActionRef }
  | { type: 'user.undo'; target: ActionRef }
  | { type: 'user.confirm' }
  | { type: 'user.close' };

export const ACTION_DECIDE_FAILED = 'The automatic action could not be changed. Try again.';

const SUCCESS: Readonly<Record<ActionVerb, string>> = {
  approve: AUTOMATION_MESSAGES.approved,
  dismiss: AUTOMATION_MESSAGES.dismissed,
  undo: AUTOMATION_MESSAGES.undone,
};

const take = (verb: ActionVerb) =>
  ({ type: 'takeTarget', params: ({ event }: { event: { target: ActionRef } }) => ({ target: event.target, verb }) }) as const;
const targetOf = ({ event }: { event: { target: ActionRef } }) => event.target;

const actionReviewSetup = setup({
  types: {
    context: {} as ActionReviewContext,
    events: {} as ActionReviewEvent,
  },
  actors: {
    decideAction: fromPromise<DecideActionOutcome, DecideActionInput>(async () => {
      throw new Error('decideAction is provided by the app');
    }),
  },
  actions: {
    takeTarget: assign((_, { target, verb }: { target: ActionRef; verb: ActionVerb }) => ({ target, verb, failure: null })),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The page reloads the actions (or the alerts) it lists. */
    actionDecided: () => {},
  },
  guards: {
    // The rows offer Approve and Dismiss on proposals and Undo where the server says it can be
    // undone (it refuses the rest too): a stale click does nothing.
    isProposed: (_, target: ActionRef) => target.status === 'proposed',
    isUndoable: (_, target: ActionRef) => target.undoable,
    isDone: (_, outcome: DecideActionOutcome) => outcome.ok,
  },
});

const submitting = submittingStates(actionReviewSetup);

export const actionReviewMachine = actionReviewSetup.createMachine({
  id: 'actionReview',
  context: { target: null, verb: null, failure: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'user.approve': { guard: { type: 'isProposed', params: targetOf }, target: 'confirming', actions: take('approve') },
        'user.dismiss': { guard: { type: 'isProposed', params: targetOf }, target: 'confirming', actions: take('dismiss') },
        'user.undo': { guard: { type: 'isUndoable', params: targetOf }, target: 'confirming', actions: take('undo') },
      },
    },
    confirming: {
      tags: ['open'],
      on: { 'user.confirm': 'submitting', 'user.close': 'closed' },
    },
    // Not closable: the provider may already be changing the line.
    submitting: {
      ...submitting({
        src: 'decideAction',
        input: ({ context }) => ({ id: context.target!.id, verb: context.verb! }),
        success: {
          target: 'closed',
          actions: [{ type: 'notifySuccess', params: ({ context }) => SUCCESS[context.verb!] }, 'actionDecided'],
        },
        back: 'confirming',
        failure: (why) => why?.trim() || ACTION_DECIDE_FAILED,
      }),
      tags: ['open', 'busy'],
    },
  },
});

export type ActionReviewMachine = typeof actionReviewMachine;
