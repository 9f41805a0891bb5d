/**
 * One loaded resource (a summary, a record): the shared shape of "load, show, fail, retry,
 * refresh". List pages build on this with paging in their own factory.
 *
 *   loading   first load: skeletons                       (tag: loading)
 *   ready     data shown; `user.refresh` reloads in place  (tag: refreshing while it does)
 *   failed    error card with Try Again
 */
import { assign, fromPromise, setup } from 'xstate';

export type LoadOutcome<T> = { ok: true; data: T } | { ok: false; message: string };

export interface ResourceContext<T> {
  data: T | null;
  error: string | null;
}

export type ResourceEvent = { type: 'user.retry' } | { type: 'user.refresh' };

/** What loads a resource again from wherever it is: a retry after a failure, else a refresh in place. */
export function reloadEvent(snapshot: { matches(state: 'failed'): boolean }): ResourceEvent {
  return snapshot.matches('failed') ? { type: 'user.retry' } : { type: 'user.refresh' };
}

export const FALLBACK_LOAD_ERROR = 'An unexpected error occurred';

export function createResourceMachine<T>(id: string) {
  return setup({
    types: {
      context: {} as ResourceContext<T>,
      events: {} as ResourceEvent,
    },
    actors: {
      load: fromPromise<LoadOutcome<T>>(async () => {
        throw new Error(`${id}: load is provided by the app`);
      }),
    },
    actions: {
      storeData: assign((_, outcome: LoadOutcome<T>) => (outcome.ok ? { data: outcome.data, error: null } : {})),
      storeError: assign((_, outcome: LoadOutcome<T>) => ({ error: outcome.ok ? null : outcome.message })),
      storeFallbackError: assign({ error: FALLBACK_LOAD_ERROR }),
    },
    guards: {
      isLoaded: (_, outcome: LoadOutcome<T>) => outcome.ok,
    },
  }).createMachine({
    id,
    context: { data: null, error: null },
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        invoke: {
          id: 'load',
          src: 'load',
          onDone: [
            {
              guard: { type: 'isLoaded', params: ({ event }) => event.output },
              target: 'ready',
              actions: { type: 'storeData', params: ({ event }) => event.output },
            },
            { target: 'failed', actions: { type: 'storeError', params: ({ event }) => event.output } },
          ],
          onError: { target: 'failed', actions: 'storeFallbackError' },
        },
      },
      ready: {
        initial: 'idle',
        states: {
          idle: { on: { 'user.refresh': 'refreshing' } },
          refreshing: {
            tags: ['refreshing'],
            invoke: {
              id: 'reload',
              src: 'load',
              onDone: [
                {
                  guard: { type: 'isLoaded', params: ({ event }) => event.output },
                  target: 'idle',
                  actions: { type: 'storeData', params: ({ event }) => event.output },
                },
                // A failed refresh keeps the data on screen and says why.
                { target: 'idle', actions: { type: 'storeError', params: ({ event }) => event.output } },
              ],
              onError: { target: 'idle', actions: 'storeFallbackError' },
            },
          },
        },
      },
      failed: {
        on: { 'user.retry': 'loading' },
      },
    },
  });
}
