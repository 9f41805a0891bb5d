// A customer's terminals: assigning and unassigning them by service line (the locks and the
// conditional writes), the assigned list, the month's usage of each one (from the tables, or for
// the current month from the stored rows of 0014, which the refresh of marked lines computes here)
// and the daily totals, and a service line's stored usage history. (One terminal's usage: the
// terminals repository.)
//
// Lock order, the same everywhere a customer's terminals are written: the customer row first,
// then the terminals by user_terminal_id. Two requests touching overlapping lines therefore wait
// for each other instead of deadlocking; a deadlock with another writer (a sync batch) is still
// possible on PostgreSQL, and `transaction` runs the work again when it happens.
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { CustomerUsagePageQuery, CustomerUsageSortField } from '../../../src/domain/customer-terminals';
import { monthRange } from '../../../src/domain/terminals';
import type { Db } from '../client';
import { transactionRetryingConflicts } from '../conflicts';
import { customers, customerUsageRows, providerAccounts, serviceLines, serviceLineUsageCycles, serviceLineUsageDaily, subscriptionDirty, terminals } from '../schema';
import { explain, planNodes, type IsoDay } from './terminals';
import { rowsOf } from './results';

const t = terminals;
const u = serviceLineUsageCycles;
const d = serviceLineUsageDaily;

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
/** The customer's live terminals, of one provider account when given (null: every account's). */
const liveOfAccount = (customerId: string, accountId: number | null) =>
  accountId === null ? liveOf(customerId) : and(liveOf(customerId), eq(t.accountId, accountId));

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
      // Which provider account the line is under: a customer may hold lines of several.
      accountId: providerAccounts.id,
      accountName: providerAccounts.name,
    })
    .from(t)
    .leftJoinLateral(cycle, sql`true`)
    .leftJoin(providerAccounts, eq(providerAccounts.id, t.accountId))
    .where(liveOf(customerId))
    .orderBy(asc(t.serviceLineNumber), asc(t.userTerminalId));
}

export type CustomerUsageRow = Awaited<ReturnType<typeof usageQuery>>[number];

/**
 * The customer's live terminals (of one provider account when given), by service line then id
 * (terminals_customer_live_idx, 0013), each with its account's name.
 */
function assignedQuery(tx: Db, customerId: string, accountId: number | null = null) {
  return tx
    .select({
      userTerminalId: t.userTerminalId,
      serviceLineNumber: t.serviceLineNumber,
      kitSerialNumber: t.kitSerialNumber,
      active: t.active,
      assignedAt: t.assignedAt,
      accountId: providerAccounts.id,
      accountName: providerAccounts.name,
    })
    .from(t)
    .leftJoin(providerAccounts, eq(providerAccounts.id, t.accountId))
    .where(liveOfAccount(customerId, accountId))
    .orderBy(asc(t.serviceLineNumber), asc(t.userTerminalId));
}

export type AssignedRow = Awaited<ReturnType<typeof assignedQuery>>[number];

export interface UsagePageQuery extends Pick<CustomerUsagePageQuery, 'limit' | 'status' | 'sort'> {
  offset: number;
  /** Trimmed; '' for none. */
  search: string;
  /** Only the terminals under this provider account (a filter: the summary counts every one); null for every account's. */
  accountId?: number | null;
}

export interface UsagePageRows {
  rows: CustomerUsageRow[];
  /** Rows matching the search and status. */
  matching: number;
  summary: { total: number; active: number; usedGb: number; overLimit: number };
}

/**
 * The rules of src/domain/customer-terminals.ts in SQL, over the columns `usagePageQuery` names:
 * the status (customerTerminalStatus), the allowance (billingCycle: the cycle's own limit, else the
 * cap in GB, 1 TB = 1,000 GB), and the sort values of the table (usage -1 without a cycle;
 * remaining and overage 0 without a cycle or an allowance).
 */
const PAGE_STATUS = sql.raw(`CASE WHEN sync_status <> 'synced' THEN 'Pending'
  WHEN NOT active OR line_active = false THEN 'Suspended'
  WHEN condition = 'maintenance' THEN 'Maintenance' ELSE 'Active' END`);
const PAGE_ALLOWANCE = sql.raw(`coalesce(cycle_limit_gb, CASE upper(coalesce(data_cap_unit, 'GB'))
  WHEN 'GB' THEN data_cap_amount WHEN 'TB' THEN data_cap_amount * 1000 WHEN 'MB' THEN data_cap_amount / 1000 END, 0)`);
const SORT_VALUE: Record<CustomerUsageSortField, SQL> = {
  serviceLine: sql.raw('service_line_number'),
  usage: sql.raw('coalesce(priority_gb, -1)'),
  remaining: sql.raw('CASE WHEN cycle_start IS NOT NULL AND allowance_gb > 0 THEN greatest(0, allowance_gb - priority_gb) ELSE 0 END'),
  overage: sql.raw('CASE WHEN cycle_start IS NOT NULL AND allowance_gb > 0 THEN greatest(0, priority_gb - allowance_gb) ELSE 0 END'),
};

/**
 * The usage page's rows read from the tables: each live terminal matching `where` with its line's
 * state and picked cycle (as `usageQuery`), its status and allowance (PAGE_STATUS, PAGE_ALLOWANCE),
 * under the column names the page's statement and customer_usage_rows (0014) share, and its holder
 * as customer_id.
 */
function rowsFromTables(where: SQL, pick: CyclePick): SQL {
  return sql`
    SELECT b.*, ${PAGE_STATUS} AS status, ${PAGE_ALLOWANCE} AS allowance_gb FROM (
      SELECT ${t.userTerminalId} AS user_terminal_id, ${t.assignedCustomerId} AS customer_id, ${t.serviceLineNumber} AS service_line_number,
        ${t.location} AS location, ${t.terminalType} AS terminal_type, ${t.plan} AS plan, ${t.active} AS active, ${t.condition} AS condition,
        ${t.syncStatus} AS sync_status, ${t.dataCapAmount} AS data_cap_amount, ${t.dataCapUnit} AS data_cap_unit,
        (SELECT ${serviceLines.active} FROM ${serviceLines} WHERE ${serviceLines.serviceLineNumber} = ${t.serviceLineNumber}) AS line_active,
        cycle.cycle_start, cycle.cycle_end, cycle.priority_gb, cycle.standard_gb, cycle.usage_limit_gb AS cycle_limit_gb
      FROM ${t}
      LEFT JOIN LATERAL (
        SELECT ${u.cycleStart} AS cycle_start, ${u.cycleEnd} AS cycle_end, ${u.priorityGb} AS priority_gb,
          ${u.standardGb} AS standard_gb, ${u.usageLimitGb} AS usage_limit_gb
        FROM ${u} WHERE ${u.serviceLineNumber} = ${t.serviceLineNumber} AND ${cycleCondition(pick)}
        ORDER BY ${u.cycleStart} DESC LIMIT 1
      ) cycle ON true
      WHERE ${where} AND ${t.removedAt} IS NULL
    ) b`;
}

/** The columns of a page row (customer_usage_rows has these and customer_id). */
const ROW_COLUMN_NAMES = [
  'user_terminal_id', 'service_line_number', 'location', 'terminal_type', 'plan', 'active', 'condition', 'sync_status',
  'data_cap_amount', 'data_cap_unit', 'line_active', 'cycle_start', 'cycle_end', 'priority_gb', 'standard_gb', 'cycle_limit_gb',
  'status', 'allowance_gb',
] as const;
const ROW_COLUMNS = sql.raw(ROW_COLUMN_NAMES.join(', '));
/** A stored row's every column but its key, from the row that conflicted with it. */
const ROW_UPDATE = sql.raw(
  ['customer_id', ...ROW_COLUMN_NAMES.filter((name) => name !== 'user_terminal_id')].map((name) => `${name} = excluded.${name}`).join(', '),
);

/**
 * Where the page's rows come from: the tables (any cycle), or the customer's stored rows of the
 * current month (customer_usage_rows, 0014, for storedRowsPick). The stored rows of a line are
 * current unless the line is marked (subscription_dirty): a write that changes a row marks its line
 * in the same transaction, and a refresh takes the marks in the one that writes the rows. So the
 * stored source reads the stored rows of the customer's unmarked lines, and from the tables the
 * terminals on its marked lines and the few the provider moved off their line, which no stored row
 * holds. 'storedRows' is for a caller that just found no line marked (one statement);
 * 'storedRowsAndMarked' looks the customer's marked lines up first, in the same snapshot as the
 * page (a read-only repeatable-read transaction). While a sync writes at 100,000
 * terminals the page is then the stored rows plus the lines the sync touched, where the tables
 * alone took 60–150 ms for a customer with 3,137 lines; past the caller's `markedUpTo` the
 * stored rows alone (usagePage). The caller must have started the day (startDay marks every line).
 */
export type UsagePageSource = 'tables' | 'storedRows' | 'storedRowsAndMarked';

function usagePageRows(customerId: string, pick: CyclePick, source: UsagePageSource, marked: readonly string[]): SQL {
  const holder = sql`${t.assignedCustomerId} = ${customerId}`;
  if (source === 'tables') return sql`SELECT ${ROW_COLUMNS} FROM (${rowsFromTables(holder, pick)}) r`;
  // One array parameter, planned as a constant: a hashed test however many lines are marked. With
  // none marked the statement has no test at all.
  const lines = marked.length > 0 ? sql`${sql.param([...marked])}::text[]` : null;
  const storedCurrent = lines ? sql` AND NOT (${customerUsageRows.serviceLineNumber} = ANY(${lines}))` : sql``;
  const fromTables = lines ? sql`(${t.serviceLineNumber} IS NULL OR ${t.serviceLineNumber} = ANY(${lines}))` : sql`${t.serviceLineNumber} IS NULL`;
  return sql`
    SELECT ${ROW_COLUMNS} FROM ${customerUsageRows} WHERE ${customerUsageRows.customerId} = ${customerId}${storedCurrent}
    UNION ALL
    SELECT ${ROW_COLUMNS} FROM (${rowsFromTables(sql`${holder} AND ${fromTables}`, pick)}) r`;
}

/**
 * The marked lines (subscription_dirty) among the customer's, at most `upTo` + 1 of them: the lines
 * of its live terminals, and those of its stored rows (a terminal removed or given to another
 * customer leaves its row behind until its line is computed again). Each of the customer's lines
 * is looked up in the marks' index (OFFSET 0 keeps the test a lookup per line: as a join, a
 * planner that believes the marks gone, as a VACUUM of their emptied table can leave it, would
 * read every mark of a sync first).
 */
async function markedLinesOf(tx: Db, customerId: string, upTo: number): Promise<string[]> {
  const limit = Number.isFinite(upTo) ? sql` LIMIT ${upTo + 1}` : sql``;
  const marked = (line: SQL) => sql`EXISTS (SELECT 1 FROM ${subscriptionDirty} AS dirty WHERE dirty.service_line_number = ${line} OFFSET 0)`;
  const rows = rowsOf<{ line: string }>(
    await tx.execute(sql`
      SELECT ${t.serviceLineNumber} AS line FROM ${t}
      WHERE ${t.assignedCustomerId} = ${customerId} AND ${t.removedAt} IS NULL AND ${marked(sql`${t.serviceLineNumber}`)}
      UNION
      SELECT ${customerUsageRows.serviceLineNumber} FROM ${customerUsageRows}
      WHERE ${customerUsageRows.customerId} = ${customerId} AND ${marked(sql`${customerUsageRows.serviceLineNumber}`)}${limit}`),
  );
  return rows.map((row) => row.line);
}

/**
 * One page of the customer's usage table and the summary cards, in one statement: every live
 * terminal of the customer with its picked cycle, counted for the summary and searched, filtered,
 * sorted and cut for the page. Ties break by service line, then terminal, as the full list is
 * ordered. Read from the tables, the rows are computed once (MATERIALIZED: a lookup of the cycle
 * and the line per terminal); the stored rows are read where each use needs them instead (NOT
 * MATERIALIZED), the summary and the page each from the customer's index (a customer of 3,135
 * lines: 4.8 ms, where copying the wide rows into one materialized set first took 10.5). Unfiltered,
 * the matching rows are all of them: counted with the summary, not read again.
 */
function usagePageQuery(customerId: string, pick: CyclePick, query: UsagePageQuery, source: UsagePageSource, marked: readonly string[] = []): SQL {
  const needle = query.search.toLowerCase();
  const matches = needle
    ? sql`(strpos(lower(coalesce(service_line_number, '')), ${needle}) > 0 OR strpos(lower(user_terminal_id), ${needle}) > 0
          OR strpos(lower(coalesce(location, '')), ${needle}) > 0 OR strpos(lower(coalesce(plan, '')), ${needle}) > 0
          OR strpos(lower(coalesce(terminal_type, '')), ${needle}) > 0)`
    : sql`true`;
  const status = query.status === 'all' ? sql`true` : sql`status = ${query.status}`;
  const direction = sql.raw(query.sort?.order === -1 ? 'DESC' : 'ASC');
  const order = query.sort ? sql`${SORT_VALUE[query.sort.field]} ${direction}, ` : sql``;
  // One provider account's rows, a filter as the status is (the summary still counts every
  // terminal of the customer): a key lookup of each terminal, as the stored rows hold no account.
  const accountId = query.accountId ?? null;
  const account = accountId === null ? sql`true` : sql`(SELECT ${t.accountId} FROM ${t} WHERE ${t.userTerminalId} = rows.user_terminal_id) = ${accountId}`;
  const filtered = Boolean(needle) || query.status !== 'all' || accountId !== null;
  const matching = filtered ? sql`(SELECT count(*)::int FROM shown)` : sql`count(*)::int`;
  const materialized = sql.raw(source === 'tables' ? 'MATERIALIZED' : 'NOT MATERIALIZED');
  // The page's rows, ordered, then their account (a key lookup for each row of the page only).
  // Over the limit is a rounded percentage above 100 (the row's bar), round(100 p / a) > 100, that
  // is 100 p / a >= 100.5: multiplied out, with no numeric division, which was half the summary's
  // time over a customer's 3,000 rows.
  return sql`
    WITH rows AS ${materialized} (${usagePageRows(customerId, pick, source, marked)}),
    shown AS (SELECT * FROM rows WHERE ${status} AND ${matches} AND ${account})
    SELECT
      (SELECT coalesce(json_agg(q ORDER BY ${order}service_line_number, user_terminal_id), '[]'::json) FROM (
        SELECT p.*, acct.account_id, acct.account_name FROM (
          SELECT * FROM shown ORDER BY ${order}service_line_number, user_terminal_id
          LIMIT ${query.limit} OFFSET ${query.offset}) p
        LEFT JOIN LATERAL (
          SELECT ${providerAccounts.id} AS account_id, ${providerAccounts.name} AS account_name
          FROM ${t} JOIN ${providerAccounts} ON ${providerAccounts.id} = ${t.accountId}
          WHERE ${t.userTerminalId} = p.user_terminal_id
        ) acct ON true) q) AS page,
      ${matching} AS matching,
      count(*)::int AS total,
      (count(*) FILTER (WHERE status = 'Active'))::int AS active,
      coalesce(sum(round(coalesce(priority_gb, 0) + coalesce(standard_gb, 0), 2)), 0)::text AS used_gb,
      (count(*) FILTER (WHERE cycle_start IS NOT NULL AND allowance_gb > 0 AND priority_gb * 200 >= allowance_gb * 201))::int AS over_limit
    FROM rows`;
}

/**
 * The cycle the stored usage rows hold: the one that started in the month of `today`, which is what
 * the usage page asks for the current month (the month's billing_cycle_start and end).
 */
export function storedRowsPick(today: IsoDay): Extract<CyclePick, { kind: 'startedBetween' }> {
  const { start, end } = monthRange(Number(today.slice(0, 4)), Number(today.slice(5, 7)));
  return { kind: 'startedBetween', from: start, to: end };
}

/** Whether `pick` is the one the stored usage rows of `today` hold. */
export function isStoredRowsPick(pick: CyclePick, today: IsoDay): boolean {
  const stored = storedRowsPick(today);
  return pick.kind === stored.kind && pick.from === stored.from && pick.to === stored.to;
}

/**
 * Computes the stored usage rows (customer_usage_rows, 0014) of the lines again, for the cycle
 * that started in the month of `today` (storedRowsPick), within the caller's transaction: the
 * refresh of the marked lines (subscriptions repository) runs it beside the lines' subscription
 * rows. Only rows that changed are written, and rows of terminals no longer on these lines (or no
 * longer live and held) deleted: a day's refresh of every line leaves the unchanged ones, so the
 * page keeps reading its index alone (no dead rows, pages all-visible). A terminal that moved
 * between two lines keeps one row (the key is the terminal), whichever line is computed first.
 */
export async function refreshCustomerUsageRows(tx: Db, lines: readonly string[], today: IsoDay): Promise<void> {
  if (lines.length === 0) return;
  const list = sql.join(lines.map((line) => sql`${line}`), sql`, `);
  await tx.execute(sql`
    WITH fresh AS MATERIALIZED (
      SELECT customer_id, ${ROW_COLUMNS}
      FROM (${rowsFromTables(sql`${t.serviceLineNumber} IN (${list}) AND ${t.assignedCustomerId} IS NOT NULL`, storedRowsPick(today))}) r
    ),
    gone AS (
      DELETE FROM customer_usage_rows old WHERE old.service_line_number IN (${list})
        AND NOT EXISTS (SELECT 1 FROM fresh WHERE fresh.user_terminal_id = old.user_terminal_id)
    )
    INSERT INTO customer_usage_rows AS cur (customer_id, ${ROW_COLUMNS})
    SELECT customer_id, ${ROW_COLUMNS} FROM fresh
    ON CONFLICT (user_terminal_id) DO UPDATE SET ${ROW_UPDATE}
    WHERE (cur.*) IS DISTINCT FROM (excluded.*)`);
}

/** A row of the page's JSON as `usageQuery` types it (numbers from numeric columns, days as text). */
function pageRow(raw: Record<string, unknown>): CustomerUsageRow {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    userTerminalId: String(raw.user_terminal_id),
    serviceLineNumber: (raw.service_line_number as string | null) ?? null,
    location: (raw.location as string | null) ?? null,
    terminalType: (raw.terminal_type as string | null) ?? null,
    plan: (raw.plan as string | null) ?? null,
    active: raw.active === true,
    condition: raw.condition as CustomerUsageRow['condition'],
    syncStatus: raw.sync_status as CustomerUsageRow['syncStatus'],
    dataCapAmount: num(raw.data_cap_amount),
    dataCapUnit: (raw.data_cap_unit as string | null) ?? null,
    lineActive: raw.line_active === null || raw.line_active === undefined ? null : raw.line_active === true,
    cycleStart: (raw.cycle_start as string | null) ?? null,
    cycleEnd: (raw.cycle_end as string | null) ?? null,
    priorityGb: num(raw.priority_gb),
    standardGb: num(raw.standard_gb),
    usageLimitGb: num(raw.cycle_limit_gb),
    accountId: num(raw.account_id),
    accountName: (raw.account_name as string | null) ?? null,
  };
}

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
    /** `work` in one transaction, run again when PostgreSQL ends it with a deadlock (conflicts.ts). */
    transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return transactionRetryingConflicts(db, work);
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

    /** Service lines whose live terminals are all unassigned (what a demo can hand out), the accounts in turn. */
    async freeLines(tx: Db = db): Promise<string[]> {
      const rows = await tx
        .select({ line: t.serviceLineNumber, accountId: sql<number>`min(${t.accountId})` })
        .from(t)
        .where(and(isNull(t.removedAt), isNotNull(t.serviceLineNumber)))
        .groupBy(t.serviceLineNumber)
        .having(sql`bool_and(${t.assignedCustomerId} IS NULL)`)
        .orderBy(asc(t.serviceLineNumber));
      // The provider accounts taken in turn, each in line order: a hand-out that stops part way
      // still gives lines of every account.
      const byAccount = new Map<number, string[]>();
      for (const row of rows) {
        const lines = byAccount.get(Number(row.accountId)) ?? [];
        lines.push(row.line!);
        byAccount.set(Number(row.accountId), lines);
      }
      const queues = [...byAccount.entries()].sort(([a], [b]) => a - b).map(([, lines]) => lines);
      const mixed: string[] = [];
      for (let k = 0; mixed.length < rows.length; k++) for (const lines of queues) if (k < lines.length) mixed.push(lines[k]!);
      return mixed;
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
      return assignedQuery(tx, customerId);
    },

    /** A page of `assignedTo` (of one provider account when given) and how many there are. */
    async assignedPage(customerId: string, offset: number, limit: number, accountId: number | null = null, tx: Db = db) {
      const [rows, [count]] = await Promise.all([
        assignedQuery(tx, customerId, accountId).limit(limit).offset(offset),
        tx.select({ n: sql<number>`count(*)::int` }).from(t).where(liveOfAccount(customerId, accountId)),
      ]);
      return { rows, total: Number(count?.n ?? 0) };
    },

    async planOfAssignedTo(customerId: string, tx: Db = db): Promise<string[]> {
      return planOf(tx, assignedQuery(tx, customerId).getSQL());
    },

    /** Each live terminal of the customer with its line's picked cycle (null fields: no cycle). */
    async usage(customerId: string, pick: CyclePick, tx: Db = db): Promise<CustomerUsageRow[]> {
      return usageQuery(tx, customerId, pick);
    },

    /**
     * One page of the usage table (searched, filtered, sorted) and the summary over all the
     * customer's terminals. With 'storedRowsAndMarked' and `markedUpTo`, a customer with more of its
     * lines marked than that (a sync's worth) is answered from its stored rows alone, as 'storedRows'
     * would: `behind` then says the rows of those lines are as their last refresh left them.
     */
    async usagePage(
      customerId: string,
      pick: CyclePick,
      query: UsagePageQuery,
      source: UsagePageSource = 'tables',
      { markedUpTo = Number.POSITIVE_INFINITY, tx = db }: { markedUpTo?: number; tx?: Db } = {},
    ): Promise<UsagePageRows & { behind: boolean }> {
      let behind = false;
      const read = async (rtx: Db) => {
        let marked = source === 'storedRowsAndMarked' ? await markedLinesOf(rtx, customerId, markedUpTo) : [];
        if (marked.length > markedUpTo) {
          behind = true;
          marked = [];
        }
        return rowsOf<{ page: unknown; matching: number; total: number; active: number; used_gb: string; over_limit: number }>(
          await rtx.execute(usagePageQuery(customerId, pick, query, behind ? 'storedRows' : source, marked)),
        );
      };
      // The marks and the rows from one snapshot (see UsagePageSource).
      const [row] =
        source === 'storedRowsAndMarked' && tx === db ? await db.transaction(read, { isolationLevel: 'repeatable read', accessMode: 'read only' }) : await read(tx);
      // PGlite hands json back parsed; node-postgres too (json is parsed by its type parser).
      const page = (typeof row?.page === 'string' ? JSON.parse(row.page) : (row?.page ?? [])) as Record<string, unknown>[];
      return {
        rows: page.map(pageRow),
        matching: Number(row?.matching ?? 0),
        summary: { total: Number(row?.total ?? 0), active: Number(row?.active ?? 0), usedGb: Number(row?.used_gb ?? 0), overLimit: Number(row?.over_limit ?? 0) },
        behind,
      };
    },

    async planOfUsagePage(customerId: string, pick: CyclePick, query: UsagePageQuery, source: UsagePageSource = 'tables', tx: Db = db): Promise<string[]> {
      return planOf(tx, usagePageQuery(customerId, pick, query, source, source === 'storedRowsAndMarked' ? await markedLinesOf(tx, customerId, Number.POSITIVE_INFINITY) : []));
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

    /** Rows of deltas stored (a fold brings them down to one a customer and day; the tests read it). */
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
