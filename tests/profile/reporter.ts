// `npm run test:profile`'s reporter: for every test file, where its wall time went — Vitest's own
// parts (environment, import, setup file), the test bodies, the hooks around them, and of those
// hooks the time spent opening and migrating databases (recorded by tests/profile/record.ts). Writes
// one JSON report per run to PROFILE_OUTPUT, which scripts/test-profile.ts adds up.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { PROFILE_DIR_ENV, readDatabaseSetups } from './record';

export interface FileProfile {
  file: string;
  tier: string;
  tests: number;
  /** Milliseconds, each part of `wall`. */
  wall: number;
  parts: { environment: number; import: number; setupFile: number; bodies: number; hooks: number; database: number };
  /** The largest part ('hooks' less the database time; 'database' on its own). */
  dominant: string;
}

const round = (ms: number) => Math.round(ms);

export function profileOf(module: TestModule, databaseMs: number, root: string): FileProfile {
  const diagnostic = module.diagnostic();
  let bodies = 0;
  let tests = 0;
  for (const test of module.children.allTests()) {
    tests++;
    bodies += test.diagnostic()?.duration ?? 0;
  }
  // `duration` holds every test and hook of the file; what the bodies do not account for ran in hooks.
  const hooksAndDatabase = Math.max(0, diagnostic.duration - bodies);
  const database = Math.min(databaseMs, hooksAndDatabase + bodies);
  const parts = {
    environment: round(diagnostic.environmentSetupDuration),
    import: round(diagnostic.collectDuration),
    setupFile: round(diagnostic.setupDuration),
    // A database opened inside a test counts as database time, not as the test body's.
    bodies: round(Math.max(0, bodies - Math.max(0, database - hooksAndDatabase))),
    hooks: round(Math.max(0, hooksAndDatabase - database)),
    database: round(database),
  };
  const dominant = Object.entries(parts).sort((a, b) => b[1] - a[1])[0]![0];
  const wall = diagnostic.environmentSetupDuration + diagnostic.prepareDuration + diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration;
  return { file: path.relative(root, module.moduleId), tier: module.project.name || 'default', tests, wall: round(wall), parts, dominant };
}

export default class ProfileReporter implements Reporter {
  private readonly files: FileProfile[] = [];
  private started = 0;
  private root = process.cwd();

  onInit(vitest: { config: { root: string } }): void {
    this.started = performance.now();
    this.root = vitest.config.root;
  }

  onTestRunEnd(modules: readonly TestModule[]): void {
    const databaseByFile = readDatabaseSetups(process.env[PROFILE_DIR_ENV]);
    for (const module of modules) this.files.push(profileOf(module, databaseByFile.get(module.moduleId) ?? 0, this.root));
    const output = process.env.PROFILE_OUTPUT;
    const report = { wallMs: round(performance.now() - this.started), files: this.files };
    if (output) writeFileSync(output, JSON.stringify(report));
    else console.log(JSON.stringify(report));
  }
}

export function readProfile(file: string): { wallMs: number; files: FileProfile[] } | null {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { wallMs: number; files: FileProfile[] }) : null;
}
