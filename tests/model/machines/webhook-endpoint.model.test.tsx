// Webhooks → Add endpoint / Edit (webhookEndpoint machine): its generated paths walked on the
// machine and through the /alerts/webhooks page (one endpoint listed, whose row's Edit opens the
// form), plus journeys pinned by hand.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { WEBHOOK_EVENT_LABELS, type WebhookEventType } from '../../../src/domain/webhooks';
import { validateWebhookForm, webhookEndpointMachine } from '../../../src/machines/webhook-endpoint';
import { WEBHOOK_TEXTS as T } from '../../../src/ui/webhooks/parts';
import { ok } from '../../machines/scripted-actors';
import {
  SECRET,
  cancel,
  close,
  copy,
  create,
  createdSecret,
  edit,
  endpointWire,
  eventTypes,
  field,
  privateAddressMessage,
  refusal,
  startEndpointForm,
  submit,
} from '../../fixtures/webhooks';
import { defineModel, done, failed } from '../framework/model';
import type { PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';
import { openWebhooksPage, rowButton } from './webhooks-page';

const endpoint = endpointWire();
const TITLES = { create: T.addTitle, edit: T.editTitle } as const;
const formDialog = () => within(screen.getByRole('dialog', { name: /^(Add|Edit) webhook endpoint$/ }));
const secretDialog = () => within(screen.getByRole('dialog', { name: T.secretTitle }));
const button = (name: string) => formDialog().getByRole('button', { name }) as HTMLButtonElement;
const input = (label: 'URL' | 'Description') => formDialog().getByLabelText(label) as HTMLInputElement;

/** The one event type a click on its checkbox toggles to reach `next`, or null when no single click does. */
function toggled(current: readonly WebhookEventType[], next: readonly WebhookEventType[]): WebhookEventType | null {
  const changed = [...current.filter((t) => !next.includes(t)), ...next.filter((t) => !current.includes(t))];
  return changed.length === 1 ? changed[0]! : null;
}

function expectSaving(mode: keyof typeof TITLES) {
  expect(screen.getByRole('dialog', { name: TITLES[mode] })).toBeTruthy();
  expect(button(T.saving).disabled).toBe(true);
  expect(button('Cancel').disabled).toBe(true);
  expect(input('URL').disabled).toBe(true);
}

function expectSecret(copyText: string | null) {
  expect((secretDialog().getByLabelText('Signing secret') as HTMLInputElement).value).toBe(SECRET);
  expect(secretDialog().getByText(T.secretOnce)).toBeTruthy();
  expect(screen.queryByRole('dialog', { name: /^(Add|Edit) webhook endpoint$/ })).toBeNull();
  for (const text of [T.copied, T.copyFailed]) expect(secretDialog().queryByText(text) !== null).toBe(text === copyText);
}

export const webhookEndpointModel = defineModel<typeof webhookEndpointMachine, PageScreen>({
  name: 'webhook-endpoint',
  machine: webhookEndpointMachine,
  events: {
    'user.create': [create],
    'user.edit': [edit(endpoint)],
    // An empty URL is refused on the client; a good one goes to the server.
    'user.field': [field('url', 'https://receiver.example.com/in'), field('url', '')],
    'user.eventTypes': [eventTypes('alert.opened')],
    'user.submit': [submit],
    'user.cancel': [cancel],
    'user.copy': [copy],
    'user.close': [close],
  },
  actorResults: [
    done('createEndpoint', ok(createdSecret)),
    done('createEndpoint', refusal(400, privateAddressMessage, [{ path: 'url', message: privateAddressMessage }])),
    failed('createEndpoint', new TypeError('fetch failed')),
    done('updateEndpoint', ok(endpoint)),
    done('updateEndpoint', refusal(404, 'Webhook endpoint not found')),
    failed('updateEndpoint', new TypeError('fetch failed')),
    done('copySecret', undefined),
    failed('copySecret', new Error('No clipboard')),
  ],
  states: {
    closed: (s) => {
      expect(s.hasTag('open')).toBe(false);
      expect(s.hasTag('secret')).toBe(false);
      expect(s.context.secret).toBeNull();
    },
    editing: (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.hasTag('busy')).toBe(false);
      if (s.context.mode === 'create') expect(s.context.endpointId).toBeNull();
      else expect(s.context.endpointId).toBe(endpoint.id);
    },
    'saving.choosing': (s) => expect(s.hasTag('busy')).toBe(true),
    'saving.creating': (s) => {
      expect(s.can(cancel)).toBe(false);
      expect(s.context.mode).toBe('create');
      expect(validateWebhookForm(s.context.form)).toEqual({});
    },
    'saving.updating': (s) => {
      expect(s.can(cancel)).toBe(false);
      expect(s.context).toMatchObject({ mode: 'edit', endpointId: endpoint.id });
    },
    'showingSecret.shown': (s) => expect(s.context.secret).toBe(SECRET),
    'showingSecret.copying': (s) => expect(s.context.secret).toBe(SECRET),
    'showingSecret.copied': (s) => expect(s.context.secret).toBe(SECRET),
    'showingSecret.copyFailed': (s) => expect(s.context.secret).toBe(SECRET),
  },
  ui: {
    open: (seam) => openWebhooksPage(seam, [endpoint]),
    drivable: (snapshot, event) => {
      if (event.type === 'user.eventTypes') return toggled(snapshot.context.form.eventTypes, event.eventTypes) !== null;
      // Clearing an empty box (and pasting nothing) fires no input event.
      if (event.type === 'user.field') return event.value !== '' || snapshot.context.form[event.field] !== '';
      return true;
    },
    events: {
      'user.create': async ({ user }) => user.click(screen.getByRole('button', { name: T.addEndpoint })),
      'user.edit': async ({ user }, event) => user.click(rowButton('Edit', event.endpoint)),
      'user.field': async ({ user }, event) => {
        const target = input(event.field === 'url' ? 'URL' : 'Description');
        await user.clear(target);
        if (event.value) await user.paste(event.value);
      },
      'user.eventTypes': async ({ user }, _event) => {
        // drivable let only one-click changes through; which one is read from the screen's own boxes.
        const boxes = SUBSCRIBABLE.map((type) => ({ type, box: formDialog().getByLabelText(WEBHOOK_EVENT_LABELS[type]) as HTMLInputElement }));
        const current = boxes.filter((b) => b.box.checked).map((b) => b.type);
        await user.click(formDialog().getByLabelText(WEBHOOK_EVENT_LABELS[toggled(current, _event.eventTypes)!]));
      },
      'user.submit': async ({ user }) => user.click(button('Save')),
      'user.cancel': async ({ user }) => user.click(button('Cancel')),
      'user.copy': async ({ user }) => user.click(secretDialog().getByRole('button', { name: T.copy })),
      'user.close': async ({ user }) => user.click(secretDialog().getByRole('button', { name: 'Done' })),
    },
    states: {
      closed: () => {
        expect(screen.queryByRole('dialog')).toBeNull();
        expect(screen.getByRole('button', { name: T.addEndpoint })).toHaveProperty('disabled', false);
      },
      editing: ({ context }) => {
        expect(screen.getByRole('dialog', { name: TITLES[context.mode] })).toBeTruthy();
        expect(input('URL').value).toBe(context.form.url);
        expect(input('Description').value).toBe(context.form.description);
        for (const type of SUBSCRIBABLE) {
          expect((formDialog().getByLabelText(WEBHOOK_EVENT_LABELS[type]) as HTMLInputElement).checked).toBe(context.form.eventTypes.includes(type));
        }
        for (const message of Object.values(context.errors)) if (message) expect(formDialog().getByText(message)).toBeTruthy();
        expect(input('URL').getAttribute('aria-invalid')).toBe(context.errors.url ? 'true' : 'false');
        if (context.failure) expect(formDialog().getByText(context.failure)).toBeTruthy();
        expect(button('Save').disabled).toBe(false);
      },
      // Left in the same microstep it is entered: the page never rests here.
      'saving.choosing': () => expect(button(T.saving).disabled).toBe(true),
      'saving.creating': () => expectSaving('create'),
      'saving.updating': () => expectSaving('edit'),
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

const SUBSCRIBABLE: readonly WebhookEventType[] = ['alert.opened', 'alert.acknowledged', 'alert.resolved'];

modelSuite(webhookEndpointModel);

describe('webhook endpoint machine (pinned journeys)', () => {
  it('a private address refused, a public one added, its secret copied and closed: one endpoint, the secret gone', async () => {
    const { actor, called, endpointSaved } = startEndpointForm({ create: [refusal(400, privateAddressMessage, [{ path: 'url', message: privateAddressMessage }]), ok(createdSecret)] });
    actor.send(create);
    actor.send(field('url', 'https://intranet.example.com/hook'));
    actor.send(submit);
    expect((await waitFor(actor, (s) => s.matches('editing') && s.context.errors.url !== undefined)).context.errors.url).toBe(privateAddressMessage);
    actor.send(field('url', 'https://receiver.example.com/in'));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches({ showingSecret: 'shown' }));
    actor.send(copy);
    await waitFor(actor, (s) => s.matches({ showingSecret: 'copied' }));
    actor.send(close);
    const end = actor.getSnapshot();
    expect(end.value).toBe('closed');
    expect(end.context.secret).toBeNull();
    expect(called('createEndpoint').map((c) => (c.input as { url: string }).url)).toEqual(['https://intranet.example.com/hook', 'https://receiver.example.com/in']);
    expect(endpointSaved).toHaveBeenCalledOnce();
  });
});
