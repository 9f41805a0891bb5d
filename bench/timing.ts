// Latency figures for the benchmarks: each request timed after a few warm-up runs, reported as
// percentiles in milliseconds (two decimals).

export interface Figures {
  p50: number;
  p95: number;
  mean: number;
  min: number;
  max: number;
}

export function figures(samples: number[]): Figures {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    mean: round(sorted.reduce((s, n) => s + n, 0) / sorted.length),
    min: round(sorted[0] ?? 0),
    max: round(sorted.at(-1) ?? 0),
  };
}

/** Runs `fn` `warmUp` times untimed, then `runs` times timed. */
export async function time(fn: () => Promise<unknown>, runs: number, warmUp: number): Promise<Figures> {
  for (let i = 0; i < warmUp; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return figures(samples);
}
