// Starts the userActions machine with scripted updateUser/runAction answers and recorded actions:
// shared by its actor tests and the pinned journeys of its model.
import { vi } from 'vitest';
import { createActor } from 'xstate';
import type { PortalUser } from '../../../src/domain/users';
import type { LoadOutcome } from '../../../src/machines/resource';
import { userActionsMachine, type UserActionInput } from '../../../src/machines/user-actions';
import type { SaveOutcome, UpdateUserInput } from '../../../src/machines/user-form';
import { portalUserFixture } from '../../fixtures/portal-users';
import { ok, scriptedActors, type Answer } from '../scripted-actors';

export interface Answers {
  update?: ReadonlyArray<Answer<SaveOutcome<PortalUser>>>;
  run?: ReadonlyArray<Answer<LoadOutcome<PortalUser | null>>>;
}

/** `updateUser` answers with the saved user by default: `user` (a plain portal user unless given). */
export function startActions(answers: Answers = {}, user: PortalUser = portalUserFixture()) {
  const { called, answer } = scriptedActors();
  const notifySuccess = vi.fn();
  const notifyFailure = vi.fn();
  const userChanged = vi.fn();
  const actor = createActor(
    userActionsMachine.provide({
      actors: {
        updateUser: answer<SaveOutcome<PortalUser>, UpdateUserInput>('updateUser', answers.update ?? [ok(user)]),
        runAction: answer<LoadOutcome<PortalUser | null>, UserActionInput>('runAction', answers.run ?? [ok(null)]),
      },
      actions: {
        notifySuccess: (_, message) => notifySuccess(message),
        notifyFailure: (_, message) => notifyFailure(message),
        userChanged: () => userChanged(),
      },
    }),
  ).start();
  return { actor, called, notifySuccess, notifyFailure, userChanged };
}

export const confirm = { type: 'user.confirm' } as const;
export const close = { type: 'user.close' } as const;
export const reason = (value: string) => ({ type: 'user.reason', value }) as const;
export const days = (value: number) => ({ type: 'user.days', days: value }) as const;
export const toggle = (who: PortalUser) => ({ type: 'user.toggleActive', user: who }) as const;
