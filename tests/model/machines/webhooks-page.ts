// The /alerts/webhooks page as the webhook-endpoint and webhook-actions models open it: the
// endpoints their event fixtures name are the rows the fake API lists (an active one and one
// disabled after failures), and the active one's delivery log answers one delivery.
import { screen, within } from '@testing-library/react';
import type { WebhookEndpointWire } from '../../../src/domain/webhooks';
import { deliveryList, endpointWire } from '../../fixtures/webhooks';
import type { ModelSeam } from '../framework/model';
import { openPage, type FakeAnswer, type PageScreen } from '../framework/screen';

const envelope = (data: unknown) => ({ body: { success: true, message: 'ok', data } });

/** Opens the page (with `?deliveries=<id>` when `path` says so) listing `endpoints`; returns once the table shows. */
export async function openWebhooksPage(seam: ModelSeam, endpoints: readonly WebhookEndpointWire[], path = '/alerts/webhooks'): Promise<PageScreen> {
  const answers: Record<string, FakeAnswer> = {
    'GET /api/v1/webhooks': envelope(endpoints),
    [`GET /api/v1/webhooks/${endpointWire().id}/deliveries`]: envelope(deliveryList()),
  };
  const page = openPage(path, seam, answers);
  await screen.findByRole('table', { name: 'Webhook endpoints' }, { timeout: 5000 });
  return page;
}

export const endpointsTable = () => within(screen.getByRole('table', { name: 'Webhook endpoints' }));
/** A row button: "Send test: https://…". */
export const rowButton = (label: string, endpoint: WebhookEndpointWire) => endpointsTable().getByRole('button', { name: `${label}: ${endpoint.url}` }) as HTMLButtonElement;
