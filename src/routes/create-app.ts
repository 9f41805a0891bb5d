// The composition root: the machines declare their effects, and this is where the app provides
// them (API calls, browser storage) and wires the session actor to the router.
import type { RouterHistory } from '@tanstack/react-router';
import { createActor, fromPromise } from 'xstate';
import { createApi, NetworkError } from '../api';
import { createSessionStorage } from '../api/session-storage';
import { sessionMachine, toPersistedSession, type ConfirmOutcome } from '../machines/session';
import { createAppRouter } from './router';
import type { ActorSeam, AppServices, Inspect } from './services';

export interface CreateAppOptions {
  storage: Storage;
  history?: RouterHistory;
  inspect?: Inspect;
  fetch?: typeof globalThis.fetch;
  baseURL?: string;
  /** Model-based UI runs only (see ActorSeam). */
  seam?: ActorSeam;
}

export function createApp(options: CreateAppOptions) {
  const storage = createSessionStorage(options.storage);

  // The client reads the token from the session and reports 401s to it; the session is created
  // just below, so both callbacks look it up when called.
  const api = createApi({
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    getToken: () => session.getSnapshot().context.token,
    onUnauthorized: () => session.send({ type: 'api.unauthorized' }),
  });

  const sessionLogic = sessionMachine.provide({
    actors: {
      restoreSession: fromPromise(async () => storage.restore()),
      confirmSession: fromPromise(async ({ input, signal }): Promise<ConfirmOutcome> => {
        try {
          const result = await api.auth.me(input.userType, input.token, signal);
          if (result.ok) return { status: 'valid', profile: result.profile };
          return result.status === 401 || result.status === 403 ? { status: 'rejected' } : { status: 'unreachable' };
        } catch (error) {
          if (error instanceof NetworkError) return { status: 'unreachable' };
          throw error;
        }
      }),
    },
    actions: {
      persistSession: ({ context }) => storage.save(toPersistedSession(context)),
      clearPersistedSession: () => storage.clear(),
    },
  });
  const session = createActor(options.seam ? options.seam.adapt(sessionLogic) : sessionLogic, {
    ...(options.inspect ? { inspect: options.inspect } : {}),
    ...(options.seam?.clock ? { clock: options.seam.clock } : {}),
  });

  const router = createAppRouter({ context: { session }, ...(options.history ? { history: options.history } : {}) });

  // Who is signed in changed → re-run the guards (login → leave /login; logout or 401 → /login).
  let signedIn = false;
  session.subscribe((snapshot) => {
    const now = snapshot.matches('signedIn');
    if (now !== signedIn) {
      signedIn = now;
      void router.invalidate();
    }
  });
  session.start();

  const services: AppServices = { api, session, inspect: options.inspect, ...(options.seam ? { seam: options.seam } : {}) };
  return { ...services, services, router };
}

export type App = ReturnType<typeof createApp>;
