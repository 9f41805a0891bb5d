// docs/machines is what scripts/machines-diagram.ts makes of src/machines today (so `npm test`
// fails on a stale or missing diagram), every exported machine has one, the Mermaid of the login
// machine shows its states and labelled transitions, and each JSON file is a config createMachine
// accepts with the same chart as the code.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMachine, StateMachine, type AnyStateMachine, type AnyStateNode } from 'xstate';
import { collectMachines, compare, MACHINES_DIR, OUTPUT_DIR, renderAll, write } from '../../scripts/machines-diagram';

const read = (file: string) => readFileSync(join(OUTPUT_DIR, file), 'utf8');

/** `source --> target : label` lines, one per trigger (an arrow carries several joined by <br/>). */
function arrows(mermaid: string): string[] {
  return mermaid
    .split('\n')
    .map((line) => line.trim())
    .flatMap((line) => {
      const match = /^(\S+ --> \S+)(?: : (.*))?$/.exec(line);
      if (!match) return [];
      return match[2] === undefined ? [match[1]!] : match[2].split('<br/>').map((text) => `${match[1]} : ${text}`);
    });
}

/** Per state node: each event it handles and where each branch goes, with the guard's name. */
function chart(machine: AnyStateMachine): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const visit = (node: AnyStateNode) => {
    const branches: string[] = [];
    for (const [event, transitions] of node.transitions) {
      for (const t of transitions) {
        const guard = typeof t.guard === 'string' ? t.guard : (t.guard as { type?: string } | undefined)?.type;
        branches.push(`${event} -> ${(t.target ?? []).map((s) => s.id).join(',')} [${guard ?? ''}]${t.reenter ? ' reenter' : ''}`);
      }
    }
    for (const t of node.always ?? []) branches.push(`always -> ${(t.target ?? []).map((s) => s.id).join(',')}`);
    out[`${node.id} (${node.type}${node.tags.length ? `: ${node.tags.join(',')}` : ''})`] = branches;
    Object.values(node.states).forEach((child) => visit(child as AnyStateNode));
  };
  visit(machine.root);
  return out;
}

describe('machine diagrams', () => {
  // What the generator makes now: the checks below look at it, not at the committed copy, so a
  // broken generator fails them even before anyone regenerates.
  let generated: Map<string, string>;
  const made = (file: string) => generated.get(file) ?? '';
  beforeAll(async () => {
    generated = await renderAll();
  });

  it('docs/machines is byte for byte what the generator makes of src/machines (run npm run machines:diagram)', async () => {
    expect(await compare()).toEqual([]);
  });

  it('every machine exported from src/machines has a diagram and a JSON file', async () => {
    const entries = await collectMachines();
    const files = readdirSync(OUTPUT_DIR);
    let machines = 0;
    for (const file of readdirSync(MACHINES_DIR).filter((f) => f.endsWith('.ts'))) {
      const module = (await import(pathToFileURL(join(MACHINES_DIR, file)).href)) as Record<string, unknown>;
      for (const [exportName, value] of Object.entries(module)) {
        const isMachine = value instanceof StateMachine;
        const isFactory = typeof value === 'function' && /^create\w*Machine$/.test(exportName);
        if (!isMachine && !isFactory) continue;
        machines += 1;
        const entry = entries.find((e) => e.source === `src/machines/${file}` && e.exportName === exportName);
        expect(entry, `${file} ${exportName}`).toBeDefined();
        if (isMachine) expect(entry!.machine).toBe(value);
        expect(files).toContain(`${entry!.name}.mmd`);
        expect(files).toContain(`${entry!.name}.json`);
        expect(read('README.md')).toContain(`## ${entry!.name}\n`);
      }
    }
    // 15 machines and two factories (list, resource) when this was written; fewer means the search broke.
    expect(machines).toBeGreaterThanOrEqual(17);
    expect(entries).toHaveLength(machines);
  });

  it('the login diagram shows every state and the labelled transitions between them', () => {
    const mermaid = made('login.mmd');
    expect(mermaid.startsWith('stateDiagram-v2\n')).toBe(true);
    // The code step is a composite state with its own initial state.
    expect(mermaid).toMatch(/\n {2}state code \{\n {4}\[\*\] --> code_entering\n {4}state "entering" as code_entering\n {4}state "verifying" as code_verifying\n {2}\}\n/);
    for (const state of ['idle', 'adminAttempt', 'customerAttempt', 'failed', 'signedIn']) expect(mermaid).toMatch(new RegExp(`^ {2}${state}$`, 'm'));
    expect(arrows(mermaid)).toEqual(
      expect.arrayContaining([
        '[*] --> idle',
        'signedIn --> [*]',
        'idle --> adminAttempt : user.submit',
        'adminAttempt --> signedIn : done: adminLogin [isSignedIn]',
        'adminAttempt --> code : done: adminLogin [isMfaRequired]',
        'adminAttempt --> customerAttempt : done: adminLogin [else]',
        'adminAttempt --> failed : error: adminLogin',
        'customerAttempt --> failed : done: customerLogin [else]',
        'code_entering --> code_verifying : user.submitCode [isCodeWellFormed]',
        // Targetless: the code is stored and the step stays.
        'code_entering --> code_entering : user.code',
        'code_entering --> idle : user.back',
        'code_verifying --> failed : done: verifyLoginCode [isChallengeExpired]',
        'code_verifying --> code_entering : error: verifyLoginCode',
        'failed --> adminAttempt : user.submit',
      ]),
    );
  });

  it('delays, eventless transitions and parallel regions are drawn', () => {
    const sync = made('terminal-sync.mmd');
    expect(arrows(sync)).toContain('running_waiting --> running_polling : after 10000 ms (pollInterval)');
    expect(arrows(sync)).toContain('running --> idle : after 300000 ms (pollTimeout)');
    // A transition of the whole machine starts from the machine's own box.
    expect(arrows(sync)).toContain('terminalSync --> terminalSync : user.dismissNotice [hasNotice]');
    expect(arrows(made('customer-create.mmd')).some((a) => / : always \[isValid\]$/.test(a))).toBe(true);
    const list = made('list.mmd');
    expect(list).toMatch(/ {2}state list \{\n {4}state data \{[\s\S]*\n {4}\}\n {4}--\n {4}state searchBox \{/);
    expect(arrows(list)).toContain('searchBox_debouncing --> searchBox_idle : after 300 ms (searchDebounce)');
  });

  it("each JSON file is a createMachine config with the code's states, events, targets and guards", async () => {
    for (const entry of await collectMachines()) {
      const json = made(`${entry.name}.json`);
      expect(json.endsWith('}\n')).toBe(true);
      const imported = createMachine(JSON.parse(json) as Parameters<typeof createMachine>[0]);
      expect(chart(imported), entry.name).toEqual(chart(entry.machine));
    }
  });

  it('the index embeds every diagram for GitHub and says how to import the JSON into Stately', () => {
    const index = made('README.md');
    for (const file of [...generated.keys()].filter((f) => f.endsWith('.mmd'))) {
      expect(index).toContain(`\`\`\`mermaid\n${made(file)}\`\`\``);
      expect(index).toContain(`(${file})`);
    }
    expect(index).toContain('Stately Studio');
    expect(index).toMatch(/`customers` \(\[src\/routes\/customers\.tsx\]/);
  });
});

describe('the check', () => {
  // Inside the repository (.tmp is git-ignored) so the scratch machine resolves `xstate` from node_modules.
  const tmp = fileURLToPath(new URL('../../.tmp', import.meta.url));
  mkdirSync(tmp, { recursive: true });
  const scratch = mkdtempSync(join(tmp, 'machine-diagrams-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const machineFile = (name: string, body: string) => {
    const dir = join(scratch, name);
    mkdirSync(join(dir, 'machines'), { recursive: true });
    writeFileSync(join(dir, 'machines', 'toggle.ts'), `import { createMachine } from 'xstate';\n${body}\n`);
    return { machinesDir: join(dir, 'machines'), outputDir: join(dir, 'docs') };
  };

  it('names a new machine without diagrams, a stale file and an extra one, and passes once regenerated', async () => {
    const folders = machineFile(
      'new',
      "export const toggleMachine = createMachine({ id: 'toggle', initial: 'off', states: { off: { on: { 'user.toggle': 'on' } }, on: { after: { 1000: 'off' } } } });",
    );
    expect(await compare(folders)).toEqual([
      { file: 'README.md', problem: 'missing' },
      { file: 'toggle.json', problem: 'missing' },
      { file: 'toggle.mmd', problem: 'missing' },
    ]);
    await write(folders);
    expect(await compare(folders)).toEqual([]);
    expect(readFileSync(join(folders.outputDir, 'toggle.mmd'), 'utf8')).toContain('on --> off : after 1000 ms');

    writeFileSync(join(folders.outputDir, 'toggle.mmd'), 'stateDiagram-v2\n');
    writeFileSync(join(folders.outputDir, 'gone.mmd'), '');
    expect(await compare(folders)).toEqual([
      { file: 'toggle.mmd', problem: 'stale' },
      { file: 'gone.mmd', problem: 'extra' },
    ]);
    expect((await write(folders)).removed).toEqual(['gone.mmd']);
    expect(await compare(folders)).toEqual([]);
  });

  it('refuses a machine factory it has no representative instance for', async () => {
    const folders = machineFile('factory', "export function createToggleMachine(id: string) { return createMachine({ id, initial: 'off', states: { off: {} } }); }");
    await expect(compare(folders)).rejects.toThrow(/exports the machine factory createToggleMachine/);
  });
});
