// The job queues and what each job carries: one typed contract per queue, so a producer and its
// worker cannot disagree about a payload. The payloads stay small on purpose: a job names a run,
// and everything the portal shows about it (progress, counts, errors) lives in sync_runs.
import type { SyncJobKind } from '../../src/domain/terminals';

export interface JobContracts {
  /** Reads the provider's inventory into the local tables (one sync_runs row, kind 'inventory'). */
  'terminal-sync': { runId: string };
  /** Reads billing-cycle and daily usage for the stored service lines (kind 'usage'). */
  'usage-sync': { runId: string };
  /** The per-minute tick (pg-boss cron): the sweeper, then the schedule. */
  'sync-tick': Record<string, never>;
  /** Evaluates the alert rules over what changed: after each sync, each tick, each rule change. */
  'alerts-evaluate': { reason: 'sync' | 'tick' | 'rules' };
  /** Sends the webhook deliveries that are due (new events, retries whose back-off has passed). */
  'webhook-deliver': Record<string, never>;
  /**
   * Billing: closes the cycle that is due, then works the current cycle's drafts out
   * again; after each sync, each tick, each price change.
   */
  'billing-run': { reason: 'sync' | 'tick' | 'prices' };
  /** Works a bulk action's pending rows; sent when it starts, and again to resume it. */
  'bulk-run': { operationId: string };
  /** Makes the automatic actions and scheduled changes that are due: after an evaluation queued some, and each tick. */
  'automation-run': { reason: 'evaluation' | 'tick' | 'more' };
}

export type QueueName = keyof JobContracts;

export interface Job<N extends QueueName = QueueName> {
  name: N;
  payload: JobContracts[N];
}

/** A job as a worker receives it: the contract plus pg-boss's id. */
export interface ReceivedJob<N extends QueueName = QueueName> extends Job<N> {
  id: string;
}

export const QUEUES = ['terminal-sync', 'usage-sync', 'sync-tick', 'alerts-evaluate', 'webhook-deliver', 'billing-run', 'bulk-run', 'automation-run'] as const satisfies readonly QueueName[];

/** The queue that runs each kind of sync run. */
export const QUEUE_OF_KIND = { inventory: 'terminal-sync', usage: 'usage-sync' } as const satisfies Record<SyncJobKind, QueueName>;

/** Every minute, UTC: pg-boss makes sure one process gets each tick. */
export const TICK_CRON = '* * * * *';
