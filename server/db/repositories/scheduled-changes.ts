// Scheduled changes: a line's or a customer's change set for a later moment; claimed by one
// process when due (server/services/scheduled-changes.ts runs them).
import { and, count, desc, eq, inArray, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../client';
import { customers, scheduledChanges, serviceLines, users, type ScheduledChangeRow } from '../schema';

export type ScheduleStatusRow = ScheduledChangeRow['status'];
export type NewScheduledChange = Pick<ScheduledChangeRow, 'operation' | 'targetType' | 'targetKey' | 'parameters' | 'runAt' | 'atNextCycle' | 'createdBy'>;

export interface ScheduledChangeListRow extends ScheduledChangeRow {
  targetLabel: string | null;
  createdByName: string | null;
  cancelledByName: string | null;
}

export interface ScheduledChangeFilter {
  statuses: ScheduleStatusRow[] | null;
  target: string | null;
}

const createdBy = alias(users, 'created_user');
const cancelledBy = alias(users, 'cancelled_user');

export function createScheduledChangesRepository(db: Db) {
  const c = scheduledChanges;
  const where = (filter: ScheduledChangeFilter): SQL | undefined =>
    and(filter.statuses ? inArray(c.status, filter.statuses) : undefined, filter.target ? eq(c.targetKey, filter.target) : undefined);
  const listed = (tx: Db) =>
    tx
      .select({
        row: c,
        customerName: customers.name,
        lineNickname: serviceLines.nickname,
        createdByName: createdBy.name,
        cancelledByName: cancelledBy.name,
      })
      .from(c)
      .leftJoin(customers, and(eq(c.targetType, 'customer'), sql`${customers.id}::text = ${c.targetKey}`))
      .leftJoin(serviceLines, and(eq(c.targetType, 'line'), eq(serviceLines.serviceLineNumber, c.targetKey)))
      .leftJoin(createdBy, eq(createdBy.id, c.createdBy))
      .leftJoin(cancelledBy, eq(cancelledBy.id, c.cancelledBy));
  const flatten = (r: { row: ScheduledChangeRow; customerName: string | null; lineNickname: string | null; createdByName: string | null; cancelledByName: string | null }): ScheduledChangeListRow => ({
    ...r.row,
    targetLabel: r.row.targetType === 'customer' ? r.customerName : r.lineNickname,
    createdByName: r.createdByName,
    cancelledByName: r.cancelledByName,
  });
  const dueNow = (now: Date) =>
    or(
      and(eq(c.status, 'scheduled'), lte(c.runAt, now), or(isNull(c.nextAttemptAt), lte(c.nextAttemptAt, now))),
      and(eq(c.status, 'running'), isNotNull(c.claimedUntil), lte(c.claimedUntil, now)),
    );

  return {
    async insert(row: NewScheduledChange, at: Date, tx: Db = db): Promise<ScheduledChangeRow> {
      const [made] = await tx
        .insert(c)
        .values({ ...row, createdAt: at })
        .returning();
      if (!made) throw new Error('The scheduled change was not recorded');
      return made;
    },

    /** Soonest first for what is still to come, latest first for the rest. */
    async list(filter: ScheduledChangeFilter, page: { offset: number; limit: number }, tx: Db = db): Promise<{ rows: ScheduledChangeListRow[]; total: number }> {
      const upcoming = filter.statuses !== null && filter.statuses.every((s) => s === 'scheduled' || s === 'running');
      const rows = await listed(tx)
        .where(where(filter))
        .orderBy(upcoming ? c.runAt : desc(c.runAt), desc(c.id))
        .limit(page.limit)
        .offset(page.offset);
      const [total] = await tx.select({ n: count() }).from(c).where(where(filter));
      return { rows: rows.map(flatten), total: Number(total?.n ?? 0) };
    },

    async upcomingCount(tx: Db = db): Promise<number> {
      const [row] = await tx.select({ n: count() }).from(c).where(inArray(c.status, ['scheduled', 'running']));
      return Number(row?.n ?? 0);
    },

    async byId(id: string, tx: Db = db): Promise<ScheduledChangeListRow | undefined> {
      const [row] = await listed(tx).where(eq(c.id, id));
      return row ? flatten(row) : undefined;
    },

    /** Moves a change from one of `from` to `to`; undefined when it was no longer in one of them. */
    async transition(id: string, from: readonly ScheduleStatusRow[], to: ScheduleStatusRow, patch: Partial<ScheduledChangeRow>, tx: Db = db): Promise<ScheduledChangeRow | undefined> {
      const [row] = await tx
        .update(c)
        .set({ ...patch, status: to })
        .where(and(eq(c.id, id), inArray(c.status, [...from])))
        .returning();
      return row;
    },

    /**
     * Takes up to `limit` changes due now for this process until `until`: scheduled ones whose time
     * (and retry time) has come, and running ones a stopped process left. One process gets each.
     */
    async claimDue(now: Date, until: Date, limit: number, tx: Db = db): Promise<ScheduledChangeRow[]> {
      const due = tx.select({ id: c.id }).from(c).where(dueNow(now)).orderBy(c.runAt).limit(limit).for('update', { skipLocked: true });
      return tx
        .update(c)
        .set({ status: 'running', claimedUntil: until, attempts: sql`${c.attempts} + 1` })
        .where(inArray(c.id, due))
        .returning();
    },

    transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    async anyDue(now: Date, tx: Db = db): Promise<boolean> {
      const [row] = await tx.select({ id: c.id }).from(c).where(dueNow(now)).limit(1);
      return row !== undefined;
    },
  };
}

export type ScheduledChangesRepository = ReturnType<typeof createScheduledChangesRepository>;
