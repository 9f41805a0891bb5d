// The targets ("Fleet scale: every admin page fast at 100,000 terminals"), judged on the
// current server's figures, and the side-by-side comparison with the baseline's.
//
//   PostgreSQL, 100,000 terminals: every page's p95 ≤ 25 ms idle, ≤ 100 ms while a sync writes
//   PGlite, 10,000 terminals:      every page's p95 ≤ 50 ms idle
//   both, with --baseline:         every page's throughput at least twice the baseline's, and
//                                  the same for a mix of one request of every page
//   PostgreSQL, with --accounts N:  no account exceeds its own budget (its most provider call
//                                  starts in any 60 s ≤ the limit its calls were held to)
//
// A run at another size still reports met: true/false, with atTargetSize: false beside it.
import type { DatabaseKind } from './args';
import type { Latency, Throughput } from './measure';

export const TARGET_TERMINALS: Record<DatabaseKind, number> = { postgres: 100_000, pglite: 10_000 };

export interface Target {
  database: DatabaseKind;
  target: string;
  terminals: number;
  atTargetSize: boolean;
  met: boolean;
  /** The page furthest from the target and its figure. */
  worst: { page: string; value: number } | null;
  failing: { page: string; value: number }[];
}

export function latencyTarget(database: DatabaseKind, terminals: number, target: string, limitMs: number, pages: Record<string, Latency>): Target {
  const entries = Object.entries(pages).map(([page, f]) => ({ page, value: f.p95 }));
  const worst = entries.reduce<{ page: string; value: number } | null>((w, e) => (w === null || e.value > w.value ? e : w), null);
  const failing = entries.filter((e) => e.value > limitMs);
  return { database, target, terminals, atTargetSize: terminals === TARGET_TERMINALS[database], met: entries.length > 0 && failing.length === 0, worst, failing };
}

export function judge(options: {
  database: DatabaseKind;
  terminals: number;
  idle: Record<string, Latency>;
  /** null: the pass was left out (--no-sync-pass). */
  duringSync: Record<string, Latency> | null;
  throughput: { baseline: Record<string, Throughput>; current: Record<string, Throughput> } | null;
}): Target[] {
  const { database, terminals } = options;
  const targets =
    database === 'postgres'
      ? [
          latencyTarget(database, terminals, 'every page p95 ≤ 25 ms idle (PostgreSQL, 100,000 terminals)', 25, options.idle),
          ...(options.duringSync
            ? [latencyTarget(database, terminals, 'every page p95 ≤ 100 ms while a sync is writing (PostgreSQL, 100,000 terminals)', 100, options.duringSync)]
            : []),
        ]
      : [latencyTarget(database, terminals, 'every page p95 ≤ 50 ms idle (PGlite, 10,000 terminals)', 50, options.idle)];
  if (options.throughput) {
    const { baseline, current } = options.throughput;
    // Pages the baseline does not have (newer routes) have nothing to be compared with.
    const ratios = Object.keys(current)
      .filter((page) => baseline[page] !== undefined)
      .map((page) => ({ page, value: ratio(current[page]!.rps, baseline[page]!.rps) }));
    const failing = ratios.filter((r) => !(r.value >= 2));
    const worst = ratios.reduce<{ page: string; value: number } | null>((w, r) => (w === null || r.value < w.value ? r : w), null);
    targets.push({
      database,
      target: 'every page throughput (requests/s) at least 2 × the baseline',
      terminals,
      atTargetSize: terminals === TARGET_TERMINALS[database],
      met: ratios.length > 0 && failing.length === 0,
      worst,
      failing,
    });
    // The same pages as a mix, one request of each (the harmonic mean of their requests/s): what
    // an administrator going through every page costs, where the slow pages weigh most.
    const shared = ratios.map((r) => r.page);
    const mixed = ratio(mixRps(current, shared), mixRps(baseline, shared));
    targets.push({
      database,
      target: 'throughput of one request of every page (harmonic mean of requests/s) at least 2 × the baseline',
      terminals,
      atTargetSize: terminals === TARGET_TERMINALS[database],
      met: mixed >= 2,
      worst: { page: 'all pages', value: mixed },
      failing: mixed >= 2 ? [] : [{ page: 'all pages', value: mixed }],
    });
  }
  return targets;
}

/** Requests/s of a mix of one request of each page. */
export function mixRps(figures: Record<string, Throughput>, pages: readonly string[]): number {
  const seconds = pages.reduce((sum, page) => sum + 1 / Math.max(figures[page]?.rps ?? 0, 1e-9), 0);
  return pages.length === 0 ? 0 : Math.round((pages.length / seconds) * 10) / 10;
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : Number.POSITIVE_INFINITY);

export interface Comparison {
  page: string;
  /** p95 ms; ratio = current / baseline (under 1: the current server is faster). null: the baseline has no such route. */
  idleP95: { baseline: number | null; current: number; ratio: number | null };
  duringSyncP95: { baseline: number | null; current: number | null; ratio: number | null };
  /** requests/s; ratio = current / baseline (the target is 2 or more). */
  rps: { baseline: number | null; current: number; ratio: number | null };
  cpuMsPerRequest: { baseline: number | null; current: number };
  /** PostgreSQL's own CPU per request (null on PGlite, where it is part of the server's). */
  databaseCpuMsPerRequest: { baseline: number | null; current: number | null };
}

interface Figures {
  idle: Record<string, Latency>;
  duringSync: Record<string, Latency>;
  throughput: Record<string, Throughput>;
}

const ratioOf = (current: number | null | undefined, baseline: number | null | undefined) =>
  current === null || current === undefined || baseline === null || baseline === undefined ? null : ratio(current, baseline);

export function compare(baseline: Figures, current: Figures): Comparison[] {
  return Object.keys(current.idle).map((page) => {
    const b = { idle: baseline.idle[page]?.p95 ?? null, sync: baseline.duringSync[page]?.p95 ?? null, tp: baseline.throughput[page] ?? null };
    const c = { idle: current.idle[page]!.p95, sync: current.duringSync[page]?.p95 ?? null, tp: current.throughput[page] ?? null };
    return {
      page,
      idleP95: { baseline: b.idle, current: c.idle, ratio: ratioOf(c.idle, b.idle) },
      duringSyncP95: { baseline: b.sync, current: c.sync, ratio: ratioOf(c.sync, b.sync) },
      rps: { baseline: b.tp?.rps ?? null, current: c.tp?.rps ?? 0, ratio: ratioOf(c.tp?.rps ?? 0, b.tp?.rps) },
      cpuMsPerRequest: { baseline: b.tp?.cpuMsPerRequest ?? null, current: c.tp?.cpuMsPerRequest ?? 0 },
      databaseCpuMsPerRequest: { baseline: b.tp?.databaseCpuMsPerRequest ?? null, current: c.tp?.databaseCpuMsPerRequest ?? null },
    };
  });
}

/** With several provider accounts: no account's call starts in any 60 s window above its own budget. */
export function budgetTarget(database: DatabaseKind, terminals: number, accounts: readonly { accountId: number; name: string; maxIn60s: number; budget: number; met: boolean }[]): Target {
  const entries = accounts.map((a) => ({ page: `account ${a.accountId} (${a.name}), budget ${a.budget}`, value: a.maxIn60s, over: a.maxIn60s / Math.max(a.budget, 1) }));
  const worst = entries.reduce<(typeof entries)[number] | null>((w, e) => (w === null || e.over > w.over ? e : w), null);
  return {
    database,
    target: 'no account exceeds its own budget (most provider call starts in any 60 s ≤ its requests per minute)',
    terminals,
    atTargetSize: terminals === TARGET_TERMINALS[database],
    met: accounts.length > 0 && accounts.every((a) => a.met),
    worst: worst ? { page: worst.page, value: worst.value } : null,
    failing: accounts.filter((a) => !a.met).map((a) => ({ page: `account ${a.accountId} (${a.name}), budget ${a.budget}`, value: a.maxIn60s })),
  };
}
