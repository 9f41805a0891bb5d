// Coverage of one run (machine or UI): the leaf states the live actor was seen in and the chart
// transitions it took, read from the actor's own inspection events (`@xstate.microstep` carries the
// transitions of every microstep, eventless ones included). Each model file writes its figures to
// .tmp/model-coverage, where the reporter prints the table from.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AnyActorRef, AnyMachineSnapshot, AnyStateMachine, InspectionEvent } from 'xstate';
import { chartStates, chartTransitions, leafPaths, transitionName } from './chart';
import type { Exclusions } from './model';

export const COVERAGE_DIR = path.resolve('.tmp/model-coverage');

export type RunKind = 'machine' | 'ui';

export interface RunCoverage {
  machine: string;
  run: RunKind;
  states: { total: number; reached: number; missing: string[]; excluded: string[] };
  transitions: { total: number; taken: number; missing: string[]; excluded: string[] };
  paths: number;
}

export class CoverageRecorder {
  private readonly states = new Set<string>();
  private readonly transitions = new Set<string>();
  paths = 0;

  constructor(
    readonly name: string,
    readonly run: RunKind,
    private readonly machine: AnyStateMachine,
    private readonly exclusions: Exclusions = {},
  ) {}

  /** An inspection observer that records what `isTarget` actors do. */
  observer(isTarget: (actor: AnyActorRef) => boolean): (event: InspectionEvent) => void {
    return (event) => {
      if (!isTarget(event.actorRef as AnyActorRef)) return;
      if (event.type === '@xstate.snapshot') this.reached(event.snapshot as AnyMachineSnapshot);
      if (event.type === '@xstate.microstep') {
        for (const definition of (event as unknown as { _transitions: Parameters<typeof transitionName>[0][] })._transitions) {
          this.transitions.add(transitionName(definition));
          // A transient state (left by an eventless transition in the same macrostep) is never seen
          // resting in a snapshot; taking its way out is what shows the actor was there.
          const source = definition.source as { type: string; path: string[] };
          if (definition.eventType === '' && (source.type === 'atomic' || source.type === 'final')) this.states.add(source.path.join('.'));
        }
        this.reached(event.snapshot as AnyMachineSnapshot);
      }
    };
  }

  reached(snapshot: AnyMachineSnapshot): void {
    if (snapshot?.value !== undefined) for (const leaf of leafPaths(snapshot.value)) this.states.add(leaf);
  }

  result(): RunCoverage {
    const allStates = chartStates(this.machine);
    const allTransitions = chartTransitions(this.machine);
    const excludedStates = Object.keys(this.exclusions.states ?? {});
    const excludedTransitions = Object.keys(this.exclusions.transitions ?? {});
    for (const name of excludedStates) if (!allStates.includes(name)) throw new Error(`${this.name}: excluded state "${name}" is not in the chart`);
    for (const name of excludedTransitions) if (!allTransitions.includes(name)) throw new Error(`${this.name}: excluded transition "${name}" is not in the chart`);
    return {
      machine: this.name,
      run: this.run,
      states: {
        total: allStates.length,
        reached: allStates.filter((s) => this.states.has(s)).length,
        missing: allStates.filter((s) => !this.states.has(s) && !excludedStates.includes(s)),
        excluded: excludedStates,
      },
      transitions: {
        total: allTransitions.length,
        taken: allTransitions.filter((t) => this.transitions.has(t)).length,
        missing: allTransitions.filter((t) => !this.transitions.has(t) && !excludedTransitions.includes(t)),
        excluded: excludedTransitions,
      },
      paths: this.paths,
    };
  }

  /** Writes the figures for the reporter; returns them for the test's own 100 % check. */
  save(): RunCoverage {
    const result = this.result();
    mkdirSync(COVERAGE_DIR, { recursive: true });
    writeFileSync(path.join(COVERAGE_DIR, `${this.name}.${this.run}.json`), `${JSON.stringify(result, null, 2)}\n`);
    return result;
  }
}
