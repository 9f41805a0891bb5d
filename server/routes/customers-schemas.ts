// Request and response schemas of the customer-management, password-setup and outbox routes,
// checked against the domain types. Responses list their fields, so a row's password hash or
// MFA secret cannot leak even if a handler passed a whole row.
import { z } from 'zod';
import { inputText, paginationSchema, exact, type Exact } from './schemas';
import {
  CUSTOMER_MESSAGES,
  CUSTOMER_STATUS_FILTERS,
  CUSTOMERS_MAX_PAGE_SIZE,
  CUSTOMERS_PAGE_SIZE,
  DEFAULT_EXPIRATION_DAYS,
  DEFAULT_EXTENSION_DAYS,
  MAX_EXPIRATION_DAYS,
  MIN_EXPIRATION_DAYS,
  type CustomerLineEnding,
  type CustomerListData,
  type CustomerListItem,
  type CustomerStats,
  type CustomerUpdateData,
  type UpdateCustomerPayload,
} from '../../src/domain/customers';
import type { ActivityEntry } from '../../src/domain/dashboard';
import type { PasswordSetupInfo } from '../services/customers-password-setup';
import type { EmailOutboxMessage } from '../services/email';

const isoDate = z.string();

/** Deepest page a list may ask for: the offset stays bounded, far past any real list. */
export const MAX_PAGE = 1_000_000;
export const MAX_SEARCH_LENGTH = 100;
export const ACTIVITY_DEFAULT_LIMIT = 50;
export const ACTIVITY_MAX_LIMIT = 200;
export const OUTBOX_DEFAULT_LIMIT = 20;
export const OUTBOX_MAX_LIMIT = 100;

export const QUERY_MESSAGES = {
  page: `page must be a whole number from 1 to ${MAX_PAGE}`,
  limit: `limit must be a whole number from 1 to ${CUSTOMERS_MAX_PAGE_SIZE}`,
  search: `search must be at most ${MAX_SEARCH_LENGTH} characters`,
  isActive: 'is_active must be true or false',
  status: `status must be one of ${CUSTOMER_STATUS_FILTERS.map((f) => f.value).join(', ')}`,
  uuid: 'Customer id must be a UUID',
  extendDays: `days must be a whole number from ${MIN_EXPIRATION_DAYS} to ${MAX_EXPIRATION_DAYS}`,
  activityLimit: `limit must be a whole number from 1 to ${ACTIVITY_MAX_LIMIT}`,
  outboxLimit: `limit must be a whole number from 1 to ${OUTBOX_MAX_LIMIT}`,
  outboxTo: 'to must be at most 320 characters',
  endLines: 'end_lines_at_cycle_end must be true or false',
} as const;

/** A whole number from a query string ("2"), with one message for every way it can be wrong. */
export const wholeNumber = (min: number, max: number, message: string) =>
  z.coerce.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });

const statusValues = CUSTOMER_STATUS_FILTERS.map((f) => f.value) as [
  (typeof CUSTOMER_STATUS_FILTERS)[number]['value'],
  ...(typeof CUSTOMER_STATUS_FILTERS)[number]['value'][],
];

export const customerListQuerySchema = z.object({
  page: wholeNumber(1, MAX_PAGE, QUERY_MESSAGES.page).default(1),
  limit: wholeNumber(1, CUSTOMERS_MAX_PAGE_SIZE, QUERY_MESSAGES.limit).default(CUSTOMERS_PAGE_SIZE),
  search: z.string({ error: QUERY_MESSAGES.search }).trim().max(MAX_SEARCH_LENGTH, { error: QUERY_MESSAGES.search }).optional(),
  is_active: z
    .enum(['true', 'false'], { error: QUERY_MESSAGES.isActive })
    .transform((v) => v === 'true')
    .optional(),
  status: z.enum(statusValues, { error: QUERY_MESSAGES.status }).default('all'),
});

export const customerParamsSchema = z.object({ uuid: z.guid({ error: QUERY_MESSAGES.uuid }) });

export const activityQuerySchema = z.object({
  limit: wholeNumber(1, ACTIVITY_MAX_LIMIT, QUERY_MESSAGES.activityLimit).default(ACTIVITY_DEFAULT_LIMIT),
});

/**
 * The create body as sent. Strings may be missing (they read as empty, so the spec's "is
 * required" message answers); the service applies validateCreateCustomer, the client's own rules.
 */
export const createCustomerBodySchema = z
  .object({
    email: inputText({ error: CUSTOMER_MESSAGES.emailInvalid }).optional(),
    name: inputText({ error: CUSTOMER_MESSAGES.nameRequired }).optional(),
    company: inputText({ error: CUSTOMER_MESSAGES.companyRequired }).optional(),
    expirationDays: z.number({ error: CUSTOMER_MESSAGES.expirationRange }).default(DEFAULT_EXPIRATION_DAYS),
    /** The form holds it (spec section 3) but a link is always sent; accepted and ignored. */
    sendPasswordLink: z.boolean().optional(),
  })
  .strict();

/** `PUT /customers/{uuid}`: every field optional, snake_case flags as the spec sends them. */
export const updateCustomerBodySchema = z
  .object({
    name: inputText().optional(),
    email: inputText().optional(),
    company: inputText().optional(),
    phone: inputText().nullable().optional(),
    address: inputText().nullable().optional(),
    is_active: z.boolean().optional(),
    blocked_enabled: z.boolean().optional(),
    blocked_reason: inputText().nullable().optional(),
    end_lines_at_cycle_end: z
      .boolean({ error: QUERY_MESSAGES.endLines })
      .optional()
      .describe(
        "Default false. Only with blocked_enabled true, and only for the admin role: once the block is saved, each of the customer's active service lines that is not already ending is set to end at the end of its billing cycle; the answer's lineEndings says what became of each.",
      ),
  })
  .strict();

export const extendBodySchema = z
  .object({ days: wholeNumber(MIN_EXPIRATION_DAYS, MAX_EXPIRATION_DAYS, QUERY_MESSAGES.extendDays).default(DEFAULT_EXTENSION_DAYS) })
  .strict();

export const customerSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  email: z.string(),
  company: z.string(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  isActive: z.boolean(),
  blockedEnabled: z.boolean(),
  blockedReason: z.string().nullable(),
  blockedAt: isoDate.nullable(),
  mfaEnabled: z.boolean(),
  accountExpiresAt: isoDate.nullable(),
  lastLogin: isoDate.nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
  hasPassword: z.boolean(),
});

export const lineEndingSchema = z.object({
  serviceLineNumber: z.string(),
  outcome: z.enum(['scheduled', 'already_ending', 'failed']),
  message: z.string().optional(),
});

/** `PUT /customers/{uuid}`: the customer, and what became of each line a block asked to end (none otherwise). */
export const customerUpdateDataSchema = z.object({ customer: customerSchema, lineEndings: z.array(lineEndingSchema) });

export const customerListDataSchema = z.object({
  customers: z.array(customerSchema),
  pagination: paginationSchema,
});

export const customerStatsSchema = z.object({
  total: z.number().int(),
  active: z.number().int(),
  pending: z.number().int(),
  mfaEnabled: z.number().int(),
  blocked: z.number().int(),
  expiringSoon: z.number().int(),
  expired: z.number().int(),
});

export const activityEntrySchema = z.object({
  id: z.string(),
  action: z.string(),
  description: z.string(),
  actorName: z.string().nullable(),
  createdAt: isoDate,
});

export const passwordSetupInfoSchema = z.object({
  email: z.string(),
  name: z.string(),
  company: z.string(),
  expiresAt: isoDate,
});

export const passwordSetupBodySchema = z
  .object({
    token: inputText().optional(),
    password: inputText().optional(),
    confirmPassword: inputText().optional(),
  })
  .strict();

export const outboxQuerySchema = z.object({
  to: z.string({ error: QUERY_MESSAGES.outboxTo }).trim().max(320, { error: QUERY_MESSAGES.outboxTo }).optional(),
  limit: wholeNumber(1, OUTBOX_MAX_LIMIT, QUERY_MESSAGES.outboxLimit).default(OUTBOX_DEFAULT_LIMIT),
});

export const outboxMessageSchema = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  createdAt: isoDate,
  sentAt: isoDate.nullable(),
  error: z.string().nullable(),
});

exact<Exact<z.output<typeof customerSchema>, CustomerListItem>>();
exact<Exact<z.output<typeof customerListDataSchema>, CustomerListData>>();
exact<Exact<z.output<typeof lineEndingSchema>, CustomerLineEnding>>();
exact<Exact<z.output<typeof customerUpdateDataSchema>, CustomerUpdateData>>();
exact<Exact<z.output<typeof customerStatsSchema>, CustomerStats>>();
exact<Exact<z.output<typeof activityEntrySchema>, ActivityEntry>>();
exact<Exact<z.output<typeof passwordSetupInfoSchema>, PasswordSetupInfo>>();
exact<Exact<z.output<typeof outboxMessageSchema>, EmailOutboxMessage>>();
// The update body is the domain's payload, field for field.
exact<Exact<z.output<typeof updateCustomerBodySchema>, UpdateCustomerPayload>>();
