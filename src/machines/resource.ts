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
              actions: assign({ data: ({ event }) => (event.output.ok ? event.output.data : null), error: null }),
            },
            { target: 'failed', actions: assign({ error: ({ event }) => (event.output.ok ? null : event.output.message) }) },
          ],
          onError: { target: 'failed', actions: assign({ error: FALLBACK_LOAD_ERROR }) },
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
                  actions: assign({ data: ({ event }) => (event.output.ok ? event.output.data : null), error: null }),
                },
                // A failed refresh keeps the data on screen and says why.
                { target: 'idle', actions: assign({ error: ({ event }) => (event.output.ok ? null : event.output.message) }) },
              ],
              onError: { target: 'idle', actions: assign({ error: FALLBACK_LOAD_ERROR }) },
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
