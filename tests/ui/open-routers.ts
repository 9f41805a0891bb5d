// The routers the whole-client tests open, so the teardown can let them finish before the DOM goes.
//
// A navigation still loading when a test ends (a lazy page, a guard waiting on the session) keeps a
// timer: the router offers its pending spinner 150 ms after the load began. Testing Library unmounts
// the tree, but the timer and the load go on, and when they fire after the file's last test the
// happy-dom window is gone: React reads `window.event` to pick the update's priority and throws
// "window is not defined" (an unhandled error that failed CI, from CustomerPreview.test.tsx).
import type { AppRouter } from '../../src/routes/router';

const open = new Set<AppRouter>();

export function trackRouter(router: AppRouter): void {
  open.add(router);
}

/**
 * Before unmounting: wait (up to `ms`; a guard may wait on a fetch the test never answers) for each open router's load to end, which clears its pending
 * timer. After unmounting: `retire`, so anything still in flight no longer reaches React.
 */
export async function settleOpenRouters(ms = 500): Promise<void> {
  const deadline = Date.now() + ms;
  for (const router of open) {
    while (router.state.status !== 'idle' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export function retireOpenRouters(): void {
  // The Transitioner installs startTransition on each render; with the tree unmounted nothing will
  // render again, so a load that still commits would only set state on a dead component.
  for (const router of open) router.startTransition = () => Promise.resolve(false);
  open.clear();
}
