// A customer's terminals: assigning and unassigning them by service line (the locks and the
// conditional writes), the assigned list, the month's usage of each one and the daily totals,
// and a service line's stored usage history. (One terminal's usage: the terminals repository.)
//
// Lock order, the same everywhere a customer's terminals are written: the customer row first,
// then the terminals by user_terminal_id. Two requests touching overlapping lines therefore wait
// for each other instead of deadlocking; a deadlock with another writer (a sync batch) is still
// possible on PostgreSQL, and `transaction` runs the work again when it happens.
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { customers, serviceLines, serviceLineUsageCycles, serviceLineUsageDaily, terminals } from '../schema';
import { explain, planNodes, type IsoDay } from './terminals';
import { rowsOf } from './results';

const t = terminals;
const u = serviceLineUsageCycles;
const d = serviceLineUsageDaily;

/** PostgreSQL gave up on the transaction so another could go on: running it again is safe. */
const RETRYABLE = new Set(['40P01', '40001']);
export const TRANSACTION_ATTEMPTS = 5;

export function isRetryableConflict(error: unknown): boolean {
  // Drizzle wraps the driver's error; the SQLSTATE is on the cause.
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && RETRYABLE.has(code)) return true;
  }
  return false;
}

/** Which billing cycle of each line a usage answer shows. */
export type CyclePick =
  /** The cycle that started within [from, to] (the latest, should two). */
  | { kind: 'startedBetween'; from: IsoDay; to: IsoDay }
  /** The latest cycle overlapping [from, to]. */
  | { kind: 'overlapping'; from: IsoDay; to: IsoDay }
  /** The cycle containing the day. */
  | { kind: 'containing'; day: IsoDay };

function cycleCondition(pick: CyclePick): SQL | undefined {
  switch (pick.kind) {
    case 'startedBetween':
      return and(gte(u.cycleStart, pick.from), lte(u.cycleStart, pick.to));
    case 'overlapping':
      return and(lte(u.cycleStart, pick.to), gte(u.cycleEnd, pick.from));
    case 'containing':
      return and(lte(u.cycleStart, pick.day), gte(u.cycleEnd, pick.day));
  }
}

const liveOf = (customerId: string) => and(eq(t.assignedCustomerId, customerId), isNull(t.removedAt));

/**
 * Every live terminal of the customer with the picked cycle of its line, in one statement: the
 * lateral subquery reads one cycle per terminal through the (service_line_number, cycle_start)
 * primary key, newest first, and the line's state is one key lookup, so the cost follows the
 * customer's terminals, not the tables.
 */
function usageQuery(tx: Db, customerId: string, pick: CyclePick) {
  const cycle = tx
    .select({
      cycleStart: u.cycleStart,
      cycleEnd: u.cycleEnd,
      priorityGb: u.priorityGb,
      standardGb: u.standardGb,
      usageLimitGb: u.usageLimitGb,
    })
    .from(u)
    .where(and(eq(u.serviceLineNumber, t.serviceLineNumber), cycleCondition(pick)))
    .orderBy(desc(u.cycleStart))
    .limit(1)
    .as('cycle');
  return tx
    .select({
      userTerminalId: t.userTerminalId,
      serviceLineNumber: t.serviceLineNumber,
      location: t.location,
      terminalType: t.terminalType,
      plan: t.plan,
      active: t.active,
      condition: t.condition,
      syncStatus: t.syncStatus,
      dataCapAmount: t.dataCapAmount,
      dataCapUnit: t.dataCapUnit,
      // A scalar lookup through the service_lines key for each of the customer's terminals: joined
      // instead, the planner hashed the whole service_lines table on every request.
      lineActive: sql<boolean | null>`(SELECT ${serviceLines.active} FROM ${serviceLines} WHERE ${serviceLines.serviceLineNumber} = ${t.serviceLineNumber})`,
      cycleStart: cycle.cycleStart,
      cycleEnd: cycle.cycleEnd,
      priorityGb: cycle.priorityGb,
      standardGb: cycle.standardGb,
      usageLimitGb: cycle.usageLimitGb,
    })
    .from(t)
    .leftJoinLateral(cycle, sql`true`)
    .where(liveOf(customerId))
    .orderBy(asc(t.serviceLineNumber), asc(t.userTerminalId));
}

export type CustomerUsageRow = Awaited<ReturnType<typeof usageQuery>>[number];

/** A terminal on one of the asked lines, locked for this transaction, with its holder's name. */
export interface LockedTerminal {
  userTerminalId: string;
  serviceLineNumber: string;
  assignedCustomerId: string | null;
  /** The holder's stored name (a soft-deleted holder keeps it), null when unassigned. */
  holderName: string | null;
}

const numOf = (value: unknown) => Number(value ?? 0);

export type CustomerTerminalsRepository = ReturnType<typeof createCustomerTerminalsRepository>;

export function createCustomerTerminalsRepository(db: Db) {
  return {
    /**
     * `work` in one transaction, run again from the start (up to TRANSACTION_ATTEMPTS in all)
     * when PostgreSQL ends it with a deadlock or a serialization failure.
     */
    async transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await db.transaction(work);
        } catch (error) {
          if (attempt >= TRANSACTION_ATTEMPTS || !isRetryableConflict(error)) throw error;
        }
      }
    },

    /** The customer, deleted or not, locked until `tx` ends (the first lock of an assignment). */
    async findCustomerForUpdate(id: string, tx: Db) {
      const [row] = await tx
        .select({
          id: customers.id,
          name: customers.name,
          deletedAt: customers.deletedAt,
          blockedEnabled: customers.blockedEnabled,
          blockedReason: customers.blockedReason,
          accountExpiresAt: customers.accountExpiresAt,
        })
        .from(customers)
        .where(eq(customers.id, id))
        .for('update');
      return row ?? null;
    },

    /** The live terminals on the lines, locked in user_terminal_id order (see the lock order above). */
    async lockLiveOnLines(lines: readonly string[], tx: Db): Promise<LockedTerminal[]> {
      if (lines.length === 0) return [];
      const rows = await tx
        .select({
          userTerminalId: t.userTerminalId,
          serviceLineNumber: t.serviceLineNumber,
          assignedCustomerId: t.assignedCustomerId,
          holderName: customers.name,
        })
        .from(t)
        .leftJoin(customers, eq(customers.id, t.assignedCustomerId))
        .where(and(inArray(t.serviceLineNumber, [...lines]), isNull(t.removedAt)))
        .orderBy(asc(t.userTerminalId))
        .for('update', { of: t });
      return rows.map((r) => ({ ...r, serviceLineNumber: r.serviceLineNumber!, holderName: r.assignedCustomerId ? r.holderName : null }));
    },

    /** Of the lines, those some removed terminal was on (terminals_removed_line_idx, 0005). */
    async linesWithRemovedTerminals(lines: readonly string[], tx: Db = db): Promise<Set<string>> {
      if (lines.length === 0) return new Set();
      const rows = await tx
        .selectDistinct({ line: t.serviceLineNumber })
        .from(t)
        .where(and(inArray(t.serviceLineNumber, [...lines]), isNotNull(t.removedAt)));
      return new Set(rows.map((r) => r.line!));
    },

    /** Service lines whose live terminals are all unassigned, in order (what a demo can hand out). */
    async freeLines(tx: Db = db): Promise<string[]> {
      const rows = await tx
        .select({ line: t.serviceLineNumber })
        .from(t)
        .where(and(isNull(t.removedAt), isNotNull(t.serviceLineNumber)))
        .groupBy(t.serviceLineNumber)
        .having(sql`bool_and(${t.assignedCustomerId} IS NULL)`)
        .orderBy(asc(t.serviceLineNumber));
      return rows.map((r) => r.line!);
    },

    /** The stored service lines among these numbers, and whether the provider still lists each. */
    async serviceLinesIn(lines: readonly string[], tx: Db = db): Promise<Map<string, { removed: boolean }>> {
      if (lines.length === 0) return new Map();
      const rows = await tx
        .select({ line: serviceLines.serviceLineNumber, removedAt: serviceLines.removedAt })
        .from(serviceLines)
        .where(inArray(serviceLines.serviceLineNumber, [...lines]));
      return new Map(rows.map((r) => [r.line, { removed: r.removedAt !== null }]));
    },

    /**
     * Assigns those of the terminals that are still live and unassigned. The condition is in the
     * UPDATE itself, so a row changed since it was read is left alone; the answer lists what changed.
     */
    async assignUnassigned(ids: readonly string[], customerId: string, at: Date, tx: Db) {
      if (ids.length === 0) return [];
      return tx
        .update(t)
        .set({ assignedCustomerId: customerId, assignedAt: at, updatedAt: at })
        .where(and(inArray(t.userTerminalId, [...ids]), isNull(t.assignedCustomerId), isNull(t.removedAt)))
        .returning({ userTerminalId: t.userTerminalId, serviceLineNumber: t.serviceLineNumber });
    },

    /** Frees the customer's live terminals on the line; the answer lists them (none: nothing was the customer's). */
    async unassignLine(serviceLineNumber: string, customerId: string, at: Date, tx: Db) {
      return tx
        .update(t)
        .set({ assignedCustomerId: null, assignedAt: null, updatedAt: at })
        .where(and(eq(t.serviceLineNumber, serviceLineNumber), liveOf(customerId)))
        .returning({ userTerminalId: t.userTerminalId });
    },

    /** The customer's live terminals, by service line then id. */
    async assignedTo(customerId: string, tx: Db = db) {
      return tx
        .select({
          userTerminalId: t.userTerminalId,
          serviceLineNumber: t.serviceLineNumber,
          kitSerialNumber: t.kitSerialNumber,
          active: t.active,
          assignedAt: t.assignedAt,
        })
        .from(t)
        .where(liveOf(customerId))
        .orderBy(asc(t.serviceLineNumber), asc(t.userTerminalId));
    },

    /** Each live terminal of the customer with its line's picked cycle (null fields: no cycle). */
    async usage(customerId: string, pick: CyclePick, tx: Db = db): Promise<CustomerUsageRow[]> {
      return usageQuery(tx, customerId, pick);
    },

    /** The plan of `usage` (EXPLAIN, not run): node types from the top, for the benchmark. */
    async planOfUsage(customerId: string, pick: CyclePick, tx: Db = db): Promise<string[]> {
      return planOf(tx, usageQuery(tx, customerId, pick).getSQL());
    },

    /**
     * Priority and standard GB per day within [from, to], summed over the distinct lines of the
     * customer's live terminals; days without usage are absent (the caller fills them). Read from
     * the deltas the writers keep (migration 0012): a month of rows, whatever the customer holds.
     */
    async dailyTotals(customerId: string, from: IsoDay, to: IsoDay, tx: Db = db) {
      return dailyRows(await tx.execute(dailyTotalsQuery(customerId, from, to)));
    },

    /** The same figures from the lines' own days (what the deltas must add up to: the tests compare them). */
    async dailyTotalsFromLines(customerId: string, from: IsoDay, to: IsoDay, tx: Db = db) {
      return dailyRows(
        await tx.execute(sql`
          SELECT usage_date::text AS day, priority_gb::text AS priority, standard_gb::text AS standard
          FROM customer_usage_daily_from_lines(${customerId}::uuid, ${from}::date, ${to}::date)
          WHERE priority_gb <> 0 OR standard_gb <> 0
          ORDER BY usage_date`),
      );
    },

    async planOfDailyTotals(customerId: string, from: IsoDay, to: IsoDay, tx: Db = db): Promise<string[]> {
      return planOf(tx, dailyTotalsQuery(customerId, from, to));
    },

    /** Folds each customer's day into one row (after a usage run); a fold under way elsewhere makes it a no-op. */
    async foldDailyTotals(tx: Db = db): Promise<void> {
      await tx.execute(sql`SELECT customer_usage_daily_fold()`);
    },

    /** Rows of deltas stored (the benchmark prints it; a fold brings it down to one a customer and day). */
    async dailyTotalRows(tx: Db = db): Promise<number> {
      const [row] = rowsOf<{ n: number | string }>(await tx.execute(sql`SELECT count(*)::int AS n FROM customer_usage_daily_deltas`));
      return Number(row?.n ?? 0);
    },

    /** A line's stored cycles, newest first; with a range, only those that started within it. */
    async cyclesOfLine(serviceLineNumber: string, started: { from: IsoDay; to: IsoDay } | null, tx: Db = db) {
      return tx
        .select()
        .from(u)
        .where(and(eq(u.serviceLineNumber, serviceLineNumber), started ? and(gte(u.cycleStart, started.from), lte(u.cycleStart, started.to)) : undefined))
        .orderBy(desc(u.cycleStart));
    },

    /** A line's daily records, newest first, at most `limit`; with a range, only the days within it. */
    async daysOfLine(serviceLineNumber: string, range: { from: IsoDay; to: IsoDay } | null, limit: number, tx: Db = db) {
      return tx
        .select()
        .from(d)
        .where(and(eq(d.serviceLineNumber, serviceLineNumber), range ? and(gte(d.usageDate, range.from), lte(d.usageDate, range.to)) : undefined))
        .orderBy(desc(d.usageDate))
        .limit(limit);
    },
  };
}

/** A customer's deltas in the range, summed per day; days whose deltas cancel out are left out. */
function dailyTotalsQuery(customerId: string, from: IsoDay, to: IsoDay): SQL {
  return sql`
    SELECT usage_date::text AS day, sum(priority_gb)::text AS priority, sum(standard_gb)::text AS standard
    FROM customer_usage_daily_deltas
    WHERE customer_id = ${customerId}::uuid AND usage_date BETWEEN ${from}::date AND ${to}::date
    GROUP BY usage_date
    HAVING sum(priority_gb) <> 0 OR sum(standard_gb) <> 0
    ORDER BY usage_date`;
}

function dailyRows(result: unknown) {
  return rowsOf<{ day: string; priority: string | null; standard: string | null }>(result).map((r) => ({
    day: r.day,
    priorityGb: numOf(r.priority),
    standardGb: numOf(r.standard),
  }));
}

async function planOf(tx: Db, query: SQL): Promise<string[]> {
  return planNodes(await explain(tx, query));
}
