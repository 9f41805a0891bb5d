// A customer's terminals for administrators: assigning service lines (each line answered on its
// own, with the reason when it could not be assigned), unassigning one, the assigned list, the
// month's usage per terminal and the daily totals for the chart, and one service line's stored
// usage history. Everything answers from the local database; nothing here calls the provider.
import {
  ASSIGN_MAX_ENTRY_LENGTH,
  ASSIGN_REASONS,
  checkServiceLineList,
  CUSTOMER_USAGE_MESSAGES,
  isServiceLineNumber,
  usageDays,
  type AssignedTerminal,
  type AssignedTerminalsPage,
  type AssignFailure,
  type AssignTerminalsResult,
  type CustomerDailyUsage,
  type CustomerTerminalStatus,
  type CustomerUsagePage,
  type CustomerUsagePageQuery,
  type ServiceLineUsageHistory,
  type TerminalUsageRecord,
  type UnassignTerminalResult,
} from '../../src/domain/customer-terminals';
import { CUSTOMER_MESSAGES, paginationOf } from '../../src/domain/customers';
import { isoOrNull, type Clock } from '../clock';
import type { Repositories } from '../db/repositories';
import { isStoredRowsPick, type AssignedRow, type CustomerUsageRow, type CyclePick, type LockedTerminal } from '../db/repositories/customer-terminals';
import { ConflictError, NotFoundError, fieldError } from '../errors';
import { INLINE_REFRESH_LINES, type LineRowsRefresher } from './line-rows';
import type { AuditService, RequestContext } from './audit';
import { assignmentRefusal, billingCycle, dataCapOf, dayOf, ownerOf, round2, TERMINAL_SERVER_MESSAGES, toDailyRecord } from './terminals';

export const CUSTOMER_TERMINAL_SERVER_MESSAGES = {
  assigned: (assigned: number, total: number) => `${assigned} of ${total} service line${total === 1 ? '' : 's'} assigned`,
  listed: 'Assigned terminals retrieved successfully',
  usage: 'Terminal usage retrieved successfully',
  daily: 'Daily usage retrieved successfully',
  history: 'Service line usage history retrieved successfully',
} as const;

/** Inclusive range of UTC days, `YYYY-MM-DD`. */
export interface DayRange {
  from: string;
  to: string;
}

export interface CustomerUsageQuery {
  /** The cycle that started within this range (the month the page shows). */
  billingCycle: DayRange | null;
  /** Else the latest cycle overlapping this range; with neither, the cycle containing today. */
  dates: DayRange | null;
}

/** The cycle picked as for the whole list, then the table's page, search, filter and sort. */
export type CustomerUsagePageRequest = CustomerUsageQuery &
  Omit<CustomerUsagePageQuery, 'year' | 'month' | 'accountId'> & {
    /** Only the terminals under this provider account; null for every account's. */
    accountId: number | null;
  };

export interface LineHistoryQuery {
  /** Only the cycles that started within it. */
  billingCycle: DayRange | null;
  /** Only the days within it. */
  dates: DayRange | null;
  limit: number;
}

export interface CustomerTerminalsService {
  assign(input: { customerUuid: string; serviceLineNumbers: string[] }, context: RequestContext): Promise<{ result: AssignTerminalsResult; message: string }>;
  unassign(input: { customerUuid: string; serviceLineNumber: string }, context: RequestContext): Promise<{ result: UnassignTerminalResult; message: string }>;
  assigned(customerUuid: string): Promise<AssignedTerminal[]>;
  assignedPage(customerUuid: string, query: { page: number; limit: number; accountId: number | null }): Promise<AssignedTerminalsPage>;
  usage(customerUuid: string, query: CustomerUsageQuery): Promise<TerminalUsageRecord[]>;
  usagePage(customerUuid: string, query: CustomerUsagePageRequest): Promise<CustomerUsagePage>;
  dailyUsage(customerUuid: string, range: DayRange): Promise<CustomerDailyUsage[]>;
  serviceLineHistory(serviceLineNumber: string, query: LineHistoryQuery): Promise<ServiceLineUsageHistory>;
}

/**
 * Pending: the record is not synced yet (or failed to apply); Suspended: the terminal or its line
 * is not active; Maintenance: a hardware alert is on; otherwise Active.
 */
export function customerTerminalStatus(row: Pick<CustomerUsageRow, 'syncStatus' | 'active' | 'lineActive' | 'condition'>): CustomerTerminalStatus {
  if (row.syncStatus !== 'synced') return 'Pending';
  if (!row.active || row.lineActive === false) return 'Suspended';
  if (row.condition === 'maintenance') return 'Maintenance';
  return 'Active';
}

function toUsageRecord(row: CustomerUsageRow): TerminalUsageRecord {
  const dataCap = dataCapOf(row.dataCapAmount, row.dataCapUnit);
  const cycle =
    row.cycleStart !== null && row.cycleEnd !== null
      ? billingCycle(
          {
            cycleStart: row.cycleStart,
            cycleEnd: row.cycleEnd,
            priorityGb: row.priorityGb ?? 0,
            standardGb: row.standardGb ?? 0,
            usageLimitGb: row.usageLimitGb,
          },
          dataCap,
        )
      : null;
  return {
    terminalId: row.userTerminalId,
    // A terminal the provider moved off its line keeps its assignment; it has no line to show.
    serviceLineNumber: row.serviceLineNumber ?? '',
    location: row.location,
    terminalType: row.terminalType,
    plan: row.plan,
    status: customerTerminalStatus(row),
    dataCap,
    currentBillingCycle: cycle
      ? { startDate: cycle.startDate, endDate: cycle.endDate, totalUsed: cycle.totalUsed, priorityData: cycle.priorityData, standardUsed: cycle.deprioritizedData.used }
      : null,
    accountId: row.accountId,
    accountName: row.accountName,
  };
}

function toAssignedTerminal(row: AssignedRow, customerId: string): AssignedTerminal {
  return {
    deviceId: row.userTerminalId,
    serviceLine: row.serviceLineNumber ?? '',
    status: row.active ? 'Active' : 'Inactive',
    assignedTo: customerId,
    kitSerialNumber: row.kitSerialNumber,
    // Every assignment has its moment (the table's check); the fallback only satisfies the type.
    assignedAt: isoOrNull(row.assignedAt) ?? '',
    accountId: row.accountId,
    accountName: row.accountName,
  };
}

function cyclePick(query: CustomerUsageQuery, today: string): CyclePick {
  if (query.billingCycle) return { kind: 'startedBetween', ...query.billingCycle };
  if (query.dates) return { kind: 'overlapping', ...query.dates };
  return { kind: 'containing', day: today };
}

/** Entries are echoed back in failures, cut to a length a client can show. */
const echo = (entry: string) => entry.slice(0, ASSIGN_MAX_ENTRY_LENGTH);

export function createCustomerTerminalsService(deps: {
  repos: Repositories;
  audit: AuditService;
  now: Clock;
  /** Keeps the stored usage rows of the current month current (shared with the Subscriptions page). */
  lineRows: LineRowsRefresher;
}): CustomerTerminalsService {
  const { repos, audit, now } = deps;
  const store = repos.customerTerminals;

  async function liveCustomerOr404(customerUuid: string) {
    const customer = await repos.customers.findLiveById(customerUuid);
    if (!customer) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
    return customer;
  }

  return {
    async assign(input, context) {
      const check = checkServiceLineList(input.serviceLineNumbers);
      if (!check.ok) throw fieldError('serviceLineNumbers', check.message);
      const lines = check.lines;

      const result = await store.transaction(async (tx) => {
        const at = now();
        const customer = await store.findCustomerForUpdate(input.customerUuid, tx);
        if (!customer) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);

        // A customer who may not receive terminals fails every line with the same reason.
        const refusal = assignmentRefusal(customer, at);
        const refused: Omit<AssignFailure, 'serviceLineNumber'> | null = customer.deletedAt
          ? { code: 'customer_deleted', reason: ASSIGN_REASONS.customerDeleted }
          : refusal?.kind === 'blocked'
            ? { code: 'customer_blocked', reason: ASSIGN_REASONS.customerBlocked(refusal.reason) }
            : refusal?.kind === 'expired'
              ? { code: 'customer_expired', reason: ASSIGN_REASONS.customerExpired(refusal.day) }
              : null;
        if (refused) return { assigned: [], failed: lines.map((line) => ({ serviceLineNumber: echo(line), ...refused })), total: lines.length };

        const wellFormed = lines.filter(isServiceLineNumber);
        const live = new Map<string, LockedTerminal[]>();
        for (const terminal of await store.lockLiveOnLines(wellFormed, tx)) {
          live.set(terminal.serviceLineNumber, [...(live.get(terminal.serviceLineNumber) ?? []), terminal]);
        }
        const withoutLive = wellFormed.filter((line) => !live.has(line));
        const stored = await store.serviceLinesIn(withoutLive, tx);
        const removed = await store.linesWithRemovedTerminals(withoutLive, tx);

        const failed: AssignFailure[] = [];
        const assigned: string[] = [];
        const fail = (line: string, code: AssignFailure['code'], reason: string) => failed.push({ serviceLineNumber: echo(line), code, reason });
        for (const line of lines) {
          const terminals = live.get(line);
          if (!isServiceLineNumber(line)) fail(line, 'malformed', ASSIGN_REASONS.malformed);
          else if (!terminals) {
            if (removed.has(line) || stored.get(line)?.removed) fail(line, 'removed', ASSIGN_REASONS.removed);
            else if (stored.has(line)) fail(line, 'no_terminal', ASSIGN_REASONS.noTerminal);
            else fail(line, 'not_found', ASSIGN_REASONS.notFound);
          } else {
            const other = terminals.find((terminal) => terminal.assignedCustomerId !== null && terminal.assignedCustomerId !== customer.id);
            if (other) fail(line, 'assigned_to_other', ASSIGN_REASONS.assignedToOther(other.holderName ?? 'an unknown customer'));
            else if (terminals.every((terminal) => terminal.assignedCustomerId === customer.id)) fail(line, 'already_assigned', ASSIGN_REASONS.alreadyAssigned);
            else assigned.push(line);
          }
        }

        const free = assigned.flatMap((line) => live.get(line)!.filter((terminal) => terminal.assignedCustomerId === null));
        // The rows are locked, so the conditional UPDATE writes every one of them.
        const written = await store.assignUnassigned(
          free.map((terminal) => terminal.userTerminalId),
          customer.id,
          at,
          tx,
        );
        await audit.recordMany(
          written.map((terminal) => ({
            ...context,
            action: 'terminal.assigned',
            targetType: 'terminal',
            targetId: terminal.userTerminalId,
            before: { assignedTo: null, assignedToCustomer: null, serviceLineNumber: terminal.serviceLineNumber },
            after: { assignedTo: customer.id, assignedToCustomer: customer.name, serviceLineNumber: terminal.serviceLineNumber },
          })),
          tx,
        );
        return { assigned, failed, total: lines.length };
      });
      return { result, message: CUSTOMER_TERMINAL_SERVER_MESSAGES.assigned(result.assigned.length, result.total) };
    },

    async unassign(input, context) {
      const { serviceLineNumber } = input;
      return store.transaction(async (tx) => {
        const at = now();
        // Blocked and expired customers may give terminals back; a deleted one is not found.
        const customer = await repos.customers.findLiveByIdForUpdate(input.customerUuid, tx);
        if (!customer) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
        const freed = await store.unassignLine(serviceLineNumber, customer.id, at, tx);
        if (freed.length === 0) throw new ConflictError(CUSTOMER_USAGE_MESSAGES.notAssigned(serviceLineNumber));
        const unassigned = freed.map((terminal) => terminal.userTerminalId).sort();
        await audit.recordMany(
          unassigned.map((userTerminalId) => ({
            ...context,
            action: 'terminal.unassigned',
            targetType: 'terminal',
            targetId: userTerminalId,
            before: { assignedTo: customer.id, assignedToCustomer: customer.name, serviceLineNumber },
            after: { assignedTo: null, assignedToCustomer: null, serviceLineNumber },
          })),
          tx,
        );
        return { result: { serviceLineNumber, unassigned }, message: CUSTOMER_USAGE_MESSAGES.unassigned(serviceLineNumber) };
      });
    },

    async assigned(customerUuid) {
      const customer = await liveCustomerOr404(customerUuid);
      const rows = await store.assignedTo(customer.id);
      return rows.map((row) => toAssignedTerminal(row, customer.id));
    },

    async assignedPage(customerUuid, query) {
      const customer = await liveCustomerOr404(customerUuid);
      const { rows, total } = await store.assignedPage(customer.id, (query.page - 1) * query.limit, query.limit, query.accountId);
      return { records: rows.map((row) => toAssignedTerminal(row, customer.id)), pagination: paginationOf(total, query.page, query.limit) };
    },

    async usage(customerUuid, query) {
      const customer = await liveCustomerOr404(customerUuid);
      const rows = await store.usage(customer.id, cyclePick(query, dayOf(now())));
      return rows.map(toUsageRecord);
    },

    async usagePage(customerUuid, query) {
      const customer = await liveCustomerOr404(customerUuid);
      const { limit, page } = query;
      const today = dayOf(now());
      const pick = cyclePick(query, today);
      // The current month is read from the customer's stored rows (a range of one index, whatever
      // the fleet), a person's worth of lines still marked (an assignment, a plan change) from the
      // tables, so the change shows at once; another month from the tables (a lookup per terminal).
      // A sync's worth of the customer's lines marked is as the Subscriptions page takes it: the
      // stored rows alone, briefly behind, while the background refresh catches up (read from the
      // tables, a customer of 3,000 lines took 440 ms while ten accounts synced). The read computes
      // no marked line itself.
      const current = isStoredRowsPick(pick, today) ? await deps.lineRows.markedLeftToBackground(today) : null;
      const found = await store.usagePage(
        customer.id,
        pick,
        { offset: (page - 1) * limit, limit, search: query.search.trim(), status: query.status, sort: query.sort, accountId: query.accountId },
        current === null ? 'tables' : current ? 'storedRows' : 'storedRowsAndMarked',
        { markedUpTo: INLINE_REFRESH_LINES },
      );
      return {
        records: found.rows.map(toUsageRecord),
        pagination: paginationOf(found.matching, page, limit),
        summary: {
          totalTerminals: found.summary.total,
          activeTerminals: found.summary.active,
          totalDataUsed: round2(found.summary.usedGb),
          overLimit: found.summary.overLimit,
        },
      };
    },

    async dailyUsage(customerUuid, range) {
      const customer = await liveCustomerOr404(customerUuid);
      const totals = new Map((await store.dailyTotals(customer.id, range.from, range.to)).map((row) => [row.day, row]));
      return usageDays(range.from, range.to).map((date) => ({
        date,
        priorityGB: round2(totals.get(date)?.priorityGb ?? 0),
        standardGB: round2(totals.get(date)?.standardGb ?? 0),
      }));
    },

    async serviceLineHistory(serviceLineNumber, query) {
      const [line, terminal] = await Promise.all([repos.terminals.findServiceLine(serviceLineNumber), repos.terminals.findLiveOnLine(serviceLineNumber)]);
      if (!line && !terminal) throw new NotFoundError(TERMINAL_SERVER_MESSAGES.serviceLineNotFound);
      const [cycles, days] = await Promise.all([
        store.cyclesOfLine(serviceLineNumber, query.billingCycle),
        store.daysOfLine(serviceLineNumber, query.dates, query.limit),
      ]);
      const records = days.map(toDailyRecord);
      const priority = round2(records.reduce((sum, r) => sum + r.priorityGB, 0));
      const standard = round2(records.reduce((sum, r) => sum + r.standardGB, 0));
      return {
        serviceLineNumber,
        terminalId: terminal?.userTerminalId ?? null,
        owner: ownerOf(terminal),
        cycles: cycles.map((cycle) => ({
          startDate: cycle.cycleStart,
          endDate: cycle.cycleEnd,
          priorityGB: cycle.priorityGb,
          standardGB: cycle.standardGb,
          totalGB: round2(cycle.priorityGb + cycle.standardGb),
          usageLimitGB: cycle.usageLimitGb,
          overageGB: cycle.overageGb,
        })),
        records,
        totals: { priorityGB: priority, standardGB: standard, totalGB: round2(priority + standard), days: records.length },
      };
    },
  };
}
