// Request and response schemas of the statement routes (the statements pages, the CSV export,
// closing a cycle, the customer's own statements), the answers checked against src/domain/billing.ts.
import { z } from 'zod';
import {
  BILLING_MESSAGES as M,
  CYCLE_PATTERN,
  STATEMENT_ITEM_KINDS,
  type StatementListWire,
  type StatementSummaryWire,
  type StatementWire,
} from '../../../src/domain/billing';
import { MAX_PAGE, MAX_SEARCH_LENGTH, QUERY_MESSAGES, wholeNumber } from '../customers-schemas';
import { paginationSchema, exact, type Exact } from '../schemas';

export const STATEMENTS_PAGE_SIZE = 25;
export const STATEMENTS_MAX_PAGE_SIZE = 100;

export const STATEMENT_FIELD_MESSAGES = {
  status: 'status must be draft or closed',
  customer: 'customer must be a customer UUID',
  search: `search must be at most ${MAX_SEARCH_LENGTH} characters`,
  limit: `limit must be a whole number from 1 to ${STATEMENTS_MAX_PAGE_SIZE}`,
  id: 'Statement id must be a UUID',
} as const;
const F = STATEMENT_FIELD_MESSAGES;

const cycle = z.string({ error: M.cycleInvalid }).regex(CYCLE_PATTERN, { error: M.cycleInvalid });

const filters = {
  status: z.enum(['draft', 'closed'], { error: F.status }).optional(),
  customer: z.uuid({ error: F.customer }).optional(),
  search: z.string({ error: F.search }).trim().max(MAX_SEARCH_LENGTH, { error: F.search }).optional(),
};

export const statementListQuerySchema = z.object({
  cycle: cycle.optional(),
  ...filters,
  page: wholeNumber(1, MAX_PAGE, QUERY_MESSAGES.page).default(1),
  limit: wholeNumber(1, STATEMENTS_MAX_PAGE_SIZE, F.limit).default(STATEMENTS_PAGE_SIZE),
});

/** The export is of one cycle: a file of every cycle would have no bound. */
export const statementExportQuerySchema = z.object({ cycle, ...filters });

export const statementParamsSchema = z.object({ id: z.uuid({ error: F.id }) });
export const cycleParamsSchema = z.object({ cycle });

const summaryShape = {
  id: z.string(),
  number: z.string().nullable(),
  customerId: z.string(),
  customerName: z.string(),
  customerEmail: z.string(),
  cycle: z.string(),
  currency: z.string(),
  status: z.enum(['draft', 'closed']),
  serviceLines: z.number().int(),
  subtotalMinor: z.number().int(),
  discountMinor: z.number().int(),
  adjustmentMinor: z.number().int(),
  totalMinor: z.number().int(),
  updatedAt: z.string(),
  closedAt: z.string().nullable(),
  dueOn: z.string().nullable(),
  paidMinor: z.number().int(),
  amountDueMinor: z.number().int(),
  paymentStatus: z.enum(['unpaid', 'part_paid', 'paid']).nullable(),
};

export const statementSummarySchema = z.object(summaryShape);

export const statementItemSchema = z.object({
  position: z.number().int(),
  kind: z.enum(STATEMENT_ITEM_KINDS),
  serviceLineNumber: z.string().nullable(),
  productReferenceId: z.string().nullable(),
  description: z.string(),
  periodStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
  quantity: z.string(),
  unitMinor: z.number().int().nullable(),
  amountMinor: z.number().int(),
  adjustmentId: z.string().nullable(),
});

export const statementSchema = z.object({
  ...summaryShape,
  customerCompany: z.string().nullable(),
  customerAddress: z.string().nullable(),
  cycleStart: z.string(),
  cycleEnd: z.string(),
  items: z.array(statementItemSchema),
});

const currencyTotal = z.object({ currency: z.string(), statements: z.number().int(), totalMinor: z.number().int() });

export const statementListSchema = z.object({
  items: z.array(statementSummarySchema),
  pagination: paginationSchema,
  totals: z.array(currencyTotal),
  cycles: z.array(z.object({ cycle: z.string(), status: z.enum(['open', 'closed']) })),
});

export const refreshReportSchema = z.object({ cycle: z.string(), statements: z.number().int(), changed: z.number().int() });
export const closeReportSchema = z.object({ cycle: z.string(), statements: z.number().int(), totals: z.array(currencyTotal) });

// The answers' schemas and the domain's wire types say the same thing.
exact<Exact<z.infer<typeof statementSummarySchema>, StatementSummaryWire>>();
exact<Exact<z.infer<typeof statementSchema>, StatementWire>>();
exact<Exact<z.infer<typeof statementListSchema>, StatementListWire>>();
