// `npm run test:profile [-- --runs default,model,e2e] [--top N] [vitest filters…]`: runs the test
// commands with the profile reporter (tests/profile/reporter.ts) and prints, as JSON, each run's wall
// time and, per tier, the summed parts and the slowest files with what dominates each (environment,
// import, set-up file, database set-up, other hooks, the test bodies). Runs: `default` is `npm test`,
// `model` is `npm run test:model`, `e2e` the browser journeys (needs a build and Chromium).
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { readProfile, type FileProfile } from '../tests/profile/reporter';

const CONFIGS: Record<string, string> = {
  default: 'vitest.config.ts',
  model: 'vitest.model.config.ts',
  e2e: 'vitest.e2e.config.ts',
};

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  if (at === -1) return undefined;
  const [, value] = args.splice(at, 2);
  return value;
};
const runs = (option('--runs') ?? 'default,model').split(',').filter(Boolean);
const top = Number(option('--top') ?? 10);
for (const run of runs) if (!CONFIGS[run]) throw new Error(`Unknown run "${run}": one of ${Object.keys(CONFIGS).join(', ')}`);

const out = path.resolve('.tmp/profile');
rmSync(out, { recursive: true, force: true });

type Parts = FileProfile['parts'];
const sumParts = (files: FileProfile[]): Parts & { wall: number } => {
  const total = { wall: 0, environment: 0, import: 0, setupFile: 0, bodies: 0, hooks: 0, database: 0 };
  for (const file of files) {
    total.wall += file.wall;
    for (const key of Object.keys(file.parts) as (keyof Parts)[]) total[key] += file.parts[key];
  }
  return total;
};
const seconds = (ms: number) => Math.round(ms / 100) / 10;
const inSeconds = <T extends Record<string, number>>(figures: T) => Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, seconds(v)]));

const report: Record<string, unknown> = { machine: { cores: (await import('node:os')).availableParallelism(), node: process.version }, units: 'seconds', runs: {} };
let failed = false;
for (const run of runs) {
  const dir = path.join(out, run);
  mkdirSync(dir, { recursive: true });
  const output = path.join(dir, 'report.json');
  const started = performance.now();
  const result = spawnSync(
    path.resolve('node_modules/.bin/vitest'),
    ['run', '--config', CONFIGS[run]!, '--reporter=dot', '--reporter=./tests/profile/reporter.ts', ...args],
    // The runs' own output goes to stderr, so stdout is the JSON alone (`npm run -s test:profile > profile.json`).
    { stdio: ['ignore', 2, 2], env: { ...process.env, TEST_PROFILE_DIR: dir, PROFILE_OUTPUT: output } },
  );
  const wall = performance.now() - started;
  if (result.status !== 0) failed = true;
  const profile = readProfile(output);
  const files = profile?.files ?? [];
  const tiers = [...new Set(files.map((file) => file.tier))].sort();
  (report.runs as Record<string, unknown>)[run] = {
    wall: seconds(wall),
    exitCode: result.status,
    tiers: Object.fromEntries(
      tiers.map((tier) => {
        const own = files.filter((file) => file.tier === tier).sort((a, b) => b.wall - a.wall);
        return [
          tier,
          {
            files: own.length,
            tests: own.reduce((n, file) => n + file.tests, 0),
            // Summed over the workers: with two workers the run's wall is about half of this.
            summed: inSeconds(sumParts(own)),
            slowest: own.slice(0, top).map((file) => ({ file: file.file, wall: seconds(file.wall), dominant: file.dominant, ...inSeconds(file.parts) })),
          },
        ];
      }),
    ),
  };
}
console.log(JSON.stringify(report, null, 2));
process.exit(failed ? 1 : 0);
