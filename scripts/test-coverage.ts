// `npm run test:coverage`: line and branch coverage of the source (src/, server/) by `npm test` and
// `npm run test:model` together, as JSON. Runs both with V8 coverage into .tmp/coverage/<run>, then
// adds their counts up file by file (`-- --merge-only DIR…` adds up existing coverage-final.json
// folders instead, to compare two checkouts' figures).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

interface Location {
  start: { line: number };
}
interface FileCoverage {
  statementMap: Record<string, Location>;
  s: Record<string, number>;
  branchMap: Record<string, unknown>;
  b: Record<string, number[]>;
  fnMap: Record<string, unknown>;
  f: Record<string, number>;
}

const args = process.argv.slice(2);
let dirs: string[];
let failed = false;
if (args[0] === '--merge-only') {
  dirs = args.slice(1);
} else {
  const out = path.resolve('.tmp/coverage');
  rmSync(out, { recursive: true, force: true });
  dirs = [];
  for (const [run, config] of [
    ['default', 'vitest.config.ts'],
    ['model', 'vitest.model.config.ts'],
  ] as const) {
    const dir = path.join(out, run);
    dirs.push(dir);
    const result = spawnSync(
      path.resolve('node_modules/.bin/vitest'),
      [
        'run',
        '--config',
        config,
        '--reporter=dot',
        // A file in a process of its own, whatever the config says: V8's counts are unreliable
        // across the files of one process (lines that ran are reported missed), and what the tests
        // exercise does not depend on how they share processes.
        '--isolate',
        '--coverage.enabled',
        '--coverage.provider=v8',
        '--coverage.include=src/**/*.{ts,tsx}',
        '--coverage.include=server/**/*.ts',
        '--coverage.exclude=tests/**',
        '--coverage.reportOnFailure',
        '--coverage.reporter=json',
        `--coverage.reportsDirectory=${dir}`,
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    if (result.status !== 0) failed = true;
  }
}

/** Every run's counts added up per file; the maps are the same source's, so ids line up. */
const merged = new Map<string, FileCoverage>();
for (const dir of dirs) {
  const file = path.join(dir, 'coverage-final.json');
  if (!existsSync(file)) throw new Error(`No coverage in ${dir}`);
  for (const [name, coverage] of Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, FileCoverage>)) {
    // The source only: an older run's include also matched the test helpers under tests/server.
    if (name.includes('/tests/')) continue;
    const into = merged.get(name);
    if (!into) {
      merged.set(name, structuredClone(coverage));
      continue;
    }
    for (const id of Object.keys(coverage.s)) into.s[id] = (into.s[id] ?? 0) + coverage.s[id]!;
    for (const id of Object.keys(coverage.f)) into.f[id] = (into.f[id] ?? 0) + coverage.f[id]!;
    for (const id of Object.keys(coverage.b)) into.b[id] = coverage.b[id]!.map((n, arm) => n + (into.b[id]?.[arm] ?? 0));
  }
}

let lines = 0;
let linesHit = 0;
let branches = 0;
let branchesHit = 0;
let functions = 0;
let functionsHit = 0;
for (const coverage of merged.values()) {
  // A line counts as covered when any statement starting on it ran (istanbul's line coverage).
  const byLine = new Map<number, boolean>();
  for (const [id, location] of Object.entries(coverage.statementMap)) {
    const line = location.start.line;
    byLine.set(line, (byLine.get(line) ?? false) || (coverage.s[id] ?? 0) > 0);
  }
  lines += byLine.size;
  linesHit += [...byLine.values()].filter(Boolean).length;
  for (const arms of Object.values(coverage.b)) {
    branches += arms.length;
    branchesHit += arms.filter((n) => n > 0).length;
  }
  functions += Object.keys(coverage.f).length;
  functionsHit += Object.values(coverage.f).filter((n) => n > 0).length;
}
const percent = (hit: number, total: number) => Math.round((hit / Math.max(1, total)) * 10_000) / 100;
console.log(
  JSON.stringify(
    {
      runs: dirs,
      files: merged.size,
      lines: { covered: linesHit, total: lines, percent: percent(linesHit, lines) },
      branches: { covered: branchesHit, total: branches, percent: percent(branchesHit, branches) },
      functions: { covered: functionsHit, total: functions, percent: percent(functionsHit, functions) },
    },
    null,
    2,
  ),
);
process.exit(failed ? 1 : 0);
