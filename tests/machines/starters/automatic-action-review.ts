// Starts the actionReview machine with scripted answers and recorded actions: shared by its actor
// tests and the pinned journeys of its model.
import { vi } from 'vitest';
import { createActor } from 'xstate';
import { actionReviewMachine, type ActionRef, type DecideActionInput, type DecideActionOutcome } from '../../../src/machines/automatic-action-review';
import { dismissedAction, executedAction, proposedAction } from '../../fixtures/automatic-actions';
import { ok, scriptedActors, type Answer } from '../scripted-actors';

export const proposed: ActionRef = proposedAction;
export const undoable: ActionRef = executedAction;
export const settled: ActionRef = dismissedAction;

export function startActionReview(answers: Array<Answer<DecideActionOutcome>> = [ok(executedAction)]) {
  const { calls, called, answer } = scriptedActors();
  const notifySuccess = vi.fn();
  const notifyFailure = vi.fn();
  const actionDecided = vi.fn();
  const actor = createActor(
    actionReviewMachine.provide({
      actors: { decideAction: answer<DecideActionOutcome, DecideActionInput>('decideAction', answers) },
      actions: {
        notifySuccess: (_, message) => notifySuccess(message),
        notifyFailure: (_, message) => notifyFailure(message),
        actionDecided: () => actionDecided(),
      },
    }),
  ).start();
  return { actor, calls, called, notifySuccess, notifyFailure, actionDecided };
}

export const approve = (target: ActionRef = proposed) => ({ type: 'user.approve', target }) as const;
export const dismiss = (target: ActionRef = proposed) => ({ type: 'user.dismiss', target }) as const;
export const undo = (target: ActionRef = undoable) => ({ type: 'user.undo', target }) as const;
export const confirm = { type: 'user.confirm' } as const;
export const close = { type: 'user.close' } as const;
