// The walk over xstate/graph: the machine's own pure transition function, fed a model's events
// (invoked actors' results are the `xstate.done.actor.<id>` / `xstate.error.actor.<id>` events);
// for every transition found, the shortest path to its source state plus that transition. And the
// deferred actors a run answers those results through.
import { fromPromise, type AnyStateMachine, type EventObject, type SnapshotFrom } from 'xstate';
import { getAdjacencyMap, serializeSnapshot } from 'xstate/graph';

export interface PathStep<TSnapshot> {
  event: EventObject;
  state: TSnapshot;
}

export interface TransitionPath<TSnapshot> {
  /** "restoring → confirming → signedIn --session.logout--> signedOut" */
  description: string;
  steps: PathStep<TSnapshot>[];
}

const describeValue = (snapshot: { value: unknown }) =>
  typeof snapshot.value === 'string' ? snapshot.value : JSON.stringify(snapshot.value);

const describeEvent = (event: EventObject) =>
  event.type.replace(/^xstate\.done\.actor\.(.+)$/, '$1 done').replace(/^xstate\.error\.actor\.(.+)$/, '$1 failed');

type Transitions<S> = Record<string, { event: EventObject; state: S }>;

/** A machine's graph over a model's events: every (state, context) reached and the way out of each. */
export interface TransitionGraph<S> {
  /** The start's key, then every other, in the order the walk found them. */
  keys: string[];
  transitions: Map<string, Transitions<S>>;
  /** The shortest steps from the start to each key (none to the start itself). */
  shortest: Map<string, PathStep<S>[]>;
}

/**
 * The graph xstate/graph's adjacency map gives, and the shortest steps to every state in it, found
 * breadth first over that same map (as getShortestPaths does, without walking the machine again:
 * on the larger models each walk is seconds).
 */
export function transitionGraph<TMachine extends AnyStateMachine>(
  machine: TMachine,
  events: (snapshot: SnapshotFrom<TMachine>) => readonly EventObject[],
  { input }: { input?: unknown } = {},
): TransitionGraph<SnapshotFrom<TMachine>> {
  type S = SnapshotFrom<TMachine>;
  const options = {
    events: events as never,
    ...(input === undefined ? {} : { input: input as never }),
    // A fixture that hits no enabled transition is not a transition worth a path.
    filterEvents: ((snapshot: { can: (event: EventObject) => boolean }, event: EventObject) => snapshot.can(event)) as never,
  };
  const adjacency = getAdjacencyMap(machine, options) as unknown as Record<string, { transitions: Transitions<S> }>;
  const keys = Object.keys(adjacency);
  const transitions = new Map(keys.map((key) => [key, adjacency[key]!.transitions]));
  const shortest = new Map<string, PathStep<S>[]>();
  if (keys[0] !== undefined) shortest.set(keys[0], []);
  // Breadth first: the first way found to a state is a shortest one.
  for (const key of shortest.keys()) {
    const prefix = shortest.get(key)!;
    for (const { event, state } of Object.values(transitions.get(key) ?? {})) {
      const next = serializeSnapshot(state);
      if (!shortest.has(next)) shortest.set(next, [...prefix, { event, state }]);
    }
  }
  return { keys, transitions, shortest };
}

/** Every enabled transition of the graph, each behind the shortest path to its source state. */
export function pathsCoveringEveryTransition<S extends { value: unknown }>(graph: TransitionGraph<S>): TransitionPath<S>[] {
  const paths: TransitionPath<S>[] = [];
  for (const key of graph.keys) {
    const prefix = graph.shortest.get(key);
    if (!prefix) throw new Error(`No path reaches ${key}`);
    for (const { event, state: next } of Object.values(graph.transitions.get(key)!)) {
      const steps = [...prefix, { event, state: next }];
      paths.push({ description: `${steps.map((step) => describeEvent(step.event)).join(', ')} ⇒ ${describeValue(next)}`, steps });
    }
  }
  // Paths that differ only in context read the same; number the repeats so every test name is unique.
  const seen = new Map<string, number>();
  for (const path of paths) {
    const count = (seen.get(path.description) ?? 0) + 1;
    seen.set(path.description, count);
    if (count > 1) path.description += ` (#${count})`;
  }
  return paths;
}

/**
 * `count` walks from the start, each taking a transition chosen by `random` at every state until
 * `maxSteps` or a state with no way on: longer and more varied sequences than the shortest paths,
 * over the same graph (the same events, answers and timers).
 */
export function randomWalks<S extends { value: unknown }>(
  graph: TransitionGraph<S>,
  { random, count, maxSteps }: { random: () => number; count: number; maxSteps: number },
): TransitionPath<S>[] {
  const start = graph.keys[0];
  const walks: TransitionPath<S>[] = [];
  for (let walk = 1; walk <= count && start !== undefined; walk++) {
    const steps: PathStep<S>[] = [];
    let at = start;
    while (steps.length < maxSteps) {
      const ways = Object.values(graph.transitions.get(at) ?? {});
      if (ways.length === 0) break;
      const way = ways[Math.floor(random() * ways.length)]!;
      steps.push({ event: way.event, state: way.state });
      at = serializeSnapshot(way.state as never);
    }
    if (steps.length === 0) break;
    walks.push({ description: `walk ${walk}: ${steps.map((step) => describeEvent(step.event)).join(', ')} ⇒ ${describeValue(steps.at(-1)!.state)}`, steps });
  }
  return walks;
}

/** Invoked actors the test resolves by hand, keyed by invoke id. */
export function deferredActors() {
  const pending = new Map<string, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  // Typed loosely on purpose: it stands in for any promise actor of any machine.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const logic: ReturnType<typeof fromPromise<any, any>> = fromPromise<any, any>(
    ({ self }) =>
      new Promise((resolve, reject) => {
        pending.set(self.id, { resolve, reject });
      }),
  );
  return {
    logic,
    settle(event: EventObject) {
      const done = /^xstate\.done\.actor\.(.+)$/.exec(event.type);
      const failed = /^xstate\.error\.actor\.(.+)$/.exec(event.type);
      const id = (done ?? failed)?.[1];
      if (!id) return false;
      const deferred = pending.get(id);
      if (!deferred) throw new Error(`No invoked actor "${id}" is waiting`);
      pending.delete(id);
      if (done) deferred.resolve((event as EventObject & { output: unknown }).output);
      else deferred.reject((event as EventObject & { error: unknown }).error);
      return true;
    },
  };
}
