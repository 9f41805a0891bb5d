// Starts the alertAcknowledge machine with scripted answers and recorded actions: shared by its
// actor tests and the pinned journeys of its model.
import { vi } from 'vitest';
import { createActor } from 'xstate';
import { alertAcknowledgeMachine, type AcknowledgeInput, type AcknowledgeOutcome } from '../../../src/machines/alert-acknowledge';
import { ok, scriptedActors, type Answer } from '../scripted-actors';

export const ID_A = 'a0000000-0000-4000-8000-000000000001';
export const ID_B = 'a0000000-0000-4000-8000-000000000002';

export const acknowledgedBoth = { acknowledged: [ID_A, ID_B], unchanged: [], notFound: [] };
export const acknowledgedOne = { acknowledged: [ID_A], unchanged: [ID_B], notFound: [] };

export function startAcknowledge(answers: Array<Answer<AcknowledgeOutcome>> = [ok(acknowledgedBoth)]) {
  const { calls, called, answer } = scriptedActors();
  const notifySuccess = vi.fn();
  const notifyFailure = vi.fn();
  const alertsAcknowledged = vi.fn();
  const actor = createActor(
    alertAcknowledgeMachine.provide({
      actors: { acknowledge: answer<AcknowledgeOutcome, AcknowledgeInput>('acknowledge', answers) },
      actions: {
        notifySuccess: (_, message) => notifySuccess(message),
        notifyFailure: (_, message) => notifyFailure(message),
        alertsAcknowledged: () => alertsAcknowledged(),
      },
    }),
  ).start();
  return { actor, calls, called, notifySuccess, notifyFailure, alertsAcknowledged };
}

export const select = (...ids: string[]) => ({ type: 'user.select', ids }) as const;
export const acknowledgeOne = (id = ID_A) => ({ type: 'user.acknowledge', id }) as const;
export const acknowledgeSelected = { type: 'user.acknowledgeSelected' } as const;
export const confirm = { type: 'user.confirm' } as const;
export const cancel = { type: 'user.cancel' } as const;
export const dismiss = { type: 'user.dismiss' } as const;
