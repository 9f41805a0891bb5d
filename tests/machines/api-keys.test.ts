import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { API_KEY_MESSAGES as M } from '../../src/domain/api-keys';
import { ROLE_MESSAGES } from '../../src/domain/permissions';
import { API_KEY_FORM_TEXTS, apiKeyPayload, apiKeysMachine, apiKeysView, endOfDayIso, refusalPlacement, validateApiKeyForm } from '../../src/machines/api-keys';
import {
  API_KEY_SECRET,
  SUPPORT_READ_ONLY,
  apiKeyWire,
  apiOk,
  apiRefusal,
  cancel,
  close,
  confirm,
  copy,
  create,
  createdKey,
  field,
  nameTaken,
  rangeRefused,
  retry,
  revoke,
  revokedKey,
  role,
  roleList,
  startApiKeys,
  submit,
} from '../fixtures/api-keys';

async function openForm(answers: Parameters<typeof startApiKeys>[0] = {}) {
  const started = startApiKeys(answers);
  started.actor.send(create);
  await waitFor(started.actor, (s) => s.matches({ create: 'editing' }));
  return started;
}

describe('API keys machine: a new key', () => {
  it('reads the roles when the form opens, and checks the form before anything is sent', async () => {
    const { actor, called } = await openForm();
    expect(actor.getSnapshot().context.roles).toEqual(roleList);
    actor.send(submit);
    expect(actor.getSnapshot().context.errors).toEqual({ name: M.nameRequired, roleId: M.roleRequired });
    actor.send(field('name', 'ERP'));
    actor.send(role());
    actor.send(field('allowList', '203.0.113.7\n10.0.0.1/8'));
    actor.send(submit);
    expect(actor.getSnapshot().context.errors).toEqual({ allowList: M.ipHostBits('10.0.0.1/8', '10.0.0.0/8') });
    expect(actor.getSnapshot().matches({ create: 'editing' })).toBe(true);
    expect(called('createKey')).toHaveLength(0);
  });

  it('sends the trimmed form and shows the key once, then forgets it when closed', async () => {
    const { actor, called, keysChanged } = await openForm();
    actor.send(field('name', '  Accounting  '));
    actor.send(role());
    actor.send(field('expiresOn', '2099-12-31'));
    actor.send(field('allowList', ' 203.0.113.0/24, 2001:db8::/32 '));
    actor.send(submit);
    expect(apiKeysView(actor.getSnapshot())).toMatchObject({ dialog: 'form', busy: true });
    expect(actor.getSnapshot().can(cancel)).toBe(false);
    const shown = await waitFor(actor, (s) => s.hasTag('secret'));
    expect(apiKeysView(shown)).toMatchObject({ dialog: 'secret', secret: API_KEY_SECRET, created: createdKey.key, copy: 'idle' });
    expect(called('createKey').map((c) => c.input)).toEqual([
      { name: 'Accounting', roleId: SUPPORT_READ_ONLY, expiresAt: endOfDayIso('2099-12-31'), allowedIps: ['203.0.113.0/24', '2001:db8::/32'] },
    ]);
    expect(keysChanged).toHaveBeenCalledOnce();
    actor.send(copy);
    await waitFor(actor, (s) => apiKeysView(s).copy === 'copied');
    actor.send(close);
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.secret).toBeNull();
  });

  it("puts the server's refusal of a range under the allow-list, and a name in use under the name", async () => {
    const { actor, notifyFailure } = await openForm({ create: [rangeRefused, nameTaken, apiOk(createdKey, 201)] });
    actor.send(field('name', 'ERP'));
    actor.send(role());
    actor.send(submit);
    const first = await waitFor(actor, (s) => s.matches({ create: 'editing' }) && s.context.errors.allowList !== undefined);
    expect(first.context.errors.allowList).toBe(M.ipHostBits('10.0.0.1/8', '10.0.0.0/8'));
    expect(notifyFailure).toHaveBeenCalledOnce();
    actor.send(field('allowList', ''));
    actor.send(submit);
    const second = await waitFor(actor, (s) => s.matches({ create: 'editing' }) && s.context.errors.name !== undefined);
    expect(second.context.errors).toEqual({ name: M.nameTaken });
    actor.send(field('name', 'ERP 2'));
    actor.send(submit);
    await waitFor(actor, (s) => s.hasTag('secret'));
  });

  it('a role wider than yours, refused by the server, sits above the form', async () => {
    const { actor } = await openForm({ create: [apiRefusal(403, ROLE_MESSAGES.escalation)] });
    actor.send(field('name', 'ERP'));
    actor.send(role());
    actor.send(submit);
    const back = await waitFor(actor, (s) => s.matches({ create: 'editing' }) && s.context.failure !== null);
    expect(back.context.failure).toBe(ROLE_MESSAGES.escalation);
    expect(back.context.errors).toEqual({});
  });

  it('says when the roles cannot be read, and reads them again on Try again', async () => {
    const { actor, called } = startApiKeys({ roles: [apiRefusal(0, 'Unable to reach the server.'), new Error('boom'), apiOk(roleList)] });
    actor.send(create);
    const failed = await waitFor(actor, (s) => s.matches({ create: 'rolesFailed' }));
    expect(apiKeysView(failed)).toMatchObject({ dialog: 'form', rolesFailed: true, failure: 'Unable to reach the server.' });
    actor.send(retry);
    const again = await waitFor(actor, (s) => s.matches({ create: 'rolesFailed' }) && called('loadRoles').length === 2);
    expect(again.context.failure).toBe(API_KEY_FORM_TEXTS.rolesFailed);
    actor.send(retry);
    await waitFor(actor, (s) => s.matches({ create: 'editing' }));
    actor.send(cancel);
    expect(actor.getSnapshot().value).toBe('closed');
  });

  it('cancelling forgets the form: the next one starts empty', async () => {
    const { actor } = await openForm();
    actor.send(field('name', 'Half typed'));
    actor.send(cancel);
    actor.send(create);
    expect(actor.getSnapshot().context.form).toEqual({ name: '', roleId: '', expiresOn: '', allowList: '' });
  });
});

describe('API keys machine: revoke', () => {
  it('asks first, then revokes, says so and reloads the list', async () => {
    const { actor, called, notifySuccess, keysChanged } = startApiKeys();
    actor.send(revoke());
    expect(apiKeysView(actor.getSnapshot())).toMatchObject({ dialog: 'revoke', target: apiKeyWire(), busy: false });
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('revokeKey').map((c) => c.input)).toEqual([{ id: apiKeyWire().id }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(M.revoked);
    expect(keysChanged).toHaveBeenCalledOnce();
  });

  it("keeps the question open with the server's words when it refuses, and closes on Cancel", async () => {
    const { actor } = startApiKeys({ revoke: [apiRefusal(409, M.alreadyRevoked)] });
    actor.send(revoke());
    actor.send(confirm);
    const back = await waitFor(actor, (s) => s.matches({ revoke: 'confirming' }) && s.context.failure !== null);
    expect(back.context.failure).toBe(M.alreadyRevoked);
    actor.send(close);
    expect(actor.getSnapshot().value).toBe('closed');
  });

  it('does nothing for a key already revoked (a stale row)', () => {
    const actor = createActor(apiKeysMachine).start();
    actor.send(revoke(revokedKey));
    expect(actor.getSnapshot().value).toBe('closed');
  });
});

describe('API key form rules', () => {
  it('checks the expiry day and the allow-list as the server would', () => {
    const base = { name: 'ERP', roleId: 'r', expiresOn: '', allowList: '' };
    expect(validateApiKeyForm({ ...base, expiresOn: '2026-02-30' }, '2026-01-01').expiresOn).toBe(API_KEY_FORM_TEXTS.expiryDay);
    expect(validateApiKeyForm({ ...base, expiresOn: '2025-12-31' }, '2026-01-01').expiresOn).toBe(M.expiryPast);
    expect(validateApiKeyForm({ ...base, expiresOn: '2026-01-01' }, '2026-01-01')).toEqual({});
    expect(validateApiKeyForm({ ...base, allowList: 'nope' }).allowList).toBe(M.ipInvalid('nope'));
    expect(validateApiKeyForm({ ...base, name: 'x'.repeat(81) }).name).toBe(M.nameTooLong);
    expect(apiKeyPayload({ ...base, allowList: '\n' })).toEqual({ name: 'ERP', roleId: 'r', expiresAt: null, allowedIps: [] });
  });

  it('places a refusal: named fields first, a 409 on the name, anything else above the form', () => {
    expect(refusalPlacement(apiRefusal(400, 'Validation failed', [{ path: 'expiresAt', message: M.expiryPast }]))).toEqual({ errors: { expiresOn: M.expiryPast }, failure: null });
    expect(refusalPlacement(nameTaken)).toEqual({ errors: { name: M.nameTaken }, failure: null });
    expect(refusalPlacement(apiRefusal(500, ''))).toEqual({ errors: {}, failure: 'Failed to create the API key. Please try again.' });
  });
});
