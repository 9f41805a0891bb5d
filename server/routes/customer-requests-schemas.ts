// Request and response schemas of the customer-request routes (the customer's /my/requests and the
// admins' /requests queue), the answers checked against their types in src/domain/requests.ts.
import { z } from 'zod';
import { MAX_TOP_UP_BLOCKS_PER_CYCLE } from '../../src/domain/service-lines';
import {
  DECLINE_REASON_MAX_LENGTH,
  REQUEST_MESSAGES as M,
  REQUEST_NOTE_MAX_LENGTH,
  REQUEST_STATUS_FILTERS,
  REQUESTS_MAX_PAGE_SIZE,
  REQUESTS_PAGE_SIZE,
  type CustomerRequestWire,
  type MyRequestsWire,
  type QueuedRequestWire,
  type RequestOptionsWire,
  type RequestQueueWire,
} from '../../src/domain/requests';
import { SERVICE_LINE_PATTERN } from '../../src/domain/terminals';
import { MAX_PAGE, QUERY_MESSAGES, wholeNumber } from './customers-schemas';
import { inputText, paginationSchema, exact, type Exact, providerAccountParam } from './schemas';
import { SERVICE_LINE_REQUEST_MESSAGES } from './service-lines-schemas';
import { TERMINAL_QUERY_MESSAGES } from './terminals-schemas';

export const REQUEST_FIELD_MESSAGES = {
  id: 'Request id must be a UUID',
  serviceLine: SERVICE_LINE_REQUEST_MESSAGES.serviceLine,
  kind: 'kind must be plan_change or top_up',
  productId: SERVICE_LINE_REQUEST_MESSAGES.productId,
  count: `count must be a whole number from 1 to ${MAX_TOP_UP_BLOCKS_PER_CYCLE}`,
  note: M.noteTooLong,
  status: `status must be one of ${REQUEST_STATUS_FILTERS.join(', ')}`,
  limit: `limit must be a whole number from 1 to ${REQUESTS_MAX_PAGE_SIZE}`,
  accountId: TERMINAL_QUERY_MESSAGES.accountId,
} as const;
const F = REQUEST_FIELD_MESSAGES;

export const requestParamsSchema = z.object({ id: z.uuid({ error: F.id }) });

const serviceLineNumber = z.string({ error: F.serviceLine }).regex(SERVICE_LINE_PATTERN, { error: F.serviceLine });
export const requestOptionsQuerySchema = z.object({ serviceLineNumber });

const productId = inputText({ error: F.productId }).trim().min(1, { error: F.productId }).max(100, { error: F.productId });
const note = inputText({ error: F.note }).max(REQUEST_NOTE_MAX_LENGTH, { error: F.note }).optional();

export const newRequestBodySchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ serviceLineNumber, kind: z.literal('plan_change'), productId, note }).strict(),
    z
      .object({
        serviceLineNumber,
        kind: z.literal('top_up'),
        productId,
        count: z.number({ error: F.count }).int({ error: F.count }).min(1, { error: F.count }).max(MAX_TOP_UP_BLOCKS_PER_CYCLE, { error: F.count }),
        note,
      })
      .strict(),
  ],
  { error: F.kind },
);

export const declineBodySchema = z
  .object({
    reason: inputText({ error: M.reasonRequired }).trim().min(1, { error: M.reasonRequired }).max(DECLINE_REASON_MAX_LENGTH, { error: M.reasonTooLong }),
  })
  .strict();

export const requestQueueQuerySchema = z.object({
  status: z.enum(REQUEST_STATUS_FILTERS, { error: F.status }).default('pending'),
  page: wholeNumber(1, MAX_PAGE, QUERY_MESSAGES.page).default(1),
  limit: wholeNumber(1, REQUESTS_MAX_PAGE_SIZE, F.limit).default(REQUESTS_PAGE_SIZE),
  // The requests about one provider account's lines (an unknown account matches none).
  account_id: providerAccountParam,
});

const isoDate = z.string();
const kind = z.enum(['plan_change', 'top_up']);
const status = z.enum(['pending', 'approved', 'declined', 'cancelled']);
const requestShape = {
  id: z.string(),
  kind,
  serviceLineNumber: z.string(),
  terminalNickname: z.string().nullable(),
  plan: z
    .object({
      productReferenceId: z.string(),
      name: z.string().nullable(),
      monthlyDataGB: z.number().nullable(),
      price: z.number().nullable(),
      currency: z.string().nullable(),
    })
    .nullable(),
  topUp: z
    .object({ productId: z.string(), count: z.number().int(), dataGB: z.number().nullable(), price: z.number().nullable(), currency: z.string().nullable() })
    .nullable(),
  note: z.string().nullable(),
  status,
  reason: z.string().nullable(),
  createdAt: isoDate,
  decidedAt: isoDate.nullable(),
};

export const customerRequestSchema = z.object(requestShape);
export const queuedRequestSchema = z.object({
  ...requestShape,
  customer: z.object({ uuid: z.string(), name: z.string(), company: z.string() }),
  decidedBy: z.string().nullable(),
  accountId: z.number().int().nullable(),
  accountName: z.string().nullable(),
});

export const myRequestsSchema = z.object({
  requests: z.array(customerRequestSchema),
  lines: z.array(z.object({ serviceLineNumber: z.string(), nickname: z.string().nullable() })),
});

const dataProductSchema = z.object({ productId: z.string(), dataGB: z.number(), price: z.number(), currency: z.string() });
export const requestOptionsSchema = z.object({
  serviceLineNumber: z.string(),
  currentPlan: z.object({ productReferenceId: z.string(), name: z.string().nullable() }),
  plans: z.array(z.object({ productReferenceId: z.string(), name: z.string(), monthlyDataGB: z.number(), price: z.number().nullable(), currency: z.string() })),
  topUp: z.object({ product: dataProductSchema, blocksLeft: z.number().int() }).nullable(),
});

export const requestQueueSchema = z.object({
  requests: z.array(queuedRequestSchema),
  pagination: paginationSchema,
  counts: z.object({ pending: z.number().int(), approved: z.number().int(), declined: z.number().int(), cancelled: z.number().int() }),
});

exact<Exact<z.infer<typeof customerRequestSchema>, CustomerRequestWire>>();
exact<Exact<z.infer<typeof queuedRequestSchema>, QueuedRequestWire>>();
exact<Exact<z.infer<typeof myRequestsSchema>, MyRequestsWire>>();
exact<Exact<z.infer<typeof requestOptionsSchema>, RequestOptionsWire>>();
exact<Exact<z.infer<typeof requestQueueSchema>, RequestQueueWire>>();
