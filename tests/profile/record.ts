// Where a profiled run (`npm run test:profile`) keeps the time each test file spent opening and
// migrating its databases: one line per database, appended by the worker that opened it, read by
// the reporter at the end. Outside a profiled run (the variable unset) nothing is written.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';

export const PROFILE_DIR_ENV = 'TEST_PROFILE_DIR';
const FILE = 'database-setups.ndjson';

/** Times `open` and records it against the running test file. */
export async function timedDatabaseSetup<T>(open: () => Promise<T>): Promise<T> {
  const dir = process.env[PROFILE_DIR_ENV];
  if (!dir) return open();
  const started = performance.now();
  try {
    return await open();
  } finally {
    const file = expect.getState().testPath ?? 'unknown';
    appendFileSync(path.join(dir, FILE), `${JSON.stringify({ file, ms: performance.now() - started })}\n`);
  }
}

/** Milliseconds of database set-up per test file (absolute path). */
export function readDatabaseSetups(dir: string | undefined): Map<string, number> {
  const totals = new Map<string, number>();
  if (!dir || !existsSync(path.join(dir, FILE))) return totals;
  for (const line of readFileSync(path.join(dir, FILE), 'utf8').split('\n')) {
    if (!line) continue;
    const { file, ms } = JSON.parse(line) as { file: string; ms: number };
    totals.set(file, (totals.get(file) ?? 0) + ms);
  }
  return totals;
}
