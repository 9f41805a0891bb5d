// The one seeded pseudo-random generator of the server side (demo data, the simulator's fleet,
// benchmarks): same seed, same sequence, so generated data is reproducible.

/** mulberry32: a small, fast PRNG; plenty for synthetic data. Returns floats in [0, 1). */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
