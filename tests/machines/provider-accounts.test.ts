import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import {
  PROVIDER_ACCOUNT_FORM_TEXTS as T,
  EMPTY_PROVIDER_ACCOUNT_FORM,
  formOf,
  providerAccountPayload,
  providerAccountsMachine,
  providerAccountsView,
  refusalPlacement,
  validateProviderAccountForm,
} from '../../src/machines/provider-accounts';
import {
  AUTH_REFUSED,
  STILL_HOLDS,
  apiOk,
  apiRefusal,
  cancel,
  confirm,
  connected,
  create,
  disable,
  disabledAccount,
  edit,
  enable,
  field,
  kind,
  pick,
  refusedTest,
  remove,
  retry,
  simulatedAccount,
  simulatedChoices,
  startProviderAccounts,
  starlinkAccount,
  submit,
  test,
} from '../fixtures/provider-accounts';

async function openForm(answers: Parameters<typeof startProviderAccounts>[0] = {}, opener: typeof create | ReturnType<typeof edit> = create) {
  const started = startProviderAccounts(answers);
  started.actor.send(opener);
  await waitFor(started.actor, (s) => s.matches({ form: 'editing' }));
  return started;
}

function fillStarlink(actor: ReturnType<typeof startProviderAccounts>['actor']) {
  actor.send(field('name', '  Europe (EUR) '));
  actor.send(field('apiUrl', 'https://web-api.starlink.com'));
  actor.send(field('clientId', 'reseller-eu'));
  actor.send(field('clientSecret', 's3cret'));
}

describe('provider accounts machine: the form', () => {
  it("reads the simulator's accounts when it opens, and checks the form before anything is sent", async () => {
    const { actor, called } = await openForm();
    expect(actor.getSnapshot().context.simulated).toEqual(simulatedChoices);
    actor.send(field('requestsPerMinute', '251'));
    actor.send(submit);
    expect(actor.getSnapshot().context.errors).toEqual({
      name: T.nameRequired,
      apiUrl: T.apiUrlRequired,
      clientId: T.clientIdRequired,
      clientSecret: T.secretRequired,
      requestsPerMinute: T.requestsPerMinute,
    });
    // Editing a field clears its own problem only.
    actor.send(field('name', 'Europe'));
    expect(actor.getSnapshot().context.errors.name).toBeUndefined();
    expect(actor.getSnapshot().context.errors.apiUrl).toBe(T.apiUrlRequired);
    expect(called('saveAccount')).toHaveLength(0);
  });

  it('adds a Starlink account with its trimmed fields, a blank token URL as null, says so and reloads the list', async () => {
    const { actor, called, notifySuccess, accountsChanged } = await openForm({ save: [apiOk(starlinkAccount, 201)] });
    fillStarlink(actor);
    actor.send(field('syncIntervalMinutes', '30'));
    actor.send(submit);
    expect(providerAccountsView(actor.getSnapshot())).toMatchObject({ dialog: 'form', busy: true, mode: 'create' });
    expect(actor.getSnapshot().can(cancel)).toBe(false);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('saveAccount').map((c) => c.input)).toEqual([
      {
        id: null,
        input: {
          name: 'Europe (EUR)',
          kind: 'starlink',
          apiUrl: 'https://web-api.starlink.com',
          tokenUrl: null,
          clientId: 'reseller-eu',
          clientSecret: 's3cret',
          requestsPerMinute: 240,
          syncIntervalMinutes: 30,
        },
      },
    ]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(T.added);
    expect(accountsChanged).toHaveBeenCalledOnce();
  });

  it('picks a free simulated account, naming the new account after it; one in use cannot be picked', async () => {
    const { actor, called } = await openForm();
    actor.send(kind('simulator'));
    actor.send(pick('br'));
    expect(actor.getSnapshot().context.form.simulatorAccount).toBe('');
    actor.send(pick('mx'));
    expect(actor.getSnapshot().context.form).toMatchObject({ kind: 'simulator', simulatorAccount: 'mx', name: 'Mexico (MXN)' });
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('saveAccount').map((c) => c.input)).toEqual([
      { id: null, input: { name: 'Mexico (MXN)', kind: 'simulator', simulatorAccount: 'mx', requestsPerMinute: 240, syncIntervalMinutes: null } },
    ]);
  });

  it('a typed name stays when a simulated account is picked', async () => {
    const { actor } = await openForm();
    actor.send(field('name', 'LatAm'));
    actor.send(kind('simulator'));
    actor.send(pick('mx'));
    expect(actor.getSnapshot().context.form.name).toBe('LatAm');
  });

  it('edits an account without its secret: a blank secret is left out and keeps the stored one', async () => {
    const { actor, called } = await openForm({ save: [apiOk(starlinkAccount)] }, edit(starlinkAccount));
    expect(providerAccountsView(actor.getSnapshot())).toMatchObject({ mode: 'edit', target: starlinkAccount });
    expect(actor.getSnapshot().context.form).toEqual(formOf(starlinkAccount));
    actor.send(field('requestsPerMinute', '120'));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('closed'));
    const [save] = called('saveAccount').map((c) => c.input);
    expect(save).toEqual({
      id: starlinkAccount.id,
      input: { name: starlinkAccount.name, kind: 'starlink', apiUrl: starlinkAccount.apiUrl, tokenUrl: null, clientId: 'reseller-us', requestsPerMinute: 120, syncIntervalMinutes: null },
    });
  });

  it("puts the server's refusals under their fields: a field it names, a name in use, a simulated account in use", async () => {
    const { actor, notifyFailure } = await openForm({
      save: [
        apiRefusal(400, 'Validation failed', [{ path: 'tokenUrl', message: 'must be an https:// URL (http:// only for localhost)' }]),
        apiRefusal(409, 'An account named "Europe (EUR)" already exists'),
      ],
    });
    fillStarlink(actor);
    actor.send(submit);
    const first = await waitFor(actor, (s) => s.matches({ form: 'editing' }) && s.context.errors.tokenUrl !== undefined);
    expect(first.context.errors).toEqual({ tokenUrl: 'must be an https:// URL (http:// only for localhost)' });
    expect(notifyFailure).toHaveBeenCalledOnce();
    actor.send(submit);
    const second = await waitFor(actor, (s) => s.matches({ form: 'editing' }) && s.context.errors.name !== undefined);
    expect(second.context.errors).toEqual({ name: 'An account named "Europe (EUR)" already exists' });
    expect(refusalPlacement(apiRefusal(409, 'That simulated account is already used by "Brazil (BRL)"'), 'simulator')).toEqual({
      errors: { simulatorAccount: 'That simulated account is already used by "Brazil (BRL)"' },
      failure: null,
    });
    expect(refusalPlacement(apiRefusal(500, ''), 'starlink')).toEqual({ errors: {}, failure: 'Failed to save the provider account. Please try again.' });
  });

  it("says when the simulator's accounts cannot be read, and reads them again on Try again", async () => {
    const { actor, called } = startProviderAccounts({ simulated: [apiRefusal(0, 'Unable to reach the server.'), new Error('boom'), apiOk([])] });
    actor.send(create);
    const failed = await waitFor(actor, (s) => s.matches({ form: 'choicesFailed' }));
    expect(providerAccountsView(failed)).toMatchObject({ dialog: 'form', choicesFailed: true, failure: 'Unable to reach the server.' });
    actor.send(retry);
    const again = await waitFor(actor, (s) => s.matches({ form: 'choicesFailed' }) && called('loadSimulated').length === 2);
    expect(again.context.failure).toBe(T.choicesFailed);
    actor.send(retry);
    await waitFor(actor, (s) => s.matches({ form: 'editing' }));
    actor.send(cancel);
    expect(actor.getSnapshot().value).toBe('closed');
  });

  it('cancelling forgets the form: the next one starts empty', async () => {
    const { actor } = await openForm();
    actor.send(field('name', 'Half typed'));
    actor.send(cancel);
    actor.send(create);
    expect(actor.getSnapshot().context.form).toEqual(EMPTY_PROVIDER_ACCOUNT_FORM);
  });
});

describe('provider accounts machine: test, disable, enable, delete', () => {
  it("toasts the provider's acceptance in its words and reloads the list", async () => {
    const { actor, called, notifySuccess, accountsChanged } = startProviderAccounts();
    actor.send(test());
    expect(providerAccountsView(actor.getSnapshot())).toMatchObject({ dialog: 'none', busy: true, testing: starlinkAccount.id });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('testConnection').map((c) => c.input)).toEqual([{ id: starlinkAccount.id }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(connected.message);
    expect(accountsChanged).toHaveBeenCalledOnce();
  });

  it("toasts the provider's refusal as an error in its own words, and reloads the list (the status changed)", async () => {
    const { actor, notifySuccess, notifyFailure, accountsChanged } = startProviderAccounts({ test: [apiOk(refusedTest)] });
    actor.send(test());
    await waitFor(actor, (s) => s.matches('closed'));
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(AUTH_REFUSED);
    expect(notifySuccess).not.toHaveBeenCalled();
    expect(accountsChanged).toHaveBeenCalledOnce();
  });

  it("a test the server refused (not the provider) toasts the server's words, or a plain failure", async () => {
    const { actor, notifyFailure, accountsChanged } = startProviderAccounts({ test: [apiRefusal(404, 'Provider account not found'), new Error('boom')] });
    actor.send(test());
    await waitFor(actor, (s) => s.matches('closed'));
    actor.send(test());
    await waitFor(actor, (s) => s.matches('closed') && notifyFailure.mock.calls.length === 2);
    expect(notifyFailure.mock.calls).toEqual([['Provider account not found'], [T.testFailed]]);
    expect(accountsChanged).not.toHaveBeenCalled();
  });

  it('disables an enabled account and enables a disabled one; a stale row does nothing', async () => {
    const { actor, called, accountsChanged, notifySuccess } = startProviderAccounts();
    actor.send(enable(starlinkAccount));
    expect(actor.getSnapshot().value).toBe('closed');
    actor.send(disable(disabledAccount));
    expect(actor.getSnapshot().value).toBe('closed');
    actor.send(disable(starlinkAccount));
    expect(providerAccountsView(actor.getSnapshot())).toMatchObject({ busy: true, testing: null });
    await waitFor(actor, (s) => s.matches('closed'));
    actor.send(enable(disabledAccount));
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('setEnabled').map((c) => c.input)).toEqual([
      { id: starlinkAccount.id, enabled: false },
      { id: disabledAccount.id, enabled: true },
    ]);
    expect(accountsChanged).toHaveBeenCalledTimes(2);
    expect(notifySuccess.mock.calls).toEqual([[T.disabled], [T.enabled]]);
  });

  it('asks before deleting, then deletes, says so and reloads the list', async () => {
    const { actor, called, notifySuccess, accountsChanged } = startProviderAccounts();
    actor.send(remove(simulatedAccount));
    expect(providerAccountsView(actor.getSnapshot())).toMatchObject({ dialog: 'delete', target: simulatedAccount, busy: false });
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('removeAccount').map((c) => c.input)).toEqual([{ id: simulatedAccount.id }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(T.deleted);
    expect(accountsChanged).toHaveBeenCalledOnce();
  });

  it("keeps the question open with the server's words when it refuses (the lines it holds), and closes on Cancel", async () => {
    const { actor, accountsChanged } = startProviderAccounts({ remove: [apiRefusal(409, STILL_HOLDS)] });
    actor.send(remove());
    actor.send(confirm);
    const back = await waitFor(actor, (s) => s.matches({ remove: 'confirming' }) && s.context.failure !== null);
    expect(back.context.failure).toBe(STILL_HOLDS);
    expect(accountsChanged).not.toHaveBeenCalled();
    actor.send(cancel);
    expect(actor.getSnapshot().value).toBe('closed');
  });
});

describe('provider account form rules', () => {
  const starlink = { ...EMPTY_PROVIDER_ACCOUNT_FORM, name: 'US', apiUrl: 'https://api.example.com', clientId: 'id', clientSecret: 's' };

  it('mirrors the server: https URLs (http only to this machine), whole numbers within the limits', () => {
    expect(validateProviderAccountForm(starlink)).toEqual({});
    expect(validateProviderAccountForm({ ...starlink, apiUrl: 'http://api.example.com' }).apiUrl).toBe(T.urlInvalid);
    expect(validateProviderAccountForm({ ...starlink, apiUrl: 'http://localhost:4010' })).toEqual({});
    expect(validateProviderAccountForm({ ...starlink, tokenUrl: 'nope' }).tokenUrl).toBe(T.urlInvalid);
    expect(validateProviderAccountForm({ ...starlink, name: 'x'.repeat(81) }).name).toBe(T.nameTooLong);
    expect(validateProviderAccountForm({ ...starlink, requestsPerMinute: '1.5' }).requestsPerMinute).toBe(T.requestsPerMinute);
    expect(validateProviderAccountForm({ ...starlink, requestsPerMinute: '250', syncIntervalMinutes: '1440' })).toEqual({});
    expect(validateProviderAccountForm({ ...starlink, syncIntervalMinutes: '4' }).syncIntervalMinutes).toBe(T.syncInterval);
    expect(validateProviderAccountForm({ ...EMPTY_PROVIDER_ACCOUNT_FORM, name: 'BR', kind: 'simulator' })).toEqual({ simulatorAccount: T.simulatedRequired });
  });

  it('a blank secret is fine only where one is stored, and is then not sent', () => {
    expect(validateProviderAccountForm({ ...starlink, clientSecret: '' }).clientSecret).toBe(T.secretRequired);
    expect(validateProviderAccountForm({ ...starlink, clientSecret: '' }, true)).toEqual({});
    expect(providerAccountPayload({ ...starlink, clientSecret: '' }, starlinkAccount).input).not.toHaveProperty('clientSecret');
    expect(providerAccountPayload({ ...starlink, clientSecret: 'new' }, starlinkAccount).input).toMatchObject({ clientSecret: 'new' });
  });

  it('an edited simulated account keeps its own simulated account pickable', async () => {
    const { actor } = await openForm({}, edit(simulatedAccount));
    actor.send(pick('br'));
    expect(actor.getSnapshot().context.form.simulatorAccount).toBe('br');
    expect(createActor(providerAccountsMachine).getSnapshot().value).toBe('closed');
  });
});
