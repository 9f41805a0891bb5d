import { defineConfig } from 'vitest/config';

// Browser journeys: Chromium (Debian's) driven by playwright-core against the built app and a real server.
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['tests/e2e/**/*.test.ts'],
    // The guide's tour visits every screen to photograph it for docs/guide.md: it runs with
    // `npm run docs:screenshots`, which writes the images. The journeys and the accessibility walk
    // already visit every screen, so the everyday run leaves the tour out.
    exclude: process.env.GUIDE_SCREENSHOTS_DIR ? [] : ['tests/e2e/guide.test.ts'],
    // One migrated embedded database per run, copied into each portal's data directory.
    globalSetup: ['tests/e2e/database-image.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A poll waits for the portal's answer to reach the page; the default second is shorter than a
    // page load while two journeys, their portals and syncs share CI's two cores.
    expect: { poll: { timeout: 15_000 } },
    // Two journey files at a time: one file alone keeps about one of CI's two cores busy (its
    // portal waits on its sync, its browser on the portal). Measured on two cores: one at a time
    // 717 s, two 509 s, three 725 s (the portals and browsers then contend).
    maxWorkers: 2,
    // A worker runs its journey files one after another in one process, so they share its Chromium
    // (harness.ts, sharedChromium) and the modules they import; each file still starts its own
    // portal and works in browser contexts of its own.
    isolate: false,
  },
});
