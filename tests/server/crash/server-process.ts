// The real server entry (server/server.ts) as a child process, the way an operator runs it: started
// from the environment, ready when it prints "Portal ready at", and stopped with SIGKILL (a crash)
// or SIGTERM (the graceful close).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const READY = /Portal ready at (\S+) \((embedded database|PostgreSQL), schema v(\d+), started in ([\d.]+) s\)/;
/** Start-up output kept for failure messages; the tail is what explains a failed start. */
const OUTPUT_KEPT = 20_000;

export interface ServerProcess {
  pid: number;
  baseUrl: string;
  schemaVersion: number;
  /** From spawn to the ready line, as this harness saw it (includes node + tsx start). */
  startMs: number;
  /** Everything it printed so far (stdout and stderr interleaved, trimmed to the last 20 kB). */
  output(): string;
  kill(): Promise<void>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
  readonly exited: boolean;
}

/**
 * Only what the server reads: no TEST_DATABASE_URL, STARLINK_* or vitest variables leak into the
 * child, so it takes the built-in simulator and exactly the database it is given.
 */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited: NodeJS.ProcessEnv = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ']) {
    if (process.env[key] !== undefined) inherited[key] = process.env[key];
  }
  return { ...inherited, ...env };
}

/** `onOutput` sees everything the server prints, beyond the last 20 kB `output()` keeps. */
export function startServer(env: Record<string, string>, options: { timeoutMs?: number; onOutput?: (text: string) => void } = {}): Promise<ServerProcess> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const started = performance.now();
  // A test's server lives seconds: with V8's baseline compiler alone (as the server tier's own
  // workers run), a start took 3.2–3.9 s of CPU instead of 5.8–7 s, most of it the embedded
  // database's WebAssembly.
  const child: ChildProcess = spawn(process.execPath, ['--liftoff-only', '--import', 'tsx', 'server/server.ts'], {
    cwd: REPO_ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let exited = false;
  const exit = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      exited = true;
      resolve(code);
    });
  });
  const append = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output = (output + text).slice(-OUTPUT_KEPT);
    options.onOutput?.(text);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);

  return new Promise<ServerProcess>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The server did not get ready within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    void exit.then((code) => {
      clearTimeout(timer);
      reject(new Error(`The server exited (code ${code}) before it was ready:\n${output}`));
    });
    const onData = () => {
      const match = READY.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      const server: ServerProcess = {
        pid: child.pid!,
        baseUrl: match[1]!,
        schemaVersion: Number(match[3]),
        startMs: Math.round(performance.now() - started),
        output: () => output,
        async kill() {
          if (exited) return;
          child.kill('SIGKILL');
          await exit;
        },
        async stop() {
          if (exited) return exit;
          child.kill('SIGTERM');
          return exit;
        },
        get exited() {
          return exited;
        },
      };
      resolve(server);
    };
    child.stdout!.on('data', onData);
  });
}
