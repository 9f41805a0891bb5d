// Model-based path testing over xstate/graph, shared by every machine's path test.
//
// The machine's own pure transition function is walked with a typed fixture table of events
// (invoked actors' results are the `xstate.done.actor.<id>` / `xstate.error.actor.<id>` events).
// For every transition found, the shortest path to its source state plus that transition is
// replayed against a real actor whose invoked actors are deferreds resolved by those same events.
import { createActor, fromPromise, waitFor, type AnyActorRef, type AnyStateMachine, type EventObject, type SnapshotFrom } from 'xstate';
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

type TransitionDefinition = { source: { id: string }; eventType: string };

/** Every transition written in the chart (each guarded branch counts), named `source.id: event #branch`. */
export function chartTransitions(machine: AnyStateMachine): Map<TransitionDefinition, string> {
  const names = new Map<TransitionDefinition, string>();
  const visit = (node: AnyStateMachine['root']) => {
    for (const [eventType, definitions] of node.transitions) {
      definitions.forEach((definition: TransitionDefinition, index: number) => {
        names.set(definition, `${node.id}: ${eventType} #${index + 1}`);
      });
    }
    for (const child of Object.values(node.states)) visit(child as AnyStateMachine['root']);
  };
  visit(machine.root);
  return names;
}

/** The chart transitions the paths take, by the names of `chartTransitions`. */
export function transitionsTaken<TMachine extends AnyStateMachine>(
  machine: TMachine,
  paths: TransitionPath<SnapshotFrom<TMachine>>[],
): Set<string> {
  const names = chartTransitions(machine);
  const taken = new Set<string>();
  for (const path of paths) {
    // An unstarted actor already holds the initial snapshot, eventless transitions taken (passing
    // the actor's system to getInitialSnapshot, which wants an actor scope, skipped those).
    let previous = createActor(machine).getSnapshot() as SnapshotFrom<TMachine>;
    for (const step of path.steps) {
      for (const definition of machine.getTransitionData(previous as never, step.event as never)) {
        const name = names.get(definition as unknown as TransitionDefinition);
        if (name) taken.add(name);
      }
      previous = step.state;
    }
  }
  return taken;
}

/** Every state value the machine can be in, as the inspector would list them (leaf paths). */
export function reachableStateValues<TMachine extends AnyStateMachine>(
  machine: TMachine,
  events: (snapshot: SnapshotFrom<TMachine>) => readonly EventObject[],
): Set<string> {
  const adjacency = getAdjacencyMap(machine, { events: events as never });
  return new Set(Object.values(adjacency).map(({ state }) => describeValue(state as SnapshotFrom<TMachine>)));
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

/**
 * Replays a path on a real actor (the machine with its invoked actors replaced by deferreds) and
 * checks after each step that the actor is where the model says, context included.
 */
export async function replayPath<TMachine extends AnyStateMachine>(
  createMachine: (deferred: ReturnType<typeof deferredActors>) => TMachine,
  path: TransitionPath<SnapshotFrom<TMachine>>,
): Promise<AnyActorRef> {
  const deferred = deferredActors();
  const actor = createActor(createMachine(deferred)).start();
  for (const step of path.steps) {
    if (!deferred.settle(step.event)) actor.send(step.event as never);
    const expected = serializeSnapshot(step.state);
    try {
      await waitFor(actor, (snapshot) => serializeSnapshot(snapshot) === expected, { timeout: 1000 });
    } catch {
      throw new Error(
        `After ${step.event.type} the actor is at ${serializeSnapshot(actor.getSnapshot())}, the model says ${expected}`,
      );
    }
  }
  return actor;
}
