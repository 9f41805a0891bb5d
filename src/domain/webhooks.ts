// Signed webhooks: endpoints admins register, the events the portal sends them, each
// delivery and its attempts. Shared by the server (signing, schedule, answers) and the client
// (the Webhooks page and its forms).
//
// A delivery is a POST of the event's JSON with three headers:
//   X-Webhook-Id:        the event id (the same on every retry and replay: drop what you have seen)
//   X-Webhook-Timestamp: seconds since the epoch when this attempt was signed
//   X-Signature:         sha256=<hex HMAC-SHA256 of `${timestamp}.${body}` under the endpoint's secret>
// A 2xx answer within the timeout is a success; anything else is retried with exponential
// back-off until 24 hours after the event, then abandoned.
import type { Pagination } from './customers';

export const WEBHOOK_EVENT_TYPES = [
  'alert.opened',
  'alert.acknowledged',
  'alert.resolved',
  'action.proposed',
  'action.executed',
  'action.failed',
  'action.dismissed',
  'action.undone',
  'schedule.executed',
  'schedule.failed',
  'schedule.skipped',
  'payment.received',
  'payment.reversed',
  'credit_note.issued',
  'refund.issued',
  'dunning.reminder',
  'dunning.final_notice',
  'dunning.blocked',
  'dunning.unblocked',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The types an endpoint may choose; `webhook.test` goes to the endpoint it is sent from only. */
export const SUBSCRIBABLE_EVENT_TYPES = WEBHOOK_EVENT_TYPES.filter((t): t is Exclude<WebhookEventType, 'webhook.test'> => t !== 'webhook.test');
export type PublishedEventType = (typeof SUBSCRIBABLE_EVENT_TYPES)[number];

export const WEBHOOK_HEADERS = {
  id: 'x-webhook-id',
  timestamp: 'x-webhook-timestamp',
  signature: 'x-signature',
} as const;
export const SIGNATURE_PREFIX = 'sha256=';

/** The text the signature is computed over. */
export const signedText = (timestamp: number, body: string) => `${timestamp}.${body}`;

/** First retry after 30 s, doubling each time, never more than 2 hours apart. */
export const WEBHOOK_RETRY_BASE_MS = 30_000;
export const WEBHOOK_RETRY_MAX_MS = 2 * 3_600_000;
/** After this long since the event, a delivery that never succeeded is abandoned. */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 3_600_000;
/** Consecutive failed attempts (any delivery) after which an endpoint is disabled. */
export const WEBHOOK_DISABLE_AFTER_FAILURES = 20;
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** The part of an answer's body kept in the log. */
export const WEBHOOK_EXCERPT_CHARS = 500;
export const WEBHOOK_URL_MAX_LENGTH = 2000;
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 200;
export const WEBHOOK_DELIVERIES_PAGE_SIZE = 20;
/** Endpoints an installation may register. */
export const WEBHOOK_ENDPOINTS_MAX = 50;

/**
 * When the attempt after `attempts` failed ones is due, counted from the event: null once past
 * the 24-hour window (the delivery is abandoned).
 */
export function nextAttemptAt(createdAtMs: number, lastAttemptMs: number, attempts: number): number | null {
  const delay = Math.min(WEBHOOK_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), WEBHOOK_RETRY_MAX_MS);
  const next = lastAttemptMs + delay;
  return next > createdAtMs + WEBHOOK_RETRY_WINDOW_MS ? null : next;
}

// ---- Wire shapes ---------------------------------------------------------------------------

export const WEBHOOK_ENDPOINT_STATUSES = ['active', 'disabled'] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'abandoned'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export interface WebhookEndpointWire {
  id: string;
  url: string;
  description: string;
  /** Empty: every event type. */
  eventTypes: WebhookEventType[];
  status: WebhookEndpointStatus;
  /** Why it was disabled (by an admin, or after repeated failure). */
  disabledReason: string | null;
  disabledAt: string | null;
  consecutiveFailures: number;
  /** The secret's last characters, to tell secrets apart ("…k3Qz"). */
  secretHint: string;
  createdAt: string;
  lastDelivery: { status: WebhookDeliveryStatus; at: string; responseStatus: number | null } | null;
}

/** `POST /webhooks` and `POST /webhooks/{id}/secret` data: the secret, shown this once. */
export interface WebhookSecretWire {
  endpoint: WebhookEndpointWire;
  secret: string;
}

export interface WebhookAttemptWire {
  attemptedAt: string;
  responseStatus: number | null;
  latencyMs: number | null;
  responseExcerpt: string | null;
  error: string | null;
}

export interface WebhookDeliveryWire {
  id: string;
  eventId: string;
  eventType: WebhookEventType;
  status: WebhookDeliveryStatus;
  attempts: number;
  createdAt: string;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  responseStatus: number | null;
  latencyMs: number | null;
  responseExcerpt: string | null;
  error: string | null;
  /** The delivery this one replays. */
  replayOf: string | null;
  /** Newest first. */
  attemptLog: WebhookAttemptWire[];
}

/** `GET /webhooks/{id}/deliveries` data. */
export interface WebhookDeliveryListWire {
  deliveries: WebhookDeliveryWire[];
  pagination: Pagination;
}

/** The JSON body of every delivery. */
export interface WebhookEventBody<T = unknown> {
  id: string;
  type: WebhookEventType;
  createdAt: string;
  data: T;
}

// ---- Payloads ------------------------------------------------------------------------------

export interface WebhookEndpointPayload {
  url: string;
  description?: string;
  eventTypes?: WebhookEventType[];
}

export interface WebhookEndpointUpdate {
  url?: string;
  description?: string;
  eventTypes?: WebhookEventType[];
  /** false disables it (an admin's pause); true enables it again and clears the failure count. */
  enabled?: boolean;
}

// ---- Texts ---------------------------------------------------------------------------------

export const WEBHOOK_EVENT_LABELS: Readonly<Record<WebhookEventType, string>> = {
  'alert.opened': 'Alert opened',
  'alert.acknowledged': 'Alert acknowledged',
  'alert.resolved': 'Alert resolved',
  'action.proposed': 'Automatic action proposed',
  'action.executed': 'Automatic action done',
  'action.failed': 'Automatic action failed',
  'action.dismissed': 'Automatic action dismissed',
  'action.undone': 'Automatic action undone',
  'schedule.executed': 'Scheduled change made',
  'schedule.failed': 'Scheduled change failed',
  'schedule.skipped': 'Scheduled change skipped',
  'payment.received': 'Payment received',
  'payment.reversed': 'Ledger entry reversed',
  'credit_note.issued': 'Credit note issued',
  'refund.issued': 'Refund issued',
  'dunning.reminder': 'Payment reminder sent',
  'dunning.final_notice': 'Final notice sent',
  'dunning.blocked': 'Customer blocked for non-payment',
  'dunning.unblocked': 'Customer unblocked after payment',
  'webhook.test': 'Test',
};

export const WEBHOOK_MESSAGES = {
  pageTitle: 'Webhooks',
  listed: 'Webhook endpoints',
  found: 'Webhook endpoint',
  deliveriesListed: 'Deliveries',
  created: 'Webhook endpoint added. Copy its secret now: it is not shown again.',
  updated: 'Webhook endpoint saved',
  deleted: 'Webhook endpoint deleted',
  secretRotated: 'New secret made. Copy it now: the old one no longer signs deliveries.',
  testQueued: 'Test event sent',
  replayQueued: 'Delivery queued again',
  enabled: 'Webhook endpoint enabled',
  disabledByAdmin: 'Disabled by an administrator',
  disabledAfterFailures: (n: number) => `Disabled after ${n} failed deliveries in a row`,
  urlRequired: 'Enter the endpoint URL',
  urlInvalid: 'Enter a full URL, like https://example.com/hooks',
  urlTooLong: `The URL is longer than ${WEBHOOK_URL_MAX_LENGTH} characters`,
  urlNotHttps: 'The URL must start with https://',
  urlHttpOnlyLocalhost: 'Plain http:// is only allowed to localhost, and only when WEBHOOK_ALLOW_HTTP_LOCALHOST is on',
  urlCredentials: 'The URL must not contain a user name or password',
  urlUnresolvable: (host: string) => `The host ${host} could not be resolved`,
  urlPrivateAddress: (host: string, address: string) =>
    `The host ${host} resolves to ${address}, a private, loopback, link-local or reserved address; allow its network in WEBHOOK_ALLOWED_NETWORKS to use it`,
  descriptionTooLong: `The description is longer than ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters`,
  tooManyEndpoints: `At most ${WEBHOOK_ENDPOINTS_MAX} endpoints`,
  endpointNotFound: 'Webhook endpoint not found',
  deliveryNotFound: 'Delivery not found',
  endpointDisabled: 'The endpoint is disabled: enable it first',
  disabledNoticeSubject: 'A webhook endpoint was disabled',
} as const;

/** The URL form's problem (shape only; the server also checks where the host resolves), or null. */
export function webhookUrlProblem(url: string, allowHttpLocalhost = false): string | null {
  const trimmed = url.trim();
  if (trimmed === '') return WEBHOOK_MESSAGES.urlRequired;
  if (trimmed.length > WEBHOOK_URL_MAX_LENGTH) return WEBHOOK_MESSAGES.urlTooLong;
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return WEBHOOK_MESSAGES.urlInvalid;
  }
  if (parsed.username || parsed.password) return WEBHOOK_MESSAGES.urlCredentials;
  if (parsed.protocol === 'https:') return parsed.hostname ? null : WEBHOOK_MESSAGES.urlInvalid;
  if (parsed.protocol === 'http:') {
    return allowHttpLocalhost && isLocalhostName(parsed.hostname) ? null : WEBHOOK_MESSAGES.urlHttpOnlyLocalhost;
  }
  return WEBHOOK_MESSAGES.urlNotHttps;
}

/** localhost, 127.x.x.x and [::1]: the names plain http may reach when allowed. */
export function isLocalhostName(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '::1';
}

export type { Pagination };
