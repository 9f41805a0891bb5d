// Testing Library cleanup for the happy-dom tier, plus resetting what a test may leave behind
// (the sidebar cookie, portals appended to <body>, stubbed globals).
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

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

afterEach(() => {
  cleanup();
  document.cookie = 'sidebar_state=; path=/; max-age=0';
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
