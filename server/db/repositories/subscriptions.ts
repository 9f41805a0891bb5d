// Subscriptions: every live terminal on a service line with its line's state, product, holder and
// the cycle containing a given day, in one statement; the page's stored rows (migration 0009),
// recomputed for the lines triggers marked (with the customers' usage rows of those lines, 0014)
// and paged in SQL, a read taking a person's few marked lines computed beside them without writing
// them; the products on offer; and the local side of a plan change the provider accepted (line,
// terminals and current cycle in one transaction).
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

/** A stored page row as a refresh writes it, and as a read of a marked line computes it (unwritten). */
function storedRowOf(row: SubscriptionRow, c: ComputedSubscription) {
  return {
    userTerminalId: row.userTerminalId,
    serviceLineNumber: row.serviceLineNumber,
    monthlyDataGb: c.monthlyDataGB,
    overageGb: c.overageGB,
    searchText: c.searchText,
    wire: c.wire,
    accountId: row.accountId,
  };
}

type StoredRow = ReturnType<typeof storedRowOf>;

/**
 * How a read takes the marked lines (subscription_dirty): up to `upTo` marks (a person's change: a
 * plan, an assignment, a small bulk run; a line marked twice counts twice) are computed by the read
 * from the tables and shown in place of their stored rows, written by nobody but the refresh; more
 * are a sync's worth, and the read answers from the stored rows alone, briefly behind.
 */
export interface MarkedLinesRead {
  today: IsoDay;
  compute: (row: SubscriptionRow) => ComputedSubscription;
  upTo: number;
}

/**
 * A person's few marked lines as a read sees them: the stored rows it covers (the lines' rows, and
 * the row of a terminal the lines now hold, kept under the line it came from) give way to the rows
 * computed now, exactly as a refresh of those lines would replace them.
 */
interface Overlay {
  covers: SQL;
  /** The computed rows as a relation with the table's columns. */
  rows: SQL;
}

function overlayOf(lines: readonly string[], fresh: readonly StoredRow[]): Overlay {
  const json = JSON.stringify(
    fresh.map((row) => ({
      user_terminal_id: row.userTerminalId,
      service_line_number: row.serviceLineNumber,
      monthly_data_gb: row.monthlyDataGb,
      overage_gb: row.overageGb,
      search_text: row.searchText,
      wire: row.wire,
      account_id: row.accountId,
    })),
  );
  return {
    covers: coveredBy(lines, fresh.map((row) => row.userTerminalId)),
    // The table's column types: the two branches of the UNION ALL below stay one relation.
    rows: sql`jsonb_to_recordset(${json}::jsonb) AS computed(user_terminal_id text, service_line_number text,
      monthly_data_gb numeric, overage_gb numeric, search_text text, wire jsonb, account_id integer)`,
  };
}

/**
 * The stored rows that computing `lines` replaces: every row of the lines, and the rows of the
 * terminals computed on them (one the provider moved keeps a row under its old line until then).
 * One array parameter each, planned as a constant.
 */
function coveredBy(lines: readonly string[], terminalIds: readonly string[]): SQL {
  return sql`(${r.serviceLineNumber} = ANY(${sql.param([...lines])}::text[]) OR ${r.userTerminalId} = ANY(${sql.param([...terminalIds])}::text[]))`;
}

/** The summary cards' figures over a set of rows (unqualified columns: the table's or the overlay's). */
const FIGURES = sql`count(*)::int AS total,
  (count(*) FILTER (WHERE monthly_data_gb = 50))::int AS p50,
  (count(*) FILTER (WHERE monthly_data_gb = ${GB_PER_TB}))::int AS p1tb,
  (count(*) FILTER (WHERE overage_gb > 0))::int AS over,
  coalesce(sum(overage_gb), 0) AS overage`;

/**
 * Changes the summary row by the figures of `rows` (sign 1 adds them, -1 takes them away), in the
 * transaction that writes those rows: the totals then equal the stored rows at every commit, so a
 * read can exchange some rows' figures for others' without counting the rest.
 */
function moveTotals(rows: SQL, sign: 1 | -1): SQL {
  const op = sign === 1 ? sql.raw('+') : sql.raw('-');
  return sql`
    UPDATE ${subscriptionTotals} s SET total = s.total ${op} d.total, plans_50gb = s.plans_50gb ${op} d.p50,
      plans_1tb = s.plans_1tb ${op} d.p1tb, overage_terminals = s.overage_terminals ${op} d.over,
      total_overage_gb = s.total_overage_gb ${op} d.overage
    FROM (SELECT ${FIGURES} FROM ${rows}) d
    WHERE s.id = 1`;
}

/**
 * The rows a page reads, filtered (`where` is written against the table's columns): the stored
 * ones, or with an overlay those it leaves and the overlay's. The filters stand outside the UNION
 * ALL, named as the table: a branch with a WHERE of its own is planned apart, and PostgreSQL then
 * sorted every stored row for a page instead of merging the few computed ones into the order
 * index's scan (24 ms a read at 20,000 terminals, against 1 ms).
 */
function sourceOf(where: SQL | undefined, overlay: Overlay | null): SQL {
  const columns = sql`user_terminal_id, service_line_number, overage_gb, wire, account_id`;
  if (!overlay) return sql`SELECT ${columns} FROM ${r} WHERE ${where ?? sql`true`}`;
  const all = sql`user_terminal_id, service_line_number, monthly_data_gb, overage_gb, search_text, wire, account_id`;
  return sql`
    SELECT ${columns}
    FROM (SELECT ${all}, ${overlay.covers} AS covered FROM ${r} UNION ALL SELECT ${all}, false FROM ${overlay.rows}) AS ${r}
    WHERE NOT covered AND ${where ?? sql`true`}`;
}

/** Rows matching: the totals already count the unfiltered set and each single plan or over-plan filter. */
async function countOf(query: SubscriptionPageQuery, summary: SubscriptionSummary, where: SQL | undefined, overlay: Overlay | null, tx: Db): Promise<number> {
  // The totals count every account's rows (`where` then holds the account): one account's are counted.
  if (!query.search && query.accountId === undefined) {
    if (query.overPlan === undefined) {
      if (query.plan === 'all') return summary.totalTerminals;
      if (query.plan === '50gb') return summary.plans50GB;
      if (query.plan === '1tb') return summary.plans1TB;
    } else if (query.plan === 'all') {
      return query.overPlan ? summary.overageTerminals : summary.totalTerminals - summary.overageTerminals;
    }
  }
  const [row] = rowsOf<{ n: number }>(await tx.execute(sql`SELECT count(*)::int AS n FROM (${sourceOf(where, overlay)}) matched`));
  return Number(row?.n ?? 0);
}

interface FiguresRow {
  total: number;
  plans_50gb: number;
  plans_1tb: number;
  overage_terminals: number;
  total_overage_gb: string | number;
}

function summaryOf(row: FiguresRow | undefined): SubscriptionSummary {
  return {
    totalTerminals: Number(row?.total ?? 0),
    plans50GB: Number(row?.plans_50gb ?? 0),
    plans1TB: Number(row?.plans_1tb ?? 0),
    overageTerminals: Number(row?.overage_terminals ?? 0),
    totalOverageGB: Math.round(Number(row?.total_overage_gb ?? 0) * 10) / 10,
  };
}

/** The summary as the stored rows stand, or with the overlay's rows in place of those it covers. */
async function summaryWith(overlay: Overlay | null, tx: Db): Promise<SubscriptionSummary> {
  const [row] = rowsOf<FiguresRow>(
    await tx.execute(
      overlay
        ? sql`
          SELECT s.total - o.total + f.total AS total, s.plans_50gb - o.p50 + f.p50 AS plans_50gb, s.plans_1tb - o.p1tb + f.p1tb AS plans_1tb,
            s.overage_terminals - o.over + f.over AS overage_terminals, (s.total_overage_gb - o.overage + f.overage)::text AS total_overage_gb
          FROM ${subscriptionTotals} s, (SELECT ${FIGURES} FROM ${r} WHERE ${overlay.covers}) o, (SELECT ${FIGURES} FROM ${overlay.rows}) f
          WHERE s.id = 1`
        : sql`SELECT total, plans_50gb, plans_1tb, overage_terminals, total_overage_gb::text AS total_overage_gb FROM ${subscriptionTotals} WHERE id = 1`,
    ),
  );
  return summaryOf(row);
}

/**
 * One page of rows in the page's order (the order index; with an overlay, the index and the few
 * computed rows merged), and how many rows match. A row names its account (stored with it, for the
 * Account filter's index); the account's name is read at read time, so a renamed account shows its
 * new name.
 */
async function pageOf(
  query: SubscriptionPageQuery,
  summary: SubscriptionSummary,
  overlay: Overlay | null,
  tx: Db,
): Promise<{ rows: SubscriptionWire[]; total: number }> {
  const where = and(
    PLAN_WHERE[query.plan],
    query.overPlan === undefined ? undefined : query.overPlan ? sql`${r.overageGb} > 0` : sql`${r.overageGb} = 0`,
    query.search ? sql`${r.searchText} LIKE ${`%${escapeLike(query.search)}%`}` : undefined,
    query.accountId === undefined ? undefined : eq(r.accountId, query.accountId),
  );
  const total = await countOf(query, summary, where, overlay, tx);
  const offset = (query.page - 1) * query.limit;
  if (offset >= total) return { rows: [], total };
  // OFFSET walks every row it skips: a page in the back half is read from the far end in the
  // mirrored order (the same index backwards) and turned round.
  const fromEnd = offset * 2 > total;
  const order = (of: string) => {
    const column = (name: string) => sql.raw(`${of}.${name}`);
    return fromEnd
      ? sql`${column('overage_gb')} ASC, ${column('service_line_number')} COLLATE "C" DESC, ${column('user_terminal_id')} COLLATE "C" DESC`
      : sql`${column('overage_gb')} DESC, ${column('service_line_number')} COLLATE "C", ${column('user_terminal_id')} COLLATE "C"`;
  };
  const limit = Math.min(query.limit, total - offset);
  const rows = rowsOf<{ wire: unknown; account_id: number | null; account_name: string | null }>(
    await tx.execute(sql`
      SELECT p.wire, p.account_id, a.name AS account_name
      FROM (
        SELECT * FROM (${sourceOf(where, overlay)}) matched
        ORDER BY ${order('matched')} LIMIT ${limit} OFFSET ${fromEnd ? total - offset - limit : offset}
      ) p
      LEFT JOIN ${providerAccounts} a ON a.id = p.account_id
      ORDER BY ${order('p')}`),
  );
  if (fromEnd) rows.reverse();
  return {
    rows: rows.map((row) => ({
      ...((typeof row.wire === 'string' ? JSON.parse(row.wire) : row.wire) as SubscriptionWire),
      accountId: row.account_id,
      accountName: row.account_name,
    })),
    total,
  };
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

  /**
   * The summary cards counted again over every stored row. Each refresh chunk keeps them equal to
   * the rows as it writes them (moveTotals); this puts right whatever an older server left. Under
   * the refresh's lock: a chunk committing while the count reads would be missed by it.
   */
  async function recountTotals(tx: Db = db): Promise<void> {
    const recount = async (rtx: Db) => {
      await rtx.execute(sql`SELECT pg_advisory_xact_lock(${REFRESH_LOCK_KEY})`);
      await rtx.execute(sql`
        UPDATE ${subscriptionTotals} s SET total = d.total, plans_50gb = d.p50, plans_1tb = d.p1tb,
          overage_terminals = d.over, total_overage_gb = d.overage
        FROM (SELECT ${FIGURES} FROM ${subscriptionRows}) d
        WHERE s.id = 1`);
    };
    await (tx === db ? db.transaction(recount) : recount(tx));
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
        const computed = (await subscriptionQuery(tx, today, inArray(t.serviceLineNumber, taken))).map((row) => storedRowOf(row, compute(row)));
        const keep = computed.map((row) => row.userTerminalId);
        // The summary follows the rows in this transaction: out go the figures of the lines' rows
        // no terminal keeps (as they are deleted) and of the rows about to be written over, in
        // those of the rows written. The rows written are found by their terminal, the key, never
        // by line as well: without the line column's statistics (a fresh table, no ANALYZE yet)
        // PostgreSQL planned "this chunk's lines or its terminals" as a scan of every stored row,
        // twice a chunk, and the first inventory run of 100,000 terminals took 411-470 s against
        // 302-354. The delete scans as it did before the summary moved with the rows.
        const written = sql`${r} WHERE ${r.userTerminalId} = ANY(${sql.param(keep)}::text[])`;
        await tx.execute(sql`
          WITH gone AS (
            DELETE FROM ${r}
            WHERE ${r.serviceLineNumber} = ANY(${sql.param(taken)}::text[]) AND NOT (${r.userTerminalId} = ANY(${sql.param(keep)}::text[]))
            RETURNING monthly_data_gb, overage_gb
          )
          ${moveTotals(sql`gone`, -1)}`);
        if (computed.length > 0) {
          await tx.execute(moveTotals(written, -1));
          await tx
            .insert(r)
            .values(computed)
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
          await tx.execute(moveTotals(written, 1));
        }
        await refreshCustomerUsageRows(tx, taken, today);
        return taken.length;
      });
    },

    async totals(tx: Db = db): Promise<SubscriptionSummary> {
      return summaryWith(null, tx);
    },

    /**
     * One page of the rows (search lowercased), how many match, and the summary cards, writing
     * nothing and waiting on no refresh. Without `marked` (no line is marked) the stored rows. With
     * it, a person's few marked lines (up to `upTo` marks) are computed here and shown in place of
     * their stored rows, the marks, the rows and the tables read in one snapshot: the page and the
     * cards are those a refresh of the lines will store. A sync's worth is answered from the stored
     * rows as they stand, none computed, `behind` saying so.
     */
    async list(
      query: SubscriptionPageQuery,
      marked: MarkedLinesRead | null,
      tx: Db = db,
    ): Promise<{ rows: SubscriptionWire[]; total: number; summary: SubscriptionSummary; behind: boolean }> {
      const marksOf = async (rtx: Db, upTo: number) =>
        rowsOf<{ line: string }>(await rtx.execute(sql`SELECT service_line_number AS line FROM ${subscriptionDirty} LIMIT ${upTo + 1}`)).map((mark) => mark.line);
      const read = async (rtx: Db, marks: string[]) => {
        let overlay: Overlay | null = null;
        if (marked && marks.length > 0) {
          const lines = [...new Set(marks)];
          const fresh = (await subscriptionQuery(rtx, marked.today, inArray(t.serviceLineNumber, lines))).map((row) => storedRowOf(row, marked.compute(row)));
          overlay = overlayOf(lines, fresh);
        }
        const summary = await summaryWith(overlay, rtx);
        return { ...(await pageOf(query, summary, overlay, rtx)), summary };
      };
      if (!marked) return { ...(await read(tx, [])), behind: false };
      // A sync's worth (the usual case while a sync writes) needs no snapshot of its own: the stored
      // rows and their cards are read as they stand, computing none.
      const seen = await marksOf(tx, marked.upTo);
      if (seen.length > marked.upTo) return { ...(await read(tx, [])), behind: true };
      if (seen.length === 0) return { ...(await read(tx, [])), behind: false };
      // A person's few: the marks, the rows and the tables they are computed from, in one snapshot.
      const few = async (rtx: Db) => {
        const marks = await marksOf(rtx, marked.upTo);
        return marks.length > marked.upTo ? { ...(await read(rtx, [])), behind: true } : { ...(await read(rtx, marks)), behind: false };
      };
      return tx === db ? db.transaction(few, { isolationLevel: 'repeatable read', accessMode: 'read only' }) : few(tx);
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
