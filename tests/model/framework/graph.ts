// The walk over xstate/graph: the machine's own pure transition function, fed a model's events
// (invoked actors' results are the `xstate.done.actor.<id>` / `xstate.error.actor.<id>` events);
// for every transition found, the shortest path to its source state plus that transition. And the
// deferred actors a run answers those results through.
import { fromPromise, type AnyStateMachine, type EventObject, type SnapshotFrom } from 'xstate';
import { getAdjacencyMap, getShortestPaths, serializeSnapshot } from 'xstate/graph';

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

/** Every enabled transition of the machine, each behind the shortest path to its source state. */
export function pathsCoveringEveryTransition<TMachine extends AnyStateMachine>(
  machine: TMachine,
  events: (snapshot: SnapshotFrom<TMachine>) => readonly EventObject[],
  { input }: { input?: unknown } = {},
): TransitionPath<SnapshotFrom<TMachine>>[] {
  type S = SnapshotFrom<TMachine>;
  const options = {
    events: events as never,
    ...(input === undefined ? {} : { input: input as never }),
    // A fixture that hits no enabled transition is not a transition worth a path.
    filterEvents: ((snapshot: { can: (event: EventObject) => boolean }, event: EventObject) => snapshot.can(event)) as never,
  };
  const adjacency = getAdjacencyMap(machine, options);
  const shortest = new Map<string, { steps: PathStep<S>[] }>(
    getShortestPaths(machine, options).map((path) => [serializeSnapshot(path.state as S), path as { steps: PathStep<S>[] }]),
  );
  const paths: TransitionPath<S>[] = [];
  for (const [key, { transitions }] of Object.entries(adjacency)) {
    const prefix = shortest.get(key);
    if (!prefix) throw new Error(`No path reaches ${key}`);
    const prefixSteps = prefix.steps.filter((step) => step.event.type !== 'xstate.init');
    for (const { event, state: next } of Object.values(transitions) as { event: EventObject; state: S }[]) {
      const steps = [...prefixSteps, { event, state: next as S }];
      paths.push({ description: `${steps.map((step) => describeEvent(step.event)).join(', ')} ⇒ ${describeValue(next as S)}`, steps });
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
export function randomWalks<TMachine extends AnyStateMachine>(
  machine: TMachine,
  events: (snapshot: SnapshotFrom<TMachine>) => readonly EventObject[],
  { input, random, count, maxSteps }: { input?: unknown; random: () => number; count: number; maxSteps: number },
): TransitionPath<SnapshotFrom<TMachine>>[] {
  type S = SnapshotFrom<TMachine>;
  if (count <= 0) return [];
  const options = {
    events: events as never,
    ...(input === undefined ? {} : { input: input as never }),
    filterEvents: ((snapshot: { can: (event: EventObject) => boolean }, event: EventObject) => snapshot.can(event)) as never,
  };
  const adjacency = getAdjacencyMap(machine, options) as unknown as Record<string, { transitions: Record<string, { event: EventObject; state: S }> }>;
  const start = Object.keys(adjacency)[0];
  const walks: TransitionPath<S>[] = [];
  for (let walk = 1; walk <= count && start !== undefined; walk++) {
    const steps: PathStep<S>[] = [];
    let at = start;
    while (steps.length < maxSteps) {
      const ways = Object.values(adjacency[at]?.transitions ?? {});
      if (ways.length === 0) break;
      const way = ways[Math.floor(random() * ways.length)]!;
      steps.push({ event: way.event, state: way.state });
      at = serializeSnapshot(way.state);
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
