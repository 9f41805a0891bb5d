// Bulk actions: the operations and their rows, and the look-ups a preview needs to say
// what each row will do (customers by email or id, service lines, plans) in a few queries for the
// whole file rather than one per row.
import { and, asc, count, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { rowsOf } from './results';
import type { BulkKind, BulkRowInput, BulkRowStatus } from '../../../src/domain/bulk';
import type { Db } from '../client';
import { bulkOperationRows, bulkOperations, customers, providerAccounts, providerProducts, serviceLines, terminals, users, type BulkOperationRow } from '../schema';

export interface BulkOperationWithCreator extends BulkOperationRow {
  creatorName: string | null;
}

export interface NewBulkRow {
  line: number;
  input: BulkRowInput;
  status: 'pending' | 'skipped';
  message: string | null;
}

export interface StoredBulkRow {
  line: number;
  input: BulkRowInput;
  status: BulkRowStatus;
  message: string | null;
}

/** A row being worked is still waiting, as the page sees it. */
const toStored = (row: { line: number; input: unknown; status: BulkRowStatus | 'running'; message: string | null }): StoredBulkRow => ({
  line: row.line,
  input: row.input as BulkRowInput,
  status: row.status === 'running' ? 'pending' : row.status,
  message: row.message,
});

/** The page's status filter: "waiting" takes in the rows being worked. */
const statusIs = (status: BulkRowStatus | null) =>
  status === null ? undefined : status === 'pending' ? inArray(bulkOperationRows.status, ['pending', 'running']) : eq(bulkOperationRows.status, status);

/** Rows inserted per statement: PostgreSQL's 65,535 parameters hold 10,000 rows of 5. */
const INSERT_CHUNK = 1_000;

export function createBulkOperationsRepository(db: Db) {
  const o = bulkOperations;
  const r = bulkOperationRows;
  const withCreator = { ...getColumns(), creatorName: users.name };

  function getColumns() {
    return {
      id: o.id,
      kind: o.kind,
      status: o.status,
      total: o.total,
      succeeded: o.succeeded,
      failed: o.failed,
      skipped: o.skipped,
      createdBy: o.createdBy,
      createdIp: o.createdIp,
      requestId: o.requestId,
      createdAt: o.createdAt,
      finishedAt: o.finishedAt,
    };
  }

  return {
    transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /** The operation and all its rows, in one transaction with the caller's audit entry. */
    async create(
      operation: { kind: BulkKind; createdBy: string | null; createdIp: string | null; requestId: string | null; at: Date },
      rows: readonly NewBulkRow[],
      tx: Db,
    ): Promise<BulkOperationRow> {
      const skipped = rows.filter((row) => row.status === 'skipped').length;
      const done = skipped === rows.length;
      const [created] = await tx
        .insert(o)
        .values({
          kind: operation.kind,
          total: rows.length,
          skipped,
          createdBy: operation.createdBy,
          createdIp: operation.createdIp,
          requestId: operation.requestId,
          createdAt: operation.at,
          status: done ? 'done' : 'running',
          finishedAt: done ? operation.at : null,
        })
        .returning();
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        await tx.insert(r).values(
          rows.slice(i, i + INSERT_CHUNK).map((row) => ({
            operationId: created!.id,
            line: row.line,
            input: row.input,
            status: row.status,
            message: row.message,
            doneAt: row.status === 'skipped' ? operation.at : null,
          })),
        );
      }
      return created!;
    },

    async find(id: string, tx: Db = db): Promise<BulkOperationWithCreator | null> {
      const [row] = await tx.select(withCreator).from(o).leftJoin(users, eq(users.id, o.createdBy)).where(eq(o.id, id));
      return row ?? null;
    },

    async latest(limit: number, tx: Db = db): Promise<BulkOperationWithCreator[]> {
      return tx.select(withCreator).from(o).leftJoin(users, eq(users.id, o.createdBy)).orderBy(desc(o.createdAt), desc(o.id)).limit(limit);
    },

    /**
     * The provider accounts whose lines each operation's rows name (assign and change-plan rows
     * name a line; the customer actions none), by account name. One statement over the listed
     * operations' rows (at most BULK_MAX_ROWS each), each line a key lookup.
     */
    async accountsTouched(operationIds: readonly string[], tx: Db = db): Promise<Map<string, { id: number; name: string }[]>> {
      const touched = new Map<string, { id: number; name: string }[]>();
      if (operationIds.length === 0) return touched;
      const rows = rowsOf<{ operation_id: string; account_id: number; account_name: string }>(
        await tx.execute(sql`
          SELECT DISTINCT r.operation_id::text AS operation_id, pa.id AS account_id, pa.name AS account_name
          FROM ${bulkOperationRows} r
          JOIN ${serviceLines} sl ON sl.service_line_number = r.input->>'serviceLine'
          JOIN ${providerAccounts} pa ON pa.id = sl.account_id
          WHERE r.operation_id = ANY(${sql.param([...operationIds])}::uuid[])
          ORDER BY pa.name, pa.id`),
      );
      for (const row of rows) {
        const list = touched.get(row.operation_id) ?? [];
        list.push({ id: Number(row.account_id), name: row.account_name });
        touched.set(row.operation_id, list);
      }
      return touched;
    },

    /** Operations still running: what a start-up hands back to the job. */
    async runningIds(tx: Db = db): Promise<string[]> {
      const rows = await tx.select({ id: o.id }).from(o).where(eq(o.status, 'running')).orderBy(asc(o.createdAt));
      return rows.map((row) => row.id);
    },

    /**
     * Claims the next pending row, in file order, for this process: SKIP LOCKED, so two processes
     * working one operation (a resume racing a retry) never take the same row.
     */
    async claimNext(operationId: string, at: Date, tx: Db = db): Promise<StoredBulkRow | null> {
      const result = await tx.execute(sql`
        UPDATE ${r} SET status = 'running', claimed_at = ${at.toISOString()}::timestamptz
        WHERE operation_id = ${operationId} AND line = (
          SELECT line FROM ${r} WHERE operation_id = ${operationId} AND status = 'pending'
          ORDER BY line LIMIT 1 FOR UPDATE SKIP LOCKED
        )
        RETURNING line, input`);
      const [row] = rowsOf<{ line: number; input: BulkRowInput }>(result);
      return row ? { line: row.line, input: row.input, status: 'pending', message: null } : null;
    },

    /** A claimed row's outcome and the operation's count, together. */
    async recordOutcome(operationId: string, line: number, outcome: { status: 'ok' | 'failed'; message: string | null }, at: Date, tx: Db = db): Promise<boolean> {
      return tx.transaction(async (inner) => {
        const written = await inner
          .update(r)
          .set({ status: outcome.status, message: outcome.message, doneAt: at })
          .where(and(eq(r.operationId, operationId), eq(r.line, line), eq(r.status, 'running')))
          .returning({ line: r.line });
        if (written.length === 0) return false;
        await inner
          .update(o)
          .set(outcome.status === 'ok' ? { succeeded: sql`${o.succeeded} + 1` } : { failed: sql`${o.failed} + 1` })
          .where(eq(o.id, operationId));
        return true;
      });
    },

    /**
     * Rows a process claimed before `claimedBefore` and never finished (it died mid-row): failed
     * with `message`, since their action may or may not have been applied.
     */
    async failAbandoned(operationId: string, claimedBefore: Date, message: string, at: Date, tx: Db = db): Promise<number> {
      return tx.transaction(async (inner) => {
        const failed = await inner
          .update(r)
          .set({ status: 'failed', message, doneAt: at })
          .where(and(eq(r.operationId, operationId), eq(r.status, 'running'), lt(r.claimedAt, claimedBefore)))
          .returning({ line: r.line });
        if (failed.length > 0) await inner.update(o).set({ failed: sql`${o.failed} + ${failed.length}` }).where(eq(o.id, operationId));
        return failed.length;
      });
    },

    /** Marks the operation done once no row is pending; the answer says whether this call did. */
    async finishIfDone(operationId: string, at: Date, tx: Db = db): Promise<boolean> {
      const rows = await tx
        .update(o)
        .set({ status: 'done', finishedAt: at })
        .where(
          and(
            eq(o.id, operationId),
            eq(o.status, 'running'),
            sql`NOT EXISTS (SELECT 1 FROM ${r} WHERE ${r.operationId} = ${operationId} AND ${r.status} IN ('pending', 'running'))`,
          ),
        )
        .returning({ id: o.id });
      return rows.length > 0;
    },

    async rowsPage(operationId: string, query: { status: BulkRowStatus | null; limit: number; offset: number }, tx: Db = db): Promise<{ rows: StoredBulkRow[]; total: number }> {
      const where = and(eq(r.operationId, operationId), statusIs(query.status));
      const [rows, [counted]] = await Promise.all([
        tx.select({ line: r.line, input: r.input, status: r.status, message: r.message }).from(r).where(where).orderBy(asc(r.line)).limit(query.limit).offset(query.offset),
        tx.select({ total: count() }).from(r).where(where),
      ]);
      return { rows: rows.map(toStored), total: counted?.total ?? 0 };
    },

    /** The export's pages: the rows after a line, in file order. */
    async rowsAfter(operationId: string, status: BulkRowStatus | null, afterLine: number, limit: number, tx: Db = db): Promise<StoredBulkRow[]> {
      const rows = await tx
        .select({ line: r.line, input: r.input, status: r.status, message: r.message })
        .from(r)
        .where(and(eq(r.operationId, operationId), gt(r.line, afterLine), statusIs(status)))
        .orderBy(asc(r.line))
        .limit(limit);
      return rows.map(toStored);
    },

    // ---- what a preview resolves ----

    /** Live customers by lower-cased email and by id, among those the file names. */
    async customersNamed(emails: readonly string[], ids: readonly string[], tx: Db = db): Promise<{ id: string; email: string; name: string; company: string }[]> {
      const columns = { id: customers.id, email: customers.email, name: customers.name, company: customers.company };
      const byEmail = emails.length
        ? await tx.select(columns).from(customers).where(and(isNull(customers.deletedAt), inArray(sql`lower(${customers.email})`, [...emails])))
        : [];
      const byId = ids.length ? await tx.select(columns).from(customers).where(and(isNull(customers.deletedAt), inArray(customers.id, [...ids]))) : [];
      return [...byEmail, ...byId];
    },

    /** Of the lines named, those the portal knows: a live terminal on it, or a stored line not removed. */
    async knownLines(lines: readonly string[], tx: Db = db): Promise<Set<string>> {
      if (lines.length === 0) return new Set();
      const [onTerminals, stored] = await Promise.all([
        tx.selectDistinct({ line: terminals.serviceLineNumber }).from(terminals).where(and(inArray(terminals.serviceLineNumber, [...lines]), isNull(terminals.removedAt))),
        tx.select({ line: serviceLines.serviceLineNumber }).from(serviceLines).where(and(inArray(serviceLines.serviceLineNumber, [...lines]), isNull(serviceLines.removedAt))),
      ]);
      return new Set([...onTerminals, ...stored].map((row) => row.line).filter((line): line is string => line !== null));
    },

    /** Live plans by reference, with their names. */
    async plansNamed(references: readonly string[], tx: Db = db): Promise<Map<string, string>> {
      if (references.length === 0) return new Map();
      const rows = await tx
        .select({ reference: providerProducts.productReferenceId, name: providerProducts.name })
        .from(providerProducts)
        .where(and(inArray(providerProducts.productReferenceId, [...references]), isNull(providerProducts.removedAt)));
      return new Map(rows.map((row) => [row.reference, row.name]));
    },
  };
}
