/**
 * Forgot password (/forgot-password): an email address → a reset link by email.
 *
 *   editing   the email field, Send reset link, the inline problem (the client's rule or the
 *             server's refusal: a malformed address, too many requests from this address)
 *   sending   "Sending…"; the field and the button are disabled                       (tag: busy)
 *   sent      "If an account exists for that address, we've sent a link…" and Back to sign in;
 *             the same words whether or not the address has an account (the server's answer
 *             does not say either)
 */
import { assign, fromPromise, setup } from 'xstate';
import { NETWORK_ERROR_MESSAGE } from '../domain/login';
import { forgotPasswordEmailProblem, type ForgotPasswordPayload } from '../domain/password-reset';
import type { LoadOutcome } from './resource';

export interface ForgotPasswordContext {
  email: string;
  /** The client rule broken, or the server's refusal. */
  error: string | null;
}

export type ForgotPasswordEvent = { type: 'user.email'; value: string } | { type: 'user.submit' };

export const forgotPasswordMachine = setup({
  types: {
    context: {} as ForgotPasswordContext,
    events: {} as ForgotPasswordEvent,
  },
  actors: {
    requestReset: fromPromise<LoadOutcome<unknown>, ForgotPasswordPayload>(async () => {
      throw new Error('requestReset is provided by the app');
    }),
  },
  actions: {
    storeEmail: assign((_, value: string) => ({ email: value, error: null })),
    storeProblem: assign(({ context }) => ({ error: forgotPasswordEmailProblem(context.email) })),
    storeRefusal: assign((_, message: string) => ({ error: message })),
    clearError: assign({ error: null }),
  },
  guards: {
    isEmailValid: ({ context }) => forgotPasswordEmailProblem(context.email) === null,
    isAccepted: (_, outcome: LoadOutcome<unknown>) => outcome.ok,
  },
}).createMachine({
  id: 'forgotPassword',
  context: { email: '', error: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'user.email': { actions: { type: 'storeEmail', params: ({ event }) => event.value } },
        'user.submit': [{ guard: 'isEmailValid', target: 'sending' }, { actions: 'storeProblem' }],
      },
    },
    sending: {
      tags: ['busy'],
      // The last refusal is no longer true once another try is under way.
      entry: 'clearError',
      invoke: {
        id: 'requestReset',
        src: 'requestReset',
        input: ({ context }) => ({ email: context.email.trim() }),
        onDone: [
          { guard: { type: 'isAccepted', params: ({ event }) => event.output }, target: 'sent' },
          // A 400 or 429: the server's words, and the address stays for another try.
          {
            target: 'editing',
            actions: { type: 'storeRefusal', params: ({ event }) => (event.output.ok ? '' : event.output.message.trim() || NETWORK_ERROR_MESSAGE) },
          },
        ],
        onError: { target: 'editing', actions: { type: 'storeRefusal', params: NETWORK_ERROR_MESSAGE } },
      },
    },
    sent: { type: 'final' },
  },
});
