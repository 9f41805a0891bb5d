// Starts the customerRequest machine with scripted options, sends and cancels and recorded
// actions: shared by its actor tests and the pinned journeys of its model.
import { vi } from 'vitest';
import { createActor } from 'xstate';
import type { NewRequestPayload } from '../../../src/domain/requests';
import { customerRequestMachine, type OptionsOutcome, type SendOutcome } from '../../../src/machines/customer-request';
import { customerRequest, lineOptions, requestLines } from '../../fixtures/requests-client';
import { ok, scriptedActors, type Answer } from '../scripted-actors';

export interface Answers {
  options?: Array<Answer<OptionsOutcome>>;
  send?: Array<Answer<SendOutcome>>;
  cancel?: Array<Answer<SendOutcome>>;
}

export const sent = customerRequest();
export const cancelled = customerRequest({ status: 'cancelled', decidedAt: '2026-03-02T10:00:00.000Z' });

export function startRequests(answers: Answers = {}) {
  const { calls, called, answer } = scriptedActors();
  const notifySuccess = vi.fn();
  const notifyFailure = vi.fn();
  const requestsChanged = vi.fn();
  const actor = createActor(
    customerRequestMachine.provide({
      actors: {
        loadOptions: answer<OptionsOutcome, { serviceLineNumber: string }>('loadOptions', answers.options ?? [ok(lineOptions)]),
        sendRequest: answer<SendOutcome, NewRequestPayload>('sendRequest', answers.send ?? [ok(sent)]),
        cancelRequest: answer<SendOutcome, { id: string }>('cancelRequest', answers.cancel ?? [ok(cancelled)]),
      },
      actions: {
        notifySuccess: (_, message) => notifySuccess(message),
        notifyFailure: (_, message) => notifyFailure(message),
        requestsChanged: () => requestsChanged(),
      },
    }),
  ).start();
  return { actor, calls, called, notifySuccess, notifyFailure, requestsChanged };
}

export const open = { type: 'user.open', lines: requestLines } as const;
export const line = (serviceLineNumber: string) => ({ type: 'user.line', serviceLineNumber }) as const;
export const kind = (value: 'plan_change' | 'top_up') => ({ type: 'user.kind', kind: value }) as const;
export const plan = (productId: string) => ({ type: 'user.plan', productId }) as const;
export const count = (value: number) => ({ type: 'user.count', count: value }) as const;
export const note = (value: string) => ({ type: 'user.note', value }) as const;
export const submit = { type: 'user.submit' } as const;
export const cancelRequest = (request = customerRequest()) => ({ type: 'user.cancelRequest', request }) as const;
export const confirm = { type: 'user.confirm' } as const;
export const close = { type: 'user.close' } as const;
