// Request and response schemas of the sync routes: start a run, one run, the queue, and the
// refresh of one terminal. The run itself is the SyncJob the terminals routes show too
// (terminals-schemas.ts), so the two cannot describe it differently.
import { z } from 'zod';
import { TERMINAL_SYNC_STATUSES, type SyncQueue } from '../../src/domain/terminals';
import type { RefreshResult } from '../services/terminal-sync';
import { syncJobSchema } from './terminals-schemas';

/** Compile-time proof that a schema's output is exactly the domain type. */
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const exact = <_T extends true>() => undefined;

export const SYNC_QUERY_MESSAGES = {
  jobId: 'Job id must be a UUID',
} as const;

export const syncJobParamsSchema = z.object({ id: z.guid({ error: SYNC_QUERY_MESSAGES.jobId }) });

export const syncQueueSchema = z.object({
  active: syncJobSchema.nullable(),
  recent: z.array(syncJobSchema),
});

export const refreshResultSchema = z.object({
  userTerminalId: z.string(),
  syncStatus: z.enum(TERMINAL_SYNC_STATUSES),
  lastSyncedAt: z.string().nullable(),
});

exact<Exact<z.output<typeof syncQueueSchema>, SyncQueue>>();
exact<Exact<z.output<typeof refreshResultSchema>, RefreshResult>>();
