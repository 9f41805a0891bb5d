// The XState inspector is loaded and attached only when asked for: with `?inspect=1` (or
// VITE_INSPECT=1) the app entry loads @statelyai/inspect and the session and login actors report
// to it; without the flag the package is never even imported. The Stately window itself is the
// seam: createBrowserInspector is replaced with a recorder.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyStateMachine, InspectionEvent } from 'xstate';
import { fill } from './fill';

const inspector = vi.hoisted(() => ({
  /** Times the mocked package was evaluated, i.e. really imported. */
  loads: 0,
  events: [] as InspectionEvent[],
  /** What stops each app entry a test started: called after each test, as Testing Library unmounts its own. */
  stops: [] as (() => void)[],
}));

/** The machine id of the actor an inspection event is about. */
const machineOf = (event: InspectionEvent) => (event.actorRef as unknown as { logic?: AnyStateMachine }).logic?.id;

beforeEach(() => {
  // A fresh module registry and a fresh mock per test: the factory runs only when a test's own
  // code imports the package, so `loads` counts real imports.
  vi.resetModules();
  inspector.loads = 0;
  inspector.events = [];
  vi.doMock('@statelyai/inspect', () => {
    inspector.loads += 1;
    return {
      createBrowserInspector: vi.fn(() => ({ inspect: { next: (event: InspectionEvent) => inspector.events.push(event) } })),
    };
  });
  vi.stubEnv('VITE_INSPECT', undefined);
  window.history.replaceState(null, '', '/login');
  localStorage.clear();
});

afterEach(() => {
  // The entry's app would otherwise go on (rendering its toasts' timers, returning the focus,
  // following the system's theme) while the worker's next test files run.
  for (const stop of inspector.stops.splice(0)) act(() => stop());
  vi.unstubAllEnvs();
});

describe('the XState inspector', () => {
  it('with ?inspect=1 the app entry attaches it, and the session and login actors report to it', async () => {
    window.history.replaceState(null, '', '/login?inspect=1');
    // Every API call is refused: the sign-in below fails on the spot and nothing navigates.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ success: false, message: 'Invalid email or password' }), { status: 401, headers: { 'content-type': 'application/json' } })),
    );
    const root = document.createElement('div');
    root.id = 'root';
    document.body.append(root);

    const { started } = await import('../../src/main');
    inspector.stops.push(await started);
    const user = userEvent.setup();
    await fill(user, await screen.findByLabelText('Email'), 'someone@example.com');
    await fill(user, screen.getByLabelText('Password', { selector: 'input' }), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    const { createBrowserInspector } = await import('@statelyai/inspect');
    expect(createBrowserInspector).toHaveBeenCalledTimes(1);
    expect(inspector.loads).toBe(1);
    await waitFor(() => {
      const seen = (type: InspectionEvent['type'], machine: string) => inspector.events.some((e) => e.type === type && machineOf(e) === machine);
      expect(seen('@xstate.actor', 'session')).toBe(true);
      expect(seen('@xstate.snapshot', 'session')).toBe(true);
      expect(seen('@xstate.actor', 'login')).toBe(true);
      expect(inspector.events.some((e) => e.type === '@xstate.event' && machineOf(e) === 'login' && e.event.type === 'user.submit')).toBe(true);
      // The login actor moved through its chart under the inspector's eyes.
      expect(
        inspector.events.some(
          (e) => e.type === '@xstate.snapshot' && machineOf(e) === 'login' && (e.snapshot as { value?: unknown }).value === 'failed',
        ),
      ).toBe(true);
    }, { timeout: 5_000 });
  });

  it('VITE_INSPECT=1 at build time asks for it without the query parameter', async () => {
    vi.stubEnv('VITE_INSPECT', '1');
    const { loadInspector } = await import('../../src/inspect');
    const inspect = await loadInspector();
    expect(inspect).toBeDefined();
    expect(inspector.loads).toBe(1);
    (inspect as { next: (event: InspectionEvent) => void }).next({ type: '@xstate.event' } as InspectionEvent);
    expect(inspector.events).toHaveLength(1);
  });

  it('without the flag (or with inspect=0) nothing is loaded and the app gets no inspector', async () => {
    for (const url of ['/login', '/login?inspect=0', '/home?inspector=1']) {
      window.history.replaceState(null, '', url);
      const { loadInspector } = await import('../../src/inspect');
      expect(await loadInspector(), url).toBeUndefined();
    }
    expect(inspector.loads).toBe(0);
    expect(inspector.events).toEqual([]);
  });
});
