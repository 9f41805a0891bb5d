// The paths a model's runs walk: xstate/graph's shortest path to every state, extended by every
// enabled transition out of it, over the model's event fixtures, the invoked actors' answers and
// the delayed events each state waits for.
import { createActor, type AnyMachineSnapshot, type AnyStateMachine, type EventObject, type SnapshotFrom } from 'xstate';
import { pathsCoveringEveryTransition, type TransitionPath } from '../../machines/model-paths';
import { leafPaths, pendingDelays, transitionName } from './chart';
import type { MachineModel, OpenedScreen } from './model';

export type ModelPath<M extends AnyStateMachine> = TransitionPath<SnapshotFrom<M>>;

export function modelEvents<M extends AnyStateMachine>(model: Pick<MachineModel<M>, 'events' | 'actorResults' | 'machine'>) {
  const fixed: EventObject[] = [...(Object.values(model.events) as EventObject[][]).flat(), ...(model.actorResults ?? [])];
  return (snapshot: SnapshotFrom<M>): readonly EventObject[] => [
    ...fixed,
    ...pendingDelays(model.machine, snapshot as AnyMachineSnapshot).map((pending) => pending.event),
  ];
}

/**
 * Every path xstate/graph finds to each (state, context) and one transition on from it: the
 * exhaustive set, cheap to replay on the machine alone.
 */
export function allPaths<M extends AnyStateMachine>(model: Pick<MachineModel<M>, 'events' | 'actorResults' | 'machine' | 'input'>): ModelPath<M>[] {
  // The graph walks the machine as the app starts it: with its input.
  return pathsCoveringEveryTransition(model.machine, modelEvents(model), { input: model.input });
}

/** The chart transitions and leaf states a path goes through (eventless hops are counted by the run itself). */
function pathFootprint<M extends AnyStateMachine>(machine: M, path: ModelPath<M>, input: unknown): Set<string> {
  const seen = new Set<string>();
  let previous = createActor(machine as AnyStateMachine, input === undefined ? {} : { input }).getSnapshot() as AnyMachineSnapshot;
  for (const leaf of leafPaths(previous.value)) seen.add(`state ${leaf}`);
  for (const step of path.steps) {
    for (const definition of machine.getTransitionData(previous as never, step.event as never)) seen.add(transitionName(definition as never));
    previous = step.state as AnyMachineSnapshot;
    for (const leaf of leafPaths(previous.value)) seen.add(`state ${leaf}`);
  }
  return seen;
}

/** Every user event of the path is one the screen offers where the path sends it. */
function isDrivable<M extends AnyStateMachine>(machine: M, path: ModelPath<M>, input: unknown, drivable: (snapshot: AnyMachineSnapshot, event: EventObject) => boolean): boolean {
  let previous = createActor(machine as AnyStateMachine, input === undefined ? {} : { input }).getSnapshot() as AnyMachineSnapshot;
  for (const step of path.steps) {
    if (!step.event.type.startsWith('xstate.') && !drivable(previous, step.event)) return false;
    previous = step.state as AnyMachineSnapshot;
  }
  return true;
}

/**
 * The paths both runs walk: from all of them, shortest first, each one that reaches a state or
 * takes a chart transition no path before it did. Every state and transition the exhaustive set
 * reaches is still reached, by far fewer paths — which is what makes a walk through the real
 * screen for each of them affordable.
 */
export function modelPaths<M extends AnyStateMachine, S extends OpenedScreen = OpenedScreen>(model: Pick<MachineModel<M, S>, 'events' | 'actorResults' | 'machine' | 'input' | 'ui'>): ModelPath<M>[] {
  const drivable = model.ui?.drivable;
  const candidates = allPaths(model)
    .filter((path) => !drivable || isDrivable(model.machine, path, model.input, drivable as (snapshot: AnyMachineSnapshot, event: EventObject) => boolean))
    .sort((a, b) => a.steps.length - b.steps.length);
  const covered = new Set<string>();
  const chosen: ModelPath<M>[] = [];
  for (const path of candidates) {
    const footprint = pathFootprint(model.machine, path, model.input);
    if ([...footprint].some((item) => !covered.has(item))) {
      chosen.push(path);
      for (const item of footprint) covered.add(item);
    }
  }
  return chosen;
}
