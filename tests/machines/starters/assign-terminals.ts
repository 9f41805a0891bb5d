// Starts the assignTerminals machine with scripted loadAssigned/assignTerminals answers and recorded
// actions: shared by its actor tests and the pinned journeys of its model.
import { vi } from 'vitest';
import { createActor } from 'xstate';
import { ASSIGN_REASONS, type AssignTerminalsPayload, type AssignTerminalsResult } from '../../../src/domain/customer-terminals';
import { assignTerminalsMachine, type AssignedOutcome, type AssignOutcome } from '../../../src/machines/assign-terminals';
import { assignedPageOf, assignedTerminal } from '../../fixtures/customer-terminals-client';
import { ok, scriptedActors, type Answer } from '../scripted-actors';

export const first = assignedTerminal();
export const second = assignedTerminal({ deviceId: 'UT-0002C4D5', serviceLine: 'AST-622190-48211-07', kitSerialNumber: 'KIT-300513' });

export const partial: AssignTerminalsResult = {
  assigned: ['AST-622190-48211-07'],
  failed: [{ serviceLineNumber: 'AST-000000-00000-00', reason: ASSIGN_REASONS.notFound, code: 'not_found' }],
  total: 2,
};
export const noneAssigned: AssignTerminalsResult = {
  assigned: [],
  failed: [{ serviceLineNumber: 'AST-511274-31364-54', reason: ASSIGN_REASONS.alreadyAssigned, code: 'already_assigned' }],
  total: 1,
};

export interface Answers {
  assigned?: Array<Answer<AssignedOutcome>>;
  assign?: Array<Answer<AssignOutcome>>;
}

export function startDialog(answers: Answers = {}) {
  const { calls, called, answer } = scriptedActors();
  const logAssignedFailure = vi.fn();
  const notifyFailure = vi.fn();
  const terminalsAssigned = vi.fn();
  const actor = createActor(
    assignTerminalsMachine.provide({
      actors: {
        loadAssigned: answer<AssignedOutcome, string>('loadAssigned', answers.assigned ?? [ok(assignedPageOf([first]))]),
        assignTerminals: answer<AssignOutcome, AssignTerminalsPayload>('assignTerminals', answers.assign ?? [ok(partial)]),
      },
      actions: {
        logAssignedFailure: (_, failure) => logAssignedFailure(failure.reason),
        notifyFailure: (_, message) => notifyFailure(message),
        terminalsAssigned: (_, result) => terminalsAssigned(result),
      },
    }),
  ).start();
  return { actor, calls, called, logAssignedFailure, notifyFailure, terminalsAssigned };
}
