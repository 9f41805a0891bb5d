// Starts an instance of the resource factory whose loads answer from a script (the last entry
// repeating; an Error is thrown): shared by its actor tests and the pinned journeys of its model.
import { createActor, fromPromise } from 'xstate';
import type { createResourceMachine, LoadOutcome } from '../../../src/machines/resource';

export function startResource<T>(machine: ReturnType<typeof createResourceMachine<T>>, results: Array<LoadOutcome<T> | Error>) {
  let call = 0;
  return createActor(
    machine.provide({
      actors: {
        load: fromPromise(async () => {
          const result = results[Math.min(call++, results.length - 1)]!;
          if (result instanceof Error) throw result;
          return result;
        }),
      },
    }),
  ).start();
}
