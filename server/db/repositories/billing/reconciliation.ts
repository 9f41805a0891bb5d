// What the reconciliation board reads of a cycle — the provider's imported invoices,
// the lines that had service, the statements' items, who holds each line, the provider's own
// prices — and the resolutions it writes. Each read is one statement over the whole cycle: the
// board is worked out in the service from these sets. A board is one provider account's: what
// the provider charges is read under that account; what the statements bill is read whole (a
// statement may bill lines of several accounts), each item naming its line's account.
import { inArray, sql } from 'drizzle-orm';
import type { ProductPeriod } from '../../../../src/domain/billing';
import { bool } from '../values';
import type { Db } from '../../client';
import { billingLeakResolutions, customers } from '../../schema';
import { rowsOf } from '../results';

export type ReconciliationRepository = ReturnType<typeof createReconciliationRepository>;

/** A bigint (or numeric) column read as text: exact, then a JS number only when it is safe. */
const whole = (value: unknown): number => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`Not a whole number of minor units: ${String(value)}`);
  return n;
};
const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const msToIso = (value: unknown): string | null => (value === null || value === undefined ? null : new Date(Number(value)).toISOString());
const parseJson = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));

export interface CycleInvoice {
  invoiceId: string;
  currency: string;
  amountMinor: number;
  status: string | null;
  invoiceDate: string | null;
}

export interface CycleInvoiceLine {
  invoiceId: string;
  position: number;
  productReferenceId: string | null;
  description: string | null;
  serviceLineNumber: string | null;
  /** The provider's quantity for the whole invoice line, as a decimal. */
  quantity: string | null;
  amountMinor: number;
  /** Whether service_lines has the line at all (removed or not). */
  known: boolean;
}

/** A line as the board needs it: its state now and what billing knows of it in the cycle. */
export interface BoardLine {
  serviceLineNumber: string;
  productReferenceId: string | null;
  active: boolean;
  removed: boolean;
  startDate: string | null;
  endDate: string | null;
  periods: ProductPeriod[];
  /** The cycle's overage GB, a decimal ('0' when none). */
  overageGb: string;
  topUpBlocks: number;
}

export interface CycleStatement {
  id: string;
  customerId: string;
  currency: string;
  status: string;
  totalMinor: number;
  discountMinor: number;
}

export interface CycleStatementItem {
  statementId: string;
  customerId: string;
  currency: string;
  /** The provider account of the item's line; null when the inventory never had the line. */
  accountId: number | null;
  kind: string;
  serviceLineNumber: string | null;
  productReferenceId: string | null;
  quantity: string;
  amountMinor: number;
}

export interface BoardCustomer {
  id: string;
  name: string;
  blocked: boolean;
  expiresAt: Date | null;
  deleted: boolean;
}

export interface ProviderProductRow {
  productReferenceId: string;
  name: string;
  /** The provider's monthly price as it sent it (a decimal), or null. */
  price: string | null;
  currency: string | null;
  raw: unknown;
  removed: boolean;
}

export interface LeakResolutionRow {
  kind: string;
  key: string;
  action: string;
  note: string | null;
  at: Date;
  by: string | null;
}

export function createReconciliationRepository(db: Db) {
  return {
    transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /** One account's imported invoices of a cycle, newest first. */
    async invoicesOf(cycle: string, accountId: number, tx: Db = db): Promise<CycleInvoice[]> {
      const result = await tx.execute(sql`
        SELECT invoice_id, currency, amount_minor::text AS amount_minor, status, (extract(epoch FROM invoice_date) * 1000)::float8 AS invoice_ms
        FROM provider_invoices WHERE cycle = ${cycle} AND account_id = ${accountId} ORDER BY invoice_date DESC NULLS LAST, invoice_id`);
      return rowsOf<Record<string, unknown>>(result).map((r) => ({
        invoiceId: String(r.invoice_id),
        currency: String(r.currency),
        amountMinor: whole(r.amount_minor),
        status: textOrNull(r.status),
        invoiceDate: msToIso(r.invoice_ms),
      }));
    },

    /**
     * The lines of one account's invoices of a cycle in one currency, in invoice and position
     * order; a line is known when the account's inventory has it (another account's line of the
     * same number is not this invoice's).
     */
    async invoiceLinesOf(cycle: string, currency: string, accountId: number, tx: Db = db): Promise<CycleInvoiceLine[]> {
      const result = await tx.execute(sql`
        SELECT il.invoice_id, il.position, il.product_reference_id, il.description, il.service_line_number,
               il.quantity::text AS quantity, il.amount_minor::text AS amount_minor,
               EXISTS (SELECT 1 FROM service_lines l WHERE l.service_line_number = il.service_line_number AND l.account_id = ${accountId}) AS known
        FROM provider_invoice_lines il JOIN provider_invoices i ON i.invoice_id = il.invoice_id
        WHERE i.cycle = ${cycle} AND i.currency = ${currency} AND i.account_id = ${accountId}
        ORDER BY il.invoice_id, il.position`);
      return rowsOf<Record<string, unknown>>(result).map((r) => ({
        invoiceId: String(r.invoice_id),
        position: Number(r.position),
        productReferenceId: textOrNull(r.product_reference_id),
        description: textOrNull(r.description),
        serviceLineNumber: textOrNull(r.service_line_number),
        quantity: textOrNull(r.quantity),
        amountMinor: whole(r.amount_minor),
        known: bool(r.known),
      }));
    },

    /**
     * The inventory's lines that may have had service in the cycle [start, end): started before
     * its end (or no start known on an active line), not ended before it began, and not removed
     * from the inventory before it began; one account's.
     */
    async servedLineNumbers(start: string, end: string, accountId: number, tx: Db = db): Promise<string[]> {
      const result = await tx.execute(sql`
        SELECT service_line_number FROM service_lines
        WHERE account_id = ${accountId}
          AND (start_date < ${end}::timestamptz OR (start_date IS NULL AND active))
          AND (end_date IS NULL OR end_date >= ${start}::timestamptz)
          AND (removed_at IS NULL OR removed_at >= ${start}::timestamptz)
        ORDER BY service_line_number`);
      return rowsOf<{ service_line_number: string }>(result).map((r) => r.service_line_number);
    },

    /** These lines (those service_lines has), with their periods, overage and top-ups of the cycle. */
    async lines(numbers: readonly string[], cycle: string, start: string, end: string, tx: Db = db): Promise<BoardLine[]> {
      if (numbers.length === 0) return [];
      const result = await tx.execute(sql`
        SELECT l.service_line_number, l.product_reference_id, l.active, (l.removed_at IS NOT NULL) AS removed,
               (extract(epoch FROM l.start_date) * 1000)::float8 AS start_ms, (extract(epoch FROM l.end_date) * 1000)::float8 AS end_ms,
               coalesce(u.overage_gb, 0)::text AS overage_gb,
               coalesce(t.one_time_blocks + t.opt_in_blocks, 0) AS top_up_blocks,
               p.periods
        FROM service_lines l
        JOIN unnest(${sql.param([...numbers])}::text[]) AS w(line) ON w.line = l.service_line_number
        LEFT JOIN billing_line_top_ups t ON t.service_line_number = l.service_line_number AND t.cycle = ${cycle}
        LEFT JOIN LATERAL (
          SELECT c.overage_gb FROM service_line_usage_cycles c
          WHERE c.service_line_number = l.service_line_number AND c.cycle_start >= ${start}::date AND c.cycle_start < ${end}::date
          ORDER BY c.cycle_start DESC LIMIT 1) u ON true
        LEFT JOIN LATERAL (
          SELECT coalesce(json_agg(json_build_object(
                   'product', s.product_reference_id,
                   'start', (extract(epoch FROM s.period_start) * 1000)::float8,
                   'end', (extract(epoch FROM s.period_end) * 1000)::float8) ORDER BY s.period_start), '[]'::json) AS periods
          FROM service_line_periods s
          WHERE s.service_line_number = l.service_line_number AND s.period_start < ${end}::timestamptz AND s.period_end > ${start}::timestamptz) p ON true
        ORDER BY l.service_line_number`);
      return rowsOf<Record<string, unknown>>(result).map((r) => ({
        serviceLineNumber: String(r.service_line_number),
        productReferenceId: textOrNull(r.product_reference_id),
        active: bool(r.active),
        removed: bool(r.removed),
        startDate: msToIso(r.start_ms),
        endDate: msToIso(r.end_ms),
        periods: parseJson<{ product: string; start: number; end: number }[]>(r.periods).map((p) => ({
          productReferenceId: p.product,
          start: new Date(p.start).toISOString(),
          end: new Date(p.end).toISOString(),
        })),
        overageGb: String(r.overage_gb),
        topUpBlocks: Number(r.top_up_blocks),
      }));
    },

    /** The cycle's statements, in every currency. */
    async statementsOf(cycle: string, tx: Db = db): Promise<CycleStatement[]> {
      const result = await tx.execute(sql`
        SELECT id::text AS id, customer_id::text AS customer_id, currency, status, total_minor::text AS total_minor, discount_minor::text AS discount_minor
        FROM billing_statements WHERE cycle = ${cycle} ORDER BY id`);
      return rowsOf<Record<string, unknown>>(result).map((r) => ({
        id: String(r.id),
        customerId: String(r.customer_id),
        currency: String(r.currency),
        status: String(r.status),
        totalMinor: whole(r.total_minor),
        discountMinor: whole(r.discount_minor),
      }));
    },

    /** Their items that bill a line (plan, overage, top-ups), in statement order, each with its line's account. */
    async lineItemsOf(cycle: string, tx: Db = db): Promise<CycleStatementItem[]> {
      const result = await tx.execute(sql`
        SELECT s.id::text AS statement_id, s.customer_id::text AS customer_id, s.currency, l.account_id, i.kind, i.service_line_number, i.product_reference_id,
               i.quantity::text AS quantity, i.amount_minor::text AS amount_minor
        FROM billing_statement_items i JOIN billing_statements s ON s.id = i.statement_id
        LEFT JOIN service_lines l ON l.service_line_number = i.service_line_number
        WHERE s.cycle = ${cycle} AND i.kind IN ('plan', 'overage', 'top_up')
        ORDER BY s.id, i.position`);
      return rowsOf<Record<string, unknown>>(result).map((r) => ({
        statementId: String(r.statement_id),
        customerId: String(r.customer_id),
        currency: String(r.currency),
        accountId: r.account_id === null || r.account_id === undefined ? null : Number(r.account_id),
        kind: String(r.kind),
        serviceLineNumber: textOrNull(r.service_line_number),
        productReferenceId: textOrNull(r.product_reference_id),
        quantity: String(r.quantity),
        amountMinor: whole(r.amount_minor),
      }));
    },

    /** Who holds each of these lines now: the customer of its first live terminal (by id) that is assigned. */
    async holders(numbers: readonly string[], tx: Db = db): Promise<Map<string, string>> {
      if (numbers.length === 0) return new Map();
      const result = await tx.execute(sql`
        SELECT DISTINCT ON (t.service_line_number) t.service_line_number, t.assigned_customer_id::text AS customer_id
        FROM terminals t JOIN unnest(${sql.param([...numbers])}::text[]) AS w(line) ON w.line = t.service_line_number
        WHERE t.removed_at IS NULL AND t.assigned_customer_id IS NOT NULL
        ORDER BY t.service_line_number, t.user_terminal_id`);
      return new Map(rowsOf<{ service_line_number: string; customer_id: string }>(result).map((r) => [r.service_line_number, r.customer_id]));
    },

    async customers(ids: readonly string[], tx: Db = db): Promise<Map<string, BoardCustomer>> {
      if (ids.length === 0) return new Map();
      const rows = await tx
        .select({ id: customers.id, name: customers.name, blocked: customers.blockedEnabled, expiresAt: customers.accountExpiresAt, deletedAt: customers.deletedAt })
        .from(customers)
        .where(inArray(customers.id, [...ids]));
      return new Map(rows.map((r) => [r.id, { id: r.id, name: r.name, blocked: r.blocked, expiresAt: r.expiresAt, deleted: r.deletedAt !== null }]));
    },

    /** Every product one account's provider has listed (removed ones still price the cycles they were on). */
    async providerProducts(accountId: number, tx: Db = db): Promise<ProviderProductRow[]> {
      const result = await tx.execute(sql`
        SELECT product_reference_id, name, price::text AS price, iso_currency_code, raw, (removed_at IS NOT NULL) AS removed
        FROM provider_products WHERE account_id = ${accountId} ORDER BY product_reference_id`);
      return rowsOf<Record<string, unknown>>(result).map((r) => ({
        productReferenceId: String(r.product_reference_id),
        name: String(r.name),
        price: textOrNull(r.price),
        currency: textOrNull(r.iso_currency_code),
        raw: parseJson<unknown>(r.raw),
        removed: bool(r.removed),
      }));
    },

    async resolutions(cycle: string, tx: Db = db): Promise<LeakResolutionRow[]> {
      const result = await tx.execute(sql`
        SELECT r.kind, r.leak_key, r.action, r.note, (extract(epoch FROM r.resolved_at) * 1000)::float8 AS at_ms, u.name AS by_name
        FROM billing_leak_resolutions r LEFT JOIN users u ON u.id = r.resolved_by
        WHERE r.cycle = ${cycle}`);
      return rowsOf<Record<string, unknown>>(result).map((r) => ({
        kind: String(r.kind),
        key: String(r.leak_key),
        action: String(r.action),
        note: textOrNull(r.note),
        at: new Date(Number(r.at_ms)),
        by: textOrNull(r.by_name),
      }));
    },

    /** Records what was done about a leak; false when it already had a resolution. */
    async insertResolution(row: { cycle: string; kind: string; key: string; action: string; note: string | null; by: string | null; at: Date }, tx: Db = db): Promise<boolean> {
      const inserted = await tx
        .insert(billingLeakResolutions)
        .values({ cycle: row.cycle, kind: row.kind, leakKey: row.key, action: row.action, note: row.note, resolvedBy: row.by, resolvedAt: row.at })
        .onConflictDoNothing()
        .returning({ key: billingLeakResolutions.leakKey });
      return inserted.length > 0;
    },
  };
}
