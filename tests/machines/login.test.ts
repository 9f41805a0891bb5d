import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { loginMachine, type LoginEvent } from '../../src/machines/login';
import type { LoginOutcome } from '../../src/api/auth';
import { INVALID_CREDENTIALS_MESSAGE } from '../../src/domain/auth';
import { NETWORK_ERROR_MESSAGE } from '../../src/domain/login';
import { adminProfile, customerProfile } from './fixtures';
import { chartTransitions, pathsCoveringEveryTransition, reachableStateValues, replayPath, transitionsTaken } from './model-paths';

const adminOk: LoginOutcome = { ok: true, token: 'admin-token', profile: adminProfile, userType: 'admin' };
const customerOk: LoginOutcome = { ok: true, token: 'customer-token', profile: customerProfile, userType: 'customer' };
const refused = (message: string | null, status = 401): LoginOutcome => ({ ok: false, status, message });

function startLogin(admin: () => Promise<LoginOutcome>, customer: () => Promise<LoginOutcome>) {
  const completeSignIn = vi.fn();
  const adminCalls = vi.fn();
  const customerCalls = vi.fn();
  const actor = createActor(
    loginMachine.provide({
      actors: {
        adminLogin: fromPromise(async ({ input }) => (adminCalls(input), admin())),
        customerLogin: fromPromise(async ({ input }) => (customerCalls(input), customer())),
      },
      actions: { completeSignIn: (_, outcome) => completeSignIn(outcome) },
    }),
  ).start();
  return { actor, completeSignIn, adminCalls, customerCalls };
}

const submit = { type: 'user.submit', email: ' ana.lima@example.com ', password: 'correct horse' } as const;

describe('login machine (actor)', () => {
  it('an admin signs in on the first attempt and the customer login is never tried', async () => {
    const { actor, completeSignIn, customerCalls, adminCalls } = startLogin(async () => adminOk, async () => customerOk);
    actor.send(submit);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.status === 'done');
    expect(completeSignIn).toHaveBeenCalledWith(adminOk);
    expect(adminCalls).toHaveBeenCalledWith({ email: 'ana.lima@example.com', password: 'correct horse' });
    expect(customerCalls).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.credentials).toBeNull();
  });

  it('a customer signs in through the fallback after the admin attempt fails', async () => {
    const { actor, completeSignIn } = startLogin(async () => refused(INVALID_CREDENTIALS_MESSAGE), async () => customerOk);
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('customerAttempt'));
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.status === 'done');
    expect(completeSignIn).toHaveBeenCalledWith(customerOk);
  });

  it('when both attempts fail the admin message wins over the customer message', async () => {
    const { actor } = startLogin(async () => refused('Your account has been blocked.', 403), async () => refused('Customer says no'));
    actor.send(submit);
    const snapshot = await waitFor(actor, (s) => s.matches('failed'));
    expect(snapshot.context.error).toBe('Your account has been blocked.');
    expect(snapshot.hasTag('busy')).toBe(false);
  });

  it('without an admin message the customer message is shown, and without either the generic one', async () => {
    const first = startLogin(async () => refused(null), async () => refused('Customer account locked'));
    first.actor.send(submit);
    expect((await waitFor(first.actor, (s) => s.matches('failed'))).context.error).toBe('Customer account locked');

    const second = startLogin(async () => refused(null), async () => refused(''));
    second.actor.send(submit);
    expect((await waitFor(second.actor, (s) => s.matches('failed'))).context.error).toBe(INVALID_CREDENTIALS_MESSAGE);
  });

  it('a network failure shows a connection message and keeps no password', async () => {
    const { actor } = startLogin(async () => Promise.reject(new TypeError('fetch failed')), async () => customerOk);
    actor.send(submit);
    const snapshot = await waitFor(actor, (s) => s.matches('failed'));
    expect(snapshot.context.error).toBe(NETWORK_ERROR_MESSAGE);
    expect(snapshot.context.credentials).toBeNull();
  });

  it('submitting again after a failure clears the old error and tries the admin login first', async () => {
    let attempt = 0;
    const { actor } = startLogin(async () => (++attempt === 1 ? refused('Wrong') : adminOk), async () => refused(null));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send(submit);
    expect(actor.getSnapshot().context.error).toBeNull();
    await waitFor(actor, (s) => s.status === 'done');
  });
});

/** Every event the login flow takes, with fixtures. A new event fails to compile here. */
const eventFixtures: { [K in LoginEvent['type']]: Extract<LoginEvent, { type: K }>[] } = {
  'user.submit': [{ type: 'user.submit', email: 'ana.lima@example.com', password: 'correct horse' }],
};
const actorResults = [
  { type: 'xstate.done.actor.adminLogin', output: adminOk },
  { type: 'xstate.done.actor.adminLogin', output: refused('Admin message') },
  { type: 'xstate.error.actor.adminLogin', error: new TypeError('fetch failed') },
  { type: 'xstate.done.actor.customerLogin', output: customerOk },
  { type: 'xstate.done.actor.customerLogin', output: refused('Customer message') },
  { type: 'xstate.error.actor.customerLogin', error: new TypeError('fetch failed') },
];
const allEvents = () => [...Object.values(eventFixtures).flat(), ...actorResults];

describe('login machine (model paths)', () => {
  const paths = pathsCoveringEveryTransition(loginMachine, allEvents);

  it('the model reaches every state of the chart', () => {
    expect(reachableStateValues(loginMachine, allEvents)).toEqual(new Set(['idle', 'adminAttempt', 'customerAttempt', 'failed', 'signedIn']));
  });

  it('the paths take every transition written in the chart', () => {
    const all = new Set(chartTransitions(loginMachine).values());
    // idle: 1, adminAttempt: 3, customerAttempt: 3, failed: 1
    expect(all.size).toBe(8);
    expect(transitionsTaken(loginMachine, paths)).toEqual(all);
  });

  it.each(paths.map((path) => [path.description, path] as const))('%s', async (_name, path) => {
    const signedIn = vi.fn();
    const actor = await replayPath(
      (deferred) =>
        loginMachine.provide({
          actors: { adminLogin: deferred.logic, customerLogin: deferred.logic },
          actions: { completeSignIn: (_, outcome) => signedIn(outcome) },
        }),
      path,
    );
    // The session hears about a sign-in exactly when the flow ends signed in.
    expect(signedIn).toHaveBeenCalledTimes(actor.getSnapshot().value === 'signedIn' ? 1 : 0);
  });
});

describe('login machine (pinned journeys)', () => {
  // Pinned by hand: generated expectations would move with a wrong transition, these do not.
  it('admin refused, customer refused, then admin accepted on the second submit ends signed in as admin', async () => {
    const admin = vi.fn<() => Promise<LoginOutcome>>()
      .mockResolvedValueOnce(refused(INVALID_CREDENTIALS_MESSAGE))
      .mockResolvedValueOnce(adminOk);
    const { actor, completeSignIn } = startLogin(admin, async () => refused(INVALID_CREDENTIALS_MESSAGE));
    actor.send(submit);
    expect((await waitFor(actor, (s) => s.matches('failed'))).context.error).toBe(INVALID_CREDENTIALS_MESSAGE);
    actor.send(submit);
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().value).toBe('signedIn');
    expect(completeSignIn).toHaveBeenCalledExactlyOnceWith(adminOk);
  });
});
