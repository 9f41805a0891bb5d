import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { sessionMachine, toPersistedSession, type ConfirmOutcome } from '../../src/machines/session';
import type { PersistedSession } from '../../src/domain/session';
import { adminProfile, customerProfile } from './fixtures';

const stored: PersistedSession = { token: 'stored-token', profile: adminProfile, userType: 'admin', isAuthenticated: true };

function startSession(options: { stored?: PersistedSession | null; confirm?: ConfirmOutcome } = {}) {
  const persisted: PersistedSession[] = [];
  const cleared = vi.fn();
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        restoreSession: fromPromise(async () => options.stored ?? null),
        confirmSession: fromPromise(async () => options.confirm ?? ({ status: 'valid', profile: adminProfile } as ConfirmOutcome)),
      },
      actions: {
        persistSession: ({ context }) => void persisted.push(toPersistedSession(context)),
        clearPersistedSession: cleared,
      },
    }),
  ).start();
  return { actor, persisted, cleared };
}

describe('session machine (actor)', () => {
  it('with nothing stored, settles signed out without asking the server', async () => {
    const { actor } = startSession();
    const snapshot = await waitFor(actor, (s) => !s.hasTag('checking'));
    expect(snapshot.value).toBe('signedOut');
    expect(snapshot.context.token).toBeNull();
  });

  it('confirms a stored session with the server and keeps the fresher profile', async () => {
    const fresh = { ...adminProfile, name: 'Ana Fresh' };
    const { actor, persisted } = startSession({ stored, confirm: { status: 'valid', profile: fresh } });
    const snapshot = await waitFor(actor, (s) => s.matches('signedIn'));
    expect(snapshot.context).toMatchObject({ token: 'stored-token', userType: 'admin', profile: fresh });
    expect(persisted.at(-1)).toEqual({ token: 'stored-token', profile: fresh, userType: 'admin', isAuthenticated: true });
  });

  it('drops a stored session the server rejects', async () => {
    const { actor, cleared } = startSession({ stored, confirm: { status: 'rejected' } });
    const snapshot = await waitFor(actor, (s) => !s.hasTag('checking'));
    expect(snapshot.value).toBe('signedOut');
    expect(snapshot.context.token).toBeNull();
    expect(cleared).toHaveBeenCalledTimes(1);
  });

  it('keeps the stored session when the server cannot be reached', async () => {
    const { actor } = startSession({ stored, confirm: { status: 'unreachable' } });
    const snapshot = await waitFor(actor, (s) => !s.hasTag('checking'));
    expect(snapshot.value).toBe('signedIn');
    expect(snapshot.context.profile).toEqual(adminProfile);
  });

  it('login stores token, profile and user type and persists them', async () => {
    const { actor, persisted } = startSession();
    await waitFor(actor, (s) => s.matches('signedOut'));
    actor.send({ type: 'session.login', token: 't1', profile: customerProfile, userType: 'customer' });
    expect(actor.getSnapshot().value).toBe('signedIn');
    expect(persisted.at(-1)).toEqual({ token: 't1', profile: customerProfile, userType: 'customer', isAuthenticated: true });
  });

  it('a renewed token (after a password change) replaces the old one and persists, staying signed in', async () => {
    const { actor, persisted } = startSession({ stored });
    await waitFor(actor, (s) => s.matches('signedIn'));
    actor.send({ type: 'session.renew', token: 't2', profile: { ...adminProfile, name: 'Renewed' } });
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ token: 't2', userType: 'admin', profile: { name: 'Renewed' } });
    expect(persisted.at(-1)).toMatchObject({ token: 't2', isAuthenticated: true });
  });

  it('a partial profile update merges into the profile and persists', async () => {
    const { actor, persisted } = startSession({ stored });
    await waitFor(actor, (s) => s.matches('signedIn'));
    actor.send({ type: 'profile.update', patch: { name: 'Renamed' } });
    expect(actor.getSnapshot().context.profile).toEqual({ ...adminProfile, name: 'Renamed' });
    expect(persisted.at(-1)?.profile?.name).toBe('Renamed');
  });

  it('logout clears everything and remembers it was deliberate', async () => {
    const { actor, cleared } = startSession({ stored });
    await waitFor(actor, (s) => s.matches('signedIn'));
    actor.send({ type: 'session.logout' });
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context).toEqual({ token: null, profile: null, userType: null, endedBy: 'logout' });
    expect(cleared).toHaveBeenCalled();
  });

  it('a 401 while signed in ends the session; before sign-in it is ignored', async () => {
    const { actor } = startSession();
    await waitFor(actor, (s) => s.matches('signedOut'));
    actor.send({ type: 'api.unauthorized' });
    expect(actor.getSnapshot().context.endedBy).toBeNull();
    actor.send({ type: 'session.login', token: 't', profile: adminProfile, userType: 'admin' });
    actor.send({ type: 'api.unauthorized' });
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context.endedBy).toBe('unauthorized');
  });

  it('a 401 that arrives during the session check does not end the check early', async () => {
    let release: (value: ConfirmOutcome) => void = () => {};
    const actor = createActor(
      sessionMachine.provide({
        actors: {
          restoreSession: fromPromise(async (): Promise<PersistedSession | null> => stored),
          confirmSession: fromPromise(() => new Promise<ConfirmOutcome>((resolve) => (release = resolve))),
        },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('confirming'));
    actor.send({ type: 'api.unauthorized' });
    expect(actor.getSnapshot().value).toBe('confirming');
    release({ status: 'rejected' });
    await waitFor(actor, (s) => s.matches('signedOut'));
  });
});
