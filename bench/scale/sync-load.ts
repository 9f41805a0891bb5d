// Timing pages "while a sync is writing": an inventory run started through the API (as the
// terminals page's button does), which queues its usage run when it succeeds (or, asked for, that
// usage run itself). A run counts as
// writing once it is past reading the provider: an inventory run in its applying phases (batched
// transactions after everything has been read), or a usage run (it writes each batch of 250 lines
// as soon as it is read). Before each page the driver makes sure such a run is going, starting a
// new inventory run when the last one has ended; after the page it looks again, and the page's
// entry says which run was going and whether it was still running at the end. The run's state is
// read between pages only, never during a page's timed requests.
import type { SyncJob } from '../../src/domain/terminals';
import { activeRuns, ApiError, startInventorySync, type Portal } from './api';

export interface SyncWindow {
  /** The run writing when the page's timing started. */
  run: { id: string; kind: SyncJob['kind']; phase: string | null };
  /** Still running (the same run) when the page's timing ended. */
  stayedRunning: boolean;
  /** What it was doing then, or how it ended. */
  after: { status: SyncJob['status'] | 'gone'; phase: string | null };
  /** Other runs that started meanwhile (the usage run an inventory run queued as it finished). */
  followedBy: { id: string; kind: SyncJob['kind'] }[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The inventory engine's applying phases ("Marking the terminals this run changes pending", then
 * "Writing terminals (k of n written)", which stays the phase while the lines, addresses and products
 * that follow are written); before them it is "Starting" or "Reading …" and writes nothing.
 */
const INVENTORY_WRITING = /^(Marking|Writing)\b/;

export function isWriting(job: SyncJob): boolean {
  if (job.status !== 'running') return false;
  // A usage run writes each batch as soon as it has read it: writing from its first batch on.
  if (job.kind === 'usage') return job.phase !== null && job.phase.startsWith('Reading data usage');
  return job.phase !== null && INVENTORY_WRITING.test(job.phase);
}

export interface SyncDriver {
  /** Runs started by the driver. */
  readonly started: string[];
  /**
   * Waits until a run is writing (starting an inventory run when none is going); answers it. With
   * `kind`, a run of that kind: 'usage' waits through the inventory run for the usage run its
   * success queues, which rewrites every line's cycle and so marks a sync's worth of page rows.
   */
  ensureWriting(kind?: SyncJob['kind']): Promise<SyncJob>;
  /** How the run `before` stands now. */
  windowOf(before: SyncJob): Promise<SyncWindow>;
}

export function createSyncDriver(portal: Portal, options: { timeoutMs: number; log: (message: string) => void }): SyncDriver {
  const started: string[] = [];
  return {
    started,
    async ensureWriting(kind) {
      const deadline = Date.now() + options.timeoutMs;
      let told = 0;
      for (;;) {
        const runs = await activeRuns(portal);
        const writing = runs.find((run) => isWriting(run) && (kind === undefined || run.kind === kind));
        if (writing) return writing;
        if (runs.length === 0) {
          try {
            const job = await startInventorySync(portal);
            started.push(job.id);
            options.log(`started inventory sync ${job.id}`);
          } catch (error) {
            // 409: one was queued between the look and the start; the next look finds it.
            if (!(error instanceof ApiError && error.status === 409)) throw error;
          }
        } else if (Date.now() - told > 15_000) {
          options.log(`waiting for the sync to write: ${runs.map((r) => `${r.kind} ${r.status} ${r.phase ?? ''}`).join(', ')}`);
          told = Date.now();
        }
        if (Date.now() > deadline) throw new Error(`no sync was writing within ${options.timeoutMs / 60_000} min`);
        await sleep(500);
      }
    },
    async windowOf(before) {
      const runs = await activeRuns(portal);
      const same = runs.find((r) => r.id === before.id);
      let after: SyncWindow['after'];
      if (same) after = { status: same.status, phase: same.phase };
      else {
        const job = await portal.data<SyncJob>('GET', `/terminals/sync/job/${encodeURIComponent(before.id)}`).catch(() => null);
        after = job ? { status: job.status, phase: job.message ?? job.phase } : { status: 'gone', phase: null };
      }
      return {
        run: { id: before.id, kind: before.kind, phase: before.phase },
        stayedRunning: same?.status === 'running',
        after,
        followedBy: runs.filter((r) => r.id !== before.id).map((r) => ({ id: r.id, kind: r.kind })),
      };
    },
  };
}
