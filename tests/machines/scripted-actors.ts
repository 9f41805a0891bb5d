// Promise actors that answer from a script, for actor tests of machines whose effects the app
// provides: each call is recorded (name, input, abort signal) and answered by the next entry of
// its list, the last entry repeating. 'hang' never settles; an Error is thrown.
import { createMachine, fromPromise, type AnyStateMachine, type ContextFrom } from 'xstate';

export type Answer<T> = T | Error | 'hang';

export const ok = <T>(data: T) => ({ ok: true as const, data });
export const refused = (message: string) => ({ ok: false as const, message });

export function scriptedActors() {
  const calls: Array<{ name: string; input: unknown; signal: AbortSignal }> = [];
  const called = (name: string) => calls.filter((c) => c.name === name);
  const answer = <T, I>(name: string, list: ReadonlyArray<Answer<T>>) =>
    fromPromise<T, I>(async ({ input, signal }) => {
      calls.push({ name, input, signal });
      const next = list[Math.min(called(name).length - 1, list.length - 1)]!;
      if (next === 'hang') return new Promise<never>(() => {});
      if (next instanceof Error) throw next;
      return next;
    });
  return { calls, called, answer };
}

/**
 * The model-path harness starts machines without input: a copy of the chart whose context is
 * fixed to one start of the machine.
 */
export function withFixedContext<TMachine extends AnyStateMachine>(machine: TMachine, context: () => ContextFrom<TMachine>): TMachine {
  return createMachine({ ...machine.config, context } as never, machine.implementations as never) as unknown as TMachine;
}
