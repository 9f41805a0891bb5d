// Starts the requestReview machine with scripted decisions and recorded actions: shared by its
// actor tests and the pinned journeys of its model.
import { vi } from 'vitest';
import { createActor } from 'xstate';
import { requestReviewMachine, type DecideInput, type DecideOutcome } from '../../../src/machines/request-review';
import { queuedRequest } from '../../fixtures/requests-client';
import { ok, scriptedActors, type Answer } from '../scripted-actors';

export const pending = queuedRequest();
export const approved = queuedRequest({ status: 'approved', decidedAt: '2026-03-02T10:00:00.000Z', decidedBy: 'Test Admin' });

export function startReview(decisions: Array<Answer<DecideOutcome>> = [ok(approved)]) {
  const { calls, called, answer } = scriptedActors();
  const notifySuccess = vi.fn();
  const notifyFailure = vi.fn();
  const requestDecided = vi.fn();
  const actor = createActor(
    requestReviewMachine.provide({
      actors: { decide: answer<DecideOutcome, DecideInput>('decide', decisions) },
      actions: {
        notifySuccess: (_, message) => notifySuccess(message),
        notifyFailure: (_, message) => notifyFailure(message),
        requestDecided: () => requestDecided(),
      },
    }),
  ).start();
  return { actor, calls, called, notifySuccess, notifyFailure, requestDecided };
}

export const approve = (request = pending) => ({ type: 'user.approve', request }) as const;
export const decline = (request = pending) => ({ type: 'user.decline', request }) as const;
export const reason = (value: string) => ({ type: 'user.reason', value }) as const;
export const confirm = { type: 'user.confirm' } as const;
export const close = { type: 'user.close' } as const;
