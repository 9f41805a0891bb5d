import { describe, expect, it, vi } from 'vitest';
import { waitFor } from 'xstate';
import { EMPTY_USER_FORM } from '../../src/machines/user-form';
import { USER_MESSAGES } from '../../src/domain/users';
import { portalUserFixture } from '../fixtures/portal-users';
import { OWNER_ROLE, READER_ROLE, cancel, create, created, edit, existing, field, refusal, roles, startForm, submit } from './starters/user-form';

function fillNewUser(actor: ReturnType<typeof startForm>['actor'], password = '') {
  actor.send(create);
  actor.send(field('name', ' Lia Souza '));
  actor.send(field('email', ' lia.souza@example.com '));
  actor.send(roles([OWNER_ROLE]));
  if (password) actor.send(field('password', password));
}

describe('user form machine: Add User', () => {
  it('opens an empty form holding no role yet', () => {
    const { actor } = startForm();
    expect(actor.getSnapshot().hasTag('open')).toBe(false);
    actor.send(create);
    expect(actor.getSnapshot().hasTag('open')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ mode: 'create', uuid: null, form: EMPTY_USER_FORM, errors: {}, failure: null });
    expect(EMPTY_USER_FORM.roleIds).toEqual([]);
  });

  it('the client rules put each problem on its field without a call, and editing a field clears its error', () => {
    const { actor, called } = startForm();
    actor.send(create);
    actor.send(field('email', 'not-an-email'));
    actor.send(field('password', 'short'));
    actor.send(submit);
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.errors).toEqual({
      name: USER_MESSAGES.nameRequired,
      email: USER_MESSAGES.emailInvalid,
      roles: USER_MESSAGES.rolesRequired,
      password: USER_MESSAGES.passwordTooShort,
    });
    actor.send(field('name', 'Lia'));
    actor.send(roles([READER_ROLE]));
    expect(actor.getSnapshot().context.errors).toEqual({ email: USER_MESSAGES.emailInvalid, password: USER_MESSAGES.passwordTooShort, name: undefined, roles: undefined });
    expect(called('createUser')).toHaveLength(0);
  });

  it('without a password the user is created with a setup link, and the page hears of it', async () => {
    const { actor, called, notifySuccess, userSaved } = startForm();
    fillNewUser(actor);
    actor.send(submit);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('createUser').map((c) => c.input)).toEqual([{ name: 'Lia Souza', email: 'lia.souza@example.com', role_ids: [OWNER_ROLE] }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(USER_MESSAGES.createdWithLink(created.email));
    expect(userSaved).toHaveBeenCalledExactlyOnceWith(created);
  });

  it('with a password the user is created able to sign in at once', async () => {
    const { actor, called, notifySuccess } = startForm();
    fillNewUser(actor, 'a long password');
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('createUser')[0]!.input).toEqual({ name: 'Lia Souza', email: 'lia.souza@example.com', role_ids: [OWNER_ROLE], password: 'a long password' });
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(USER_MESSAGES.created(created.email));
  });

  it('a duplicate email (409) lands on the email field', async () => {
    const { actor, notifyFailure, userSaved } = startForm({ create: [refusal(409, USER_MESSAGES.duplicateEmail)] });
    fillNewUser(actor);
    actor.send(submit);
    const snapshot = await waitFor(actor, (s) => s.matches('editing'));
    expect(snapshot.context.errors).toEqual({ email: USER_MESSAGES.duplicateEmail });
    expect(snapshot.context.failure).toBeNull();
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(`Failed to create user: ${USER_MESSAGES.duplicateEmail}`);
    expect(userSaved).not.toHaveBeenCalled();
  });

  it("a 400 naming role_ids lands under Roles, and choosing a role clears it", async () => {
    const { actor } = startForm({ create: [refusal(400, 'Validation failed', [{ path: 'body.role_ids', message: 'Unknown role' }])] });
    fillNewUser(actor);
    actor.send(submit);
    expect((await waitFor(actor, (s) => s.matches('editing'))).context.errors).toEqual({ roles: 'Unknown role' });
    actor.send(roles([READER_ROLE]));
    expect(actor.getSnapshot().context.errors.roles).toBeUndefined();
  });

  it("a 400's field errors land on their fields", async () => {
    const { actor } = startForm({ create: [refusal(400, 'Validation failed', [{ path: 'body.name', message: 'Name is too long' }])] });
    fillNewUser(actor);
    actor.send(submit);
    expect((await waitFor(actor, (s) => s.matches('editing'))).context.errors).toEqual({ name: 'Name is too long' });
  });

  it.each([
    ["a refusal that is no field's", refusal(403, USER_MESSAGES.lastAdminRefused), `Failed to create user: ${USER_MESSAGES.lastAdminRefused}`],
    ['no answer', new TypeError('fetch failed'), 'Failed to create user. Please try again.'],
  ])('%s sits above the form and in a toast', async (_name, answer, text) => {
    const { actor, notifyFailure } = startForm({ create: [answer] });
    fillNewUser(actor);
    actor.send(submit);
    const snapshot = await waitFor(actor, (s) => s.matches('editing'));
    expect(snapshot.context).toMatchObject({ failure: text, errors: {} });
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(text);
    actor.send(field('name', 'Lia'));
    expect(actor.getSnapshot().context.failure).toBeNull();
  });

  it('cannot be cancelled while saving, and closing the page aborts the request', async () => {
    const { actor, called } = startForm({ create: ['hang'] });
    fillNewUser(actor);
    actor.send(submit);
    expect(actor.getSnapshot().can(cancel)).toBe(false);
    actor.send(cancel);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await vi.waitFor(() => expect(called('createUser')).toHaveLength(1));
    actor.stop();
    expect(called('createUser')[0]!.signal.aborted).toBe(true);
  });
});

describe('user form machine: Edit', () => {
  it('opens filled from the row, without a password', () => {
    const { actor } = startForm();
    actor.send(edit());
    expect(actor.getSnapshot().context).toMatchObject({
      mode: 'edit',
      uuid: existing.uuid,
      form: { name: existing.name, email: existing.email, roleIds: [READER_ROLE], password: '' },
    });
  });

  it('saves name, email and roles to that user and says it was updated', async () => {
    const { actor, called, notifySuccess, userSaved } = startForm();
    actor.send(edit());
    actor.send(field('name', 'Rui M. Costa '));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('updateUser').map((c) => c.input)).toEqual([
      { uuid: existing.uuid, payload: { name: 'Rui M. Costa', email: existing.email, role_ids: [READER_ROLE] } },
    ]);
    expect(called('createUser')).toHaveLength(0);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(USER_MESSAGES.updated);
    expect(userSaved).toHaveBeenCalledExactlyOnceWith({ ...existing, name: 'Rui M. Costa' });
  });

  it('a refused update names the update in its message', async () => {
    const { actor, notifyFailure } = startForm({ update: [refusal(403, USER_MESSAGES.lastAdminRefused)] });
    actor.send(edit(portalUserFixture({ role: 'admin' })));
    actor.send(roles([READER_ROLE]));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('editing'));
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(`Failed to update user: ${USER_MESSAGES.lastAdminRefused}`);
  });

  it('Cancel closes, and the next Add User starts empty again', () => {
    const { actor } = startForm();
    actor.send(edit());
    actor.send(cancel);
    expect(actor.getSnapshot().value).toBe('closed');
    actor.send(create);
    expect(actor.getSnapshot().context).toMatchObject({ mode: 'create', uuid: null, form: EMPTY_USER_FORM });
  });
});
