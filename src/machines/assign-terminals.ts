/**
 * The Assign Terminals dialog (spec sections 2 "Assign Terminals dialog", 4 "Assign dialog",
 * 5 "Assign terminals", 8 "Customers"), one per page; `user.open` names the customer.
 *
 *   closed                 no dialog
 *   open                   the customer's name, company, email and uuid          (tag: open)
 *     assigned.loading     "… terminals currently assigned" still being counted  (tag: loadingAssigned)
 *     assigned.loaded      how many the customer holds (`assignedTotal`) and the first of them
 *                          (`assigned`); none when the fetch failed (logged only)
 *     form.editing         the textarea, the message of the last refusal (`error`) and the result
 *                          panels of the last answer (`result`); Close and Assign Terminals enabled
 *     form.submitting      "Assigning..."; the textarea, Close and Assign disabled   (tag: busy)
 *
 * An answer (even one that assigned nothing) re-fetches the assigned list and tells the page
 * (`terminalsAssigned`) so its usage view refreshes.
 */
import { assign, fromPromise, raise, setup } from 'xstate';
import {
  ASSIGN_MESSAGES,
  validateAssignInput,
  type AssignedTerminal,
  type AssignedTerminalsPage,
  type AssignTerminalsPayload,
  type AssignTerminalsResult,
} from '../domain/customer-terminals';
import type { LoadOutcome } from './resource';

/** The customer the dialog assigns to, as the page knows it. */
export interface AssignCustomer {
  uuid: string;
  name: string;
  email: string;
  company: string;
}

export interface AssignTerminalsContext {
  /** null only before the dialog is first opened. */
  customer: AssignCustomer | null;
  /** The textarea. */
  text: string;
  /** The last answer of the server, per line; null before one and after a failure. */
  result: AssignTerminalsResult | null;
  /** Why nothing was assigned: a client rule, the server's refusal, or no answer. */
  error: string | null;
  /**
   * The first of the customer's assigned terminals (ASSIGNED_PREVIEW_SIZE; a customer may hold
   * thousands, which the usage table lists); an empty list when they could not be fetched.
   */
  assigned: AssignedTerminal[];
  /** How many terminals the customer holds (0 when they could not be fetched). */
  assignedTotal: number;
}

export type AssignTerminalsEvent =
  | { type: 'user.open'; customer: AssignCustomer }
  | { type: 'user.input'; value: string }
  | { type: 'user.submit' }
  | { type: 'user.close' }
  /** Raised by the dialog itself after an answer: the assigned list is fetched again. */
  | { type: 'terminals.assigned' };

export type AssignedOutcome = LoadOutcome<AssignedTerminalsPage>;
export type AssignOutcome = LoadOutcome<AssignTerminalsResult>;

const refusalText = (outcome: AssignOutcome) =>
  outcome.ok ? '' : outcome.message.trim() ? ASSIGN_MESSAGES.failed(outcome.message.trim()) : ASSIGN_MESSAGES.failedGeneric;

const requestOf = (context: AssignTerminalsContext): AssignTerminalsPayload => {
  const check = validateAssignInput(context.text);
  return { customerUuid: context.customer!.uuid, serviceLineNumbers: check.ok ? check.lines : [] };
};

export const assignTerminalsMachine = setup({
  types: {
    context: {} as AssignTerminalsContext,
    events: {} as AssignTerminalsEvent,
  },
  actors: {
    /** Input: the customer's uuid. */
    loadAssigned: fromPromise<AssignedOutcome, string>(async () => {
      throw new Error('loadAssigned is provided by the app');
    }),
    assignTerminals: fromPromise<AssignOutcome, AssignTerminalsPayload>(async () => {
      throw new Error('assignTerminals is provided by the app');
    }),
  },
  actions: {
    openFor: assign((_, customer: AssignCustomer) => ({ customer, text: '', result: null, error: null, assigned: [], assignedTotal: 0 })),
    storeText: assign((_, text: string) => ({ text })),
    clearText: assign({ text: '' }),
    storeInputError: assign(({ context }) => {
      const check = validateAssignInput(context.text);
      return { error: check.ok ? null : check.message };
    }),
    clearError: assign({ error: null }),
    storeResult: assign((_, outcome: AssignOutcome) => (outcome.ok ? { result: outcome.data, error: null } : {})),
    storeRefusal: assign((_, outcome: AssignOutcome) => ({ result: null, error: refusalText(outcome) })),
    storeUnexpectedFailure: assign({ result: null, error: ASSIGN_MESSAGES.unexpected }),
    storeAssigned: assign((_, outcome: AssignedOutcome) =>
      outcome.ok ? { assigned: outcome.data.records, assignedTotal: Math.max(outcome.data.pagination.total, outcome.data.records.length) } : {},
    ),
    clearAssigned: assign({ assigned: [], assignedTotal: 0 }),
    reloadAssigned: raise({ type: 'terminals.assigned' }),
    /** Spec 8: a failed fetch of the assigned list is logged only; `reason` is the refusal message or the thrown error. */
    logAssignedFailure: (_, _failure: { reason: unknown }) => {},
    /** The failure toast. */
    notifyFailure: (_, _message: string) => {},
    /** The page refreshes its usage view. */
    terminalsAssigned: (_, _result: AssignTerminalsResult) => {},
  },
  guards: {
    isValidInput: ({ context }) => validateAssignInput(context.text).ok,
    isLoaded: (_, outcome: LoadOutcome<unknown>) => outcome.ok,
    hasAssignedAny: (_, outcome: AssignOutcome) => outcome.ok && outcome.data.assigned.length > 0,
  },
}).createMachine({
  id: 'assignTerminals',
  context: { customer: null, text: '', result: null, error: null, assigned: [], assignedTotal: 0 },
  initial: 'closed',
  states: {
    closed: {
      on: { 'user.open': { target: 'open', actions: { type: 'openFor', params: ({ event }) => event.customer } } },
    },
    open: {
      tags: ['open'],
      type: 'parallel',
      states: {
        assigned: {
          initial: 'loading',
          states: {
            loading: {
              tags: ['loadingAssigned'],
              // A second answer while the list loads asks again: the first request may predate it.
              on: { 'terminals.assigned': { target: 'loading', reenter: true } },
              invoke: {
                id: 'loadAssigned',
                src: 'loadAssigned',
                input: ({ context }) => context.customer!.uuid,
                onDone: [
                  {
                    guard: { type: 'isLoaded', params: ({ event }) => event.output },
                    target: 'loaded',
                    actions: { type: 'storeAssigned', params: ({ event }) => event.output },
                  },
                  {
                    target: 'loaded',
                    actions: ['clearAssigned', { type: 'logAssignedFailure', params: ({ event }) => ({ reason: event.output.ok ? '' : event.output.message }) }],
                  },
                ],
                onError: { target: 'loaded', actions: ['clearAssigned', { type: 'logAssignedFailure', params: ({ event }) => ({ reason: event.error }) }] },
              },
            },
            loaded: { on: { 'terminals.assigned': 'loading' } },
          },
        },
        form: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                'user.input': { actions: { type: 'storeText', params: ({ event }) => event.value } },
                'user.submit': [{ guard: 'isValidInput', target: 'submitting', actions: 'clearError' }, { actions: 'storeInputError' }],
                'user.close': '#assignTerminals.closed',
              },
            },
            // Close is not offered here: the request must not be abandoned half way.
            submitting: {
              tags: ['busy'],
              invoke: {
                id: 'assignTerminals',
                src: 'assignTerminals',
                input: ({ context }) => requestOf(context),
                onDone: [
                  // Spec 4: the text box clears only when at least one line was assigned.
                  {
                    guard: { type: 'hasAssignedAny', params: ({ event }) => event.output },
                    target: 'editing',
                    actions: [{ type: 'storeResult', params: ({ event }) => event.output }, 'clearText', 'reloadAssigned', { type: 'terminalsAssigned', params: ({ context }) => context.result! }],
                  },
                  // Every line refused is still an answer: the list and the page may have moved meanwhile.
                  {
                    guard: { type: 'isLoaded', params: ({ event }) => event.output },
                    target: 'editing',
                    actions: [{ type: 'storeResult', params: ({ event }) => event.output }, 'reloadAssigned', { type: 'terminalsAssigned', params: ({ context }) => context.result! }],
                  },
                  {
                    target: 'editing',
                    actions: [
                      { type: 'storeRefusal', params: ({ event }) => event.output },
                      { type: 'notifyFailure', params: ({ event }) => refusalText(event.output) },
                    ],
                  },
                ],
                onError: { target: 'editing', actions: ['storeUnexpectedFailure', { type: 'notifyFailure', params: ASSIGN_MESSAGES.unexpected }] },
              },
            },
          },
        },
      },
    },
  },
});

export type AssignTerminalsMachine = typeof assignTerminalsMachine;
