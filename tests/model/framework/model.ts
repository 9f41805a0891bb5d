// What a tester writes for one machine: its event fixtures, what each state must hold, and how a
// user causes each event and sees each state on the real screen. The types are exhaustive over the
// machine's own event and state unions, so a new event or state fails to compile until it has its
// fixture and its assertions.
import type { AnyStateMachine, EventFromLogic, EventObject, InputFrom, InspectionEvent, SnapshotFrom } from 'xstate';
import type { ActorSeam } from '../../../src/routes/services';

type EventOf<M extends AnyStateMachine> = EventFromLogic<M>;
export type EventType<M extends AnyStateMachine> = EventOf<M>['type'];
export type EventOfType<M extends AnyStateMachine, K extends EventType<M>> = Extract<EventOf<M>, { type: K }>;

/** 'idle' | { loaded: 'fresh' | 'stale' } → 'idle' | 'loaded.fresh' | 'loaded.stale' */
type LeafPaths<V> = V extends string ? V : V extends object ? { [K in keyof V & string]: `${K}.${LeafPaths<V[K]>}` }[keyof V & string] : never;

/** Every leaf state the chart can be in, as dotted paths (parallel regions give one per region). */
export type StateKey<M extends AnyStateMachine> = LeafPaths<SnapshotFrom<M>['value']>;

/** At least one fixture per event the machine declares. */
export type EventFixtures<M extends AnyStateMachine> = { [K in EventType<M>]: readonly [EventOfType<M, K>, ...EventOfType<M, K>[]] };

export type StateAssertions<M extends AnyStateMachine, Args extends unknown[] = []> = {
  [K in StateKey<M>]: (snapshot: SnapshotFrom<M>, ...args: Args) => void | Promise<void>;
};

/** What the UI run hands the screen it opens: pass both to `createApp` (openSignedInAt does). */
export type ModelSeam = ActorSeam & { inspect: (event: InspectionEvent) => void };

/** What the UI run gets back from opening the screen. */
export interface OpenedScreen {
  /** Tear the screen down (unmount, restore globals). */
  close(): void | Promise<void>;
}

export interface UiModel<M extends AnyStateMachine, S extends OpenedScreen = OpenedScreen> {
  /**
   * Renders the real screen that runs this machine (the route, over a fake API), passing `seam`
   * to the app so the page's actor runs with the path's answers and the simulated clock.
   */
  open(seam: ModelSeam, input: InputFrom<M> | undefined): Promise<S> | S;
  /** The user action that causes each event: a click, typing, a key. */
  events: { [K in EventType<M>]: (screen: S, event: EventOfType<M, K>) => Promise<void> };
  /** What the user sees in each state (Testing Library queries; retried until the DOM settles). */
  states: StateAssertions<M, [S]>;
  /**
   * Whether the screen offers the user a way to send `event` in `snapshot` (the control is on
   * screen). A path with a step it refuses is walked by the machine run only. Default: always.
   */
  drivable?: (snapshot: SnapshotFrom<M>, event: EventOf<M>) => boolean;
}

/** A state or transition that cannot be driven, with the reason. Keep the list short. */
export interface Exclusions {
  states?: Record<string, string>;
  /** By chart name: `<state node id>: <event type> #<branch>`. */
  transitions?: Record<string, string>;
}

export interface MachineModel<M extends AnyStateMachine, S extends OpenedScreen = OpenedScreen> {
  /** The machine's name in the coverage table and docs/machines (usually its file in src/machines). */
  name: string;
  machine: M;
  /** The input the page starts the actor with. */
  input?: InputFrom<M>;
  /** Or several, when the page starts it differently (each gets its own paths; `ui.open` receives it). */
  inputs?: readonly InputFrom<M>[];
  events: EventFixtures<M>;
  /**
   * What the invoked actors answer on the paths: `done(id, output)` / `failed(id, error)` events.
   * Each state whose actor these settle gets a path per answer.
   */
  actorResults?: readonly EventObject[];
  /** The machine run: what the actor holds in each state. */
  states: StateAssertions<M>;
  ui?: UiModel<M, S>;
  exclude?: { machine?: Exclusions; ui?: Exclusions };
}

/** Declares a model; the identity function that gives the tables their types. */
export function defineModel<M extends AnyStateMachine, S extends OpenedScreen = OpenedScreen>(model: MachineModel<M, S>): MachineModel<M, S> {
  return model;
}

/** An invoked actor's success, as the machine receives it. */
export const done = <T>(id: string, output: T): EventObject & { output: T } => ({ type: `xstate.done.actor.${id}`, output });

/** An invoked actor's failure (a rejected promise). */
export const failed = (id: string, error: unknown): EventObject & { error: unknown } => ({ type: `xstate.error.actor.${id}`, error });
