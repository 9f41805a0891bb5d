// Customer requests (plan changes and top-ups a customer asks for) and the lines a customer may ask
// about. One pending request per (line, kind) is a partial unique index; its violation comes back
// as a result, not an exception.
//
// Approving runs a provider call between reading the request and marking it approved, and the
// call must run once however many admins press Approve. The status allows no intermediate value
// (migration 0015), so an approval *claims* a pending request by stamping decided_at/decided_by
// while it stays pending (a conditional UPDATE: one claimant wins); a refusal or failure releases
// the stamp, and a claim older than `staleBefore` (its server died mid-call) may be taken again.
// A row lock held across the call is no option: on the embedded database one open transaction
// holds up every other statement, the provider call budget's own transactions included.
import { and, desc, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { RequestStatus, RequestStatusFilter } from '../../../src/domain/requests';
import type { Db } from '../client';
import { customerRequests, customers, providerAccounts, serviceLines, terminals, users, type CustomerRequestRow } from '../schema';
import { onLines } from './my-terminals';
import { isUniqueViolation } from './unique-violation';

const ONE_PENDING = 'customer_requests_one_pending_uq';
const r = customerRequests;

export type NewCustomerRequest = Pick<typeof customerRequests.$inferInsert, 'customerId' | 'serviceLineNumber' | 'kind' | 'productId' | 'blockCount' | 'note'>;
export type RequestInsert = { ok: true; row: CustomerRequestRow } | { ok: false; reason: 'pending_exists' };

/** A request with what the lists show beside it. */
export interface RequestListRow extends CustomerRequestRow {
  terminalNickname: string | null;
  /** The provider account of the request's line, whose products price it; null when the line is no longer known. */
  lineAccountId: number | null;
}
export interface QueueRow extends RequestListRow {
  customerName: string;
  customerCompany: string;
  decidedByName: string | null;
  /** The provider account of the request's line; null when the line is no longer known. */
  accountId: number | null;
  accountName: string | null;
}

/** The queue's filter: a status ('all': every one) and a provider account (null: every one). */
export interface QueueFilter {
  status: RequestStatusFilter;
  accountId: number | null;
}

export type CustomerRequestsRepository = ReturnType<typeof createCustomerRequestsRepository>;

/**
 * The request's line, named with its table: drizzle leaves a column of a one-table select bare,
 * which inside a subquery would name the subquery's own column (and match every row).
 */
const requestLine = sql.raw('"customer_requests"."service_line_number"');

/** The nickname of a live terminal on the request's line (the first by id that has one). */
const nicknameOfLine = sql<string | null>`(SELECT t.nickname FROM ${terminals} t WHERE t.service_line_number = ${requestLine} AND t.removed_at IS NULL AND t.nickname IS NOT NULL ORDER BY t.user_terminal_id LIMIT 1)`;

/**
 * The requests about lines of one provider account (null: every request). A request whose line is
 * no longer known has no account: it is listed under every account only.
 */
const ofAccount = (accountId: number | null) => (accountId === null ? undefined : eq(serviceLines.accountId, accountId));

/** The queue's columns: the request, its line's nickname, the customer, the decider and the line's account. */
function queueSelect(tx: Db) {
  return tx
    .select({
      ...allColumns,
      terminalNickname: nicknameOfLine,
      lineAccountId: serviceLines.accountId,
      customerName: customers.name,
      customerCompany: customers.company,
      decidedByName: users.name,
      accountId: providerAccounts.id,
      accountName: providerAccounts.name,
    })
    .from(r)
    .innerJoin(customers, eq(customers.id, r.customerId))
    .leftJoin(users, and(eq(users.id, r.decidedBy), sql`${r.status} <> 'pending'`))
    .leftJoin(serviceLines, eq(serviceLines.serviceLineNumber, r.serviceLineNumber))
    .leftJoin(providerAccounts, eq(providerAccounts.id, serviceLines.accountId));
}

/** The provider account of the request's line (a key lookup); null when the line is no longer known. */
const accountOfLine = sql<number | null>`(SELECT sl.account_id FROM ${serviceLines} sl WHERE sl.service_line_number = ${requestLine})`;

/** Not claimed by an approval in progress (or claimed by one whose server died). */
const unclaimed = (staleBefore: Date) => or(isNull(r.decidedAt), lt(r.decidedAt, staleBefore));

export function createCustomerRequestsRepository(db: Db) {
  return {
    transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    async insert(values: NewCustomerRequest, at: Date, tx: Db = db): Promise<RequestInsert> {
      try {
        const [row] = await tx
          .insert(r)
          .values({ ...values, status: 'pending', createdAt: at, updatedAt: at })
          .returning();
        return { ok: true, row: row! };
      } catch (error) {
        if (isUniqueViolation(error, ONE_PENDING)) return { ok: false, reason: 'pending_exists' };
        throw error;
      }
    },

    async findById(id: string, tx: Db = db): Promise<CustomerRequestRow | null> {
      const [row] = await tx.select().from(r).where(eq(r.id, id));
      return row ?? null;
    },

    /** The request when it is this customer's; null for another's or an unknown id alike. */
    async findOfCustomer(id: string, customerId: string, tx: Db = db): Promise<RequestListRow | null> {
      const [row] = await tx
        .select({ ...allColumns, terminalNickname: nicknameOfLine, lineAccountId: accountOfLine })
        .from(r)
        .where(and(eq(r.id, id), eq(r.customerId, customerId)));
      return row ?? null;
    },

    /** The customer's requests (about `lines`, when a member is limited to some), newest first. */
    async ofCustomer(customerId: string, tx: Db = db, lines: readonly string[] | null = null): Promise<RequestListRow[]> {
      return tx
        .select({ ...allColumns, terminalNickname: nicknameOfLine, lineAccountId: accountOfLine })
        .from(r)
        .where(and(eq(r.customerId, customerId), onLines(r.serviceLineNumber, lines)))
        .orderBy(desc(r.createdAt), desc(r.id));
    },

    /** One page of the queue, newest first, with the asking customer, the deciding admin and the line's account. */
    async page(filter: QueueFilter & { limit: number; offset: number }, tx: Db = db): Promise<{ rows: QueueRow[]; total: number }> {
      const where = and(filter.status === 'all' ? undefined : eq(r.status, filter.status), ofAccount(filter.accountId));
      const rows = await queueSelect(tx)
        .where(where)
        .orderBy(desc(r.createdAt), desc(r.id))
        .limit(filter.limit)
        .offset(filter.offset);
      const total =
        filter.accountId === null
          ? await tx.$count(r, where)
          : Number((await tx.select({ n: sql<number>`count(*)::int` }).from(r).innerJoin(serviceLines, eq(serviceLines.serviceLineNumber, r.serviceLineNumber)).where(where))[0]?.n ?? 0);
      return { rows, total };
    },

    async queueRow(id: string, tx: Db = db): Promise<QueueRow | null> {
      const [row] = await queueSelect(tx).where(eq(r.id, id));
      return row ?? null;
    },

    /** The provider account of a line; null when the portal does not know the line. */
    async accountOfLine(serviceLineNumber: string, tx: Db = db): Promise<number | null> {
      const [row] = await tx.select({ accountId: serviceLines.accountId }).from(serviceLines).where(eq(serviceLines.serviceLineNumber, serviceLineNumber));
      return row?.accountId ?? null;
    },

    /** Where to tell a live customer about their request: null once the account is deleted. */
    async contactOf(customerId: string, tx: Db = db): Promise<{ email: string; name: string } | null> {
      const [row] = await tx.select({ email: customers.email, name: customers.name }).from(customers).where(and(eq(customers.id, customerId), isNull(customers.deletedAt)));
      return row ?? null;
    },

    /** Requests per status (of the lines of one provider account when given). */
    async counts(accountId: number | null = null, tx: Db = db): Promise<Record<RequestStatus, number>> {
      const select = tx.select({ status: r.status, n: sql<number>`count(*)::int` }).from(r);
      const rows = await (accountId === null
        ? select.groupBy(r.status)
        : select.innerJoin(serviceLines, eq(serviceLines.serviceLineNumber, r.serviceLineNumber)).where(ofAccount(accountId)).groupBy(r.status));
      const counts: Record<RequestStatus, number> = { pending: 0, approved: 0, declined: 0, cancelled: 0 };
      for (const row of rows) counts[row.status] = row.n;
      return counts;
    },

    /** Takes a pending request for an approval in progress (updated_at stays); null when it is decided or another approval has it. */
    async claim(id: string, by: string, at: Date, staleBefore: Date, tx: Db = db): Promise<CustomerRequestRow | null> {
      const [row] = await tx
        .update(r)
        .set({ decidedBy: by, decidedAt: at })
        .where(and(eq(r.id, id), eq(r.status, 'pending'), unclaimed(staleBefore)))
        .returning();
      return row ?? null;
    },

    /**
     * Gives a claim back: the approval did not go through and the request waits again, as it was
     * (updated_at is the request's, not the claim's: a refused approval leaves the row unchanged).
     */
    async release(id: string, claimedAt: Date, tx: Db = db): Promise<void> {
      await tx
        .update(r)
        .set({ decidedBy: null, decidedAt: null })
        .where(and(eq(r.id, id), eq(r.status, 'pending'), eq(r.decidedAt, claimedAt)));
    },

    /** Marks a claimed request approved; null when the claim was lost meanwhile. */
    async approve(id: string, by: string, claimedAt: Date, at: Date, tx: Db = db): Promise<CustomerRequestRow | null> {
      const [row] = await tx
        .update(r)
        .set({ status: 'approved', decidedBy: by, decidedAt: at, updatedAt: at })
        .where(and(eq(r.id, id), eq(r.status, 'pending'), eq(r.decidedAt, claimedAt)))
        .returning();
      return row ?? null;
    },

    /** Declines a pending, unclaimed request; null when it is not (decided, or being approved). */
    async decline(id: string, by: string, reason: string, at: Date, staleBefore: Date, tx: Db = db): Promise<CustomerRequestRow | null> {
      const [row] = await tx
        .update(r)
        .set({ status: 'declined', decisionReason: reason, decidedBy: by, decidedAt: at, updatedAt: at })
        .where(and(eq(r.id, id), eq(r.status, 'pending'), unclaimed(staleBefore)))
        .returning();
      return row ?? null;
    },

    /** Cancels the customer's own pending, unclaimed request; null when it is not. */
    async cancel(id: string, customerId: string, at: Date, staleBefore: Date, tx: Db = db): Promise<CustomerRequestRow | null> {
      const [row] = await tx
        .update(r)
        .set({ status: 'cancelled', decidedBy: null, decidedAt: at, updatedAt: at })
        .where(and(eq(r.id, id), eq(r.customerId, customerId), eq(r.status, 'pending'), unclaimed(staleBefore)))
        .returning();
      return row ?? null;
    },

    /** Whether the customer holds a live terminal on this live line: what makes a line theirs. */
    async holdsLine(customerId: string, serviceLineNumber: string, tx: Db = db): Promise<boolean> {
      const [row] = await tx
        .select({ n: terminals.userTerminalId })
        .from(terminals)
        .innerJoin(serviceLines, eq(serviceLines.serviceLineNumber, terminals.serviceLineNumber))
        .where(
          and(
            eq(terminals.serviceLineNumber, serviceLineNumber),
            eq(terminals.assignedCustomerId, customerId),
            isNull(terminals.removedAt),
            isNull(serviceLines.removedAt),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    /** The customer's live, active lines (of `lines`, when given), by number, with the nickname of a terminal on each. */
    async linesOfCustomer(customerId: string, tx: Db = db, lines: readonly string[] | null = null): Promise<{ serviceLineNumber: string; nickname: string | null }[]> {
      const rows = await tx
        .select({ serviceLineNumber: serviceLines.serviceLineNumber, nickname: sql<string | null>`max(${terminals.nickname})` })
        .from(terminals)
        .innerJoin(serviceLines, eq(serviceLines.serviceLineNumber, terminals.serviceLineNumber))
        .where(
          and(
            eq(terminals.assignedCustomerId, customerId),
            isNull(terminals.removedAt),
            isNull(serviceLines.removedAt),
            eq(serviceLines.active, true),
            isNotNull(terminals.serviceLineNumber),
            onLines(serviceLines.serviceLineNumber, lines),
          ),
        )
        .groupBy(serviceLines.serviceLineNumber)
        .orderBy(serviceLines.serviceLineNumber);
      return rows;
    },
  };
}

const allColumns = {
  id: r.id,
  customerId: r.customerId,
  serviceLineNumber: r.serviceLineNumber,
  kind: r.kind,
  productId: r.productId,
  blockCount: r.blockCount,
  note: r.note,
  status: r.status,
  decisionReason: r.decisionReason,
  decidedBy: r.decidedBy,
  decidedAt: r.decidedAt,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
};
