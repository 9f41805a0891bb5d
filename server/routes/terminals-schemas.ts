// Request and response schemas of the terminal inventory routes (list, available, health, sync
// stats, details, assign, report issue, service-line usage), each response checked against its
// domain type so the OpenAPI document and src/domain/terminals.ts cannot drift apart.
import { z } from 'zod';
import {
  DEFAULT_TERMINAL_SORT,
  SERVICE_LINE_PATTERN,
  SYNC_JOB_KINDS,
  SYNC_JOB_STATUSES,
  TERMINAL_CONDITIONS,
  TERMINAL_ID_PATTERN,
  TERMINAL_SEARCH_MAX_LENGTH,
  TERMINAL_SORTS,
  TERMINAL_SYNC_STATUSES,
  TERMINALS_MAX_PAGE_SIZE,
  TERMINALS_PAGE_SIZE,
  type FleetHealth,
  type ServiceLineUsageWire,
  type SyncJob,
  type SyncStats,
  type TerminalDetailWire,
  type TerminalPageWire,
  type TerminalRowWire,
} from '../../src/domain/terminals';
import { MAX_PAGE, wholeNumber } from './customers-schemas';
import { exact, type Exact, PROVIDER_ACCOUNT_ID_MESSAGE, providerAccountParam } from './schemas';

export const ISSUE_NOTE_MAX_LENGTH = 2000;
export const CUSTOMER_NAME_MAX_LENGTH = 200;
export const USAGE_YEARS = { min: 2000, max: 2100 } as const;

export const TERMINAL_QUERY_MESSAGES = {
  page: `page must be a whole number from 1 to ${MAX_PAGE}`,
  limit: `limit must be a whole number from 1 to ${TERMINALS_MAX_PAGE_SIZE}`,
  search: `search must be at most ${TERMINAL_SEARCH_MAX_LENGTH} characters`,
  active: 'active must be true or false',
  assigned: 'assigned must be true or false',
  sync: 'sync must be true or false',
  syncStatus: `sync_status must be one of ${TERMINAL_SYNC_STATUSES.join(', ')}`,
  accountId: PROVIDER_ACCOUNT_ID_MESSAGE,
  sort: `sort must be one of ${TERMINAL_SORTS.join(', ')}`,
  terminalId: 'Terminal id must be 2 to 64 letters, digits or dashes',
  serviceLine: 'Service line number must be 2 to 64 letters, digits or dashes',
  customerId: 'customerId must be a customer UUID',
  customerName: `customerName must be at most ${CUSTOMER_NAME_MAX_LENGTH} characters`,
  note: `note must be 1 to ${ISSUE_NOTE_MAX_LENGTH} characters`,
  year: `year must be a whole number from ${USAGE_YEARS.min} to ${USAGE_YEARS.max}`,
  month: 'month must be a whole number from 1 to 12',
  yearMonthTogether: 'year and month must be given together',
} as const;

const M = TERMINAL_QUERY_MESSAGES;

/** A whole number from a query string ("2"), with one message for every way it can be wrong. */
const flag = (message: string) =>
  z
    .enum(['true', 'false'], { error: message })
    .transform((v) => v === 'true')
    .optional();

/**
 * The search term: trimmed, at most TERMINAL_SEARCH_MAX_LENGTH, control characters removed
 * (search_text separates its fields with U+001F, so a term holding one could match across two).
 */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;
const searchSchema = z
  .string({ error: M.search })
  .trim()
  .max(TERMINAL_SEARCH_MAX_LENGTH, { error: M.search })
  .transform((s) => s.replace(CONTROL_CHARACTERS, '').trim())
  .optional();

const listQueryShape = {
  search: searchSchema,
  active: flag(M.active),
  sync_status: z.enum(TERMINAL_SYNC_STATUSES, { error: M.syncStatus }).optional(),
  account_id: providerAccountParam,
  page: wholeNumber(1, MAX_PAGE, M.page).default(1),
  limit: wholeNumber(1, TERMINALS_MAX_PAGE_SIZE, M.limit).default(TERMINALS_PAGE_SIZE),
  sort: z.enum(TERMINAL_SORTS, { error: M.sort }).default(DEFAULT_TERMINAL_SORT),
  /**
   * The page sends sync=true|false (spec 7). Accepted and ignored: the list always answers from
   * the local database, and a provider read belongs to the sync job (POST /terminals/sync), which
   * runs in the background, is rate limited and reports progress. Doing it inside a list request
   * would make the page wait minutes on a large fleet.
   */
  sync: flag(M.sync),
};

export const terminalListQuerySchema = z.object({ ...listQueryShape, assigned: flag(M.assigned) });
/** `/terminals/available` is always unassigned, so it takes the list's query without `assigned`. */
export const availableQuerySchema = z.object(listQueryShape);

export const terminalParamsSchema = z.object({ id: z.string().regex(TERMINAL_ID_PATTERN, { error: M.terminalId }) });
export const serviceLineParamsSchema = z.object({ sl: z.string().regex(SERVICE_LINE_PATTERN, { error: M.serviceLine }) });

export const usageQuerySchema = z
  .object({
    year: wholeNumber(USAGE_YEARS.min, USAGE_YEARS.max, M.year).optional(),
    month: wholeNumber(1, 12, M.month).optional(),
  })
  .refine((q) => (q.year === undefined) === (q.month === undefined), { error: M.yearMonthTogether, path: ['year'] });

export const assignBodySchema = z
  .object({
    customerId: z.guid({ error: M.customerId }),
    customerName: z.string({ error: M.customerName }).max(CUSTOMER_NAME_MAX_LENGTH, { error: M.customerName }).optional(),
  })
  .strict();

export const reportIssueBodySchema = z
  .object({ note: z.string({ error: M.note }).trim().min(1, { error: M.note }).max(ISSUE_NOTE_MAX_LENGTH, { error: M.note }) })
  .strict();

const isoDate = z.string();

export const terminalRowSchema = z.object({
  user_terminal_id: z.string(),
  kit_serial_number: z.string(),
  dish_serial_number: z.string().nullable(),
  service_line_number: z.string().nullable(),
  nickname: z.string().nullable(),
  active: z.boolean(),
  assigned_to: z.string().nullable(),
  assigned_to_customer: z.string().nullable(),
  sync_status: z.enum(TERMINAL_SYNC_STATUSES),
  last_synced_at: isoDate.nullable(),
  data_cap_updated_at: isoDate.nullable(),
  updated_at: isoDate,
  condition: z.enum(TERMINAL_CONDITIONS),
  terminal_type: z.string().nullable(),
  plan: z.string().nullable(),
  location: z.string().nullable(),
  region: z.string().nullable(),
  account_id: z.number(),
  account_name: z.string(),
});

export const terminalPageSchema = z.object({
  results: z.array(terminalRowSchema),
  totalCount: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});

const ownerSchema = z.object({ uuid: z.string(), name: z.string(), company: z.string().nullable() });
const dataCapSchema = z.object({ amount: z.number(), unit: z.string() });

export const terminalDetailSchema = terminalRowSchema.extend({
  owner: ownerSchema.nullable(),
  dataCap: dataCapSchema.nullable(),
  model: z.string().nullable(),
  accountNumber: z.string(),
  serviceLine: z
    .object({
      active: z.boolean(),
      productReferenceId: z.string().nullable(),
      startDate: isoDate.nullable(),
      endDate: isoDate.nullable(),
      addressReferenceId: z.string().nullable(),
    })
    .nullable(),
  address: z
    .object({
      formattedAddress: z.string().nullable(),
      region: z.string().nullable(),
      latitude: z.number().nullable(),
      longitude: z.number().nullable(),
    })
    .nullable(),
  telemetry: z
    .object({
      reportedAt: isoDate.nullable(),
      signalQuality: z.number().nullable(),
      uptimeSeconds: z.number().nullable(),
      downlinkMbps: z.number().nullable(),
      uplinkMbps: z.number().nullable(),
      latencyMs: z.number().nullable(),
      obstructionPercent: z.number().nullable(),
      softwareVersion: z.string().nullable(),
      alerts: z.array(z.string()),
    })
    .nullable(),
  syncError: z.string().nullable(),
  removedAt: isoDate.nullable(),
});

export const syncStatsSchema = z.object({ synced: z.number().int(), pending: z.number().int(), error: z.number().int() });

export const syncJobSchema = z.object({
  id: z.string(),
  kind: z.enum(SYNC_JOB_KINDS),
  trigger: z.enum(['manual', 'schedule', 'startup']),
  status: z.enum(SYNC_JOB_STATUSES),
  phase: z.string().nullable(),
  progress: z.number().int().nullable(),
  counts: z.object({
    added: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
    removed: z.number().int(),
    failed: z.number().int(),
  }),
  providerCalls: z.number().int(),
  message: z.string().nullable(),
  requestedBy: z.string().nullable(),
  queuedAt: isoDate,
  startedAt: isoDate.nullable(),
  finishedAt: isoDate.nullable(),
  heartbeatAt: isoDate.nullable(),
  accountId: z.number().int().nullable(),
  accountName: z.string().nullable(),
});

export const fleetHealthSchema = z.object({
  total: z.number().int(),
  priority: z.number().int(),
  standard: z.number().int(),
  active: z.number().int(),
  warning: z.number().int(),
  maintenance: z.number().int(),
  inactive: z.number().int(),
  assigned: z.number().int(),
  unassigned: z.number().int(),
  averageSignalQuality: z.number().int().nullable(),
  networkUptime: z.number().int().nullable(),
  monthlyUsageGB: z.number().nullable(),
  priorityShare: z.number().int().nullable(),
  sync: syncStatsSchema,
  lastSync: syncJobSchema.nullable(),
});

const usageAmountSchema = z.object({ used: z.number(), total: z.number(), unit: z.string(), percentage: z.number() });

export const serviceLineUsageSchema = z.object({
  terminalId: z.string().nullable(),
  serviceLineNumber: z.string(),
  status: z.enum(['Active', 'Inactive']),
  owner: ownerSchema.nullable(),
  lastSyncedAt: isoDate.nullable(),
  dataCap: dataCapSchema.nullable(),
  currentBillingCycle: z
    .object({
      startDate: isoDate,
      endDate: isoDate,
      priorityData: usageAmountSchema,
      deprioritizedData: z.object({ used: z.number(), unit: z.string() }),
      totalUsed: z.number(),
      totalUnit: z.string(),
    })
    .nullable(),
  plan: z.string().nullable(),
  location: z.string().nullable(),
  terminalType: z.string().nullable(),
  dateRange: z.object({ start: isoDate, end: isoDate }),
  rawUsageRecords: z.array(
    z.object({
      date: isoDate,
      priorityGB: z.number(),
      standardGB: z.number(),
      optInPriorityGB: z.number(),
      nonBillableGB: z.number(),
    }),
  ),
});

export const issueReportedSchema = z.object({ reported: z.literal(true) });

exact<Exact<z.output<typeof terminalRowSchema>, TerminalRowWire>>();
exact<Exact<z.output<typeof terminalPageSchema>, TerminalPageWire>>();
exact<Exact<z.output<typeof terminalDetailSchema>, TerminalDetailWire>>();
exact<Exact<z.output<typeof syncStatsSchema>, SyncStats>>();
exact<Exact<z.output<typeof syncJobSchema>, SyncJob>>();
exact<Exact<z.output<typeof fleetHealthSchema>, FleetHealth>>();
exact<Exact<z.output<typeof serviceLineUsageSchema>, ServiceLineUsageWire>>();
