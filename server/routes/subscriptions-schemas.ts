// Request and response schemas of the subscriptions routes, each response checked against its type
// in src/domain/subscriptions.ts so the OpenAPI document cannot drift from it.
import { z } from 'zod';
import {
  SUBSCRIPTION_PLAN_FILTERS,
  SUBSCRIPTION_SEARCH_MAX_LENGTH,
  SUBSCRIPTION_STATUSES,
  SUBSCRIPTIONS_MAX_PAGE_SIZE,
  SUBSCRIPTIONS_PAGE_SIZE,
  TERMINAL_TYPES,
  type SubscriptionListWire,
  type SubscriptionPlanWire,
  type SubscriptionWire,
} from '../../src/domain/subscriptions';
import { SERVICE_LINE_PATTERN } from '../../src/domain/terminals';
import { MAX_PAGE, wholeNumber } from './customers-schemas';
import { paginationSchema, exact, type Exact, providerAccountParam } from './schemas';
import { TERMINAL_QUERY_MESSAGES } from './terminals-schemas';

export const SUBSCRIPTION_QUERY_MESSAGES = {
  page: TERMINAL_QUERY_MESSAGES.page,
  limit: `limit must be a whole number from 1 to ${SUBSCRIPTIONS_MAX_PAGE_SIZE}`,
  search: `search must be at most ${SUBSCRIPTION_SEARCH_MAX_LENGTH} characters`,
  plan: `plan must be one of ${SUBSCRIPTION_PLAN_FILTERS.join(', ')}`,
  overPlan: 'over_plan must be true or false',
  serviceLine: TERMINAL_QUERY_MESSAGES.serviceLine,
  productReferenceId: 'productReferenceId must be 1 to 100 characters',
  accountId: TERMINAL_QUERY_MESSAGES.accountId,
} as const;

const M = SUBSCRIPTION_QUERY_MESSAGES;

export const subscriptionListQuerySchema = z.object({
  page: wholeNumber(1, MAX_PAGE, M.page).default(1),
  limit: wholeNumber(1, SUBSCRIPTIONS_MAX_PAGE_SIZE, M.limit).default(SUBSCRIPTIONS_PAGE_SIZE),
  search: z.string({ error: M.search }).trim().max(SUBSCRIPTION_SEARCH_MAX_LENGTH, { error: M.search }).optional(),
  plan: z.enum(SUBSCRIPTION_PLAN_FILTERS, { error: M.plan }).default('all'),
  over_plan: z
    .enum(['true', 'false'], { error: M.overPlan })
    .transform((v) => v === 'true')
    .optional(),
  account_id: providerAccountParam,
});

/** GET /subscriptions/plans: one account's plans (the first account's when none is named). */
export const subscriptionPlansQuerySchema = z.object({
  account_id: providerAccountParam,
});

export const subscriptionLineParamsSchema = z.object({
  serviceLineNumber: z.string({ error: M.serviceLine }).regex(SERVICE_LINE_PATTERN, { error: M.serviceLine }),
});

export const changePlanBodySchema = z
  .object({ productReferenceId: z.string({ error: M.productReferenceId }).trim().min(1, { error: M.productReferenceId }).max(100, { error: M.productReferenceId }) })
  .strict();

const forecastSchema = z.object({ projectedUsedGB: z.number(), projectedOverageGB: z.number(), projectedCharges: z.number() });

export const subscriptionSchema = z.object({
  terminalId: z.string(),
  serviceLineNumber: z.string(),
  location: z.string().nullable(),
  terminalType: z.enum(TERMINAL_TYPES).nullable(),
  plan: z.string(),
  productReferenceId: z.string().nullable(),
  monthlyDataGB: z.number(),
  usedGB: z.number(),
  remainingGB: z.number(),
  overageGB: z.number(),
  overageCharges: z.number(),
  currency: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  billingCycle: z.object({ startDate: z.string(), endDate: z.string() }).nullable(),
  forecast: forecastSchema.nullable(),
  customerName: z.string().nullable(),
  accountId: z.number().int().nullable(),
  accountName: z.string().nullable(),
});
exact<Exact<z.infer<typeof subscriptionSchema>, SubscriptionWire>>();

export const subscriptionListSchema = z.object({
  subscriptions: z.array(subscriptionSchema),
  pagination: paginationSchema,
  summary: z.object({
    totalTerminals: z.number().int(),
    plans50GB: z.number().int(),
    plans1TB: z.number().int(),
    overageTerminals: z.number().int(),
    totalOverageGB: z.number(),
  }),
});
exact<Exact<z.infer<typeof subscriptionListSchema>, SubscriptionListWire>>();

export const subscriptionPlansSchema = z.array(
  z.object({ productReferenceId: z.string(), name: z.string(), monthlyDataGB: z.number(), price: z.number().nullable(), currency: z.string() }),
);
exact<Exact<z.infer<typeof subscriptionPlansSchema>[number], SubscriptionPlanWire>>();

export const changePlanResultSchema = z.object({ subscription: subscriptionSchema });
