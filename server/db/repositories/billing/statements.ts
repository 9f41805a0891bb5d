// Statements: what a cycle's statements are worked out from (each customer's service
// lines with their periods, overage and top-ups, the price list, the customer's own prices and
// pending corrections), the drafts and their lines as written, closing a cycle, and the reads of
// the statements pages, the customer's own and the CSV export.
//
// Set-based throughout: a batch of customers is one statement for its facts and one per kind of
// write, with every column sent as an array and turned back into rows by `unnest` (as the sync's
// writes do), so a fleet of 100,000 lines is a few statements per thousand customers. Values
// leave the database as text where the drivers differ (bigint, numeric, timestamps) and are read
// back here, so PGlite and PostgreSQL answer the same.
import { sql, type SQL } from 'drizzle-orm';
import { paymentStatusOf, type LineCycleFacts, type PendingAdjustment, type ProductPeriod, type StatementContent, type StatementItemKind, type StatementStatus, type StatementSummaryWire } from '../../../../src/domain/billing';
import type { Db } from '../../client';
import { rowsOf } from '../results';
import { column, int, intOrNull, isoText, jsonValue, str, PAID_ON_STATEMENT, bool } from '../values';

export type StatementsRepository = ReturnType<typeof createStatementsRepository>;

/** One lock number for every billing write: a refresh batch and a close never interleave, in any process. */
const BILLING_LOCK = 0x62696c6c;


/** A cycle's bounds as the queries take them: first day and the day after the last, and the same as instants. */
export interface CycleWindow {
  cycle: string;
  /** 'YYYY-MM-DD' */
  start: string;
  /** 'YYYY-MM-DD', exclusive. */
  end: string;
}

const startTs = (w: CycleWindow) => `${w.start}T00:00:00.000Z`;
const endTs = (w: CycleWindow) => `${w.end}T00:00:00.000Z`;

/** A service line a customer holds in the cycle, with what billing knows of it. */
/** A line a customer holds, with what billing knows of it in the cycle (overage as decimal text, '0' when none). */
export interface HeldLine extends LineCycleFacts {
  customerId: string;
  periods: ProductPeriod[];
  overageGb: string;
}

/** A draft or closed statement of a batch's customers, as a refresh compares it. */
export interface ExistingStatement {
  id: string;
  customerId: string;
  currency: string;
  status: StatementStatus;
  contentHash: string;
}

/** A statement's content to write, for one customer. */
export interface DraftWrite {
  customerId: string;
  content: StatementContent;
}

export interface StatementFilter {
  cycle: string | null;
  status: StatementStatus | null;
  customerId: string | null;
  search: string | null;
}

/** A statement as listed: its wire summary, with the customer's company and address beside it. */
export type StatementSummaryRow = StatementSummaryWire & { customerCompany: string | null; customerAddress: string | null };

export interface StatementItemRow {
  statementId: string;
  position: number;
  kind: StatementItemKind;
  serviceLineNumber: string | null;
  productReferenceId: string | null;
  description: string;
  periodStart: string | null;
  periodEnd: string | null;
  quantity: string;
  unitMinor: number | null;
  amountMinor: number;
  adjustmentId: string | null;
}

/**
 * A closed statement shows the customer as it was copied in when it closed; a draft shows the
 * customer as they are now.
 */
const SUMMARY_COLUMNS = sql`
  s.id::text AS id, s.number, s.customer_id::text AS customer_id,
  CASE WHEN s.status = 'closed' THEN coalesce(s.customer_name, c.name) ELSE c.name END AS customer_name,
  CASE WHEN s.status = 'closed' THEN coalesce(s.customer_email, c.email) ELSE c.email END AS customer_email,
  nullif(CASE WHEN s.status = 'closed' THEN s.customer_company ELSE c.company END, '') AS customer_company,
  CASE WHEN s.status = 'closed' THEN s.customer_address ELSE c.address END AS customer_address,
  s.cycle, s.currency, s.status, s.service_lines,
  s.subtotal_minor::text AS subtotal_minor, s.discount_minor::text AS discount_minor,
  s.adjustment_minor::text AS adjustment_minor, s.total_minor::text AS total_minor,
  ${isoText(sql`s.updated_at`)} AS updated_at, ${isoText(sql`s.closed_at`)} AS closed_at, s.due_on::text AS due_on,
  ${PAID_ON_STATEMENT}::text AS paid_minor`;

function toSummary(r: Record<string, unknown>): StatementSummaryRow {
  return {
    id: String(r.id),
    number: str(r.number),
    customerId: String(r.customer_id),
    customerName: String(r.customer_name ?? ''),
    customerEmail: String(r.customer_email ?? ''),
    customerCompany: str(r.customer_company),
    customerAddress: str(r.customer_address),
    cycle: String(r.cycle),
    currency: String(r.currency),
    status: r.status as StatementStatus,
    serviceLines: int(r.service_lines),
    subtotalMinor: int(r.subtotal_minor),
    discountMinor: int(r.discount_minor),
    adjustmentMinor: int(r.adjustment_minor),
    totalMinor: int(r.total_minor),
    updatedAt: String(r.updated_at),
    closedAt: str(r.closed_at),
    dueOn: str(r.due_on),
    paidMinor: int(r.paid_minor),
    amountDueMinor: Math.max(0, int(r.total_minor) - int(r.paid_minor)),
    paymentStatus: r.status === 'closed' ? paymentStatusOf(int(r.total_minor), int(r.paid_minor)) : null,
  };
}

const ITEM_COLUMNS = sql`
  i.statement_id::text AS statement_id, i.position, i.kind, i.service_line_number, i.product_reference_id, i.description,
  i.period_start::text AS period_start, i.period_end::text AS period_end, i.quantity::text AS quantity,
  i.unit_minor::text AS unit_minor, i.amount_minor::text AS amount_minor, i.adjustment_id::text AS adjustment_id`;

function toItem(r: Record<string, unknown>): StatementItemRow {
  return {
    statementId: String(r.statement_id),
    position: int(r.position),
    kind: r.kind as StatementItemKind,
    serviceLineNumber: str(r.service_line_number),
    productReferenceId: str(r.product_reference_id),
    description: String(r.description),
    periodStart: str(r.period_start),
    periodEnd: str(r.period_end),
    quantity: String(r.quantity),
    unitMinor: intOrNull(r.unit_minor),
    amountMinor: int(r.amount_minor),
    adjustmentId: str(r.adjustment_id),
  };
}

function filterWhere(filter: StatementFilter): SQL {
  const parts: SQL[] = [sql`true`];
  if (filter.cycle) parts.push(sql`s.cycle = ${filter.cycle}`);
  if (filter.status) parts.push(sql`s.status = ${filter.status}`);
  if (filter.customerId) parts.push(sql`s.customer_id = ${filter.customerId}::uuid`);
  if (filter.search) {
    const like = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    parts.push(sql`(lower(CASE WHEN s.status = 'closed' THEN coalesce(s.customer_name, c.name) ELSE c.name END) LIKE ${like}
      OR lower(CASE WHEN s.status = 'closed' THEN coalesce(s.customer_email, c.email) ELSE c.email END) LIKE ${like}
      OR lower(coalesce(s.number, '')) LIKE ${like})`);
  }
  return sql.join(parts, sql` AND `);
}

export function createStatementsRepository(db: Db) {
  async function items(statementIds: readonly string[], tx: Db = db): Promise<StatementItemRow[]> {
    if (statementIds.length === 0) return [];
    const result = await tx.execute(sql`
      SELECT ${ITEM_COLUMNS} FROM billing_statement_items i
      JOIN unnest(${sql.param([...statementIds])}::uuid[]) WITH ORDINALITY AS w(id, k) ON i.statement_id = w.id
      ORDER BY w.k, i.position`);
    return rowsOf<Record<string, unknown>>(result).map(toItem);
  }

  return {
    transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /** Held until the transaction ends: one billing write at a time across every process. */
    async lock(tx: Db): Promise<void> {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${BILLING_LOCK})`);
    },

    // ---- Cycles ---------------------------------------------------------------------------

    async cycleStatus(cycle: string, tx: Db = db): Promise<'open' | 'closed' | null> {
      const [row] = rowsOf<{ status: 'open' | 'closed' }>(await tx.execute(sql`SELECT status FROM billing_cycles WHERE cycle = ${cycle}`));
      return row?.status ?? null;
    },

    /** The cycle's row, made if missing, locked for the rest of the transaction; its status. */
    async holdCycle(cycle: string, tx: Db): Promise<'open' | 'closed'> {
      await tx.execute(sql`INSERT INTO billing_cycles (cycle) VALUES (${cycle}) ON CONFLICT (cycle) DO NOTHING`);
      const [row] = rowsOf<{ status: 'open' | 'closed' }>(await tx.execute(sql`SELECT status FROM billing_cycles WHERE cycle = ${cycle} FOR UPDATE`));
      return row?.status ?? 'open';
    },

    async markRefreshed(cycle: string, at: Date, tx: Db = db): Promise<void> {
      await tx.execute(sql`
        INSERT INTO billing_cycles (cycle, refreshed_at) VALUES (${cycle}, ${at.toISOString()}::timestamptz)
        ON CONFLICT (cycle) DO UPDATE SET refreshed_at = EXCLUDED.refreshed_at WHERE billing_cycles.status = 'open'`);
    },

    /** When the cycle's drafts were last worked out (null: never). */
    async refreshedAt(cycle: string, tx: Db = db): Promise<Date | null> {
      const [row] = rowsOf<{ at: string | null }>(await tx.execute(sql`SELECT ${isoText(sql`refreshed_at`)} AS at FROM billing_cycles WHERE cycle = ${cycle}`));
      return row?.at ? new Date(row.at) : null;
    },

    /** Cycles before `cycle` that billing worked on and did not close (a server down at the month's turn). */
    async openCyclesBefore(cycle: string, tx: Db = db): Promise<string[]> {
      return rowsOf<{ cycle: string }>(await tx.execute(sql`SELECT cycle FROM billing_cycles WHERE status = 'open' AND cycle < ${cycle} ORDER BY cycle`)).map((r) => r.cycle);
    },

    /**
     * What a cycle must have before it closes on its own: a price from the list in effect on its
     * first day, and a usage sync that started after it ended (its final usage is in).
     */
    async readyToClose(window: CycleWindow, tx: Db = db): Promise<{ priced: boolean; usageSynced: boolean }> {
      const [row] = rowsOf<{ priced: boolean | string; usage_synced: boolean | string }>(
        await tx.execute(sql`
          SELECT EXISTS (SELECT 1 FROM billing_prices WHERE effective_from <= ${window.start}::date) AS priced,
                 EXISTS (SELECT 1 FROM sync_runs WHERE kind = 'usage' AND status = 'succeeded'
                         AND started_at >= ${endTs(window)}::timestamptz) AS usage_synced`),
      );
      return { priced: bool(row?.priced), usageSynced: bool(row?.usage_synced) };
    },

    // ---- Before a refresh: top-ups and partial periods -------------------------------------

    /**
     * Copies the top-up blocks of up to `limit` lines after `after` (by number) into the cycle's
     * record, from the lines last synced within the cycle (a line synced after it describes the
     * next one). Answers the last line looked at, or null when none was left.
     */
    async snapshotTopUps(window: CycleWindow, after: string | null, limit: number, at: Date, tx: Db = db): Promise<string | null> {
      const result = await tx.execute(sql`
        WITH page AS (
          SELECT l.service_line_number, l.data_blocks, l.synced_at FROM service_lines l
          WHERE l.service_line_number > ${after ?? ''}
          ORDER BY l.service_line_number LIMIT ${limit}
        ),
        counted AS (
          SELECT p.service_line_number,
                 (SELECT coalesce(sum(greatest(0, round((b ->> 'count')::numeric))), 0)::int
                  FROM jsonb_array_elements(CASE WHEN jsonb_typeof(p.data_blocks -> 'topUpBlocksOneTimePurchase') = 'array'
                                                 THEN p.data_blocks -> 'topUpBlocksOneTimePurchase' ELSE '[]'::jsonb END) b) AS one_time,
                 (SELECT coalesce(sum(greatest(0, round((b ->> 'count')::numeric))), 0)::int
                  FROM jsonb_array_elements(CASE WHEN jsonb_typeof(p.data_blocks -> 'topUpBlocksOptInPurchase') = 'array'
                                                 THEN p.data_blocks -> 'topUpBlocksOptInPurchase' ELSE '[]'::jsonb END) b) AS opt_in
          FROM page p
          WHERE p.synced_at >= ${startTs(window)}::timestamptz AND p.synced_at < ${endTs(window)}::timestamptz
        ),
        written AS (
          INSERT INTO billing_line_top_ups (service_line_number, cycle, one_time_blocks, opt_in_blocks, recorded_at)
          SELECT c.service_line_number, ${window.cycle}, c.one_time, c.opt_in, ${at.toISOString()}::timestamptz FROM counted c
          WHERE c.one_time + c.opt_in > 0
             OR EXISTS (SELECT 1 FROM billing_line_top_ups t WHERE t.service_line_number = c.service_line_number AND t.cycle = ${window.cycle})
          ON CONFLICT (service_line_number, cycle) DO UPDATE SET
            one_time_blocks = EXCLUDED.one_time_blocks, opt_in_blocks = EXCLUDED.opt_in_blocks, recorded_at = EXCLUDED.recorded_at
          WHERE (billing_line_top_ups.one_time_blocks, billing_line_top_ups.opt_in_blocks) IS DISTINCT FROM (EXCLUDED.one_time_blocks, EXCLUDED.opt_in_blocks)
          RETURNING 1
        )
        SELECT max(service_line_number) AS last, (SELECT count(*) FROM written)::int AS written FROM page`);
      const [row] = rowsOf<{ last: string | null }>(result);
      return row?.last ?? null;
    },

    /** Checks of lines gone from the inventory are dropped: the provider no longer answers for them. */
    async dropOrphanPeriodChecks(tx: Db = db): Promise<void> {
      await tx.execute(sql`
        DELETE FROM billing_period_checks c WHERE NOT EXISTS (
          SELECT 1 FROM service_lines l WHERE l.service_line_number = c.service_line_number AND l.removed_at IS NULL)`);
    },

    /** The oldest marked lines, with the mark as text (compared again when it is taken off). */
    async periodChecks(limit: number, tx: Db = db): Promise<{ serviceLineNumber: string; mark: string }[]> {
      const result = await tx.execute(sql`SELECT service_line_number, marked_at::text AS mark FROM billing_period_checks ORDER BY marked_at, service_line_number LIMIT ${limit}`);
      return rowsOf<{ service_line_number: string; mark: string }>(result).map((r) => ({ serviceLineNumber: r.service_line_number, mark: String(r.mark) }));
    },

    /** The line's periods replaced by the provider's; its check taken off unless it was marked again meanwhile. */
    async replacePeriods(serviceLineNumber: string, mark: string, periods: readonly ProductPeriod[], at: Date, tx: Db): Promise<void> {
      await tx.execute(sql`DELETE FROM service_line_periods WHERE service_line_number = ${serviceLineNumber}`);
      if (periods.length > 0) {
        await tx.execute(sql`
          INSERT INTO service_line_periods (service_line_number, period_start, period_end, product_reference_id, fetched_at)
          SELECT ${serviceLineNumber}, u.start_at::timestamptz, u.end_at::timestamptz, u.product, ${at.toISOString()}::timestamptz
          FROM unnest(${column(periods, (p) => p.start)}::text[], ${column(periods, (p) => p.end)}::text[], ${column(periods, (p) => p.productReferenceId)}::text[])
            AS u(start_at, end_at, product)
          ON CONFLICT (service_line_number, period_start) DO NOTHING`);
      }
      await tx.execute(sql`DELETE FROM billing_period_checks WHERE service_line_number = ${serviceLineNumber} AND marked_at::text = ${mark}`);
    },

    // ---- The facts of a batch --------------------------------------------------------------

    /** Live customers after `after` by id, `limit` of them: the refresh's keyset. */
    async customerPage(after: string | null, limit: number, tx: Db = db): Promise<string[]> {
      const result = await tx.execute(sql`
        SELECT id::text AS id FROM customers
        WHERE deleted_at IS NULL AND (${after}::uuid IS NULL OR id > ${after}::uuid)
        ORDER BY id LIMIT ${limit}`);
      return rowsOf<{ id: string }>(result).map((r) => r.id);
    },

    /**
     * The lines the customers hold that had service in the cycle: a line is held by the customer
     * of its first live assigned terminal (by terminal id); it had service when it started before
     * the cycle ended, had not ended before it began, and was not gone from the inventory before
     * it began. With the line's periods of the cycle, its overage (the cycle that started in the
     * month) and the top-ups copied for the cycle.
     */
    async heldLines(customerIds: readonly string[], window: CycleWindow, tx: Db = db): Promise<HeldLine[]> {
      if (customerIds.length === 0) return [];
      const from = startTs(window);
      const until = endTs(window);
      const result = await tx.execute(sql`
        WITH batch AS (SELECT unnest(${sql.param([...customerIds])}::uuid[]) AS customer_id),
        candidate AS (
          SELECT DISTINCT t.service_line_number AS line
          FROM batch b JOIN terminals t ON t.assigned_customer_id = b.customer_id
          WHERE t.removed_at IS NULL AND t.service_line_number IS NOT NULL
        ),
        held AS (
          SELECT c.line, h.customer_id FROM candidate c
          CROSS JOIN LATERAL (
            SELECT t.assigned_customer_id AS customer_id FROM terminals t
            WHERE t.service_line_number = c.line AND t.removed_at IS NULL AND t.assigned_customer_id IS NOT NULL
            ORDER BY t.user_terminal_id LIMIT 1) h
        )
        SELECT h.customer_id::text AS customer_id, l.service_line_number AS line, l.product_reference_id AS product,
               ${isoText(sql`l.start_date`)} AS start_date, ${isoText(sql`l.end_date`)} AS end_date,
               coalesce((SELECT u.overage_gb::text FROM service_line_usage_cycles u
                         WHERE u.service_line_number = l.service_line_number
                           AND u.cycle_start >= ${window.start}::date AND u.cycle_start < ${window.end}::date
                         ORDER BY u.cycle_start DESC LIMIT 1), '0') AS overage_gb,
               coalesce((SELECT tu.one_time_blocks + tu.opt_in_blocks FROM billing_line_top_ups tu
                         WHERE tu.service_line_number = l.service_line_number AND tu.cycle = ${window.cycle}), 0) AS top_up_blocks,
               (SELECT coalesce(json_agg(json_build_object(
                         'productReferenceId', p.product_reference_id,
                         'start', ${isoText(sql`p.period_start`)},
                         'end', ${isoText(sql`p.period_end`)}) ORDER BY p.period_start), '[]'::json)
                FROM service_line_periods p
                WHERE p.service_line_number = l.service_line_number
                  AND p.period_start < ${until}::timestamptz AND p.period_end > ${from}::timestamptz) AS periods
        FROM held h
        JOIN batch b ON b.customer_id = h.customer_id
        JOIN service_lines l ON l.service_line_number = h.line
        WHERE (l.removed_at IS NULL OR l.removed_at >= ${from}::timestamptz)
          AND (l.start_date IS NULL OR l.start_date < ${until}::timestamptz)
          AND (l.end_date IS NULL OR l.end_date >= ${from}::timestamptz)
        ORDER BY h.customer_id, l.service_line_number`);
      return rowsOf<Record<string, unknown>>(result).map((r) => ({
        customerId: String(r.customer_id),
        serviceLineNumber: String(r.line),
        productReferenceId: str(r.product),
        startDate: str(r.start_date),
        endDate: str(r.end_date),
        periods: jsonValue<ProductPeriod[]>(r.periods),
        overageGb: String(r.overage_gb ?? '0'),
        topUpBlocks: int(r.top_up_blocks),
      }));
    },

    async productNames(tx: Db = db): Promise<Map<string, string>> {
      const rows = rowsOf<{ id: string; name: string }>(await tx.execute(sql`SELECT product_reference_id AS id, name FROM provider_products`));
      return new Map(rows.map((r) => [r.id, r.name]));
    },

    /** Corrections not yet on a closed statement, oldest first. */
    async pendingAdjustments(customerIds: readonly string[], tx: Db = db): Promise<Map<string, PendingAdjustment[]>> {
      const byCustomer = new Map<string, PendingAdjustment[]>();
      if (customerIds.length === 0) return byCustomer;
      const result = await tx.execute(sql`
        SELECT a.id::text AS id, a.customer_id::text AS customer_id, a.currency, a.amount_minor::text AS amount, a.reason
        FROM billing_adjustments a JOIN unnest(${sql.param([...customerIds])}::uuid[]) AS b(id) ON a.customer_id = b.id
        WHERE a.applied_statement_id IS NULL
        ORDER BY a.customer_id, a.created_at, a.id`);
      for (const r of rowsOf<Record<string, unknown>>(result)) {
        const list = byCustomer.get(String(r.customer_id)) ?? [];
        list.push({ id: String(r.id), currency: String(r.currency), amountMinor: int(r.amount), reason: String(r.reason) });
        byCustomer.set(String(r.customer_id), list);
      }
      return byCustomer;
    },

    // ---- Writing drafts --------------------------------------------------------------------

    /** The cycle's statements of these customers, drafts and closed. */
    async statementsOf(customerIds: readonly string[], cycle: string, tx: Db): Promise<ExistingStatement[]> {
      if (customerIds.length === 0) return [];
      const result = await tx.execute(sql`
        SELECT s.id::text AS id, s.customer_id::text AS customer_id, s.currency, s.status, s.content_hash
        FROM billing_statements s JOIN unnest(${sql.param([...customerIds])}::uuid[]) AS b(id) ON s.customer_id = b.id
        WHERE s.cycle = ${cycle}`);
      return rowsOf<Record<string, unknown>>(result).map((r) => ({
        id: String(r.id),
        customerId: String(r.customer_id),
        currency: String(r.currency),
        status: r.status as StatementStatus,
        contentHash: String(r.content_hash),
      }));
    },

    /**
     * Writes drafts whose content changed (or that are new): the row upserted, its lines replaced.
     * A closed statement is never matched (its row keeps its content, and the guard of 0017 would
     * refuse anyway). Answers how many were written.
     */
    async writeDrafts(cycle: string, drafts: readonly DraftWrite[], at: Date, tx: Db): Promise<number> {
      if (drafts.length === 0) return 0;
      const result = await tx.execute(sql`
        INSERT INTO billing_statements (customer_id, cycle, currency, service_lines, subtotal_minor, discount_minor, adjustment_minor,
                                        total_minor, content_hash, updated_at)
        SELECT u.customer::uuid, ${cycle}, u.currency, u.lines::int, u.subtotal::bigint, u.discount::bigint, u.adjustment::bigint,
               u.total::bigint, u.hash, ${at.toISOString()}::timestamptz
        FROM unnest(${column(drafts, (d) => d.customerId)}::text[], ${column(drafts, (d) => d.content.currency)}::text[],
                    ${column(drafts, (d) => d.content.serviceLines)}::text[], ${column(drafts, (d) => d.content.subtotalMinor)}::text[],
                    ${column(drafts, (d) => d.content.discountMinor)}::text[], ${column(drafts, (d) => d.content.adjustmentMinor)}::text[],
                    ${column(drafts, (d) => d.content.totalMinor)}::text[], ${column(drafts, (d) => d.content.hash)}::text[])
          AS u(customer, currency, lines, subtotal, discount, adjustment, total, hash)
        ON CONFLICT (customer_id, cycle, currency) DO UPDATE SET
          service_lines = EXCLUDED.service_lines, subtotal_minor = EXCLUDED.subtotal_minor, discount_minor = EXCLUDED.discount_minor,
          adjustment_minor = EXCLUDED.adjustment_minor, total_minor = EXCLUDED.total_minor, content_hash = EXCLUDED.content_hash,
          updated_at = EXCLUDED.updated_at
        WHERE billing_statements.status = 'draft'
        RETURNING id::text AS id, customer_id::text AS customer_id, currency`);
      const written = rowsOf<{ id: string; customer_id: string; currency: string }>(result);
      if (written.length === 0) return 0;
      const idOf = new Map(written.map((w) => [`${w.customer_id}|${w.currency}`, w.id]));
      const items = drafts.flatMap((d) => {
        const id = idOf.get(`${d.customerId}|${d.content.currency}`);
        return id ? d.content.items.map((item, position) => ({ id, position, item })) : [];
      });
      await tx.execute(sql`DELETE FROM billing_statement_items WHERE statement_id = ANY(${sql.param(written.map((w) => w.id))}::uuid[])`);
      if (items.length > 0) {
        await tx.execute(sql`
          INSERT INTO billing_statement_items (statement_id, position, kind, service_line_number, product_reference_id, description,
                                               period_start, period_end, quantity, unit_minor, amount_minor, adjustment_id)
          SELECT u.statement::uuid, u.position::int, u.kind, u.line, u.product, u.description, u.period_start::date, u.period_end::date,
                 u.quantity::numeric, u.unit::bigint, u.amount::bigint, u.adjustment::uuid
          FROM unnest(${column(items, (r) => r.id)}::text[], ${column(items, (r) => r.position)}::text[], ${column(items, (r) => r.item.kind)}::text[],
                      ${column(items, (r) => r.item.serviceLineNumber)}::text[], ${column(items, (r) => r.item.productReferenceId)}::text[],
                      ${column(items, (r) => r.item.description)}::text[], ${column(items, (r) => r.item.periodStart)}::text[],
                      ${column(items, (r) => r.item.periodEnd)}::text[], ${column(items, (r) => r.item.quantity)}::text[],
                      ${column(items, (r) => r.item.unitMinor)}::text[], ${column(items, (r) => r.item.amountMinor)}::text[],
                      ${column(items, (r) => r.item.adjustmentId)}::text[])
            AS u(statement, position, kind, line, product, description, period_start, period_end, quantity, unit, amount, adjustment)`);
      }
      return written.length;
    },

    /**
     * Drafts no longer produced, gone: deleted, or emptied when a correction names them (their
     * row must stay for it). Answers how many changed.
     */
    async dropDrafts(ids: readonly string[], at: Date, tx: Db): Promise<number> {
      if (ids.length === 0) return 0;
      const list = sql.param([...ids]);
      const deleted = rowsOf(
        await tx.execute(sql`
          DELETE FROM billing_statements s
          WHERE s.id = ANY(${list}::uuid[]) AND s.status = 'draft'
            AND NOT EXISTS (SELECT 1 FROM billing_adjustments a WHERE a.against_statement_id = s.id OR a.applied_statement_id = s.id)
          RETURNING 1`),
      ).length;
      const emptied = rowsOf(
        await tx.execute(sql`
          UPDATE billing_statements s SET service_lines = 0, subtotal_minor = 0, discount_minor = 0, adjustment_minor = 0, total_minor = 0,
                 content_hash = '', updated_at = ${at.toISOString()}::timestamptz
          WHERE s.id = ANY(${list}::uuid[]) AND s.status = 'draft' AND s.content_hash <> ''
          RETURNING s.id`),
      ).length;
      if (emptied > 0) await tx.execute(sql`DELETE FROM billing_statement_items i USING billing_statements s WHERE i.statement_id = s.id AND s.id = ANY(${list}::uuid[]) AND s.status = 'draft'`);
      return deleted + emptied;
    },

    /** The drafts of the cycle whose customer was deleted: a deleted customer gets no statement. */
    async draftsOfDeletedCustomers(cycle: string, tx: Db): Promise<string[]> {
      const result = await tx.execute(sql`
        SELECT s.id::text AS id FROM billing_statements s JOIN customers c ON c.id = s.customer_id
        WHERE s.cycle = ${cycle} AND s.status = 'draft' AND c.deleted_at IS NOT NULL`);
      return rowsOf<{ id: string }>(result).map((r) => r.id);
    },

    async draftCount(cycle: string, tx: Db = db): Promise<number> {
      const [row] = rowsOf<{ n: number | string }>(await tx.execute(sql`SELECT count(*)::int AS n FROM billing_statements WHERE cycle = ${cycle} AND status = 'draft' AND content_hash <> ''`));
      return int(row?.n);
    },

    // ---- Closing ---------------------------------------------------------------------------

    /**
     * Corrections on the cycle's drafts that another statement took meanwhile (its cycle closed
     * between this one's refresh and its close): the drafts are stale and must be worked out again.
     */
    async takenAdjustments(cycle: string, tx: Db): Promise<number> {
      const [row] = rowsOf<{ n: number | string }>(
        await tx.execute(sql`
          SELECT count(*)::int AS n FROM billing_statement_items i
          JOIN billing_statements s ON s.id = i.statement_id
          JOIN billing_adjustments a ON a.id = i.adjustment_id
          WHERE s.cycle = ${cycle} AND s.status = 'draft' AND a.applied_statement_id IS NOT NULL`),
      );
      return int(row?.n);
    },

    /**
     * Every draft of the cycle with a number from the sequence, in the order of the customers'
     * names; the caller makes the number (statementNumber) and passes it to closeDrafts.
     */
    async numberDrafts(cycle: string, tx: Db): Promise<{ id: string; sequence: number }[]> {
      const result = await tx.execute(sql`
        SELECT d.id::text AS id, nextval('billing_statement_number_seq')::text AS sequence FROM (
          SELECT s.id FROM billing_statements s JOIN customers c ON c.id = s.customer_id
          WHERE s.cycle = ${cycle} AND s.status = 'draft' AND s.content_hash <> ''
          ORDER BY lower(c.name), c.id, s.currency) d`);
      return rowsOf<{ id: string; sequence: string }>(result).map((r) => ({ id: r.id, sequence: Number(r.sequence) }));
    },

    /** Closes the numbered drafts with the customer copied in; the emptied drafts of the cycle go. */
    async closeDrafts(cycle: string, numbered: readonly { id: string; number: string }[], at: Date, tx: Db): Promise<number> {
      await tx.execute(sql`
        DELETE FROM billing_statements s WHERE s.cycle = ${cycle} AND s.status = 'draft' AND s.content_hash = ''
          AND NOT EXISTS (SELECT 1 FROM billing_adjustments a WHERE a.against_statement_id = s.id OR a.applied_statement_id = s.id)`);
      if (numbered.length === 0) return 0;
      const result = await tx.execute(sql`
        UPDATE billing_statements s SET status = 'closed', number = u.number, closed_at = ${at.toISOString()}::timestamptz,
               updated_at = ${at.toISOString()}::timestamptz, customer_name = c.name, customer_email = c.email,
               customer_company = c.company, customer_address = c.address,
               due_on = (${at.toISOString()}::timestamptz AT TIME ZONE 'UTC')::date + c.payment_terms_days
        FROM unnest(${column(numbered, (n) => n.id)}::uuid[], ${column(numbered, (n) => n.number)}::text[]) AS u(id, number), customers c
        WHERE s.id = u.id AND c.id = s.customer_id AND s.status = 'draft'
        RETURNING s.id`);
      return rowsOf(result).length;
    },

    /** The corrections the cycle's closed statements carry, marked as applied to them. */
    async applyAdjustments(cycle: string, tx: Db): Promise<number> {
      const result = await tx.execute(sql`
        UPDATE billing_adjustments a SET applied_statement_id = i.statement_id
        FROM billing_statement_items i JOIN billing_statements s ON s.id = i.statement_id
        WHERE i.adjustment_id = a.id AND s.cycle = ${cycle} AND s.status = 'closed' AND a.applied_statement_id IS NULL
        RETURNING a.id`);
      return rowsOf(result).length;
    },

    async markClosed(cycle: string, at: Date, tx: Db): Promise<void> {
      await tx.execute(sql`UPDATE billing_cycles SET status = 'closed', closed_at = ${at.toISOString()}::timestamptz WHERE cycle = ${cycle}`);
    },

    /** The cycle's closed statements: how many and their total per currency. */
    async closedTotals(cycle: string, tx: Db = db): Promise<{ currency: string; statements: number; totalMinor: number }[]> {
      const result = await tx.execute(sql`
        SELECT currency, count(*)::int AS n, sum(total_minor)::text AS total FROM billing_statements
        WHERE cycle = ${cycle} AND status = 'closed' GROUP BY currency ORDER BY currency`);
      return rowsOf<Record<string, unknown>>(result).map((r) => ({ currency: String(r.currency), statements: int(r.n), totalMinor: int(r.total) }));
    },

    // ---- Reading -----------------------------------------------------------------------------

    async list(filter: StatementFilter, page: { offset: number; limit: number }, tx: Db = db): Promise<{ rows: StatementSummaryRow[]; total: number }> {
      const where = filterWhere(filter);
      const rows = await tx.execute(sql`
        SELECT ${SUMMARY_COLUMNS} FROM billing_statements s JOIN customers c ON c.id = s.customer_id
        WHERE ${where} AND s.content_hash <> ''
        ORDER BY s.cycle DESC, lower(CASE WHEN s.status = 'closed' THEN coalesce(s.customer_name, c.name) ELSE c.name END), s.customer_id, s.currency
        LIMIT ${page.limit} OFFSET ${page.offset}`);
      const [count] = rowsOf<{ n: number | string }>(
        await tx.execute(sql`SELECT count(*)::int AS n FROM billing_statements s JOIN customers c ON c.id = s.customer_id WHERE ${where} AND s.content_hash <> ''`),
      );
      return { rows: rowsOf<Record<string, unknown>>(rows).map(toSummary), total: int(count?.n) };
    },

    async totals(filter: StatementFilter, tx: Db = db): Promise<{ currency: string; statements: number; totalMinor: number }[]> {
      const result = await tx.execute(sql`
        SELECT s.currency, count(*)::int AS n, sum(s.total_minor)::text AS total
        FROM billing_statements s JOIN customers c ON c.id = s.customer_id
        WHERE ${filterWhere(filter)} AND s.content_hash <> ''
        GROUP BY s.currency ORDER BY s.currency`);
      return rowsOf<Record<string, unknown>>(result).map((r) => ({ currency: String(r.currency), statements: int(r.n), totalMinor: int(r.total) }));
    },

    /** Cycles with statements, newest first, with their status. */
    async cycles(tx: Db = db): Promise<{ cycle: string; status: 'open' | 'closed' }[]> {
      const result = await tx.execute(sql`
        SELECT s.cycle, coalesce(max(bc.status), 'open') AS status
        FROM (SELECT DISTINCT cycle FROM billing_statements WHERE content_hash <> '') s
        LEFT JOIN billing_cycles bc ON bc.cycle = s.cycle
        GROUP BY s.cycle ORDER BY s.cycle DESC`);
      return rowsOf<{ cycle: string; status: 'open' | 'closed' }>(result).map((r) => ({ cycle: r.cycle, status: r.status === 'closed' ? 'closed' : 'open' }));
    },

    /** One statement; with `customerId`, only when it is that customer's. */
    async byId(id: string, customerId: string | null, tx: Db = db): Promise<StatementSummaryRow | null> {
      const [row] = rowsOf<Record<string, unknown>>(
        await tx.execute(sql`
          SELECT ${SUMMARY_COLUMNS} FROM billing_statements s JOIN customers c ON c.id = s.customer_id
          WHERE s.id = ${id}::uuid AND s.content_hash <> '' AND (${customerId}::uuid IS NULL OR s.customer_id = ${customerId}::uuid)`),
      );
      return row ? toSummary(row) : null;
    },

    /** The lines of these statements, in the order given and by position. */
    items,

    /** A customer's statements, newest cycle first. */
    async ofCustomer(customerId: string, tx: Db = db): Promise<StatementSummaryRow[]> {
      const result = await tx.execute(sql`
        SELECT ${SUMMARY_COLUMNS} FROM billing_statements s JOIN customers c ON c.id = s.customer_id
        WHERE s.customer_id = ${customerId}::uuid AND s.content_hash <> ''
        ORDER BY s.cycle DESC, s.currency`);
      return rowsOf<Record<string, unknown>>(result).map(toSummary);
    },

    /**
     * A page of the export: up to `limit` statements after `after` in (customer, currency) order
     * (the unique index's order within a cycle), and their lines.
     */
    async exportPage(
      filter: StatementFilter,
      after: { customerId: string; currency: string } | null,
      limit: number,
      tx: Db = db,
    ): Promise<{ statements: StatementSummaryRow[]; items: StatementItemRow[] }> {
      const keyset = after ? sql`(s.customer_id, s.currency) > (${after.customerId}::uuid, ${after.currency})` : sql`true`;
      const result = await tx.execute(sql`
        SELECT ${SUMMARY_COLUMNS} FROM billing_statements s JOIN customers c ON c.id = s.customer_id
        WHERE ${filterWhere(filter)} AND s.content_hash <> '' AND ${keyset}
        ORDER BY s.customer_id, s.currency LIMIT ${limit}`);
      const statements = rowsOf<Record<string, unknown>>(result).map(toSummary);
      return { statements, items: await items(statements.map((s) => s.id), tx) };
    },
  };
}
