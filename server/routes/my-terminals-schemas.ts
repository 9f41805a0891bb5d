// Request and response schemas of the customer area's terminal routes (/my/overview,
// /my/terminals…), each response checked against its type in src/domain/my-area.ts so the OpenAPI
// document cannot drift from it. No schema here takes a customer id: the token names the customer.
import { z } from 'zod';
import {
  MONTH_PATTERN,
  MY_ALERT_KINDS,
  MY_AREA_MESSAGES as M,
  MY_LINE_STATUSES,
  terminalNameProblem,
  TERMINAL_NAME_MAX_LENGTH,
  type MyOverviewWire,
  type MyTerminalDetailWire,
  type MyTerminalWire,
  type RebootResultWire,
} from '../../src/domain/my-area';
import { TERMINAL_ID_PATTERN } from '../../src/domain/terminals';
import { inputText, exact, type Exact } from './schemas';

export const myTerminalParamsSchema = z.object({
  terminalId: z.string({ error: M.terminalIdInvalid }).regex(TERMINAL_ID_PATTERN, { error: M.terminalIdInvalid }),
});

export const myTerminalQuerySchema = z.object({
  month: inputText({ error: M.monthInvalid }).regex(MONTH_PATTERN, { error: M.monthInvalid }).optional(),
});

export const renameTerminalBodySchema = z
  .object({
    name: z
      .string({ error: M.nameRequired })
      .max(TERMINAL_NAME_MAX_LENGTH * 4, { error: M.nameTooLong })
      .superRefine((value, ctx) => {
        const problem = terminalNameProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .transform((value) => value.trim()),
  })
  .strict();

// ---- Responses -----------------------------------------------------------------------------

const usageSchema = z.object({ usedGB: z.number(), planGB: z.number(), remainingGB: z.number(), overageGB: z.number(), percentage: z.number() });
const forecastSchema = z.object({ projectedUsedGB: z.number(), projectedOverageGB: z.number(), projectedCharges: z.number() });
const cycleSchema = z.object({ startDate: z.string(), endDate: z.string() });

export const myTerminalSchema = z.object({
  terminalId: z.string(),
  nickname: z.string().nullable(),
  serviceLineNumber: z.string().nullable(),
  kitSerialNumber: z.string(),
  dishSerialNumber: z.string().nullable(),
  status: z.enum(MY_LINE_STATUSES),
  lineEndDate: z.string().nullable(),
  online: z.boolean(),
  signalQuality: z.number().nullable(),
  uptimeSeconds: z.number().nullable(),
  telemetryAt: z.string().nullable(),
  alerts: z.array(z.string()),
  planName: z.string().nullable(),
  usage: usageSchema,
  billingCycle: cycleSchema.nullable(),
});

export const myTerminalsSchema = z.array(myTerminalSchema);

const alertSchema = z.object({
  id: z.string(),
  kind: z.enum(MY_ALERT_KINDS),
  severity: z.enum(['warning', 'critical']),
  title: z.string(),
  terminalId: z.string().nullable(),
  serviceLineNumber: z.string().nullable(),
  message: z.string(),
  since: z.string().nullable(),
});

export const myOverviewSchema = z.object({
  terminals: z.number().int(),
  onlineNow: z.number().int(),
  usage: usageSchema,
  forecast: forecastSchema.nullable(),
  currency: z.string(),
  alerts: z.object({ count: z.number().int(), items: z.array(alertSchema) }),
});

export const myTerminalDetailSchema = z.object({
  terminal: myTerminalSchema,
  month: z.string(),
  months: z.array(z.string()),
  daily: z.array(z.object({ date: z.string(), priorityGB: z.number(), standardGB: z.number() })),
  totals: z.object({ priorityGB: z.number(), standardGB: z.number() }),
  forecast: forecastSchema.nullable(),
  currency: z.string(),
});

export const renameResultSchema = z.object({ terminalId: z.string(), nickname: z.string() });
export const rebootResultSchema = z.object({ terminalId: z.string(), requestedAt: z.string() });

exact<Exact<z.output<typeof myTerminalSchema>, MyTerminalWire>>();
exact<Exact<z.output<typeof myOverviewSchema>, MyOverviewWire>>();
exact<Exact<z.output<typeof myTerminalDetailSchema>, MyTerminalDetailWire>>();
exact<Exact<z.output<typeof rebootResultSchema>, RebootResultWire>>();
