// The two measurements of a page: latency (sequential requests on one keep-alive connection,
// after warm-up requests, so each figure is one request's own time from outside the process) and
// throughput (K keep-alive connections each sending the page's request again as soon as the last
// answer is in, for T seconds; the server child's CPU time over the same window, from /proc).
// Any answer but 200 is an error of the run and is kept with its status and message.
import { performance } from 'node:perf_hooks';
import { figures, type Figures } from '../timing';
import { percentiles } from '../load/latency';
import type { JsonAnswer } from '../load/http';
import type { Portal } from './api';
import type { Page } from './pages';

export interface RequestError {
  page: string;
  phase: string;
  status: number | null;
  message: string;
}

export type Latency = Omit<Figures, 'min'>;

const messageOf = (answer: JsonAnswer) => {
  const body = answer.body as { message?: unknown } | null;
  return typeof body?.message === 'string' ? body.message : JSON.stringify(answer.body)?.slice(0, 200) ?? '';
};

/** One request, timed; an error is recorded, not thrown, so one bad answer does not stop the run. */
async function timed(send: () => Promise<JsonAnswer>, onError: (status: number | null, message: string) => void): Promise<number> {
  const at = performance.now();
  try {
    const answer = await send();
    if (answer.status !== 200) onError(answer.status, messageOf(answer));
  } catch (error) {
    onError(null, error instanceof Error ? error.message : String(error));
  }
  return performance.now() - at;
}

/** The milliseconds of `samples` sequential requests of a page, after `warmUp` untimed ones. */
export async function pageSamples(portal: Portal, page: Page, options: { samples: number; warmUp: number; phase: string; errors: RequestError[] }): Promise<number[]> {
  const onError = (status: number | null, message: string) => options.errors.push({ page: page.name, phase: options.phase, status, message });
  for (let i = 0; i < options.warmUp; i++) await timed(() => portal.get(page.path), onError);
  const samples: number[] = [];
  for (let i = 0; i < options.samples; i++) samples.push(await timed(() => portal.get(page.path), onError));
  return samples;
}

export function latencyOf(samples: number[]): Latency {
  const { p50, p95, mean, max } = figures(samples);
  return { p50, p95, mean, max };
}

export async function pageLatency(portal: Portal, page: Page, options: { samples: number; warmUp: number; phase: string; errors: RequestError[] }): Promise<Latency> {
  return latencyOf(await pageSamples(portal, page, options));
}

export interface Throughput {
  requests: number;
  rps: number;
  /** The server process's (and its descendants') CPU time divided by the requests answered. */
  cpuMsPerRequest: number;
  /** PostgreSQL's backends' CPU time for the database, divided likewise (null: PGlite, or not readable). */
  databaseCpuMsPerRequest: number | null;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
}

export async function pageThroughput(
  portal: Portal,
  page: Page,
  options: {
    connections: number;
    durationMs: number;
    cpuMs: () => Promise<number>;
    databaseCpuMs: () => Promise<Map<number, number> | null>;
    phase: string;
    errors: RequestError[];
  },
): Promise<Throughput> {
  const pool = portal.pool(options.connections);
  const onError = (status: number | null, message: string) => options.errors.push({ page: page.name, phase: options.phase, status, message });
  try {
    // Every connection is opened (and the page warmed) before the clock and the CPU reading start.
    await Promise.all(Array.from({ length: options.connections }, () => timed(() => pool.get(page.path), onError)));
    const samples: number[] = [];
    const cpuBefore = await options.cpuMs();
    const databaseBefore = await options.databaseCpuMs();
    const started = performance.now();
    const deadline = started + options.durationMs;
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (performance.now() < deadline) samples.push(await timed(() => pool.get(page.path), onError));
      }),
    );
    const elapsedMs = performance.now() - started;
    const cpuMs = (await options.cpuMs()) - cpuBefore;
    const databaseAfter = await options.databaseCpuMs();
    // Per backend: a connection opened during the window counts from zero, one closed is lost.
    let databaseMs: number | null = null;
    if (databaseBefore && databaseAfter) {
      databaseMs = 0;
      for (const [pid, ms] of databaseAfter) databaseMs += ms - (databaseBefore.get(pid) ?? 0);
    }
    const perRequest = (ms: number) => Math.round((ms / samples.length) * 100) / 100;
    return {
      requests: samples.length,
      rps: Math.round((samples.length / elapsedMs) * 1000 * 10) / 10,
      cpuMsPerRequest: samples.length === 0 ? 0 : perRequest(cpuMs),
      databaseCpuMsPerRequest: samples.length === 0 || databaseMs === null ? null : perRequest(databaseMs),
      latencyMs: percentiles(samples),
    };
  } finally {
    pool.close();
  }
}

/**
 * Waits until the server and its database backends are quiet: under `quietMsPerSecond` of CPU a
 * second for `quietSeconds` seconds in a row (a server just started recounts its summaries and
 * refreshes what the fill marked; timing "idle" pages meanwhile times that work). Gives up after
 * `maxMs`. Answers the seconds waited and whether it became quiet.
 */
export async function waitUntilQuiet(options: {
  cpuMs: () => Promise<number>;
  databaseCpuMs: () => Promise<Map<number, number> | null>;
  quietMsPerSecond?: number;
  quietSeconds?: number;
  maxMs?: number;
}): Promise<{ seconds: number; quiet: boolean }> {
  const limit = options.quietMsPerSecond ?? 50;
  const needed = options.quietSeconds ?? 3;
  const started = performance.now();
  const total = async () => {
    const database = await options.databaseCpuMs();
    let sum = await options.cpuMs();
    if (database) for (const ms of database.values()) sum += ms;
    return sum;
  };
  let last = await total();
  let calm = 0;
  while (performance.now() - started < (options.maxMs ?? 180_000)) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = await total();
    calm = now - last < limit ? calm + 1 : 0;
    last = now;
    if (calm >= needed) return { seconds: Math.round((performance.now() - started) / 100) / 10, quiet: true };
  }
  return { seconds: Math.round((performance.now() - started) / 100) / 10, quiet: false };
}
