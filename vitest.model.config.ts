import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// `npm run test:model`: every machine's generated paths, on the machine and through its screen,
// then the coverage table (tests/model/framework/reporter.ts).
export default defineConfig({
  plugins: [react()],
  test: {
    name: 'model',
    // As in vitest.config.ts: two workers even on two cores.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    environment: 'happy-dom',
    include: ['tests/model/**/*.model.test.{ts,tsx}'],
    setupFiles: ['tests/ui/setup.ts'],
    testTimeout: 20_000,
    reporters: ['default', './tests/model/framework/reporter.ts'],
  },
});
