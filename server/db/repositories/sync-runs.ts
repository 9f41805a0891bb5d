// Sync runs: what the portal shows about a terminal or usage sync, and the lock that keeps one of
// each kind at a time per provider account. The partial unique index sync_runs_one_active_uq is the
// lock: a second queued-or-running run of a kind for the same account cannot be inserted, on any
// server process. Accounts sync side by side, each on its own budget.
//
// One lane per account: an inventory and a usage run of one account never run at once (they would
// share its budget's sync share and race for the same lines). A claim takes SYNC_LANE_LOCK and
// refuses while a run of the other kind is running for the account; the refused run stays queued,
// saying what it waits for, and the worker that finishes the running one hands it to the queue again.
//
// Writes made by a worker name the worker (`worker_id`): a run that was taken over after its
// worker went quiet no longer answers to the old worker, which then stops.
import { and, desc, eq, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { SyncCounts, SyncJobKind, SyncTrigger } from '../../../src/domain/terminals';
import type { Db } from '../client';
import { syncRuns, type SyncRunRow } from '../schema';
import { isUniqueViolation } from './unique-violation';

const ONE_ACTIVE_INDEX = 'sync_runs_one_active_uq';
const ACTIVE = ['queued', 'running'] as const;
const ENDED = ['succeeded', 'failed'] as const;
/** The advisory lock a claim holds while it checks that no other run is running (migrations use 720150001). */
export const SYNC_LANE_LOCK = 720150011;

export type SyncRunInsert = { ok: true; row: SyncRunRow } | { ok: false; reason: 'already_running' };

/** What a worker reports about its run as it goes (all optional: only what changed). */
export interface SyncRunReport {
  phase?: string | null;
  progress?: number | null;
  counts?: SyncCounts;
  providerCalls?: number;
}

const isOneActiveConflict = (error: unknown) => isUniqueViolation(error, ONE_ACTIVE_INDEX);

/** The report as column values (absent keys stay absent). */
function reportColumns(report: SyncRunReport): Partial<typeof syncRuns.$inferInsert> {
  const set: Partial<typeof syncRuns.$inferInsert> = {};
  if (report.phase !== undefined) set.phase = report.phase;
  if (report.progress !== undefined) set.progress = report.progress === null ? null : Math.max(0, Math.min(100, Math.round(report.progress)));
  if (report.providerCalls !== undefined) set.providerCalls = report.providerCalls;
  if (report.counts) Object.assign(set, report.counts);
  return set;
}

export type SyncRunsRepository = ReturnType<typeof createSyncRunsRepository>;

export function createSyncRunsRepository(db: Db) {
  const r = syncRuns;
  const ownedBy = (id: string, workerId: string) => and(eq(r.id, id), eq(r.workerId, workerId), eq(r.status, 'running'));
  /** queued → running, under the lane lock the caller holds. */
  const claimNow = async (id: string, workerId: string, at: Date, tx: Db): Promise<SyncRunRow | null> => {
    const [row] = await tx
      .update(r)
      .set({
        status: 'running',
        attempts: sql`${r.attempts} + 1`,
        workerId,
        startedAt: at,
        heartbeatAt: at,
        finishedAt: null,
        phase: 'Starting',
        progress: 0,
        added: 0,
        updated: 0,
        unchanged: 0,
        removed: 0,
        failed: 0,
      })
      .where(and(eq(r.id, id), eq(r.status, 'queued')))
      .returning();
    return row ?? null;
  };
  return {
    /** A new queued run; another queued or running run of the kind is reported, not thrown. */
    async insertQueued(
      input: { kind: SyncJobKind; accountId: number; trigger: SyncTrigger; requestedBy: string | null; at: Date },
      tx: Db = db,
    ): Promise<SyncRunInsert> {
      try {
        const [row] = await tx
          .insert(r)
          .values({ kind: input.kind, accountId: input.accountId, trigger: input.trigger, status: 'queued', requestedBy: input.requestedBy, queuedAt: input.at, phase: 'Waiting for a worker', progress: 0 })
          .returning();
        if (!row) throw new Error('insert into sync_runs returned no row');
        return { ok: true, row };
      } catch (error) {
        if (isOneActiveConflict(error)) return { ok: false, reason: 'already_running' };
        throw error;
      }
    },

    async findById(id: string, tx: Db = db): Promise<SyncRunRow | null> {
      const [row] = await tx.select().from(r).where(eq(r.id, id));
      return row ?? null;
    },

    /** The account's queued or running run of a kind, if any (there is at most one). */
    async active(kind: SyncJobKind, accountId: number, tx: Db = db): Promise<SyncRunRow | null> {
      const [row] = await tx
        .select()
        .from(r)
        .where(and(eq(r.kind, kind), eq(r.accountId, accountId), inArray(r.status, ACTIVE)))
        .limit(1);
      return row ?? null;
    },

    /** Newest first, every kind; one account's when given. */
    async recent(limit: number, accountId: number | null = null, tx: Db = db): Promise<SyncRunRow[]> {
      return tx
        .select()
        .from(r)
        .where(accountId === null ? undefined : eq(r.accountId, accountId))
        .orderBy(desc(r.queuedAt), desc(r.id))
        .limit(limit);
    },

    /** The account's newest run of a kind (any account's when null), whatever its status. */
    async latest(kind: SyncJobKind, accountId: number | null, tx: Db = db): Promise<SyncRunRow | null> {
      const [row] = await tx
        .select()
        .from(r)
        .where(and(eq(r.kind, kind), accountId === null ? undefined : eq(r.accountId, accountId)))
        .orderBy(desc(r.queuedAt), desc(r.id))
        .limit(1);
      return row ?? null;
    },

    /** The account's newest run of a kind that ended (succeeded or failed). */
    async latestEnded(kind: SyncJobKind, accountId: number, tx: Db = db): Promise<SyncRunRow | null> {
      const [row] = await tx
        .select()
        .from(r)
        .where(and(eq(r.kind, kind), eq(r.accountId, accountId), inArray(r.status, ENDED)))
        .orderBy(desc(r.queuedAt), desc(r.id))
        .limit(1);
      return row ?? null;
    },

    /** Runs running now, every kind (one at most, but for runs a previous version left). */
    async running(tx: Db = db): Promise<SyncRunRow[]> {
      return tx.select().from(r).where(eq(r.status, 'running'));
    },

    /**
     * queued → running for this worker, one more attempt, counts and progress from zero (an attempt
     * always starts from scratch). Null when the run is not queued (someone else took it, or it
     * ended), or while a run of the other kind is running for the same account: then it stays
     * queued and says so.
     */
    async claim(id: string, workerId: string, at: Date, tx: Db = db): Promise<SyncRunRow | null> {
      return tx.transaction(async (t) => {
        await t.execute(sql`SELECT pg_advisory_xact_lock(${SYNC_LANE_LOCK})`);
        const [own] = await t.select({ accountId: r.accountId }).from(r).where(eq(r.id, id));
        if (!own) return null;
        const [other] = await t
          .select({ kind: r.kind })
          .from(r)
          .where(and(eq(r.status, 'running'), eq(r.accountId, own.accountId), ne(r.id, id)))
          .limit(1);
        if (other) {
          await t
            .update(r)
            .set({ phase: `Waiting for the ${other.kind} sync to finish` })
            .where(and(eq(r.id, id), eq(r.status, 'queued')));
          return null;
        }
        return claimNow(id, workerId, at, t);
      });
    },

    /** Heartbeat plus whatever changed; false when the run is no longer this worker's. */
    async beat(id: string, workerId: string, at: Date, report: SyncRunReport = {}, tx: Db = db): Promise<boolean> {
      const rows = await tx
        .update(r)
        .set({ ...reportColumns(report), heartbeatAt: at })
        .where(ownedBy(id, workerId))
        .returning({ id: r.id });
      return rows.length > 0;
    },

    /**
     * Inside a batch's transaction: locks the run row until the transaction ends, so a sweeper
     * cannot hand the run to another worker halfway through the batch; false when it is not ours.
     */
    async holdClaim(id: string, workerId: string, tx: Db): Promise<boolean> {
      const rows = await tx.select({ id: r.id }).from(r).where(ownedBy(id, workerId)).for('update');
      return rows.length > 0;
    },

    /** running → succeeded or failed, by its own worker. */
    async finish(
      id: string,
      workerId: string,
      outcome: { status: 'succeeded' | 'failed'; at: Date; message: string | null } & SyncRunReport,
      tx: Db = db,
    ): Promise<SyncRunRow | null> {
      const [row] = await tx
        .update(r)
        .set({ ...reportColumns(outcome), status: outcome.status, message: outcome.message, finishedAt: outcome.at, heartbeatAt: outcome.at })
        .where(ownedBy(id, workerId))
        .returning();
      return row ?? null;
    },

    /**
     * Back to queued, to run again from scratch: after a stale heartbeat (`from` 'running', any
     * worker) or a graceful shutdown (`from` 'running' with `workerId`, attempt not counted).
     */
    async requeue(
      id: string,
      options: { workerId?: string; staleBefore?: Date; message: string; uncountAttempt?: boolean },
      tx: Db = db,
    ): Promise<SyncRunRow | null> {
      const [row] = await tx
        .update(r)
        .set({
          status: 'queued',
          workerId: null,
          phase: 'Waiting to resume',
          message: options.message,
          ...(options.uncountAttempt ? { attempts: sql`greatest(${r.attempts} - 1, 0)` } : {}),
        })
        .where(
          and(
            eq(r.id, id),
            eq(r.status, 'running'),
            options.workerId ? eq(r.workerId, options.workerId) : undefined,
            options.staleBefore ? or(isNull(r.heartbeatAt), lt(r.heartbeatAt, options.staleBefore)) : undefined,
          ),
        )
        .returning();
      return row ?? null;
    },

    /** Ends a run that no worker will finish (stale too often, or lost): running or queued → failed. */
    async abandon(
      id: string,
      options: { from: 'running' | 'queued'; staleBefore?: Date; at: Date; message: string },
      tx: Db = db,
    ): Promise<SyncRunRow | null> {
      const [row] = await tx
        .update(r)
        .set({ status: 'failed', workerId: null, finishedAt: options.at, message: options.message })
        .where(
          and(
            eq(r.id, id),
            eq(r.status, options.from),
            options.staleBefore ? or(isNull(r.heartbeatAt), lt(r.heartbeatAt, options.staleBefore)) : undefined,
          ),
        )
        .returning();
      return row ?? null;
    },

    /** Running runs whose last heartbeat is older than `before` (every running run when null). */
    async staleRunning(before: Date | null, tx: Db = db): Promise<SyncRunRow[]> {
      return tx
        .select()
        .from(r)
        .where(and(eq(r.status, 'running'), before ? or(isNull(r.heartbeatAt), lt(r.heartbeatAt, before)) : undefined));
    },

    async queued(tx: Db = db): Promise<SyncRunRow[]> {
      return tx.select().from(r).where(eq(r.status, 'queued')).orderBy(r.queuedAt);
    },
  };
}
