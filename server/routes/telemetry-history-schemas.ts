// Request and response schemas of telemetry history and the fleet map, each response checked
// against its domain type so the OpenAPI document and src/domain/telemetry-history.ts cannot
// drift apart.
import { z } from 'zod';
import {
  TELEMETRY_HISTORY_MESSAGES,
  TELEMETRY_RANGES,
  type FleetMapWire,
  type TelemetryHistoryWire,
} from '../../src/domain/telemetry-history';
import { TERMINAL_CONDITIONS } from '../../src/domain/terminals';
import { exact, type Exact, providerAccountParam } from './schemas';

export const TELEMETRY_QUERY_MESSAGES = {
  range: TELEMETRY_HISTORY_MESSAGES.rangeUnknown,
  instant: (name: string) => `${name} must be an ISO 8601 date and time with its offset, such as 2026-11-30T06:00:00Z`,
  customerId: 'customer_id must be a customer id (a UUID)',
  status: `status must be one of ${TERMINAL_CONDITIONS.join(', ')}`,
} as const;

const M = TELEMETRY_QUERY_MESSAGES;
/** An ISO instant; 40 characters hold any (the longest has nanoseconds and an offset). */
const instant = (name: string) => z.string({ error: M.instant(name) }).max(40, { error: M.instant(name) }).pipe(z.iso.datetime({ offset: true, error: M.instant(name) })).optional();

export const telemetryHistoryQuerySchema = z.object({
  range: z.enum(TELEMETRY_RANGES, { error: M.range }).optional(),
  from: instant('from'),
  to: instant('to'),
});

const pointSchema = z.object({
  at: z.string(),
  downlinkMbps: z.number().nullable(),
  uplinkMbps: z.number().nullable(),
  latencyMs: z.number().nullable(),
  pingDropRate: z.number().nullable(),
  obstructionPercent: z.number().nullable(),
  signalQuality: z.number().nullable(),
  uptimeSeconds: z.number().nullable(),
  onlineShare: z.number(),
  samples: z.number().int(),
  alerts: z.array(z.string()),
});

export const telemetryHistorySchema = z.object({
  userTerminalId: z.string(),
  range: z.enum(TELEMETRY_RANGES).nullable(),
  from: z.string(),
  to: z.string(),
  resolution: z.enum(['raw', 'hour', 'day']),
  bucketSeconds: z.number().int().nullable(),
  points: z.array(pointSchema),
  outages: z.array(z.object({ startedAt: z.string(), endedAt: z.string().nullable(), durationSeconds: z.number().int() })),
  keptSince: z.string(),
  firstReadingAt: z.string().nullable(),
});
exact<Exact<z.output<typeof telemetryHistorySchema>, TelemetryHistoryWire>>();

export const fleetMapQuerySchema = z.object({
  customer_id: z.uuid({ error: M.customerId }).optional(),
  status: z.enum(TERMINAL_CONDITIONS, { error: M.status }).optional(),
  account_id: providerAccountParam,
});

export const fleetMapSchema = z.object({
  generatedAt: z.string(),
  located: z.object({
    userTerminalIds: z.array(z.string()),
    latitudesE4: z.array(z.number().int()),
    longitudesE4: z.array(z.number().int()),
    conditions: z.array(z.number().int()),
  }),
  unlocated: z.object({
    total: z.number().int(),
    terminals: z.array(
      z.object({ userTerminalId: z.string(), nickname: z.string().nullable(), serviceLineNumber: z.string().nullable(), condition: z.enum(TERMINAL_CONDITIONS) }),
    ),
  }),
});
exact<Exact<z.output<typeof fleetMapSchema>, FleetMapWire>>();
