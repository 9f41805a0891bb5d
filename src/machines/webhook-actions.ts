/**
 * The per-row actions of the Webhooks page, one at a time, each on the one submit shape
 * (submit.ts):
 *
 *   closed                  nothing running; the row buttons are offered by the endpoint's status
 *   running                 Send test, Enable, Disable or a delivery's Replay runs at once, no
 *                           dialog; the row buttons wait                                  (tag: busy)
 *   dialog.confirming       "Rotate the secret of {url}?" / "Delete {url}?"               (tag: open)
 *   dialog.rotating         Rotate says it is working; the dialog cannot be closed  (tags: open, busy)
 *   dialog.deleting         Delete says it is working; the dialog cannot be closed  (tags: open, busy)
 *   showingSecret.*         the new secret, shown once, with Copy (webhook-endpoint.ts)  (tag: secret)
 *
 * `context.kind` names the action. A refusal of a dialog's action keeps the dialog open with the
 * server's words in it; a refusal of one that runs at once is a toast. Every success is a toast
 * too and tells the page (`endpointChanged`), which reloads the endpoints and the open log.
 */
import { assign, fromPromise, setup } from 'xstate';
import { WEBHOOK_MESSAGES as M, type WebhookDeliveryWire, type WebhookEndpointWire, type WebhookSecretWire } from '../domain/webhooks';
import type { LoadOutcome } from './resource';
import { submittingStates } from './submit';
import { secretShownStates } from './webhook-endpoint';

export type WebhookActionKind = 'test' | 'enable' | 'disable' | 'replay' | 'rotate' | 'delete';
/** The actions the one `runAction` actor takes (rotating answers a secret: its own actor). */
export type WebhookRunKind = Exclude<WebhookActionKind, 'rotate'>;

export interface WebhookActionInput {
  kind: WebhookRunKind;
  endpointId: string;
  /** replay only. */
  deliveryId?: string;
}

export interface WebhookActionsContext {
  endpoint: WebhookEndpointWire | null;
  /** The delivery a replay sends again. */
  delivery: WebhookDeliveryWire | null;
  kind: WebhookActionKind | null;
  /** The rotated secret, held only while it is shown. */
  secret: string | null;
  /** Why the last request failed (shown in the dialog as well as the toast). */
  failure: string | null;
}

type WithEndpoint<T extends string> = { type: T; endpoint: WebhookEndpointWire };

export type WebhookActionsEvent =
  | WithEndpoint<'user.test'>
  | WithEndpoint<'user.enable'>
  | WithEndpoint<'user.disable'>
  | WithEndpoint<'user.rotate'>
  | WithEndpoint<'user.delete'>
  | { type: 'user.replay'; endpoint: WebhookEndpointWire; delivery: WebhookDeliveryWire }
  | { type: 'user.confirm' }
  | { type: 'user.close' }
  | { type: 'user.copy' };

export const WEBHOOK_ACTION_TEXTS = {
  disabled: 'Webhook endpoint disabled',
  rotateQuestion: (url: string) => `Make a new secret for ${url}? Deliveries are signed with the new one from now on; the receiver must be given it.`,
  deleteQuestion: (url: string) => `Delete ${url}? Its deliveries are no longer sent or logged.`,
  failed: 'The action could not be completed. Try again.',
} as const;

const SUCCESS: Record<WebhookRunKind, string> = {
  test: M.testQueued,
  enable: M.enabled,
  disable: WEBHOOK_ACTION_TEXTS.disabled,
  replay: M.replayQueued,
  delete: M.deleted,
};

function runInput(context: WebhookActionsContext): WebhookActionInput {
  const kind = context.kind as WebhookRunKind;
  const input: WebhookActionInput = { kind, endpointId: context.endpoint!.id };
  if (kind === 'replay') input.deliveryId = context.delivery!.id;
  return input;
}

const take = (kind: WebhookActionKind) =>
  ({ type: 'takeEndpoint', params: ({ event }: { event: { endpoint: WebhookEndpointWire } }) => ({ endpoint: event.endpoint, kind }) }) as const;
const endpointOf = ({ event }: { event: { endpoint: WebhookEndpointWire } }) => event.endpoint;

const webhookActionsSetup = setup({
  types: {
    context: {} as WebhookActionsContext,
    events: {} as WebhookActionsEvent,
  },
  actors: {
    runAction: fromPromise<LoadOutcome<unknown>, WebhookActionInput>(async () => {
      throw new Error('runAction is provided by the app');
    }),
    rotateSecret: fromPromise<LoadOutcome<WebhookSecretWire>, { endpointId: string }>(async () => {
      throw new Error('rotateSecret is provided by the app');
    }),
    copySecret: fromPromise<void, { secret: string }>(async () => {
      throw new Error('copySecret is provided by the app');
    }),
  },
  actions: {
    takeEndpoint: assign((_, { endpoint, kind }: { endpoint: WebhookEndpointWire; kind: WebhookActionKind }) => ({
      endpoint,
      kind,
      delivery: null,
      secret: null,
      failure: null,
    })),
    takeDelivery: assign((_, delivery: WebhookDeliveryWire) => ({ delivery })),
    storeSecret: assign((_, outcome: LoadOutcome<WebhookSecretWire>) => (outcome.ok ? { secret: outcome.data.secret } : {})),
    forgetSecret: assign({ secret: null }),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The endpoints (and the open delivery log) reload. */
    endpointChanged: () => {},
  },
  guards: {
    // The row offers Send test, Disable and Replay on an active endpoint and Enable on a disabled
    // one (the server refuses the rest too): a stale click does nothing.
    isActive: (_, endpoint: WebhookEndpointWire) => endpoint.status === 'active',
    isDisabled: (_, endpoint: WebhookEndpointWire) => endpoint.status === 'disabled',
    isRotating: ({ context }) => context.kind === 'rotate',
    isDone: (_, outcome: LoadOutcome<unknown>) => outcome.ok,
  },
});

const submitting = submittingStates(webhookActionsSetup);
const failureWords = (why: string | null) => why?.trim() || WEBHOOK_ACTION_TEXTS.failed;

export const webhookActionsMachine = webhookActionsSetup.createMachine({
  id: 'webhookActions',
  context: { endpoint: null, delivery: null, kind: null, secret: null, failure: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'user.test': { guard: { type: 'isActive', params: endpointOf }, target: 'running', actions: take('test') },
        'user.enable': { guard: { type: 'isDisabled', params: endpointOf }, target: 'running', actions: take('enable') },
        'user.disable': { guard: { type: 'isActive', params: endpointOf }, target: 'running', actions: take('disable') },
        'user.replay': {
          guard: { type: 'isActive', params: endpointOf },
          target: 'running',
          actions: [take('replay'), { type: 'takeDelivery', params: ({ event }) => event.delivery }],
        },
        'user.rotate': { target: 'dialog.confirming', actions: take('rotate') },
        'user.delete': { target: 'dialog.confirming', actions: take('delete') },
      },
    },
    running: submitting({
      src: 'runAction',
      input: ({ context }) => runInput(context),
      success: {
        target: 'closed',
        actions: [{ type: 'notifySuccess', params: ({ context }) => SUCCESS[context.kind as WebhookRunKind] }, 'endpointChanged'],
      },
      // Nothing to go back to: the toast says why, the row is offered again.
      back: 'closed',
      failure: failureWords,
    }),
    dialog: {
      tags: ['open'],
      initial: 'confirming',
      states: {
        confirming: {
          on: {
            'user.confirm': [{ guard: 'isRotating', target: 'rotating' }, { target: 'deleting' }],
            'user.close': '#webhookActions.closed',
          },
        },
        rotating: submitting({
          src: 'rotateSecret',
          input: ({ context }) => ({ endpointId: context.endpoint!.id }),
          success: {
            target: '#webhookActions.showingSecret',
            actions: [{ type: 'storeSecret', params: ({ event }) => event.output }, 'endpointChanged'],
          },
          back: 'confirming',
          failure: failureWords,
        }),
        deleting: submitting({
          src: 'runAction',
          input: ({ context }) => runInput(context),
          success: { target: '#webhookActions.closed', actions: [{ type: 'notifySuccess', params: M.deleted }, 'endpointChanged'] },
          back: 'confirming',
          failure: failureWords,
        }),
      },
    },
    showingSecret: secretShownStates('#webhookActions.closed'),
  },
});

export type WebhookActionsMachine = typeof webhookActionsMachine;
