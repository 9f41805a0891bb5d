// Users → Roles: New role, Edit and Delete of a custom role (roleForm machine), walked on the
// machine and through the /users/roles page (the built-in roles and the custom Night shift), plus
// a journey pinned by hand.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { AREAS, AREA_LABELS, ROLE_MESSAGES } from '../../../src/domain/permissions';
import { AREA_LEVEL_LABELS, validateRoleForm } from '../../../src/domain/roles';
import { ROLE_FORM_TEXTS, roleFormMachine } from '../../../src/machines/role-form';
import { ROLES_TEXTS as T } from '../../../src/ui/roles/parts';
import { ok } from '../../machines/scripted-actors';
import {
  OWNER_HELD,
  cancel,
  confirm,
  create,
  edit,
  escalation,
  inUse,
  level,
  nameTaken,
  nightShift,
  remove,
  roleField,
  savedRole,
  startRoleForm,
  submit,
} from '../../machines/starters/role-form';
import { defineModel, done, failed } from '../framework/model';
import type { PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';
import { openRolesPage } from './roles-page';

const formDialog = () => within(screen.getByRole('dialog', { name: /^(New|Edit) role$/ }));
const deleteDialog = () => within(screen.getByRole('dialog', { name: T.deleteHeader }));
const button = (dialog: ReturnType<typeof within>, name: string) => dialog.getByRole('button', { name }) as HTMLButtonElement;
const nameInput = () => formDialog().getByLabelText(T.nameLabel) as HTMLInputElement;
const radio = (area: (typeof AREAS)[number], value: keyof typeof AREA_LEVEL_LABELS) =>
  within(formDialog().getByRole('group', { name: AREA_LABELS[area] })).getByRole('radio', { name: AREA_LEVEL_LABELS[value] }) as HTMLInputElement;

export const roleFormModel = defineModel<typeof roleFormMachine, PageScreen>({
  name: 'role-form',
  machine: roleFormMachine,
  input: { held: OWNER_HELD },
  events: {
    'user.create': [create],
    'user.edit': [edit()],
    'user.field': [roleField('name', 'Night desk')],
    'user.level': [level('alerts', 'manage')],
    'user.submit': [submit],
    'user.cancel': [cancel],
    'user.delete': [remove()],
    'user.confirm': [confirm],
  },
  actorResults: [
    done('saveRole', ok(savedRole)),
    done('saveRole', nameTaken),
    done('saveRole', escalation),
    failed('saveRole', new TypeError('fetch failed')),
    done('deleteRole', ok(null)),
    done('deleteRole', inUse),
    failed('deleteRole', new TypeError('fetch failed')),
  ],
  states: {
    closed: (s) => {
      expect(s.hasTag('open')).toBe(false);
      expect(s.hasTag('busy')).toBe(false);
    },
    editing: (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.hasTag('busy')).toBe(false);
      // New role is no role's; Edit is the custom role's, never a built-in one.
      if (s.context.role) expect(s.context.role.id).toBe(nightShift.id);
    },
    saving: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(cancel)).toBe(false);
      expect(validateRoleForm(s.context.form)).toEqual({});
    },
    'deletion.confirming': (s) => {
      expect(s.hasTag('busy')).toBe(false);
      expect(s.context.role?.id).toBe(nightShift.id);
    },
    'deletion.deleting': (s) => {
      expect(s.can(cancel)).toBe(false);
      expect(s.context.role?.id).toBe(nightShift.id);
    },
  },
  ui: {
    open: (seam) => openRolesPage(seam),
    events: {
      'user.create': async ({ user }) => user.click(screen.getByRole('button', { name: T.newRole })),
      'user.edit': async ({ user }, event) => user.click(screen.getByRole('button', { name: `${T.edit} ${event.role.name}` })),
      'user.delete': async ({ user }, event) => user.click(screen.getByRole('button', { name: `${T.delete} ${event.role.name}` })),
      'user.field': async ({ user }, event) => {
        const input = event.field === 'name' ? nameInput() : formDialog().getByLabelText(T.descriptionLabel);
        await user.clear(input);
        if (event.value) await user.paste(event.value);
      },
      'user.level': async ({ user }, event) => user.click(radio(event.area, event.level)),
      'user.submit': async ({ user }) => user.click(button(formDialog(), T.save)),
      'user.cancel': async ({ user }) =>
        screen.queryByRole('dialog', { name: T.deleteHeader }) ? user.click(button(deleteDialog(), T.cancel)) : user.click(button(formDialog(), T.cancel)),
      'user.confirm': async ({ user }) => user.click(button(deleteDialog(), T.delete)),
    },
    states: {
      closed: () => {
        expect(screen.queryByRole('dialog')).toBeNull();
        expect((screen.getByRole('button', { name: T.newRole }) as HTMLButtonElement).disabled).toBe(false);
      },
      editing: ({ context }) => {
        expect(screen.getByRole('dialog', { name: context.role ? T.editHeader : T.createHeader })).toBeTruthy();
        expect(nameInput().value).toBe(context.form.name);
        for (const area of AREAS) expect(radio(area, context.form.levels[area]).checked).toBe(true);
        for (const message of Object.values(context.errors)) if (message) expect(formDialog().getByText(message)).toBeTruthy();
        if (context.failure) expect(formDialog().getByText(context.failure)).toBeTruthy();
        expect(button(formDialog(), T.save).disabled).toBe(false);
      },
      saving: () => {
        expect(button(formDialog(), T.saving).disabled).toBe(true);
        expect(button(formDialog(), T.cancel).disabled).toBe(true);
        expect(nameInput().disabled).toBe(true);
      },
      'deletion.confirming': ({ context }) => {
        expect(deleteDialog().getByText(ROLE_FORM_TEXTS.deleteQuestion(nightShift.name))).toBeTruthy();
        if (context.failure) expect(deleteDialog().getByText(context.failure)).toBeTruthy();
        expect(button(deleteDialog(), T.delete).disabled).toBe(false);
      },
      'deletion.deleting': () => {
        expect(button(deleteDialog(), T.deleting).disabled).toBe(true);
        expect(button(deleteDialog(), T.cancel).disabled).toBe(true);
      },
    },
  },
});

modelSuite(roleFormModel);

describe('role form machine (pinned journeys)', () => {
  it('a taken name, renamed and saved; then Delete refused while held: one role saved, one reload', async () => {
    const { actor, called, rolesChanged } = startRoleForm({ save: [nameTaken, ok(savedRole)], remove: [inUse] });
    actor.send(create);
    actor.send(roleField('name', 'Night shift'));
    actor.send(level('alerts', 'manage'));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('editing') && s.context.errors.name === ROLE_MESSAGES.nameTaken);
    actor.send(roleField('name', 'Night desk'));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('closed'));
    actor.send(remove());
    actor.send(confirm);
    const end = await waitFor(actor, (s) => s.matches({ deletion: 'confirming' }) && s.context.failure !== null);
    expect(end.context.failure).toBe(ROLE_MESSAGES.inUse(2));
    expect(called('saveRole').map((c) => (c.input as { role: { name: string } }).role.name)).toEqual(['Night shift', 'Night desk']);
    expect(rolesChanged).toHaveBeenCalledOnce();
  });
});
