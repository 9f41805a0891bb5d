// Turns a model into tests: every generated path runs twice, once against the machine itself and
// once through the real screen, and each run ends with its coverage check (100 % of states and
// transitions, less the model's commented exclusions).
import { act, waitFor as waitForDom } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { createActor, SimulatedClock, waitFor, type AnyActorRef, type AnyMachineSnapshot, type AnyStateMachine, type EventObject, type SnapshotFrom } from 'xstate';
import { deferredActors, serializeState } from './graph';
import { delayOf, invokedSources, leafPaths } from './chart';
import { CoverageRecorder, type RunCoverage } from './coverage';
import type { MachineModel, ModelSeam, OpenedScreen } from './model';
import { allPaths, coveringPaths, modelPaths, modelSeed, sampledWalks, screenTours, type ModelPath } from './paths';

type Deferred = ReturnType<typeof deferredActors>;

/** How long the screen may take to settle after a step: generous, as CI's two cores are shared. */
const SETTLE = { timeout: 5000 };

/** The machine with every invoked actor replaced by one the path settles. */
function withDeferredActors<M extends AnyStateMachine>(machine: M, deferred: Deferred): M {
  return machine.provide({ actors: Object.fromEntries(invokedSources(machine).map((src) => [src, deferred.logic])) } as never) as M;
}

const describeValue = (snapshot: { value: unknown }) => (typeof snapshot.value === 'string' ? snapshot.value : JSON.stringify(snapshot.value));

/** Each leaf of the expected state has its assertion; run them all. */
async function assertStates(states: Record<string, (...args: never[]) => unknown>, snapshot: AnyMachineSnapshot, ...args: unknown[]) {
  for (const leaf of leafPaths(snapshot.value)) {
    const assertion = states[leaf];
    if (!assertion) throw new Error(`No assertion for state "${leaf}"`);
    await (assertion as (...a: unknown[]) => unknown)(snapshot, ...args);
  }
}

function expectComplete(result: RunCoverage) {
  expect(result.states.missing, `${result.machine} (${result.run} run): states never reached`).toEqual([]);
  expect(result.transitions.missing, `${result.machine} (${result.run} run): transitions never taken`).toEqual([]);
}

async function runOnMachine<M extends AnyStateMachine, S extends OpenedScreen>(model: MachineModel<M, S>, path: ModelPath<M>, recorder: CoverageRecorder) {
  const deferred = deferredActors();
  const clock = new SimulatedClock();
  const logic = withDeferredActors(model.machine, deferred);
  const isTarget = (actor: AnyActorRef) => (actor as unknown as { logic?: unknown }).logic === logic;
  const actor = createActor(logic, { clock, inspect: recorder.observer(isTarget), ...(path.input === undefined ? {} : { input: path.input }) } as never);
  actor.start();
  try {
    await assertStates(model.states as never, actor.getSnapshot() as AnyMachineSnapshot);
    for (const step of path.steps) {
      const before = actor.getSnapshot() as AnyMachineSnapshot;
      const delay = delayOf(model.machine, before, step.event);
      if (delay !== null) clock.increment(delay);
      else if (!deferred.settle(step.event)) actor.send(step.event as never);
      const expected = serializeState(step.state as object);
      try {
        await waitFor(actor, (snapshot) => serializeState(snapshot) === expected, { timeout: 1000 });
      } catch {
        throw new Error(`After ${step.event.type} the actor is at ${serializeState(actor.getSnapshot())}, the model says ${expected}`);
      }
      await assertStates(model.states as never, actor.getSnapshot() as AnyMachineSnapshot);
    }
  } finally {
    actor.stop();
  }
}

async function runOnScreen<M extends AnyStateMachine, S extends OpenedScreen>(model: MachineModel<M, S>, path: ModelPath<M>, recorder: CoverageRecorder) {
  const ui = model.ui!;
  const deferred = deferredActors();
  const clock = new SimulatedClock();
  const adapted = new Set<unknown>();
  const targets: AnyActorRef[] = [];
  const record = recorder.observer((actor) => adapted.has((actor as unknown as { logic?: unknown }).logic));
  const seam: ModelSeam = {
    adapt(logic) {
      if (logic.id !== model.machine.id) return logic;
      const replaced = withDeferredActors(logic, deferred);
      adapted.add(replaced);
      return replaced;
    },
    clock,
    inspect(event) {
      // StrictMode creates a spare actor it never starts: only one that has moved counts.
      if (event.type !== '@xstate.actor' && adapted.has((event.actorRef as unknown as { logic?: unknown }).logic)) {
        const actor = event.actorRef as AnyActorRef;
        if (targets.at(-1) !== actor) targets.push(actor);
      }
      record(event);
    },
  };
  // The page's actor: the one of this machine that moved last and is not stopped (one that reached
  // a final state is 'done' and still the page's).
  const current = () => [...targets].reverse().find((actor) => actor.getSnapshot().status !== 'stopped');

  const screen = await ui.open(seam, path.input as never);
  try {
    await waitForDom(() => expect(current(), `the screen never started ${model.machine.id}`).toBeDefined(), SETTLE);
    const initial = current()!.getSnapshot() as AnyMachineSnapshot;
    await waitForDom(() => assertStates(ui.states as never, initial, screen), SETTLE);
    for (const [index, step] of path.steps.entries()) {
      // A tour is long: say which of its steps went wrong.
      const where = `step ${index + 1} of ${path.steps.length}, ${step.event.type}`;
      const actor = current()!;
      const before = actor.getSnapshot() as AnyMachineSnapshot;
      const delay = delayOf(model.machine, before, step.event);
      if (delay !== null) await act(async () => clock.increment(delay));
      else if (step.event.type.startsWith('xstate.')) {
        const settled = await act(async () => deferred.settle(step.event));
        if (!settled) throw new Error(`${where}: not an actor answer the run can give`);
      } else {
        const cause = (ui.events as Record<string, (screen: S, event: EventObject) => Promise<void>>)[step.event.type];
        if (!cause) throw new Error(`${where}: no user action causes it`);
        await cause(screen, step.event).catch((error: unknown) => {
          if (error instanceof Error) error.message = `At ${where}: ${error.message}`;
          throw error;
        });
      }
      const expected = describeValue(step.state);
      await waitForDom(() => expect(describeValue(current()!.getSnapshot()), `after ${where}`).toBe(expected), SETTLE);
      await waitForDom(() => assertStates(ui.states as never, step.state as AnyMachineSnapshot, screen), SETTLE).catch((error: unknown) => {
        if (error instanceof Error) error.message = `After ${where}: ${error.message}`;
        throw error;
      });
    }
  } finally {
    await screen.close();
  }
}

/**
 * How many seeded walks each run adds to its covering set, and how long they may be. The machine
 * run takes 12 per input. The UI run takes none by default: some screen models do not yet follow
 * every long sequence (a walk of repeated selects, retries or sign-outs fails there while the
 * machine run of the same walk passes), so MODEL_UI_WALKS=<n> is for finding those. MODEL_PATHS=full
 * (`npm run test:model:full`) walks every path the graph finds on the machine instead, as a long run.
 */
const WALKS = {
  machine: Number(process.env.MODEL_WALKS ?? 12),
  ui: Number(process.env.MODEL_UI_WALKS ?? 0),
  maxSteps: 12,
};

/**
 * How long a UI tour may grow (`screenTours`). A shortest path per transition opens the screen
 * afresh and walks its whole prefix again each time; tours cover the same states and transitions in
 * a third fewer screen steps and a seventh of the openings (every screen step re-renders the page,
 * which is most of the UI run's time). MODEL_TOUR_STEPS=0 walks the covering set's shortest paths
 * one by one instead, to find which transition a failing tour broke on.
 */
const TOUR_STEPS = Number(process.env.MODEL_TOUR_STEPS ?? 40);

/**
 * A path's time limit: the config's for a short one, and 2 s a step for a long tour (a step of the
 * customer-usage page took up to 0.9 s on two cores busy with another run beside it).
 */
const timeoutFor = (path: { steps: readonly unknown[] }) => Math.max(20_000, path.steps.length * 2_000);

/** Declares the model's machine run and UI run, each path a test, each run closed by its coverage check. */
export function modelSuite<M extends AnyStateMachine, S extends OpenedScreen>(model: MachineModel<M, S>): void {
  // Both runs walk a covering set: from the shortest path to every (state, context) and a
  // transition on, the fewest that still reach every state and take every chart transition; then a
  // seeded sample of longer walks (the seed is in their names; MODEL_SEED replays a run). The UI
  // run covers what its covering set covers in tours (fewer, longer paths). The full enumeration
  // (every path on the machine) is MODEL_PATHS=full.
  const seed = modelSeed();
  const machinePaths =
    process.env.MODEL_PATHS === 'full'
      ? allPaths(model)
      : [...coveringPaths(model), ...sampledWalks(model, { seed, count: WALKS.machine, maxSteps: WALKS.maxSteps })];
  const drivable = model.ui?.drivable as Parameters<typeof sampledWalks>[1]['drivable'];
  const screenPaths = [...(TOUR_STEPS > 0 ? screenTours(model, { maxSteps: TOUR_STEPS }) : modelPaths(model)), ...(model.ui ? sampledWalks(model, { seed, count: WALKS.ui, maxSteps: WALKS.maxSteps, drivable: drivable ?? (() => true) }) : [])];

  describe(`${model.name}: machine run`, () => {
    const recorder = new CoverageRecorder(model.name, 'machine', model.machine, model.exclude?.machine);
    afterAll(() => void recorder.save());
    it.each(machinePaths.map((path) => [path.description, path] as const))('%s', async (_name, path) => {
      recorder.paths++;
      await runOnMachine(model, path as ModelPath<M>, recorder);
    });
    it('reached every state and took every transition', () => expectComplete(recorder.result()));
  });

  describe(`${model.name}: UI run`, () => {
    const recorder = new CoverageRecorder(model.name, 'ui', model.machine, model.exclude?.ui);
    afterAll(() => void recorder.save());
    if (!model.ui) {
      it('has a UI model', () => expect.fail(`${model.name} has no UI model: add one or exclude its states and transitions with reasons`));
      return;
    }
    for (const path of screenPaths) {
      it(
        path.description,
        async () => {
          recorder.paths++;
          await runOnScreen(model, path as ModelPath<M>, recorder);
        },
        timeoutFor(path),
      );
    }
    it('reached every state and took every transition', () => expectComplete(recorder.result()));
  });
}

export type { SnapshotFrom };
