// Preloaded into the portal server child (`node --import tsx --import <this file> server/server.ts`)
// so that its provider client has no request limit during the benchmark, as bench/terminals-sync.ts
// lifts it in-process: STARLINK_REQUESTS_PER_MINUTE stops at 250, which would turn a fill of
// 100,000 terminals into a quarter of an hour of waiting on the limiter and measure nothing.
//
// The client reads PROVIDER_DEFAULTS.requestsPerMinute when it is created (after listen), and this
// file imports the very module the server will import (same file URL, so the same instance), from
// the server's working directory, so it works for the baseline worktree too. Nothing else changes.
// The line it prints tells the benchmark whether the limit was lifted; if the server's code has
// no such default any more, it says so and the fill runs at the server's own limit.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const LIFTED = 1_000_000_000;
const file = path.join(process.cwd(), 'server', 'provider', 'client.ts');
try {
  const module = (await import(pathToFileURL(file).href)) as { PROVIDER_DEFAULTS?: { requestsPerMinute?: unknown } };
  const defaults = module.PROVIDER_DEFAULTS as { requestsPerMinute?: unknown } | undefined;
  if (defaults && typeof defaults.requestsPerMinute === 'number') {
    const was = defaults.requestsPerMinute;
    defaults.requestsPerMinute = LIFTED;
    const now = (defaults as { requestsPerMinute: number }).requestsPerMinute;
    console.log(now === LIFTED ? `bench-scale: provider client limit lifted (was ${was}/min)` : `bench-scale: provider client limit NOT lifted (still ${was}/min)`);
  } else {
    console.log('bench-scale: provider client limit NOT lifted (no PROVIDER_DEFAULTS.requestsPerMinute)');
  }
} catch (error) {
  console.log(`bench-scale: provider client limit NOT lifted (${error instanceof Error ? error.message : String(error)})`);
}
