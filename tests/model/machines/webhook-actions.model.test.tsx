// Webhooks → the row actions (webhookActions machine): Send test, Enable / Disable, a delivery's
// Replay, Rotate secret (with the secret shown once) and Delete, walked on the machine and through
// the /alerts/webhooks page (an active endpoint and one disabled after failures), plus journeys
// pinned by hand.
import { screen, waitFor as waitForDom, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { WEBHOOK_ACTION_TEXTS, webhookActionsMachine } from '../../../src/machines/webhook-actions';
import { DELETE_TITLE, ROTATE_TITLE } from '../../../src/ui/webhooks/ConfirmActionDialog';
import { WEBHOOK_TEXTS as T } from '../../../src/ui/webhooks/parts';
import { ok, refused } from '../../machines/scripted-actors';
import { DELIVERY_ID, close, confirm, copy, deliveryWire, endpointWire, failingEndpoint, replay, rotatedSecret, row, startActions } from '../../fixtures/webhooks';
import { defineModel, done, failed } from '../framework/model';
import type { PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';
import { openWebhooksPage, rowButton } from './webhooks-page';

const active = endpointWire();
const delivery = deliveryWire();
const ROW_LABELS = { 'user.test': 'Send test', 'user.enable': 'Enable', 'user.disable': 'Disable', 'user.rotate': 'Rotate secret', 'user.delete': 'Delete' } as const;
const TITLES = { rotate: ROTATE_TITLE, delete: DELETE_TITLE } as const;
const confirmDialog = () => within(screen.getByRole('dialog', { name: /^(Rotate secret|Delete webhook endpoint)$/ }));
const secretDialog = () => within(screen.getByRole('dialog', { name: T.secretTitle }));
const logTitle = `Deliveries: ${active.url}`;
const replayName = `Replay Alert opened ${delivery.eventId}`;

/** The delivery log, if open, sits over the rows: a person closes it before using a row. */
async function closeLog(user: PageScreen['user']) {
  const log = screen.queryByRole('dialog', { name: logTitle });
  if (log) await user.click(within(log).getByRole('button', { name: 'Done' }));
  await waitForDom(() => expect(screen.queryByRole('dialog', { name: logTitle })).toBeNull());
}

function expectSecret(copyText: string | null) {
  expect((secretDialog().getByLabelText('Signing secret') as HTMLInputElement).value).toBe(rotatedSecret.secret);
  expect(screen.queryByRole('dialog', { name: /^(Rotate secret|Delete webhook endpoint)$/ })).toBeNull();
  for (const text of [T.copied, T.copyFailed]) expect(secretDialog().queryByText(text) !== null).toBe(text === copyText);
}

export const webhookActionsModel = defineModel<typeof webhookActionsMachine, PageScreen>({
  name: 'webhook-actions',
  machine: webhookActionsMachine,
  events: {
    // The disabled endpoint's test is there to prove the guard holds it back.
    'user.test': [row('user.test', active), row('user.test', failingEndpoint)],
    'user.enable': [row('user.enable', failingEndpoint)],
    'user.disable': [row('user.disable', active)],
    'user.rotate': [row('user.rotate', active)],
    'user.delete': [row('user.delete', active)],
    'user.replay': [replay(active, delivery)],
    'user.confirm': [confirm],
    'user.close': [close],
    'user.copy': [copy],
  },
  actorResults: [
    done('runAction', ok(null)),
    done('runAction', refused('Refused')),
    failed('runAction', new TypeError('fetch failed')),
    done('rotateSecret', ok(rotatedSecret)),
    done('rotateSecret', refused('Refused')),
    failed('rotateSecret', new TypeError('fetch failed')),
    done('copySecret', undefined),
    failed('copySecret', new Error('No clipboard')),
  ],
  states: {
    closed: (s) => {
      expect(s.hasTag('busy')).toBe(false);
      expect(s.hasTag('open')).toBe(false);
      expect(s.context.secret).toBeNull();
    },
    running: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(['test', 'enable', 'disable', 'replay']).toContain(s.context.kind);
      if (s.context.kind === 'replay') expect(s.context.delivery?.id).toBe(DELIVERY_ID);
    },
    'dialog.confirming': (s) => {
      expect(s.hasTag('busy')).toBe(false);
      expect(['rotate', 'delete']).toContain(s.context.kind);
    },
    'dialog.rotating': (s) => {
      expect(s.can(close)).toBe(false);
      expect(s.context.kind).toBe('rotate');
    },
    'dialog.deleting': (s) => {
      expect(s.can(close)).toBe(false);
      expect(s.context.kind).toBe('delete');
    },
    'showingSecret.shown': (s) => expect(s.context.secret).toBe(rotatedSecret.secret),
    'showingSecret.copying': (s) => expect(s.context.secret).toBe(rotatedSecret.secret),
    'showingSecret.copied': (s) => expect(s.context.secret).toBe(rotatedSecret.secret),
    'showingSecret.copyFailed': (s) => expect(s.context.secret).toBe(rotatedSecret.secret),
  },
  ui: {
    open: (seam) => openWebhooksPage(seam, [active, failingEndpoint]),
    // A row's button is enabled only for what the endpoint's status allows.
    drivable: (_snapshot, event) => {
      if (event.type === 'user.test' || event.type === 'user.disable' || event.type === 'user.replay') return event.endpoint.status === 'active';
      if (event.type === 'user.enable') return event.endpoint.status === 'disabled';
      return true;
    },
    events: {
      'user.test': async ({ user }, event) => {
        await closeLog(user);
        await user.click(rowButton(ROW_LABELS[event.type], event.endpoint));
      },
      'user.enable': async ({ user }, event) => {
        await closeLog(user);
        await user.click(rowButton(ROW_LABELS[event.type], event.endpoint));
      },
      'user.disable': async ({ user }, event) => {
        await closeLog(user);
        await user.click(rowButton(ROW_LABELS[event.type], event.endpoint));
      },
      'user.rotate': async ({ user }, event) => {
        await closeLog(user);
        await user.click(rowButton(ROW_LABELS[event.type], event.endpoint));
      },
      'user.delete': async ({ user }, event) => {
        await closeLog(user);
        await user.click(rowButton(ROW_LABELS[event.type], event.endpoint));
      },
      'user.replay': async ({ user }, event) => {
        if (!screen.queryByRole('dialog', { name: logTitle })) await user.click(rowButton('Deliveries', event.endpoint));
        const log = within(await screen.findByRole('dialog', { name: logTitle }, { timeout: 5000 }));
        await user.click(await log.findByRole('button', { name: replayName }, { timeout: 5000 }));
      },
      'user.confirm': async ({ user }) => user.click(confirmDialog().getByRole('button', { name: /^(Rotate|Delete)$/ })),
      'user.close': async ({ user }) => {
        if (screen.queryByRole('dialog', { name: T.secretTitle })) await user.click(secretDialog().getByRole('button', { name: 'Done' }));
        else await user.click(confirmDialog().getByRole('button', { name: 'Cancel' }));
      },
      'user.copy': async ({ user }) => user.click(secretDialog().getByRole('button', { name: T.copy })),
    },
    states: {
      closed: () => {
        expect(screen.queryByRole('dialog', { name: /^(Rotate secret|Delete webhook endpoint|Webhook secret)$/ })).toBeNull();
        expect(rowButton('Send test', active).disabled).toBe(false);
        expect(rowButton('Enable', failingEndpoint).disabled).toBe(false);
        expect(rowButton('Send test', failingEndpoint).disabled).toBe(true);
      },
      running: () => {
        // One action at a time: every row button waits.
        expect(rowButton('Send test', active).disabled).toBe(true);
        expect(rowButton('Delete', active).disabled).toBe(true);
        expect(rowButton('Enable', failingEndpoint).disabled).toBe(true);
      },
      'dialog.confirming': ({ context }) => {
        const kind = context.kind as 'rotate' | 'delete';
        const dialog = within(screen.getByRole('dialog', { name: TITLES[kind] }));
        const question = kind === 'rotate' ? WEBHOOK_ACTION_TEXTS.rotateQuestion(active.url) : WEBHOOK_ACTION_TEXTS.deleteQuestion(active.url);
        expect(dialog.getByText(question)).toBeTruthy();
        if (context.failure) expect(dialog.getByText(context.failure)).toBeTruthy();
        expect((dialog.getByRole('button', { name: kind === 'rotate' ? 'Rotate' : 'Delete' }) as HTMLButtonElement).disabled).toBe(false);
      },
      'dialog.rotating': () => {
        const dialog = within(screen.getByRole('dialog', { name: ROTATE_TITLE }));
        expect((dialog.getByRole('button', { name: T.working }) as HTMLButtonElement).disabled).toBe(true);
        expect((dialog.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
      },
      'dialog.deleting': () => {
        const dialog = within(screen.getByRole('dialog', { name: DELETE_TITLE }));
        expect((dialog.getByRole('button', { name: T.working }) as HTMLButtonElement).disabled).toBe(true);
        expect((dialog.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
      },
      'showingSecret.shown': () => expectSecret(null),
      'showingSecret.copying': () => {
        expectSecret(null);
        expect((secretDialog().getByRole('button', { name: T.copy }) as HTMLButtonElement).disabled).toBe(true);
      },
      'showingSecret.copied': () => expectSecret(T.copied),
      'showingSecret.copyFailed': () => expectSecret(T.copyFailed),
    },
  },
});

modelSuite(webhookActionsModel);

describe('webhook actions machine (pinned journeys)', () => {
  it('a refused test, a rotation with its secret copied, then a delete: three changes, the secret gone', async () => {
    const { actor, called, endpointChanged } = startActions({ run: [refused('The endpoint is disabled: enable it first'), ok(null)] });
    actor.send(row('user.test', active));
    await waitFor(actor, (s) => s.matches('closed'));
    actor.send(row('user.rotate', active));
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches({ showingSecret: 'shown' }));
    actor.send(copy);
    await waitFor(actor, (s) => s.matches({ showingSecret: 'copied' }));
    actor.send(close);
    actor.send(row('user.delete', active));
    actor.send(confirm);
    const end = await waitFor(actor, (s) => s.matches('closed') && called('runAction').length === 2);
    expect(end.context).toMatchObject({ kind: 'delete', secret: null, failure: null });
    expect(called('runAction').map((c) => c.input)).toEqual([
      { kind: 'test', endpointId: active.id },
      { kind: 'delete', endpointId: active.id },
    ]);
    expect(called('rotateSecret').map((c) => c.input)).toEqual([{ endpointId: active.id }]);
    expect(endpointChanged).toHaveBeenCalledTimes(2);
  });
});
