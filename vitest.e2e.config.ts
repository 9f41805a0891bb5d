import { defineConfig } from 'vitest/config';

// Browser journeys: Chromium (Debian's) driven by playwright-core against the built app and a real server.
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['tests/e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
