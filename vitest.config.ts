import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Default tiers of `npm test`. The browser tier (tests/e2e) has its own config and command.

/**
 * Server-tier files that never open the portal's database: the provider's client and simulator,
 * the contract against the provider's document, pure helpers, and the embedded database's own
 * driver and lock. `npm run test:pg` (the server tier on PostgreSQL) leaves them out, as they
 * would only run the same code a second time; `npm test` runs them.
 */
const DATABASE_FREE = [
  'tests/server/contract/**',
  'tests/server/provider-{client,client-creates,config,limiter,simulator}.test.ts',
  'tests/server/simulator-{accounts,auth,controls,faults,fleet,paging}.test.ts',
  'tests/server/{config,line-rows,pacer,tokens,totp,webhooks-sender}.test.ts',
  'tests/server/terminal-sync-{config,provider}.test.ts',
  'tests/server/{pglite-client,pglite-statements,database-lock}.test.ts',
];

/**
 * The route fuzzing and its generator's own checks. What they prove is the routes' validation and
 * error envelope, the same code on either database; the requests that pass validation run the
 * services' ordinary SQL, which the rest of the server tier runs on PostgreSQL too. `npm test`
 * runs them; `TEST_DATABASE_URL=… npm run test:long` fuzzes at length on PostgreSQL.
 */
const ROUTE_FUZZING = ['tests/server/fuzz-*.test.ts', 'tests/server/fuzz/**'];

export default defineConfig({
  plugins: [react()],
  test: {
    // Vitest keeps one core free by default, which on CI's two cores means one file at a time. The
    // tiers wait as much as they compute (timers, the sync's provider calls, server processes a
    // test starts, the DOM settling), so a third worker fills the cores the other two leave idle:
    // npm test took 282 s with two workers and 258 s with three, back to back on two cores. (The
    // PostgreSQL suite keeps two: its database server is busy on the same cores.)
    maxWorkers: Math.max(3, availableParallelism() - 1),
    // A worker runs file after file in one process: a fresh process per file cost every file the
    // imports (the server, React, PrimeReact) and PGlite's start again — 140 s of a 690 s run. The
    // files share nothing that outlives them: each opens and closes its own app, database and
    // screen, and the UI set-up file resets the DOM, the cookie, stubs and the router after each test.
    isolate: false,
    projects: [
      {
        extends: true,
        test: { name: 'unit', environment: 'node', include: ['tests/unit/**/*.test.ts', 'tests/machines/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          exclude: process.env.SERVER_SUITE === 'database' ? [...DATABASE_FREE, ...ROUTE_FUZZING] : [],
          // The embedded database is WebAssembly: V8's baseline compiler alone, without the
          // optimising tier-up on background threads, cost 9 % less CPU over the server tier
          // (387 → 351 s, wall 203 → 186 s on two cores), as each test database is short-lived.
          execArgv: ['--liftoff-only'],
          // One migrated database image (or template database) per run, copied for each test database.
          globalSetup: ['tests/server/database-image.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'ui',
          environment: 'happy-dom',
          include: ['tests/ui/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/ui/setup.ts'],
          // Whole-client journeys render the router and several pages; on two busy cores (the server
          // tier runs beside them) they can pass 5 s without anything being wrong.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
