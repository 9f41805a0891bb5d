// The paths a model's runs walk: xstate/graph's shortest path to every state, extended by every
// enabled transition out of it, over the model's event fixtures, the invoked actors' answers and
// the delayed events each state waits for.
import { createActor, createEmptyActor, fromPromise, SimulatedClock, type AnyActorRef, type AnyMachineSnapshot, type AnyStateMachine, type EventObject, type InspectionEvent, type SnapshotFrom } from 'xstate';
import { prng } from '../../../server/random';
import { eventKey, pathsCoveringEveryTransition, randomWalks, subgraph, toursThrough, transitionGraph, type TransitionGraph, type TransitionPath } from './graph';
import { chartStates, chartTransitions, invokedSources, leafPaths, pendingDelays, transitionName } from './chart';
import type { Exclusions, MachineModel, OpenedScreen } from './model';

/** A path, and the input the actor starts with on it. */
export type ModelPath<M extends AnyStateMachine> = TransitionPath<SnapshotFrom<M>> & { input?: unknown };

/** Whether the screen offers the user action that sends `event` in `snapshot` (`ui.drivable`). */
type Drivable = (snapshot: AnyMachineSnapshot, event: EventObject) => boolean;

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

/** Whether the screen can take `event` in `snapshot`: the actors' answers and timers always, a user event when `drivable` says so. */
const offered = (drivable: Drivable) => (snapshot: AnyMachineSnapshot, event: EventObject) => event.type.startsWith('xstate.') || drivable(snapshot, event);

const graphs = new WeakMap<AnyStateMachine, Map<Drivable | undefined, Map<unknown, TransitionGraph<AnyMachineSnapshot>>>>();

/**
 * The machine's graph from `input` over every event (machine run) or what the screen offers (UI
 * run), walked once and shared by the covering set and the sampled walks.
 */
function graphOf<M extends AnyStateMachine>(model: PathModel<M>, input: unknown, drivable?: Drivable): TransitionGraph<SnapshotFrom<M>> {
  let byDrivable = graphs.get(model.machine);
  if (!byDrivable) graphs.set(model.machine, (byDrivable = new Map()));
  let byInput = byDrivable.get(drivable);
  if (!byInput) byDrivable.set(drivable, (byInput = new Map()));
  let graph = byInput.get(input);
  if (!graph) {
    // The graph walks the machine as the app starts it: with its input. For the UI run it walks only
    // the user events the screen offers: it keeps one (shortest) path per state, so filtering its
    // paths afterwards would drop every state whose shortest path goes through a step the screen
    // does not offer, however else the screen gets there. That graph is the machine run's, cut down
    // to what the screen offers (the transitions are the same; walking the machine again cost
    // seconds on the larger models).
    graph = drivable
      ? subgraph(graphOf(model, input) as unknown as TransitionGraph<AnyMachineSnapshot>, offered(drivable))
      : (transitionGraph(model.machine as AnyStateMachine, modelEvents(model) as never, { input }) as TransitionGraph<AnyMachineSnapshot>);
    byInput.set(input, graph);
  }
  return graph as unknown as TransitionGraph<SnapshotFrom<M>>;
}

/**
 * Every path xstate/graph finds to each (state, context) and one transition on from it, for each
 * input the actor may start with: the exhaustive set, cheap to replay on the machine alone.
 */
export function allPaths<M extends AnyStateMachine>(model: PathModel<M>, drivable?: Drivable): ModelPath<M>[] {
  const inputs = modelInputs(model);
  return inputs.flatMap((input, index) => {
    const label = (description: string) => (inputs.length > 1 ? `[input ${index + 1}] ${description}` : description);
    // With several inputs, each start is a path of its own: an input may lead (eventlessly) to a
    // state no event leaves, which no transition path would show.
    const start = createActor(model.machine as AnyStateMachine, input === undefined ? {} : { input }).getSnapshot() as SnapshotFrom<M>;
    const starts: ModelPath<M>[] = inputs.length > 1 ? [{ description: label(`start ⇒ ${leafPaths((start as AnyMachineSnapshot).value).join(', ')}`), steps: [], input }] : [];
    const walked = pathsCoveringEveryTransition(graphOf(model, input, drivable)).map((path): ModelPath<M> => ({ ...path, input, description: label(path.description) }));
    return [...starts, ...walked];
  });
}

/**
 * The chart transitions and leaf states a path goes through, read as the runs' coverage reads them:
 * from a replay's own microsteps, so what a step raises (and its eventless hops) counts as well as
 * the transition its event takes. The replay's invoked actors never settle: the path's answers and
 * timers are sent as the events they stand for.
 */
function pathFootprint<M extends AnyStateMachine>(machine: M, path: ModelPath<M>): Set<string> {
  const seen = new Set<string>();
  const { input } = path;
  const hanging = fromPromise(() => new Promise<never>(() => {}));
  const logic = machine.provide({ actors: Object.fromEntries(invokedSources(machine).map((src) => [src, hanging])) } as never) as AnyStateMachine;
  const reached = (snapshot: AnyMachineSnapshot) => {
    for (const leaf of leafPaths(snapshot.value)) seen.add(`state ${leaf}`);
  };
  const actor: AnyActorRef = createActor(logic, {
    clock: new SimulatedClock(),
    ...(input === undefined ? {} : { input }),
    // The root actor's own microsteps, its initial eventless ones (sent while it is created) included.
    inspect: (event: InspectionEvent) => {
      if (event.type !== '@xstate.microstep' || event.actorRef.sessionId !== event.rootId) return;
      for (const definition of (event as unknown as { _transitions: Parameters<typeof transitionName>[0][] })._transitions) {
        seen.add(transitionName(definition));
        // As the coverage recorder reads it: taking an eventless way out of a leaf shows the actor was there.
        const source = definition.source as { type: string; path: string[] };
        if (definition.eventType === '' && (source.type === 'atomic' || source.type === 'final')) seen.add(`state ${source.path.join('.')}`);
      }
      reached(event.snapshot as AnyMachineSnapshot);
    },
  } as never);
  actor.start();
  reached(actor.getSnapshot() as AnyMachineSnapshot);
  for (const step of path.steps) {
    actor.send(step.event);
    reached(actor.getSnapshot() as AnyMachineSnapshot);
  }
  actor.stop();
  return seen;
}

const values = new WeakMap<AnyMachineSnapshot, string>();

/** A snapshot's state value as text, kept with the snapshot: the candidates share their prefixes' snapshots. */
function valueKey(snapshot: AnyMachineSnapshot): string {
  let value = values.get(snapshot);
  if (value === undefined) values.set(snapshot, (value = JSON.stringify(snapshot.value)));
  return value;
}

/**
 * The states and transitions a path goes through, read from the path's own snapshots (each step's
 * state value before and after its event, and the event itself): no replay, so it is cheap enough for the machine run's
 * tens of thousands of candidates. The run's coverage check still reads the chart itself.
 */
function pathSteps<M extends AnyStateMachine>(machine: M, path: ModelPath<M>, startValues: Map<unknown, string>): Set<string> {
  const seen = new Set<string>();
  const { input } = path;
  let before = startValues.get(input);
  if (before === undefined) {
    before = JSON.stringify((createActor(machine as AnyStateMachine, input === undefined ? {} : { input }).getSnapshot() as AnyMachineSnapshot).value);
    startValues.set(input, before);
  }
  seen.add(`state ${before}`);
  for (const step of path.steps) {
    const after = valueKey(step.state as AnyMachineSnapshot);
    // The whole event, answers' outputs included: a guard that reads them picks another branch.
    seen.add(`${before} --${eventKey(step.event)}--> ${after}`);
    seen.add(`state ${after}`);
    before = after;
  }
  return seen;
}

/**
 * The paths both runs walk: of the graph's paths, the fewest that still reach every state and take
 * every transition — each round the one that adds the most not yet covered (the shorter on a
 * tie). Through the screen (`drivable` given) what a path covers is read as the coverage check
 * reads it (chart transitions, replayed); on the machine alone, from the path's own snapshots.
 */
export function modelPaths<M extends AnyStateMachine, S extends OpenedScreen = OpenedScreen>(
  model: Pick<MachineModel<M, S>, 'events' | 'actorResults' | 'machine' | 'input' | 'inputs' | 'ui' | 'exclude'>,
): ModelPath<M>[] {
  return coveringPaths(model, model.ui?.drivable as Drivable | undefined, model.exclude?.ui);
}

/** The covering set over every event (the machine run's), or over those the screen offers. */
export function coveringPaths<M extends AnyStateMachine>(model: PathModel<M>, drivable?: Drivable, excluded: Exclusions = {}): ModelPath<M>[] {
  const candidates = allPaths(model, drivable).sort((a, b) => a.steps.length - b.steps.length);
  // Each input's start (no steps) is kept whole: what its eventless first moves cover is the input's.
  const starts = candidates.filter((path) => path.steps.length === 0);
  const startValues = new Map<unknown, string>();
  if (!drivable) return [...starts, ...fewestCovering(candidates, candidates.map((path) => pathSteps(model.machine, path, startValues)))].filter(unique);
  // Through the screen: first, shortest first, each path that adds anything (the set the screens
  // are known to follow); then the fewest of those that still cover it all. Once the chart is
  // covered (less what the UI run excludes) no later path can add anything, and replaying the rest
  // for their footprints is skipped: the customer-usage model has 17,740 candidates, and its
  // covering set is whole after the first 150.
  const excludedItems = new Set([...Object.keys(excluded.states ?? {}).map((state) => `state ${state}`), ...Object.keys(excluded.transitions ?? {})]);
  const open = new Set([...chartStates(model.machine).map((state) => `state ${state}`), ...chartTransitions(model.machine)].filter((item) => !excludedItems.has(item)));
  const footprints: Set<string>[] = [];
  const covered = new Set<string>();
  const walked: number[] = [];
  for (const [index, path] of candidates.entries()) {
    if (open.size === 0) break;
    const footprint = pathFootprint(model.machine, path);
    footprints[index] = footprint;
    if ([...footprint].some((item) => !covered.has(item))) {
      walked.push(index);
      for (const item of footprint) {
        covered.add(item);
        open.delete(item);
      }
    }
  }
  return [
    ...starts,
    ...fewestCovering(
      walked.map((index) => candidates[index]!),
      walked.map((index) => footprints[index]!),
    ),
  ].filter(unique);
}

const unique = <T>(item: T, index: number, all: readonly T[]) => all.indexOf(item) === index;

/**
 * What one step covers, read as `pathFootprint` reads it but from the snapshot it leaves: the
 * machine's own transition function, whose microsteps are reported to the scope's inspection. As
 * the graph's walk, it starts no actor and runs no action.
 */
function stepFootprint(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, event: EventObject): string[] {
  const seen = new Set<string>();
  const reached = (next: AnyMachineSnapshot) => {
    for (const leaf of leafPaths(next.value)) seen.add(`state ${leaf}`);
  };
  const self = createEmptyActor();
  const scope = {
    self,
    id: '',
    sessionId: 'footprint',
    logger: () => {},
    defer: () => {},
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
    system: {
      ...self.system,
      _sendInspectionEvent: (inspected: InspectionEvent) => {
        if (inspected.type !== '@xstate.microstep') return;
        for (const definition of (inspected as unknown as { _transitions: Parameters<typeof transitionName>[0][] })._transitions) {
          seen.add(transitionName(definition));
          const source = definition.source as { type: string; path: string[] };
          if (definition.eventType === '' && (source.type === 'atomic' || source.type === 'final')) seen.add(`state ${source.path.join('.')}`);
        }
        reached(inspected.snapshot as AnyMachineSnapshot);
      },
    },
  };
  reached((machine.transition as (s: unknown, e: EventObject, a: unknown) => AnyMachineSnapshot)(snapshot, event, scope));
  return [...seen];
}

/**
 * The UI run's paths: tours (`toursThrough`) over the graph of what the screen offers, through
 * everything its covering set (`modelPaths`) reaches and takes, read as the coverage check reads
 * it; each tour opens the screen once where the covering set opened it once per path. At most
 * `maxSteps` a tour, unless one step alone lies further (its shortest way is then a tour of its own).
 */
export function screenTours<M extends AnyStateMachine, S extends OpenedScreen = OpenedScreen>(
  model: Pick<MachineModel<M, S>, 'events' | 'actorResults' | 'machine' | 'input' | 'inputs' | 'ui' | 'exclude'>,
  { maxSteps }: { maxSteps: number },
): ModelPath<M>[] {
  const drivable = model.ui?.drivable as Drivable | undefined;
  const covering = modelPaths(model);
  const inputs = modelInputs(model);
  return inputs.flatMap((input, index) => {
    const label = (description: string) => (inputs.length > 1 ? `[input ${index + 1}] ${description}` : description);
    const ofInput = covering.filter((path) => path.input === input);
    const targets = new Set(ofInput.flatMap((path) => [...pathFootprint(model.machine, path)]));
    const atStart = [...pathFootprint(model.machine, { description: 'start', steps: [], input })];
    // An input whose covering paths cover nothing past its start keeps its start.
    if ([...targets].every((item) => atStart.includes(item))) return ofInput;
    const covers = (from: SnapshotFrom<M>, event: EventObject) => stepFootprint(model.machine, from as AnyMachineSnapshot, event);
    return toursThrough(graphOf(model, input, drivable), { targets, atStart, covers, maxSteps }).map((tour): ModelPath<M> => ({ ...tour, input, description: label(tour.description) }));
  });
}

/**
 * Greedy set cover: each round the path that adds the most not yet covered (`paths` are shortest
 * first, so a tie keeps the shorter), until nothing is left to add. Lazily: what a path adds only
 * shrinks as others are chosen, so a path whose last count still beats every other's last count is
 * the round's best without counting the others again (tens of thousands of candidates on the
 * larger machines).
 */
function fewestCovering<P extends { steps: readonly unknown[] }>(paths: readonly P[], footprints: readonly Set<string>[]): P[] {
  const covered = new Set<string>();
  const chosen: P[] = [];
  const gainOf = (index: number) => {
    let gain = 0;
    for (const item of footprints[index]!) if (!covered.has(item)) gain++;
    return gain;
  };
  // A max-heap of [last counted gain, index]; the lower index wins a tie (the shorter path).
  const heap = new MaxHeap<[number, number]>((a, b) => a[0] - b[0] || b[1] - a[1]);
  paths.forEach((_, index) => heap.push([footprints[index]!.size, index]));
  for (;;) {
    const top = heap.pop();
    if (!top || top[0] === 0) break;
    const gain = gainOf(top[1]);
    const next = heap.peek();
    if (gain === 0) continue;
    if (next && (gain < next[0] || (gain === next[0] && next[1] < top[1]))) {
      heap.push([gain, top[1]]);
      continue;
    }
    chosen.push(paths[top[1]]!);
    for (const item of footprints[top[1]]!) covered.add(item);
  }
  return chosen.sort((a, b) => a.steps.length - b.steps.length);
}

/** A binary heap, greatest first by `compare`. */
class MaxHeap<T> {
  private readonly items: T[] = [];
  constructor(private readonly compare: (a: T, b: T) => number) {}
  peek(): T | undefined {
    return this.items[0];
  }
  push(item: T): void {
    const items = this.items;
    items.push(item);
    let at = items.length - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (this.compare(items[at]!, items[parent]!) <= 0) break;
      [items[at], items[parent]] = [items[parent]!, items[at]!];
      at = parent;
    }
  }
  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        const right = left + 1;
        let best = at;
        if (left < items.length && this.compare(items[left]!, items[best]!) > 0) best = left;
        if (right < items.length && this.compare(items[right]!, items[best]!) > 0) best = right;
        if (best === at) break;
        [items[at], items[best]] = [items[best]!, items[at]!];
        at = best;
      }
    }
    return top;
  }
}

/**
 * The seed of this run's sampled walks: MODEL_SEED when given (to replay a run), else the one the
 * model config drew and printed for the run (vitest.model.config.ts).
 */
export function modelSeed(): number {
  const given = Number(process.env.MODEL_SEED);
  return Number.isSafeInteger(given) ? given : 1;
}

/** A machine's own stream: each model's walks depend on the run's seed and its name, not on the others. */
function streamOf(seed: number, name: string, run: string): () => number {
  let hash = seed >>> 0;
  for (const char of `${name}:${run}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return prng(hash);
}

/**
 * `count` seeded random walks per input, up to `maxSteps` each, over every event (machine run) or
 * over what the screen offers (UI run): on top of the covering set, sequences it does not hold.
 */
export function sampledWalks<M extends AnyStateMachine>(
  model: PathModel<M> & { name: string },
  { seed, count, maxSteps, drivable }: { seed: number; count: number; maxSteps: number; drivable?: Drivable },
): ModelPath<M>[] {
  if (count <= 0) return [];
  const inputs = modelInputs(model);
  return inputs.flatMap((input, index) => {
    const random = streamOf(seed, model.name, `${drivable ? 'ui' : 'machine'}:${index}`);
    return randomWalks(graphOf(model, input, drivable), { random, count, maxSteps }).map(
      (path): ModelPath<M> => ({ ...path, input, description: `${inputs.length > 1 ? `[input ${index + 1}] ` : ''}seed ${seed} ${path.description}` }),
    );
  });
}
