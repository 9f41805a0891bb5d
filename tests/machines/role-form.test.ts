import { describe, expect, it, vi } from 'vitest';
import { waitFor } from 'xstate';
import { ROLE_MESSAGES } from '../../src/domain/permissions';
import { NO_LEVELS, levelsOf } from '../../src/domain/roles';
import { EMPTY_ROLE_FORM, ROLE_FORM_TEXTS, roleInput, roleRefusalPlacement } from '../../src/machines/role-form';
import { roleDialogOf } from '../../src/routes/roles';
import { builtInRoleFixture } from '../fixtures/roles';
import { ok } from './scripted-actors';
import {
  USER_MANAGER_HELD,
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
} from './starters/role-form';

describe('role form machine: New role and Edit', () => {
  it('opens an empty form; Save with nothing chosen names the name and the permissions, and sends nothing', () => {
    const { actor, called } = startRoleForm();
    actor.send(create);
    expect(actor.getSnapshot().context).toMatchObject({ role: null, form: EMPTY_ROLE_FORM });
    actor.send(submit);
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.errors).toEqual({ name: ROLE_MESSAGES.nameRequired, permissions: ROLE_MESSAGES.permissionsRequired });
    actor.send(level('alerts', 'read'));
    expect(actor.getSnapshot().context.errors.permissions).toBeUndefined();
    expect(called('saveRole')).toHaveLength(0);
  });

  it('sends the name, the description and one permission per area it reaches, then tells the page', async () => {
    const { actor, called, notifySuccess, rolesChanged } = startRoleForm();
    actor.send(create);
    actor.send(roleField('name', ' Night desk '));
    actor.send(level('alerts', 'manage'));
    actor.send(level('terminals', 'read'));
    actor.send(submit);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('saveRole')[0]!.input).toEqual({ id: null, role: { name: 'Night desk', permissions: ['terminals:read', 'alerts:manage'] } });
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(ROLE_MESSAGES.created);
    expect(rolesChanged).toHaveBeenCalledOnce();
  });

  it('Edit opens a custom role with its levels and saves it under its id', async () => {
    const { actor, called, notifySuccess } = startRoleForm();
    actor.send(edit());
    expect(actor.getSnapshot().context.form).toEqual({ name: nightShift.name, description: nightShift.description, levels: levelsOf(nightShift.permissions) });
    actor.send(level('terminals', 'none'));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('saveRole')[0]!.input).toEqual({ id: nightShift.id, role: { name: nightShift.name, description: nightShift.description, permissions: ['alerts:manage'] } });
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(ROLE_MESSAGES.updated);
  });

  it('built-in roles are never opened, for editing or deleting', () => {
    const { actor } = startRoleForm();
    actor.send(edit(builtInRoleFixture('billing')));
    actor.send(remove(builtInRoleFixture('billing')));
    expect(actor.getSnapshot().value).toBe('closed');
  });

  it('a level the user does not hold cannot be chosen; audit has no manage for anyone', () => {
    const { actor } = startRoleForm({}, USER_MANAGER_HELD);
    actor.send(create);
    actor.send(level('billing', 'read'));
    actor.send(level('audit', 'manage'));
    actor.send(level('users', 'manage'));
    actor.send(level('audit', 'read'));
    expect(actor.getSnapshot().context.form.levels).toEqual({ ...NO_LEVELS, users: 'manage', audit: 'read' });
  });

  it('a taken name (409) sits under the name; an escalation (403) above the form; both in a toast', async () => {
    const { actor, notifyFailure } = startRoleForm({ save: [nameTaken, escalation, ok(savedRole)] });
    actor.send(create);
    actor.send(roleField('name', 'Night desk'));
    actor.send(level('alerts', 'manage'));
    actor.send(submit);
    let s = await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    expect(s.context).toMatchObject({ errors: { name: ROLE_MESSAGES.nameTaken }, failure: null });
    actor.send(roleField('name', 'Night desk 2'));
    actor.send(submit);
    s = await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    expect(s.context).toMatchObject({ errors: {}, failure: ROLE_MESSAGES.escalation });
    expect(notifyFailure.mock.calls).toEqual([[ROLE_MESSAGES.nameTaken], [ROLE_MESSAGES.escalation]]);
  });

  it('no answer keeps the form with a failure above it', async () => {
    const { actor } = startRoleForm({ save: [new TypeError('fetch failed')] });
    actor.send(edit());
    actor.send(submit);
    expect((await waitFor(actor, (s) => s.matches('editing'))).context.failure).toBe(ROLE_FORM_TEXTS.saveFailed);
  });

  it("a 400's fields land under them", () => {
    expect(roleRefusalPlacement({ ok: false, status: 400, message: 'Validation failed', errors: [{ path: 'body.permissions', message: ROLE_MESSAGES.unknownPermission }] })).toEqual({
      errors: { permissions: ROLE_MESSAGES.unknownPermission },
      failure: null,
    });
    expect(roleInput({ name: ' A ', description: '  ', levels: { ...NO_LEVELS, audit: 'read' } })).toEqual({ name: 'A', permissions: ['audit:read'] });
  });
});

describe('role form machine: Delete', () => {
  it('asks, deletes, and tells the page', async () => {
    const { actor, called, notifySuccess, rolesChanged } = startRoleForm();
    actor.send(remove());
    expect(roleDialogOf(actor.getSnapshot())).toEqual({ kind: 'delete', question: ROLE_FORM_TEXTS.deleteQuestion(nightShift.name), failure: null, busy: false });
    actor.send(confirm);
    expect(roleDialogOf(actor.getSnapshot())).toMatchObject({ kind: 'delete', busy: true });
    expect(actor.getSnapshot().can(cancel)).toBe(false);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('deleteRole')[0]!.input).toEqual({ id: nightShift.id });
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(ROLE_MESSAGES.deleted);
    expect(rolesChanged).toHaveBeenCalledOnce();
  });

  it('a role still held (409) stays asked, with the server words in the dialog', async () => {
    const { actor, rolesChanged } = startRoleForm({ remove: [inUse] });
    actor.send(remove());
    actor.send(confirm);
    const s = await waitFor(actor, (snapshot) => snapshot.matches({ deletion: 'confirming' }) && snapshot.context.failure !== null);
    expect(roleDialogOf(s)).toMatchObject({ kind: 'delete', failure: ROLE_MESSAGES.inUse(2) });
    actor.send(cancel);
    expect(roleDialogOf(actor.getSnapshot())).toEqual({ kind: 'closed' });
    expect(rolesChanged).not.toHaveBeenCalled();
  });

  it('closing the page aborts the request', async () => {
    const { actor, called } = startRoleForm({ remove: ['hang'] });
    actor.send(remove());
    actor.send(confirm);
    await vi.waitFor(() => expect(called('deleteRole')).toHaveLength(1));
    actor.stop();
    expect(called('deleteRole')[0]!.signal.aborted).toBe(true);
  });
});

describe('role dialog view model', () => {
  it('New role is a create form; saving makes it busy', () => {
    const { actor } = startRoleForm({ save: ['hang'] });
    actor.send(create);
    expect(roleDialogOf(actor.getSnapshot())).toMatchObject({ kind: 'form', mode: 'create', busy: false });
    actor.send(roleField('name', 'A'));
    actor.send(level('alerts', 'read'));
    actor.send(submit);
    expect(roleDialogOf(actor.getSnapshot())).toMatchObject({ kind: 'form', mode: 'create', busy: true });
  });
});
