// Reading a machine's chart: its leaf states, its written transitions (each guarded branch counts),
// the actors it invokes, and the delayed events a snapshot is waiting for. Names here are the ones
// the coverage table and the exclusion lists use.
import type { AnyMachineSnapshot, AnyStateMachine, EventObject, StateValue } from 'xstate';

type StateNode = AnyStateMachine['root'];
interface TransitionDefinition {
  source: StateNode;
  eventType: string;
}

function walk(node: StateNode, visit: (node: StateNode) => void): void {
  visit(node);
  for (const child of Object.values(node.states)) walk(child as StateNode, visit);
}

/** The dotted path of a state node below the root ('loaded.fresh'). */
export const statePath = (node: StateNode): string => node.path.join('.');

/** Every atomic or final state of the chart: what "every state" means in the coverage table. */
export function chartStates(machine: AnyStateMachine): string[] {
  const leaves: string[] = [];
  walk(machine.root, (node) => {
    if (node.type === 'atomic' || node.type === 'final') leaves.push(statePath(node));
  });
  return leaves.sort();
}

/** The leaf paths a state value stands for ({ loaded: 'fresh' } → ['loaded.fresh']). */
export function leafPaths(value: StateValue, prefix = ''): string[] {
  if (typeof value === 'string') return [`${prefix}${value}`];
  return Object.entries(value).flatMap(([key, child]) => (child === undefined || (typeof child === 'object' && Object.keys(child).length === 0) ? [`${prefix}${key}`] : leafPaths(child as StateValue, `${prefix}${key}.`)));
}

/** A transition's name: `<source id>: <event> #<branch>`, branches counted from 1 in written order. */
export function transitionName(definition: TransitionDefinition): string {
  // Eventless transitions have the empty event type and live in `always`, not in `transitions`.
  const branches = (definition.eventType === '' ? (definition.source.always ?? []) : (definition.source.transitions.get(definition.eventType) ?? [])) as unknown[];
  const index = branches.indexOf(definition);
  if (index < 0) throw new Error(`A transition of ${definition.source.id} on "${definition.eventType}" is not in its chart`);
  return `${definition.source.id}: ${definition.eventType || '(always)'} #${index + 1}`;
}

/** Every transition written in the chart, by name; eventless ones included. */
export function chartTransitions(machine: AnyStateMachine): string[] {
  const names: string[] = [];
  walk(machine.root, (node) => {
    for (const [eventType, definitions] of node.transitions) {
      (definitions as unknown[]).forEach((_, index) => names.push(`${node.id}: ${eventType} #${index + 1}`));
    }
    (node.always ?? []).forEach((_: unknown, index: number) => names.push(`${node.id}: (always) #${index + 1}`));
  });
  return names.sort();
}

/** The actor sources the chart invokes (setup's `actors` keys), so a run can replace them all. */
export function invokedSources(machine: AnyStateMachine): string[] {
  const sources = new Set<string>();
  walk(machine.root, (node) => {
    for (const invoke of node.invoke) if (typeof invoke.src === 'string') sources.add(invoke.src);
  });
  return [...sources].sort();
}

/** How long a delay is, in ms: a number, or a named delay from setup's `delays`. */
export function delayMs(machine: AnyStateMachine, delay: string | number, snapshot: AnyMachineSnapshot): number {
  if (typeof delay === 'number') return delay;
  const named = (machine.implementations.delays as Record<string, unknown>)[delay];
  if (typeof named === 'number') return named;
  if (typeof named === 'function') return (named as (args: unknown) => number)({ context: snapshot.context, event: { type: 'xstate.init' } });
  throw new Error(`Delay "${delay}" of ${machine.id} has no implementation`);
}

/** The delayed events the snapshot's active states are waiting for, with their delays. */
export function pendingDelays(machine: AnyStateMachine, snapshot: AnyMachineSnapshot): { event: EventObject; ms: number }[] {
  const nodes = (snapshot as unknown as { _nodes: StateNode[] })._nodes;
  return nodes.flatMap((node) =>
    (node.after as { eventType: string; delay: string | number }[]).map((transition) => ({
      event: { type: transition.eventType },
      ms: delayMs(machine, transition.delay, snapshot),
    })),
  );
}

/** The delay an `xstate.after.*` event stands for in the snapshot it leaves, or null for other events. */
export function delayOf(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, event: EventObject): number | null {
  if (!event.type.startsWith('xstate.after.')) return null;
  const found = pendingDelays(machine, snapshot).find((pending) => pending.event.type === event.type);
  if (!found) throw new Error(`${event.type} is not pending in ${JSON.stringify(snapshot.value)}`);
  return found.ms;
}
