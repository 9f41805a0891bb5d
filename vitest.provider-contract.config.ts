import { defineConfig } from 'vitest/config';

// `npm run test:provider-contract` (through scripts/test-provider-contract.ts, which checks
// PROVIDER_OPENAPI and passes it on as PROVIDER_CONTRACT_DOCUMENT): the suites that check provider
// exchanges against a contract, run against the provider's published document instead of the
// project's own, and the table of operations held to that document.
export default defineConfig({
  test: {
    name: 'provider-contract',
    environment: 'node',
    include: [
      'tests/provider-contract/**/*.test.ts',
      'tests/server/contract/client.test.ts',
      'tests/server/contract/simulator.test.ts',
      'tests/server/contract/simulator-lifecycle.test.ts',
      'tests/server/contract/simulator-account.test.ts',
      'tests/server/contract/simulator-routers.test.ts',
      'tests/server/simulator-auth.test.ts',
      'tests/server/simulator-faults.test.ts',
      'tests/server/terminal-sync-provider.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
