import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { WEBHOOK_MESSAGES } from '../../src/domain/webhooks';
import { WEBHOOK_ACTION_TEXTS } from '../../src/machines/webhook-actions';
import { DELIVERY_ID, close, confirm, copy, endpointWire, failingEndpoint, pausedEndpoint, replay, rotatedSecret, row, startActions } from '../fixtures/webhooks';
import { ok, refused } from './scripted-actors';

const endpoint = endpointWire();

describe('webhook actions machine: actions that run at once', () => {
  it.each([
    ['user.test', 'test', WEBHOOK_MESSAGES.testQueued],
    ['user.disable', 'disable', WEBHOOK_ACTION_TEXTS.disabled],
  ] as const)('%s runs once without a dialog, toasts and reloads the page', async (type, kind, message) => {
    const { actor, called, notifySuccess, endpointChanged } = startActions();
    actor.send(row(type, endpoint));
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().hasTag('open')).toBe(false);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('runAction').map((c) => c.input)).toEqual([{ kind, endpointId: endpoint.id }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(message);
    expect(endpointChanged).toHaveBeenCalledOnce();
  });

  it('enables a disabled endpoint, and offers neither test, disable nor replay on it', async () => {
    const { actor, called, notifySuccess } = startActions();
    expect(actor.getSnapshot().can(row('user.test', failingEndpoint))).toBe(false);
    expect(actor.getSnapshot().can(row('user.disable', pausedEndpoint))).toBe(false);
    expect(actor.getSnapshot().can(replay(failingEndpoint))).toBe(false);
    expect(actor.getSnapshot().can(row('user.enable', endpoint))).toBe(false);
    actor.send(row('user.enable', failingEndpoint));
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('runAction').map((c) => c.input)).toEqual([{ kind: 'enable', endpointId: failingEndpoint.id }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(WEBHOOK_MESSAGES.enabled);
  });

  it('replays the delivery it was given', async () => {
    const { actor, called, notifySuccess } = startActions();
    actor.send(replay());
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('runAction').map((c) => c.input)).toEqual([{ kind: 'replay', endpointId: endpoint.id, deliveryId: DELIVERY_ID }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(WEBHOOK_MESSAGES.replayQueued);
  });

  it("a refusal is a toast in the server's words and changes nothing", async () => {
    const { actor, notifyFailure, endpointChanged } = startActions({ run: [refused(WEBHOOK_MESSAGES.endpointDisabled)] });
    actor.send(row('user.test', endpoint));
    await waitFor(actor, (s) => s.matches('closed'));
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(WEBHOOK_MESSAGES.endpointDisabled);
    expect(endpointChanged).not.toHaveBeenCalled();
  });

  it('takes one action at a time: a second click while one runs is ignored', () => {
    const { actor } = startActions({ run: ['hang'] });
    actor.send(row('user.test', endpoint));
    expect(actor.getSnapshot().can(row('user.disable', endpoint))).toBe(false);
    expect(actor.getSnapshot().can(row('user.delete', endpoint))).toBe(false);
  });
});

describe('webhook actions machine: rotate and delete', () => {
  it('asks before rotating, then shows the new secret once and copies it', async () => {
    const { actor, called, endpointChanged } = startActions();
    actor.send(row('user.rotate', endpoint));
    expect(actor.getSnapshot().matches({ dialog: 'confirming' })).toBe(true);
    expect(called('rotateSecret')).toHaveLength(0);
    actor.send(confirm);
    expect(actor.getSnapshot().can(close)).toBe(false);
    const shown = await waitFor(actor, (s) => s.hasTag('secret'));
    expect(shown.context.secret).toBe(rotatedSecret.secret);
    expect(endpointChanged).toHaveBeenCalledOnce();
    actor.send(copy);
    await waitFor(actor, (s) => s.matches({ showingSecret: 'copied' }));
    expect(called('copySecret').map((c) => c.input)).toEqual([{ secret: rotatedSecret.secret }]);
    actor.send(close);
    expect(actor.getSnapshot().matches('closed')).toBe(true);
    expect(actor.getSnapshot().context.secret).toBeNull();
  });

  it("keeps the delete question open with the server's words when it refuses, and deletes on the second try", async () => {
    const { actor, called, notifySuccess } = startActions({ run: [refused('Webhook endpoint not found'), ok(null)] });
    actor.send(row('user.delete', endpoint));
    actor.send(confirm);
    const back = await waitFor(actor, (s) => s.matches({ dialog: 'confirming' }) && s.context.failure !== null);
    expect(back.context.failure).toBe('Webhook endpoint not found');
    actor.send(confirm);
    expect(actor.getSnapshot().context.failure).toBeNull();
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('runAction').map((c) => c.input)).toEqual([
      { kind: 'delete', endpointId: endpoint.id },
      { kind: 'delete', endpointId: endpoint.id },
    ]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(WEBHOOK_MESSAGES.deleted);
  });

  it('a rotation that fails without an answer stays on the question and says so', async () => {
    const { actor } = startActions({ rotate: [new Error('network')] });
    actor.send(row('user.rotate', endpoint));
    actor.send(confirm);
    const back = await waitFor(actor, (s) => s.matches({ dialog: 'confirming' }) && s.context.failure !== null);
    expect(back.context.failure).toBe(WEBHOOK_ACTION_TEXTS.failed);
    expect(back.context.secret).toBeNull();
  });
});
