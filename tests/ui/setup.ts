// Testing Library cleanup for the happy-dom tier, plus resetting what a test may leave behind
// (the sidebar cookie, storage, portals appended to <body>, stubbed globals).
import { cleanup, configure } from '@testing-library/react';
import * as React from 'react';
import { afterEach, vi } from 'vitest';
import { retireOpenRouters, settleOpenRouters } from './open-routers';

// React's development build captures an owner stack (an Error and a console task) for each of the
// first 10,000 elements of every render, for the component stacks of its warnings. PrimeReact
// renders many elements, and that capture was a third of the UI tier's CPU time (UsersRoute and
// CustomersRoute: 124 s of CPU before, 81 s after). The count React keeps is held above its limit,
// so it takes the path it takes past 10,000 elements: warnings still print, with the owner
// unknown. Should React rename the count, this does nothing and the tests only run slower.
const internals = (React as unknown as Record<string, Record<string, unknown> | undefined>).__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;
if (internals && 'recentlyCreatedOwnerStacks' in internals) {
  Object.defineProperty(internals, 'recentlyCreatedOwnerStacks', { configurable: true, get: () => Infinity, set: () => undefined });
}

// Chart.js draws on a canvas happy-dom does not have. Every file gets the same stand-in, holding
// what each chart was given to draw: the UI and model projects share one module registry
// (isolate: false), where a file's own mock of a module is not reliably the one it gets.
vi.mock('primereact/chart', () => import('../fixtures/chart-stand-in'));

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

// react-hot-toast styles its toasts through goober, which finds its one <style id="_goober"> as
// `window._goober`: a browser exposes an element with an id as a property of the window, happy-dom
// does not. Without that, every styled render appended another <style> to <head> (1,500 after four
// model files in one worker, whose files share the document): the model tier's screen walks ran
// four to six times slower in a worker's later files.
if (!('_goober' in window)) {
  Object.defineProperty(window, '_goober', { configurable: true, get: () => document.getElementById('_goober') ?? undefined });
}

afterEach(async () => {
  await settleOpenRouters();
  cleanup();
  retireOpenRouters();
  document.cookie = 'sidebar_state=; path=/; max-age=0';
  // A worker's files follow one another in one process: a session or a theme a test stored must
  // not greet the next file's tests.
  localStorage.clear();
  sessionStorage.clear();
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
