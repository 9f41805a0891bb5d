// The customer ledger (0028): entries, the allocations that say which statements an entry paid,
// and what is read from them (open statements, balances, ageing). Append-only: the database
// refuses an UPDATE or DELETE of an entry or an allocation.
import { sql, type SQL } from 'drizzle-orm';
import type { AgeingRowWire, LedgerEntryKind, LedgerEntryWire, OpenItem, PaymentMethod } from '../../../../src/domain/ledger';
import type { Db } from '../../client';
import { rowsOf } from '../results';
import { column, int, isoText, str, PAID_ON_STATEMENT, bool } from '../values';

export type LedgerRepository = ReturnType<typeof createLedgerRepository>;

export interface NewLedgerEntry {
  customerId: string;
  currency: string;
  kind: LedgerEntryKind;
  amountMinor: number;
  occurredOn: string;
  method: PaymentMethod | null;
  reference: string | null;
  note: string | null;
  statementId: string | null;
  reversesId: string | null;
  bankLineId: string | null;
  createdBy: string | null;
}

export interface OpenStatementRow extends OpenItem {
  customerId: string;
  cycle: string;
  currency: string;
  totalMinor: number;
  paidMinor: number;
}

export interface LedgerFilter {
  customerId: string | null;
  currency: string | null;
  kinds: LedgerEntryKind[] | null;
}

/** Unpaid on each closed statement: its total less what is allocated to it. */
const OPEN_STATEMENTS = sql`
  SELECT s.id, s.customer_id, s.number, s.cycle, s.currency, s.due_on, s.total_minor,
         ${PAID_ON_STATEMENT} AS paid_minor
  FROM billing_statements s WHERE s.status = 'closed' AND s.total_minor > 0`;

const ENTRY_COLUMNS = sql`
  e.id::text AS id, e.customer_id::text AS customer_id, c.name AS customer_name, e.currency, e.kind,
  e.amount_minor::text AS amount_minor, e.occurred_on::text AS occurred_on, e.method, e.reference, e.note,
  e.statement_id::text AS statement_id, s.number AS statement_number, e.reverses_id::text AS reverses_id,
  (SELECT r.id::text FROM billing_ledger_entries r WHERE r.reverses_id = e.id) AS reversed_by_id,
  e.bank_line_id::text AS bank_line_id, ${isoText(sql`e.created_at`)} AS created_at, u.name AS created_by,
  coalesce((SELECT json_agg(json_build_object('statementId', a.statement_id::text, 'statementNumber', st.number, 'amountMinor', a.amount_minor) ORDER BY a.id)
            FROM billing_allocations a JOIN billing_statements st ON st.id = a.statement_id WHERE a.entry_id = e.id), '[]'::json) AS allocations`;

const ENTRY_FROM = sql`billing_ledger_entries e JOIN customers c ON c.id = e.customer_id
  LEFT JOIN billing_statements s ON s.id = e.statement_id LEFT JOIN users u ON u.id = e.created_by`;

function toEntry(r: Record<string, unknown>): LedgerEntryWire {
  const allocations = (typeof r.allocations === 'string' ? JSON.parse(r.allocations) : r.allocations) as { statementId: string; statementNumber: string | null; amountMinor: number | string }[];
  return {
    id: String(r.id),
    customerId: String(r.customer_id),
    customerName: String(r.customer_name ?? ''),
    currency: String(r.currency),
    kind: r.kind as LedgerEntryKind,
    amountMinor: int(r.amount_minor),
    occurredOn: String(r.occurred_on),
    method: str(r.method) as PaymentMethod | null,
    reference: str(r.reference),
    note: str(r.note),
    statementId: str(r.statement_id),
    statementNumber: str(r.statement_number),
    reversesId: str(r.reverses_id),
    reversedById: str(r.reversed_by_id),
    bankLineId: str(r.bank_line_id),
    allocations: allocations.map((a) => ({ statementId: a.statementId, statementNumber: a.statementNumber, amountMinor: int(a.amountMinor) })),
    createdAt: String(r.created_at),
    createdBy: str(r.created_by),
  };
}

const toOpen = (r: Record<string, unknown>): OpenStatementRow => ({
  statementId: String(r.id),
  customerId: String(r.customer_id),
  number: String(r.number ?? ''),
  cycle: String(r.cycle),
  currency: String(r.currency),
  dueOn: String(r.due_on),
  totalMinor: int(r.total_minor),
  paidMinor: int(r.paid_minor),
  openMinor: int(r.total_minor) - int(r.paid_minor),
});

function filterWhere(filter: LedgerFilter): SQL {
  const parts: SQL[] = [sql`true`];
  if (filter.customerId) parts.push(sql`e.customer_id = ${filter.customerId}::uuid`);
  if (filter.currency) parts.push(sql`e.currency = ${filter.currency}`);
  if (filter.kinds) parts.push(sql`e.kind = ANY(${sql.param(filter.kinds)}::text[])`);
  return sql.join(parts, sql` AND `);
}

export function createLedgerRepository(db: Db) {
  return {
    transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /**
     * Held until the transaction ends: one posting at a time for a customer, so two payments at
     * once cannot both pay the same open amount. Null when the customer does not exist.
     */
    async holdCustomer(customerId: string, tx: Db): Promise<{ id: string; name: string; company: string; email: string; paymentTermsDays: number } | null> {
      const [row] = rowsOf<Record<string, unknown>>(
        await tx.execute(sql`SELECT id::text AS id, name, company, email, payment_terms_days FROM customers WHERE id = ${customerId}::uuid AND deleted_at IS NULL FOR UPDATE`),
      );
      return row ? { id: String(row.id), name: String(row.name), company: String(row.company ?? ''), email: String(row.email), paymentTermsDays: int(row.payment_terms_days) } : null;
    },

    async insertEntry(entry: NewLedgerEntry, at: Date, tx: Db): Promise<string> {
      const [row] = rowsOf<{ id: string }>(
        await tx.execute(sql`
          INSERT INTO billing_ledger_entries (customer_id, currency, kind, amount_minor, occurred_on, method, reference, note, statement_id, reverses_id, bank_line_id, created_at, created_by)
          VALUES (${entry.customerId}::uuid, ${entry.currency}, ${entry.kind}, ${entry.amountMinor}, ${entry.occurredOn}::date, ${entry.method}, ${entry.reference}, ${entry.note},
                  ${entry.statementId}::uuid, ${entry.reversesId}::uuid, ${entry.bankLineId}::uuid, ${at.toISOString()}::timestamptz, ${entry.createdBy}::uuid)
          RETURNING id::text AS id`),
      );
      return row!.id;
    },

    async insertAllocations(entryId: string, allocations: readonly { statementId: string; amountMinor: number }[], at: Date, tx: Db): Promise<void> {
      if (allocations.length === 0) return;
      await tx.execute(sql`
        INSERT INTO billing_allocations (entry_id, statement_id, amount_minor, created_at)
        SELECT ${entryId}::uuid, u.statement_id, u.amount, ${at.toISOString()}::timestamptz
        FROM unnest(${column(allocations, (a) => a.statementId)}::uuid[], ${column(allocations, (a) => a.amountMinor)}::bigint[]) WITH ORDINALITY AS u(statement_id, amount, n)
        ORDER BY u.n`);
    },

    /** What an entry allocated, per statement (for a reversal to take back). */
    async allocationsOf(entryId: string, tx: Db = db): Promise<{ statementId: string; amountMinor: number }[]> {
      const result = await tx.execute(sql`
        SELECT statement_id::text AS statement_id, sum(amount_minor)::text AS amount FROM billing_allocations
        WHERE entry_id = ${entryId}::uuid GROUP BY statement_id HAVING sum(amount_minor) <> 0 ORDER BY min(id)`);
      return rowsOf<Record<string, unknown>>(result).map((r) => ({ statementId: String(r.statement_id), amountMinor: int(r.amount) }));
    },

    /**
     * Charges the closed statements that have none yet (a cycle just closed; ON CONFLICT: once
     * each). Answers the customers and currencies charged.
     */
    async chargeClosed(at: Date, tx: Db): Promise<{ customerId: string; currency: string }[]> {
      const result = await tx.execute(sql`
        INSERT INTO billing_ledger_entries (customer_id, currency, kind, amount_minor, occurred_on, statement_id, created_at)
        SELECT s.customer_id, s.currency, 'charge', s.total_minor, (s.closed_at AT TIME ZONE 'UTC')::date, s.id, ${at.toISOString()}::timestamptz
        FROM billing_statements s
        WHERE s.status = 'closed' AND NOT EXISTS (SELECT 1 FROM billing_ledger_entries e WHERE e.kind = 'charge' AND e.statement_id = s.id)
        ORDER BY s.closed_at, s.number
        ON CONFLICT DO NOTHING
        RETURNING customer_id::text AS customer_id, currency`);
      const seen = new Map<string, { customerId: string; currency: string }>();
      for (const r of rowsOf<{ customer_id: string; currency: string }>(result)) seen.set(`${r.customer_id}/${r.currency}`, { customerId: r.customer_id, currency: r.currency });
      return [...seen.values()];
    },

    /**
     * Of these customers and currencies, those that may hold credit: with a payment, credit note,
     * refund, reversal or a credit statement. The others (most, at a cycle's close) have none to spend.
     */
    async mayHoldCredit(pairs: readonly { customerId: string; currency: string }[], tx: Db = db): Promise<{ customerId: string; currency: string }[]> {
      if (pairs.length === 0) return [];
      const result = await tx.execute(sql`
        SELECT DISTINCT e.customer_id::text AS customer_id, e.currency
        FROM unnest(${column(pairs, (p) => p.customerId)}::uuid[], ${column(pairs, (p) => p.currency)}::text[]) AS u(customer_id, currency)
        JOIN billing_ledger_entries e ON e.customer_id = u.customer_id AND e.currency = u.currency AND (e.kind <> 'charge' OR e.amount_minor < 0)`);
      return rowsOf<{ customer_id: string; currency: string }>(result).map((r) => ({ customerId: r.customer_id, currency: r.currency }));
    },

    /** A customer's statements with something left to pay, in a currency (every currency: null). */
    async openStatements(customerId: string, currency: string | null, tx: Db = db): Promise<OpenStatementRow[]> {
      const result = await tx.execute(sql`
        SELECT * FROM (${OPEN_STATEMENTS} AND s.customer_id = ${customerId}::uuid AND (${currency}::text IS NULL OR s.currency = ${currency})) o
        WHERE o.total_minor > o.paid_minor ORDER BY o.due_on, o.number`);
      return rowsOf<Record<string, unknown>>(result).map(toOpen);
    },

    /** Open statements by number (the numbers a bank line's remittance names). */
    async openByNumbers(numbers: readonly string[], tx: Db = db): Promise<OpenStatementRow[]> {
      if (numbers.length === 0) return [];
      const result = await tx.execute(sql`
        SELECT * FROM (${OPEN_STATEMENTS} AND s.number = ANY(${sql.param([...numbers])}::text[])) o WHERE o.total_minor > o.paid_minor ORDER BY o.due_on, o.number`);
      return rowsOf<Record<string, unknown>>(result).map(toOpen);
    },

    /** Open statements whose unpaid amount is exactly `amountMinor`, with their customer's names (for matching a payer). */
    async openOfAmount(amountMinor: number, currency: string, tx: Db = db): Promise<(OpenStatementRow & { customerName: string; customerCompany: string })[]> {
      const result = await tx.execute(sql`
        SELECT o.*, c.name AS customer_name, c.company AS customer_company FROM (${OPEN_STATEMENTS} AND s.currency = ${currency}) o
        JOIN customers c ON c.id = o.customer_id AND c.deleted_at IS NULL
        WHERE o.total_minor - o.paid_minor = ${amountMinor} ORDER BY o.due_on, o.number LIMIT 50`);
      return rowsOf<Record<string, unknown>>(result).map((r) => ({ ...toOpen(r), customerName: String(r.customer_name), customerCompany: String(r.customer_company ?? '') }));
    },

    /** The sum of a customer's entries per currency. */
    async balances(customerId: string, tx: Db = db): Promise<Map<string, number>> {
      const result = await tx.execute(sql`
        SELECT currency, sum(amount_minor)::text AS balance FROM billing_ledger_entries WHERE customer_id = ${customerId}::uuid GROUP BY currency ORDER BY currency`);
      return new Map(rowsOf<{ currency: string; balance: string }>(result).map((r) => [r.currency, int(r.balance)]));
    },

    /** Currencies the customer has been billed in (closed statements), or has entries in. */
    async currenciesOf(customerId: string, tx: Db = db): Promise<string[]> {
      const result = await tx.execute(sql`
        SELECT currency FROM billing_statements WHERE customer_id = ${customerId}::uuid AND status = 'closed'
        UNION SELECT currency FROM billing_ledger_entries WHERE customer_id = ${customerId}::uuid ORDER BY 1`);
      return rowsOf<{ currency: string }>(result).map((r) => r.currency);
    },

    async entry(id: string, tx: Db = db): Promise<LedgerEntryWire | null> {
      const [row] = rowsOf<Record<string, unknown>>(await tx.execute(sql`SELECT ${ENTRY_COLUMNS} FROM ${ENTRY_FROM} WHERE e.id = ${id}::uuid`));
      return row ? toEntry(row) : null;
    },

    /** Entries, newest first. */
    async list(filter: LedgerFilter, page: { offset: number; limit: number }, tx: Db = db): Promise<{ rows: LedgerEntryWire[]; total: number }> {
      const where = filterWhere(filter);
      const rows = await tx.execute(sql`SELECT ${ENTRY_COLUMNS} FROM ${ENTRY_FROM} WHERE ${where} ORDER BY e.sequence DESC LIMIT ${page.limit} OFFSET ${page.offset}`);
      const [count] = rowsOf<{ n: number }>(await tx.execute(sql`SELECT count(*)::int AS n FROM billing_ledger_entries e WHERE ${where}`));
      return { rows: rowsOf<Record<string, unknown>>(rows).map(toEntry), total: int(count?.n) };
    },

    /**
     * Ageing on `today`: per customer and currency with anything open or any credit, the unpaid
     * amounts by how overdue, the balance, and the credit (open less balance).
     */
    async ageing(today: string, filter: { currency: string | null; search: string | null }, tx: Db = db): Promise<AgeingRowWire[]> {
      const like = filter.search ? `%${filter.search.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%` : null;
      const result = await tx.execute(sql`
        WITH open AS (
          SELECT o.customer_id, o.currency, o.due_on, o.total_minor - o.paid_minor AS open FROM (${OPEN_STATEMENTS}) o WHERE o.total_minor > o.paid_minor
        ), buckets AS (
          SELECT customer_id, currency,
                 sum(open) FILTER (WHERE due_on >= ${today}::date) AS current,
                 sum(open) FILTER (WHERE ${today}::date - due_on BETWEEN 1 AND 30) AS d30,
                 sum(open) FILTER (WHERE ${today}::date - due_on BETWEEN 31 AND 60) AS d60,
                 sum(open) FILTER (WHERE ${today}::date - due_on BETWEEN 61 AND 90) AS d90,
                 sum(open) FILTER (WHERE ${today}::date - due_on > 90) AS d90plus,
                 sum(open) AS open, min(due_on)::text AS oldest
          FROM open GROUP BY customer_id, currency
        ), balances AS (
          SELECT customer_id, currency, sum(amount_minor) AS balance FROM billing_ledger_entries GROUP BY customer_id, currency
        )
        SELECT c.id::text AS customer_id, c.name AS customer_name, coalesce(b.currency, l.currency) AS currency,
               coalesce(b.current, 0)::text AS current, coalesce(b.d30, 0)::text AS d30, coalesce(b.d60, 0)::text AS d60,
               coalesce(b.d90, 0)::text AS d90, coalesce(b.d90plus, 0)::text AS d90plus,
               coalesce(l.balance, 0)::text AS balance, coalesce(b.open, 0)::text AS open, b.oldest,
               c.blocked_for_non_payment AND c.blocked_enabled AS blocked, c.promise_to_pay_until::text AS promise
        FROM buckets b FULL JOIN balances l ON l.customer_id = b.customer_id AND l.currency = b.currency
        JOIN customers c ON c.id = coalesce(b.customer_id, l.customer_id)
        WHERE (coalesce(b.open, 0) > 0 OR coalesce(l.balance, 0) < 0)
          AND (${filter.currency}::text IS NULL OR coalesce(b.currency, l.currency) = ${filter.currency})
          AND (${like}::text IS NULL OR c.search_text LIKE ${like})
        ORDER BY coalesce(b.open, 0) - coalesce(b.current, 0) DESC, lower(c.name), c.id, 3`);
      return rowsOf<Record<string, unknown>>(result).map((r) => {
        const open = int(r.open);
        const balance = int(r.balance);
        return {
          customerId: String(r.customer_id),
          customerName: String(r.customer_name),
          currency: String(r.currency),
          current: int(r.current),
          days1to30: int(r.d30),
          days31to60: int(r.d60),
          days61to90: int(r.d90),
          days90plus: int(r.d90plus),
          totalMinor: open,
          creditMinor: Math.max(0, open - balance),
          oldestDueOn: str(r.oldest),
          blockedForNonPayment: bool(r.blocked),
          promiseToPayUntil: str(r.promise),
        };
      });
    },

    // ---- Terms -----------------------------------------------------------------------------

    async terms(customerId: string, tx: Db = db): Promise<{ paymentTermsDays: number; promiseToPayUntil: string | null; promiseNote: string | null; blockedForNonPayment: boolean } | null> {
      const [row] = rowsOf<Record<string, unknown>>(
        await tx.execute(sql`
          SELECT payment_terms_days, promise_to_pay_until::text AS promise, promise_note, blocked_for_non_payment AND blocked_enabled AS blocked
          FROM customers WHERE id = ${customerId}::uuid AND deleted_at IS NULL`),
      );
      if (!row) return null;
      return { paymentTermsDays: int(row.payment_terms_days), promiseToPayUntil: str(row.promise), promiseNote: str(row.promise_note), blockedForNonPayment: bool(row.blocked) };
    },

    async setTerms(customerId: string, terms: { paymentTermsDays: number; promiseToPayUntil: string | null; promiseNote: string | null }, tx: Db = db): Promise<void> {
      await tx.execute(sql`
        UPDATE customers SET payment_terms_days = ${terms.paymentTermsDays}, promise_to_pay_until = ${terms.promiseToPayUntil}::date, promise_note = ${terms.promiseNote}
        WHERE id = ${customerId}::uuid`);
    },
  };
}
