// Automatic actions: proposed or taken by an alert rule's level, once per line, rule, level and
// cycle (the unique index drops a second proposal, whichever process makes it); claimed one
// process at a time to run (server/services/automatic-actions.ts runs them).
import { and, count, desc, eq, ilike, inArray, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../client';
import { escapeLike } from './customers';
import { rowsOf } from './results';
import { automaticActions, customers, providerProducts as products, serviceLines, users, type AutomaticActionRow } from '../schema';

export type AutomaticActionStatusRow = AutomaticActionRow['status'];

export type NewAutomaticAction = Pick<
  AutomaticActionRow,
  'ruleKind' | 'level' | 'action' | 'mode' | 'serviceLineNumber' | 'customerId' | 'alertId' | 'cycleStart' | 'productReferenceId' | 'projectedSaving' | 'currency' | 'setUpBy'
>;

/** An action with the names its page shows. */
export interface AutomaticActionListRow extends AutomaticActionRow {
  customerName: string | null;
  planName: string | null;
  setUpByName: string | null;
  decidedByName: string | null;
  undoneByName: string | null;
}

export interface AutomaticActionFilter {
  statuses: AutomaticActionStatusRow[] | null;
  search: string | null;
  alertIds?: string[];
}

/** Rows per INSERT: 1,000 rows bind 15,000 parameters, well under the protocol's 65,535. */
const INSERT_CHUNK = 1_000;

const setUp = alias(users, 'set_up_user');
const decided = alias(users, 'decided_user');
const undone = alias(users, 'undone_user');

export function createAutomaticActionsRepository(db: Db) {
  const a = automaticActions;
  const where = (filter: AutomaticActionFilter): SQL | undefined => {
    const parts: (SQL | undefined)[] = [];
    if (filter.statuses) parts.push(inArray(a.status, filter.statuses));
    if (filter.alertIds) parts.push(inArray(a.alertId, filter.alertIds));
    if (filter.search) {
      const like = `%${escapeLike(filter.search)}%`;
      parts.push(or(ilike(a.serviceLineNumber, like), ilike(customers.name, like)));
    }
    return and(...parts);
  };
  const listed = (tx: Db) =>
    tx
      .select({
        row: a,
        customerName: customers.name,
        planName: products.name,
        setUpByName: setUp.name,
        decidedByName: decided.name,
        undoneByName: undone.name,
      })
      .from(a)
      .leftJoin(customers, eq(customers.id, a.customerId))
      // The plan moved to, as the line's own account lists it.
      .leftJoin(serviceLines, eq(serviceLines.serviceLineNumber, a.serviceLineNumber))
      .leftJoin(products, and(eq(products.productReferenceId, a.productReferenceId), eq(products.accountId, serviceLines.accountId)))
      .leftJoin(setUp, eq(setUp.id, a.setUpBy))
      .leftJoin(decided, eq(decided.id, a.decidedBy))
      .leftJoin(undone, eq(undone.id, a.undoneBy));
  const flatten = (r: { row: AutomaticActionRow; customerName: string | null; planName: string | null; setUpByName: string | null; decidedByName: string | null; undoneByName: string | null }): AutomaticActionListRow => ({
    ...r.row,
    customerName: r.customerName,
    planName: r.planName,
    setUpByName: r.setUpByName,
    decidedByName: r.decidedByName,
    undoneByName: r.undoneByName,
  });

  return {
    /** Records the actions not yet taken this cycle; answers those recorded now (a repeat is dropped). */
    async insertMany(rows: readonly (NewAutomaticAction & { status: 'proposed' | 'queued' })[], at: Date, tx: Db = db): Promise<AutomaticActionRow[]> {
      // In chunks: a statement takes at most 65,535 parameters, and a row binds 15.
      const recorded: AutomaticActionRow[] = [];
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        const chunk = rows.slice(i, i + INSERT_CHUNK);
        recorded.push(
          ...(await tx
            .insert(a)
            .values(chunk.map((r) => ({ ...r, createdAt: at, nextAttemptAt: r.status === 'queued' ? at : null })))
            .onConflictDoNothing()
            .returning()),
        );
      }
      return recorded;
    },

    async list(filter: AutomaticActionFilter, page: { offset: number; limit: number }, tx: Db = db): Promise<{ rows: AutomaticActionListRow[]; total: number }> {
      const rows = await listed(tx).where(where(filter)).orderBy(desc(a.createdAt), desc(a.id)).limit(page.limit).offset(page.offset);
      const [total] = await tx.select({ n: count() }).from(a).leftJoin(customers, eq(customers.id, a.customerId)).where(where(filter));
      return { rows: rows.map(flatten), total: Number(total?.n ?? 0) };
    },

    async waitingCount(tx: Db = db): Promise<number> {
      const [row] = await tx.select({ n: count() }).from(a).where(eq(a.status, 'proposed'));
      return Number(row?.n ?? 0);
    },

    async byId(id: string, tx: Db = db): Promise<AutomaticActionListRow | undefined> {
      const [row] = await listed(tx).where(eq(a.id, id));
      return row ? flatten(row) : undefined;
    },

    async byIds(ids: readonly string[], tx: Db = db): Promise<AutomaticActionListRow[]> {
      if (ids.length === 0) return [];
      return (await listed(tx).where(inArray(a.id, [...ids])).orderBy(desc(a.createdAt))).map(flatten);
    },

    /** The actions of these alerts, oldest first (what each alert shows). */
    async ofAlerts(alertIds: readonly string[], tx: Db = db): Promise<AutomaticActionRow[]> {
      if (alertIds.length === 0) return [];
      return tx.select().from(a).where(inArray(a.alertId, [...alertIds])).orderBy(a.createdAt);
    },

    /**
     * Moves an action from one of `from` to `to`, with `patch`; answers the row, or undefined when it
     * was no longer in one of `from` (another admin or process got there first).
     */
    async transition(id: string, from: readonly AutomaticActionStatusRow[], to: AutomaticActionStatusRow, patch: Partial<AutomaticActionRow>, tx: Db = db): Promise<AutomaticActionRow | undefined> {
      const [row] = await tx
        .update(a)
        .set({ ...patch, status: to })
        .where(and(eq(a.id, id), inArray(a.status, [...from])))
        .returning();
      return row;
    },

    /**
     * Takes up to `limit` actions due to run for this process until `until`: queued ones whose time
     * has come, and running ones a stopped process left (their claim expired). One process gets each.
     */
    async claimDue(now: Date, until: Date, limit: number, tx: Db = db): Promise<AutomaticActionRow[]> {
      const due = tx
        .select({ id: a.id })
        .from(a)
        .where(
          or(
            and(eq(a.status, 'queued'), or(isNull(a.nextAttemptAt), lte(a.nextAttemptAt, now))),
            and(eq(a.status, 'running'), isNotNull(a.claimedUntil), lte(a.claimedUntil, now)),
          ),
        )
        .orderBy(a.nextAttemptAt)
        .limit(limit)
        .for('update', { skipLocked: true });
      return tx
        .update(a)
        .set({ status: 'running', claimedUntil: until, attempts: sql`${a.attempts} + 1` })
        .where(inArray(a.id, due))
        .returning();
    },

    /**
     * Live lines, among those `scope` covers, whose plan cannot take `action` (at most `limit`
     * named, all counted): opting out needs a plan that sells priority data beyond what it
     * includes, stopping recurring blocks a plan with blocks, a plan change the plan in the line's
     * own account. The rule's scope leaves out lines whose customer or own override sets actions.
     */
    async linesThatCannot(
      action: AutomaticActionRow['action'],
      kind: AutomaticActionRow['ruleKind'],
      scope: { scope: 'rule' } | { scope: 'customer'; key: string } | { scope: 'line'; key: string },
      productReferenceId: string | null,
      limit: number,
      tx: Db = db,
    ): Promise<{ lines: string[]; total: number }> {
      const cannot =
        action === 'opt_out'
          ? sql`jsonb_typeof(p.raw #> '{dataProducts,topUpProduct}') IS DISTINCT FROM 'object'`
          : action === 'stop_recurring_blocks'
            ? sql`coalesce(jsonb_array_length(CASE WHEN jsonb_typeof(p.raw #> '{dataProducts,dataBlockProducts}') = 'array' THEN p.raw #> '{dataProducts,dataBlockProducts}' END), 0) = 0`
            : action === 'change_plan'
              ? sql`NOT EXISTS (SELECT 1 FROM provider_products q WHERE q.account_id = sl.account_id AND q.product_reference_id = ${productReferenceId} AND q.removed_at IS NULL)`
              : null;
      if (!cannot) return { lines: [], total: 0 };
      const covered =
        scope.scope === 'line'
          ? sql`sl.service_line_number = ${scope.key}`
          : scope.scope === 'customer'
            ? sql`EXISTS (SELECT 1 FROM terminals t WHERE t.service_line_number = sl.service_line_number AND t.removed_at IS NULL AND t.assigned_customer_id::text = ${scope.key})`
            : sql`NOT EXISTS (SELECT 1 FROM alert_overrides o WHERE o.kind = ${kind} AND o.actions IS NOT NULL AND (
                  (o.scope = 'line' AND o.scope_key = sl.service_line_number)
                  OR (o.scope = 'customer' AND EXISTS (SELECT 1 FROM terminals t WHERE t.service_line_number = sl.service_line_number AND t.removed_at IS NULL AND t.assigned_customer_id::text = o.scope_key))))`;
      const rows = rowsOf<{ service_line_number: string; total: string | number }>(
        await tx.execute(sql`
          SELECT sl.service_line_number, count(*) OVER () AS total
          FROM service_lines sl
          LEFT JOIN provider_products p ON p.account_id = sl.account_id AND p.product_reference_id = sl.product_reference_id AND p.removed_at IS NULL
          WHERE sl.removed_at IS NULL AND sl.active AND ${covered} AND (${cannot})
          ORDER BY sl.service_line_number
          LIMIT ${limit}`),
      );
      return { lines: rows.map((r) => r.service_line_number), total: Number(rows[0]?.total ?? 0) };
    },

    /** Whether any action is due now (the tick asks before it queues a run). */
    async anyDue(now: Date, tx: Db = db): Promise<boolean> {
      const [row] = await tx
        .select({ id: a.id })
        .from(a)
        .where(
          or(
            and(eq(a.status, 'queued'), or(isNull(a.nextAttemptAt), lte(a.nextAttemptAt, now))),
            and(eq(a.status, 'running'), isNotNull(a.claimedUntil), lte(a.claimedUntil, now)),
          ),
        )
        .limit(1);
      return row !== undefined;
    },
  };
}

export type AutomaticActionsRepository = ReturnType<typeof createAutomaticActionsRepository>;
