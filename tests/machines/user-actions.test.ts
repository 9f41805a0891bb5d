import { describe, expect, it, vi } from 'vitest';
import { waitFor } from 'xstate';
import { userBlockReasonProblem, type UserActionKind, type UserActionsEvent } from '../../src/machines/user-actions';
import { DEFAULT_USER_EXTENSION_DAYS, USER_MESSAGES, type PortalUser } from '../../src/domain/users';
import { refused } from './scripted-actors';
import { portalUserFixture } from '../fixtures/portal-users';
import { close, confirm, days, reason, startActions, toggle } from './starters/user-actions';

const user = portalUserFixture();
const admin = portalUserFixture({ uuid: 'admin-1', name: 'Ana Lima', role: 'admin' });
const suspended = portalUserFixture({ isActive: false });
const blocked = portalUserFixture({ blockedEnabled: true, blockedReason: 'Left the company' });
const withMfa = portalUserFixture({ mfaEnabled: true });
const deleted = portalUserFixture({ deletedAt: '2026-11-21T09:00:00.000Z' });

describe('user actions machine: Suspend / Activate', () => {
  it.each([
    ['an active user is suspended', user, false, USER_MESSAGES.suspended(user.name)],
    ['a suspended user is activated', suspended, true, USER_MESSAGES.activated(user.name)],
  ])('%s at once, and the list reloads', async (_name, who, isActive, message) => {
    const { actor, called, notifySuccess, userChanged } = startActions();
    actor.send(toggle(who));
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().hasTag('open')).toBe(false);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('updateUser').map((c) => c.input)).toEqual([{ uuid: who.uuid, payload: { is_active: isActive } }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(message);
    expect(userChanged).toHaveBeenCalledOnce();
  });

  it('an admin row cannot be suspended: nothing is sent', () => {
    const { actor, called } = startActions();
    expect(actor.getSnapshot().can(toggle(admin))).toBe(false);
    actor.send(toggle(admin));
    expect(actor.getSnapshot().value).toBe('closed');
    expect(called('updateUser')).toHaveLength(0);
  });

  it.each([
    ['a refusal', refused(USER_MESSAGES.selfRefused), USER_MESSAGES.selfRefused],
    ['a refusal without words', refused(''), USER_MESSAGES.statusFailed],
    ['no answer', new TypeError('fetch failed'), USER_MESSAGES.statusFailed],
  ])('%s is a failure toast and the list stays', async (_name, answer, message) => {
    const { actor, notifyFailure, userChanged } = startActions({ update: [answer] });
    actor.send(toggle(user));
    await waitFor(actor, (s) => s.matches('closed'));
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(message);
    expect(userChanged).not.toHaveBeenCalled();
  });
});

describe('user actions machine: Block', () => {
  it('asks for a reason, refuses an empty one inline, and blocks with the trimmed reason', async () => {
    const { actor, called, notifySuccess, userChanged } = startActions();
    actor.send({ type: 'user.block', user });
    expect(actor.getSnapshot().matches({ dialog: 'reason' })).toBe(true);
    actor.send(reason('   '));
    actor.send(confirm);
    expect(actor.getSnapshot().context.reasonError).toBe(USER_MESSAGES.blockReasonRequired);
    expect(called('runAction')).toHaveLength(0);
    actor.send(reason(' Left the company '));
    expect(actor.getSnapshot().context.reasonError).toBeNull();
    actor.send(confirm);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('runAction').map((c) => c.input)).toEqual([{ kind: 'block', uuid: user.uuid, reason: 'Left the company' }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(USER_MESSAGES.blocked(user.name));
    expect(userChanged).toHaveBeenCalledOnce();
  });

  it('a refusal keeps the reason step with the reason as typed and the server message inline', async () => {
    const { actor, notifyFailure } = startActions({ run: [refused(USER_MESSAGES.lastAdminRefused)] });
    actor.send({ type: 'user.block', user });
    actor.send(reason('Left the company'));
    actor.send(confirm);
    const snapshot = await waitFor(actor, (s) => s.matches({ dialog: 'reason' }));
    expect(snapshot.context).toMatchObject({ reason: 'Left the company', failure: USER_MESSAGES.lastAdminRefused });
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(USER_MESSAGES.lastAdminRefused);
  });

  it('a blocked row offers no Block, and an unblocked row no Unblock', () => {
    const { actor } = startActions();
    expect(actor.getSnapshot().can({ type: 'user.block', user: blocked })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'user.unblock', user })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'user.disableMfa', user })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'user.restore', user })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'user.delete', user: deleted })).toBe(false);
  });
});

describe('user actions machine: Extend expiration', () => {
  it('offers the default days, takes another choice and extends by it', async () => {
    const { actor, called, notifySuccess } = startActions();
    actor.send({ type: 'user.extend', user });
    expect(actor.getSnapshot().matches({ dialog: 'days' })).toBe(true);
    expect(actor.getSnapshot().context.days).toBe(DEFAULT_USER_EXTENSION_DAYS);
    actor.send(days(0));
    actor.send(days(1.5));
    expect(actor.getSnapshot().context.days).toBe(DEFAULT_USER_EXTENSION_DAYS);
    actor.send(days(180));
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('runAction').map((c) => c.input)).toEqual([{ kind: 'extend', uuid: user.uuid, days: 180 }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(USER_MESSAGES.extended(user.name, 180));
  });

  it('no answer keeps the days step with the unexpected-error message', async () => {
    const { actor, notifyFailure } = startActions({ run: [new TypeError('fetch failed')] });
    actor.send({ type: 'user.extend', user });
    actor.send(confirm);
    const snapshot = await waitFor(actor, (s) => s.matches({ dialog: 'days' }));
    expect(snapshot.context.failure).toBe(USER_MESSAGES.unexpected);
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(USER_MESSAGES.unexpected);
  });
});

describe('user actions machine: the confirmed actions', () => {
  const cases: Array<[UserActionsEvent & { user: PortalUser }, UserActionKind, string]> = [
    [{ type: 'user.unblock', user: blocked }, 'unblock', USER_MESSAGES.unblocked(user.name)],
    [{ type: 'user.disableMfa', user: withMfa }, 'disableMfa', USER_MESSAGES.mfaDisabled(user.name)],
    [{ type: 'user.resetAttempts', user }, 'resetAttempts', USER_MESSAGES.attemptsReset(user.name)],
    [{ type: 'user.delete', user }, 'delete', USER_MESSAGES.deleted(user.name)],
    [{ type: 'user.hardDelete', user: deleted }, 'hardDelete', USER_MESSAGES.hardDeleted(user.name)],
    [{ type: 'user.restore', user: deleted }, 'restore', USER_MESSAGES.restored(user.name)],
  ];

  it.each(cases)('%o asks first, then runs %s and says so', async (event, kind, message) => {
    const { actor, called, notifySuccess, userChanged } = startActions();
    actor.send(event);
    expect(actor.getSnapshot().matches({ dialog: 'confirming' })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ kind, user: event.user });
    expect(called('runAction')).toHaveLength(0);
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('runAction').map((c) => c.input)).toEqual([{ kind, uuid: user.uuid }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(message);
    expect(userChanged).toHaveBeenCalledOnce();
  });

  it('a refusal stays in the confirmation with the server message, and confirming again clears it', async () => {
    const { actor, notifyFailure } = startActions({ run: [refused(USER_MESSAGES.selfRefused), 'hang'] });
    actor.send({ type: 'user.delete', user });
    actor.send(confirm);
    const snapshot = await waitFor(actor, (s) => s.matches({ dialog: 'confirming' }));
    expect(snapshot.context.failure).toBe(USER_MESSAGES.selfRefused);
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(USER_MESSAGES.selfRefused);
    actor.send(confirm);
    expect(actor.getSnapshot().context.failure).toBeNull();
  });

  it.each([close])('%o (Cancel or the close icon) closes the dialog without a call', (event) => {
    const { actor, called } = startActions();
    actor.send({ type: 'user.hardDelete', user });
    actor.send(event);
    expect(actor.getSnapshot().value).toBe('closed');
    expect(called('runAction')).toHaveLength(0);
  });

  it('cannot be closed while running, and stopping aborts the request', async () => {
    const { actor, called } = startActions({ run: ['hang'] });
    actor.send({ type: 'user.resetAttempts', user });
    actor.send(confirm);
    expect(actor.getSnapshot().can(close)).toBe(false);
    expect(actor.getSnapshot().can(close)).toBe(false);
    await vi.waitFor(() => expect(called('runAction')).toHaveLength(1));
    actor.stop();
    expect(called('runAction')[0]!.signal.aborted).toBe(true);
  });
});

describe('userBlockReasonProblem', () => {
  it('requires a reason of at most 500 characters', () => {
    expect(userBlockReasonProblem('  ')).toBe(USER_MESSAGES.blockReasonRequired);
    expect(userBlockReasonProblem('x'.repeat(501))).toBe('Block reason must be at most 500 characters');
    expect(userBlockReasonProblem(` ${'x'.repeat(500)} `)).toBeNull();
  });
});
