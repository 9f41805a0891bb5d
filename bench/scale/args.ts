// The command line of bench/scale.ts, checked up front: a bad value stops the run with the usage
// text (exit 2) before any database, process or worktree exists.
import { parseArgs } from 'node:util';

import { UsageError } from '../cli';

export { UsageError };

export const USAGE = [
  'usage: tsx bench/scale.ts [--pg-terminals 100000] [--pglite-terminals 10000] [--only pglite|postgres]',
  '                          [--samples 20] [--connections 10] [--duration 5] [--customers N] [--baseline <git rev>]',
  '                          [--workers N] [--no-sync-pass] [--accounts N] [--keep] [--first-inventory-only]',
  '  --pg-terminals, --pglite-terminals  fleet size of the simulator for each database (1 to 1000000)',
  '  --only            run one of the two databases',
  '  --samples         timed sequential requests per page (after 3 warm-up requests), 1 to 10000',
  '  --connections     keep-alive connections of the throughput runs, 1 to 1000',
  '  --duration        seconds of each throughput run, 1 to 600',
  '  --customers       customers created in the fill (default: one per 100 terminals, at least 10)',
  '  --baseline        also run the server of this commit on a copy of the same database, side by side',
  '  --workers         PostgreSQL: also measure the throughput of the current server run with WORKERS=N (2 to 64)',
  '  --no-sync-pass    leave out the latency pass while a sync writes (a small fleet\'s runs end before a page can be timed under them)',
  '  --accounts        PostgreSQL only (the PGlite pass keeps one account): N provider accounts (1 to 50, default 1),',
  '                    each with a simulator of its own holding --pg-terminals / N terminals. With --baseline, the',
  '                    current server fills (the budgets judge its calls) and the baseline, which must have provider',
  '                    accounts and the same migrations, runs on a copy.',
  '                    Also times the Terminals list of one account and the Provider accounts page, and checks that',
  '                    no account\'s provider calls exceed its own budget in any minute',
  '                    e.g. --only postgres --accounts 10 --pg-terminals 100000   (10 accounts × 10,000 terminals)',
  '  --keep            PostgreSQL: keep the filled database at the end and print its URL, to look at its query plans',
  '                    (a large fill takes most of an hour); drop it by hand afterwards',
  '  --first-inventory-only  one account: only the first inventory run into a fresh database, the Subscriptions',
  '                    page timed while it writes (with --baseline, each server on a fresh database of its own);',
  '                    minutes where the whole fill takes most of an hour, e.g. --only postgres --first-inventory-only',
].join('\n');

export type DatabaseKind = 'postgres' | 'pglite';

export interface ScaleOptions {
  terminals: Record<DatabaseKind, number>;
  databases: DatabaseKind[];
  samples: number;
  warmUp: number;
  connections: number;
  durationMs: number;
  /** PostgreSQL: the current server's throughput again with WORKERS=N (null: not measured). */
  workers: number | null;
  /** null: one per 100 terminals, at least 10. */
  customers: number | null;
  baseline: string | null;
  /** Time the pages while a sync writes (off with --no-sync-pass). */
  syncPass: boolean;
  /** PostgreSQL: provider accounts, each with its own simulator of terminals.postgres / accounts terminals (1: one, as before). */
  accounts: number;
  /** PostgreSQL: the filled database is kept at the end (its URL printed) instead of dropped. */
  keep: boolean;
  /** Only the first inventory run, the Subscriptions page timed while it writes (one account). */
  firstInventoryOnly: boolean;
}

function wholeNumber(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value.trim().replace(/_/g, ''));
  if (!/^\s*[\d_]+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${value}"\n${USAGE}`);
  }
  return n;
}

export function parseOptions(argv: string[]): ScaleOptions {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'pg-terminals': { type: 'string' },
        'pglite-terminals': { type: 'string' },
        only: { type: 'string' },
        samples: { type: 'string' },
        connections: { type: 'string' },
        duration: { type: 'string' },
        customers: { type: 'string' },
        baseline: { type: 'string' },
        workers: { type: 'string' },
        'no-sync-pass': { type: 'boolean' },
        accounts: { type: 'string' },
        keep: { type: 'boolean' },
        'first-inventory-only': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  if (values.help) throw new UsageError(USAGE);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"\n${USAGE}`);
  const str = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);

  const only = str('only');
  if (only !== undefined && only !== 'pglite' && only !== 'postgres') throw new UsageError(`--only must be pglite or postgres, got "${only}"\n${USAGE}`);
  const baseline = str('baseline');
  // Passed to git as an argument, never through a shell; still, a rev never starts with a dash.
  if (baseline !== undefined && (baseline.trim() === '' || baseline.startsWith('-') || /\s/.test(baseline))) {
    throw new UsageError(`--baseline must be a git revision (a commit, tag or branch), got "${baseline}"\n${USAGE}`);
  }
  const accounts = wholeNumber('accounts', str('accounts'), 1, 1, 50);
  const firstInventoryOnly = values['first-inventory-only'] === true;
  if (firstInventoryOnly && accounts > 1) throw new UsageError(`--first-inventory-only times one account's first run; leave out --accounts\n${USAGE}`);
  const pgTerminals = wholeNumber('pg-terminals', str('pg-terminals'), 100_000, 1, 1_000_000);
  if (accounts > 1 && pgTerminals < accounts) throw new UsageError(`--pg-terminals (${pgTerminals}) must be at least --accounts (${accounts}): each account holds a share\n${USAGE}`);
  return {
    terminals: {
      postgres: pgTerminals,
      pglite: wholeNumber('pglite-terminals', str('pglite-terminals'), 10_000, 1, 1_000_000),
    },
    // PGlite first: it is the smaller fill, so a broken set-up shows itself early.
    databases: only === 'pglite' ? ['pglite'] : only === 'postgres' ? ['postgres'] : ['pglite', 'postgres'],
    samples: wholeNumber('samples', str('samples'), 20, 1, 10_000),
    warmUp: 3,
    connections: wholeNumber('connections', str('connections'), 10, 1, 1_000),
    durationMs: wholeNumber('duration', str('duration')?.replace(/s$/, ''), 5, 1, 600) * 1000,
    customers: str('customers') === undefined ? null : wholeNumber('customers', str('customers'), 10, 1, 100_000),
    baseline: baseline ?? null,
    workers: str('workers') === undefined ? null : wholeNumber('workers', str('workers'), 2, 2, 64),
    syncPass: values['no-sync-pass'] !== true,
    accounts,
    keep: values.keep === true,
    firstInventoryOnly,
  };
}
