// Prints the model coverage table after `npm run test:model`: per machine, the paths walked and
// the states reached and transitions taken, for the machine run and the UI run.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Reporter } from 'vitest/node';
import { COVERAGE_DIR, type RunCoverage } from './coverage';

const ratio = (done: number, total: number, excluded: number) => {
  const percent = total === 0 ? 100 : Math.floor(((done + excluded) / total) * 100);
  return `${done}/${total}${excluded ? ` (+${excluded} excl.)` : ''} ${percent}%`;
};

export function coverageTable(results: RunCoverage[]): string {
  const byMachine = new Map<string, Partial<Record<RunCoverage['run'], RunCoverage>>>();
  for (const result of results) byMachine.set(result.machine, { ...byMachine.get(result.machine), [result.run]: result });
  const header = ['machine', 'machine run: paths', 'states', 'transitions', 'UI run: paths', 'states', 'transitions'];
  const rows = [...byMachine.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, runs]) => [
      name,
      ...(['machine', 'ui'] as const).flatMap((run) => {
        const r = runs[run];
        if (!r) return ['—', 'not run', 'not run'];
        return [String(r.paths), ratio(r.states.total - r.states.missing.length - r.states.excluded.length, r.states.total, r.states.excluded.length), ratio(r.transitions.total - r.transitions.missing.length - r.transitions.excluded.length, r.transitions.total, r.transitions.excluded.length)];
      }),
    ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export default class ModelCoverageReporter implements Reporter {
  onInit(): void {
    rmSync(COVERAGE_DIR, { recursive: true, force: true });
  }

  onTestRunEnd(): void {
    if (!existsSync(COVERAGE_DIR)) return;
    const results = readdirSync(COVERAGE_DIR)
      .filter((file) => file.endsWith('.json'))
      .map((file) => JSON.parse(readFileSync(path.join(COVERAGE_DIR, file), 'utf8')) as RunCoverage);
    console.log(`\nModel-based path coverage (states reached, chart transitions taken)\n\n${coverageTable(results)}\n`);
    const seed = process.env.MODEL_SEED;
    if (process.env.MODEL_PATHS === 'full') console.log('Paths: every path the graph finds (MODEL_PATHS=full).\n');
    else if (seed) console.log(`Paths: the covering set and walks sampled with seed ${seed}; MODEL_SEED=${seed} npm run test:model replays them.\n`);
  }
}
