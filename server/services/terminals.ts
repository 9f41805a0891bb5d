// The terminal inventory for administrators: the list (search, filters, sorts, paging), the fleet
// summary, sync counts, one terminal's details, assigning a terminal to a customer, reporting an
// issue, and a service line's usage for a billing cycle. Everything answers from the local
// database the sync keeps in step with the provider; nothing here calls the provider.
import { isoDay } from '../../src/domain/billing';
import { expiryState } from '../../src/domain/customers';
import {
  monthRange,
  round1,
  TERMINAL_MESSAGES,
  usagePercentage,
  type DataCap,
  type DailyUsageRecord,
  type FleetHealth,
  type ServiceLineUsageWire,
  type SyncStats,
  type TerminalDetailWire,
  type TerminalPageWire,
  type TerminalRowWire,
  type TerminalSort,
  type TerminalSyncStatus,
} from '../../src/domain/terminals';
import { CUSTOMER_MESSAGES } from '../../src/domain/customers';
import { isoOrNull, type Clock } from '../clock';
import type { Db } from '../db/client';
import type { Repositories } from '../db/repositories';
import type { TerminalDetailRow, TerminalListRow, TerminalQuery } from '../db/repositories/terminals';
import type { CustomerRow, UsageCycleRow } from '../db/schema';
import { ConflictError, NotFoundError } from '../errors';
import { auditSource, type AuditService, type RequestContext } from './audit';
import { toSyncJob } from './sync-job-map';

/** Server-side messages the domain module does not carry. */
export const TERMINAL_SERVER_MESSAGES = {
  listed: 'Terminals retrieved successfully',
  available: 'Available terminals retrieved successfully',
  health: 'Fleet health retrieved successfully',
  syncStats: 'Sync statistics retrieved successfully',
  detail: 'Terminal retrieved successfully',
  usage: 'Service line usage retrieved successfully',
  serviceLineNotFound: 'Service line not found',
  issueReported: 'Issue reported. It is recorded in the activity log.',
  assigned: (terminalId: string, customer: string) => `Terminal ${terminalId} assigned to ${customer}`,
  alreadyAssigned: (terminalId: string, customer: string) => `Terminal ${terminalId} is already assigned to ${customer}`,
  assignedToAnother: (terminalId: string, customer: string) =>
    `Terminal ${terminalId} is already assigned to another customer (${customer}). Unassign it before assigning it again.`,
  removed: (terminalId: string) => `Terminal ${terminalId} is no longer listed by the provider and cannot be assigned`,
  customerBlocked: (customer: string, reason: string | null) =>
    `${customer} is blocked${reason ? ` (${reason})` : ''}. Unblock the customer before assigning terminals.`,
  customerExpired: (customer: string, expiredAt: string) =>
    `${customer}'s account expired on ${expiredAt}. Extend the account before assigning terminals.`,
} as const;

/**
 * Above this many matching rows (the planner's estimate), a list without a search term reports
 * the estimate as totalCount instead of counting. An exact count(*) reads every live row: at
 * 100,000 terminals it took 27–40 ms embedded and 5–8 ms on PostgreSQL against 3–7 ms and
 * 1.5–2 ms for the page itself (bench/terminals-search.ts), for a figure that is only the
 * caption's "of Y" and the last page number, which the estimate gets within a fraction of a
 * percent once the table has statistics. Searches are always counted exactly (the dialog and
 * the caption show what matched), as are filters the planner expects under this size; indexes
 * narrow those counts as they narrow the page. (A search term under three characters, or one
 * matching a tenth of the fleet, still makes the count read the whole table: 60–80 ms.)
 */
export const EXACT_COUNT_UP_TO = 10_000;

/** From this offset on, a page in the back half of the list is read from the far end. */
export const REVERSE_PAGING_FROM = EXACT_COUNT_UP_TO;

export interface TerminalListParams {
  page: number;
  limit: number;
  sort: TerminalSort;
  search?: string | undefined;
  active?: boolean | undefined;
  assigned?: boolean | undefined;
  syncStatus?: TerminalSyncStatus | undefined;
  accountId?: number | undefined;
}

export interface AssignInput {
  customerId: string;
  /** What the client believed the name to be; informational, the stored name wins. */
  customerName?: string | undefined;
}

export interface UsagePeriod {
  year: number;
  /** 1–12. */
  month: number;
}

export interface TerminalsService {
  list(params: TerminalListParams): Promise<TerminalPageWire>;
  /** Live terminals no customer holds: what an assign dialog offers. */
  available(params: Omit<TerminalListParams, 'assigned'>): Promise<TerminalPageWire>;
  health(): Promise<FleetHealth>;
  syncStats(): Promise<SyncStats>;
  get(userTerminalId: string): Promise<TerminalDetailWire>;
  assign(userTerminalId: string, input: AssignInput, context: RequestContext): Promise<{ terminal: TerminalDetailWire; message: string }>;
  reportIssue(userTerminalId: string, note: string, context: RequestContext): Promise<{ reported: true }>;
  serviceLineUsage(serviceLineNumber: string, period: UsagePeriod | null): Promise<ServiceLineUsageWire>;
}

export const round2 = (n: number) => Math.round(n * 100) / 100;
/** The UTC calendar day of a moment, as `date` columns hold it. */
export const dayOf = isoDay;

export function toTerminalRow(row: TerminalListRow): TerminalRowWire {
  return {
    user_terminal_id: row.userTerminalId,
    kit_serial_number: row.kitSerialNumber,
    dish_serial_number: row.dishSerialNumber,
    service_line_number: row.serviceLineNumber,
    nickname: row.nickname,
    active: row.active,
    assigned_to: row.assignedCustomerId,
    assigned_to_customer: row.assignedCustomerId ? row.customerName : null,
    sync_status: row.syncStatus,
    last_synced_at: isoOrNull(row.lastSyncedAt),
    data_cap_updated_at: isoOrNull(row.dataCapUpdatedAt),
    updated_at: row.updatedAt.toISOString(),
    condition: row.condition,
    terminal_type: row.terminalType,
    plan: row.plan,
    location: row.location,
    region: row.region,
    account_id: row.accountId,
    account_name: row.accountName,
  };
}

export function dataCapOf(amount: number | null, unit: string | null): DataCap | null {
  return amount === null ? null : { amount, unit: unit ?? 'GB' };
}

/** A cap in GB; spec 9 counts a 1 TB plan as 1,000 GB. Unknown units give null. */
export function capInGB(cap: DataCap | null): number | null {
  if (!cap) return null;
  switch (cap.unit.toUpperCase()) {
    case 'GB':
      return cap.amount;
    case 'TB':
      return cap.amount * 1000;
    case 'MB':
      return cap.amount / 1000;
    default:
      return null;
  }
}

export function toTerminalDetail(row: TerminalDetailRow): TerminalDetailWire {
  // Drizzle answers a left-joined group of columns as null when the join found nothing.
  const address = row.address
      ? {
          formattedAddress: row.address.formattedAddress,
          region: row.address.region,
          latitude: row.address.latitude,
          longitude: row.address.longitude,
        }
      : // No synced address record: what the terminal row itself carries, if anything.
        row.location !== null || row.region !== null || row.terminalLatitude !== null
        ? { formattedAddress: row.location, region: row.region, latitude: row.terminalLatitude, longitude: row.terminalLongitude }
        : null;
  return {
    ...toTerminalRow(row),
    owner: row.assignedCustomerId
      ? { uuid: row.assignedCustomerId, name: row.customerName ?? '', company: row.customerCompany || null }
      : null,
    dataCap: dataCapOf(row.dataCapAmount, row.dataCapUnit),
    model: row.model,
    accountNumber: row.accountNumber,
    serviceLine: row.line
        ? {
            active: row.line.active,
            productReferenceId: row.line.productReferenceId,
            startDate: isoOrNull(row.line.startDate),
            endDate: isoOrNull(row.line.endDate),
            addressReferenceId: row.line.addressReferenceId,
          }
        : null,
    address,
    telemetry: row.telemetry
        ? {
            reportedAt: isoOrNull(row.telemetry.reportedAt),
            // The provider reports 0–1; the portal speaks percent (one decimal).
            signalQuality: row.telemetry.signalQuality === null ? null : round1(row.telemetry.signalQuality * 100),
            uptimeSeconds: row.telemetry.uptimeSeconds,
            downlinkMbps: row.telemetry.downlinkMbps,
            uplinkMbps: row.telemetry.uplinkMbps,
            latencyMs: row.telemetry.latencyMs,
            obstructionPercent: row.telemetry.obstructionPercent,
            softwareVersion: row.telemetry.softwareVersion,
            alerts: row.telemetry.alerts,
          }
        : null,
    syncError: row.syncError,
    removedAt: isoOrNull(row.removedAt),
  };
}

export function toDailyRecord(row: { usageDate: string; priorityGb: number; standardGb: number; optInPriorityGb: number; nonBillableGb: number }): DailyUsageRecord {
  return {
    date: row.usageDate,
    priorityGB: row.priorityGb,
    standardGB: row.standardGb,
    optInPriorityGB: row.optInPriorityGb,
    nonBillableGB: row.nonBillableGb,
  };
}

/** The cycle columns the usage figures are computed from. */
export type CycleFigures = Pick<UsageCycleRow, 'cycleStart' | 'cycleEnd' | 'priorityGb' | 'standardGb' | 'usageLimitGb'>;

export function billingCycle(cycle: CycleFigures, cap: DataCap | null): NonNullable<ServiceLineUsageWire['currentBillingCycle']> {
  // The provider's own limit for the cycle when it gave one, else the terminal's data cap.
  const total = cycle.usageLimitGb ?? capInGB(cap) ?? 0;
  return {
    startDate: cycle.cycleStart,
    endDate: cycle.cycleEnd,
    priorityData: { used: cycle.priorityGb, total, unit: 'GB', percentage: usagePercentage(cycle.priorityGb, total) },
    deprioritizedData: { used: cycle.standardGb, unit: 'GB' },
    totalUsed: round2(cycle.priorityGb + cycle.standardGb),
    totalUnit: 'GB',
  };
}

/** The customer holding a line's live terminal (a soft-deleted one too: its stored name shows), or null. */
export function ownerOf(
  terminal: { customerId: string | null; customerName: string | null; customerCompany: string | null } | null,
): { uuid: string; name: string; company: string | null } | null {
  return terminal?.customerId ? { uuid: terminal.customerId, name: terminal.customerName ?? '', company: terminal.customerCompany || null } : null;
}

/** Why a live customer may not receive terminals now: blocked, or the account expired (by `at`). */
export function assignmentRefusal(
  customer: Pick<CustomerRow, 'blockedEnabled' | 'blockedReason' | 'accountExpiresAt'>,
  at: Date,
): { kind: 'blocked'; reason: string | null } | { kind: 'expired'; day: string } | null {
  if (customer.blockedEnabled) return { kind: 'blocked', reason: customer.blockedReason };
  const expiresAt = isoOrNull(customer.accountExpiresAt);
  if (expiresAt && expiryState(expiresAt, at) === 'expired') return { kind: 'expired', day: expiresAt.slice(0, 10) };
  return null;
}

export function createTerminalsService(deps: { db: Db; repos: Repositories; audit: AuditService; now: Clock }): TerminalsService {
  const { db, repos, audit, now } = deps;

  async function page(params: TerminalListParams): Promise<TerminalPageWire> {
    const { limit, sort } = params;
    const offset = (params.page - 1) * limit;
    const answer = (rows: TerminalListRow[], totalCount: number) => ({ results: rows.map(toTerminalRow), totalCount, page: params.page, limit });
    const query = await repos.terminals.resolve({
      search: params.search,
      active: params.active ?? null,
      assigned: params.assigned ?? null,
      syncStatus: params.syncStatus ?? null,
      accountId: params.accountId ?? null,
    });

    // A deep page in the back half is read from the far end: OFFSET walks every row it skips,
    // so the last page of 100,000 would walk 99,975 (about 130 ms embedded) where the mirror
    // order walks none. Which rows form the page then depends on the exact total, so it is
    // counted here (a scan, but a cheaper one than the walk).
    const known = offset >= REVERSE_PAGING_FROM ? await repos.terminals.countFromFigures(query) : null;
    if (offset >= REVERSE_PAGING_FROM && offset * 2 > (known ?? (await repos.terminals.estimateCount(query)))) {
      const total = known ?? (await repos.terminals.count(query));
      if (offset >= total) return answer([], total);
      const fromEnd = total - offset - limit;
      const rows = await repos.terminals.list(query, { sort, limit: Math.min(limit, total - offset), offset: Math.max(0, fromEnd) }, { reversed: true });
      return answer(rows.reverse(), total);
    }

    const rows = await repos.terminals.list(query, { sort, limit, offset });
    return answer(rows, await totalCount(query, offset, rows.length, limit));
  }

  async function totalCount(query: TerminalQuery, offset: number, found: number, limit: number): Promise<number> {
    // A partly filled page (or an empty first page) already tells the total.
    if ((found > 0 && found < limit) || (found === 0 && offset === 0)) return offset + found;
    // The unfiltered list and each single filter are counted exactly in fleet_figures.
    const known = await repos.terminals.countFromFigures(query);
    if (known !== null) return known;
    if (!query.pattern) {
      const estimate = await repos.terminals.estimateCount(query);
      // Never below what this page proves exists.
      if (estimate > EXACT_COUNT_UP_TO) return Math.max(estimate, offset + found);
    }
    return repos.terminals.count(query);
  }

  async function detailOr404(userTerminalId: string, tx?: Db): Promise<TerminalDetailWire> {
    const row = await repos.terminals.findDetail(userTerminalId, tx);
    if (!row) throw new NotFoundError(TERMINAL_MESSAGES.terminalNotFound);
    return toTerminalDetail(row);
  }

  /** Refuses a customer who may not receive terminals: deleted (404), blocked or expired (409). */
  function assignableOrThrow(customer: CustomerRow | null, at: Date): CustomerRow {
    if (!customer) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
    const refusal = assignmentRefusal(customer, at);
    if (refusal?.kind === 'blocked') throw new ConflictError(TERMINAL_SERVER_MESSAGES.customerBlocked(customer.name, refusal.reason));
    if (refusal?.kind === 'expired') throw new ConflictError(TERMINAL_SERVER_MESSAGES.customerExpired(customer.name, refusal.day));
    return customer;
  }

  return {
    list: page,

    available(params) {
      return page({ ...params, assigned: false });
    },

    async health() {
      const [figures, lastRun] = await Promise.all([repos.terminals.fleetFigures(dayOf(now())), repos.syncRuns.latest('inventory', null)]);
      const usageGB = figures.priorityGB === null ? null : round2(figures.priorityGB + (figures.standardGB ?? 0));
      return {
        total: figures.total,
        priority: figures.priority,
        standard: figures.total - figures.priority,
        active: figures.active,
        warning: figures.warning,
        maintenance: figures.maintenance,
        inactive: figures.inactive,
        assigned: figures.assigned,
        unassigned: figures.total - figures.assigned,
        averageSignalQuality: figures.meanSignalQuality === null ? null : Math.round(figures.meanSignalQuality * 100),
        networkUptime: figures.telemetryCount === 0 ? null : Math.round((figures.onlineCount / figures.telemetryCount) * 100),
        monthlyUsageGB: usageGB,
        // The Data Usage card's "share of priority lines" (spec 2): priority lines over all lines.
        priorityShare: figures.total > 0 ? Math.round((figures.priority / figures.total) * 100) : null,
        sync: { synced: figures.synced, pending: figures.pending, error: figures.error },
        lastSync: lastRun ? toSyncJob(lastRun, (await repos.providerAccounts.find(lastRun.accountId))?.name ?? null) : null,
      };
    },

    syncStats() {
      return repos.terminals.syncCounts();
    },

    get(userTerminalId) {
      return detailOr404(userTerminalId);
    },

    async assign(userTerminalId, input, context) {
      return db.transaction(async (tx) => {
        const at = now();
        const current = await repos.terminals.findAssignment(userTerminalId, tx);
        if (!current) throw new NotFoundError(TERMINAL_MESSAGES.terminalNotFound);
        if (current.removedAt) throw new ConflictError(TERMINAL_SERVER_MESSAGES.removed(userTerminalId));
        // Locked until the transaction ends: a block or delete of the customer waits for this
        // assignment, or this one sees it.
        const customer = assignableOrThrow(await repos.customers.findLiveByIdForUpdate(input.customerId, tx), at);

        const taken = (holder: typeof current) => {
          if (holder.assignedCustomerId === customer.id) return null;
          return new ConflictError(TERMINAL_SERVER_MESSAGES.assignedToAnother(userTerminalId, holder.customerName ?? 'an unknown customer'));
        };
        if (current.assignedCustomerId) {
          const conflict = taken(current);
          if (conflict) throw conflict;
          // Already this customer's: answer as a success and leave the row and the log alone.
          return { terminal: await detailOr404(userTerminalId, tx), message: TERMINAL_SERVER_MESSAGES.alreadyAssigned(userTerminalId, customer.name) };
        }

        if (!(await repos.terminals.assignIfUnassigned(userTerminalId, customer.id, at, tx))) {
          // Someone else's assignment (or a sync removing the terminal) committed in between.
          const latest = await repos.terminals.findAssignment(userTerminalId, tx);
          if (!latest) throw new NotFoundError(TERMINAL_MESSAGES.terminalNotFound);
          if (latest.removedAt) throw new ConflictError(TERMINAL_SERVER_MESSAGES.removed(userTerminalId));
          const conflict = taken(latest);
          if (conflict) throw conflict;
          return { terminal: await detailOr404(userTerminalId, tx), message: TERMINAL_SERVER_MESSAGES.alreadyAssigned(userTerminalId, customer.name) };
        }

        await audit.record(
          {
            ...auditSource(context),
            action: 'terminal.assigned',
            targetType: 'terminal',
            targetId: userTerminalId,
            before: { assignedTo: null, assignedToCustomer: null, serviceLineNumber: current.serviceLineNumber },
            after: {
              assignedTo: customer.id,
              assignedToCustomer: customer.name,
              serviceLineNumber: current.serviceLineNumber,
              // Kept when the client's idea of the name differed from the stored one.
              ...(input.customerName !== undefined && input.customerName !== customer.name ? { requestedName: input.customerName } : {}),
            },
          },
          tx,
        );
        return { terminal: await detailOr404(userTerminalId, tx), message: TERMINAL_SERVER_MESSAGES.assigned(userTerminalId, customer.name) };
      });
    },

    async reportIssue(userTerminalId, note, context) {
      const terminal = await repos.terminals.findAssignment(userTerminalId);
      if (!terminal) throw new NotFoundError(TERMINAL_MESSAGES.terminalNotFound);
      await audit.record({
        ...auditSource(context),
        action: 'terminal.issue_reported',
        targetType: 'terminal',
        targetId: userTerminalId,
        after: { note, serviceLineNumber: terminal.serviceLineNumber, assignedTo: terminal.assignedCustomerId },
      });
      return { reported: true as const };
    },

    async serviceLineUsage(serviceLineNumber, period) {
      const [line, terminal] = await Promise.all([repos.terminals.findServiceLine(serviceLineNumber), repos.terminals.findLiveOnLine(serviceLineNumber)]);
      if (!line && !terminal) throw new NotFoundError(TERMINAL_SERVER_MESSAGES.serviceLineNotFound);

      const at = now();
      let cycle: UsageCycleRow | null;
      let dateRange: { start: string; end: string };
      if (period) {
        // The month the dialog's selector names: the cycle that started in it.
        dateRange = monthRange(period.year, period.month);
        cycle = await repos.terminals.cycleStartingBetween(serviceLineNumber, dateRange.start, dateRange.end);
      } else {
        cycle = await repos.terminals.cycleContaining(serviceLineNumber, dayOf(at));
        dateRange = cycle ? { start: cycle.cycleStart, end: cycle.cycleEnd } : monthRange(at.getUTCFullYear(), at.getUTCMonth() + 1);
      }
      const days = cycle ? { start: cycle.cycleStart, end: cycle.cycleEnd } : dateRange;
      const daily = await repos.terminals.dailyUsage(serviceLineNumber, days.start, days.end);

      const dataCap = terminal ? dataCapOf(terminal.dataCapAmount, terminal.dataCapUnit) : null;
      const active = line ? line.active : (terminal?.active ?? false);
      return {
        terminalId: terminal?.userTerminalId ?? null,
        serviceLineNumber,
        status: active ? 'Active' : 'Inactive',
        owner: ownerOf(terminal),
        lastSyncedAt: isoOrNull(terminal?.lastSyncedAt ?? line?.syncedAt ?? null),
        dataCap,
        currentBillingCycle: cycle ? billingCycle(cycle, dataCap) : null,
        plan: terminal?.plan ?? line?.productName ?? null,
        location: terminal?.location ?? line?.formattedAddress ?? null,
        terminalType: terminal?.terminalType ?? null,
        dateRange,
        rawUsageRecords: daily.map(toDailyRecord),
      };
    },
  };
}
