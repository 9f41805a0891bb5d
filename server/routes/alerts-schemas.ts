// Request and response schemas of the alert routes (the Alerts page, the bell, the rules and
// their overrides, the customer's own alerts), the answers checked against src/domain/alerts.ts.
import { z } from 'zod';
import {
  ALERT_KINDS,
  ALERT_SEARCH_MAX_LENGTH,
  ALERT_SEVERITIES,
  ALERT_STATUS_FILTERS,
  ALERTS_ACKNOWLEDGE_MAX,
  ALERTS_MAX_PAGE_SIZE,
  ALERTS_PAGE_SIZE,
  ALERT_MESSAGES as M,
  USAGE_LEVELS_MAX_COUNT,
  type AcknowledgeResultWire,
  type AlertBellWire,
  type AlertEvaluationReport,
  type AlertListWire,
  type AlertOverrideWire,
  type AlertRuleWire,
  type MyAlertsWire,
} from '../../src/domain/alerts';
import { MAX_PAGE, QUERY_MESSAGES, wholeNumber } from './customers-schemas';
import { actionSummarySchema, ruleActionsSchema, ruleActionWireSchema } from './automation-schemas';
import { inputText, paginationSchema, exact, type Exact, PROVIDER_ACCOUNT_ID_MESSAGE, providerAccountParam } from './schemas';

export const ALERT_FIELD_MESSAGES = {
  kind: `kind must be one of ${ALERT_KINDS.join(', ')}`,
  kindFilter: `kind must be all or one of ${ALERT_KINDS.join(', ')}`,
  status: `status must be one of ${ALERT_STATUS_FILTERS.join(', ')}`,
  severity: `severity must be all or one of ${ALERT_SEVERITIES.join(', ')}`,
  customer: 'customer must be a customer UUID',
  search: `search must be at most ${ALERT_SEARCH_MAX_LENGTH} characters`,
  limit: `limit must be a whole number from 1 to ${ALERTS_MAX_PAGE_SIZE}`,
  ids: `ids must be a list of 1 to ${ALERTS_ACKNOWLEDGE_MAX} alert UUIDs`,
  enabled: 'enabled must be true or false',
  notifyCustomer: 'notifyCustomer must be true or false',
  subscribed: 'subscribed must be true or false',
  levels: `usageLevels must be a list of up to ${USAGE_LEVELS_MAX_COUNT} whole percents, or null`,
  threshold: 'threshold must be a number, or null',
  scope: 'scope must be customer or line',
  key: 'key must name a customer (its UUID) or a service line',
  customerKey: 'key must be the customer UUID for a customer override',
  accountId: PROVIDER_ACCOUNT_ID_MESSAGE,
} as const;
const F = ALERT_FIELD_MESSAGES;

export const alertKindParamsSchema = z.object({ kind: z.enum(ALERT_KINDS, { error: F.kind }) });
export const overrideParamsSchema = z.object({
  kind: z.enum(ALERT_KINDS, { error: F.kind }),
  scope: z.enum(['customer', 'line'], { error: F.scope }),
  key: z.string().min(1, { error: F.key }).max(100, { error: F.key }),
});

export const alertListQuerySchema = z.object({
  status: z.enum(ALERT_STATUS_FILTERS, { error: F.status }).default('active'),
  kind: z.enum([...ALERT_KINDS, 'all'], { error: F.kindFilter }).default('all'),
  severity: z.enum([...ALERT_SEVERITIES, 'all'], { error: F.severity }).default('all'),
  customer: z.uuid({ error: F.customer }).optional(),
  search: z.string().max(ALERT_SEARCH_MAX_LENGTH, { error: F.search }).optional(),
  // The alerts on one provider account's lines (an unknown account matches none).
  account_id: providerAccountParam,
  page: wholeNumber(1, MAX_PAGE, QUERY_MESSAGES.page).default(1),
  limit: wholeNumber(1, ALERTS_MAX_PAGE_SIZE, F.limit).default(ALERTS_PAGE_SIZE),
});

export const acknowledgeBodySchema = z
  .object({ ids: z.array(z.uuid({ error: F.ids }), { error: F.ids }).min(1, { error: M.acknowledgeEmpty }).max(ALERTS_ACKNOWLEDGE_MAX, { error: M.acknowledgeTooMany }) })
  .strict();

const levels = z.array(z.number({ error: F.levels }), { error: F.levels }).max(USAGE_LEVELS_MAX_COUNT + 5, { error: F.levels }).nullable().optional();
const threshold = z.number({ error: F.threshold }).nullable().optional();

export const alertRuleBodySchema = z
  .object({
    enabled: z.boolean({ error: F.enabled }),
    usageLevels: levels,
    threshold,
    notifyCustomer: z.boolean({ error: F.notifyCustomer }),
  })
  .strict();

export const subscriptionBodySchema = z.object({ subscribed: z.boolean({ error: F.subscribed }) }).strict();

export const overrideBodySchema = z
  .object({
    scope: z.enum(['customer', 'line'], { error: F.scope }),
    key: inputText({ error: F.key }).trim().min(1, { error: F.key }).max(100, { error: F.key }),
    enabled: z.boolean({ error: F.enabled }),
    usageLevels: levels,
    threshold,
    actions: ruleActionsSchema.nullable().optional(),
  })
  .strict()
  // A customer is named by its UUID: anything else is refused here, before any query.
  .refine((body) => body.scope !== 'customer' || z.uuid().safeParse(body.key).success, { error: F.customerKey, path: ['key'] });

const iso = z.string();
const severity = z.enum(ALERT_SEVERITIES);
const figures = z
  .object({
    usedGB: z.number(),
    capGB: z.number(),
    percent: z.number(),
    projectedUsedGB: z.number(),
    projectedOverageGB: z.number(),
    projectedCharge: z.number(),
    currency: z.string(),
    offlineMinutes: z.number(),
    lastReportAt: z.string().nullable(),
    syncKind: z.enum(['inventory', 'usage']),
    runId: z.string(),
    failure: z.string().nullable(),
    expiresAt: z.string(),
    daysLeft: z.number(),
    threshold: z.number(),
    cycleStart: z.string(),
    cycleEnd: z.string(),
    change: z.string(),
    changeId: z.string(),
  })
  .partial();

export const alertSchema = z.object({
  id: z.string(),
  kind: z.enum(ALERT_KINDS),
  level: z.number().int(),
  severity,
  status: z.enum(['open', 'acknowledged', 'resolved']),
  title: z.string(),
  message: z.string(),
  targetType: z.enum(['line', 'terminal', 'customer', 'sync']),
  targetKey: z.string(),
  period: z.string(),
  serviceLineNumber: z.string().nullable(),
  userTerminalId: z.string().nullable(),
  customer: z.object({ uuid: z.string(), name: z.string(), company: z.string() }).nullable(),
  figures,
  openedAt: iso,
  acknowledgedAt: iso.nullable(),
  acknowledgedBy: z.string().nullable(),
  resolvedAt: iso.nullable(),
  resolvedReason: z.string().nullable(),
  accountId: z.number().int().nullable().optional(),
  accountName: z.string().nullable().optional(),
  automaticActions: z.array(actionSummarySchema).optional(),
});

const counts = z.object({ open: z.number().int(), acknowledged: z.number().int(), resolved: z.number().int() });
export const alertListSchema = z.object({ alerts: z.array(alertSchema), pagination: paginationSchema, counts });
export const alertBellSchema = z.object({ unread: z.number().int(), open: z.number().int(), latest: z.array(alertSchema) });
export const seenSchema = z.object({ seenAt: iso });
export const acknowledgeResultSchema = z.object({ acknowledged: z.array(z.string()), unchanged: z.array(z.string()), notFound: z.array(z.string()) });
export const alertRuleSchema = z.object({
  kind: z.enum(ALERT_KINDS),
  enabled: z.boolean(),
  usageLevels: z.array(z.number()).nullable(),
  threshold: z.number().nullable(),
  notifyCustomer: z.boolean(),
  subscribed: z.boolean(),
  overrides: z.number().int(),
  actions: z.array(ruleActionWireSchema),
  updatedAt: iso,
});
export const alertOverrideSchema = z.object({
  kind: z.enum(ALERT_KINDS),
  scope: z.enum(['customer', 'line']),
  key: z.string(),
  label: z.string().nullable(),
  enabled: z.boolean(),
  usageLevels: z.array(z.number()).nullable(),
  threshold: z.number().nullable(),
  actions: z.array(ruleActionWireSchema).nullable(),
  updatedAt: iso,
});
export const myAlertsSchema = z.object({ alerts: z.array(alertSchema) });
export const evaluationReportSchema = z.object({
  linesRead: z.number().int(),
  opened: z.number().int(),
  actions: z.number().int(),
  resolved: z.number().int(),
  emails: z.number().int(),
  webhookEvents: z.number().int(),
  queries: z.number().int(),
  ms: z.number(),
});

// The answers' schemas and the domain's wire types say the same thing.
exact<Exact<z.infer<typeof alertListSchema>['counts'], AlertListWire['counts']>>();
exact<Exact<z.infer<typeof alertBellSchema>['unread'], AlertBellWire['unread']>>();
exact<Exact<z.infer<typeof acknowledgeResultSchema>, AcknowledgeResultWire>>();
exact<Exact<z.infer<typeof alertRuleSchema>, AlertRuleWire>>();
exact<Exact<z.infer<typeof alertOverrideSchema>, AlertOverrideWire>>();
exact<Exact<z.infer<typeof evaluationReportSchema>, AlertEvaluationReport>>();
exact<Exact<z.infer<typeof myAlertsSchema>['alerts'][number]['id'], MyAlertsWire['alerts'][number]['id']>>();
