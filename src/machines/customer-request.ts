/**
 * A customer's requests on My Requests: the "New request" dialog, and cancelling a
 * pending request. One per page; `user.open` hands it the customer's lines.
 *
 *   closed           no dialog
 *   choosingLine     "New request": the line select; `error` when the line's options could
 *                    not be loaded (the server's words)                               (tag: open)
 *   loadingOptions   what the chosen line may be asked for is loading                 (tag: open)
 *   editing          plan change or top-up; the plan, or the blocks (price shown); a note;
 *                    `failure` when the request was refused (the server's words)      (tag: open)
 *   submitting       "Sending..."; it cannot be closed                         (tags: open, busy)
 *   confirmingCancel "Cancel this request?"                                           (tag: open)
 *   cancelling       "Cancelling..."                                            (tags: open, busy)
 *
 * A sent or cancelled request tells the page (`requestsChanged`), which reloads its list.
 */
import { assign, fromPromise, setup } from 'xstate';
import {
  REQUEST_MESSAGES,
  REQUEST_NOTE_MAX_LENGTH,
  type CustomerRequestWire,
  type NewRequestPayload,
  type RequestKind,
  type RequestLineWire,
  type RequestOptionsWire,
} from '../domain/requests';
import { FALLBACK_LOAD_ERROR, type LoadOutcome } from './resource';
import { submittingStates } from './submit';

export type OptionsOutcome = LoadOutcome<RequestOptionsWire>;
export type SendOutcome = LoadOutcome<CustomerRequestWire>;

export interface CustomerRequestContext {
  lines: RequestLineWire[];
  serviceLineNumber: string | null;
  options: RequestOptionsWire | null;
  kind: RequestKind;
  /** The chosen plan (plan change); the top-up is the line's one product. */
  planId: string | null;
  count: number;
  note: string;
  /** The request to cancel. */
  request: CustomerRequestWire | null;
  /** Why the options could not be loaded. */
  error: string | null;
  /** Why the last send or cancel was refused. */
  failure: string | null;
}

export type CustomerRequestEvent =
  | { type: 'user.open'; lines: RequestLineWire[] }
  | { type: 'user.line'; serviceLineNumber: string }
  | { type: 'user.kind'; kind: RequestKind }
  | { type: 'user.plan'; productId: string }
  | { type: 'user.count'; count: number }
  | { type: 'user.note'; value: string }
  | { type: 'user.submit' }
  | { type: 'user.cancelRequest'; request: CustomerRequestWire }
  | { type: 'user.confirm' }
  | { type: 'user.close' };

export const SEND_FAILED = 'Your request could not be sent. Try again.';
export const CANCEL_FAILED = 'The request could not be cancelled. Try again.';

const messageOf = (outcome: LoadOutcome<unknown>) => (outcome.ok ? '' : outcome.message.trim()) || FALLBACK_LOAD_ERROR;

/** What the form would send, or null while it is not complete. */
export function requestPayload(context: CustomerRequestContext): NewRequestPayload | null {
  const { options, serviceLineNumber } = context;
  if (!options || !serviceLineNumber || context.note.length > REQUEST_NOTE_MAX_LENGTH) return null;
  const note = context.note.trim() || undefined;
  if (context.kind === 'plan_change') {
    const plan = options.plans.find((p) => p.productReferenceId === context.planId);
    return plan ? { serviceLineNumber, kind: 'plan_change', productId: plan.productReferenceId, note } : null;
  }
  const topUp = options.topUp;
  if (!topUp || !Number.isInteger(context.count) || context.count < 1 || context.count > topUp.blocksLeft) return null;
  return { serviceLineNumber, kind: 'top_up', productId: topUp.product.productId, count: context.count, note };
}

const customerRequestSetup = setup({
  types: {
    context: {} as CustomerRequestContext,
    events: {} as CustomerRequestEvent,
  },
  actors: {
    loadOptions: fromPromise<OptionsOutcome, { serviceLineNumber: string }>(async () => {
      throw new Error('loadOptions is provided by the app');
    }),
    sendRequest: fromPromise<SendOutcome, NewRequestPayload>(async () => {
      throw new Error('sendRequest is provided by the app');
    }),
    cancelRequest: fromPromise<SendOutcome, { id: string }>(async () => {
      throw new Error('cancelRequest is provided by the app');
    }),
  },
  actions: {
    openWith: assign((_, lines: RequestLineWire[]) => ({
      lines,
      serviceLineNumber: null,
      options: null,
      kind: 'plan_change' as RequestKind,
      planId: null,
      count: 1,
      note: '',
      request: null,
      error: null,
      failure: null,
    })),
    storeLine: assign((_, serviceLineNumber: string) => ({ serviceLineNumber, options: null, planId: null, count: 1, error: null, failure: null })),
    storeOptions: assign((_, options: RequestOptionsWire) => ({ options, error: null })),
    storeError: assign((_, message: string) => ({ error: message })),
    storeKind: assign((_, kind: RequestKind) => ({ kind, failure: null })),
    storePlan: assign((_, planId: string) => ({ planId, failure: null })),
    storeCount: assign((_, count: number) => ({ count, failure: null })),
    storeNote: assign((_, note: string) => ({ note, failure: null })),
    takeRequest: assign((_, request: CustomerRequestWire) => ({ request, failure: null })),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The list reloads. */
    requestsChanged: () => {},
  },
  guards: {
    isLoaded: (_, outcome: OptionsOutcome) => outcome.ok,
    isOwnLine: ({ context }, serviceLineNumber: string) => context.lines.some((l) => l.serviceLineNumber === serviceLineNumber),
    // Top-up is offered only when the line's plan sells one.
    canAsk: ({ context }, kind: RequestKind) => kind === 'plan_change' || context.options?.topUp != null,
    isOffered: ({ context }, productId: string) => context.options?.plans.some((p) => p.productReferenceId === productId) ?? false,
    isAllowedCount: ({ context }, count: number) => Number.isInteger(count) && count >= 1 && count <= (context.options?.topUp?.blocksLeft ?? 0),
    isComplete: ({ context }) => requestPayload(context) !== null,
    isPending: (_, request: CustomerRequestWire) => request.status === 'pending',
    isDone: (_, outcome: SendOutcome) => outcome.ok,
  },
});

const submitting = submittingStates(customerRequestSetup);

export const customerRequestMachine = customerRequestSetup.createMachine({
  id: 'customerRequest',
  context: { lines: [], serviceLineNumber: null, options: null, kind: 'plan_change', planId: null, count: 1, note: '', request: null, error: null, failure: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'user.open': { target: 'choosingLine', actions: { type: 'openWith', params: ({ event }) => event.lines } },
        'user.cancelRequest': {
          guard: { type: 'isPending', params: ({ event }) => event.request },
          target: 'confirmingCancel',
          actions: { type: 'takeRequest', params: ({ event }) => event.request },
        },
      },
    },
    choosingLine: {
      tags: ['open'],
      on: {
        'user.line': {
          guard: { type: 'isOwnLine', params: ({ event }) => event.serviceLineNumber },
          target: 'loadingOptions',
          actions: { type: 'storeLine', params: ({ event }) => event.serviceLineNumber },
        },
        'user.close': 'closed',
      },
    },
    loadingOptions: {
      tags: ['open'],
      on: { 'user.close': 'closed' },
      invoke: {
        id: 'loadOptions',
        src: 'loadOptions',
        input: ({ context }) => ({ serviceLineNumber: context.serviceLineNumber! }),
        onDone: [
          {
            guard: { type: 'isLoaded', params: ({ event }) => event.output },
            target: 'editing',
            actions: { type: 'storeOptions', params: ({ event }) => (event.output as { ok: true; data: RequestOptionsWire }).data },
          },
          { target: 'choosingLine', actions: { type: 'storeError', params: ({ event }) => messageOf(event.output) } },
        ],
        onError: { target: 'choosingLine', actions: { type: 'storeError', params: FALLBACK_LOAD_ERROR } },
      },
    },
    editing: {
      tags: ['open'],
      on: {
        // Another line: its own options, and the choices made for this one forgotten.
        'user.line': {
          guard: { type: 'isOwnLine', params: ({ event }) => event.serviceLineNumber },
          target: 'loadingOptions',
          actions: { type: 'storeLine', params: ({ event }) => event.serviceLineNumber },
        },
        'user.kind': { guard: { type: 'canAsk', params: ({ event }) => event.kind }, actions: { type: 'storeKind', params: ({ event }) => event.kind } },
        'user.plan': { guard: { type: 'isOffered', params: ({ event }) => event.productId }, actions: { type: 'storePlan', params: ({ event }) => event.productId } },
        'user.count': { guard: { type: 'isAllowedCount', params: ({ event }) => event.count }, actions: { type: 'storeCount', params: ({ event }) => event.count } },
        'user.note': { actions: { type: 'storeNote', params: ({ event }) => event.value } },
        'user.submit': { guard: 'isComplete', target: 'submitting' },
        'user.close': 'closed',
      },
    },
    submitting: {
      ...submitting({
        src: 'sendRequest',
        input: ({ context }) => requestPayload(context)!,
        success: { target: 'closed', actions: [{ type: 'notifySuccess', params: REQUEST_MESSAGES.created }, 'requestsChanged'] },
        back: 'editing',
        failure: (why) => why?.trim() || SEND_FAILED,
      }),
      tags: ['open', 'busy'],
    },
    confirmingCancel: {
      tags: ['open'],
      on: { 'user.confirm': 'cancelling', 'user.close': 'closed' },
    },
    cancelling: {
      ...submitting({
        src: 'cancelRequest',
        input: ({ context }) => ({ id: context.request!.id }),
        success: { target: 'closed', actions: [{ type: 'notifySuccess', params: REQUEST_MESSAGES.cancelled }, 'requestsChanged'] },
        back: 'confirmingCancel',
        failure: (why) => why?.trim() || CANCEL_FAILED,
      }),
      tags: ['open', 'busy'],
    },
  },
});

export type CustomerRequestMachine = typeof customerRequestMachine;
