// Subscriptions: every live terminal on a service line with its line's state, product, holder and
// the cycle containing a given day, in one statement; the page's stored rows (migration 0009),
// recomputed for the lines triggers marked (with the customers' usage rows of those lines, 0014)
// and paged in SQL; the products on offer; and the local
// side of a plan change the provider accepted (line, terminals and current cycle in one
// transaction).
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lte, notInArray, sql, type SQL } from 'drizzle-orm';
import type { SubscriptionPlanFilter, SubscriptionSummary, SubscriptionWire } from '../../../src/domain/subscriptions';
import { GB_PER_TB } from '../../../src/domain/subscriptions';
import type { Db } from '../client';
import { transactionRetryingConflicts } from '../conflicts';
import {
  customers,
  customerUsageRows,
  providerAccounts,
  providerProducts,
  serviceLines,
  serviceLineUsageCycles,
  subscriptionDirty,
  subscriptionRows,
  subscriptionTotals,
  terminals,
} from '../schema';
import { refreshCustomerUsageRows } from './customer-terminals';
import { escapeLike } from './customers';
import { rowsOf } from './results';
import type { IsoDay } from './terminals';

const t = terminals;
const u = serviceLineUsageCycles;
const p = providerProducts;

/**
 * A terminal's line's usage cycle containing `today`, for a lateral join from `terminals`: at most
 * one row, read through the (service_line_number, cycle_start) primary key. The Subscriptions page
 * and the customer area read the same cycle, so they show the same figures.
 */
export function cycleContaining(tx: Db, today: IsoDay) {
  return tx
    .select({ cycleStart: u.cycleStart, cycleEnd: u.cycleEnd, priorityGb: u.priorityGb, standardGb: u.standardGb, usageLimitGb: u.usageLimitGb })
    .from(u)
    .where(and(eq(u.serviceLineNumber, t.serviceLineNumber), lte(u.cycleStart, today), gte(u.cycleEnd, today)))
    .orderBy(desc(u.cycleStart))
    .limit(1)
    .as('cycle');
}

/**
 * Live terminals on a line with the cycle containing `today`: the lateral subquery reads at most
 * one cycle per terminal through the (service_line_number, cycle_start) primary key, and the
 * line, product and holder are key joins.
 */
function subscriptionQuery(tx: Db, today: IsoDay, where: SQL | undefined) {
  const cycle = cycleContaining(tx, today);
  return tx
    .select({
      userTerminalId: t.userTerminalId,
      serviceLineNumber: sql<string>`${t.serviceLineNumber}`,
      location: t.location,
      terminalType: t.terminalType,
      active: t.active,
      lineActive: serviceLines.active,
      // The line's product is the provider's word; the terminal's copy is denormalised from it.
      productReferenceId: sql<string | null>`coalesce(${serviceLines.productReferenceId}, ${t.productReferenceId})`,
      plan: t.plan,
      dataCapAmount: t.dataCapAmount,
      dataCapUnit: t.dataCapUnit,
      currency: p.isoCurrencyCode,
      customerName: customers.name,
      accountId: t.accountId,
      accountName: providerAccounts.name,
      cycleStart: cycle.cycleStart,
      cycleEnd: cycle.cycleEnd,
      priorityGb: cycle.priorityGb,
      usageLimitGb: cycle.usageLimitGb,
    })
    .from(t)
    .leftJoin(serviceLines, eq(serviceLines.serviceLineNumber, t.serviceLineNumber))
    // A product is its account's: two accounts may list the same reference at their own prices.
    .leftJoin(p, and(eq(p.productReferenceId, sql`coalesce(${serviceLines.productReferenceId}, ${t.productReferenceId})`), eq(p.accountId, t.accountId)))
    .leftJoin(customers, eq(customers.id, t.assignedCustomerId))
    .leftJoin(providerAccounts, eq(providerAccounts.id, t.accountId))
    .leftJoinLateral(cycle, sql`true`)
    .where(and(isNull(t.removedAt), isNotNull(t.serviceLineNumber), where))
    .orderBy(asc(t.serviceLineNumber), asc(t.userTerminalId));
}

export type SubscriptionRow = Awaited<ReturnType<typeof subscriptionQuery>>[number];

const productColumns = {
  productReferenceId: p.productReferenceId,
  name: p.name,
  price: p.price,
  isoCurrencyCode: p.isoCurrencyCode,
  raw: p.raw,
};

export interface StoredProduct {
  productReferenceId: string;
  name: string;
  price: number | null;
  isoCurrencyCode: string | null;
  raw: unknown;
}

export interface PlanChange {
  serviceLineNumber: string;
  product: StoredProduct;
  monthlyDataGB: number;
  today: IsoDay;
  at: Date;
}

/** A page row as the server computed it from a SubscriptionRow. */
export interface ComputedSubscription {
  wire: SubscriptionWire;
  monthlyDataGB: number;
  overageGB: number;
  /** Lower-cased fields the page searches, joined by U+001F. */
  searchText: string;
}

export interface SubscriptionPageQuery {
  page: number;
  limit: number;
  /** Lower-cased. */
  search?: string | undefined;
  plan: SubscriptionPlanFilter;
  overPlan?: boolean | undefined;
  /** Only the terminals of this provider account (none match an unknown one). */
  accountId?: number | undefined;
}

/** The advisory lock a refreshing transaction holds (any constant every process shares). */
const REFRESH_LOCK_KEY = 720_150_012;
const r = subscriptionRows;

const PLAN_WHERE: Record<SubscriptionPlanFilter, SQL | undefined> = {
  all: undefined,
  '50gb': eq(r.monthlyDataGb, 50),
  '1tb': eq(r.monthlyDataGb, GB_PER_TB),
  other: notInArray(r.monthlyDataGb, [50, GB_PER_TB]),
};

export type SubscriptionsRepository = ReturnType<typeof createSubscriptionsRepository>;

/** Rows matching: the totals already count the unfiltered set and each single plan or over-plan filter. */
async function countOf(query: SubscriptionPageQuery, summary: SubscriptionSummary, where: SQL | undefined, tx: Db): Promise<number> {
  // The totals count every account's rows: one account's are counted from its stored rows.
  if (query.accountId !== undefined) {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(r)
      .where(and(where, eq(r.accountId, query.accountId)));
    return Number(row?.n ?? 0);
  }
  if (!query.search) {
    if (query.overPlan === undefined) {
      if (query.plan === 'all') return summary.totalTerminals;
      if (query.plan === '50gb') return summary.plans50GB;
      if (query.plan === '1tb') return summary.plans1TB;
    } else if (query.plan === 'all') {
      return query.overPlan ? summary.overageTerminals : summary.totalTerminals - summary.overageTerminals;
    }
  }
  const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(r).where(where);
  return Number(row?.n ?? 0);
}

export function createSubscriptionsRepository(db: Db) {
  /**
   * The day the stored rows were computed for, whether any line waits to be recomputed, and how
   * many marks wait, counted up to `countUpTo` (a read only needs to know whether they are a few or
   * a sync's worth): one round trip, so a read with nothing to do costs one cheap query.
   */
  async function rowsState(countUpTo = 1, tx: Db = db): Promise<{ day: IsoDay | null; dirty: boolean; marked: number }> {
    const [row] = rowsOf<{ day: string | null; marked: number }>(
      await tx.execute(sql`
        SELECT day::text AS day, (SELECT count(*)::int FROM (SELECT 1 FROM ${subscriptionDirty} LIMIT ${Math.max(1, countUpTo)}) m) AS marked
        FROM ${subscriptionTotals} WHERE id = 1`),
    );
    const marked = Number(row?.marked ?? 0);
    return { day: (row?.day ?? null) as IsoDay | null, dirty: marked > 0, marked };
  }

  /** The summary cards over every stored row. */
  async function recountTotals(tx: Db = db): Promise<void> {
    await tx.execute(sql`
      UPDATE ${subscriptionTotals} s SET total = d.total, plans_50gb = d.p50, plans_1tb = d.p1tb,
        overage_terminals = d.over, total_overage_gb = d.overage
      FROM (
        SELECT count(*)::int AS total,
          (count(*) FILTER (WHERE monthly_data_gb = 50))::int AS p50,
          (count(*) FILTER (WHERE monthly_data_gb = ${GB_PER_TB}))::int AS p1tb,
          (count(*) FILTER (WHERE overage_gb > 0))::int AS over,
          coalesce(sum(overage_gb), 0) AS overage
        FROM ${subscriptionRows}
      ) d
      WHERE s.id = 1`);
  }

  return {
    rowsState,
    recountTotals,

    /**
     * A plan change's writes (the line, its terminals, the cycle's limit, the audit entry), run
     * again after a deadlock: a usage run writing the same line's cycle and terminals at the same
     * moment takes their locks in another order, and PostgreSQL then ends one of the two.
     */
    transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return transactionRetryingConflicts(db, work);
    },

    /** Every live terminal on a service line, by line then terminal id. */
    async all(today: IsoDay, tx: Db = db): Promise<SubscriptionRow[]> {
      return subscriptionQuery(tx, today, undefined);
    },

    /** The live terminals on one line, by terminal id (none: no subscription there). */
    async onLine(serviceLineNumber: string, today: IsoDay, tx: Db = db): Promise<SubscriptionRow[]> {
      return subscriptionQuery(tx, today, eq(t.serviceLineNumber, serviceLineNumber));
    },

    /**
     * Tidies what a refresh of a sync's worth of lines leaves behind (VACUUM), which the embedded
     * database never does itself (no autovacuum) and a PostgreSQL server does only in its own time:
     * - the marks' emptied table is cut back: every page read asks it whether any line is marked,
     *   and after a sync that question scanned 5,400 emptied pages, 10 ms a read at 100,000 terminals;
     * - the stored rows it rewrote are made all-visible again, so that the Subscriptions page and a
     *   customer's usage table read their indexes alone instead of visiting every row's page (a
     *   customer of 3,135 lines: 4.8 ms instead of 8.2).
     * SKIP_LOCKED: another process vacuuming one of them does the same.
     */
    async tidyAfterRefresh(): Promise<void> {
      await db.execute(sql`VACUUM (SKIP_LOCKED) ${subscriptionDirty}, ${subscriptionRows}, ${customerUsageRows}`);
    },

    /**
     * A new day: every row's forecast and current cycle depend on the day, so every line with a
     * live terminal is marked. Only the first caller of the day marks (the UPDATE decides).
     */
    async startDay(today: IsoDay): Promise<void> {
      await db.transaction(async (tx) => {
        const moved = await tx
          .update(subscriptionTotals)
          .set({ day: today })
          .where(and(eq(subscriptionTotals.id, 1), sql`${subscriptionTotals.day} IS DISTINCT FROM ${today}::date`))
          .returning({ id: subscriptionTotals.id });
        if (moved.length === 0) return;
        await tx.execute(sql`
          INSERT INTO ${subscriptionDirty}
          SELECT DISTINCT ${t.serviceLineNumber} FROM ${t} WHERE ${t.removedAt} IS NULL AND ${t.serviceLineNumber} IS NOT NULL`);
      });
    },

    /**
     * Recomputes up to `maxLines` marked lines in one transaction; the caller sizes the chunks and
     * recounts the totals after them. One process refreshes at a time (an advisory lock per chunk):
     * two taking the same line's marks and writing its rows in different orders could deadlock. A
     * chunk takes every mark of its lines that has committed; a mark committed after that stays for
     * the next chunk, so a change made while its line is being computed is computed again. The
     * customers' usage rows of the lines (customer_usage_rows) are computed in the same transaction.
     * Answers the lines done (0: nothing was marked).
     */
    async refreshChunk(today: IsoDay, compute: (row: SubscriptionRow) => ComputedSubscription, maxLines: number): Promise<number> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${REFRESH_LOCK_KEY})`);
        // The lines first, then their marks by one array parameter (planned as a constant: a
        // hashed test), so that taking them costs one pass whatever the planner believes the
        // table holds. A VACUUM that finds it empty while a sync appends marks at its end cannot
        // cut its pages back and leaves it counted as one row: taken in one statement, the chunk
        // then compared every mark with every line taken, two seconds a chunk at 70,000 marks.
        const lines = rowsOf<{ line: string }>(
          await tx.execute(sql`SELECT DISTINCT service_line_number AS line FROM ${subscriptionDirty} LIMIT ${maxLines}`),
        ).map((row) => row.line);
        if (lines.length === 0) return 0;
        const marks = rowsOf<{ line: string }>(
          await tx.execute(sql`
            DELETE FROM ${subscriptionDirty} WHERE service_line_number = ANY(${sql.param(lines)}::text[])
            RETURNING service_line_number AS line`),
        );
        const taken = [...new Set(marks.map((row) => row.line))];
        if (taken.length === 0) return 0;
        const computed = (await subscriptionQuery(tx, today, inArray(t.serviceLineNumber, taken))).map((row) => ({ row, c: compute(row) }));
        const keep = computed.map(({ row }) => row.userTerminalId);
        await tx
          .delete(r)
          .where(and(inArray(r.serviceLineNumber, taken), keep.length > 0 ? notInArray(r.userTerminalId, keep) : undefined));
        if (computed.length > 0) {
          await tx
            .insert(r)
            .values(
              computed.map(({ row, c }) => ({
                userTerminalId: row.userTerminalId,
                serviceLineNumber: row.serviceLineNumber,
                monthlyDataGb: c.monthlyDataGB,
                overageGb: c.overageGB,
                searchText: c.searchText,
                wire: c.wire,
                accountId: row.accountId,
              })),
            )
            .onConflictDoUpdate({
              target: r.userTerminalId,
              set: {
                serviceLineNumber: sql`excluded.service_line_number`,
                monthlyDataGb: sql`excluded.monthly_data_gb`,
                overageGb: sql`excluded.overage_gb`,
                searchText: sql`excluded.search_text`,
                wire: sql`excluded.wire`,
                accountId: sql`excluded.account_id`,
              },
            });
        }
        await refreshCustomerUsageRows(tx, taken, today);
        return taken.length;
      });
    },

    async totals(tx: Db = db): Promise<SubscriptionSummary> {
      const [row] = await tx.select().from(subscriptionTotals).where(eq(subscriptionTotals.id, 1));
      return {
        totalTerminals: row?.total ?? 0,
        plans50GB: row?.plans50gb ?? 0,
        plans1TB: row?.plans1tb ?? 0,
        overageTerminals: row?.overageTerminals ?? 0,
        totalOverageGB: Math.round((row?.totalOverageGb ?? 0) * 10) / 10,
      };
    },

    /**
     * One page of stored rows in the page's order (the order index), and how many rows match:
     * from the totals when the filter is one they count, else counted. A row names its account
     * (stored with it, for the Account filter's index); the account's name is read at read time,
     * so a renamed account shows its new name.
     */
    async page(query: SubscriptionPageQuery, summary: SubscriptionSummary, tx: Db = db): Promise<{ rows: SubscriptionWire[]; total: number }> {
      const where = and(
        PLAN_WHERE[query.plan],
        query.overPlan === undefined ? undefined : query.overPlan ? sql`${r.overageGb} > 0` : sql`${r.overageGb} = 0`,
        query.search ? sql`${r.searchText} LIKE ${`%${escapeLike(query.search)}%`}` : undefined,
      );
      const total = await countOf(query, summary, where, tx);
      const offset = (query.page - 1) * query.limit;
      if (offset >= total) return { rows: [], total };
      // OFFSET walks every row it skips: a page in the back half is read from the far end in the
      // mirrored order (the same index backwards) and turned round.
      const fromEnd = offset * 2 > total;
      const order = fromEnd
        ? [asc(r.overageGb), sql`${r.serviceLineNumber} COLLATE "C" DESC`, sql`${r.userTerminalId} COLLATE "C" DESC`]
        : [desc(r.overageGb), sql`${r.serviceLineNumber} COLLATE "C"`, sql`${r.userTerminalId} COLLATE "C"`];
      const limit = Math.min(query.limit, total - offset);
      const rows = await tx
        .select({ wire: r.wire, accountId: r.accountId, accountName: providerAccounts.name })
        .from(r)
        .leftJoin(providerAccounts, eq(providerAccounts.id, r.accountId))
        .where(and(where, query.accountId === undefined ? undefined : eq(r.accountId, query.accountId)))
        .orderBy(...order)
        .limit(limit)
        .offset(fromEnd ? total - offset - limit : offset);
      if (fromEnd) rows.reverse();
      return { rows: rows.map((row) => ({ ...(row.wire as SubscriptionWire), accountId: row.accountId, accountName: row.accountName })), total };
    },

    /** The products one provider account still lists, cheapest first (each account prices its own). */
    async liveProducts(accountId: number, tx: Db = db): Promise<StoredProduct[]> {
      return tx
        .select(productColumns)
        .from(p)
        .where(and(eq(p.accountId, accountId), isNull(p.removedAt)))
        .orderBy(sql`${p.price} ASC NULLS LAST`, asc(p.name));
    },

    /**
     * A product one account still lists: the account a line or activation lives under, whose own
     * products alone it may take (two accounts list the same reference at their own prices).
     */
    async findLiveProduct(productReferenceId: string, accountId: number, tx: Db = db): Promise<StoredProduct | null> {
      const [row] = await tx
        .select(productColumns)
        .from(p)
        .where(and(eq(p.accountId, accountId), eq(p.productReferenceId, productReferenceId), isNull(p.removedAt)));
      return row ?? null;
    },

    /**
     * The provider accepted the change: the line's product, its live terminals' plan, product and
     * data cap, and the current cycle's limit (until the next usage sync reads the provider's).
     */
    async applyPlanChange(change: PlanChange, tx: Db): Promise<void> {
      const { serviceLineNumber: line, product, monthlyDataGB, today, at } = change;
      await tx.update(serviceLines).set({ productReferenceId: product.productReferenceId }).where(eq(serviceLines.serviceLineNumber, line));
      await tx
        .update(t)
        .set({
          plan: product.name,
          productReferenceId: product.productReferenceId,
          dataCapAmount: monthlyDataGB,
          dataCapUnit: 'GB',
          dataCapUpdatedAt: at,
          updatedAt: at,
        })
        .where(and(eq(t.serviceLineNumber, line), isNull(t.removedAt)));
      await tx
        .update(u)
        .set({ usageLimitGb: monthlyDataGB })
        .where(and(eq(u.serviceLineNumber, line), lte(u.cycleStart, today), gte(u.cycleEnd, today)));
    },
  };
}
