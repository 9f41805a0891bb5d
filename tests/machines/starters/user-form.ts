// Starts the userForm machine with scripted createUser/updateUser answers and recorded actions:
// shared by its actor tests and the pinned journeys of its model.
import { vi } from 'vitest';
import { createActor } from 'xstate';
import type { CreateUserPayload, PortalUser, UserFormField } from '../../../src/domain/users';
import { userFormMachine, type SaveOutcome, type UpdateUserInput } from '../../../src/machines/user-form';
import { portalUserFixture } from '../../fixtures/portal-users';
import { ok, refused, scriptedActors, type Answer } from '../scripted-actors';

export const existing = portalUserFixture();
export const created = portalUserFixture({ uuid: 'new-user', name: 'Lia Souza', email: 'lia.souza@example.com', role: 'admin', hasPassword: false });
export const refusal = (status: number, message: string, errors?: { path: string; message: string }[]): SaveOutcome<PortalUser> => ({
  ...refused(message),
  status,
  ...(errors ? { errors } : {}),
});

export interface Answers {
  create?: ReadonlyArray<Answer<SaveOutcome<PortalUser>>>;
  update?: ReadonlyArray<Answer<SaveOutcome<PortalUser>>>;
}

export function startForm(answers: Answers = {}) {
  const { called, answer } = scriptedActors();
  const notifySuccess = vi.fn();
  const notifyFailure = vi.fn();
  const userSaved = vi.fn();
  const actor = createActor(
    userFormMachine.provide({
      actors: {
        createUser: answer<SaveOutcome<PortalUser>, CreateUserPayload>('createUser', answers.create ?? [ok(created)]),
        updateUser: answer<SaveOutcome<PortalUser>, UpdateUserInput>('updateUser', answers.update ?? [ok({ ...existing, name: 'Rui M. Costa' })]),
      },
      actions: {
        notifySuccess: (_, message) => notifySuccess(message),
        notifyFailure: (_, message) => notifyFailure(message),
        userSaved: (_, user) => userSaved(user),
      },
    }),
  ).start();
  return { actor, called, notifySuccess, notifyFailure, userSaved };
}

export const create = { type: 'user.create' } as const;
export const edit = (user: PortalUser = existing) => ({ type: 'user.edit', user }) as const;
export const field = (name: Exclude<UserFormField, 'roles'>, value: string) => ({ type: 'user.field', field: name, value }) as const;
export const roles = (roleIds: readonly string[]) => ({ type: 'user.roles', roleIds }) as const;
/** The built-in roles' ids in the role fixtures (tests/fixtures/roles.ts). */
export const OWNER_ROLE = 'role-owner';
export const READER_ROLE = 'role-admin_read_only';
export const submit = { type: 'user.submit' } as const;
export const cancel = { type: 'user.cancel' } as const;
