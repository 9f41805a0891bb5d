// The Webhooks page through the whole client (composition root, router, session, the endpoint list,
// the add/edit and row-action machines, the delivery log, the views) against a fake of the portal
// API at the fetch seam that keeps the endpoints and deliveries it was told about.
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { AdminUser } from '../../src/domain/auth';
import { WEBHOOK_MESSAGES, type WebhookDeliveryWire, type WebhookEndpointWire } from '../../src/domain/webhooks';
import { WEBHOOK_TEXTS } from '../../src/ui/webhooks/parts';
import { adminProfile, userProfile } from '../machines/fixtures';
import { SECRET, deliveryWire, endpointWire, failingEndpoint, privateAddressMessage, replayedDelivery } from '../fixtures/webhooks';
import { enteredDialog } from './dialogs';
import { openSignedInAt } from './open-app';
import { fill } from './fill';

const NEW_ID = 'e0000000-0000-4000-8000-0000000000aa';

function fakePortalApi(initial: WebhookEndpointWire[] = [endpointWire()], profile: AdminUser = adminProfile) {
  const endpoints = [...initial];
  const deliveries: WebhookDeliveryWire[] = [deliveryWire()];
  const calls: string[] = [];
  const bodies: Array<[string, unknown]> = [];
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const ok = (data: unknown, status = 200) => json(status, { success: true, message: 'ok', data });
  const fail = (status: number, message: string) => json(status, { success: false, message });
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const call = `${method} ${url.pathname}`;
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    calls.push(`${call}${url.search}`);
    if (body !== undefined) bodies.push([call, body]);
    if (call === 'GET /api/v1/auth/me') return ok({ user: profile });
    if (call === 'GET /api/v1/webhooks') return ok(endpoints);
    if (call === 'POST /api/v1/webhooks') {
      if (String(body.url).includes('intranet')) return fail(400, privateAddressMessage);
      const created = endpointWire({ id: NEW_ID, url: body.url, description: body.description, eventTypes: body.eventTypes, lastDelivery: null, secretHint: SECRET.slice(-4) });
      endpoints.push(created);
      return ok({ endpoint: created, secret: SECRET }, 201);
    }
    if (call === `GET /api/v1/webhooks/${endpoints[0]!.id}/deliveries`) {
      return ok({ deliveries, pagination: { total: deliveries.length, page: 1, limit: 20, pages: 1 } });
    }
    const replay = /^\/api\/v1\/webhooks\/deliveries\/([^/]+)\/replay$/.exec(url.pathname);
    if (method === 'POST' && replay) {
      deliveries.unshift(replayedDelivery);
      return ok(replayedDelivery, 201);
    }
    return fail(404, `Route not found: ${call}`);
  });
  return { fetch, calls, bodies, endpoints };
}

const table = async () => within(await screen.findByRole('table', { name: 'Webhook endpoints' }, { timeout: 5000 }));

describe('Webhooks page', () => {
  it('lists the endpoints with their event types, status, last delivery and secret hint', async () => {
    const api = fakePortalApi([endpointWire(), failingEndpoint]);
    openSignedInAt('/alerts/webhooks', api.fetch);
    const rows = await table();
    expect(rows.getByText('https://hooks.example.com/portal')).toBeTruthy();
    expect(rows.getByText('Alert opened')).toBeTruthy();
    expect(rows.getByText('Alert resolved')).toBeTruthy();
    expect(rows.getByText(WEBHOOK_TEXTS.allEvents)).toBeTruthy();
    expect(rows.getByText('Active')).toBeTruthy();
    expect(rows.getByText('Succeeded')).toBeTruthy();
    expect(rows.getByText('200')).toBeTruthy();
    expect(rows.getByText('…k3Qz')).toBeTruthy();
  });

  it('shows a notice at the top when an endpoint was disabled after failures, naming it and why', async () => {
    const api = fakePortalApi([endpointWire(), failingEndpoint]);
    openSignedInAt('/alerts/webhooks', api.fetch);
    const notice = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(notice.textContent).toContain(WEBHOOK_TEXTS.notice(1));
    expect(notice.textContent).toContain(`${failingEndpoint.url}: ${failingEndpoint.disabledReason}`);
    expect((await table()).getByRole('button', { name: `Enable: ${failingEndpoint.url}` })).toBeTruthy();
  });

  it('shows no notice when the only disabled endpoint was paused by an administrator', async () => {
    const api = fakePortalApi([endpointWire({ status: 'disabled', disabledReason: WEBHOOK_MESSAGES.disabledByAdmin })]);
    openSignedInAt('/alerts/webhooks', api.fetch);
    await table();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText(WEBHOOK_MESSAGES.disabledByAdmin)).toBeTruthy();
  });

  it('an admin adds an endpoint and sees its secret once, copies it, and it is gone when the dialog closes', async () => {
    const api = fakePortalApi([]);
    const { user } = openSignedInAt('/alerts/webhooks', api.fetch);
    await user.click(await screen.findByRole('button', { name: WEBHOOK_TEXTS.addEndpoint }, { timeout: 5000 }));
    const form = within(await enteredDialog(WEBHOOK_TEXTS.addTitle));
    await fill(user, form.getByLabelText('URL'), 'https://receiver.example.com/in');
    await fill(user, form.getByLabelText('Description'), 'Receiver');
    await user.click(form.getByLabelText('Alert opened'));
    await user.click(form.getByRole('button', { name: 'Save' }));
    const secret = within(await enteredDialog(WEBHOOK_TEXTS.secretTitle));
    expect((secret.getByLabelText('Signing secret') as HTMLInputElement).value).toBe(SECRET);
    expect((secret.getByLabelText('Signing secret') as HTMLInputElement).readOnly).toBe(true);
    expect(secret.getByText(WEBHOOK_TEXTS.secretOnce)).toBeTruthy();
    await user.click(secret.getByRole('button', { name: WEBHOOK_TEXTS.copy }));
    await secret.findByText(WEBHOOK_TEXTS.copied);
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(api.bodies).toContainEqual(['POST /api/v1/webhooks', { url: 'https://receiver.example.com/in', description: 'Receiver', eventTypes: ['alert.opened'] }]);
    await user.click(secret.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
    // The list reloaded behind the dialog and shows the new endpoint with its hint only.
    expect(await (await table()).findByText('https://receiver.example.com/in')).toBeTruthy();
    expect(screen.queryByText(SECRET)).toBeNull();
  });

  it("shows the server's refusal of a private address on the URL field", async () => {
    const api = fakePortalApi([]);
    const { user } = openSignedInAt('/alerts/webhooks', api.fetch);
    await user.click(await screen.findByRole('button', { name: WEBHOOK_TEXTS.addEndpoint }, { timeout: 5000 }));
    const form = within(await enteredDialog(WEBHOOK_TEXTS.addTitle));
    await fill(user, form.getByLabelText('URL'), 'https://intranet.example.com/hook');
    await user.click(form.getByRole('button', { name: 'Save' }));
    const field = form.getByLabelText('URL');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    const describedBy = field.getAttribute('aria-describedby')!;
    expect(document.getElementById(describedBy)?.textContent).toBe(privateAddressMessage);
    expect(screen.queryByRole('dialog', { name: WEBHOOK_TEXTS.secretTitle })).toBeNull();
  });

  it('opens the delivery log from the row (and the URL), shows the attempts of a delivery and replays it', async () => {
    const api = fakePortalApi();
    const { user, location } = openSignedInAt('/alerts/webhooks', api.fetch);
    await user.click((await table()).getByRole('button', { name: `Deliveries: ${endpointWire().url}` }));
    const log = within(await enteredDialog(`Deliveries: ${endpointWire().url}`));
    expect(location()).toBe(`/alerts/webhooks?deliveries=${endpointWire().id}`);
    const deliveries = within(await log.findByRole('table', { name: 'Deliveries' }));
    expect(deliveries.getByText('Alert opened')).toBeTruthy();
    expect(deliveries.getByText('84 ms')).toBeTruthy();
    const delivery = deliveryWire();
    await user.click(deliveries.getByRole('button', { name: `Show attempts of Alert opened ${delivery.eventId}` }));
    const attempts = within(await log.findByRole('table', { name: `Attempts of Alert opened ${delivery.eventId}` }));
    expect(attempts.getByText('connect ECONNREFUSED 203.0.113.9:443')).toBeTruthy();
    expect(attempts.getByText('{"received":true}')).toBeTruthy();
    await user.click(deliveries.getByRole('button', { name: `Replay Alert opened ${delivery.eventId}` }));
    await waitFor(() => expect(api.calls).toContain(`POST /api/v1/webhooks/deliveries/${delivery.id}/replay`));
    // The log reloads after the replay and shows the new pending delivery.
    await waitFor(() => expect(log.getAllByText('Pending').length).toBeGreaterThan(0));
    await user.click(log.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(location()).toBe('/alerts/webhooks'));
  });

  it('a portal user who is not an administrator reads everything, and every change is disabled with the reason', async () => {
    const reader: AdminUser = userProfile;
    const api = fakePortalApi([endpointWire(), failingEndpoint], reader);
    const { user } = openSignedInAt('/alerts/webhooks', api.fetch, { profile: reader });
    const rows = await table();
    expect((screen.getByRole('button', { name: WEBHOOK_TEXTS.addEndpoint }) as HTMLButtonElement).disabled).toBe(true);
    for (const name of ['Send test', 'Rotate secret', 'Disable', 'Edit', 'Delete']) {
      const button = rows.getByRole('button', { name: `${name}: ${endpointWire().url}` }) as HTMLButtonElement;
      expect(button.disabled, name).toBe(true);
      expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toBe(WEBHOOK_TEXTS.readOnly);
    }
    expect((rows.getByRole('button', { name: `Enable: ${failingEndpoint.url}` }) as HTMLButtonElement).disabled).toBe(true);
    // Reading the log is open to them; replaying is not.
    await user.click(rows.getByRole('button', { name: `Deliveries: ${endpointWire().url}` }));
    const log = within(await enteredDialog(`Deliveries: ${endpointWire().url}`));
    const replay = (await log.findByRole('button', { name: `Replay Alert opened ${deliveryWire().eventId}` })) as HTMLButtonElement;
    expect(replay.disabled).toBe(true);
  });
});
