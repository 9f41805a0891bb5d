// What the Webhooks page's pieces share: status tags, texts, and the rule that tells an endpoint
// the portal disabled after failures from one an administrator paused.
import { Tag } from 'primereact/tag';
import {
  WEBHOOK_DISABLE_AFTER_FAILURES,
  WEBHOOK_MESSAGES as M,
  type WebhookDeliveryStatus,
  type WebhookEndpointWire,
} from '../../domain/webhooks';

export const WEBHOOK_TEXTS = {
  addEndpoint: 'Add endpoint',
  addTitle: 'Add webhook endpoint',
  editTitle: 'Edit webhook endpoint',
  secretTitle: 'Webhook secret',
  secretOnce: 'This secret is shown once. Store it where your receiver can read it: it is not shown again.',
  copy: 'Copy',
  copied: 'Copied to the clipboard',
  copyFailed: 'The clipboard is not available here: select the secret and copy it yourself.',
  allEvents: 'All events',
  eventTypesHint: 'None chosen: every event type, including ones added later.',
  saving: 'Saving...',
  working: 'Working...',
  empty: 'No webhook endpoints yet. Add one to receive alerts as signed HTTP requests.',
  loadFailed: 'The webhook endpoints could not be loaded',
  readOnly: 'Your roles let you read the webhooks, not change them.',
  deliveriesTitle: 'Deliveries',
  deliveriesEmpty: 'No deliveries yet.',
  deliveriesFailed: 'The deliveries could not be loaded',
  refresh: 'Refresh',
  noticeTitle: 'Deliveries stopped',
  notice: (count: number) =>
    count === 1
      ? 'One endpoint was disabled after repeated failed deliveries. Fix the receiver, then enable it: events are not sent to it meanwhile.'
      : `${count} endpoints were disabled after repeated failed deliveries. Fix the receivers, then enable them: events are not sent to them meanwhile.`,
} as const;

export const DELIVERY_STATUS_LABELS: Readonly<Record<WebhookDeliveryStatus, string>> = {
  pending: 'Pending',
  succeeded: 'Succeeded',
  abandoned: 'Abandoned',
};

const DELIVERY_SEVERITY: Record<WebhookDeliveryStatus, 'success' | 'warning' | 'danger'> = {
  pending: 'warning',
  succeeded: 'success',
  abandoned: 'danger',
};

export function DeliveryStatusTag({ status }: { status: WebhookDeliveryStatus }) {
  return <Tag value={DELIVERY_STATUS_LABELS[status]} severity={DELIVERY_SEVERITY[status]} />;
}

/** Disabled by the portal after failures, as opposed to paused by an administrator. */
export function disabledAfterFailures(endpoint: WebhookEndpointWire): boolean {
  if (endpoint.status !== 'disabled') return false;
  if (endpoint.consecutiveFailures >= WEBHOOK_DISABLE_AFTER_FAILURES) return true;
  return endpoint.disabledReason !== null && endpoint.disabledReason !== M.disabledByAdmin;
}

/** "200", "timeout" style: the HTTP code, or a dash when there was no answer. */
export const httpCode = (status: number | null) => (status === null ? '—' : String(status));
export const latency = (ms: number | null) => (ms === null ? '—' : `${ms} ms`);
