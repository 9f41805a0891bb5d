// Request and response schemas of the webhook routes, the answers checked against their types in
// src/domain/webhooks.ts. Where a URL may lead is the service's check (it resolves the host); the
// schemas check shapes and lengths.
import { z } from 'zod';
import {
  SUBSCRIBABLE_EVENT_TYPES,
  WEBHOOK_DELIVERIES_PAGE_SIZE,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_DESCRIPTION_MAX_LENGTH,
  WEBHOOK_ENDPOINT_STATUSES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_MESSAGES as M,
  WEBHOOK_URL_MAX_LENGTH,
  type WebhookDeliveryListWire,
  type WebhookDeliveryWire,
  type WebhookEndpointWire,
  type WebhookSecretWire,
} from '../../src/domain/webhooks';
import { MAX_PAGE, QUERY_MESSAGES, wholeNumber } from './customers-schemas';
import { inputText, paginationSchema, exact, type Exact } from './schemas';

export const WEBHOOKS_MAX_PAGE_SIZE = 100;

export const WEBHOOK_FIELD_MESSAGES = {
  id: 'Webhook endpoint id must be a UUID',
  deliveryId: 'Delivery id must be a UUID',
  eventTypes: `eventTypes must be a list of ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}`,
  enabled: 'enabled must be true or false',
  limit: `limit must be a whole number from 1 to ${WEBHOOKS_MAX_PAGE_SIZE}`,
  empty: 'Send at least one of url, description, eventTypes, enabled',
} as const;
const F = WEBHOOK_FIELD_MESSAGES;

export const webhookParamsSchema = z.object({ id: z.uuid({ error: F.id }) });
export const deliveryParamsSchema = z.object({ deliveryId: z.uuid({ error: F.deliveryId }) });

const url = inputText({ error: M.urlRequired })
  .trim()
  .min(1, { error: M.urlRequired })
  .max(WEBHOOK_URL_MAX_LENGTH, { error: M.urlTooLong });
const description = inputText({ error: M.descriptionTooLong }).trim().max(WEBHOOK_DESCRIPTION_MAX_LENGTH, { error: M.descriptionTooLong });
const eventTypes = z.array(z.enum(SUBSCRIBABLE_EVENT_TYPES, { error: F.eventTypes }), { error: F.eventTypes }).max(SUBSCRIBABLE_EVENT_TYPES.length, { error: F.eventTypes });

export const newWebhookBodySchema = z.object({ url, description: description.optional(), eventTypes: eventTypes.optional() }).strict();

export const webhookUpdateBodySchema = z
  .object({
    url: url.optional(),
    description: description.optional(),
    eventTypes: eventTypes.optional(),
    enabled: z.boolean({ error: F.enabled }).optional(),
  })
  .strict()
  .refine((body) => Object.values(body).some((v) => v !== undefined), { error: F.empty });

export const deliveriesQuerySchema = z.object({
  page: wholeNumber(1, MAX_PAGE, QUERY_MESSAGES.page).default(1),
  limit: wholeNumber(1, WEBHOOKS_MAX_PAGE_SIZE, F.limit).default(WEBHOOK_DELIVERIES_PAGE_SIZE),
});

const isoDate = z.string();
const eventType = z.enum(WEBHOOK_EVENT_TYPES);
const deliveryStatus = z.enum(WEBHOOK_DELIVERY_STATUSES);

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(eventType),
  status: z.enum(WEBHOOK_ENDPOINT_STATUSES),
  disabledReason: z.string().nullable(),
  disabledAt: isoDate.nullable(),
  consecutiveFailures: z.number().int(),
  secretHint: z.string(),
  createdAt: isoDate,
  lastDelivery: z.object({ status: deliveryStatus, at: isoDate, responseStatus: z.number().int().nullable() }).nullable(),
});

export const webhookSecretSchema = z.object({ endpoint: webhookEndpointSchema, secret: z.string() });

const attemptSchema = z.object({
  attemptedAt: isoDate,
  responseStatus: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
  responseExcerpt: z.string().nullable(),
  error: z.string().nullable(),
});

export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType,
  status: deliveryStatus,
  attempts: z.number().int(),
  createdAt: isoDate,
  nextAttemptAt: isoDate.nullable(),
  lastAttemptAt: isoDate.nullable(),
  responseStatus: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
  responseExcerpt: z.string().nullable(),
  error: z.string().nullable(),
  replayOf: z.string().nullable(),
  attemptLog: z.array(attemptSchema),
});

export const webhookDeliveryListSchema = z.object({ deliveries: z.array(webhookDeliverySchema), pagination: paginationSchema });

exact<Exact<z.infer<typeof webhookEndpointSchema>, WebhookEndpointWire>>();
exact<Exact<z.infer<typeof webhookSecretSchema>, WebhookSecretWire>>();
exact<Exact<z.infer<typeof webhookDeliverySchema>, WebhookDeliveryWire>>();
exact<Exact<z.infer<typeof webhookDeliveryListSchema>, WebhookDeliveryListWire>>();
