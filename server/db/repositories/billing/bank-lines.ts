// Imported bank statement files and their lines (0028). A line is stored once by its key, so a
// file imported again adds nothing; a line waits as 'unmatched' until a person matches or ignores it.
import { sql } from 'drizzle-orm';
import type { BankFormat, BankImportWire, BankLineStatus, BankLineWire, BankMatchKind } from '../../../../src/domain/ledger';
import type { Db } from '../../client';
import { rowsOf } from '../results';
import { column, int, isoText, str } from '../values';

export type BankLinesRepository = ReturnType<typeof createBankLinesRepository>;

export interface NewBankLine {
  key: string;
  bookedOn: string;
  amountMinor: number;
  currency: string;
  payer: string | null;
  remittance: string | null;
  bankReference: string | null;
}

const LINE_COLUMNS = sql`
  l.id::text AS id, l.import_id::text AS import_id, l.booked_on::text AS booked_on, l.amount_minor::text AS amount_minor, l.currency,
  l.payer, l.remittance, l.bank_reference, l.status, l.matched_by, l.customer_id::text AS customer_id, c.name AS customer_name,
  l.entry_id::text AS entry_id, l.note,
  coalesce((SELECT array_agg(st.number ORDER BY a.id) FROM billing_allocations a JOIN billing_statements st ON st.id = a.statement_id WHERE a.entry_id = l.entry_id), '{}') AS numbers`;

function toLine(r: Record<string, unknown>): BankLineWire {
  const numbers = Array.isArray(r.numbers) ? r.numbers.map(String) : String(r.numbers ?? '').replace(/[{}"]/g, '').split(',').filter(Boolean);
  return {
    id: String(r.id),
    importId: String(r.import_id),
    bookedOn: String(r.booked_on),
    amountMinor: int(r.amount_minor),
    currency: String(r.currency),
    payer: str(r.payer),
    remittance: str(r.remittance),
    bankReference: str(r.bank_reference),
    status: r.status as BankLineStatus,
    matchedBy: str(r.matched_by) as BankMatchKind | null,
    customerId: str(r.customer_id),
    customerName: str(r.customer_name),
    entryId: str(r.entry_id),
    statementNumbers: [...new Set(numbers)],
    note: str(r.note),
  };
}

const IMPORT_COLUMNS = sql`
  i.id::text AS id, i.file_name, i.format, ${isoText(sql`i.imported_at`)} AS imported_at, u.name AS imported_by,
  i.lines, i.matched, i.unmatched, i.duplicates, i.skipped`;

const toImport = (r: Record<string, unknown>): BankImportWire => ({
  id: String(r.id),
  fileName: String(r.file_name),
  format: r.format as BankFormat,
  importedAt: String(r.imported_at),
  importedBy: str(r.imported_by),
  lines: int(r.lines),
  matched: int(r.matched),
  unmatched: int(r.unmatched),
  duplicates: int(r.duplicates),
  skipped: int(r.skipped),
});

export function createBankLinesRepository(db: Db) {
  return {
    async insertImport(row: { fileName: string; format: BankFormat; by: string | null }, at: Date, tx: Db): Promise<string> {
      const [made] = rowsOf<{ id: string }>(
        await tx.execute(sql`
          INSERT INTO billing_bank_imports (file_name, format, lines, matched, unmatched, duplicates, skipped, imported_at, imported_by)
          VALUES (${row.fileName}, ${row.format}, 0, 0, 0, 0, 0, ${at.toISOString()}::timestamptz, ${row.by}::uuid) RETURNING id::text AS id`),
      );
      return made!.id;
    },

    async finishImport(id: string, counts: { lines: number; matched: number; unmatched: number; duplicates: number; skipped: number }, tx: Db): Promise<void> {
      await tx.execute(sql`
        UPDATE billing_bank_imports SET lines = ${counts.lines}, matched = ${counts.matched}, unmatched = ${counts.unmatched},
          duplicates = ${counts.duplicates}, skipped = ${counts.skipped} WHERE id = ${id}::uuid`);
    },

    /** Stores the lines not seen before (by key), as unmatched; answers the new ones' ids by key. */
    async insertNew(importId: string, lines: readonly NewBankLine[], tx: Db): Promise<Map<string, string>> {
      if (lines.length === 0) return new Map();
      const result = await tx.execute(sql`
        INSERT INTO billing_bank_lines (import_id, line_key, booked_on, amount_minor, currency, payer, remittance, bank_reference, status)
        SELECT ${importId}::uuid, u.key, u.booked_on::date, u.amount::bigint, u.currency, u.payer, u.remittance, u.reference, 'unmatched'
        FROM unnest(${column(lines, (l) => l.key)}::text[], ${column(lines, (l) => l.bookedOn)}::text[], ${column(lines, (l) => l.amountMinor)}::text[],
                    ${column(lines, (l) => l.currency)}::text[], ${column(lines, (l) => l.payer)}::text[], ${column(lines, (l) => l.remittance)}::text[],
                    ${column(lines, (l) => l.bankReference)}::text[]) WITH ORDINALITY AS u(key, booked_on, amount, currency, payer, remittance, reference, n)
        ORDER BY u.n
        ON CONFLICT (line_key) DO NOTHING
        RETURNING id::text AS id, line_key`);
      return new Map(rowsOf<{ id: string; line_key: string }>(result).map((r) => [r.line_key, r.id]));
    },

    /** Locks a line for the rest of the transaction. */
    async hold(id: string, tx: Db): Promise<BankLineWire | null> {
      const [row] = rowsOf<Record<string, unknown>>(await tx.execute(sql`SELECT id FROM billing_bank_lines WHERE id = ${id}::uuid FOR UPDATE`));
      return row ? this.byId(id, tx) : null;
    },

    async byId(id: string, tx: Db = db): Promise<BankLineWire | null> {
      const [row] = rowsOf<Record<string, unknown>>(
        await tx.execute(sql`SELECT ${LINE_COLUMNS} FROM billing_bank_lines l LEFT JOIN customers c ON c.id = l.customer_id WHERE l.id = ${id}::uuid`),
      );
      return row ? toLine(row) : null;
    },

    async decide(
      id: string,
      decision: { status: BankLineStatus; matchedBy: BankMatchKind | null; customerId: string | null; entryId: string | null; note: string | null; by: string | null },
      at: Date,
      tx: Db,
    ): Promise<void> {
      await tx.execute(sql`
        UPDATE billing_bank_lines SET status = ${decision.status}, matched_by = ${decision.matchedBy}, customer_id = ${decision.customerId}::uuid,
          entry_id = ${decision.entryId}::uuid, note = ${decision.note}, decided_at = ${at.toISOString()}::timestamptz, decided_by = ${decision.by}::uuid
        WHERE id = ${id}::uuid`);
    },

    async ofImport(importId: string, tx: Db = db): Promise<BankLineWire[]> {
      const result = await tx.execute(sql`
        SELECT ${LINE_COLUMNS} FROM billing_bank_lines l LEFT JOIN customers c ON c.id = l.customer_id WHERE l.import_id = ${importId}::uuid ORDER BY l.booked_on, l.id`);
      return rowsOf<Record<string, unknown>>(result).map(toLine);
    },

    async list(status: BankLineStatus | null, page: { offset: number; limit: number }, tx: Db = db): Promise<{ rows: BankLineWire[]; total: number }> {
      const where = status ? sql`l.status = ${status}` : sql`true`;
      const result = await tx.execute(sql`
        SELECT ${LINE_COLUMNS} FROM billing_bank_lines l LEFT JOIN customers c ON c.id = l.customer_id WHERE ${where}
        ORDER BY l.booked_on DESC, l.id LIMIT ${page.limit} OFFSET ${page.offset}`);
      const [count] = rowsOf<{ n: number }>(await tx.execute(sql`SELECT count(*)::int AS n FROM billing_bank_lines l WHERE ${where}`));
      return { rows: rowsOf<Record<string, unknown>>(result).map(toLine), total: int(count?.n) };
    },

    async imports(limit: number, tx: Db = db): Promise<BankImportWire[]> {
      const result = await tx.execute(sql`
        SELECT ${IMPORT_COLUMNS} FROM billing_bank_imports i LEFT JOIN users u ON u.id = i.imported_by ORDER BY i.imported_at DESC, i.id LIMIT ${limit}`);
      return rowsOf<Record<string, unknown>>(result).map(toImport);
    },

    async importById(id: string, tx: Db = db): Promise<BankImportWire | null> {
      const [row] = rowsOf<Record<string, unknown>>(await tx.execute(sql`SELECT ${IMPORT_COLUMNS} FROM billing_bank_imports i LEFT JOIN users u ON u.id = i.imported_by WHERE i.id = ${id}::uuid`));
      return row ? toImport(row) : null;
    },
  };
}
