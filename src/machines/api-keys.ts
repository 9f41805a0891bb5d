/**
 * The API keys page's dialogs: "New API key" (the key shown once) and "Revoke", one at a time.
 *
 *   closed                   no dialog; the table's New API key and Revoke buttons are offered
 *   create.loadingRoles      the dialog opens and asks for the roles a key may have  (tags: open, loading)
 *   create.rolesFailed       the roles could not be read: the reason, with Try again       (tag: open)
 *   create.editing           the form: name, role (only roles within your own permissions can be
 *                            chosen), optional expiry day, optional allow-list of addresses and
 *                            ranges; a field's problem sits under it and clears when it is edited, a
 *                            refusal that is no field's sits above the form                (tag: open)
 *   create.saving            "Creating..."; the dialog cannot be closed                (tags: open, busy)
 *   showingSecret.shown      "Copy this key now": the new key, read-only, with Copy; it is not shown
 *                            again once this closes                                       (tag: secret)
 *   showingSecret.copying    the key goes to the clipboard                                (tag: secret)
 *   showingSecret.copied     "Copied"                                                     (tag: secret)
 *   showingSecret.copyFailed "Select the key and copy it yourself"                        (tag: secret)
 *   revoke.confirming        "Revoke {name}?": what stops working                       (tag: confirm)
 *   revoke.revoking          "Revoking..."; the dialog cannot be closed             (tags: confirm, busy)
 *
 * The form is checked here first with the server's own rules (src/domain/api-keys.ts); the server
 * has the last word on the role (no wider than your permissions), and its refusal of a field comes
 * back under that field.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { ApiResult } from '../api/client';
import {
  API_KEY_LIMITS,
  API_KEY_MESSAGES as M,
  allowListProblems,
  splitAllowList,
  type ApiKeyCreatedWire,
  type ApiKeyInput,
  type ApiKeyWire,
} from '../domain/api-keys';
import type { FieldErrors } from '../domain/customers';
import type { RoleWire } from '../domain/permissions';
import { failureText, hasErrors } from './customer-forms';
import { submittingStates } from './submit';
import { secretShownStates } from './webhook-endpoint';

export type ApiKeyFormField = 'name' | 'roleId' | 'expiresOn' | 'allowList';

export interface ApiKeyFormValues {
  name: string;
  roleId: string;
  /** YYYY-MM-DD, the last day the key works; '' never expires. */
  expiresOn: string;
  /** Addresses and ranges, one a line; '' any address. */
  allowList: string;
}

export interface ApiKeysContext {
  form: ApiKeyFormValues;
  errors: FieldErrors<ApiKeyFormField>;
  /** Why the last request failed, when it was not a field's problem. */
  failure: string | null;
  /** The roles the form offers (read when it opens). */
  roles: RoleWire[];
  /** The new key's secret, held only while it is shown. */
  secret: string | null;
  /** The new key, to name it beside its secret. */
  created: ApiKeyWire | null;
  /** The key a revoke is about. */
  target: ApiKeyWire | null;
}

export type ApiKeysEvent =
  | { type: 'user.create' }
  | { type: 'user.field'; field: 'name' | 'expiresOn' | 'allowList'; value: string }
  | { type: 'user.role'; roleId: string }
  | { type: 'user.submit' }
  | { type: 'user.cancel' }
  | { type: 'user.retry' }
  | { type: 'user.copy' }
  | { type: 'user.close' }
  | { type: 'user.revoke'; key: ApiKeyWire }
  | { type: 'user.confirm' };

export const EMPTY_API_KEY_FORM: ApiKeyFormValues = { name: '', roleId: '', expiresOn: '', allowList: '' };

export const API_KEY_FORM_TEXTS = {
  expiryDay: 'Expiry must be a day like 2027-01-31',
  revokeFailed: 'The key could not be revoked. Try again.',
  rolesFailed: 'The roles could not be loaded. Try again.',
} as const;

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Today in the browser's calendar, as YYYY-MM-DD. */
export function localDay(at: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** The end of a day in the browser's time zone: the key works through the day it names. */
export function endOfDayIso(day: string): string {
  return new Date(`${day}T23:59:59.999`).toISOString();
}

/** The form's problems, by the server's rules; `today` is the browser's (an expiry day may be today). */
export function validateApiKeyForm(form: ApiKeyFormValues, today: string = localDay()): FieldErrors<ApiKeyFormField> {
  const errors: FieldErrors<ApiKeyFormField> = {};
  const name = form.name.trim();
  if (!name) errors.name = M.nameRequired;
  else if (name.length > API_KEY_LIMITS.name) errors.name = M.nameTooLong;
  if (!form.roleId) errors.roleId = M.roleRequired;
  const day = form.expiresOn.trim();
  // A day that exists: 2026-02-30 would roll over to March.
  if (day && (!DAY.test(day) || localDay(new Date(`${day}T00:00:00`)) !== day)) errors.expiresOn = API_KEY_FORM_TEXTS.expiryDay;
  else if (day && day < today) errors.expiresOn = M.expiryPast;
  const [problem] = allowListProblems(splitAllowList(form.allowList));
  if (problem) errors.allowList = problem.message;
  return errors;
}

export function apiKeyPayload(form: ApiKeyFormValues): ApiKeyInput {
  const day = form.expiresOn.trim();
  return { name: form.name.trim(), roleId: form.roleId, expiresAt: day ? endOfDayIso(day) : null, allowedIps: splitAllowList(form.allowList) };
}

const SERVER_FIELDS: Record<string, ApiKeyFormField> = { name: 'name', roleId: 'roleId', expiresAt: 'expiresOn', allowedIps: 'allowList' };

/**
 * Where a refusal's words go: the fields the server named ("allowedIps.2" is the allow-list), a
 * name in use under the name; anything else (a role wider than yours) above the form.
 */
export function refusalPlacement(refusal: Extract<ApiResult<unknown>, { ok: false }>): { errors: FieldErrors<ApiKeyFormField>; failure: string | null } {
  const errors: FieldErrors<ApiKeyFormField> = {};
  for (const problem of refusal.errors ?? []) {
    const field = problem.path.split(/[./[\]]/).map((part) => SERVER_FIELDS[part]).find(Boolean);
    if (field && !errors[field]) errors[field] = problem.message;
  }
  if (hasErrors(errors)) return { errors, failure: null };
  if (refusal.status === 409 && refusal.message) return { errors: { name: refusal.message }, failure: null };
  return { errors: {}, failure: refusal.message.trim() || failureText('create the API key', null) };
}

const apiKeysSetup = setup({
  types: {
    context: {} as ApiKeysContext,
    events: {} as ApiKeysEvent,
  },
  actors: {
    loadRoles: fromPromise<ApiResult<RoleWire[]>>(async () => {
      throw new Error('loadRoles is provided by the app');
    }),
    createKey: fromPromise<ApiResult<ApiKeyCreatedWire>, ApiKeyInput>(async () => {
      throw new Error('createKey is provided by the app');
    }),
    revokeKey: fromPromise<ApiResult<ApiKeyWire>, { id: string }>(async () => {
      throw new Error('revokeKey is provided by the app');
    }),
    copySecret: fromPromise<void, { secret: string }>(async () => {
      throw new Error('copySecret is provided by the app');
    }),
  },
  actions: {
    openForm: assign({ form: EMPTY_API_KEY_FORM, errors: {}, failure: null, roles: [], secret: null, created: null, target: null }),
    storeRoles: assign((_, outcome: ApiResult<RoleWire[]>) => (outcome.ok ? { roles: outcome.data, failure: null } : {})),
    storeField: assign(({ context }, { field, value }: { field: 'name' | 'expiresOn' | 'allowList'; value: string }) => ({
      form: { ...context.form, [field]: value },
      errors: { ...context.errors, [field]: undefined },
      failure: null,
    })),
    storeRole: assign(({ context }, roleId: string) => ({ form: { ...context.form, roleId }, errors: { ...context.errors, roleId: undefined }, failure: null })),
    storeClientErrors: assign(({ context }) => ({ errors: validateApiKeyForm(context.form) })),
    storeCreated: assign((_, outcome: ApiResult<ApiKeyCreatedWire>) => (outcome.ok ? { secret: outcome.data.secret, created: outcome.data.key } : {})),
    forgetSecret: assign({ secret: null }),
    storeRefusal: assign((_, outcome: ApiResult<unknown>) => (outcome.ok ? {} : refusalPlacement(outcome))),
    takeKey: assign((_, key: ApiKeyWire) => ({ target: key, failure: null })),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The key list reloads. */
    keysChanged: () => {},
  },
  guards: {
    isValid: ({ context }) => !hasErrors(validateApiKeyForm(context.form)),
    isDone: (_, outcome: ApiResult<unknown>) => outcome.ok,
    // The row offers Revoke only on a key not yet revoked: a stale click does nothing.
    isRevocable: (_, key: ApiKeyWire) => key.status !== 'revoked',
  },
});

const submitting = submittingStates(apiKeysSetup);

export const apiKeysMachine = apiKeysSetup.createMachine({
  id: 'apiKeys',
  context: { form: EMPTY_API_KEY_FORM, errors: {}, failure: null, roles: [], secret: null, created: null, target: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'user.create': { target: 'create', actions: 'openForm' },
        'user.revoke': {
          guard: { type: 'isRevocable', params: ({ event }) => event.key },
          target: 'revoke',
          actions: { type: 'takeKey', params: ({ event }) => event.key },
        },
      },
    },
    create: {
      tags: ['open'],
      initial: 'loadingRoles',
      states: {
        loadingRoles: {
          tags: ['loading'],
          on: { 'user.cancel': '#apiKeys.closed' },
          invoke: {
            id: 'loadRoles',
            src: 'loadRoles',
            onDone: [
              {
                guard: { type: 'isDone', params: ({ event }) => event.output },
                target: 'editing',
                actions: { type: 'storeRoles', params: ({ event }) => event.output },
              },
              { target: 'rolesFailed', actions: { type: 'storeFailure', params: ({ event }) => (event.output.ok ? '' : event.output.message) || API_KEY_FORM_TEXTS.rolesFailed } },
            ],
            onError: { target: 'rolesFailed', actions: { type: 'storeFailure', params: API_KEY_FORM_TEXTS.rolesFailed } },
          },
        },
        rolesFailed: { on: { 'user.retry': { target: 'loadingRoles', actions: 'clearFailure' }, 'user.cancel': '#apiKeys.closed' } },
        editing: {
          on: {
            'user.field': { actions: { type: 'storeField', params: ({ event }) => event } },
            'user.role': { actions: { type: 'storeRole', params: ({ event }) => event.roleId } },
            'user.submit': [{ guard: 'isValid', target: 'saving' }, { actions: 'storeClientErrors' }],
            'user.cancel': '#apiKeys.closed',
          },
        },
        saving: submitting({
            src: 'createKey',
            input: ({ context }) => apiKeyPayload(context.form),
            success: { target: '#apiKeys.showingSecret', actions: [{ type: 'storeCreated', params: ({ event }) => event.output }, 'keysChanged'] },
            back: 'editing',
            failure: (why) => why?.trim() || failureText('create the API key', null),
            // The server's words go by the field they are about (a refused range under the allow-list).
            refused: { type: 'storeRefusal', params: ({ event }) => event.output },
          }),
      },
    },
    showingSecret: secretShownStates('#apiKeys.closed'),
    revoke: {
      tags: ['confirm'],
      initial: 'confirming',
      states: {
        confirming: { on: { 'user.confirm': 'revoking', 'user.close': '#apiKeys.closed' } },
        revoking: submitting({
          src: 'revokeKey',
          input: ({ context }) => ({ id: context.target!.id }),
          success: { target: '#apiKeys.closed', actions: [{ type: 'notifySuccess', params: M.revoked }, 'keysChanged'] },
          back: 'confirming',
          failure: (why) => why?.trim() || API_KEY_FORM_TEXTS.revokeFailed,
        }),
      },
    },
  },
});

export type ApiKeysMachine = typeof apiKeysMachine;

// ---- What the page shows -----------------------------------------------------------------------

export type ApiKeyDialog = 'none' | 'form' | 'secret' | 'revoke';
export type ApiKeyCopyState = 'idle' | 'copying' | 'copied' | 'failed';

export interface ApiKeysView {
  dialog: ApiKeyDialog;
  /** The form's roles are being read, or could not be. */
  rolesLoading: boolean;
  rolesFailed: boolean;
  /** A request runs: the dialog cannot be closed and its buttons wait. */
  busy: boolean;
  form: ApiKeyFormValues;
  errors: FieldErrors<ApiKeyFormField>;
  failure: string | null;
  roles: RoleWire[];
  secret: string;
  created: ApiKeyWire | null;
  copy: ApiKeyCopyState;
  target: ApiKeyWire | null;
}

/** The one reading of the machine the page renders: what each dialog shows, from the state it is in. */
export function apiKeysView(snapshot: SnapshotFrom<ApiKeysMachine>): ApiKeysView {
  const { context } = snapshot;
  const dialog: ApiKeyDialog = snapshot.hasTag('open') ? 'form' : snapshot.hasTag('secret') ? 'secret' : snapshot.hasTag('confirm') ? 'revoke' : 'none';
  const copy: ApiKeyCopyState = snapshot.matches({ showingSecret: 'copying' })
    ? 'copying'
    : snapshot.matches({ showingSecret: 'copied' })
      ? 'copied'
      : snapshot.matches({ showingSecret: 'copyFailed' })
        ? 'failed'
        : 'idle';
  return {
    dialog,
    rolesLoading: snapshot.hasTag('loading'),
    rolesFailed: snapshot.matches({ create: 'rolesFailed' }),
    busy: snapshot.hasTag('busy'),
    form: context.form,
    errors: context.errors,
    failure: context.failure,
    roles: context.roles,
    secret: context.secret ?? '',
    created: context.created,
    copy,
    target: context.target,
  };
}
