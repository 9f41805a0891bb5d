// A sync run row as the API answers it (src/domain/terminals.ts SyncJob). One mapper for every
// route that shows a run: the sync endpoints and the fleet health summary.
import type { SyncJob } from '../../src/domain/terminals';
import type { SyncRunRow } from '../db/schema';
import { isoOrNull } from '../clock';

/** `accountName`: the run's account's name, where the caller read it (null: not named). */
export function toSyncJob(row: SyncRunRow, accountName: string | null = null): SyncJob {
  return {
    id: row.id,
    kind: row.kind,
    trigger: row.trigger,
    status: row.status,
    phase: row.phase,
    progress: row.progress,
    counts: { added: row.added, updated: row.updated, unchanged: row.unchanged, removed: row.removed, failed: row.failed },
    providerCalls: row.providerCalls,
    message: row.message,
    requestedBy: row.requestedBy,
    queuedAt: row.queuedAt.toISOString(),
    startedAt: isoOrNull(row.startedAt),
    finishedAt: isoOrNull(row.finishedAt),
    heartbeatAt: isoOrNull(row.heartbeatAt),
    accountId: row.accountId,
    accountName,
  };
}
