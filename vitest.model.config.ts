import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// `npm run test:model`: every machine's covering paths and seeded walks, on the machine and through
// its screen, then the coverage table (tests/model/framework/reporter.ts). The walks' seed is drawn
// here, once for every worker, unless MODEL_SEED gives it; the reporter prints it.
process.env.MODEL_SEED ||= String(Math.floor(Math.random() * 2 ** 31));

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'model',
    // As in vitest.config.ts: two workers even on two cores.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // As in vitest.config.ts: a worker runs file after file without paying the imports again.
    isolate: false,
    environment: 'happy-dom',
    include: ['tests/model/**/*.model.test.{ts,tsx}'],
    setupFiles: ['tests/ui/setup.ts'],
    testTimeout: 20_000,
    env: { MODEL_SEED: process.env.MODEL_SEED },
    reporters: ['default', './tests/model/framework/reporter.ts'],
  },
});
