// Request and response schemas of a customer's terminals (assign, unassign, the assigned list,
// month usage, daily usage) and of a service line's usage history, each response checked against
// its type in src/domain/customer-terminals.ts so the OpenAPI document cannot drift from it.
import { z } from 'zod';
import { inputText, paginationSchema, exact, type Exact, providerAccountParam } from './schemas';
import {
  CUSTOMER_TERMINAL_STATUSES,
  CUSTOMER_USAGE_MAX_PAGE_SIZE,
  ASSIGNED_PREVIEW_SIZE,
  CUSTOMER_USAGE_PAGE_SIZE,
  CUSTOMER_USAGE_SEARCH_MAX_LENGTH,
  CUSTOMER_USAGE_SORT_FIELDS,
  CUSTOMER_USAGE_STATUS_OPTIONS,
  ASSIGN_FAILURE_CODES,
  isUsageDay,
  USAGE_MAX_RANGE_DAYS,
  USAGE_RECORDS_DEFAULT_LIMIT,
  USAGE_RECORDS_MAX_LIMIT,
  usageDaySpan,
  type AssignedTerminal,
  type AssignTerminalsResult,
  type CustomerDailyUsage,
  type CustomerUsagePage,
  type AssignedTerminalsPage,
  type ServiceLineUsageHistory,
  type TerminalUsageRecord,
  type UnassignTerminalResult,
} from '../../src/domain/customer-terminals';
import { SERVICE_LINE_PATTERN } from '../../src/domain/terminals';
import { MAX_PAGE, wholeNumber } from './customers-schemas';
import { serviceLineUsageSchema, TERMINAL_QUERY_MESSAGES, terminalDetailSchema } from './terminals-schemas';

/**
 * The raw list may hold blanks and repeats (they are dropped before the ASSIGN_MAX_LINES rule),
 * so it is allowed a few times that many entries; past these bounds the body is refused whole.
 */
export const ASSIGN_MAX_RAW_ENTRIES = 2000;
export const ASSIGN_MAX_RAW_ENTRY_LENGTH = 256;

export const CUSTOMER_TERMINAL_QUERY_MESSAGES = {
  customerUuid: 'customerUuid must be a valid UUID',
  serviceLineNumbers: `serviceLineNumbers must be a list of at most ${ASSIGN_MAX_RAW_ENTRIES} service line numbers`,
  serviceLineEntry: `Each service line number must be text of at most ${ASSIGN_MAX_RAW_ENTRY_LENGTH} characters`,
  serviceLine: TERMINAL_QUERY_MESSAGES.serviceLine,
  day: (name: string) => `${name} must be a date written YYYY-MM-DD, like 2026-03-01`,
  together: (start: string, end: string) => `${start} and ${end} must be given together`,
  required: (start: string, end: string) => `${start} and ${end} are required`,
  order: (start: string, end: string) => `${start} must not be after ${end}`,
  span: (start: string, end: string) => `${start} to ${end} may span at most ${USAGE_MAX_RANGE_DAYS} days`,
  limit: `limit must be a whole number from 1 to ${USAGE_RECORDS_MAX_LIMIT}`,
  page: TERMINAL_QUERY_MESSAGES.page,
  pageLimit: `limit must be a whole number from 1 to ${CUSTOMER_USAGE_MAX_PAGE_SIZE}`,
  search: `search must be at most ${CUSTOMER_USAGE_SEARCH_MAX_LENGTH} characters`,
  status: `status must be one of ${CUSTOMER_USAGE_STATUS_OPTIONS.map((o) => o.value).join(', ')}`,
  sort: `sort must be one of ${CUSTOMER_USAGE_SORT_FIELDS.join(', ')}`,
  sortOrder: 'order must be asc or desc',
  accountId: TERMINAL_QUERY_MESSAGES.accountId,
} as const;

const M = CUSTOMER_TERMINAL_QUERY_MESSAGES;

const customerUuid = z.guid({ error: M.customerUuid });
const serviceLine = z.string({ error: M.serviceLine }).trim().regex(SERVICE_LINE_PATTERN, { error: M.serviceLine });

export const assignTerminalsBodySchema = z
  .object({
    customerUuid,
    serviceLineNumbers: z
      .array(z.string({ error: M.serviceLineEntry }).max(ASSIGN_MAX_RAW_ENTRY_LENGTH, { error: M.serviceLineEntry }), { error: M.serviceLineNumbers })
      .max(ASSIGN_MAX_RAW_ENTRIES, { error: M.serviceLineNumbers }),
  })
  .strict();

export const unassignTerminalBodySchema = z.object({ customerUuid, serviceLineNumber: serviceLine }).strict();

export const customerParamsSchema = z.object({ customerUuid });
export const lineParamsSchema = z.object({ sl: serviceLine });

const day = (name: string) => inputText({ error: M.day(name) }).refine(isUsageDay, { error: M.day(name) }).optional();

const BILLING = ['billing_cycle_start', 'billing_cycle_end'] as const;
const DATES = ['start_date', 'end_date'] as const;
type RangeKeys = typeof BILLING | typeof DATES;
type RangeQuery = Partial<Record<RangeKeys[number], string>>;

/** A pair of days: both or neither (both when required), in order, at most USAGE_MAX_RANGE_DAYS. */
function checkRange(query: RangeQuery, [start, end]: RangeKeys, ctx: z.RefinementCtx, required = false) {
  const from = query[start];
  const to = query[end];
  if (from === undefined && to === undefined) {
    if (required) ctx.addIssue({ code: 'custom', path: [start], message: M.required(start, end) });
    return;
  }
  if (from === undefined || to === undefined) {
    ctx.addIssue({ code: 'custom', path: [from === undefined ? start : end], message: required ? M.required(start, end) : M.together(start, end) });
    return;
  }
  // A day that is not one already has its own issue.
  if (!isUsageDay(from) || !isUsageDay(to)) return;
  if (from > to) ctx.addIssue({ code: 'custom', path: [start], message: M.order(start, end) });
  else if (usageDaySpan(from, to) > USAGE_MAX_RANGE_DAYS) ctx.addIssue({ code: 'custom', path: [start], message: M.span(start, end) });
}

const rangeOf = (query: RangeQuery, [start, end]: RangeKeys) => {
  const from = query[start];
  const to = query[end];
  return from !== undefined && to !== undefined ? { from, to } : null;
};

const rangeShape = {
  billing_cycle_start: day(BILLING[0]),
  billing_cycle_end: day(BILLING[1]),
  start_date: day(DATES[0]),
  end_date: day(DATES[1]),
};

export const customerUsageQuerySchema = z
  .object(rangeShape)
  .superRefine((q, ctx) => {
    checkRange(q, BILLING, ctx);
    checkRange(q, DATES, ctx);
  })
  .transform((q) => ({ billingCycle: rangeOf(q, BILLING), dates: rangeOf(q, DATES) }));

const statusValues = CUSTOMER_USAGE_STATUS_OPTIONS.map((o) => o.value) as [
  (typeof CUSTOMER_USAGE_STATUS_OPTIONS)[number]['value'],
  ...(typeof CUSTOMER_USAGE_STATUS_OPTIONS)[number]['value'][],
];

/** One provider account's terminals of the customer (an unknown account matches none), as `GET /terminals` takes it. */
const accountIdSchema = providerAccountParam;

/** A page of the customer's assigned terminals; the Assign Terminals dialog asks for the first. */
export const assignedTerminalsPageQuerySchema = z
  .object({
    page: wholeNumber(1, MAX_PAGE, M.page).default(1),
    // The same bound as the usage table's pages (and its message).
    limit: wholeNumber(1, CUSTOMER_USAGE_MAX_PAGE_SIZE, M.pageLimit).default(ASSIGNED_PREVIEW_SIZE),
    account_id: accountIdSchema,
  })
  .transform((q) => ({ page: q.page, limit: q.limit, accountId: q.account_id ?? null }));

/** The usage table's filter: the month (as the list's), the search, status filter and sort. */
const usageTableShape = {
  ...rangeShape,
  search: z.string({ error: M.search }).trim().max(CUSTOMER_USAGE_SEARCH_MAX_LENGTH, { error: M.search }).default(''),
  status: z.enum(statusValues, { error: M.status }).default('all'),
  sort: z.enum(CUSTOMER_USAGE_SORT_FIELDS, { error: M.sort }).optional(),
  order: z.enum(['asc', 'desc'], { error: M.sortOrder }).default('asc'),
  account_id: accountIdSchema,
};
type UsageTableQuery = z.output<z.ZodObject<typeof usageTableShape>>;

const checkRanges = (q: RangeQuery, ctx: z.RefinementCtx) => {
  checkRange(q, BILLING, ctx);
  checkRange(q, DATES, ctx);
};

const usageTableFilter = (q: UsageTableQuery) => ({
  billingCycle: rangeOf(q, BILLING),
  dates: rangeOf(q, DATES),
  search: q.search,
  status: q.status,
  sort: q.sort ? { field: q.sort, order: q.order === 'asc' ? (1 as const) : (-1 as const) } : null,
  accountId: q.account_id ?? null,
});

/** The usage table's filter and its page. */
export const customerUsagePageQuerySchema = z
  .object({
    ...usageTableShape,
    page: wholeNumber(1, MAX_PAGE, M.page).default(1),
    limit: wholeNumber(1, CUSTOMER_USAGE_MAX_PAGE_SIZE, M.pageLimit).default(CUSTOMER_USAGE_PAGE_SIZE),
  })
  .superRefine(checkRanges)
  .transform((q) => ({ ...usageTableFilter(q), page: q.page, limit: q.limit }));

/** The usage table's CSV export: its filter, every page. */
export const customerUsageExportQuerySchema = z.object(usageTableShape).superRefine(checkRanges).transform(usageTableFilter);

export const dailyUsageQuerySchema = z
  .object({ start_date: rangeShape.start_date, end_date: rangeShape.end_date })
  .superRefine((q, ctx) => checkRange(q, DATES, ctx, true))
  .transform((q) => rangeOf(q, DATES)!);

export const lineHistoryQuerySchema = z
  .object({
    ...rangeShape,
    limit: z.coerce
      .number({ error: M.limit })
      .int({ error: M.limit })
      .min(1, { error: M.limit })
      .max(USAGE_RECORDS_MAX_LIMIT, { error: M.limit })
      .default(USAGE_RECORDS_DEFAULT_LIMIT),
  })
  .superRefine((q, ctx) => {
    checkRange(q, BILLING, ctx);
    checkRange(q, DATES, ctx);
  })
  .transform((q) => ({ billingCycle: rangeOf(q, BILLING), dates: rangeOf(q, DATES), limit: q.limit }));

// ---- Responses -----------------------------------------------------------------------------

const isoDate = z.string();
// The same shapes as a terminal's details and a service line's usage answer.
const ownerSchema = terminalDetailSchema.shape.owner.unwrap();
const dataCapSchema = terminalDetailSchema.shape.dataCap.unwrap();
const usageAmountSchema = serviceLineUsageSchema.shape.currentBillingCycle.unwrap().shape.priorityData;

export const assignTerminalsResultSchema = z.object({
  assigned: z.array(z.string()),
  failed: z.array(z.object({ serviceLineNumber: z.string(), reason: z.string(), code: z.enum(ASSIGN_FAILURE_CODES) })),
  total: z.number().int(),
});

export const unassignTerminalResultSchema = z.object({ serviceLineNumber: z.string(), unassigned: z.array(z.string()) });

export const assignedTerminalsSchema = z.array(
  z.object({
    deviceId: z.string(),
    serviceLine: z.string(),
    status: z.enum(['Active', 'Inactive']),
    assignedTo: z.string(),
    kitSerialNumber: z.string(),
    assignedAt: isoDate,
    accountId: z.number().int().nullable(),
    accountName: z.string().nullable(),
  }),
);

export const terminalUsageRecordsSchema = z.array(
  z.object({
    terminalId: z.string(),
    serviceLineNumber: z.string(),
    location: z.string().nullable(),
    terminalType: z.string().nullable(),
    plan: z.string().nullable(),
    status: z.enum(CUSTOMER_TERMINAL_STATUSES),
    dataCap: dataCapSchema.nullable(),
    currentBillingCycle: z
      .object({
        startDate: isoDate,
        endDate: isoDate,
        totalUsed: z.number(),
        priorityData: usageAmountSchema,
        standardUsed: z.number(),
      })
      .nullable(),
    accountId: z.number().int().nullable(),
    accountName: z.string().nullable(),
  }),
);

export const assignedTerminalsPageSchema = z.object({ records: assignedTerminalsSchema, pagination: paginationSchema });

export const customerUsagePageSchema = z.object({
  records: terminalUsageRecordsSchema,
  pagination: paginationSchema,
  summary: z.object({ totalTerminals: z.number().int(), activeTerminals: z.number().int(), totalDataUsed: z.number(), overLimit: z.number().int() }),
});

export const customerDailyUsageSchema = z.array(z.object({ date: isoDate, priorityGB: z.number(), standardGB: z.number() }));

export const serviceLineUsageHistorySchema = z.object({
  serviceLineNumber: z.string(),
  terminalId: z.string().nullable(),
  owner: ownerSchema.nullable(),
  cycles: z.array(
    z.object({
      startDate: isoDate,
      endDate: isoDate,
      priorityGB: z.number(),
      standardGB: z.number(),
      totalGB: z.number(),
      usageLimitGB: z.number().nullable(),
      overageGB: z.number().nullable(),
    }),
  ),
  records: z.array(
    z.object({ date: isoDate, priorityGB: z.number(), standardGB: z.number(), optInPriorityGB: z.number(), nonBillableGB: z.number() }),
  ),
  totals: z.object({ priorityGB: z.number(), standardGB: z.number(), totalGB: z.number(), days: z.number().int() }),
});

exact<Exact<z.output<typeof assignTerminalsResultSchema>, AssignTerminalsResult>>();
exact<Exact<z.output<typeof unassignTerminalResultSchema>, UnassignTerminalResult>>();
exact<Exact<z.output<typeof assignedTerminalsSchema>, AssignedTerminal[]>>();
exact<Exact<z.output<typeof terminalUsageRecordsSchema>, TerminalUsageRecord[]>>();
exact<Exact<z.output<typeof customerUsagePageSchema>, CustomerUsagePage>>();
exact<Exact<z.output<typeof assignedTerminalsPageSchema>, AssignedTerminalsPage>>();
exact<Exact<z.output<typeof customerDailyUsageSchema>, CustomerDailyUsage[]>>();
exact<Exact<z.output<typeof serviceLineUsageHistorySchema>, ServiceLineUsageHistory>>();
