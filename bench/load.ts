// Load: the API on a real HTTP listener (127.0.0.1, an ephemeral port, nothing reachable from
// outside) under N keep-alive connections for a fixed time, with a mixed workload of 70 % reads
// (customer search, terminals pages, dashboard, a customer's month usage, subscriptions) and 30 %
// writes (create and update customers, assign and unassign service lines), on PGlite in a fresh
// on-disk directory and on a fresh database of a PostgreSQL server. It stops by itself at the
// duration (a safety limit cuts every socket if answers stop coming), then checks that every
// acknowledged write is in the database. Prints one JSON object per database, one a line:
// requests, rps, errors, latency p50/p95/p99/max, the same per operation, writes acknowledged
// and verified. Exits 1 on any error or unaccounted write.
//
//   npm run bench:load                                   (100 connections, 60 s, both databases)
//   npm run bench:load -- --connections 20 --duration 10 --only pglite
//   BENCH_DATABASE_URL=postgres://… npm run bench:load    (else TEST_DATABASE_URL, else
//                                                          postgres://postgres@127.0.0.1:5432/test;
//                                                          skipped with a note when unreachable)
//
// (BENCH_ONLY=pglite or BENCH_ONLY=postgres works as --only does.) The clients run in this
// process, so their own work shares the one thread with the server and, on PGlite, with the
// database itself. PGlite runs its queries synchronously on that thread, so under load it answers
// in waves of everything queued, and its percentiles sit close together near a wave's length.
//
// Not a test: figures depend on the machine. tests/server/load-smoke.test.ts runs the same code
// briefly so it cannot rot.
import { parseArgs } from 'node:util';
import { DEFAULT_POSTGRES_URL, openEmbedded, openServerDatabase, type LoadDatabase } from './load/databases';
import { loadFailed, runLoad, type LoadOptions } from './load/run';
import { UsageError } from './cli';

const USAGE = 'usage: tsx bench/load.ts [--connections 100] [--duration 60] [--lines 2000] [--only pglite|postgres]';

function positive(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value.replace(/s$/, ''));
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`--${name} must be a whole number from 1 to ${max}\n${USAGE}`);
  return n;
}

function options() {
  let values: { connections?: string; duration?: string; lines?: string; only?: string };
  try {
    ({ values } = parseArgs({
      options: { connections: { type: 'string' }, duration: { type: 'string' }, lines: { type: 'string' }, only: { type: 'string' } },
    }));
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  const only = values.only ?? process.env.BENCH_ONLY;
  if (only !== undefined && only !== 'pglite' && only !== 'postgres') throw new UsageError(`--only must be pglite or postgres\n${USAGE}`);
  const load: LoadOptions = {
    connections: positive('connections', values.connections, 100, 1_000),
    durationMs: positive('duration', values.duration, 60, 3_600) * 1000,
    lines: positive('lines', values.lines, 2_000, 1_000_000),
  };
  return { load, only };
}

async function onDatabase(label: string, open: () => Promise<LoadDatabase>, load: LoadOptions): Promise<boolean> {
  let opened: LoadDatabase;
  try {
    opened = await open();
  } catch (error) {
    console.log(JSON.stringify({ database: label, skipped: `not reachable: ${error instanceof Error ? error.message : String(error)}` }));
    return true;
  }
  try {
    const { report } = await runLoad(opened.database, { ...load, label });
    console.log(JSON.stringify({ benchmark: 'load', node: process.version, ...report }));
    return !loadFailed(report);
  } finally {
    await opened.drop();
  }
}

async function main(): Promise<void> {
  const { load, only } = options();
  // The last resort if closing hangs: the run's own safety limit has already cut the sockets.
  const hardStop = setTimeout(
    () => {
      console.error('load: still running long after its duration; giving up');
      process.exit(1);
    },
    2 * load.durationMs + 300_000,
  );
  hardStop.unref();

  const serverUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || DEFAULT_POSTGRES_URL;
  let ok = true;
  if (only !== 'postgres') ok = (await onDatabase('PGlite (on disk)', openEmbedded, load)) && ok;
  if (only !== 'pglite') ok = (await onDatabase('PostgreSQL', () => openServerDatabase(serverUrl), load)) && ok;
  process.exitCode = ok ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof UsageError ? error.message : error);
  process.exit(1);
});
