// Latency samples → the percentiles the load prints (ms, two decimals). bench/timing.ts stops at
// p95; a load run of 100 connections needs the tail too.

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** Nearest-rank percentiles; all zeros for no samples. */
export function percentiles(samples: readonly number[]): Percentiles {
  const sorted = Float64Array.from(samples).sort();
  const at = (q: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!);
  return { p50: round(at(0.5)), p95: round(at(0.95)), p99: round(at(0.99)), max: round(sorted.length === 0 ? 0 : sorted[sorted.length - 1]!) };
}
