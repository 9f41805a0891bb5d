// Starts the roleForm machine with scripted saveRole/deleteRole answers and recorded actions:
// shared by its actor tests and the pinned journeys of its model.
import { vi } from 'vitest';
import { createActor } from 'xstate';
import { ROLE_MESSAGES, type Area, type Permission, type RoleWire } from '../../../src/domain/permissions';
import type { AreaLevel } from '../../../src/domain/roles';
import type { LoadOutcome } from '../../../src/machines/resource';
import { roleFormMachine, type SaveRoleInput } from '../../../src/machines/role-form';
import type { SaveOutcome } from '../../../src/machines/user-form';
import { builtInRoleFixture, customRoleFixture } from '../../fixtures/roles';
import { ok, refused, scriptedActors, type Answer } from '../scripted-actors';

export const OWNER_HELD: readonly Permission[] = builtInRoleFixture('owner').permissions;
/** User Management: users and roles, and reading the audit log; nothing of the business areas. */
export const USER_MANAGER_HELD: readonly Permission[] = builtInRoleFixture('user_management').permissions;

export const nightShift = customRoleFixture();
export const savedRole = customRoleFixture({ id: 'role-custom-2', name: 'Night desk', permissions: ['alerts:manage'] });
export const nameTaken: SaveOutcome<RoleWire> = { ...refused(ROLE_MESSAGES.nameTaken), status: 409 };
export const escalation: SaveOutcome<RoleWire> = { ...refused(ROLE_MESSAGES.escalation), status: 403 };
export const inUse: LoadOutcome<unknown> = refused(ROLE_MESSAGES.inUse(2));

export interface RoleFormAnswers {
  save?: ReadonlyArray<Answer<SaveOutcome<RoleWire>>>;
  remove?: ReadonlyArray<Answer<LoadOutcome<unknown>>>;
}

export function startRoleForm(answers: RoleFormAnswers = {}, held: readonly Permission[] = OWNER_HELD) {
  const { called, answer } = scriptedActors();
  const notifySuccess = vi.fn();
  const notifyFailure = vi.fn();
  const rolesChanged = vi.fn();
  const actor = createActor(
    roleFormMachine.provide({
      actors: {
        saveRole: answer<SaveOutcome<RoleWire>, SaveRoleInput>('saveRole', answers.save ?? [ok(savedRole)]),
        deleteRole: answer<LoadOutcome<unknown>, { id: string }>('deleteRole', answers.remove ?? [ok(null)]),
      },
      actions: {
        notifySuccess: (_, message) => notifySuccess(message),
        notifyFailure: (_, message) => notifyFailure(message),
        rolesChanged: () => rolesChanged(),
      },
    }),
    { input: { held } },
  ).start();
  return { actor, called, notifySuccess, notifyFailure, rolesChanged };
}

export const create = { type: 'user.create' } as const;
export const edit = (role: RoleWire = nightShift) => ({ type: 'user.edit', role }) as const;
export const remove = (role: RoleWire = nightShift) => ({ type: 'user.delete', role }) as const;
export const roleField = (field: 'name' | 'description', value: string) => ({ type: 'user.field', field, value }) as const;
export const level = (area: Area, value: AreaLevel) => ({ type: 'user.level', area, level: value }) as const;
export const submit = { type: 'user.submit' } as const;
export const cancel = { type: 'user.cancel' } as const;
export const confirm = { type: 'user.confirm' } as const;
