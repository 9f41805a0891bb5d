/**
 * An admin deciding one customer request in the Customer Requests queue; one per page,
 * `user.approve` / `user.decline` name the request.
 *
 *   closed      no dialog
 *   confirming  "Approve {what} for {customer}? The change is made at the provider now."  (tag: open)
 *   reason      "Decline request": the reason the customer will read (required)          (tag: open)
 *   deciding    the dialog's button says it is working; it cannot be closed          (tags: open, busy)
 *
 * A refusal (the provider's words, "already decided", …) goes back to the step confirmed from with
 * the server's words in the dialog and a toast; a decision tells the page (`requestDecided`),
 * which reloads the queue.
 */
import { assign, fromPromise, setup } from 'xstate';
import { REQUEST_MESSAGES, declineReasonProblem, describeAsked, type QueuedRequestWire } from '../domain/requests';
import type { LoadOutcome } from './resource';
import { submittingStates } from './submit';

export type ReviewAction = 'approve' | 'decline';

export interface DecideInput {
  id: string;
  action: ReviewAction;
  /** decline only. */
  reason?: string;
}

export type DecideOutcome = LoadOutcome<QueuedRequestWire>;

export interface RequestReviewContext {
  request: QueuedRequestWire | null;
  action: ReviewAction | null;
  reason: string;
  reasonError: string | null;
  /** Why the last decision was refused (shown in the dialog as well as the toast). */
  failure: string | null;
}

export type RequestReviewEvent =
  | { type: 'user.approve'; request: QueuedRequestWire }
  | { type: 'user.decline'; request: QueuedRequestWire }
  | { type: 'user.reason'; value: string }
  | { type: 'user.confirm' }
  | { type: 'user.close' };

export const REVIEW_FAILED = 'The request could not be decided. Try again.';

/** The confirmation's question for an approval. */
export const approveQuestion = (request: QueuedRequestWire) => REQUEST_MESSAGES.approveConfirm(describeAsked(request), request.customer.name);

const take = (action: ReviewAction) =>
  ({ type: 'takeRequest', params: ({ event }: { event: { request: QueuedRequestWire } }) => ({ request: event.request, action }) }) as const;

const requestReviewSetup = setup({
  types: {
    context: {} as RequestReviewContext,
    events: {} as RequestReviewEvent,
  },
  actors: {
    decide: fromPromise<DecideOutcome, DecideInput>(async () => {
      throw new Error('decide is provided by the app');
    }),
  },
  actions: {
    takeRequest: assign((_, { request, action }: { request: QueuedRequestWire; action: ReviewAction }) => ({ request, action, reason: '', reasonError: null, failure: null })),
    storeReason: assign((_, value: string) => ({ reason: value, reasonError: null, failure: null })),
    storeReasonError: assign(({ context }) => ({ reasonError: declineReasonProblem(context.reason) })),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The queue and its counts reload. */
    requestDecided: () => {},
  },
  guards: {
    // The table offers Approve and Decline on pending rows only; a stale click does nothing.
    isPending: (_, request: QueuedRequestWire) => request.status === 'pending',
    isReasonValid: ({ context }) => declineReasonProblem(context.reason) === null,
    isDeclining: ({ context }) => context.action === 'decline',
    isDone: (_, outcome: DecideOutcome) => outcome.ok,
  },
});

const submitting = submittingStates(requestReviewSetup);

export const requestReviewMachine = requestReviewSetup.createMachine({
  id: 'requestReview',
  context: { request: null, action: null, reason: '', reasonError: null, failure: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'user.approve': { guard: { type: 'isPending', params: ({ event }) => event.request }, target: 'confirming', actions: take('approve') },
        'user.decline': { guard: { type: 'isPending', params: ({ event }) => event.request }, target: 'reason', actions: take('decline') },
      },
    },
    confirming: {
      tags: ['open'],
      on: { 'user.confirm': 'deciding', 'user.close': 'closed' },
    },
    reason: {
      tags: ['open'],
      on: {
        'user.reason': { actions: { type: 'storeReason', params: ({ event }) => event.value } },
        'user.confirm': [{ guard: 'isReasonValid', target: 'deciding' }, { actions: 'storeReasonError' }],
        'user.close': 'closed',
      },
    },
    // Not closable: the provider may already be changing the line.
    deciding: {
      ...submitting({
        src: 'decide',
        input: ({ context }) =>
          context.action === 'decline' ? { id: context.request!.id, action: 'decline', reason: context.reason.trim() } : { id: context.request!.id, action: 'approve' },
        success: {
          target: 'closed',
          actions: [
            { type: 'notifySuccess', params: ({ context }) => (context.action === 'decline' ? REQUEST_MESSAGES.declined : REQUEST_MESSAGES.approved) },
            'requestDecided',
          ],
        },
        back: [{ guard: 'isDeclining', target: 'reason' }, { target: 'confirming' }],
        failure: (why) => why?.trim() || REVIEW_FAILED,
      }),
      tags: ['open', 'busy'],
    },
  },
});

export type RequestReviewMachine = typeof requestReviewMachine;
