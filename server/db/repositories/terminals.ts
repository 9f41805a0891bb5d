// The terminal inventory as the portal reads it: the list (search, filters, sorts, paging), the
// fleet figures, one terminal with everything the details dialog shows, a service line's usage,
// and the one write the portal makes to a synced row: assigning it to a customer. (The sync
// worker's writes live in terminal-inventory.ts.)
import { and, asc, desc, eq, gte, isNotNull, isNull, lte, sql, type AnyColumn, type SQL, type SQLWrapper } from 'drizzle-orm';
import { type TerminalSort, type TerminalSyncStatus } from '../../../src/domain/terminals';
import type { Db } from '../client';
import {
  customers,
  providerAccounts,
  providerAddresses,
  providerProducts,
  serviceLines,
  serviceLineUsageCycles,
  serviceLineUsageDaily,
  terminals,
  terminalTelemetry,
  type UsageCycleRow,
  type UsageDailyRow,
} from '../schema';
import { escapeLike, searchTerm } from './customers';
import { rowsOf } from './results';

export interface TerminalListFilter {
  /** Spec 5: case-insensitive substring of the four provider ids, the customer's id or name. */
  search?: string | null;
  active?: boolean | null;
  assigned?: boolean | null;
  syncStatus?: TerminalSyncStatus | null;
  /** One provider account's terminals only. */
  accountId?: number | null;
}

export interface TerminalPage {
  limit: number;
  offset: number;
  sort: TerminalSort;
}

const t = terminals;

/** What a list row needs: the terminal's own columns and the assigned customer's name. */
const listColumns = {
  userTerminalId: t.userTerminalId,
  kitSerialNumber: t.kitSerialNumber,
  dishSerialNumber: t.dishSerialNumber,
  serviceLineNumber: t.serviceLineNumber,
  nickname: t.nickname,
  active: t.active,
  condition: t.condition,
  assignedCustomerId: t.assignedCustomerId,
  syncStatus: t.syncStatus,
  lastSyncedAt: t.lastSyncedAt,
  dataCapUpdatedAt: t.dataCapUpdatedAt,
  updatedAt: t.updatedAt,
  terminalType: t.terminalType,
  plan: t.plan,
  location: t.location,
  region: t.region,
  accountId: t.accountId,
  accountName: providerAccounts.name,
  // A soft-deleted customer keeps its name here: the assignment is history the row still shows.
  customerName: customers.name,
};

/** Everything the details dialog shows about one terminal. */
const detailColumns = {
  ...listColumns,
  accountNumber: t.accountNumber,
  model: t.model,
  dataCapAmount: t.dataCapAmount,
  dataCapUnit: t.dataCapUnit,
  syncError: t.syncError,
  removedAt: t.removedAt,
  terminalLatitude: t.latitude,
  terminalLongitude: t.longitude,
  customerCompany: customers.company,
  line: {
    serviceLineNumber: serviceLines.serviceLineNumber,
    active: serviceLines.active,
    productReferenceId: serviceLines.productReferenceId,
    startDate: serviceLines.startDate,
    endDate: serviceLines.endDate,
    addressReferenceId: serviceLines.addressReferenceId,
  },
  address: {
    addressReferenceId: providerAddresses.addressReferenceId,
    formattedAddress: providerAddresses.formattedAddress,
    region: providerAddresses.region,
    latitude: providerAddresses.latitude,
    longitude: providerAddresses.longitude,
  },
  telemetry: {
    userTerminalId: terminalTelemetry.userTerminalId,
    reportedAt: terminalTelemetry.reportedAt,
    signalQuality: terminalTelemetry.signalQuality,
    uptimeSeconds: terminalTelemetry.uptimeSeconds,
    downlinkMbps: terminalTelemetry.downlinkMbps,
    uplinkMbps: terminalTelemetry.uplinkMbps,
    latencyMs: terminalTelemetry.latencyMs,
    obstructionPercent: terminalTelemetry.obstructionPercent,
    softwareVersion: terminalTelemetry.softwareVersion,
    alerts: terminalTelemetry.alerts,
  },
};

/**
 * A list filter made ready for SQL: the search term as an escaped LIKE pattern, with the ids of
 * the customers whose name matches it looked up once (see resolve) for the page and the count.
 */
export interface TerminalQuery {
  pattern: string | null;
  /** Customers whose name holds the term; 'many' when there are too many to pass as a list. */
  named: readonly string[] | 'many';
  active: boolean | null;
  assigned: boolean | null;
  syncStatus: TerminalSyncStatus | null;
  accountId: number | null;
}

/**
 * Above this many matching customers the ids are not passed to the list query: the term is too
 * common for an index to help, and a sub-select (hashed once per query) costs the same.
 */
const NAMED_IDS_MAX = 1000;

/** The customers whose name holds the pattern (customers.search_text narrows through its trigram index). */
const namedCustomers = (pattern: unknown) =>
  sql`SELECT named.id FROM customers AS named WHERE named.search_text LIKE lower(${pattern}) AND lower(named.name) LIKE lower(${pattern})`;

/**
 * Spec 5 "Terminals search". The four provider ids and the customer's id are in search_text
 * (trigram GIN indexed). The customer's name is not (a rename would rewrite every terminal of
 * the customer): resolve finds the matching customers first, and their ids arrive here as one
 * array parameter. PostgreSQL plans a parameter array as a constant, so both sides of the OR are
 * index scans combined in one bitmap (trigram index, terminals_customer_idx), and a scan that
 * cannot use the trigram index (a term under three characters) tests the array through a hash
 * table. (An ARRAY(sub-select) in its place was measured 2–3x slower at 100,000 terminals: the
 * executor tests a sub-select's array element by element on every row.)
 */
function searchCondition(pattern: unknown, named: TerminalQuery['named'], bind: Bind): SQL {
  const own = sql`${t.searchText} LIKE lower(${pattern})`;
  if (named === 'many') return sql`(${own} OR ${t.assignedCustomerId} IN (${namedCustomers(pattern)}))`;
  if (named.length === 0) return own;
  return sql`(${own} OR ${t.assignedCustomerId} = ANY(${bind.named(named)}::uuid[]))`;
}

/**
 * How a list query takes its values: inline, or as placeholders of a query built once per shape
 * and given its values at each execution (listShape).
 */
interface Bind {
  pattern(pattern: string): unknown;
  named(ids: readonly string[]): unknown;
  active(active: boolean): boolean | SQLWrapper;
  syncStatus(status: TerminalSyncStatus): TerminalSyncStatus | SQLWrapper;
  accountId(id: number): number | SQLWrapper;
}
const inline: Bind = {
  pattern: (pattern) => pattern,
  // One array parameter (a bare array in sql`` would be one parameter per element).
  named: (ids) => sql.param([...ids]),
  active: (active) => active,
  syncStatus: (status) => status,
  accountId: (id) => id,
};
const placeholders: Bind = {
  pattern: () => sql.placeholder('pattern'),
  named: () => sql.placeholder('named'),
  active: () => sql.placeholder('active'),
  syncStatus: () => sql.placeholder('syncStatus'),
  accountId: () => sql.placeholder('accountId'),
};

function listWhere(query: TerminalQuery, bind: Bind = inline): SQL | undefined {
  const conditions: (SQL | undefined)[] = [isNull(t.removedAt)];
  if (query.pattern) conditions.push(searchCondition(bind.pattern(query.pattern), query.named, bind));
  if (query.active !== null) conditions.push(eq(t.active, bind.active(query.active)));
  if (query.assigned === true) conditions.push(isNotNull(t.assignedCustomerId));
  if (query.assigned === false) conditions.push(isNull(t.assignedCustomerId));
  if (query.syncStatus) conditions.push(eq(t.syncStatus, bind.syncStatus(query.syncStatus)));
  if (query.accountId !== null) conditions.push(eq(t.accountId, bind.accountId(query.accountId)));
  return and(...conditions);
}

interface OrderKey {
  expr: SQL | AnyColumn;
  descending: boolean;
  nullsFirst: boolean;
}
const key = (expr: SQL | AnyColumn, descending: boolean, nullsFirst = descending): OrderKey => ({ expr, descending, nullsFirst });

/**
 * Every order ends on user_terminal_id (the primary key), so equal sort values never make pages
 * overlap. The service-line and id orders keep PostgreSQL's default NULL placement (last
 * ascending, first descending) so both directions walk an index (terminals_live_line_idx,
 * terminals_pkey) instead of sorting the table; last-synced and owner put missing values last
 * either way (no index serves them).
 */
const ORDERS: Record<TerminalSort, OrderKey[]> = {
  service_line: [key(t.serviceLineNumber, false), key(t.userTerminalId, false)],
  '-service_line': [key(t.serviceLineNumber, true), key(t.userTerminalId, true)],
  terminal_id: [key(t.userTerminalId, false)],
  '-terminal_id': [key(t.userTerminalId, true)],
  last_synced: [key(t.lastSyncedAt, false, false), key(t.userTerminalId, false)],
  '-last_synced': [key(t.lastSyncedAt, true, false), key(t.userTerminalId, true)],
  owner: [key(sql`lower(${customers.name})`, false, false), key(t.userTerminalId, false)],
  '-owner': [key(sql`lower(${customers.name})`, true, false), key(t.userTerminalId, true)],
};

/** The ORDER BY of a sort, or its exact mirror image (NULL placement included) when reversed. */
function orderBy(sort: TerminalSort, reversed: boolean): SQL[] {
  return ORDERS[sort].map(({ expr, descending, nullsFirst }) => {
    const direction = descending !== reversed ? 'DESC' : 'ASC';
    const nulls = nullsFirst !== reversed ? 'FIRST' : 'LAST';
    return sql`${expr} ${sql.raw(direction)} NULLS ${sql.raw(nulls)}`;
  });
}

/**
 * One page, fetched in two steps: the page's keys first (only the columns the filter and the
 * order need, so rows skipped by OFFSET are never joined to their customer), then those rows
 * with their customer's name. `reversed` reads the order from the far end (see the service's
 * deep-page rule); the caller turns the rows around.
 */
function listQuery(tx: Db, query: TerminalQuery, page: TerminalPage, reversed = false, bind: Bind = inline) {
  const keys = tx.select({ id: t.userTerminalId }).from(terminals).$dynamic();
  if (page.sort === 'owner' || page.sort === '-owner') keys.leftJoin(customers, eq(customers.id, t.assignedCustomerId));
  const pageKeys = keys
    .where(listWhere(query, bind))
    .orderBy(...orderBy(page.sort, reversed))
    .limit(bind === inline ? page.limit : sql.placeholder('limit'))
    .offset(bind === inline ? page.offset : sql.placeholder('offset'))
    .as('page_keys');
  return tx
    .select(listColumns)
    .from(pageKeys)
    .innerJoin(terminals, eq(t.userTerminalId, pageKeys.id))
    .innerJoin(providerAccounts, eq(providerAccounts.id, t.accountId))
    .leftJoin(customers, eq(customers.id, t.assignedCustomerId))
    .orderBy(...orderBy(page.sort, reversed));
}

/** What decides a list query's text: everything but the values (listWhere and listQuery). */
function listShape(query: TerminalQuery, sort: TerminalSort, reversed: boolean): string {
  const search = query.pattern === null ? '-' : query.named === 'many' ? 'many' : query.named.length > 0 ? 'ids' : 'own';
  return [search, query.active === null ? '-' : 'active', query.assigned, query.syncStatus === null ? '-' : 'sync', query.accountId === null ? '-' : 'account', sort, reversed].join('|');
}

export type TerminalListRow = Awaited<ReturnType<typeof listQuery>>[number];

/** The count needs no join: every condition is on terminals. */
function countQuery(tx: Db, query: TerminalQuery) {
  return tx
    .select({ n: sql<number>`count(*)::int` })
    .from(terminals)
    .where(listWhere(query));
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Plan Rows'?: number;
  Plans?: PlanNode[];
}

export async function explain(tx: Db, query: SQL): Promise<PlanNode | undefined> {
  const result = (await tx.execute(sql`EXPLAIN (FORMAT JSON) ${query}`)) as unknown as { rows: Record<string, unknown>[] };
  const raw = Object.values(result.rows[0] ?? {})[0];
  const root = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
  return root[0]?.Plan;
}

/** Depth-first node types, with the index name where one is used. */
export function planNodes(node: PlanNode | undefined): string[] {
  if (!node) return [];
  const self = node['Index Name'] ? `${node['Node Type']} (${node['Index Name']})` : node['Node Type'];
  return [self, ...(node.Plans ?? []).flatMap(planNodes)];
}

function detailQuery(tx: Db, userTerminalId: string) {
  return tx
    .select(detailColumns)
    .from(terminals)
    .innerJoin(providerAccounts, eq(providerAccounts.id, t.accountId))
    .leftJoin(customers, eq(customers.id, t.assignedCustomerId))
    .leftJoin(serviceLines, eq(serviceLines.serviceLineNumber, t.serviceLineNumber))
    .leftJoin(providerAddresses, eq(providerAddresses.addressReferenceId, serviceLines.addressReferenceId))
    .leftJoin(terminalTelemetry, eq(terminalTelemetry.userTerminalId, t.userTerminalId))
    .where(eq(t.userTerminalId, userTerminalId));
}

export type TerminalDetailRow = Awaited<ReturnType<typeof detailQuery>>[number];

export interface FleetFigures {
  total: number;
  priority: number;
  active: number;
  warning: number;
  maintenance: number;
  inactive: number;
  assigned: number;
  synced: number;
  pending: number;
  error: number;
  /** Mean signal quality as stored (0–1) over active terminals that report one; null when none. */
  meanSignalQuality: number | null;
  /** Active terminals with a telemetry row, and how many of those were online at the reading. */
  telemetryCount: number;
  onlineCount: number;
  /** Current-cycle GB over the live lines; null when no line has a cycle containing the day. */
  priorityGB: number | null;
  standardGB: number | null;
}

export interface ServiceLineInfo {
  serviceLineNumber: string;
  active: boolean;
  syncedAt: Date;
  productName: string | null;
  formattedAddress: string | null;
}

/** `YYYY-MM-DD`, the form `date` columns compare with. */
export type IsoDay = string;

const num = (value: unknown): number => Number(value ?? 0);

/** The counts fleet_figures keeps for the live terminals (onActiveLine: on an active line). */
type FleetCounts = Omit<FleetFigures, 'meanSignalQuality' | 'telemetryCount' | 'onlineCount' | 'priorityGB' | 'standardGB'> & { onActiveLine: number };

function countsOf(row: Record<string, unknown>): FleetCounts {
  return {
    total: num(row.total),
    priority: num(row.priority),
    active: num(row.active),
    warning: num(row.warning),
    maintenance: num(row.maintenance),
    inactive: num(row.inactive),
    assigned: num(row.assigned),
    synced: num(row.synced),
    pending: num(row.pending),
    error: num(row.error),
    onActiveLine: num(row.on_active_line),
  };
}

/** The terminal counts as of now, without the upkeep fleet_figures_current may do. */
async function fleetCounts(tx: Db): Promise<FleetCounts> {
  const [row] = rowsOf<Record<string, unknown>>(await tx.execute(sql`SELECT * FROM fleet_figures_now`));
  if (!row) throw new Error('fleet_figures has no row: the database was not migrated');
  return countsOf(row);
}

export type TerminalsRepository = ReturnType<typeof createTerminalsRepository>;

export function createTerminalsRepository(db: Db) {
  /** The list query of each shape (listShape), prepared on `db`: at most a few hundred shapes. */
  const listShapes = new Map<string, ReturnType<ReturnType<typeof listQuery>['prepare']>>();
  return {
    /** The filter made ready for list, count and estimateCount: the name search looked up once. */
    async resolve(filter: TerminalListFilter, tx: Db = db): Promise<TerminalQuery> {
      const term = searchTerm(filter.search);
      const pattern = term ? `%${escapeLike(term)}%` : null;
      let named: TerminalQuery['named'] = [];
      if (pattern) {
        const result = (await tx.execute(sql`${namedCustomers(pattern)} LIMIT ${NAMED_IDS_MAX + 1}`)) as unknown as { rows: { id: string }[] };
        named = result.rows.length > NAMED_IDS_MAX ? 'many' : result.rows.map((r) => r.id);
      }
      return { pattern, named, active: filter.active ?? null, assigned: filter.assigned ?? null, syncStatus: filter.syncStatus ?? null, accountId: filter.accountId ?? null };
    },

    /** One page in the asked order, or (reversed) counted from the far end and in mirror order. */
    async list(query: TerminalQuery, page: TerminalPage, options: { reversed?: boolean } = {}, tx: Db = db): Promise<TerminalListRow[]> {
      const reversed = options.reversed ?? false;
      if (tx !== db) return listQuery(tx, query, page, reversed);
      // Built once per shape (Drizzle's build was ~7 % of a page's CPU on the embedded database).
      // The empty name keeps node-postgres's statement unnamed, planned at every execution as a
      // search pattern needs; PGlite's driver ignores the name (pglite-statements.ts prepares).
      const shape = listShape(query, page.sort, reversed);
      let prepared = listShapes.get(shape);
      if (!prepared) {
        prepared = listQuery(db, query, page, reversed, placeholders).prepare('');
        listShapes.set(shape, prepared);
      }
      return prepared.execute({
        pattern: query.pattern,
        named: query.named === 'many' ? [] : [...query.named],
        active: query.active,
        syncStatus: query.syncStatus,
        accountId: query.accountId,
        limit: page.limit,
        offset: page.offset,
      });
    },

    /** The exact number of live terminals the query matches. */
    async count(query: TerminalQuery, tx: Db = db): Promise<number> {
      const [row] = await countQuery(tx, query);
      return num(row?.n);
    },

    /**
     * The planner's estimate of the rows `count` would find (EXPLAIN, not run: well under a
     * millisecond). Good to a few percent once the table has statistics; a table without them
     * gets a small default estimate, so a caller that counts exactly below a threshold does so.
     */
    async estimateCount(query: TerminalQuery, tx: Db = db): Promise<number> {
      const plan = await explain(tx, tx.select({ one: sql`1` }).from(terminals).where(listWhere(query)).getSQL());
      return Math.max(0, Math.round(plan?.['Plan Rows'] ?? 0));
    },

    /** The plans of `list` and `count` (EXPLAIN, not run), for the benchmark and slow pages. */
    async planOfList(query: TerminalQuery, page: TerminalPage, tx: Db = db): Promise<{ list: string[]; count: string[] }> {
      return {
        list: planNodes(await explain(tx, listQuery(tx, query, page).getSQL())),
        count: planNodes(await explain(tx, countQuery(tx, query).getSQL())),
      };
    },

    /**
     * Every figure of the summary cards (migrations 0009 and 0011 keep them: the counts exact at
     * every commit, as the stored row plus the deltas writers appended; telemetry and the usage of
     * the cycles containing `today` recounted by fleet_figures_current when a write marked them,
     * at most every 30 s while a sync is writing).
     */
    async fleetFigures(today: IsoDay, tx: Db = db): Promise<FleetFigures> {
      const [row] = rowsOf<Record<string, unknown>>(await tx.execute(sql`SELECT * FROM fleet_figures_current(${today}::date)`));
      if (!row) throw new Error('fleet_figures has no row: the database was not migrated');
      const { onActiveLine: _onActiveLine, ...counts } = countsOf(row);
      return {
        ...counts,
        meanSignalQuality: row.mean_signal_quality === null ? null : Number(row.mean_signal_quality),
        telemetryCount: num(row.telemetry_count),
        onlineCount: num(row.online_count),
        priorityGB: num(row.usage_lines) > 0 ? num(row.priority_gb) : null,
        standardGB: num(row.usage_lines) > 0 ? num(row.standard_gb) : null,
      };
    },

    /**
     * The exact count of a filter the fleet figures already keep (no search, at most one of active,
     * assigned and sync status); null for any other filter.
     */
    async countFromFigures(query: TerminalQuery, tx: Db = db): Promise<number | null> {
      const filters = [query.active, query.assigned, query.syncStatus].filter((f) => f !== null).length;
      // The figures are the whole fleet's: one account's share is counted.
      if (query.pattern || filters > 1 || query.accountId !== null) return null;
      const f = await fleetCounts(tx);
      if (query.active !== null) return query.active ? f.onActiveLine : f.total - f.onActiveLine;
      if (query.assigned !== null) return query.assigned ? f.assigned : f.total - f.assigned;
      if (query.syncStatus) return f[query.syncStatus];
      return f.total;
    },

    /** Sync status counts of the live terminals. */
    async syncCounts(tx: Db = db): Promise<{ synced: number; pending: number; error: number }> {
      const { synced, pending, error } = await fleetCounts(tx);
      return { synced, pending, error };
    },

    /** One terminal, live or removed, with its customer, line, address and latest telemetry. */
    async findDetail(userTerminalId: string, tx: Db = db): Promise<TerminalDetailRow | null> {
      const [row] = await detailQuery(tx, userTerminalId);
      return row ?? null;
    },

    /** Whose a terminal is now (and whether it is still listed), without locking it. */
    async findAssignment(userTerminalId: string, tx: Db = db) {
      const [row] = await tx
        .select({
          userTerminalId: t.userTerminalId,
          serviceLineNumber: t.serviceLineNumber,
          removedAt: t.removedAt,
          assignedCustomerId: t.assignedCustomerId,
          assignedAt: t.assignedAt,
          customerName: customers.name,
        })
        .from(terminals)
        .leftJoin(customers, eq(customers.id, t.assignedCustomerId))
        .where(eq(t.userTerminalId, userTerminalId));
      return row ?? null;
    },

    /**
     * Assigns a live, unassigned terminal. The condition is in the UPDATE itself, so of two
     * concurrent assignments the second re-checks the row after the first commits (PostgreSQL
     * re-evaluates the WHERE of a row it waited for) and finds it taken: false, nothing written.
     */
    async assignIfUnassigned(userTerminalId: string, customerId: string, at: Date, tx: Db = db): Promise<boolean> {
      const rows = await tx
        .update(terminals)
        .set({ assignedCustomerId: customerId, assignedAt: at, updatedAt: at })
        .where(and(eq(t.userTerminalId, userTerminalId), isNull(t.removedAt), isNull(t.assignedCustomerId)))
        .returning({ id: t.userTerminalId });
      return rows.length > 0;
    },

    /** The service line as synced (removed or not), with its product's name and address. */
    async findServiceLine(serviceLineNumber: string, tx: Db = db): Promise<ServiceLineInfo | null> {
      const [row] = await tx
        .select({
          serviceLineNumber: serviceLines.serviceLineNumber,
          active: serviceLines.active,
          syncedAt: serviceLines.syncedAt,
          productName: providerProducts.name,
          formattedAddress: providerAddresses.formattedAddress,
        })
        .from(serviceLines)
        .leftJoin(providerProducts, and(eq(providerProducts.productReferenceId, serviceLines.productReferenceId), eq(providerProducts.accountId, serviceLines.accountId)))
        .leftJoin(providerAddresses, eq(providerAddresses.addressReferenceId, serviceLines.addressReferenceId))
        .where(eq(serviceLines.serviceLineNumber, serviceLineNumber));
      return row ?? null;
    },

    /** The live terminal on a line (the first by id, should a line ever carry two), or null. */
    async findLiveOnLine(serviceLineNumber: string, tx: Db = db) {
      const [row] = await tx
        .select({
          userTerminalId: t.userTerminalId,
          active: t.active,
          lastSyncedAt: t.lastSyncedAt,
          dataCapAmount: t.dataCapAmount,
          dataCapUnit: t.dataCapUnit,
          plan: t.plan,
          location: t.location,
          terminalType: t.terminalType,
          customerId: customers.id,
          customerName: customers.name,
          customerCompany: customers.company,
        })
        .from(terminals)
        .leftJoin(customers, eq(customers.id, t.assignedCustomerId))
        .where(and(eq(t.serviceLineNumber, serviceLineNumber), isNull(t.removedAt)))
        .orderBy(asc(t.userTerminalId))
        .limit(1);
      return row ?? null;
    },

    /** The line's cycle containing the day (the latest, should two overlap). */
    async cycleContaining(serviceLineNumber: string, day: IsoDay, tx: Db = db): Promise<UsageCycleRow | null> {
      const c = serviceLineUsageCycles;
      const [row] = await tx
        .select()
        .from(c)
        .where(and(eq(c.serviceLineNumber, serviceLineNumber), lte(c.cycleStart, day), gte(c.cycleEnd, day)))
        .orderBy(desc(c.cycleStart))
        .limit(1);
      return row ?? null;
    },

    /** The line's cycle that started within [from, to] (the latest, should two). */
    async cycleStartingBetween(serviceLineNumber: string, from: IsoDay, to: IsoDay, tx: Db = db): Promise<UsageCycleRow | null> {
      const c = serviceLineUsageCycles;
      const [row] = await tx
        .select()
        .from(c)
        .where(and(eq(c.serviceLineNumber, serviceLineNumber), gte(c.cycleStart, from), lte(c.cycleStart, to)))
        .orderBy(desc(c.cycleStart))
        .limit(1);
      return row ?? null;
    },

    /** Daily usage rows of a line within [from, to], oldest first. */
    async dailyUsage(serviceLineNumber: string, from: IsoDay, to: IsoDay, tx: Db = db): Promise<UsageDailyRow[]> {
      const d = serviceLineUsageDaily;
      return tx
        .select()
        .from(d)
        .where(and(eq(d.serviceLineNumber, serviceLineNumber), gte(d.usageDate, from), lte(d.usageDate, to)))
        .orderBy(asc(d.usageDate));
    },
  };
}
