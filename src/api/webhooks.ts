// Signed webhooks: the endpoints admins register, their secrets (answered once, on
// create and rotate), test events, and each endpoint's delivery log with replay. The wire is the
// shared contract of src/domain/webhooks.ts; rows that cannot be read are skipped, and an answer
// whose shape cannot be read at all is a failure (mapResult's null). Refusals (400 for a URL the
// server will not call, 403 for a non-administrator, 404, 409…) come back as ok:false with the
// server's words and, for a 400, the fields at fault.
import { mapResult, type ApiClient, type ApiResult } from './client';
import { int, isRecord, present, str, text, withSignal, type Raw } from './normalise';
import { listOf, num, oneOf } from './terminals';
import {
  WEBHOOK_DELIVERIES_PAGE_SIZE,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_ENDPOINT_STATUSES,
  WEBHOOK_EVENT_TYPES,
  type WebhookAttemptWire,
  type WebhookDeliveryListWire,
  type WebhookDeliveryWire,
  type WebhookEndpointPayload,
  type WebhookEndpointUpdate,
  type WebhookEndpointWire,
  type WebhookEventType,
  type WebhookSecretWire,
} from '../domain/webhooks';
import { normalisePagination } from './customers';

export interface DeliveriesQuery {
  page?: number;
  limit?: number;
}

const whole = (value: unknown) => Math.max(0, int(value, 0));
const nullableWhole = (value: unknown) => (num(value) === null ? null : Math.max(0, Math.round(num(value)!)));
const eventTypes = (value: unknown): WebhookEventType[] => listOf(value).map((item) => oneOf(WEBHOOK_EVENT_TYPES, item)).filter(present);

/** One endpoint; null without an id, a URL or a known status. */
export function normaliseEndpoint(raw: unknown): WebhookEndpointWire | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  const url = text(raw.url);
  const status = oneOf(WEBHOOK_ENDPOINT_STATUSES, raw.status);
  if (!id || !url || !status) return null;
  const last: Raw | null = isRecord(raw.lastDelivery) ? raw.lastDelivery : null;
  const lastStatus = last ? oneOf(WEBHOOK_DELIVERY_STATUSES, last.status) : null;
  return {
    id,
    url,
    description: str(raw.description) ?? '',
    eventTypes: eventTypes(raw.eventTypes),
    status,
    disabledReason: text(raw.disabledReason),
    disabledAt: text(raw.disabledAt),
    consecutiveFailures: whole(raw.consecutiveFailures),
    secretHint: str(raw.secretHint) ?? '',
    createdAt: text(raw.createdAt) ?? '',
    lastDelivery: last && lastStatus ? { status: lastStatus, at: text(last.at) ?? '', responseStatus: nullableWhole(last.responseStatus) } : null,
  };
}

export const normaliseEndpoints = (data: unknown): WebhookEndpointWire[] | null => (Array.isArray(data) ? data.map(normaliseEndpoint).filter(present) : null);

/** The secret and its endpoint: both or nothing, as a secret without its endpoint is of no use. */
export function normaliseSecret(data: unknown): WebhookSecretWire | null {
  if (!isRecord(data)) return null;
  const endpoint = normaliseEndpoint(data.endpoint);
  const secret = text(data.secret);
  return endpoint && secret ? { endpoint, secret } : null;
}

function normaliseAttempt(raw: unknown): WebhookAttemptWire | null {
  if (!isRecord(raw)) return null;
  const attemptedAt = text(raw.attemptedAt);
  if (!attemptedAt) return null;
  return {
    attemptedAt,
    responseStatus: nullableWhole(raw.responseStatus),
    latencyMs: nullableWhole(raw.latencyMs),
    responseExcerpt: str(raw.responseExcerpt),
    error: text(raw.error),
  };
}

/** One delivery; null without an id, an event id, a known event type or status. */
export function normaliseDelivery(raw: unknown): WebhookDeliveryWire | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  const eventId = text(raw.eventId);
  const eventType = oneOf(WEBHOOK_EVENT_TYPES, raw.eventType);
  const status = oneOf(WEBHOOK_DELIVERY_STATUSES, raw.status);
  if (!id || !eventId || !eventType || !status) return null;
  return {
    id,
    eventId,
    eventType,
    status,
    attempts: whole(raw.attempts),
    createdAt: text(raw.createdAt) ?? '',
    nextAttemptAt: text(raw.nextAttemptAt),
    lastAttemptAt: text(raw.lastAttemptAt),
    responseStatus: nullableWhole(raw.responseStatus),
    latencyMs: nullableWhole(raw.latencyMs),
    responseExcerpt: str(raw.responseExcerpt),
    error: text(raw.error),
    replayOf: text(raw.replayOf),
    attemptLog: listOf(raw.attemptLog).map(normaliseAttempt).filter(present),
  };
}

export function normaliseDeliveryList(data: unknown, query: DeliveriesQuery = {}): WebhookDeliveryListWire | null {
  if (!isRecord(data) || !Array.isArray(data.deliveries)) return null;
  const deliveries = data.deliveries.map(normaliseDelivery).filter(present);
  return { deliveries, pagination: normalisePagination(data.pagination, deliveries.length, { page: query.page, limit: query.limit ?? WEBHOOK_DELIVERIES_PAGE_SIZE }) };
}

const at = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

export function createWebhooksApi(client: ApiClient) {
  return {
    list: async (signal?: AbortSignal): Promise<ApiResult<WebhookEndpointWire[]>> =>
      mapResult(await client.request<unknown>('/webhooks', withSignal(signal)), normaliseEndpoints),

    get: async (id: string, signal?: AbortSignal): Promise<ApiResult<WebhookEndpointWire>> =>
      mapResult(await client.request<unknown>(at(id), withSignal(signal)), normaliseEndpoint),

    create: async (payload: WebhookEndpointPayload, signal?: AbortSignal): Promise<ApiResult<WebhookSecretWire>> =>
      mapResult(await client.request<unknown>('/webhooks', { method: 'POST', body: payload, ...withSignal(signal) }), normaliseSecret),

    update: async (id: string, update: WebhookEndpointUpdate, signal?: AbortSignal): Promise<ApiResult<WebhookEndpointWire>> =>
      mapResult(await client.request<unknown>(at(id), { method: 'PATCH', body: update, ...withSignal(signal) }), normaliseEndpoint),

    // A delete answers no data: any success will do (mapResult would take null for unreadable).
    remove: async (id: string, signal?: AbortSignal): Promise<ApiResult<null>> => {
      const result = await client.request<unknown>(at(id), { method: 'DELETE', ...withSignal(signal) });
      return result.ok ? { ...result, data: null } : result;
    },

    rotateSecret: async (id: string, signal?: AbortSignal): Promise<ApiResult<WebhookSecretWire>> =>
      mapResult(await client.request<unknown>(`${at(id)}/secret`, { method: 'POST', ...withSignal(signal) }), normaliseSecret),

    test: async (id: string, signal?: AbortSignal): Promise<ApiResult<WebhookDeliveryWire>> =>
      mapResult(await client.request<unknown>(`${at(id)}/test`, { method: 'POST', ...withSignal(signal) }), normaliseDelivery),

    deliveries: async (id: string, query: DeliveriesQuery = {}, signal?: AbortSignal): Promise<ApiResult<WebhookDeliveryListWire>> =>
      mapResult(
        await client.request<unknown>(`${at(id)}/deliveries`, {
          query: { page: query.page ?? 1, limit: query.limit ?? WEBHOOK_DELIVERIES_PAGE_SIZE },
          ...withSignal(signal),
        }),
        (data) => normaliseDeliveryList(data, query),
      ),

    replay: async (deliveryId: string, signal?: AbortSignal): Promise<ApiResult<WebhookDeliveryWire>> =>
      mapResult(
        await client.request<unknown>(`/webhooks/deliveries/${encodeURIComponent(deliveryId)}/replay`, { method: 'POST', ...withSignal(signal) }),
        normaliseDelivery,
      ),
  };
}

export type WebhooksApi = ReturnType<typeof createWebhooksApi>;
