/**
 * The session: who is signed in, kept in browser storage and confirmed with the server.
 *
 *   restoring   the first instant: legacy keys dropped, stored session read  → spinner
 *   confirming  a stored token is being checked with /auth/me               → spinner
 *   signedOut   nobody signed in                                            → /login
 *   signedIn    token + profile + userType                                  → the portal
 *
 * The router reads this actor (guards wait while it has the `checking` tag) and re-runs its
 * guards on every change, so "logout goes to /login" is the router reacting to `signedOut`.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Profile, UserType } from '../domain/auth';
import type { PersistedSession } from '../domain/session';

export interface SessionContext {
  token: string | null;
  profile: Profile | null;
  userType: UserType | null;
  /** Why the last session ended; a plain logout goes to /login without a way back. */
  endedBy: 'logout' | 'unauthorized' | 'rejected' | null;
}

export type ConfirmOutcome =
  | { status: 'valid'; profile: Profile }
  /** The server refused the token (expired, tampered, account gone). */
  | { status: 'rejected' }
  /** No answer: keep the stored session; the first real 401 will end it. */
  | { status: 'unreachable' };

export type SessionEvent =
  | { type: 'session.login'; token: string; profile: Profile; userType: UserType }
  | { type: 'profile.update'; patch: Partial<Profile> }
  /** A new token for the same account (a password change ends the old ones). */
  | { type: 'session.renew'; token: string; profile: Profile }
  | { type: 'session.logout' }
  | { type: 'api.unauthorized' };

const signedOutContext: SessionContext = { token: null, profile: null, userType: null, endedBy: null };

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
  },
  actors: {
    restoreSession: fromPromise<PersistedSession | null>(async () => {
      throw new Error('restoreSession is provided by the app');
    }),
    confirmSession: fromPromise<ConfirmOutcome, { token: string; userType: UserType }>(async () => {
      throw new Error('confirmSession is provided by the app');
    }),
  },
  actions: {
    /** Writes token, profile, userType and isAuthenticated from the context to storage. */
    persistSession: () => {},
    clearPersistedSession: () => {},
  },
  guards: {
    hasStoredSession: (_, output: PersistedSession | null) => Boolean(output?.token && output.userType),
    isConfirmed: (_, outcome: ConfirmOutcome) => outcome.status === 'valid',
    isRejected: (_, outcome: ConfirmOutcome) => outcome.status === 'rejected',
  },
}).createMachine({
  id: 'session',
  context: signedOutContext,
  initial: 'restoring',
  states: {
    restoring: {
      tags: ['checking'],
      invoke: {
        id: 'restoreSession',
        src: 'restoreSession',
        onDone: [
          {
            guard: { type: 'hasStoredSession', params: ({ event }) => event.output },
            target: 'confirming',
            actions: assign(({ event }) => ({
              token: event.output!.token,
              profile: event.output!.profile,
              userType: event.output!.userType,
            })),
          },
          { target: 'signedOut' },
        ],
        // Unreadable storage is the same as an empty one.
        onError: { target: 'signedOut', actions: 'clearPersistedSession' },
      },
    },
    confirming: {
      tags: ['checking'],
      invoke: {
        id: 'confirmSession',
        src: 'confirmSession',
        input: ({ context }) => ({ token: context.token!, userType: context.userType! }),
        onDone: [
          {
            guard: { type: 'isConfirmed', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: [
              assign({ profile: ({ event }) => (event.output.status === 'valid' ? event.output.profile : null) }),
              'persistSession',
            ],
          },
          {
            guard: { type: 'isRejected', params: ({ event }) => event.output },
            target: 'signedOut',
            actions: [assign({ ...signedOutContext, endedBy: 'rejected' }), 'clearPersistedSession'],
          },
          { target: 'signedIn' },
        ],
        onError: { target: 'signedOut', actions: [assign({ ...signedOutContext, endedBy: 'rejected' }), 'clearPersistedSession'] },
      },
    },
    signedOut: {
      on: {
        'session.login': {
          target: 'signedIn',
          actions: [
            assign(({ event }) => ({ token: event.token, profile: event.profile, userType: event.userType, endedBy: null })),
            'persistSession',
          ],
        },
      },
    },
    signedIn: {
      on: {
        'session.renew': {
          actions: [assign(({ event }) => ({ token: event.token, profile: event.profile })), 'persistSession'],
        },
        'profile.update': {
          actions: [
            assign({
              profile: ({ context, event }) => (context.profile ? ({ ...context.profile, ...event.patch } as Profile) : context.profile),
            }),
            'persistSession',
          ],
        },
        'session.logout': {
          target: 'signedOut',
          actions: [assign({ ...signedOutContext, endedBy: 'logout' }), 'clearPersistedSession'],
        },
        // Only here does a 401 mean anything: before sign-in or during the check it is expected.
        'api.unauthorized': {
          target: 'signedOut',
          actions: [assign({ ...signedOutContext, endedBy: 'unauthorized' }), 'clearPersistedSession'],
        },
      },
    },
  },
});

/** The stored form of a session context. */
export function toPersistedSession(context: SessionContext): PersistedSession {
  const isAuthenticated = Boolean(context.token && context.profile && context.userType);
  return { token: context.token, profile: context.profile, userType: context.userType, isAuthenticated };
}
