// Provider accounts → Add account / Edit, Test connection, Disable / Enable and Delete
// (providerAccounts machine): its generated paths walked on the machine and through the
// /customers/provider-accounts page (a Starlink account, a simulated one and a disabled one
// listed), plus journeys pinned by hand. The fixtures are few on purpose: a simulated account is
// the short way to a valid new account, an edit of the Starlink account (its secret stored) the
// other; a cleared name makes either invalid.
import { screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { PROVIDER_ACCOUNT_FORM_TEXTS as F, providerAccountsMachine, validateProviderAccountForm } from '../../../src/machines/provider-accounts';
import { PROVIDER_ACCOUNT_TEXTS as T } from '../../../src/ui/provider-accounts/parts';
import {
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
  simulatedChoices,
  startProviderAccounts,
  starlinkAccount,
  submit,
  test,
} from '../../fixtures/provider-accounts';
import { defineModel, done, failed } from '../framework/model';
import type { PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';
import { openProviderAccountsPage, rowButton } from './provider-accounts-page';

const NAME_TAKEN = 'An account named "Mexico (MXN)" already exists';
const LAST_ACCOUNT = 'The last enabled provider account cannot be disabled or deleted while the portal has no other';
const CHOICES_FAILED = 'The simulator is resting';
const mexico = simulatedChoices.find((s) => s.slug === 'mx')!;

const openDialog = () => within(screen.getByRole('dialog'));
const formDialog = () => within(screen.getByRole('dialog', { name: new RegExp(`^(${T.addTitle}|${T.editTitle})$`) }));
const deleteDialog = () => within(screen.getByRole('dialog', { name: T.deleteTitle }));
const nameInput = () => formDialog().getByLabelText('Name') as HTMLInputElement;
const submitButton = () => formDialog().getByRole('button', { name: new RegExp(`^(${T.add}|${T.save}|${T.adding}|${T.saving})$`) }) as HTMLButtonElement;
const button = (scope: ReturnType<typeof within>, name: string) => scope.getByRole('button', { name }) as HTMLButtonElement;

async function chooseSimulated(user: UserEvent, name: string) {
  await user.click((formDialog().getByLabelText(T.simulatedAccount) as HTMLElement).closest('.p-dropdown')!);
  await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name }));
}

export const providerAccountsModel = defineModel<typeof providerAccountsMachine, PageScreen>({
  name: 'provider-accounts',
  machine: providerAccountsMachine,
  events: {
    'user.create': [create],
    'user.edit': [edit(starlinkAccount)],
    // A cleared name makes the form invalid; a simulated account picked names it again.
    'user.field': [field('name', '')],
    'user.kind': [kind('simulator')],
    'user.simulated': [pick('mx')],
    'user.submit': [submit],
    'user.cancel': [cancel],
    'user.retry': [retry],
    'user.test': [test(starlinkAccount)],
    'user.disable': [disable(starlinkAccount)],
    'user.enable': [enable(disabledAccount)],
    'user.delete': [remove(starlinkAccount)],
    'user.confirm': [confirm],
  },
  actorResults: [
    done('loadSimulated', apiOk(simulatedChoices)),
    done('loadSimulated', apiRefusal(503, CHOICES_FAILED)),
    failed('loadSimulated', new TypeError('fetch failed')),
    done('saveAccount', apiOk(starlinkAccount, 201)),
    done('saveAccount', apiRefusal(409, NAME_TAKEN)),
    failed('saveAccount', new TypeError('fetch failed')),
    done('setEnabled', apiOk(disabledAccount)),
    done('setEnabled', apiRefusal(409, LAST_ACCOUNT)),
    failed('setEnabled', new TypeError('fetch failed')),
    done('testConnection', apiOk(connected)),
    done('testConnection', apiOk(refusedTest)),
    done('testConnection', apiRefusal(404, 'Provider account not found')),
    failed('testConnection', new TypeError('fetch failed')),
    done('removeAccount', apiOk(null)),
    done('removeAccount', apiRefusal(409, STILL_HOLDS)),
    failed('removeAccount', new TypeError('fetch failed')),
  ],
  states: {
    closed: (s) => {
      expect(s.hasTag('open') || s.hasTag('confirm') || s.hasTag('busy')).toBe(false);
      expect(s.context.target).toBeNull();
    },
    'form.loadingChoices': (s) => {
      expect(s.hasTag('loading')).toBe(true);
      expect(s.context.simulated).toEqual([]);
    },
    'form.choicesFailed': (s) => expect(s.context.failure).toMatch(/.+/),
    'form.editing': (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.hasTag('busy')).toBe(false);
      expect(s.context.simulated).toEqual(simulatedChoices);
    },
    'form.saving': (s) => {
      expect(s.can(cancel)).toBe(false);
      expect(validateProviderAccountForm(s.context.form, s.context.target?.hasSecret ?? false)).toEqual({});
    },
    testing: (s) => expect(s.context.target).toEqual(starlinkAccount),
    switching: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.context.target).not.toBeNull();
    },
    'remove.confirming': (s) => expect(s.context.target).toEqual(starlinkAccount),
    'remove.removing': (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(cancel)).toBe(false);
    },
  },
  ui: {
    open: (seam) => openProviderAccountsPage(seam),
    // Clearing an empty box, or clicking the kind or the simulated account already chosen, fires nothing.
    drivable: ({ context }, event) =>
      (event.type !== 'user.field' || context.form[event.field] !== '') &&
      (event.type !== 'user.kind' || context.form.kind !== event.kind) &&
      (event.type !== 'user.simulated' || context.form.simulatorAccount !== event.slug),
    events: {
      'user.create': async ({ user }) => user.click(screen.getByRole('button', { name: T.addAccount })),
      'user.edit': async ({ user }, event) => user.click(rowButton(T.edit, event.account)),
      'user.field': async ({ user }) => user.clear(nameInput()),
      'user.kind': async ({ user }, event) => user.click(formDialog().getByLabelText(T.kindLabels[event.kind])),
      'user.simulated': async ({ user }) => chooseSimulated(user, T.simulatedOption(mexico.name, mexico.currency, mexico.terminals)),
      'user.submit': async ({ user }) => user.click(submitButton()),
      'user.cancel': async ({ user }) => user.click(button(openDialog(), 'Cancel')),
      'user.retry': async ({ user }) => user.click(button(formDialog(), T.retry)),
      'user.test': async ({ user }, event) => user.click(rowButton(T.test, event.account)),
      'user.disable': async ({ user }, event) => user.click(rowButton(T.disable, event.account)),
      'user.enable': async ({ user }, event) => user.click(rowButton(T.enable, event.account)),
      'user.delete': async ({ user }, event) => user.click(rowButton(T.delete, event.account)),
      'user.confirm': async ({ user }) => user.click(button(deleteDialog(), T.delete)),
    },
    states: {
      closed: () => {
        expect(screen.queryByRole('dialog')).toBeNull();
        expect(button(screen as unknown as ReturnType<typeof within>, T.addAccount).disabled).toBe(false);
        expect(rowButton(T.test, starlinkAccount).disabled).toBe(false);
      },
      'form.loadingChoices': () => {
        expect(formDialog().getByRole('status').textContent).toBe(T.choicesLoading);
        expect(submitButton().disabled).toBe(true);
      },
      'form.choicesFailed': ({ context }) => {
        expect(formDialog().getByText(context.failure!)).toBeTruthy();
        expect(button(formDialog(), T.retry)).toBeTruthy();
      },
      'form.editing': ({ context }) => {
        expect(screen.getByRole('dialog', { name: context.target ? T.editTitle : T.addTitle })).toBeTruthy();
        expect(nameInput().value).toBe(context.form.name);
        expect((formDialog().getByLabelText(T.kindLabels[context.form.kind]) as HTMLInputElement).checked).toBe(true);
        for (const message of Object.values(context.errors)) if (message) expect(formDialog().getByText(message)).toBeTruthy();
        expect(nameInput().getAttribute('aria-invalid')).toBe(context.errors.name ? 'true' : 'false');
        if (context.failure) expect(formDialog().getByText(context.failure)).toBeTruthy();
        if (context.form.kind === 'starlink') expect(formDialog().getByText(new RegExp(context.target ? T.secretHintEdit : T.secretHintNew))).toBeTruthy();
        expect(submitButton().disabled).toBe(false);
      },
      'form.saving': ({ context }) => {
        expect(submitButton().textContent).toBe(context.target ? T.saving : T.adding);
        expect(submitButton().disabled).toBe(true);
        expect(button(formDialog(), 'Cancel').disabled).toBe(true);
        expect(nameInput().disabled).toBe(true);
      },
      testing: () => {
        expect(rowButton(T.testing, starlinkAccount).disabled).toBe(true);
        expect(rowButton(T.edit, starlinkAccount).disabled).toBe(true);
      },
      switching: () => {
        expect(rowButton(T.test, starlinkAccount).disabled).toBe(true);
        expect(button(screen as unknown as ReturnType<typeof within>, T.addAccount).disabled).toBe(true);
      },
      'remove.confirming': ({ context }) => {
        expect(deleteDialog().getByText(T.deleteQuestion(starlinkAccount.name))).toBeTruthy();
        if (context.failure) expect(deleteDialog().getByText(context.failure)).toBeTruthy();
        expect(button(deleteDialog(), T.delete).disabled).toBe(false);
      },
      'remove.removing': () => {
        expect(button(deleteDialog(), T.deleting).disabled).toBe(true);
        expect(button(deleteDialog(), 'Cancel').disabled).toBe(true);
      },
    },
  },
});

modelSuite(providerAccountsModel);

describe('provider accounts machine (pinned journeys)', () => {
  it('a simulated account picked, its name taken, renamed and added: two tries, one account, the list reloaded once', async () => {
    const { actor, called, accountsChanged, notifySuccess } = startProviderAccounts({ save: [apiRefusal(409, NAME_TAKEN), apiOk(starlinkAccount, 201)] });
    actor.send(create);
    await waitFor(actor, (s) => s.matches({ form: 'editing' }));
    actor.send(kind('simulator'));
    actor.send(pick('mx'));
    actor.send(submit);
    expect((await waitFor(actor, (s) => s.matches({ form: 'editing' }) && s.context.errors.name !== undefined)).context.errors.name).toBe(NAME_TAKEN);
    actor.send(field('name', 'Mexico 2'));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('saveAccount').map((c) => (c.input as { input: { name: string } }).input.name)).toEqual(['Mexico (MXN)', 'Mexico 2']);
    expect(accountsChanged).toHaveBeenCalledOnce();
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(F.added);
  });

  it('a delete refused for the lines it holds keeps the question with the reason; Cancel leaves the account', async () => {
    const { actor, called, accountsChanged } = startProviderAccounts({ remove: [apiRefusal(409, STILL_HOLDS)] });
    actor.send(remove(starlinkAccount));
    actor.send(confirm);
    expect((await waitFor(actor, (s) => s.matches({ remove: 'confirming' }) && s.context.failure !== null)).context.failure).toBe(STILL_HOLDS);
    actor.send(cancel);
    expect(actor.getSnapshot().value).toBe('closed');
    expect(called('removeAccount')).toHaveLength(1);
    expect(accountsChanged).not.toHaveBeenCalled();
  });
});
