// The terminal inventory as the portal reads it: the list (search, filters, sorts, paging), the
// fleet figures, one terminal with everything the details dialog shows, a service line's usage,
// and the one write the portal makes to a synced row: assigning it to a customer. (The sync
// worker's writes live in terminal-inventory.ts.)
import { and, asc, desc, eq, gte, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { TELEMETRY_OFFLINE_AFTER_MS, type TerminalSort, type TerminalSyncStatus } from '../../../src/domain/terminals';
import type { Db } from '../client';
import {
  customers,
  providerAddresses,
  providerProducts,
  serviceLines,
  serviceLineUsageCycles,
  serviceLineUsageDaily,
  syncRuns,
  terminals,
  terminalTelemetry,
  type SyncRunRow,
  type UsageCycleRow,
  type UsageDailyRow,
} from '../schema';
import { escapeLike, searchTerm } from './customers';

export interface TerminalListFilter {
  /** Spec 5: case-insensitive substring of the four provider ids, the customer's id or name. */
  search?: string | null;
  active?: boolean | null;
  assigned?: boolean | null;
  syncStatus?: TerminalSyncStatus | null;
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
 * Spec 5 "Terminals search". The four provider ids and the customer's id are in search_text
 * (trigram GIN indexed). The customer's name is not (a rename would rewrite every terminal of the
 * customer), so the customers whose name matches are found first through the customers table's
 * own trigram index (search_text narrows, lower(name) decides, since that column also holds the
 * email and company), and their ids are matched against the customer index of terminals. The
 * ARRAY(...) sub-select runs once (an init plan), so both sides of the OR are index scans the
 * planner can combine in one bitmap.
 */
function searchCondition(term: string): SQL {
  const pattern = `%${escapeLike(term)}%`;
  return sql`(${t.searchText} LIKE lower(${pattern}) OR ${t.assignedCustomerId} = ANY(ARRAY(
    SELECT named.id FROM customers AS named
    WHERE named.search_text LIKE lower(${pattern}) AND lower(named.name) LIKE lower(${pattern}))))`;
}

function listWhere(filter: TerminalListFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [isNull(t.removedAt)];
  const term = searchTerm(filter.search);
  if (term) conditions.push(searchCondition(term));
  if (filter.active !== undefined && filter.active !== null) conditions.push(eq(t.active, filter.active));
  if (filter.assigned === true) conditions.push(isNotNull(t.assignedCustomerId));
  if (filter.assigned === false) conditions.push(isNull(t.assignedCustomerId));
  if (filter.syncStatus) conditions.push(eq(t.syncStatus, filter.syncStatus));
  return and(...conditions);
}

/**
 * Every order ends on user_terminal_id (the primary key), so equal sort values never make pages
 * overlap. The service-line orders keep PostgreSQL's default NULL placement (last ascending,
 * first descending) so both directions walk terminals_live_line_idx instead of sorting the
 * table; the other orders put missing values last either way (no index serves them).
 */
const ORDERS: Record<TerminalSort, SQL[]> = {
  service_line: [asc(t.serviceLineNumber), asc(t.userTerminalId)],
  '-service_line': [desc(t.serviceLineNumber), desc(t.userTerminalId)],
  terminal_id: [asc(t.userTerminalId)],
  '-terminal_id': [desc(t.userTerminalId)],
  last_synced: [sql`${t.lastSyncedAt} ASC NULLS LAST`, asc(t.userTerminalId)],
  '-last_synced': [sql`${t.lastSyncedAt} DESC NULLS LAST`, desc(t.userTerminalId)],
  owner: [sql`lower(${customers.name}) ASC NULLS LAST`, asc(t.userTerminalId)],
  '-owner': [sql`lower(${customers.name}) DESC NULLS LAST`, desc(t.userTerminalId)],
};

function listQuery(tx: Db, filter: TerminalListFilter, page: TerminalPage) {
  return tx
    .select(listColumns)
    .from(terminals)
    .leftJoin(customers, eq(customers.id, t.assignedCustomerId))
    .where(listWhere(filter))
    .orderBy(...ORDERS[page.sort])
    .limit(page.limit)
    .offset(page.offset);
}

export type TerminalListRow = Awaited<ReturnType<typeof listQuery>>[number];

/** The count needs no join: every condition is on terminals (the name search is a sub-select). */
function countQuery(tx: Db, filter: TerminalListFilter) {
  return tx
    .select({ n: sql<number>`count(*)::int` })
    .from(terminals)
    .where(listWhere(filter));
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Plan Rows'?: number;
  Plans?: PlanNode[];
}

async function explain(tx: Db, query: SQL): Promise<PlanNode | undefined> {
  const result = (await tx.execute(sql`EXPLAIN (FORMAT JSON) ${query}`)) as unknown as { rows: Record<string, unknown>[] };
  const raw = Object.values(result.rows[0] ?? {})[0];
  const root = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
  return root[0]?.Plan;
}

/** Depth-first node types, with the index name where one is used. */
function planNodes(node: PlanNode | undefined): string[] {
  if (!node) return [];
  const self = node['Index Name'] ? `${node['Node Type']} (${node['Index Name']})` : node['Node Type'];
  return [self, ...(node.Plans ?? []).flatMap(planNodes)];
}

function detailQuery(tx: Db, userTerminalId: string) {
  return tx
    .select(detailColumns)
    .from(terminals)
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
const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

export type TerminalsRepository = ReturnType<typeof createTerminalsRepository>;

export function createTerminalsRepository(db: Db) {
  return {
    /** One page in the asked order (user_terminal_id breaks ties, so pages never overlap). */
    async list(filter: TerminalListFilter, page: TerminalPage, tx: Db = db): Promise<TerminalListRow[]> {
      return listQuery(tx, filter, page);
    },

    /** The exact number of live terminals the filter matches. */
    async count(filter: TerminalListFilter, tx: Db = db): Promise<number> {
      const [row] = await countQuery(tx, filter);
      return num(row?.n);
    },

    /**
     * The planner's estimate of the rows `count` would find (EXPLAIN, not run: well under a
     * millisecond). Good to a few percent once the table has statistics; a table without them
     * gets a small default estimate, so a caller that counts exactly below a threshold does so.
     */
    async estimateCount(filter: TerminalListFilter, tx: Db = db): Promise<number> {
      const plan = await explain(tx, tx.select({ one: sql`1` }).from(terminals).where(listWhere(filter)).getSQL());
      return Math.max(0, Math.round(plan?.['Plan Rows'] ?? 0));
    },

    /** The plans of `list` and `count` (EXPLAIN, not run), for the benchmark and slow pages. */
    async planOfList(filter: TerminalListFilter, page: TerminalPage, tx: Db = db): Promise<{ list: string[]; count: string[] }> {
      return {
        list: planNodes(await explain(tx, listQuery(tx, filter, page).getSQL())),
        count: planNodes(await explain(tx, countQuery(tx, filter).getSQL())),
      };
    },

    /** Every figure of the summary cards over the live inventory, in three aggregate queries. */
    async fleetFigures(today: IsoDay, tx: Db = db): Promise<FleetFigures> {
      const [counts] = await tx
        .select({
          total: sql<number>`count(*)::int`,
          priority: sql<number>`(count(*) FILTER (WHERE ${t.isPriority}))::int`,
          active: sql<number>`(count(*) FILTER (WHERE ${t.condition} = 'active'))::int`,
          warning: sql<number>`(count(*) FILTER (WHERE ${t.condition} = 'warning'))::int`,
          maintenance: sql<number>`(count(*) FILTER (WHERE ${t.condition} = 'maintenance'))::int`,
          inactive: sql<number>`(count(*) FILTER (WHERE ${t.condition} = 'inactive'))::int`,
          assigned: sql<number>`(count(*) FILTER (WHERE ${t.assignedCustomerId} IS NOT NULL))::int`,
          synced: sql<number>`(count(*) FILTER (WHERE ${t.syncStatus} = 'synced'))::int`,
          pending: sql<number>`(count(*) FILTER (WHERE ${t.syncStatus} = 'pending'))::int`,
          error: sql<number>`(count(*) FILTER (WHERE ${t.syncStatus} = 'error'))::int`,
        })
        .from(terminals)
        .where(isNull(t.removedAt));

      const tt = terminalTelemetry;
      // Online: the terminal's last report was at most TELEMETRY_OFFLINE_AFTER_MS older than the
      // reading we stored (the domain's offline rule, measured at the reading, not at "now",
      // so an old reading does not make the whole fleet look offline).
      const [telemetry] = await tx
        .select({
          meanSignal: sql<number | null>`avg(${tt.signalQuality})::float8`,
          count: sql<number>`count(*)::int`,
          online: sql<number>`(count(*) FILTER (WHERE ${tt.reportedAt} IS NOT NULL
            AND ${tt.syncedAt} - ${tt.reportedAt} <= make_interval(secs => ${TELEMETRY_OFFLINE_AFTER_MS / 1000})))::int`,
        })
        .from(terminals)
        .innerJoin(tt, eq(tt.userTerminalId, t.userTerminalId))
        .where(and(isNull(t.removedAt), eq(t.active, true)));

      // One cycle per live line: the latest one containing the day (cycles should not overlap,
      // but a provider correction must not count a line twice).
      const current = tx
        .selectDistinctOn([serviceLineUsageCycles.serviceLineNumber], {
          priority: serviceLineUsageCycles.priorityGb,
          standard: serviceLineUsageCycles.standardGb,
        })
        .from(serviceLineUsageCycles)
        .innerJoin(
          serviceLines,
          and(eq(serviceLines.serviceLineNumber, serviceLineUsageCycles.serviceLineNumber), isNull(serviceLines.removedAt)),
        )
        .where(and(lte(serviceLineUsageCycles.cycleStart, today), gte(serviceLineUsageCycles.cycleEnd, today)))
        .orderBy(serviceLineUsageCycles.serviceLineNumber, desc(serviceLineUsageCycles.cycleStart))
        .as('current');
      const [usage] = await tx
        .select({
          lines: sql<number>`count(*)::int`,
          priority: sql<string | null>`sum(${current.priority})::text`,
          standard: sql<string | null>`sum(${current.standard})::text`,
        })
        .from(current);

      const lines = num(usage?.lines);
      return {
        total: num(counts?.total),
        priority: num(counts?.priority),
        active: num(counts?.active),
        warning: num(counts?.warning),
        maintenance: num(counts?.maintenance),
        inactive: num(counts?.inactive),
        assigned: num(counts?.assigned),
        synced: num(counts?.synced),
        pending: num(counts?.pending),
        error: num(counts?.error),
        meanSignalQuality: numOrNull(telemetry?.meanSignal),
        telemetryCount: num(telemetry?.count),
        onlineCount: num(telemetry?.online),
        priorityGB: lines > 0 ? num(usage?.priority) : null,
        standardGB: lines > 0 ? num(usage?.standard) : null,
      };
    },

    /** Sync status counts of the live terminals (partial index terminals_sync_status_idx). */
    async syncCounts(tx: Db = db): Promise<{ synced: number; pending: number; error: number }> {
      const rows = await tx
        .select({ status: t.syncStatus, n: sql<number>`count(*)::int` })
        .from(terminals)
        .where(isNull(t.removedAt))
        .groupBy(t.syncStatus);
      const of = (status: TerminalSyncStatus) => num(rows.find((r) => r.status === status)?.n);
      return { synced: of('synced'), pending: of('pending'), error: of('error') };
    },

    /** The most recent run of a kind (queued, running or finished), for "last sync". */
    async latestSyncRun(kind: SyncRunRow['kind'], tx: Db = db): Promise<SyncRunRow | null> {
      const [row] = await tx.select().from(syncRuns).where(eq(syncRuns.kind, kind)).orderBy(desc(syncRuns.queuedAt), desc(syncRuns.id)).limit(1);
      return row ?? null;
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

    async exists(userTerminalId: string, tx: Db = db): Promise<boolean> {
      const rows = await tx.select({ id: t.userTerminalId }).from(terminals).where(eq(t.userTerminalId, userTerminalId)).limit(1);
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
        .leftJoin(providerProducts, eq(providerProducts.productReferenceId, serviceLines.productReferenceId))
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
