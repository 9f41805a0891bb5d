// Alerts in Chromium against the real server and its simulator (the alerts journey): an admin
// asks for the data-use emails and registers a webhook receiver on 127.0.0.1; a customer's line
// crosses 80 % of its plan in the simulator (a traffic surge through its controls), the next sync
// opens exactly one alert — the bell shows it, one email goes to the admin, one delivery reaches
// the receiver with a signature an independent HMAC check accepts — the admin acknowledges it on
// the Alerts page (the receiver hears of that too), and the customer sees it in their own area.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertListWire } from '../../src/domain/alerts';
import type { SubscriptionListWire } from '../../src/domain/subscriptions';
import type { WebhookSecretWire } from '../../src/domain/webhooks';
import type { Page } from 'playwright-core';
import { customerSignsInFromLink, signInAsAdminAt, useBrowserSession, waitForUsageRun, until } from './harness';

const session = useBrowserSession({ SIM_CONTROLS: 'on', WEBHOOK_ALLOW_HTTP_LOCALHOST: 'true' });

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
const received: Received[] = [];
let receiver: Server;
let receiverUrl = '';

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
});

/** The receiver's check, written apart from the portal's code: HMAC-SHA256 over `${timestamp}.${body}`. */
function verified(message: Received, secret: string): boolean {
  const timestamp = String(message.headers['x-webhook-timestamp'] ?? '');
  const signature = String(message.headers['x-signature'] ?? '');
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${message.body}`).digest('hex')}`;
  return signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
}


const outbox = async (page: Page) =>
  (await session.api<{ messages: { to: string; subject: string; text: string }[] }>(page, `/email-outbox?to=${encodeURIComponent(session.portal.admin.email)}&limit=100`)).messages;

describe('alerts in the browser', () => {
  it('a line crossing 80 % opens one alert: the bell shows it, one email and one verified webhook go out, the admin acknowledges it and the customer sees it', async () => {
    const { portal } = session;
    const admin = await session.context.newPage();
    await signInAsAdminAt(admin, portal, '/alerts');

    // The first sync brings the fleet; lines already over a level then are old news for this journey.
    await waitForUsageRun(admin, portal);
    const subscriptions = await session.api<SubscriptionListWire>(admin, '/subscriptions?limit=100');
    await session.api(admin, '/alerts/evaluate', { method: 'POST' });

    // The admin wants the data-use emails and a signed webhook on this machine.
    await session.api(admin, '/alert-rules/usage/subscription', { method: 'PUT', body: { subscribed: true } });
    const hook = await session.api<WebhookSecretWire>(admin, '/webhooks', { method: 'POST', body: { url: receiverUrl, description: 'e2e receiver' } });

    // A customer with one unassigned line well under its plan.
    const candidates = subscriptions.subscriptions.filter((s) => s.customerName === null && s.status === 'Active' && s.monthlyDataGB >= 50 && s.usedGB < 0.6 * s.monthlyDataGB && s.billingCycle);
    const line = candidates[0];
    expect(line, 'an unassigned line under 60 % of its plan').toBeDefined();
    const stamp = Date.now();
    const email = `lena.${stamp}@fjord.example`;
    await session.api(admin, '/customers', { method: 'POST', body: { company: `Fjord Fisheries ${stamp}`, name: `Lena Berg ${stamp}`, email } });
    const customers = await session.api<{ customers: { uuid: string; email: string }[] }>(admin, `/customers?search=${encodeURIComponent(email)}`);
    const uuid = customers.customers.find((c) => c.email === email)!.uuid;
    await session.api(admin, '/terminals/customers/assign-terminals', { method: 'POST', body: { customerUuid: uuid, serviceLineNumbers: [line!.serviceLineNumber] } });

    // The line uses enough more to stand at 85 % of its plan; the next sync reads it.
    const surgeGB = Math.round((0.85 * line!.monthlyDataGB - line!.usedGB) * 100) / 100;
    const surged = await fetch(`${portal.url}/simulator/api/controls/service-lines/${line!.serviceLineNumber}/surge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ gb: surgeGB }),
    });
    expect(surged.status).toBe(200);
    const outboxBefore = await outbox(admin);
    // A sync may still be running (409): the next one is started as soon as it ends.
    await until('a sync started', async () => {
      try {
        await session.api(admin, '/terminals/sync', { method: 'POST' });
        return true;
      } catch {
        return false;
      }
    });

    const opened = await until('the alert', async () => {
      const list = await session.api<AlertListWire>(admin, `/alerts?status=all&search=${encodeURIComponent(line!.serviceLineNumber)}`);
      return list.alerts.length > 0 ? list.alerts : null;
    });
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ kind: 'usage', level: 80, title: '80 % of plan used', status: 'open', customer: { uuid } });

    // The bell shows it once the page asks again.
    await admin.reload();
    const bell = admin.getByRole('button', { name: /^Alerts, \d+ unread$/ });
    await bell.waitFor();
    await bell.click();
    await admin.getByText(line!.serviceLineNumber).first().waitFor();

    // Exactly one email to the subscribed admin about it.
    const mails = await until('the email', async () => {
      const fresh = (await outbox(admin)).filter((m) => m.text.includes(line!.serviceLineNumber));
      return fresh.length > 0 ? fresh : null;
    });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Alert: 80 % of plan used');
    expect(outboxBefore.some((m) => m.text.includes(line!.serviceLineNumber))).toBe(false);

    // Exactly one delivery of its opening, signed with the endpoint's secret.
    const openedId = opened[0]!.id;
    const deliveries = await until('the webhook delivery', async () => {
      const forAlert = received.filter((m) => m.body.includes(openedId));
      return forAlert.length > 0 ? forAlert : null;
    });
    expect(deliveries).toHaveLength(1);
    expect(verified(deliveries[0]!, hook.secret)).toBe(true);
    expect(verified(deliveries[0]!, `${hook.secret}x`)).toBe(false);
    const event = JSON.parse(deliveries[0]!.body) as { id: string; type: string; data: { alert: { id: string } } };
    expect(event).toMatchObject({ type: 'alert.opened', data: { alert: { id: openedId } } });
    expect(deliveries[0]!.headers['x-webhook-id']).toBe(event.id);

    // The admin acknowledges it on the Alerts page.
    await admin.goto(`${portal.url}/alerts`);
    const row = admin.getByRole('row').filter({ hasText: line!.serviceLineNumber });
    await row.getByRole('button', { name: /Acknowledge/ }).click();
    await until('the acknowledgement', async () => {
      const list = await session.api<AlertListWire>(admin, `/alerts?status=acknowledged&search=${encodeURIComponent(line!.serviceLineNumber)}`);
      return list.alerts.length === 1;
    }, 30_000);
    await until('the acknowledged event', async () => received.some((m) => m.body.includes('"alert.acknowledged"') && m.body.includes(openedId)), 90_000);

    // The customer sees it in their own area.
    const own = await session.browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await own.newPage();
      await customerSignsInFromLink(page, admin, portal, email, 'Fjord-Passw0rd!');
      // On their Overview, among the open alerts, and on their Alerts page.
      await page.getByText(/^80 % of plan used: /).first().waitFor();
      await page.goto(`${portal.url}/my/alerts`);
      await page.getByText('80 % of plan used').first().waitFor();
      await page.getByText(line!.serviceLineNumber).first().waitFor();
    } finally {
      await own.close();
    }
  });
});
