/**
 * The one shape of a request the user has confirmed, as a state of a dialog's machine:
 *
 *   submitting ─┬─ done     → success.target, running success.actions
 *               ├─ refused  → back, with the server's words stored in the dialog and toasted
 *               └─ failed   → back, with the failure's words stored in the dialog and toasted
 *
 * The state is tagged `busy` (the dialog cannot be closed meanwhile), clears the last failure on
 * entry, and invokes one actor that answers `{ ok: true, … }` or `{ ok: false, message }`.
 */

/** What a submitting actor answers: done, or refused with the server's words. */
export type SubmitOutcome = { ok: true } | { ok: false; message: string };

// A machine's setup(...) result. Its createStateConfig accepts exactly the states of that machine,
// so the types below are read from it rather than restated: the options of a submitting state get
// the machine's own context, events, actors, actions and guards, and drift with them.
interface MachineSetup {
  createStateConfig: (config: never) => unknown;
}
type Flat<T> = T extends readonly (infer E)[] ? Flat<E> : T;
type StateConfigOf<S extends MachineSetup> = Parameters<S['createStateConfig']>[0];
type InvokeOf<S extends MachineSetup> = Extract<Flat<NonNullable<StateConfigOf<S>['invoke']>>, { src: string }>;
type InvokeFor<S extends MachineSetup, TSrc> = Extract<InvokeOf<S>, { src: TSrc }>;
type InputOf<S extends MachineSetup, TSrc> = InvokeFor<S, TSrc> extends { input?: infer I } ? I : never;
type DoneTransition<S extends MachineSetup, TSrc> =
  InvokeFor<S, TSrc> extends { onDone?: infer D } ? Extract<Flat<NonNullable<D>>, object> : never;
type DoneActions<S extends MachineSetup, TSrc> = DoneTransition<S, TSrc> extends { actions?: infer A } ? A : never;
type DoneGuard<S extends MachineSetup, TSrc> = DoneTransition<S, TSrc> extends { guard?: infer G } ? G : never;
/** The actor's answer, as its done transition's guards and actions get it. */
type DoneOutput<S extends MachineSetup, TSrc> =
  Parameters<Extract<DoneGuard<S, TSrc>, (...args: never[]) => unknown>>[0] extends { event: { output: infer O } } ? O : never;

/** The machine's actors that answer a SubmitOutcome. */
export type SubmittingActor<S extends MachineSetup> = {
  [K in InvokeOf<S>['src'] & string]: DoneOutput<S, K> extends SubmitOutcome ? K : never;
}[InvokeOf<S>['src'] & string];

/** A step to go back to; the first whose guard passes is taken, as in any list of transitions. */
export interface BackStep<S extends MachineSetup, TSrc> {
  target: string;
  // A named guard without parameters, so that one step serves the refusal and the failure alike.
  guard?: Extract<DoneGuard<S, TSrc>, string>;
}

export interface SubmitOptions<S extends MachineSetup, TSrc extends SubmittingActor<S>> {
  /** The actor; also the invocation's id, as its tests and the diagrams name it. */
  src: TSrc;
  input: InputOf<S, TSrc>;
  /** Where a done answer goes, and what it does there. */
  success: { target: string; actions?: DoneActions<S, TSrc> };
  /** Where a refusal or a failure goes: the step the user confirmed from. */
  back: string | readonly BackStep<S, TSrc>[];
  /** The words of a failure: with the server's words when it refused, with null when the request failed. */
  failure: (serverWords: string | null) => string;
  /**
   * What a refusal does instead of storing its words as the dialog's failure (e.g. a form putting
   * them by its fields); the words, as `failure` words them, are toasted either way.
   */
  refused?: DoneActions<S, TSrc>;
}

/**
 * The submitting states of the machine `machineSetup` sets up.
 *
 * The machine's setup declares what this shape names: the actions `clearFailure`,
 * `storeFailure(message)` and `notifyFailure(message)` and the guard `isDone(output)`. The state
 * is returned as a literal (`as const`) rather than typed here, so that the machine's own
 * createMachine checks those names and every params against its setup, as it checks a state
 * written out in place; a machine without them does not compile.
 */
export function submittingStates<S extends MachineSetup>(_machineSetup: S) {
  return <TSrc extends SubmittingActor<S>>(options: SubmitOptions<S, TSrc>) => {
    const back = typeof options.back === 'string' ? [{ target: options.back }] : options.back;
    const words = ({ event }: { event: { output: SubmitOutcome } }) => options.failure(event.output.ok ? null : event.output.message);
    const report = <P>(params: P) => [{ type: 'storeFailure', params } as const, { type: 'notifyFailure', params } as const];
    const refused = options.refused
      ? [...(Array.isArray(options.refused) ? options.refused : [options.refused]), { type: 'notifyFailure', params: words } as const]
      : report(words);
    const failed = report(options.failure(null));
    return {
      tags: ['busy'],
      entry: 'clearFailure',
      invoke: {
        id: options.src,
        src: options.src,
        input: options.input,
        onDone: [
          {
            guard: { type: 'isDone', params: ({ event }: { event: { output: DoneOutput<S, TSrc> } }) => event.output },
            target: options.success.target,
            actions: options.success.actions,
          },
          ...back.map((step) => ({ ...step, actions: refused })),
        ],
        onError: back.map((step) => ({ ...step, actions: failed })),
      },
    } as const;
  };
}
