// The walk over xstate/graph: the machine's own pure transition function, fed a model's events
// (invoked actors' results are the `xstate.done.actor.<id>` / `xstate.error.actor.<id>` events);
// for every transition found, the shortest path to its source state plus that transition; tours
// that chain what those paths cover into a few long paths. And the deferred actors a run answers
// those results through.
import { fromPromise, type AnyStateMachine, type EventObject, type SnapshotFrom } from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';

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
  /** The snapshot each key stands for. */
  states: Map<string, S>;
  transitions: Map<string, Transitions<S>>;
  /** The shortest steps from the start to each key (none to the start itself). */
  shortest: Map<string, PathStep<S>[]>;
}

const snapshotKeys = new WeakMap<object, string>();

/** Objects with their keys in order, so that the same context is the same text whatever order it was built in. */
const sortedKeys = (_key: string, value: unknown) =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : value;

/**
 * A snapshot as text: its value and context, as xstate/graph serializes them, with every object's
 * keys sorted. JSON drops a key set to undefined, so two contexts that print alike can hold their
 * keys in different orders (`{ ...errors, customer: undefined }` keeps the key's place); the next
 * assignment to that key then prints them apart although the contexts are equal.
 */
export function serializeState(snapshot: object): string {
  const { value, context } = snapshot as { value: unknown; context: unknown };
  return JSON.stringify({ value, context }, sortedKeys);
}

/**
 * A snapshot's key in the graph, kept with the snapshot: the walk, the shortest paths and the tours
 * each ask for it again, and on the larger models serializing every edge's snapshot each time was
 * seconds.
 */
export function snapshotKey(snapshot: object): string {
  let key = snapshotKeys.get(snapshot);
  if (key === undefined) {
    key = serializeState(snapshot);
    snapshotKeys.set(snapshot, key);
  }
  return key;
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
    serializeState: ((snapshot: object) => snapshotKey(snapshot)) as never,
    // A fixture that hits no enabled transition is not a transition worth a path.
    filterEvents: ((snapshot: { can: (event: EventObject) => boolean }, event: EventObject) => snapshot.can(event)) as never,
  };
  const adjacency = getAdjacencyMap(machine, options) as unknown as Record<string, { state: S; transitions: Transitions<S> }>;
  const keys = Object.keys(adjacency);
  return withShortest(
    keys[0],
    new Map(keys.map((key) => [key, adjacency[key]!.state])),
    new Map(keys.map((key) => [key, adjacency[key]!.transitions])),
  );
}

/** The graph's keys in the order a breadth-first walk from `start` finds them, and the shortest steps to each. */
function withShortest<S>(start: string | undefined, states: Map<string, S>, transitions: Map<string, Transitions<S>>): TransitionGraph<S> {
  const shortest = new Map<string, PathStep<S>[]>();
  if (start !== undefined) shortest.set(start, []);
  // Breadth first: the first way found to a state is a shortest one.
  for (const key of shortest.keys()) {
    const prefix = shortest.get(key)!;
    for (const { event, state } of Object.values(transitions.get(key) ?? {})) {
      const next = snapshotKey(state as object);
      if (!shortest.has(next)) shortest.set(next, [...prefix, { event, state }]);
    }
  }
  const keys = [...shortest.keys()];
  return { keys, states: new Map(keys.map((key) => [key, states.get(key)!])), transitions: new Map(keys.map((key) => [key, transitions.get(key)!])), shortest };
}

/**
 * The part of `graph` reachable from its start over the edges `keep` accepts: the same graph
 * xstate/graph would walk with only those events offered (the machine's transitions are pure, so
 * each edge is the one it found), without walking the machine a second time.
 */
export function subgraph<S>(graph: TransitionGraph<S>, keep: (snapshot: S, event: EventObject) => boolean): TransitionGraph<S> {
  const transitions = new Map<string, Transitions<S>>();
  for (const key of graph.keys) {
    const from = graph.states.get(key)!;
    transitions.set(key, Object.fromEntries(Object.entries(graph.transitions.get(key)!).filter(([, { event }]) => keep(from, event))));
  }
  return withShortest(graph.keys[0], graph.states, transitions);
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
      at = snapshotKey(way.state as object);
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

const eventKeys = new WeakMap<EventObject, string>();

/** An event as text, kept with the event: the fixtures (answers with whole pages of rows among them) recur on every path. */
export function eventKey(event: EventObject): string {
  let key = eventKeys.get(event);
  if (key === undefined) eventKeys.set(event, (key = JSON.stringify(event)));
  return key;
}

interface Edge<S> {
  event: EventObject;
  state: S;
  /** The key of the (state, context) it leads to. */
  to: string;
  /** What taking it covers (asked the first time it is needed). */
  items: () => readonly string[];
}

/**
 * Tours that cover `targets`: each starts at the start (which covers `atStart`) and goes on, by the
 * shortest way, to the nearest edge that covers (`covers`) something still left, until the next
 * would make it longer than `maxSteps` or nothing left is reachable; then the next tour starts
 * afresh. A screen run pays one opening per path, so a few long paths cover what one shortest path
 * per transition did for far less. An edge into a state with no way out ends a tour, so it is left
 * for last: while another is reachable, that one is taken first.
 */
export function toursThrough<S extends { value: unknown }>(
  graph: TransitionGraph<S>,
  { targets, atStart, covers, maxSteps }: { targets: Iterable<string>; atStart: readonly string[]; covers: (from: S, event: EventObject) => readonly string[]; maxSteps: number },
): TransitionPath<S>[] {
  const left = new Set(targets);
  const outOf = new Map<string, Edge<S>[]>();
  const edges = (key: string): Edge<S>[] => {
    let list = outOf.get(key);
    if (!list) {
      const from = graph.states.get(key)!;
      list = Object.values(graph.transitions.get(key) ?? {}).map(({ event, state }) => {
        let items: readonly string[] | undefined;
        return { event, state, to: snapshotKey(state as object), items: () => (items ??= covers(from, event)) };
      });
      outOf.set(key, list);
    }
    return list;
  };
  const adds = (edge: Edge<S>) => edge.items().some((item) => left.has(item));
  /** Breadth first from `from`: the shortest way to the nearest edge that adds something and `wanted` accepts. */
  const nearest = (from: string, wanted: (edge: Edge<S>) => boolean): Edge<S>[] | undefined => {
    const came = new Map<string, { from: string; edge: Edge<S> } | null>([[from, null]]);
    for (const key of came.keys()) {
      for (const edge of edges(key)) {
        if (adds(edge) && wanted(edge)) {
          const way = [edge];
          for (let step = came.get(key); step; step = came.get(step.from)) way.unshift(step.edge);
          return way;
        }
        if (!came.has(edge.to)) came.set(edge.to, { from: key, edge });
      }
    }
    return undefined;
  };
  const onward = (edge: Edge<S>) => edges(edge.to).length > 0;
  const start = graph.keys[0];
  const tours: TransitionPath<S>[] = [];
  for (const item of atStart) left.delete(item);
  while (left.size > 0 && start !== undefined) {
    const steps: PathStep<S>[] = [];
    for (let at = start; ; ) {
      const fits = (way: Edge<S>[] | undefined): way is Edge<S>[] => way !== undefined && (steps.length === 0 || steps.length + way.length <= maxSteps);
      // A way on first; else (none reachable, or too far for this tour) one that ends the tour.
      let way = nearest(at, onward);
      if (!fits(way)) way = nearest(at, (edge) => !onward(edge));
      if (!fits(way)) way = undefined;
      if (!way) break;
      for (const edge of way) {
        steps.push({ event: edge.event, state: edge.state });
        for (const item of edge.items()) left.delete(item);
      }
      at = way.at(-1)!.to;
    }
    if (steps.length === 0) throw new Error(`No way from the start covers ${[...left].join('; ')}`);
    tours.push({ description: `tour ${tours.length + 1}: ${steps.map((step) => describeEvent(step.event)).join(', ')} ⇒ ${describeValue(steps.at(-1)!.state)}`, steps });
  }
  return tours;
}
