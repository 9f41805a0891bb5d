/**
 * Signing in from the login screen (spec section 4 "Login attempt order", section 8).
 *
 *   idle           the empty form
 *   adminAttempt   "Signing in..." — tried as an admin-portal user first
 *   customerAttempt "Signing in..." — the admin attempt failed, try the customer login
 *   failed         the form with the inline error
 *   signedIn       done: the session has the token (the router leaves /login)
 */
import { assign, fromPromise, setup } from 'xstate';
import type { LoginOutcome, Credentials } from '../api/auth';
import { pickLoginError, NETWORK_ERROR_MESSAGE } from '../domain/login';

export interface LoginContext {
  credentials: Credentials | null;
  adminMessage: string | null;
  error: string | null;
}

export type LoginEvent = { type: 'user.submit'; email: string; password: string };

type SignedIn = Extract<LoginOutcome, { ok: true }>;

export const loginMachine = setup({
  types: {
    context: {} as LoginContext,
    events: {} as LoginEvent,
  },
  actors: {
    adminLogin: fromPromise<LoginOutcome, Credentials>(async () => {
      throw new Error('adminLogin is provided by the app');
    }),
    customerLogin: fromPromise<LoginOutcome, Credentials>(async () => {
      throw new Error('customerLogin is provided by the app');
    }),
  },
  actions: {
    takeCredentials: assign(({ event }) => ({
      credentials: { email: event.email.trim(), password: event.password },
      adminMessage: null,
      error: null,
    })),
    showNetworkError: assign({ error: NETWORK_ERROR_MESSAGE }),
    /** Hands the token and profile to the session actor. */
    completeSignIn: (_, _outcome: SignedIn) => {},
  },
  guards: {
    isSignedIn: (_, outcome: LoginOutcome) => outcome.ok,
  },
}).createMachine({
  id: 'login',
  context: { credentials: null, adminMessage: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'user.submit': { target: 'adminAttempt', actions: 'takeCredentials' } },
    },
    adminAttempt: {
      tags: ['busy'],
      invoke: {
        id: 'adminLogin',
        src: 'adminLogin',
        input: ({ context }) => context.credentials!,
        onDone: [
          {
            guard: { type: 'isSignedIn', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: { type: 'completeSignIn', params: ({ event }) => event.output as SignedIn },
          },
          {
            target: 'customerAttempt',
            actions: assign({ adminMessage: ({ event }) => (event.output.ok ? null : event.output.message) }),
          },
        ],
        onError: { target: 'failed', actions: 'showNetworkError' },
      },
    },
    customerAttempt: {
      tags: ['busy'],
      invoke: {
        id: 'customerLogin',
        src: 'customerLogin',
        input: ({ context }) => context.credentials!,
        onDone: [
          {
            guard: { type: 'isSignedIn', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: { type: 'completeSignIn', params: ({ event }) => event.output as SignedIn },
          },
          {
            target: 'failed',
            actions: assign({
              error: ({ context, event }) => pickLoginError(context.adminMessage, event.output.ok ? null : event.output.message),
            }),
          },
        ],
        onError: { target: 'failed', actions: 'showNetworkError' },
      },
    },
    failed: {
      // The password never outlives the attempt that used it.
      entry: assign({ credentials: null }),
      on: { 'user.submit': { target: 'adminAttempt', actions: 'takeCredentials' } },
    },
    signedIn: {
      entry: assign({ credentials: null }),
      type: 'final',
    },
  },
});
