// Request and response schemas of the sync routes: start a run, one run, the queue, and the
// refresh of one terminal. The run itself is the SyncJob the terminals routes show too
// (terminals-schemas.ts), so the two cannot describe it differently.
import { z } from 'zod';
import { SYNC_SCHEDULE_STATES, type CallLane, type SyncBudget } from '../../src/domain/provider-budget';
import { SYNC_JOB_KINDS, SYNC_JOB_STATUSES, TERMINAL_SYNC_STATUSES, type SyncQueue } from '../../src/domain/terminals';
import type { RefreshResult } from '../services/terminal-sync';
import { syncJobSchema, TERMINAL_QUERY_MESSAGES } from './terminals-schemas';
import { exact, type Exact, providerAccountParam } from './schemas';

export const SYNC_QUERY_MESSAGES = {
  jobId: 'Job id must be a UUID',
  accountId: TERMINAL_QUERY_MESSAGES.accountId,
} as const;

export const syncJobParamsSchema = z.object({ id: z.guid({ error: SYNC_QUERY_MESSAGES.jobId }) });

/** GET /terminals/sync/queue and /budget: one provider account's (an unknown one has no runs). */
export const syncAccountQuerySchema = z.object({
  account_id: providerAccountParam,
});

export const syncQueueSchema = z.object({
  active: syncJobSchema.nullable(),
  recent: z.array(syncJobSchema),
});

export const refreshResultSchema = z.object({
  userTerminalId: z.string(),
  syncStatus: z.enum(TERMINAL_SYNC_STATUSES),
  lastSyncedAt: z.string().nullable(),
});

const syncRunFiguresSchema = z.object({
  id: z.string(),
  status: z.enum(SYNC_JOB_STATUSES),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  providerCalls: z.number().int(),
});

const syncScheduleEntrySchema = z.object({
  kind: z.enum(SYNC_JOB_KINDS),
  state: z.enum(SYNC_SCHEDULE_STATES),
  configuredIntervalMs: z.number().int().nullable(),
  effectiveIntervalMs: z.number().int().nullable(),
  nextAt: z.string().nullable(),
  lastRun: syncRunFiguresSchema.nullable(),
});

/** GET /terminals/sync/budget: the provider call budget, the sized schedule and the last hour's calls. */
export const syncBudgetSchema = z.object({
  budget: z.object({
    requestsPerMinute: z.number().int(),
    syncShare: z.number(),
    syncRequestsPerMinute: z.number().int(),
    shared: z.boolean(),
    pausedUntil: z.string().nullable(),
  }),
  inventory: syncScheduleEntrySchema,
  usage: syncScheduleEntrySchema,
  perMinute: z.array(z.object({ minute: z.string(), sync: z.number().int(), person: z.number().int() })),
});

/** The lanes the chart splits calls into (the schema's keys must stay these). */
exact<Exact<keyof Omit<z.output<typeof syncBudgetSchema>['perMinute'][number], 'minute'>, CallLane>>();
exact<Exact<z.output<typeof syncBudgetSchema>, SyncBudget>>();
exact<Exact<z.output<typeof syncQueueSchema>, SyncQueue>>();
exact<Exact<z.output<typeof refreshResultSchema>, RefreshResult>>();
