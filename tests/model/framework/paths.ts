// The paths a model's runs walk: xstate/graph's shortest path to every state, extended by every
// enabled transition out of it, over the model's event fixtures, the invoked actors' answers and
// the delayed events each state waits for.
import { createActor, type AnyMachineSnapshot, type AnyStateMachine, type EventObject, type SnapshotFrom } from 'xstate';
import { pathsCoveringEveryTransition, type TransitionPath } from '../../machines/model-paths';
import { leafPaths, pendingDelays, transitionName } from './chart';
import type { MachineModel, OpenedScreen } from './model';

/** A path, and the input the actor starts with on it. */
export type ModelPath<M extends AnyStateMachine> = TransitionPath<SnapshotFrom<M>> & { input?: unknown };

type PathModel<M extends AnyStateMachine> = Pick<MachineModel<M>, 'events' | 'actorResults' | 'machine' | 'input' | 'inputs'>;

/** The inputs the actor is started with: each gets its own paths. */
export function modelInputs<M extends AnyStateMachine>(model: Pick<MachineModel<M>, 'input' | 'inputs'>): unknown[] {
  return model.inputs && model.inputs.length > 0 ? [...model.inputs] : [model.input];
}

export function modelEvents<M extends AnyStateMachine>(model: Pick<MachineModel<M>, 'events' | 'actorResults' | 'machine'>) {
  const fixed: EventObject[] = [...(Object.values(model.events) as EventObject[][]).flat(), ...(model.actorResults ?? [])];
  return (snapshot: SnapshotFrom<M>): readonly EventObject[] => [
    ...fixed,
    ...pendingDelays(model.machine, snapshot as AnyMachineSnapshot).map((pending) => pending.event),
  ];
}

/**
 * Every path xstate/graph finds to each (state, context) and one transition on from it, for each
 * input the actor may start with: the exhaustive set, cheap to replay on the machine alone.
 */
export function allPaths<M extends AnyStateMachine>(model: PathModel<M>): ModelPath<M>[] {
  const inputs = modelInputs(model);
  return inputs.flatMap((input, index) => {
    const label = (description: string) => (inputs.length > 1 ? `[input ${index + 1}] ${description}` : description);
    // With several inputs, each start is a path of its own: an input may lead (eventlessly) to a
    // state no event leaves, which no transition path would show.
    const start = createActor(model.machine as AnyStateMachine, input === undefined ? {} : { input }).getSnapshot() as SnapshotFrom<M>;
    const starts: ModelPath<M>[] = inputs.length > 1 ? [{ description: label(`start ⇒ ${leafPaths((start as AnyMachineSnapshot).value).join(', ')}`), steps: [], input }] : [];
    // The graph walks the machine as the app starts it: with its input.
    const walked = pathsCoveringEveryTransition(model.machine, modelEvents(model), { input }).map((path): ModelPath<M> => ({ ...path, input, description: label(path.description) }));
    return [...starts, ...walked];
  });
}

/** The chart transitions and leaf states a path goes through (eventless hops are counted by the run itself). */
function pathFootprint<M extends AnyStateMachine>(machine: M, path: ModelPath<M>): Set<string> {
  const seen = new Set<string>();
  const { input } = path;
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
function isDrivable<M extends AnyStateMachine>(machine: M, path: ModelPath<M>, drivable: (snapshot: AnyMachineSnapshot, event: EventObject) => boolean): boolean {
  const { input } = path;
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
export function modelPaths<M extends AnyStateMachine, S extends OpenedScreen = OpenedScreen>(model: Pick<MachineModel<M, S>, 'events' | 'actorResults' | 'machine' | 'input' | 'inputs' | 'ui'>): ModelPath<M>[] {
  const drivable = model.ui?.drivable;
  const candidates = allPaths(model)
    .filter((path) => !drivable || isDrivable(model.machine, path, drivable as (snapshot: AnyMachineSnapshot, event: EventObject) => boolean))
    .sort((a, b) => a.steps.length - b.steps.length);
  const covered = new Set<string>();
  const chosen: ModelPath<M>[] = [];
  for (const path of candidates) {
    const footprint = pathFootprint(model.machine, path);
    if ([...footprint].some((item) => !covered.has(item))) {
      chosen.push(path);
      for (const item of footprint) covered.add(item);
    }
  }
  return chosen;
}
