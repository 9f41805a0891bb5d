// Testing Library cleanup for the happy-dom tier, plus resetting what a test may leave behind
// (the sidebar cookie, portals appended to <body>, stubbed globals).
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { retireOpenRouters, settleOpenRouters } from './open-routers';

// findBy*/waitFor give up after 1 s by default. A whole-client test's first render in a worker
// loads the router and its page modules; on two CI cores busy with the server tier beside it, the
// Starlink API Simulator page's first heading took longer than that twice. Waiting longer only
// costs time when a test is failing anyway.
configure({ asyncUtilTimeout: 5_000 });

// happy-dom does no layout and has no `offsetParent`. PrimeReact's overlays (Menu popup) read it to
// decide whether an element is laid out; without it they measure the element "hidden" and leave it
// with `display: none`. A connected, displayed element's offset parent is near enough its parent.
if (!('offsetParent' in HTMLElement.prototype)) {
  Object.defineProperty(HTMLElement.prototype, 'offsetParent', {
    configurable: true,
    get(this: HTMLElement) {
      return this.isConnected && this.style.display !== 'none' ? this.parentElement : null;
    },
  });
}

afterEach(async () => {
  await settleOpenRouters();
  cleanup();
  retireOpenRouters();
  document.cookie = 'sidebar_state=; path=/; max-age=0';
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
