// The teardown of whole-client tests (open-routers.ts): a load that ends after the test must not
// reach React. It once did, after the file's window was gone, and failed CI with an unhandled
// "window is not defined". Here the same late load meets a window whose `event` — what React reads
// first when it schedules an update — records each read, so reaching React is something this test
// sees. (A getter that threw was read again from React's scheduler on a busy machine, where the
// throw became an uncaught exception of the run instead of a finding of the test.)
import { cleanup } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { adminProfile } from '../machines/fixtures';
import { openSignedInAt } from './open-app';
import { retireOpenRouters, settleOpenRouters } from './open-routers';

function gatedApi() {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetch = async (input: RequestInfo | URL) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    if (path === '/api/v1/auth/me') {
      await gate; // the session's check answers only after the test has ended: signed out
      return json(401, { success: false, message: 'Session expired' });
    }
    return json(200, { success: true, message: 'ok', data: path.endsWith('/customers') ? { customers: [], total: 0, page: 1, limit: 10 } : {} });
  };
  return { fetch, release: () => open() };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What reaches React while `body` releases a late load, collected until `ended` says the load is
 * over (or 5 s passed: a busy machine takes its time): each read of `window.event`, and any
 * rejection nobody handled. The recording `window.event` goes first and the listener after a few
 * more turns, so a rejection of that time is still counted here, never left to fail the run.
 */
async function lateErrorsWhile(body: () => Promise<void>, ended: (errors: unknown[]) => boolean): Promise<unknown[]> {
  const errors: unknown[] = [];
  const onRejection = (reason: unknown) => errors.push(reason);
  process.on('unhandledRejection', onRejection);
  Object.defineProperty(window, 'event', {
    configurable: true,
    get: () => {
      errors.push(new Error('React was reached after the test ended'));
      return undefined;
    },
  });
  try {
    await body();
    const deadline = Date.now() + 5_000;
    while (!ended(errors) && Date.now() < deadline) await tick(10);
  } finally {
    delete (window as { event?: unknown }).event;
    await tick(50);
    process.off('unhandledRejection', onRejection);
  }
  return errors;
}

describe('the teardown of an app whose router is still at work', () => {
  afterEach(() => retireOpenRouters());

  it('waits for a load that ends to end', async () => {
    const api = gatedApi();
    const { app } = openSignedInAt('/customers', api.fetch, { profile: adminProfile });
    expect(app.router.state.status).toBe('pending');
    setTimeout(api.release, 50);
    await settleOpenRouters();
    expect(app.router.state.status).toBe('idle');
  });

  it('unmounts a load that does not end, and keeps its later sign-out from reaching React', async () => {
    const api = gatedApi();
    const { app } = openSignedInAt('/customers', api.fetch, { profile: adminProfile });
    await settleOpenRouters(200);
    // The guard waits for the session's check, held at the gate: the settling gave up at its bound.
    expect(app.router.state.status).toBe('pending');
    cleanup();
    retireOpenRouters();

    const errors = await lateErrorsWhile(
      async () => {
        api.release(); // the 401 signs the session out, and the router loads /login for a tree that is gone
      },
      () => app.router.state.status === 'idle',
    );
    expect(app.router.state.status).toBe('idle');
    expect(errors).toEqual([]);
  });

  it('without the retirement the same late sign-out does reach React (what the teardown prevents)', async () => {
    const api = gatedApi();
    openSignedInAt('/customers', api.fetch, { profile: adminProfile });
    await settleOpenRouters(200);
    cleanup();

    const errors = await lateErrorsWhile(
      async () => {
        api.release();
      },
      (seen) => seen.length > 0,
    );
    expect(errors.map(String)).toContainEqual(expect.stringContaining('React was reached after the test ended'));
  });
});
