// Property-based fuzzing (fast-check, from the server's OpenAPI document) of the customer, email outbox,
// dashboard, subscription and provider console routes: for FUZZ_RUNS generated requests each
// (valid and broken params, queries and bodies), never a 5xx, every refusal in the error envelope,
// and a refusal writes nothing but the failed-attempt records a route is allowed (fuzz/harness.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFuzzWorld, describeStats, FUZZ_RUNS, fuzzRoute, routeTimeout, routesOfFile, type FuzzWorld } from './fuzz/harness';

let world: FuzzWorld;
beforeAll(async () => {
  world = await createFuzzWorld();
}, 120_000);
afterAll(async () => {
  await world?.close();
});

describe('fuzzing the customer, subscription and provider console routes', () => {
  it.each(routesOfFile('customers'))(
    '%s never answers 5xx, refuses in the error envelope and writes nothing when it refuses',
    async (route) => {
      const stats = await fuzzRoute(world, route);
      if (process.env.FUZZ_VERBOSE) console.log(describeStats(stats));
      expect(stats.cases).toBeGreaterThanOrEqual(FUZZ_RUNS);
      // Generated requests that all stop at validation would prove little about the services.
      if (FUZZ_RUNS >= 50) expect(stats.reachedService, describeStats(stats)).toBeGreaterThan(0);
    },
    routeTimeout,
  );
});
