import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { WEBHOOK_MESSAGES } from '../../src/domain/webhooks';
import { refusalPlacement, validateWebhookForm } from '../../src/machines/webhook-endpoint';
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
} from '../fixtures/webhooks';
import { ok } from './scripted-actors';

describe('webhook endpoint machine: add', () => {
  it('checks the URL on the client first: nothing is sent while it is not a URL the server could take', () => {
    const { actor, called } = startEndpointForm();
    actor.send(create);
    actor.send(submit);
    expect(actor.getSnapshot().context.errors.url).toBe(WEBHOOK_MESSAGES.urlRequired);
    actor.send(field('url', 'ftp://hooks.example.com'));
    expect(actor.getSnapshot().context.errors.url).toBeUndefined();
    actor.send(submit);
    expect(actor.getSnapshot().context.errors.url).toBe(WEBHOOK_MESSAGES.urlNotHttps);
    actor.send(field('url', 'https://user:pw@hooks.example.com'));
    actor.send(submit);
    expect(actor.getSnapshot().context.errors.url).toBe(WEBHOOK_MESSAGES.urlCredentials);
    expect(actor.getSnapshot().value).toBe('editing');
    expect(called('createEndpoint')).toHaveLength(0);
  });

  it('sends the trimmed form and shows the secret once, then forgets it when closed', async () => {
    const { actor, called, endpointSaved } = startEndpointForm();
    actor.send(create);
    actor.send(field('url', '  https://hooks.example.com/portal  '));
    actor.send(field('description', ' Ops pager '));
    actor.send(eventTypes('alert.opened'));
    actor.send(submit);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().can(cancel)).toBe(false);
    const shown = await waitFor(actor, (s) => s.hasTag('secret'));
    expect(shown.context.secret).toBe(SECRET);
    expect(called('createEndpoint').map((c) => c.input)).toEqual([{ url: 'https://hooks.example.com/portal', description: 'Ops pager', eventTypes: ['alert.opened'] }]);
    expect(endpointSaved).toHaveBeenCalledOnce();
    actor.send(close);
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.secret).toBeNull();
  });

  it("puts the server's refusal of a private address on the URL field, and the next edit of the URL clears it", async () => {
    const { actor, notifyFailure } = startEndpointForm({ create: [refusal(400, privateAddressMessage), ok(createdSecret)] });
    actor.send(create);
    actor.send(field('url', 'https://intranet.example.com/hook'));
    actor.send(submit);
    const back = await waitFor(actor, (s) => s.matches('editing') && s.context.errors.url !== undefined);
    expect(back.context.errors.url).toBe(privateAddressMessage);
    expect(back.context.failure).toBeNull();
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(privateAddressMessage);
    actor.send(field('url', 'https://hooks.example.com/portal'));
    expect(actor.getSnapshot().context.errors.url).toBeUndefined();
    actor.send(submit);
    await waitFor(actor, (s) => s.hasTag('secret'));
  });

  it('a failure without an answer sits above the form, and the form keeps what was typed', async () => {
    const { actor } = startEndpointForm({ create: [new Error('network')] });
    actor.send(create);
    actor.send(field('url', 'https://hooks.example.com/portal'));
    actor.send(submit);
    const back = await waitFor(actor, (s) => s.matches('editing') && s.context.failure !== null);
    expect(back.context.failure).toMatch(/^Failed to add the webhook endpoint/);
    expect(back.context.form.url).toBe('https://hooks.example.com/portal');
  });

  it('copies the secret, and says to copy it by hand when there is no clipboard', async () => {
    const { actor, called } = startEndpointForm({ copy: [new Error('denied'), undefined] });
    actor.send(create);
    actor.send(field('url', 'https://hooks.example.com/portal'));
    actor.send(submit);
    await waitFor(actor, (s) => s.hasTag('secret'));
    actor.send(copy);
    await waitFor(actor, (s) => s.matches({ showingSecret: 'copyFailed' }));
    actor.send(copy);
    await waitFor(actor, (s) => s.matches({ showingSecret: 'copied' }));
    expect(called('copySecret').map((c) => c.input)).toEqual([{ secret: SECRET }, { secret: SECRET }]);
  });
});

describe('webhook endpoint machine: edit', () => {
  it('starts from the endpoint, saves with PATCH and closes without a secret', async () => {
    const { actor, called, notifySuccess, endpointSaved } = startEndpointForm();
    actor.send(edit());
    expect(actor.getSnapshot().context.form).toEqual({ url: endpointWire().url, description: 'Ops pager', eventTypes: ['alert.opened', 'alert.resolved'] });
    actor.send(eventTypes());
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('updateEndpoint').map((c) => c.input)).toEqual([{ id: endpointWire().id, update: { url: endpointWire().url, description: 'Ops pager', eventTypes: [] } }]);
    expect(called('createEndpoint')).toHaveLength(0);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(WEBHOOK_MESSAGES.updated);
    expect(endpointSaved).toHaveBeenCalledOnce();
    expect(actor.getSnapshot().context.secret).toBeNull();
  });

  it("a 400 naming its field lands on that field; a 404 sits above the form", async () => {
    const { actor } = startEndpointForm({
      update: [refusal(400, 'Validation failed', [{ path: 'body.description', message: WEBHOOK_MESSAGES.descriptionTooLong }]), refusal(404, WEBHOOK_MESSAGES.endpointNotFound)],
    });
    actor.send(edit());
    actor.send(submit);
    const first = await waitFor(actor, (s) => s.matches('editing') && s.context.errors.description !== undefined);
    expect(first.context.errors).toEqual({ description: WEBHOOK_MESSAGES.descriptionTooLong });
    actor.send(submit);
    const second = await waitFor(actor, (s) => s.matches('editing') && s.context.failure !== null);
    expect(second.context.failure).toBe(WEBHOOK_MESSAGES.endpointNotFound);
    expect(second.context.errors.url).toBeUndefined();
  });

  it('cancelling forgets the edit: Add starts empty', () => {
    const { actor } = startEndpointForm();
    actor.send(edit());
    actor.send(field('url', 'https://changed.example.com'));
    actor.send(cancel);
    actor.send(create);
    expect(actor.getSnapshot().context).toMatchObject({ mode: 'create', endpointId: null, form: { url: '', description: '', eventTypes: [] }, errors: {} });
  });
});

describe('webhook form rules', () => {
  it('lets plain http to localhost through to the server, which has the word on whether it is allowed', () => {
    expect(validateWebhookForm({ url: 'http://127.0.0.1:9000/hook', description: '', eventTypes: [] })).toEqual({});
    expect(validateWebhookForm({ url: 'http://hooks.example.com', description: '', eventTypes: [] }).url).toBe(WEBHOOK_MESSAGES.urlHttpOnlyLocalhost);
    expect(validateWebhookForm({ url: 'https://a.example', description: 'x'.repeat(201), eventTypes: [] }).description).toBe(WEBHOOK_MESSAGES.descriptionTooLong);
  });

  it('places a refusal: named fields first, a bare 400 on the URL, the endpoint limit above the form', () => {
    expect(refusalPlacement({ ok: false, status: 400, message: privateAddressMessage })).toEqual({ errors: { url: privateAddressMessage }, failure: null });
    expect(refusalPlacement({ ok: false, status: 400, message: 'Validation failed', errors: [{ path: 'eventTypes.0', message: 'Unknown event type' }] })).toEqual({
      errors: { eventTypes: 'Unknown event type' },
      failure: null,
    });
    expect(refusalPlacement({ ok: false, status: 400, message: WEBHOOK_MESSAGES.tooManyEndpoints })).toEqual({ errors: {}, failure: WEBHOOK_MESSAGES.tooManyEndpoints });
    expect(refusalPlacement({ ok: false, status: 403, message: 'Forbidden' })).toEqual({ errors: {}, failure: 'Forbidden' });
  });
});
