/**
 * The provider accounts page's changes (Customers → Provider accounts): "Add account" and Edit (one
 * form), Test connection, Disable / Enable, and Delete (a question first), one at a time.
 *
 *   closed                  no dialog; the table's buttons are offered
 *   form.loadingChoices     the form opens and asks which of the built-in simulator's accounts may be
 *                           added                                              (tags: open, loading)
 *   form.choicesFailed      they could not be read: the reason, with Try again            (tag: open)
 *   form.editing            the form: name, kind (Starlink service account, or a simulated account
 *                           when the simulator offers any), the kind's fields, calls per minute and
 *                           the sync interval; a field's problem sits under it and clears when it is
 *                           edited, a refusal that is no field's sits above the form     (tag: open)
 *   form.saving             "Adding..." or "Saving..."; the dialog cannot be closed (tags: open, busy)
 *   testing                 the row's Test connection says it is working; the provider's answer,
 *                           accepted or refused, is a toast in its own words             (tag: busy)
 *   switching               the row's Disable or Enable says it is working               (tag: busy)
 *   remove.confirming       "Delete {name}?"                                          (tag: confirm)
 *   remove.removing         "Deleting..."; the dialog cannot be closed        (tags: confirm, busy)
 *
 * The form is checked here first with the server's limits (src/domain/provider-accounts.ts); the
 * server has the last word, and its refusal of a field comes back under that field. Every change,
 * and every connection test (a refusal marks the account "authentication failed"), tells the page
 * (`accountsChanged`), which reloads the list.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { ApiResult } from '../api/client';
import type { ProviderAccountSave } from '../api/provider-accounts';
import type { FieldErrors } from '../domain/customers';
import {
  DEFAULT_PROVIDER_REQUESTS_PER_MINUTE,
  PROVIDER_ACCOUNT_LIMITS as L,
  type ProviderAccountFormField,
  type ProviderAccountFormValues,
  type ProviderAccountInput,
  type ProviderAccountKind,
  type ProviderAccountTextField,
  type ProviderAccountWire,
  type ProviderConnectionTestWire,
  type SimulatedAccountWire,
} from '../domain/provider-accounts';
import { failureText, hasErrors } from './customer-forms';
import { submittingStates } from './submit';


export interface ProviderAccountsContext {
  form: ProviderAccountFormValues;
  errors: FieldErrors<ProviderAccountFormField>;
  /** Why the last request failed, when it was not a field's problem. */
  failure: string | null;
  /** The simulator's accounts the form offers (read when it opens). */
  simulated: SimulatedAccountWire[];
  /** The account edited, tested, switched or deleted; null while a new one is written. */
  target: ProviderAccountWire | null;
}

export type ProviderAccountsEvent =
  | { type: 'user.create' }
  | { type: 'user.edit'; account: ProviderAccountWire }
  | { type: 'user.field'; field: ProviderAccountTextField; value: string }
  | { type: 'user.kind'; kind: ProviderAccountKind }
  | { type: 'user.simulated'; slug: string }
  | { type: 'user.submit' }
  | { type: 'user.cancel' }
  | { type: 'user.retry' }
  | { type: 'user.test'; account: ProviderAccountWire }
  | { type: 'user.disable'; account: ProviderAccountWire }
  | { type: 'user.enable'; account: ProviderAccountWire }
  | { type: 'user.delete'; account: ProviderAccountWire }
  | { type: 'user.confirm' };

export const EMPTY_PROVIDER_ACCOUNT_FORM: ProviderAccountFormValues = {
  name: '',
  kind: 'starlink',
  simulatorAccount: '',
  apiUrl: '',
  tokenUrl: '',
  clientId: '',
  clientSecret: '',
  requestsPerMinute: String(DEFAULT_PROVIDER_REQUESTS_PER_MINUTE),
  syncIntervalMinutes: '',
};

export const PROVIDER_ACCOUNT_FORM_TEXTS = {
  nameRequired: 'Enter a name',
  nameTooLong: `A name is at most ${L.name} characters`,
  apiUrlRequired: 'Enter the API URL',
  urlInvalid: 'Enter an https:// URL (http:// only for localhost)',
  urlTooLong: `A URL is at most ${L.url} characters`,
  clientIdRequired: 'Enter the client ID',
  clientIdTooLong: `A client ID is at most ${L.clientId} characters`,
  secretRequired: 'Enter the client secret',
  secretTooLong: `A client secret is at most ${L.clientSecret} characters`,
  simulatedRequired: 'Choose a simulated account',
  requestsPerMinute: `A whole number from ${L.requestsPerMinute.min} to ${L.requestsPerMinute.max}`,
  syncInterval: `Blank, or a whole number of minutes from ${L.syncIntervalMinutes.min} to ${L.syncIntervalMinutes.max}`,
  added: 'Provider account added',
  saved: 'Provider account saved',
  disabled: 'Provider account disabled: its data stays, and nothing calls the provider for it',
  enabled: 'Provider account enabled',
  deleted: 'Provider account deleted',
  choicesFailed: "The simulator's accounts could not be loaded. Try again.",
  testFailed: 'The connection could not be tested. Try again.',
  switchFailed: (enable: boolean) => failureText(enable ? 'enable the account' : 'disable the account', null),
  deleteFailed: 'The account could not be deleted. Try again.',
} as const;
const T = PROVIDER_ACCOUNT_FORM_TEXTS;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https, or plain http to this machine only (the server's rule: the token request carries the secret). */
export function isServiceUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname));
  } catch {
    return false;
  }
}

const WHOLE = /^\d+$/;
const wholeWithin = (value: string, { min, max }: { min: number; max: number }) => WHOLE.test(value) && Number(value) >= min && Number(value) <= max;

function urlProblem(value: string, required: string | null): string | undefined {
  if (!value) return required ?? undefined;
  if (value.length > L.url) return T.urlTooLong;
  return isServiceUrl(value) ? undefined : T.urlInvalid;
}

/**
 * The form's problems, by the server's rules. `hasSecret`: the account edited keeps a stored secret,
 * so a blank one is fine.
 */
export function validateProviderAccountForm(form: ProviderAccountFormValues, hasSecret = false): FieldErrors<ProviderAccountFormField> {
  const errors: FieldErrors<ProviderAccountFormField> = {};
  const name = form.name.trim();
  if (!name) errors.name = T.nameRequired;
  else if (name.length > L.name) errors.name = T.nameTooLong;
  if (form.kind === 'simulator') {
    if (!form.simulatorAccount) errors.simulatorAccount = T.simulatedRequired;
  } else {
    errors.apiUrl = urlProblem(form.apiUrl.trim(), T.apiUrlRequired);
    errors.tokenUrl = urlProblem(form.tokenUrl.trim(), null);
    const clientId = form.clientId.trim();
    if (!clientId) errors.clientId = T.clientIdRequired;
    else if (clientId.length > L.clientId) errors.clientId = T.clientIdTooLong;
    if (!form.clientSecret && !hasSecret) errors.clientSecret = T.secretRequired;
    else if (form.clientSecret.length > L.clientSecret) errors.clientSecret = T.secretTooLong;
  }
  if (!wholeWithin(form.requestsPerMinute.trim(), L.requestsPerMinute)) errors.requestsPerMinute = T.requestsPerMinute;
  const interval = form.syncIntervalMinutes.trim();
  if (interval && !wholeWithin(interval, L.syncIntervalMinutes)) errors.syncIntervalMinutes = T.syncInterval;
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message)) as FieldErrors<ProviderAccountFormField>;
}

/** The form an account opens with: its stored values, never its secret. */
export function formOf(account: ProviderAccountWire): ProviderAccountFormValues {
  return {
    name: account.name,
    kind: account.kind,
    simulatorAccount: account.simulatorAccount ?? '',
    apiUrl: account.kind === 'starlink' ? (account.apiUrl ?? '') : '',
    tokenUrl: account.kind === 'starlink' ? (account.tokenUrl ?? '') : '',
    clientId: account.clientId ?? '',
    clientSecret: '',
    requestsPerMinute: String(account.requestsPerMinute),
    syncIntervalMinutes: account.syncIntervalMinutes === null ? '' : String(account.syncIntervalMinutes),
  };
}

/** What the form sends: only its kind's fields; on edit a blank secret is left out, keeping the stored one. */
export function providerAccountPayload(form: ProviderAccountFormValues, editing: ProviderAccountWire | null): ProviderAccountSave {
  const common = {
    name: form.name.trim(),
    kind: form.kind,
    requestsPerMinute: Number(form.requestsPerMinute.trim()),
    syncIntervalMinutes: form.syncIntervalMinutes.trim() ? Number(form.syncIntervalMinutes.trim()) : null,
  };
  const input: ProviderAccountInput =
    form.kind === 'simulator'
      ? { ...common, simulatorAccount: form.simulatorAccount }
      : {
          ...common,
          apiUrl: form.apiUrl.trim(),
          tokenUrl: form.tokenUrl.trim() || null,
          clientId: form.clientId.trim(),
          ...(form.clientSecret || !editing ? { clientSecret: form.clientSecret } : {}),
        };
  return editing ? { id: editing.id, input } : { id: null, input };
}

const SERVER_FIELDS: Record<string, ProviderAccountFormField> = {
  name: 'name',
  simulatorAccount: 'simulatorAccount',
  apiUrl: 'apiUrl',
  tokenUrl: 'tokenUrl',
  clientId: 'clientId',
  clientSecret: 'clientSecret',
  requestsPerMinute: 'requestsPerMinute',
  syncIntervalMinutes: 'syncIntervalMinutes',
};

/**
 * Where a refusal's words go: the fields the server named; a 409 under the simulated account when
 * it says that account is in use, else under the name (taken); anything else above the form.
 */
export function refusalPlacement(refusal: Extract<ApiResult<unknown>, { ok: false }>, kind: ProviderAccountKind): {
  errors: FieldErrors<ProviderAccountFormField>;
  failure: string | null;
} {
  const errors: FieldErrors<ProviderAccountFormField> = {};
  for (const problem of refusal.errors ?? []) {
    const field = problem.path.split(/[./[\]]/).map((part) => SERVER_FIELDS[part]).find(Boolean);
    if (field && !errors[field]) errors[field] = problem.message;
  }
  if (hasErrors(errors)) return { errors, failure: null };
  if (refusal.status === 409 && refusal.message) {
    // The server words a simulated account in use as "That simulated account is already used by …".
    const field = kind === 'simulator' && /simulated account/i.test(refusal.message) ? 'simulatorAccount' : 'name';
    return { errors: { [field]: refusal.message }, failure: null };
  }
  return { errors: {}, failure: refusal.message.trim() || failureText('save the provider account', null) };
}

/** A simulated account the form may pick: free, or the one the account edited already uses. */
export const isFreeFor = (account: SimulatedAccountWire, editing: ProviderAccountWire | null) => account.usedBy === null || account.usedBy === editing?.id;

const providerAccountsSetup = setup({
  types: {
    context: {} as ProviderAccountsContext,
    events: {} as ProviderAccountsEvent,
  },
  actors: {
    loadSimulated: fromPromise<ApiResult<SimulatedAccountWire[]>>(async () => {
      throw new Error('loadSimulated is provided by the app');
    }),
    saveAccount: fromPromise<ApiResult<ProviderAccountWire>, ProviderAccountSave>(async () => {
      throw new Error('saveAccount is provided by the app');
    }),
    setEnabled: fromPromise<ApiResult<ProviderAccountWire>, { id: number; enabled: boolean }>(async () => {
      throw new Error('setEnabled is provided by the app');
    }),
    testConnection: fromPromise<ApiResult<ProviderConnectionTestWire>, { id: number }>(async () => {
      throw new Error('testConnection is provided by the app');
    }),
    removeAccount: fromPromise<ApiResult<null>, { id: number }>(async () => {
      throw new Error('removeAccount is provided by the app');
    }),
  },
  actions: {
    openForm: assign((_, account: ProviderAccountWire | null) => ({
      form: account ? formOf(account) : EMPTY_PROVIDER_ACCOUNT_FORM,
      errors: {},
      failure: null,
      simulated: [],
      target: account,
    })),
    storeSimulated: assign((_, outcome: ApiResult<SimulatedAccountWire[]>) => (outcome.ok ? { simulated: outcome.data, failure: null } : {})),
    storeField: assign(({ context }, { field, value }: { field: ProviderAccountTextField; value: string }) => ({
      form: { ...context.form, [field]: value },
      errors: { ...context.errors, [field]: undefined },
      failure: null,
    })),
    storeKind: assign(({ context }, kind: ProviderAccountKind) => ({ form: { ...context.form, kind }, errors: {}, failure: null })),
    // Picking a simulated account names the new account after it, unless a name is already typed.
    storeSimulatedChoice: assign(({ context }, slug: string) => {
      const chosen = context.simulated.find((s) => s.slug === slug);
      const name = context.form.name.trim() ? context.form.name : (chosen?.name ?? '');
      return {
        form: { ...context.form, simulatorAccount: slug, name },
        errors: { ...context.errors, simulatorAccount: undefined, ...(name ? { name: undefined } : {}) },
        failure: null,
      };
    }),
    storeClientErrors: assign(({ context }) => ({ errors: validateProviderAccountForm(context.form, context.target?.hasSecret ?? false) })),
    storeRefusal: assign(({ context }, outcome: ApiResult<unknown>) => (outcome.ok ? {} : refusalPlacement(outcome, context.form.kind))),
    forgetDialog: assign({ form: EMPTY_PROVIDER_ACCOUNT_FORM, errors: {}, failure: null, simulated: [], target: null }),
    takeAccount: assign((_, account: ProviderAccountWire) => ({ target: account, failure: null })),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The account list reloads. */
    accountsChanged: () => {},
  },
  guards: {
    isValid: ({ context }) => !hasErrors(validateProviderAccountForm(context.form, context.target?.hasSecret ?? false)),
    isDone: (_, outcome: ApiResult<unknown>) => outcome.ok,
    // The provider answered the test, and accepted the credentials.
    isAccepted: (_, outcome: ApiResult<ProviderConnectionTestWire>) => outcome.ok && outcome.data.ok,
    // A stale row (the list not yet reloaded) offers the wrong one of Disable / Enable: it does nothing.
    isEnabled: (_, account: ProviderAccountWire) => account.status !== 'disabled',
    isDisabled: (_, account: ProviderAccountWire) => account.status === 'disabled',
    // Only a simulated account's form offers the list, and only the free ones (or its own) in it.
    isFree: ({ context }, slug: string) => context.form.kind === 'simulator' && context.simulated.some((s) => s.slug === slug && isFreeFor(s, context.target)),
  },
});

const submitting = submittingStates(providerAccountsSetup);

export const providerAccountsMachine = providerAccountsSetup.createMachine({
  id: 'providerAccounts',
  context: { form: EMPTY_PROVIDER_ACCOUNT_FORM, errors: {}, failure: null, simulated: [], target: null },
  initial: 'closed',
  states: {
    closed: {
      // Nothing outlives its dialog: no half-typed form, account or failure waits for the next one.
      entry: 'forgetDialog',
      on: {
        'user.create': { target: 'form', actions: { type: 'openForm', params: null } },
        'user.edit': { target: 'form', actions: { type: 'openForm', params: ({ event }) => event.account } },
        'user.test': { target: 'testing', actions: { type: 'takeAccount', params: ({ event }) => event.account } },
        'user.disable': {
          guard: { type: 'isEnabled', params: ({ event }) => event.account },
          target: 'switching',
          actions: { type: 'takeAccount', params: ({ event }) => event.account },
        },
        'user.enable': {
          guard: { type: 'isDisabled', params: ({ event }) => event.account },
          target: 'switching',
          actions: { type: 'takeAccount', params: ({ event }) => event.account },
        },
        'user.delete': { target: 'remove', actions: { type: 'takeAccount', params: ({ event }) => event.account } },
      },
    },
    form: {
      tags: ['open'],
      initial: 'loadingChoices',
      states: {
        loadingChoices: {
          tags: ['loading'],
          on: { 'user.cancel': '#providerAccounts.closed' },
          invoke: {
            id: 'loadSimulated',
            src: 'loadSimulated',
            onDone: [
              {
                guard: { type: 'isDone', params: ({ event }) => event.output },
                target: 'editing',
                actions: { type: 'storeSimulated', params: ({ event }) => event.output },
              },
              { target: 'choicesFailed', actions: { type: 'storeFailure', params: ({ event }) => (event.output.ok ? '' : event.output.message) || T.choicesFailed } },
            ],
            onError: { target: 'choicesFailed', actions: { type: 'storeFailure', params: T.choicesFailed } },
          },
        },
        choicesFailed: { on: { 'user.retry': { target: 'loadingChoices', actions: 'clearFailure' }, 'user.cancel': '#providerAccounts.closed' } },
        editing: {
          on: {
            'user.field': { actions: { type: 'storeField', params: ({ event }) => event } },
            'user.kind': { actions: { type: 'storeKind', params: ({ event }) => event.kind } },
            'user.simulated': {
              guard: { type: 'isFree', params: ({ event }) => event.slug },
              actions: { type: 'storeSimulatedChoice', params: ({ event }) => event.slug },
            },
            'user.submit': [{ guard: 'isValid', target: 'saving' }, { actions: 'storeClientErrors' }],
            'user.cancel': '#providerAccounts.closed',
          },
        },
        saving: submitting({
          src: 'saveAccount',
          input: ({ context }) => providerAccountPayload(context.form, context.target),
          success: {
            target: '#providerAccounts.closed',
            actions: [{ type: 'notifySuccess', params: ({ context }) => (context.target ? T.saved : T.added) }, 'accountsChanged'],
          },
          back: 'editing',
          failure: (why) => why?.trim() || failureText('save the provider account', null),
          // The server's words go by the field they are about (a name in use under the name).
          refused: { type: 'storeRefusal', params: ({ event }) => event.output },
        }),
      },
    },
    testing: {
      tags: ['busy'],
      invoke: {
        id: 'testConnection',
        src: 'testConnection',
        input: ({ context }) => ({ id: context.target!.id }),
        // Accepted or refused, the provider's words are the toast; either may change the status shown.
        onDone: [
          {
            guard: { type: 'isAccepted', params: ({ event }) => event.output },
            target: 'closed',
            actions: [{ type: 'notifySuccess', params: ({ event }) => (event.output.ok ? event.output.data.message : '') }, 'accountsChanged'],
          },
          {
            guard: { type: 'isDone', params: ({ event }) => event.output },
            target: 'closed',
            actions: [{ type: 'notifyFailure', params: ({ event }) => (event.output.ok ? event.output.data.message : '') }, 'accountsChanged'],
          },
          { target: 'closed', actions: { type: 'notifyFailure', params: ({ event }) => (event.output.ok ? '' : event.output.message.trim()) || T.testFailed } },
        ],
        onError: { target: 'closed', actions: { type: 'notifyFailure', params: T.testFailed } },
      },
    },
    switching: submitting({
      src: 'setEnabled',
      input: ({ context }) => ({ id: context.target!.id, enabled: context.target!.status === 'disabled' }),
      success: {
        target: '#providerAccounts.closed',
        actions: [
          { type: 'notifySuccess', params: ({ context }) => (context.target?.status === 'disabled' ? T.enabled : T.disabled) },
          'accountsChanged',
        ],
      },
      back: '#providerAccounts.closed',
      failure: (why) => why?.trim() || failureText('change the account', null),
    }),
    remove: {
      tags: ['confirm'],
      initial: 'confirming',
      states: {
        confirming: { on: { 'user.confirm': 'removing', 'user.cancel': '#providerAccounts.closed' } },
        removing: submitting({
          src: 'removeAccount',
          input: ({ context }) => ({ id: context.target!.id }),
          success: { target: '#providerAccounts.closed', actions: [{ type: 'notifySuccess', params: T.deleted }, 'accountsChanged'] },
          back: 'confirming',
          // A 409 says why in the server's words: the lines it still holds, and to disable it instead.
          failure: (why) => why?.trim() || T.deleteFailed,
        }),
      },
    },
  },
});

export type ProviderAccountsMachine = typeof providerAccountsMachine;

// ---- What the page shows -----------------------------------------------------------------------

export type ProviderAccountDialog = 'none' | 'form' | 'delete';

export interface ProviderAccountsView {
  dialog: ProviderAccountDialog;
  /** The form edits an account (its secret may stay blank), or adds one. */
  mode: 'create' | 'edit';
  /** The simulator's accounts are being read, or could not be. */
  choicesLoading: boolean;
  choicesFailed: boolean;
  /** A request runs: dialogs cannot be closed and the table's buttons wait. */
  busy: boolean;
  /** The row whose connection test runs, and the one being disabled or enabled. */
  testing: number | null;
  switching: number | null;
  form: ProviderAccountFormValues;
  errors: FieldErrors<ProviderAccountFormField>;
  failure: string | null;
  simulated: SimulatedAccountWire[];
  target: ProviderAccountWire | null;
}

/** The one reading of the machine the page renders: what each dialog and row shows, from the state it is in. */
export function providerAccountsView(snapshot: SnapshotFrom<ProviderAccountsMachine>): ProviderAccountsView {
  const { context } = snapshot;
  const dialog: ProviderAccountDialog = snapshot.hasTag('open') ? 'form' : snapshot.hasTag('confirm') ? 'delete' : 'none';
  const targetId = context.target?.id ?? null;
  return {
    dialog,
    mode: context.target ? 'edit' : 'create',
    choicesLoading: snapshot.hasTag('loading'),
    choicesFailed: snapshot.matches({ form: 'choicesFailed' }),
    busy: snapshot.hasTag('busy'),
    testing: snapshot.matches('testing') ? targetId : null,
    switching: snapshot.matches('switching') ? targetId : null,
    form: context.form,
    errors: context.errors,
    failure: context.failure,
    simulated: context.simulated,
    target: context.target,
  };
}
