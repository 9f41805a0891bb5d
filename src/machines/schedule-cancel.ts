/**
 * Cancelling a scheduled change on the Schedule page; one per page, `user.cancelChange` names the
 * change (the table offers Cancel on changes that have not run yet).
 *
 *   closed      no dialog
 *   confirming  "Cancel {operation} of {target}, set for {time}?"                   (tag: open)
 *   cancelling  the button says it is working; the dialog cannot be closed    (tags: open, busy)
 *
 * A refusal (it ran meanwhile, it is gone) goes back to the question with the server's words in the
 * dialog and a toast; a cancellation toasts and tells the page (`changeCancelled`), which reloads.
 */
import { assign, fromPromise, setup } from 'xstate';
import { AUTOMATION_MESSAGES as M, type ScheduledChangeWire } from '../domain/automation';
import { failureText } from './customer-forms';
import type { LoadOutcome } from './resource';
import { submittingStates } from './submit';

export type CancelOutcome = LoadOutcome<ScheduledChangeWire>;

export interface ScheduleCancelContext {
  change: ScheduledChangeWire | null;
  /** Why the last cancellation was refused (shown in the dialog as well as the toast). */
  failure: string | null;
}

export type ScheduleCancelEvent = { type: 'user.cancelChange'; change: ScheduledChangeWire } | { type: 'user.confirm' } | { type: 'user.close' };

export const CANCEL_FAILED = failureText('cancel the scheduled change', null);

const scheduleCancelSetup = setup({
  types: {
    context: {} as ScheduleCancelContext,
    events: {} as ScheduleCancelEvent,
  },
  actors: {
    cancelChange: fromPromise<CancelOutcome, string>(async () => {
      throw new Error('cancelChange is provided by the app');
    }),
  },
  actions: {
    takeChange: assign((_, change: ScheduledChangeWire) => ({ change, failure: null })),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The schedule reloads. */
    changeCancelled: () => {},
  },
  guards: {
    // A stale row (it ran since the list loaded) offers nothing here; the server refuses it too.
    isScheduled: (_, change: ScheduledChangeWire) => change.status === 'scheduled',
    isDone: (_, outcome: CancelOutcome) => outcome.ok,
  },
});

const submitting = submittingStates(scheduleCancelSetup);

export const scheduleCancelMachine = scheduleCancelSetup.createMachine({
  id: 'scheduleCancel',
  context: { change: null, failure: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'user.cancelChange': {
          guard: { type: 'isScheduled', params: ({ event }) => event.change },
          target: 'confirming',
          actions: { type: 'takeChange', params: ({ event }) => event.change },
        },
      },
    },
    confirming: {
      tags: ['open'],
      on: { 'user.confirm': 'cancelling', 'user.close': 'closed' },
    },
    cancelling: {
      ...submitting({
        src: 'cancelChange',
        input: ({ context }) => context.change!.id,
        success: { target: 'closed', actions: [{ type: 'notifySuccess', params: M.cancelled }, 'changeCancelled'] },
        back: 'confirming',
        failure: (why) => why?.trim() || CANCEL_FAILED,
      }),
      tags: ['open', 'busy'],
    },
  },
});

export type ScheduleCancelMachine = typeof scheduleCancelMachine;
