// Diagrams of every XState machine in src/machines, written to docs/machines/: a Mermaid state
// diagram (<name>.mmd), the machine as JSON in createMachine's config shape (<name>.json, what
// Stately Studio imports), and an index (README.md) that embeds every diagram for GitHub.
//
//   tsx scripts/machines-diagram.ts           regenerate docs/machines/
//   tsx scripts/machines-diagram.ts --check   write nothing; exit 1 naming the files that differ
//
// Machines are found, not listed: every StateMachine exported from src/machines/*.ts gets a
// diagram. A factory (create…Machine) cannot be diagrammed without arguments, so it needs one
// representative instance in FACTORIES below; an unknown factory stops the script rather than
// being skipped. Output is a pure function of the code: no dates, no paths of this machine.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { StateMachine, type AnyStateMachine, type AnyStateNode } from 'xstate';
import { createListMachine } from '../src/machines/list';
import { createResourceMachine } from '../src/machines/resource';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const MACHINES_DIR = join(ROOT, 'src/machines');
export const OUTPUT_DIR = join(ROOT, 'docs/machines');
/** Where the app builds machines from factories (to name the instances a factory diagram stands for). */
const INSTANCE_DIRS = ['src/routes', 'src/ui'];

interface Factory {
  /** One instance whose chart stands for all of them: the factory's arguments change ids and context, not the chart. */
  representative: () => AnyStateMachine;
}

/** Keyed by the exported factory itself, so a renamed export fails here rather than silently. */
const FACTORIES = new Map<unknown, Factory>([
  [
    createListMachine,
    { representative: () => createListMachine({ id: 'list', defaultQuery: { page: 1, limit: 10, search: '', status: 'all' } }) },
  ],
  [createResourceMachine, { representative: () => createResourceMachine('resource') }],
]);

export interface MachineEntry {
  /** File stem in docs/machines. */
  name: string;
  /** Repository-relative source file, with forward slashes. */
  source: string;
  exportName: string;
  machine: AnyStateMachine;
  /** For factories: the instances the app builds. */
  instances?: { id: string; file: string }[];
}

const isFactoryName = (name: string) => /^create\w*Machine$/.test(name);
const repoPath = (path: string) => relative(ROOT, path).split('\\').join('/');

export interface Folders {
  /** Where the machines are (src/machines). */
  machinesDir?: string;
  /** Where the diagrams go (docs/machines). */
  outputDir?: string;
}

/** Every exported machine (and factory) of src/machines, in file then export order. */
export async function collectMachines({ machinesDir = MACHINES_DIR }: Folders = {}): Promise<MachineEntry[]> {
  const entries: MachineEntry[] = [];
  const files = readdirSync(machinesDir)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .sort();
  for (const file of files) {
    const path = join(machinesDir, file);
    const module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    const found: Omit<MachineEntry, 'name'>[] = [];
    for (const exportName of Object.keys(module).sort()) {
      const value = module[exportName];
      if (value instanceof StateMachine) {
        found.push({ source: repoPath(path), exportName, machine: value as AnyStateMachine });
      } else if (typeof value === 'function' && isFactoryName(exportName)) {
        const factory = FACTORIES.get(value);
        if (!factory) {
          throw new Error(`${repoPath(path)} exports the machine factory ${exportName}: add a representative instance to FACTORIES in scripts/machines-diagram.ts`);
        }
        found.push({ source: repoPath(path), exportName, machine: factory.representative(), instances: findInstances(exportName) });
      }
    }
    const stem = basename(file, '.ts');
    for (const entry of found) entries.push({ ...entry, name: found.length === 1 ? stem : `${stem}.${entry.exportName}` });
  }
  return entries;
}

/** The ids the app passes to a factory: `createXMachine<…>('id')` or `createXMachine<…>({ id: 'id', … })`. */
function findInstances(factoryName: string): { id: string; file: string }[] {
  const instances: { id: string; file: string }[] = [];
  for (const dir of INSTANCE_DIRS) {
    const files = readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file))
      .sort();
    for (const file of files) {
      const text = readFileSync(join(ROOT, dir, file), 'utf8');
      const calls = text.match(new RegExp(`\\b${factoryName}\\s*(?:<[^>]*>)?\\(`, 'g')) ?? [];
      const ids = [...text.matchAll(new RegExp(`\\b${factoryName}\\s*(?:<[^>]*>)?\\(\\s*(?:\\{\\s*id:\\s*)?'([^']+)'`, 'g'))].map((m) => m[1]!);
      // A call written another way would drop out of the index without a word: stop instead.
      if (ids.length !== calls.length) throw new Error(`${dir}/${file}: cannot read the id of every ${factoryName} call`);
      instances.push(...ids.map((id) => ({ id, file: `${dir}/${file.split('\\').join('/')}` })));
    }
  }
  return instances;
}

// ---------------------------------------------------------------------------------------------
// The transitions of a state node, grouped the way a machine config writes them.

interface Transition {
  targets: AnyStateNode[];
  guard: string | undefined;
  actions: string[];
  reenter: boolean;
  description: string | undefined;
}

interface NodeTransitions {
  on: [event: string, transitions: Transition[]][];
  invoke: { id: string; src: string; onDone: Transition[]; onError: Transition[] }[];
  after: [delay: string | number, transitions: Transition[]][];
  always: Transition[];
  onDone: Transition[];
}

interface RawTransition {
  target?: readonly AnyStateNode[] | undefined;
  guard?: unknown;
  actions?: readonly unknown[];
  reenter?: boolean;
  description?: string;
  delay?: string | number;
}

function guardName(guard: unknown): string | undefined {
  if (guard === undefined) return undefined;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const combined = (guard as { guards?: unknown[] }).guards;
    if (Array.isArray(combined) && ['and', 'or', 'not'].includes(guard.name)) return `${guard.name}(${combined.map(guardName).join(', ')})`;
    return guard.name || 'inline';
  }
  if (typeof guard === 'object' && guard !== null && 'type' in guard) return String(guard.type);
  return 'inline';
}

// Inline arrow functions are named after the config key they sit under; that name says nothing.
const CONFIG_KEYS = new Set(['', 'actions', 'entry', 'exit']);

function actionName(action: unknown): string {
  if (typeof action === 'string') return action;
  if (typeof action === 'function') {
    const builtIn = (action as { type?: unknown }).type;
    if (typeof builtIn === 'string') return builtIn.replace(/^xstate\./, '');
    return CONFIG_KEYS.has(action.name) ? 'inline' : action.name;
  }
  if (typeof action === 'object' && action !== null && 'type' in action) return String(action.type);
  return 'inline';
}

function toTransition(raw: RawTransition): Transition {
  return {
    targets: [...(raw.target ?? [])],
    guard: guardName(raw.guard),
    actions: (raw.actions ?? []).map(actionName),
    reenter: raw.reenter === true,
    description: raw.description,
  };
}

function transitionsOf(node: AnyStateNode): NodeTransitions {
  const all = node.transitions as Map<string, RawTransition[]>;
  const pick = (descriptor: string) => (all.get(descriptor) ?? []).map(toTransition);
  const config = node.config as { on?: Record<string, unknown> };
  const after: NodeTransitions['after'] = [];
  for (const raw of node.after as RawTransition[]) {
    const last = after.at(-1);
    if (last && last[0] === raw.delay) last[1].push(toTransition(raw));
    else after.push([raw.delay!, [toTransition(raw)]]);
  }
  return {
    on: Object.keys(config.on ?? {}).map((event) => [event, pick(event)]),
    invoke: node.invoke.map((def) => ({
      id: def.id,
      src: typeof def.src === 'string' ? def.src : 'inline',
      onDone: pick(`xstate.done.actor.${def.id}`),
      onError: pick(`xstate.error.actor.${def.id}`),
    })),
    after,
    always: (node.always ?? []).map((raw) => toTransition(raw as RawTransition)),
    onDone: pick(`xstate.done.state.${node.id}`),
  };
}

const children = (node: AnyStateNode) => Object.values(node.states) as AnyStateNode[];

function initialKey(node: AnyStateNode): string | undefined {
  const initial = (node.config as { initial?: unknown }).initial;
  if (typeof initial === 'string') return initial;
  if (typeof initial === 'object' && initial !== null && 'target' in initial) return String(initial.target);
  return undefined;
}

function delayMs(machine: AnyStateMachine, delay: string | number): number | undefined {
  if (typeof delay === 'number') return delay;
  const value = (machine.implementations.delays as Record<string, unknown>)[delay];
  return typeof value === 'number' ? value : undefined;
}

// ---------------------------------------------------------------------------------------------
// JSON: the config a createMachine call would take, names instead of implementations.

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

function transitionJson(transition: Transition): { [key: string]: Json } {
  const json: { [key: string]: Json } = {};
  if (transition.targets.length === 1) json.target = `#${transition.targets[0]!.id}`;
  else if (transition.targets.length > 1) json.target = transition.targets.map((t) => `#${t.id}`);
  if (transition.guard) json.guard = transition.guard;
  if (transition.actions.length > 0) json.actions = transition.actions;
  if (transition.reenter) json.reenter = true;
  if (transition.description) json.description = transition.description;
  return json;
}

const transitionsJson = (transitions: Transition[]): Json =>
  transitions.length === 1 ? transitionJson(transitions[0]!) : transitions.map(transitionJson);

function nodeJson(node: AnyStateNode, isRoot: boolean): { [key: string]: Json } {
  const config = node.config as { id?: string; type?: string; entry?: unknown; exit?: unknown; description?: string };
  const json: { [key: string]: Json } = {};
  if (isRoot || config.id) json.id = node.id;
  if (node.type === 'parallel' || node.type === 'final' || node.type === 'history') json.type = node.type;
  if (node.type === 'history' && node.history === 'deep') json.history = 'deep';
  const initial = initialKey(node);
  if (initial) json.initial = initial;
  if (node.description) json.description = node.description;
  if (node.tags.length > 0) json.tags = [...node.tags];
  // From the config: the node's own entry/exit also carry the timers that `after` schedules.
  const entry = [config.entry ?? []].flat().map(actionName);
  const exit = [config.exit ?? []].flat().map(actionName);
  if (entry.length > 0) json.entry = entry;
  if (exit.length > 0) json.exit = exit;
  const t = transitionsOf(node);
  if (t.invoke.length > 0) {
    const invokes = t.invoke.map((invoke) => {
      const one: { [key: string]: Json } = { id: invoke.id, src: invoke.src };
      if (invoke.onDone.length > 0) one.onDone = transitionsJson(invoke.onDone);
      if (invoke.onError.length > 0) one.onError = transitionsJson(invoke.onError);
      return one;
    });
    json.invoke = invokes.length === 1 ? invokes[0]! : invokes;
  }
  if (t.on.length > 0) json.on = Object.fromEntries(t.on.map(([event, transitions]) => [event, transitionsJson(transitions)]));
  if (t.after.length > 0) json.after = Object.fromEntries(t.after.map(([delay, transitions]) => [String(delay), transitionsJson(transitions)]));
  if (t.always.length > 0) json.always = transitionsJson(t.always);
  if (t.onDone.length > 0) json.onDone = transitionsJson(t.onDone);
  const states = children(node);
  if (states.length > 0) json.states = Object.fromEntries(states.map((child) => [child.key, nodeJson(child, false)]));
  return json;
}

export function machineJson(machine: AnyStateMachine): string {
  return `${JSON.stringify(nodeJson(machine.root, true), null, 2)}\n`;
}

// ---------------------------------------------------------------------------------------------
// Mermaid stateDiagram-v2.

// Words the stateDiagram grammar reads as keywords when they stand where a state id goes.
const MERMAID_KEYWORDS = new Set(['state', 'note', 'end', 'direction', 'class', 'classDef', 'style', 'click', 'as', 'hide', 'scale', 'default']);

function mermaidIds(machine: AnyStateMachine): Map<AnyStateNode, string> {
  const ids = new Map<AnyStateNode, string>();
  const owners = new Map<string, AnyStateNode>();
  const visit = (node: AnyStateNode) => {
    let id = node.path.length === 0 ? node.machine.id : node.path.join('_');
    id = id.replace(/[^A-Za-z0-9_]/g, '_');
    if (MERMAID_KEYWORDS.has(id) || /^\d/.test(id)) id = `s_${id}`;
    const owner = owners.get(id);
    if (owner) throw new Error(`${machine.id}: states ${owner.id} and ${node.id} would share the diagram id ${id}`);
    owners.set(id, node);
    ids.set(node, id);
    children(node).forEach(visit);
  };
  visit(machine.root);
  return ids;
}

function label(parts: (string | undefined)[]): string {
  const text = parts.filter(Boolean).join(' ');
  // `;` ends a statement, `#` starts an entity and `"` ends a state name in Mermaid.
  if (/[;#"\n]/.test(text)) throw new Error(`cannot put "${text}" in a Mermaid label`);
  return text;
}

/** One line per branch; a guardless branch after guarded ones of the same trigger is the `[else]`. */
function edgeLabels(trigger: string, transitions: Transition[]): { transition: Transition; text: string }[] {
  const guarded = transitions.some((t) => t.guard);
  return transitions.map((transition) => ({
    transition,
    text: label([trigger, transition.guard ? `[${transition.guard}]` : guarded ? '[else]' : undefined, transition.reenter ? '(reenter)' : undefined]),
  }));
}

export function machineMermaid(machine: AnyStateMachine, source: string): string {
  const ids = mermaidIds(machine);
  const idOf = (node: AnyStateNode) => ids.get(node)!;
  const root = machine.root;
  const lines = ['stateDiagram-v2', `  %% ${machine.id}: generated from ${source} by scripts/machines-diagram.ts (npm run machines:diagram)`];
  // Keyed by `source --> target`: every trigger between one pair of states shares one arrow, as
  // Mermaid would otherwise stack the arrows (and their labels) on top of each other.
  const edges = new Map<string, string[]>();

  const collectEdges = (node: AnyStateNode) => {
    const t = transitionsOf(node);
    const add = (trigger: string, transitions: Transition[]) => {
      for (const { transition, text } of edgeLabels(trigger, transitions)) {
        // A targetless transition runs its actions and stays put: drawn as a loop on its state.
        const targets = transition.targets.length > 0 ? transition.targets : [node];
        for (const target of targets) {
          const pair = `${idOf(node)} --> ${idOf(target)}`;
          edges.set(pair, [...(edges.get(pair) ?? []), text]);
        }
      }
    };
    for (const [event, transitions] of t.on) add(event, transitions);
    for (const invoke of t.invoke) {
      add(`done: ${invoke.id}`, invoke.onDone);
      add(`error: ${invoke.id}`, invoke.onError);
    }
    for (const [delay, transitions] of t.after) {
      const ms = delayMs(machine, delay);
      add(typeof delay === 'number' ? `after ${delay} ms` : ms === undefined ? `after ${delay}` : `after ${ms} ms (${delay})`, transitions);
    }
    add('always', t.always);
    add(`done: ${node.key}`, t.onDone);
    children(node).forEach(collectEdges);
  };

  const declare = (node: AnyStateNode, indent: string) => {
    const id = idOf(node);
    const name = node.type === 'history' ? `${node.key} (history)` : node.key;
    const states = children(node);
    // A bare `state x` line swallows the next line as its name: an atomic state is its id alone.
    if (states.length === 0) {
      lines.push(`${indent}${name === id ? id : `state "${label([name])}" as ${id}`}`);
      return;
    }
    lines.push(`${indent}${name === id ? `state ${id}` : `state "${label([name])}" as ${id}`} {`);
    body(node, `${indent}  `);
    lines.push(`${indent}}`);
  };

  // The inside of a compound or parallel node: its initial arrow, its children, its final arrows.
  const body = (node: AnyStateNode, indent: string) => {
    const states = children(node);
    if (node.type === 'parallel') {
      states.forEach((region, index) => {
        if (index > 0) lines.push(`${indent}--`);
        declare(region, indent);
      });
      return;
    }
    const initial = initialKey(node);
    if (initial) lines.push(`${indent}[*] --> ${idOf(node.states[initial] as AnyStateNode)}`);
    for (const child of states) declare(child, indent);
    for (const child of states) if (child.type === 'final') lines.push(`${indent}${idOf(child)} --> [*]`);
  };

  const own = transitionsOf(root);
  const rootHasTransitions = own.on.length + own.invoke.length + own.after.length + own.always.length + own.onDone.length > 0;
  // Mermaid draws regions (`--`) only inside a composite state, and a transition of the whole
  // machine needs a box to start from: then the machine itself is the outer box.
  if (root.type === 'parallel' || rootHasTransitions) {
    lines.push(`  [*] --> ${idOf(root)}`);
    declare(root, '  ');
  } else {
    body(root, '  ');
  }
  collectEdges(root);
  const arrows = [...edges].map(([pair, texts]) => `  ${pair} : ${texts.join('<br/>')}`);
  return `${[...lines, ...arrows].join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// The files.

function indexMarkdown(entries: MachineEntry[], diagrams: Map<string, string>): string {
  const out = [
    '# Machine diagrams',
    '',
    '<!-- Generated by scripts/machines-diagram.ts: do not edit; run `npm run machines:diagram`. -->',
    '',
    'Every XState machine of `src/machines`, drawn from the code. `npm run machines:diagram` rewrites this',
    'folder; `npm run machines:check` (in CI, and `tests/unit/machine-diagrams.test.ts` in `npm test`) fails',
    'when it is out of date. Arrows are labelled with the event, `[guard]`, `after N ms`, `always`, and',
    '`done: id` / `error: id` for an invoked actor; a loop is a transition that stays in its state.',
    '',
    'To open a machine in Stately Studio: create a machine, choose **Import**, and paste',
    '`createMachine(` + the contents of its `.json` file + `)`.',
    '',
    ...entries.map((entry) => `- [${entry.name}](#${entry.name.replace(/[^a-z0-9-]/gi, '').toLowerCase()}) (\`${entry.source}\`)`),
    '',
  ];
  for (const entry of entries) {
    out.push(`## ${entry.name}`, '');
    const from = `[\`${entry.source}\`](../../${entry.source})`;
    if (entry.instances) {
      out.push(
        `The factory \`${entry.exportName}\` in ${from}, drawn for one instance (id \`${entry.machine.id}\`): every`,
        `instance has this chart. The app's instances: ${entry.instances.length > 0 ? entry.instances.map(({ id, file }) => `\`${id}\` ([${file}](../../${file}))`).join(', ') : 'none'}.`,
      );
    } else {
      out.push(`\`${entry.exportName}\` in ${from}.`);
    }
    out.push('', `Files: [${entry.name}.mmd](${entry.name}.mmd), [${entry.name}.json](${entry.name}.json)`, '', '```mermaid', diagrams.get(`${entry.name}.mmd`)!.trimEnd(), '```', '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** Every file of docs/machines, by name, as the code says it should be. */
export async function renderAll(folders: Folders = {}): Promise<Map<string, string>> {
  const entries = await collectMachines(folders);
  const files = new Map<string, string>();
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.name)) throw new Error(`two machines would both be written as ${entry.name}`);
    seen.add(entry.name);
    files.set(`${entry.name}.mmd`, machineMermaid(entry.machine, entry.source));
    files.set(`${entry.name}.json`, machineJson(entry.machine));
  }
  files.set('README.md', indexMarkdown(entries, files));
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export interface Difference {
  file: string;
  problem: 'missing' | 'stale' | 'extra';
}

/** What differs between docs/machines (or `dir`) and the code. */
export async function compare(folders: Folders = {}): Promise<Difference[]> {
  const dir = folders.outputDir ?? OUTPUT_DIR;
  const expected = await renderAll(folders);
  let present: string[] = [];
  try {
    present = readdirSync(dir).sort();
  } catch {
    // No folder: every file is missing.
  }
  const differences: Difference[] = [];
  for (const [file, text] of expected) {
    if (!present.includes(file)) differences.push({ file, problem: 'missing' });
    else if (readFileSync(join(dir, file), 'utf8') !== text) differences.push({ file, problem: 'stale' });
  }
  for (const file of present) if (!expected.has(file)) differences.push({ file, problem: 'extra' });
  return differences;
}

export async function write(folders: Folders = {}): Promise<{ written: number; removed: string[] }> {
  const dir = folders.outputDir ?? OUTPUT_DIR;
  const expected = await renderAll(folders);
  mkdirSync(dir, { recursive: true });
  // The folder is generated whole: a file no machine produces any more goes.
  const removed = readdirSync(dir).filter((file) => !expected.has(file)).sort();
  for (const file of removed) rmSync(join(dir, file), { recursive: true, force: true });
  for (const [file, text] of expected) writeFileSync(join(dir, file), text);
  return { written: expected.size, removed };
}

async function main() {
  const shown = repoPath(OUTPUT_DIR);
  if (process.argv.includes('--check')) {
    const differences = await compare();
    if (differences.length === 0) {
      console.log(`${shown} is up to date with src/machines`);
      return;
    }
    console.error(`${shown} is out of date with src/machines (run npm run machines:diagram):`);
    for (const { file, problem } of differences) console.error(`  ${problem.padEnd(7)} ${shown}/${file}`);
    process.exitCode = 1;
    return;
  }
  const { written, removed } = await write();
  console.log(`wrote ${written} files to ${shown}${removed.length > 0 ? `; removed ${removed.join(', ')}` : ''}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
