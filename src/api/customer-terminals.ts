// A customer's terminals (`/terminals/customers/*`, `/usage/service-line/*`, admin only; spec
// sections 3 and 7): assignment by service line, the assigned list and usage by month. Incoming
// fields may be snake_case or camelCase; the app sees the camelCase shapes of
// src/domain/customer-terminals.ts. Unreadable rows are skipped; an answer whose shape cannot be
// read at all is a failure (mapResult's null), never an empty list that looks like "nothing".
import { mapResult, type ApiClient, type ApiResult, type Download } from './client';
import { downloadCsv } from './csv';
import { listExportFileName } from '../domain/list-exports';
import { normalisePagination } from './customers';
import { int, isRecord, pick, type Raw, str, withSignal } from './normalise';
import { rowAccount } from './account-refs';
import {
  idOf,
  listOf,
  normaliseAmount,
  normaliseDailyUsage,
  normaliseDataCap,
  normaliseOwner,
  num,
  oneOf,
  strings,
  UNKNOWN_ID,
} from './terminals';
import {
  ASSIGN_FAILURE_CODES,
  ASSIGNED_PREVIEW_SIZE,
  CUSTOMER_TERMINAL_STATUSES,
  customerUsagePageSearchParams,
  monthUsageQuery,
  type AssignedTerminal,
  type AssignedTerminalsPage,
  type AssignFailure,
  type AssignFailureCode,
  type AssignTerminalsResult,
  type CustomerDailyUsage,
  type CustomerUsagePage,
  type CustomerUsagePageQuery,
  type CustomerUsageSummary,
  type ServiceLineUsageHistory,
  type TerminalUsageRecord,
  type UnassignTerminalResult,
} from '../domain/customer-terminals';
import type { DailyUsageRecord } from '../domain/terminals';

/** `GET /usage/service-line/{sl}`: every part optional; dates are `YYYY-MM-DD`. */
export interface ServiceLineUsageQuery {
  billingCycleStart?: string;
  billingCycleEnd?: string;
  startDate?: string;
  endDate?: string;
  limit?: number;
}

// ---- Readers -------------------------------------------------------------------------------

/**
 * The list an answer carries: the data itself, or the first of `keys` that holds one; null when
 * there is none (a failure, not an empty list).
 */
function listIn(data: unknown, ...keys: string[]): unknown[] | null {
  if (Array.isArray(data)) return data;
  if (!isRecord(data)) return null;
  for (const key of keys) if (Array.isArray(data[key])) return data[key];
  return null;
}

function rowsOf<T>(data: unknown, read: (raw: unknown) => T | null, ...keys: string[]): T[] | null {
  const list = listIn(data, ...keys);
  return list === null ? null : list.map(read).filter((row): row is T => row !== null);
}

const gb = (value: unknown) => Math.max(0, num(value) ?? 0);
const serviceLineOf = (raw: Raw) => str(pick(raw, 'serviceLineNumber', 'service_line_number'));

// ---- Assign and unassign -------------------------------------------------------------------

/**
 * A code this client does not know reads as `not_found`: the vaguest of the reasons (the line
 * could not be matched to an assignable terminal), neither blaming the input (malformed) nor
 * naming a holder (assigned_to_other). The server's `reason` sentence is shown either way.
 */
export const UNKNOWN_FAILURE_CODE: AssignFailureCode = 'not_found';

function normaliseFailure(raw: unknown): AssignFailure | null {
  if (!isRecord(raw)) return null;
  const serviceLineNumber = serviceLineOf(raw);
  if (serviceLineNumber === null) return null;
  return {
    serviceLineNumber,
    reason: str(raw.reason) ?? '',
    code: oneOf(ASSIGN_FAILURE_CODES, raw.code) ?? UNKNOWN_FAILURE_CODE,
  };
}

/** `POST .../assign-terminals` data; null when it holds neither an `assigned` nor a `failed` list. */
export function normaliseAssignResult(raw: unknown): AssignTerminalsResult | null {
  if (!isRecord(raw) || !(Array.isArray(raw.assigned) || Array.isArray(raw.failed))) return null;
  const assigned = strings(raw.assigned);
  const failed = listOf(raw.failed)
    .map(normaliseFailure)
    .filter((f): f is AssignFailure => f !== null);
  return { assigned, failed, total: Math.max(0, int(raw.total, assigned.length + failed.length)) };
}

/** `POST .../unassign-terminal` data; the asked line fills a missing one. */
export function normaliseUnassignResult(raw: unknown, serviceLineNumber: string): UnassignTerminalResult | null {
  if (!isRecord(raw)) return null;
  return { serviceLineNumber: serviceLineOf(raw) ?? serviceLineNumber, unassigned: strings(raw.unassigned) };
}

// ---- Assigned terminals --------------------------------------------------------------------

/** One assigned terminal; null when it names neither a terminal nor a service line. */
export function normaliseAssignedTerminal(raw: unknown): AssignedTerminal | null {
  if (!isRecord(raw)) return null;
  const deviceId = idOf(pick(raw, 'deviceId', 'device_id') ?? pick(raw, 'userTerminalId', 'user_terminal_id'));
  const serviceLine = idOf(pick(raw, 'serviceLine', 'service_line') ?? serviceLineOf(raw));
  if (deviceId === UNKNOWN_ID && serviceLine === UNKNOWN_ID) return null;
  return {
    deviceId,
    serviceLine,
    // Spec 3: active when the status equals Active.
    status: raw.status === 'Active' ? 'Active' : 'Inactive',
    assignedTo: str(pick(raw, 'assignedTo', 'assigned_to')) ?? '',
    kitSerialNumber: idOf(pick(raw, 'kitSerialNumber', 'kit_serial_number')),
    assignedAt: str(pick(raw, 'assignedAt', 'assigned_at')) ?? '',
    ...rowAccount(raw),
  };
}

// ---- Usage ---------------------------------------------------------------------------------

function normaliseUsageCycle(raw: unknown): TerminalUsageRecord['currentBillingCycle'] {
  if (!isRecord(raw)) return null;
  const startDate = str(pick(raw, 'startDate', 'start_date'));
  const endDate = str(pick(raw, 'endDate', 'end_date'));
  if (!startDate || !endDate) return null;
  const priorityData = normaliseAmount(pick(raw, 'priorityData', 'priority_data'));
  const standardUsed = gb(pick(raw, 'standardUsed', 'standard_used'));
  return {
    startDate,
    endDate,
    totalUsed: num(pick(raw, 'totalUsed', 'total_used')) ?? priorityData.used + standardUsed,
    priorityData,
    standardUsed,
  };
}

/**
 * One terminal's usage record; null when it names neither a terminal nor a service line. An
 * unknown status reads as Pending (not known to be synced is not shown as active).
 */
export function normaliseUsageRecord(raw: unknown): TerminalUsageRecord | null {
  if (!isRecord(raw)) return null;
  const terminalId = idOf(pick(raw, 'terminalId', 'terminal_id'));
  const serviceLineNumber = idOf(serviceLineOf(raw));
  if (terminalId === UNKNOWN_ID && serviceLineNumber === UNKNOWN_ID) return null;
  return {
    terminalId,
    serviceLineNumber,
    location: str(raw.location),
    terminalType: str(pick(raw, 'terminalType', 'terminal_type')),
    plan: str(raw.plan),
    status: oneOf(CUSTOMER_TERMINAL_STATUSES, raw.status) ?? 'Pending',
    dataCap: normaliseDataCap(pick(raw, 'dataCap', 'data_cap')),
    currentBillingCycle: normaliseUsageCycle(pick(raw, 'currentBillingCycle', 'current_billing_cycle')),
    ...rowAccount(raw),
  };
}

/** The summary cards; a missing count is the page's rows (total) or 0. */
function normaliseUsageSummary(raw: unknown, records: TerminalUsageRecord[]): CustomerUsageSummary {
  const r = isRecord(raw) ? raw : {};
  return {
    totalTerminals: Math.max(0, int(pick(r, 'totalTerminals', 'total_terminals'), records.length)),
    activeTerminals: Math.max(0, int(pick(r, 'activeTerminals', 'active_terminals'), 0)),
    totalDataUsed: gb(pick(r, 'totalDataUsed', 'total_data_used')),
    overLimit: Math.max(0, int(pick(r, 'overLimit', 'over_limit'), 0)),
  };
}

/** `GET /terminals/customers/{uuid}/usage/page` data; null when it holds no list of records. */
export function normaliseCustomerUsagePage(raw: unknown, query: Pick<CustomerUsagePageQuery, 'page' | 'limit'>): CustomerUsagePage | null {
  const records = rowsOf(raw, normaliseUsageRecord, 'records');
  if (!isRecord(raw) || records === null) return null;
  return { records, pagination: normalisePagination(raw.pagination, records.length, query), summary: normaliseUsageSummary(raw.summary, records) };
}

/** `GET /terminals/customers/{uuid}/terminals/page` data; null when it holds no list of records. */
export function normaliseAssignedTerminalsPage(raw: unknown, query: { page: number; limit: number }): AssignedTerminalsPage | null {
  const records = rowsOf(raw, normaliseAssignedTerminal, 'records');
  if (!isRecord(raw) || records === null) return null;
  return { records, pagination: normalisePagination(raw.pagination, records.length, query) };
}

/** One day of the customer's chart (the daily record without the fields it does not draw). */
export function normaliseCustomerDailyUsage(raw: unknown): CustomerDailyUsage | null {
  const day = normaliseDailyUsage(raw);
  return day && { date: day.date, priorityGB: day.priorityGB, standardGB: day.standardGB };
}

type UsageCycle = ServiceLineUsageHistory['cycles'][number];

function normaliseHistoryCycle(raw: unknown): UsageCycle | null {
  if (!isRecord(raw)) return null;
  const startDate = str(pick(raw, 'startDate', 'start_date'));
  const endDate = str(pick(raw, 'endDate', 'end_date'));
  if (!startDate || !endDate) return null;
  const priorityGB = gb(pick(raw, 'priorityGB', 'priority_gb'));
  const standardGB = gb(pick(raw, 'standardGB', 'standard_gb'));
  return {
    startDate,
    endDate,
    priorityGB,
    standardGB,
    totalGB: num(pick(raw, 'totalGB', 'total_gb')) ?? priorityGB + standardGB,
    usageLimitGB: num(pick(raw, 'usageLimitGB', 'usage_limit_gb')),
    overageGB: num(pick(raw, 'overageGB', 'overage_gb')),
  };
}

/** `GET /usage/service-line/{sl}` data; null when not a record. Missing totals are summed from the records. */
export function normaliseServiceLineHistory(raw: unknown, serviceLineNumber = ''): ServiceLineUsageHistory | null {
  if (!isRecord(raw)) return null;
  const records = listOf(raw.records)
    .map(normaliseDailyUsage)
    .filter((r): r is DailyUsageRecord => r !== null);
  const totals = isRecord(raw.totals) ? raw.totals : {};
  const priorityGB = num(pick(totals, 'priorityGB', 'priority_gb')) ?? records.reduce((sum, r) => sum + r.priorityGB, 0);
  const standardGB = num(pick(totals, 'standardGB', 'standard_gb')) ?? records.reduce((sum, r) => sum + r.standardGB, 0);
  return {
    serviceLineNumber: serviceLineOf(raw) ?? serviceLineNumber,
    terminalId: str(pick(raw, 'terminalId', 'terminal_id')),
    owner: normaliseOwner(raw.owner),
    cycles: listOf(raw.cycles)
      .map(normaliseHistoryCycle)
      .filter((c): c is UsageCycle => c !== null),
    records,
    totals: {
      priorityGB,
      standardGB,
      totalGB: num(pick(totals, 'totalGB', 'total_gb')) ?? priorityGB + standardGB,
      days: Math.max(0, int(totals.days, records.length)),
    },
  };
}

/** The query string of `GET /usage/service-line/{sl}`; parts not given are not sent. */
export function serviceLineUsageSearchParams(query: ServiceLineUsageQuery): Record<string, string | number | undefined> {
  return {
    billing_cycle_start: query.billingCycleStart,
    billing_cycle_end: query.billingCycleEnd,
    start_date: query.startDate,
    end_date: query.endDate,
    limit: query.limit,
  };
}

// ---- The module ----------------------------------------------------------------------------

export function createCustomerTerminalsApi(client: ApiClient) {
  const customerPath = (uuid: string) => `/terminals/customers/${encodeURIComponent(uuid)}`;
  const get = async <U>(url: string, map: (data: unknown) => U | null, signal?: AbortSignal, query?: Record<string, string | number | undefined>) =>
    mapResult(await client.request<unknown>(url, { ...(query ? { query } : {}), ...withSignal(signal) }), map);
  const post = async <U>(url: string, body: unknown, map: (data: unknown) => U | null, signal?: AbortSignal) =>
    mapResult(await client.request<unknown>(url, { method: 'POST', body, ...withSignal(signal) }), map);

  return {
    /** Per-line refusals come back as data in `failed`; a refused request (400, 404) is ok:false. */
    assignTerminals: (customerUuid: string, serviceLineNumbers: string[], signal?: AbortSignal): Promise<ApiResult<AssignTerminalsResult>> =>
      post('/terminals/customers/assign-terminals', { customerUuid, serviceLineNumbers }, normaliseAssignResult, signal),

    /** 409 when the line is not assigned to this customer. */
    unassignTerminal: (customerUuid: string, serviceLineNumber: string, signal?: AbortSignal): Promise<ApiResult<UnassignTerminalResult>> =>
      post('/terminals/customers/unassign-terminal', { customerUuid, serviceLineNumber }, (data) => normaliseUnassignResult(data, serviceLineNumber), signal),

    assignedTerminals: (customerUuid: string, signal?: AbortSignal): Promise<ApiResult<AssignedTerminal[]>> =>
      get(`${customerPath(customerUuid)}/terminals`, (data) => rowsOf(data, normaliseAssignedTerminal, 'terminals', 'data'), signal),

    /** The first `limit` of the customer's terminals (the Assign Terminals dialog) and how many there are. */
    assignedTerminalsPage: (
      customerUuid: string,
      query: { page: number; limit: number; accountId?: number } = { page: 1, limit: ASSIGNED_PREVIEW_SIZE },
      signal?: AbortSignal,
    ): Promise<ApiResult<AssignedTerminalsPage>> =>
      get(`${customerPath(customerUuid)}/terminals/page`, (data) => normaliseAssignedTerminalsPage(data, query), signal, {
        page: query.page,
        limit: query.limit,
        ...(query.accountId !== undefined ? { account_id: query.accountId } : {}),
      }),

    /** Spec 7: always the billing cycles of one month (first and last UTC day), the current one by default. */
    customerUsage: (customerUuid: string, month?: { year: number; month: number }, signal?: AbortSignal): Promise<ApiResult<TerminalUsageRecord[]>> => {
      const now = new Date();
      const { year, month: m } = month ?? { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 };
      return get(`${customerPath(customerUuid)}/usage`, (data) => rowsOf(data, normaliseUsageRecord, 'records', 'data'), signal, monthUsageQuery(year, m));
    },

    /** One page of the month's usage table, searched, filtered and sorted by the server, with the summary cards. */
    customerUsagePage: (customerUuid: string, query: CustomerUsagePageQuery, signal?: AbortSignal): Promise<ApiResult<CustomerUsagePage>> =>
      get(`${customerPath(customerUuid)}/usage/page`, (data) => normaliseCustomerUsagePage(data, query), signal, customerUsagePageSearchParams(query)),

    /** The CSV of the usage table's month, search, status filter and sort: every page of it. */
    exportUsageCsv: (customerUuid: string, query: CustomerUsagePageQuery, signal?: AbortSignal): Promise<ApiResult<Download>> =>
      downloadCsv(client, `${customerPath(customerUuid)}/usage/export.csv`, customerUsagePageSearchParams(query), listExportFileName('customer-usage', new Date()), signal),

    /** One entry per day of the range (`YYYY-MM-DD`, both ends included). */
    customerDailyUsage: (
      customerUuid: string,
      range: { startDate: string; endDate: string },
      signal?: AbortSignal,
    ): Promise<ApiResult<CustomerDailyUsage[]>> =>
      get(`${customerPath(customerUuid)}/usage/daily`, (data) => rowsOf(data, normaliseCustomerDailyUsage, 'records', 'data'), signal, {
        start_date: range.startDate,
        end_date: range.endDate,
      }),

    serviceLineUsageHistory: (serviceLineNumber: string, query: ServiceLineUsageQuery = {}, signal?: AbortSignal): Promise<ApiResult<ServiceLineUsageHistory>> =>
      get(
        `/usage/service-line/${encodeURIComponent(serviceLineNumber)}`,
        (data) => normaliseServiceLineHistory(data, serviceLineNumber),
        signal,
        serviceLineUsageSearchParams(query),
      ),
  };
}

export type CustomerTerminalsApi = ReturnType<typeof createCustomerTerminalsApi>;
