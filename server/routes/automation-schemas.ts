// Request and response schemas of the automatic actions and the scheduled changes, and of a rule's
// actions (the alert routes take them too), checked against src/domain/automation.ts.
import { z } from 'zod';
import {
  ACTION_MODES,
  ACTION_SOURCES,
  ACTION_STATUS_FILTERS,
  ACTIONS_MAX_PAGE_SIZE,
  ACTIONS_PAGE_SIZE,
  AUTOMATIC_ACTION_STATUSES,
  RULE_ACTIONS,
  RULE_ACTIONS_MAX,
  SCHEDULE_MAX_PAGE_SIZE,
  SCHEDULE_OPERATIONS,
  SCHEDULE_PAGE_SIZE,
  SCHEDULE_REASON_MAX_LENGTH,
  SCHEDULE_STATUS_FILTERS,
  SCHEDULE_STATUSES,
  type AutomaticActionListWire,
  type AutomaticActionWire,
  type RuleActionWire,
  type ScheduledChangeListWire,
  type ScheduledChangeWire,
} from '../../src/domain/automation';
import { MAX_PAGE, QUERY_MESSAGES, wholeNumber } from './customers-schemas';
import { exact, inputText, paginationSchema, type Exact } from './schemas';

export const AUTOMATION_FIELD_MESSAGES = {
  actions: `actions must be a list of up to ${RULE_ACTIONS_MAX} actions`,
  action: `action must be one of ${RULE_ACTIONS.join(', ')}`,
  mode: `mode must be one of ${ACTION_MODES.join(', ')}`,
  level: 'level must be a whole percent, or 0 for projected overage',
  plan: 'productReferenceId must name a plan, or be null',
  status: `status must be one of ${ACTION_STATUS_FILTERS.join(', ')}`,
  scheduleStatus: `status must be one of ${SCHEDULE_STATUS_FILTERS.join(', ')}`,
  search: 'search must be at most 100 characters',
  limit: `limit must be a whole number from 1 to ${ACTIONS_MAX_PAGE_SIZE}`,
  id: 'id must be a UUID',
  operation: `operation must be one of ${SCHEDULE_OPERATIONS.join(', ')}`,
  target: 'target must be a service line number or a customer UUID',
  at: 'at must be a date and time (ISO 8601) or null',
  atNextCycle: 'atNextCycle must be true or false',
  parameters: 'parameters must be an object',
  text: (name: string, max: number) => `${name} must be text of at most ${max} characters`,
  number: (name: string) => `${name} must be a whole number`,
} as const;
const F = AUTOMATION_FIELD_MESSAGES;

export const ruleActionSchema = z
  .object({
    level: z.number({ error: F.level }).int({ error: F.level }).min(0, { error: F.level }).max(500, { error: F.level }),
    action: z.enum(RULE_ACTIONS, { error: F.action }),
    mode: z.enum(ACTION_MODES, { error: F.mode }),
    productReferenceId: inputText({ error: F.plan }).trim().min(1, { error: F.plan }).max(200, { error: F.plan }).nullable().optional(),
  })
  .strict();
export const ruleActionsSchema = z.array(ruleActionSchema, { error: F.actions }).max(RULE_ACTIONS_MAX, { error: F.actions });
export const ruleActionsBodySchema = z.object({ actions: ruleActionsSchema }).strict();

/** A rule action as a body gives it, with its plan spelled out (null where it names none). */
export const ruleActionOf = (a: z.infer<typeof ruleActionSchema>): RuleActionWire => ({ level: a.level, action: a.action, mode: a.mode, productReferenceId: a.productReferenceId ?? null });

export const idParamsSchema = z.object({ id: z.uuid({ error: F.id }) });

export const actionListQuerySchema = z.object({
  status: z.enum(ACTION_STATUS_FILTERS, { error: F.status }).default('waiting'),
  search: z.string().max(100, { error: F.search }).optional(),
  page: wholeNumber(1, MAX_PAGE, QUERY_MESSAGES.page).default(1),
  limit: wholeNumber(1, ACTIONS_MAX_PAGE_SIZE, F.limit).default(ACTIONS_PAGE_SIZE),
});

export const scheduleListQuerySchema = z.object({
  status: z.enum(SCHEDULE_STATUS_FILTERS, { error: F.scheduleStatus }).default('upcoming'),
  target: z.string().max(100, { error: F.target }).optional(),
  page: wholeNumber(1, MAX_PAGE, QUERY_MESSAGES.page).default(1),
  limit: wholeNumber(1, SCHEDULE_MAX_PAGE_SIZE, F.limit).default(SCHEDULE_PAGE_SIZE),
});

const whole = (name: string) => z.number({ error: F.number(name) }).int({ error: F.number(name) });
export const scheduleBodySchema = z
  .object({
    operation: z.enum(SCHEDULE_OPERATIONS, { error: F.operation }),
    target: inputText({ error: F.target }).trim().min(1, { error: F.target }).max(100, { error: F.target }),
    parameters: z
      .object({
        productReferenceId: inputText({ error: F.plan }).max(200, { error: F.plan }).optional(),
        productId: inputText({ error: F.text('productId', 200) }).max(200, { error: F.text('productId', 200) }).optional(),
        count: whole('count').optional(),
        reason: inputText({ error: F.text('reason', SCHEDULE_REASON_MAX_LENGTH) }).optional(),
        days: whole('days').optional(),
      }, { error: F.parameters })
      .strict()
      .default({}),
    at: z.string({ error: F.at }).max(40, { error: F.at }).nullable().optional(),
    atNextCycle: z.boolean({ error: F.atNextCycle }).optional(),
  })
  .strict();

const iso = z.string();
export const ruleActionWireSchema = z.object({ level: z.number().int(), action: z.enum(RULE_ACTIONS), mode: z.enum(ACTION_MODES), productReferenceId: z.string().nullable() });
export const actionSummarySchema = z.object({ id: z.string(), action: z.enum(RULE_ACTIONS), status: z.enum(AUTOMATIC_ACTION_STATUSES), text: z.string(), undoable: z.boolean() });

export const automaticActionSchema = z.object({
  id: z.string(),
  ruleKind: z.enum(ACTION_SOURCES),
  level: z.number().int(),
  action: z.enum(RULE_ACTIONS),
  mode: z.enum(ACTION_MODES),
  status: z.enum(AUTOMATIC_ACTION_STATUSES),
  serviceLineNumber: z.string(),
  customer: z.object({ uuid: z.string(), name: z.string() }).nullable(),
  alertId: z.string().nullable(),
  cycleStart: z.string(),
  productReferenceId: z.string().nullable(),
  planName: z.string().nullable(),
  projectedSaving: z.number().nullable(),
  currency: z.string().nullable(),
  ruleLabel: z.string(),
  setUpBy: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: iso.nullable(),
  executedAt: iso.nullable(),
  outcome: z.string().nullable(),
  undoable: z.boolean(),
  undoneAt: iso.nullable(),
  undoneBy: z.string().nullable(),
  createdAt: iso,
});
export const automaticActionListSchema = z.object({ actions: z.array(automaticActionSchema), pagination: paginationSchema, waiting: z.number().int() });

export const scheduledChangeSchema = z.object({
  id: z.string(),
  operation: z.enum(SCHEDULE_OPERATIONS),
  targetType: z.enum(['line', 'customer']),
  target: z.string(),
  targetLabel: z.string().nullable(),
  parameters: z.object({ productReferenceId: z.string(), productId: z.string(), count: z.number(), reason: z.string(), days: z.number() }).partial(),
  summary: z.string(),
  runAt: iso,
  atNextCycle: z.boolean(),
  status: z.enum(SCHEDULE_STATUSES),
  attempts: z.number().int(),
  outcome: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: iso,
  executedAt: iso.nullable(),
  cancelledBy: z.string().nullable(),
  cancelledAt: iso.nullable(),
});
export const scheduledChangeListSchema = z.object({ changes: z.array(scheduledChangeSchema), pagination: paginationSchema, upcoming: z.number().int() });

// The answers' schemas and the domain's wire types say the same thing.
exact<Exact<z.infer<typeof ruleActionWireSchema>, RuleActionWire>>();
exact<Exact<z.infer<typeof automaticActionSchema>, AutomaticActionWire>>();
exact<Exact<z.infer<typeof automaticActionListSchema>['waiting'], AutomaticActionListWire['waiting']>>();
exact<Exact<z.infer<typeof scheduledChangeSchema>, ScheduledChangeWire>>();
exact<Exact<z.infer<typeof scheduledChangeListSchema>['upcoming'], ScheduledChangeListWire['upcoming']>>();
