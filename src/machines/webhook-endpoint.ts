/**
 * The Webhooks page's "Add endpoint" and "Edit endpoint" dialogs.
 *
 *   closed                  no dialog (never opened, cancelled, an edit saved, or the secret seen)
 *   editing                 the form: URL, description, event types (none chosen: every event);
 *                           a field's problem sits under it and clears when it is edited, a
 *                           refusal that is no field's sits above the form                (tag: open)
 *   saving.creating         "Saving..."; the dialog cannot be closed                 (tags: open, busy)
 *   saving.updating         the same, for an edit                                    (tags: open, busy)
 *   showingSecret.shown     "Copy this secret now": the new endpoint's secret, read-only, with Copy;
 *                           it is not shown again once this closes                      (tag: secret)
 *   showingSecret.copying   the secret goes to the clipboard                            (tag: secret)
 *   showingSecret.copied    "Copied"                                                    (tag: secret)
 *   showingSecret.copyFailed "Select the secret and copy it yourself"                   (tag: secret)
 *
 * The URL is checked here for its shape only; the server also resolves the host and refuses a
 * private address, and that refusal comes back to the URL field in the server's words.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { FieldErrors } from '../domain/customers';
import {
  WEBHOOK_DESCRIPTION_MAX_LENGTH,
  WEBHOOK_MESSAGES as M,
  webhookUrlProblem,
  type WebhookEndpointPayload,
  type WebhookEndpointUpdate,
  type WebhookEndpointWire,
  type WebhookEventType,
  type WebhookSecretWire,
} from '../domain/webhooks';
import { failureText, hasErrors } from './customer-forms';
import { submittingStates } from './submit';
import type { SaveOutcome, SaveRefusal } from './user-form';

export type WebhookFormField = 'url' | 'description' | 'eventTypes';

export interface WebhookFormValues {
  url: string;
  description: string;
  /** Empty: every event type. */
  eventTypes: WebhookEventType[];
}

export type WebhookFormMode = 'create' | 'edit';

export interface WebhookEndpointContext {
  mode: WebhookFormMode;
  /** The endpoint being edited (null in Add). */
  endpointId: string | null;
  form: WebhookFormValues;
  errors: FieldErrors<WebhookFormField>;
  /** Why the last save failed, when it was not a field's problem. */
  failure: string | null;
  /** The new endpoint's secret, held only while it is shown. */
  secret: string | null;
}

export type WebhookEndpointEvent =
  | { type: 'user.create' }
  | { type: 'user.edit'; endpoint: WebhookEndpointWire }
  | { type: 'user.field'; field: 'url' | 'description'; value: string }
  | { type: 'user.eventTypes'; eventTypes: WebhookEventType[] }
  | { type: 'user.submit' }
  | { type: 'user.cancel' }
  | { type: 'user.copy' }
  | { type: 'user.close' };

export interface UpdateEndpointInput {
  id: string;
  update: WebhookEndpointUpdate;
}

export const EMPTY_WEBHOOK_FORM: WebhookFormValues = { url: '', description: '', eventTypes: [] };
const FIELDS: readonly WebhookFormField[] = ['url', 'description', 'eventTypes'];

/**
 * The form's problems. Plain http to localhost passes here: whether this installation allows it
 * is the server's configuration, and the server says so in its own words when it does not.
 */
export function validateWebhookForm(form: WebhookFormValues): FieldErrors<WebhookFormField> {
  const errors: FieldErrors<WebhookFormField> = {};
  const url = webhookUrlProblem(form.url, true);
  if (url) errors.url = url;
  if (form.description.trim().length > WEBHOOK_DESCRIPTION_MAX_LENGTH) errors.description = M.descriptionTooLong;
  return errors;
}

/**
 * Where a refusal's words go: the fields the server named, else a 400's words on the URL field
 * (a URL the server will not call: a private address, a host it cannot resolve, plain http)
 * unless they are plainly about something else; anything else sits above the form.
 */
export function refusalPlacement(refusal: SaveRefusal): { errors: FieldErrors<WebhookFormField>; failure: string | null } {
  const errors: FieldErrors<WebhookFormField> = {};
  for (const problem of refusal.errors ?? []) {
    // "body.url", "/url" and "eventTypes.0" (an item of the list) all name their field.
    const name = problem.path.split(/[./[\]]/).find((part): part is WebhookFormField => (FIELDS as readonly string[]).includes(part));
    if (name && !errors[name]) errors[name] = problem.message;
  }
  if (hasErrors(errors)) return { errors, failure: null };
  const words = refusal.message.trim();
  if (refusal.status === 400 && words === M.descriptionTooLong) return { errors: { description: words }, failure: null };
  if (refusal.status === 400 && words && words !== M.tooManyEndpoints) return { errors: { url: words }, failure: null };
  return { errors: {}, failure: words || failureText('save the webhook endpoint', null) };
}

const trimmedForm = (form: WebhookFormValues) => ({ url: form.url.trim(), description: form.description.trim(), eventTypes: [...form.eventTypes] });
const createPayload = (form: WebhookFormValues): WebhookEndpointPayload => trimmedForm(form);
const updateOf = (form: WebhookFormValues): WebhookEndpointUpdate => trimmedForm(form);

/**
 * The secret-once dialog's states, shared with the row actions' Rotate secret. The machine names
 * the `copySecret` actor and the `forgetSecret` action; `closed` is where closing it goes.
 */
export function secretShownStates(closed: string) {
  return {
    tags: ['secret'],
    initial: 'shown',
    // The secret leaves memory with the dialog: it is not shown again.
    exit: 'forgetSecret',
    on: { 'user.close': closed },
    states: {
      shown: { on: { 'user.copy': 'copying' } },
      copying: {
        invoke: {
          id: 'copySecret',
          src: 'copySecret',
          input: ({ context }: { context: { secret: string | null } }) => ({ secret: context.secret ?? '' }),
          onDone: 'copied',
          // No clipboard (an insecure origin, a refused permission): the field stays selectable.
          onError: 'copyFailed',
        },
      },
      copied: { on: { 'user.copy': 'copying' } },
      copyFailed: { on: { 'user.copy': 'copying' } },
    },
  } as const;
}

const webhookEndpointSetup = setup({
  types: {
    context: {} as WebhookEndpointContext,
    events: {} as WebhookEndpointEvent,
  },
  actors: {
    createEndpoint: fromPromise<SaveOutcome<WebhookSecretWire>, WebhookEndpointPayload>(async () => {
      throw new Error('createEndpoint is provided by the app');
    }),
    updateEndpoint: fromPromise<SaveOutcome<WebhookEndpointWire>, UpdateEndpointInput>(async () => {
      throw new Error('updateEndpoint is provided by the app');
    }),
    copySecret: fromPromise<void, { secret: string }>(async () => {
      throw new Error('copySecret is provided by the app');
    }),
  },
  actions: {
    openCreate: assign({ mode: 'create', endpointId: null, form: EMPTY_WEBHOOK_FORM, errors: {}, failure: null, secret: null }),
    openEdit: assign((_, endpoint: WebhookEndpointWire) => ({
      mode: 'edit' as const,
      endpointId: endpoint.id,
      form: { url: endpoint.url, description: endpoint.description, eventTypes: [...endpoint.eventTypes] },
      errors: {},
      failure: null,
      secret: null,
    })),
    storeField: assign(({ context }, { field, value }: { field: 'url' | 'description'; value: string }) => ({
      form: { ...context.form, [field]: value },
      errors: { ...context.errors, [field]: undefined },
      failure: null,
    })),
    storeEventTypes: assign(({ context }, eventTypes: WebhookEventType[]) => ({
      form: { ...context.form, eventTypes },
      errors: { ...context.errors, eventTypes: undefined },
      failure: null,
    })),
    storeClientErrors: assign(({ context }) => ({ errors: validateWebhookForm(context.form) })),
    storeSecret: assign((_, outcome: SaveOutcome<WebhookSecretWire>) => (outcome.ok ? { secret: outcome.data.secret } : {})),
    forgetSecret: assign({ secret: null }),
    storeRefusal: assign((_, outcome: SaveOutcome<unknown>) => (outcome.ok ? {} : refusalPlacement(outcome))),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The endpoint list reloads. */
    endpointSaved: () => {},
  },
  guards: {
    isValid: ({ context }) => !hasErrors(validateWebhookForm(context.form)),
    isCreating: ({ context }) => context.mode === 'create',
    isDone: (_, outcome: SaveOutcome<unknown>) => outcome.ok,
  },
});

const submitting = submittingStates(webhookEndpointSetup);


export const webhookEndpointMachine = webhookEndpointSetup.createMachine({
  id: 'webhookEndpoint',
  context: { mode: 'create', endpointId: null, form: EMPTY_WEBHOOK_FORM, errors: {}, failure: null, secret: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'user.create': { target: 'editing', actions: 'openCreate' },
        'user.edit': { target: 'editing', actions: { type: 'openEdit', params: ({ event }) => event.endpoint } },
      },
    },
    editing: {
      tags: ['open'],
      on: {
        'user.field': { actions: { type: 'storeField', params: ({ event }) => event } },
        'user.eventTypes': { actions: { type: 'storeEventTypes', params: ({ event }) => event.eventTypes } },
        'user.submit': [
          { guard: 'isValid', target: 'saving' },
          { actions: 'storeClientErrors' },
        ],
        'user.cancel': 'closed',
      },
    },
    saving: {
      tags: ['open', 'busy'],
      initial: 'choosing',
      states: {
        choosing: {
          always: [{ guard: 'isCreating', target: 'creating' }, { target: 'updating' }],
        },
        creating: submitting({
          src: 'createEndpoint',
          input: ({ context }) => createPayload(context.form),
          success: {
            target: '#webhookEndpoint.showingSecret',
            actions: [{ type: 'storeSecret', params: ({ event }) => event.output }, 'endpointSaved'],
          },
          back: '#webhookEndpoint.editing',
          failure: (why) => why?.trim() || failureText('add the webhook endpoint', null),
          // The server's words go by the field they are about (a refused URL under the URL).
          refused: { type: 'storeRefusal', params: ({ event }) => event.output },
        }),
        updating: submitting({
          src: 'updateEndpoint',
          input: ({ context }) => ({ id: context.endpointId!, update: updateOf(context.form) }),
          success: { target: '#webhookEndpoint.closed', actions: [{ type: 'notifySuccess', params: M.updated }, 'endpointSaved'] },
          back: '#webhookEndpoint.editing',
          failure: (why) => why?.trim() || failureText('save the webhook endpoint', null),
          refused: { type: 'storeRefusal', params: ({ event }) => event.output },
        }),
      },
    },
    showingSecret: secretShownStates('#webhookEndpoint.closed'),
  },
});

export type WebhookEndpointMachine = typeof webhookEndpointMachine;
