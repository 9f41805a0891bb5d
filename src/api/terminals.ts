// Terminals (`/terminals/*`, admin only; spec sections 3, 7 and 8 "Terminals"). Incoming rows may
// be snake_case or camelCase and come as a bare list or inside `results` / `data`; the app sees one
// camelCase `TerminalListItem`. Every normaliser reads defensively: a field it cannot read takes
// its default, a row it cannot read is skipped, a record it needs and cannot read is a failure.
import { mapResult, type ApiClient, type ApiResult, type Download } from './client';
import { downloadCsv } from './csv';
import { listExportFileName } from '../domain/list-exports';
import { bool, int, isRecord, pick, type Raw, str, withSignal } from './normalise';
import { rowAccount } from './account-refs';
import { paginationOf, type Pagination } from '../domain/customers';
import {
  DEFAULT_SYNC_SHARE,
  SYNC_SCHEDULE_STATES,
  type ProviderCallsMinute,
  type SyncBudget,
  type SyncRunFigures,
  type SyncScheduleEntry,
} from '../domain/provider-budget';
import {
  SYNC_JOB_KINDS,
  SYNC_JOB_STATUSES,
  TERMINAL_CONDITIONS,
  type TERMINAL_STATUS_OPTIONS,
  TERMINAL_SYNC_STATUSES,
  TERMINALS_PAGE_SIZE,
  usagePercentage,
  type DailyUsageRecord,
  type DataCap,
  type FleetHealth,
  type ServiceLineUsageWire,
  type SyncCounts,
  type SyncJob,
  type SyncQueue,
  type SyncStats,
  type SyncTrigger,
  type TerminalDetail,
  type TerminalDetailWire,
  type TerminalListItem,
  type TerminalSort,
  type TerminalSyncStatus,
  type TerminalTelemetry,
  type UsageAmount,
} from '../domain/terminals';

// ---- Shapes the app sees -------------------------------------------------------------------

/** The status dropdown of the list (All Status, Active, Inactive). */
export type TerminalStatusChoice = (typeof TERMINAL_STATUS_OPTIONS)[number]['value'];

export interface TerminalListQuery {
  page?: number;
  limit?: number;
  search?: string;
  /** 'active' / 'inactive' go to the server as `active=true|false`; 'all' sends nothing. */
  status?: TerminalStatusChoice;
  /** Only assigned (true) or only unassigned (false) terminals; both when missing. */
  assigned?: boolean;
  syncStatus?: TerminalSyncStatus;
  sort?: TerminalSort;
  /** Only the terminals of this provider account; every account's when missing. */
  accountId?: number;
}

export interface TerminalListData {
  terminals: TerminalListItem[];
  /** `total` is the server's totalCount (all matching terminals, not only this page). */
  pagination: Pagination;
}

export type TerminalOwner = NonNullable<TerminalDetailWire['owner']>;

/** `GET /terminals/{id}`: the list record plus what the Terminal Details dialog shows. */
export type { TerminalDetail };

/** `GET /terminals/service-line/{sl}/usage`: the wire shape, every field read defensively. */
export type ServiceLineUsage = ServiceLineUsageWire;

/** `POST /terminals/{id}/refresh`. */
export interface TerminalRefresh {
  userTerminalId: string;
  syncStatus: TerminalSyncStatus;
  lastSyncedAt: string | null;
}

/** `POST /terminals/{id}/report-issue`. */
export interface IssueReport {
  reported: boolean;
}

// ---- Field readers -------------------------------------------------------------------------

export const UNKNOWN_ID = 'Unknown';

/** A number that may have a fraction (usage, amounts); `int` would truncate it. */
export function num(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}
/** A provider id: blank or missing reads 'Unknown' (spec 3). Numbers are taken as text. */
export function idOf(value: unknown): string {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : str(value);
  return text && text.trim() !== '' ? text : UNKNOWN_ID;
}
function optionalText(value: unknown): string | undefined {
  const text = str(value);
  return text && text.trim() !== '' ? text : undefined;
}
export function oneOf<T extends string>(values: readonly T[], value: unknown): T | null {
  return typeof value === 'string' && (values as readonly string[]).includes(value) ? (value as T) : null;
}
const count = (value: unknown) => Math.max(0, int(value, 0));
const nullableInt = (value: unknown) => (num(value) === null ? null : Math.round(num(value)!));
export const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
export const strings = (value: unknown) => listOf(value).filter((item): item is string => typeof item === 'string');

// ---- The list ------------------------------------------------------------------------------

/** One row of any terminals answer; null when it is not a record (it is skipped). */
export function normaliseTerminalRow(raw: unknown): TerminalListItem | null {
  if (!isRecord(raw)) return null;
  const assignedTo = optionalText(pick(raw, 'assignedTo', 'assigned_to'));
  const assignedToCustomer = optionalText(pick(raw, 'assignedToCustomer', 'assigned_to_customer'));
  return {
    userTerminalId: idOf(pick(raw, 'userTerminalId', 'user_terminal_id')),
    kitSerialNumber: idOf(pick(raw, 'kitSerialNumber', 'kit_serial_number')),
    dishSerialNumber: idOf(pick(raw, 'dishSerialNumber', 'dish_serial_number')),
    serviceLineNumber: idOf(pick(raw, 'serviceLineNumber', 'service_line_number')),
    nickname: str(raw.nickname),
    // Spec 3: active defaults to false.
    active: bool(raw.active),
    ...(assignedTo ? { assignedTo } : {}),
    ...(assignedToCustomer ? { assignedToCustomer } : {}),
    // Not known to be synced is not shown as synced.
    syncStatus: oneOf(TERMINAL_SYNC_STATUSES, pick(raw, 'syncStatus', 'sync_status')) ?? 'pending',
    lastSyncedAt: str(pick(raw, 'lastSyncedAt', 'last_synced_at')),
    dataCapUpdatedAt: str(pick(raw, 'dataCapUpdatedAt', 'data_cap_updated_at')),
    updatedAt: str(pick(raw, 'updatedAt', 'updated_at')),
    condition: oneOf(TERMINAL_CONDITIONS, raw.condition),
    terminalType: str(pick(raw, 'terminalType', 'terminal_type')),
    plan: str(raw.plan),
    location: str(raw.location),
    region: str(raw.region),
    ...rowAccount(raw),
  };
}


/**
 * `GET /terminals` data (spec 7): a bare list, or an object whose `results` or `data` holds the
 * list, plus totalCount. Rows that cannot be read are skipped; an unexpected shape is an empty list.
 */
export function normaliseTerminalPage(data: unknown, query: Pick<TerminalListQuery, 'page' | 'limit'> = {}): TerminalListData {
  const raw: Raw = isRecord(data) ? data : {};
  const list = Array.isArray(data) ? data : Array.isArray(raw.results) ? raw.results : Array.isArray(raw.data) ? raw.data : [];
  const terminals = list.map(normaliseTerminalRow).filter((t): t is TerminalListItem => t !== null);
  const limit = Math.max(1, int(raw.limit, query.limit ?? TERMINALS_PAGE_SIZE));
  const total = Math.max(0, int(raw.totalCount ?? raw.total_count ?? raw.total, terminals.length));
  const page = Math.max(1, int(raw.page, query.page ?? 1));
  return { terminals, pagination: paginationOf(total, page, limit) };
}

/** The query string of `GET /terminals`. */
export function terminalListSearchParams(query: TerminalListQuery): Record<string, string | number | boolean | undefined> {
  const search = query.search?.trim();
  return {
    page: query.page ?? 1,
    limit: query.limit ?? TERMINALS_PAGE_SIZE,
    search: search ? search : undefined,
    active: query.status === 'active' ? true : query.status === 'inactive' ? false : undefined,
    assigned: query.assigned,
    sync_status: query.syncStatus,
    sort: query.sort,
    account_id: query.accountId,
  };
}

// ---- Sync ----------------------------------------------------------------------------------

export function normaliseSyncStats(raw: unknown): SyncStats {
  const r = isRecord(raw) ? raw : {};
  return { synced: count(r.synced), pending: count(r.pending), error: count(r.error ?? r.errors) };
}

function normaliseCounts(raw: unknown): SyncCounts {
  const r = isRecord(raw) ? raw : {};
  return { added: count(r.added), updated: count(r.updated), unchanged: count(r.unchanged), removed: count(r.removed), failed: count(r.failed) };
}

/** A sync run; null without an id or a known status (nothing to poll or show). */
export function normaliseSyncJob(raw: unknown): SyncJob | null {
  if (!isRecord(raw)) return null;
  const id = raw.id ?? pick(raw, 'jobId', 'job_id');
  const status = oneOf(SYNC_JOB_STATUSES, raw.status);
  if (status === null || !((typeof id === 'string' && id !== '') || typeof id === 'number')) return null;
  const progress = nullableInt(raw.progress);
  return {
    id: String(id),
    kind: oneOf(SYNC_JOB_KINDS, raw.kind) ?? 'inventory',
    trigger: oneOf<SyncTrigger>(['manual', 'schedule', 'startup'], raw.trigger) ?? 'manual',
    status,
    phase: str(raw.phase),
    progress: progress === null ? null : Math.max(0, Math.min(100, progress)),
    counts: normaliseCounts(raw.counts),
    providerCalls: count(pick(raw, 'providerCalls', 'provider_calls')),
    message: str(raw.message),
    requestedBy: str(pick(raw, 'requestedBy', 'requested_by')),
    queuedAt: str(pick(raw, 'queuedAt', 'queued_at')) ?? '',
    startedAt: str(pick(raw, 'startedAt', 'started_at')),
    finishedAt: str(pick(raw, 'finishedAt', 'finished_at')),
    heartbeatAt: str(pick(raw, 'heartbeatAt', 'heartbeat_at')),
    ...rowAccount(raw),
  };
}

export function normaliseSyncQueue(raw: unknown): SyncQueue {
  const r = isRecord(raw) ? raw : {};
  return {
    active: normaliseSyncJob(r.active),
    recent: listOf(r.recent).map(normaliseSyncJob).filter((job): job is SyncJob => job !== null),
  };
}

function normaliseRunFigures(raw: unknown): SyncRunFigures | null {
  if (!isRecord(raw)) return null;
  const status = oneOf(SYNC_JOB_STATUSES, raw.status);
  const id = str(raw.id);
  if (!status || !id) return null;
  return {
    id,
    status,
    startedAt: str(raw.startedAt),
    finishedAt: str(raw.finishedAt),
    durationMs: nullableInt(raw.durationMs),
    providerCalls: count(raw.providerCalls),
  };
}

function normaliseScheduleEntry(raw: unknown, kind: SyncScheduleEntry['kind']): SyncScheduleEntry {
  const r = isRecord(raw) ? raw : {};
  return {
    kind,
    state: oneOf(SYNC_SCHEDULE_STATES, r.state) ?? 'off',
    configuredIntervalMs: nullableInt(r.configuredIntervalMs),
    effectiveIntervalMs: nullableInt(r.effectiveIntervalMs),
    nextAt: str(r.nextAt),
    lastRun: normaliseRunFigures(r.lastRun),
  };
}

/** `GET /terminals/sync/budget`: the provider call budget, the sized schedule and the last hour's calls. */
export function normaliseSyncBudget(raw: unknown): SyncBudget | null {
  if (!isRecord(raw) || !isRecord(raw.budget)) return null;
  const b = raw.budget;
  return {
    budget: {
      requestsPerMinute: count(b.requestsPerMinute),
      syncShare: num(b.syncShare) ?? DEFAULT_SYNC_SHARE,
      syncRequestsPerMinute: count(b.syncRequestsPerMinute),
      shared: bool(b.shared),
      pausedUntil: str(b.pausedUntil),
    },
    inventory: normaliseScheduleEntry(raw.inventory, 'inventory'),
    usage: normaliseScheduleEntry(raw.usage, 'usage'),
    perMinute: listOf(raw.perMinute).flatMap((m): ProviderCallsMinute[] => {
      const minute = isRecord(m) ? str(m.minute) : null;
      return isRecord(m) && minute ? [{ minute, sync: count(m.sync), person: count(m.person) }] : [];
    }),
  };
}

export function normaliseFleetHealth(raw: unknown): FleetHealth {
  const r = isRecord(raw) ? raw : {};
  return {
    total: count(r.total),
    priority: count(r.priority),
    standard: count(r.standard),
    active: count(r.active),
    warning: count(r.warning),
    maintenance: count(r.maintenance),
    inactive: count(r.inactive),
    assigned: count(r.assigned),
    unassigned: count(r.unassigned),
    averageSignalQuality: nullableInt(pick(r, 'averageSignalQuality', 'average_signal_quality')),
    networkUptime: nullableInt(pick(r, 'networkUptime', 'network_uptime')),
    monthlyUsageGB: num(pick(r, 'monthlyUsageGB', 'monthly_usage_gb')),
    priorityShare: nullableInt(pick(r, 'priorityShare', 'priority_share')),
    sync: normaliseSyncStats(r.sync),
    lastSync: normaliseSyncJob(pick(r, 'lastSync', 'last_sync')),
  };
}

// ---- Detail and usage ----------------------------------------------------------------------

export function normaliseOwner(raw: unknown): TerminalOwner | null {
  if (!isRecord(raw)) return null;
  const uuid = optionalText(raw.uuid ?? raw.id);
  const name = optionalText(raw.name);
  if (!uuid && !name) return null;
  return { uuid: uuid ?? '', name: name ?? '', company: str(raw.company) };
}

export function normaliseDataCap(raw: unknown): DataCap | null {
  if (!isRecord(raw)) return null;
  const amount = num(raw.amount);
  return amount === null ? null : { amount, unit: str(raw.unit) ?? 'GB' };
}

function normaliseTelemetry(raw: unknown): TerminalTelemetry | null {
  if (!isRecord(raw)) return null;
  const n = (camel: string, snake: string) => num(pick(raw, camel, snake));
  return {
    reportedAt: str(pick(raw, 'reportedAt', 'reported_at')),
    signalQuality: n('signalQuality', 'signal_quality'),
    uptimeSeconds: n('uptimeSeconds', 'uptime_seconds'),
    downlinkMbps: n('downlinkMbps', 'downlink_mbps'),
    uplinkMbps: n('uplinkMbps', 'uplink_mbps'),
    latencyMs: n('latencyMs', 'latency_ms'),
    obstructionPercent: n('obstructionPercent', 'obstruction_percent'),
    softwareVersion: str(pick(raw, 'softwareVersion', 'software_version')),
    alerts: strings(raw.alerts),
  };
}

function normaliseServiceLine(raw: unknown): TerminalDetailWire['serviceLine'] {
  if (!isRecord(raw)) return null;
  return {
    active: bool(raw.active),
    productReferenceId: str(pick(raw, 'productReferenceId', 'product_reference_id')),
    startDate: str(pick(raw, 'startDate', 'start_date')),
    endDate: str(pick(raw, 'endDate', 'end_date')),
    addressReferenceId: str(pick(raw, 'addressReferenceId', 'address_reference_id')),
  };
}

function normaliseAddress(raw: unknown): TerminalDetailWire['address'] {
  if (!isRecord(raw)) return null;
  return {
    formattedAddress: str(pick(raw, 'formattedAddress', 'formatted_address')),
    region: str(raw.region),
    latitude: num(raw.latitude),
    longitude: num(raw.longitude),
  };
}

/** `GET /terminals/{id}` data: the row fields (either case) plus the dialog's; null when not a record. */
export function normaliseDetail(raw: unknown): TerminalDetail | null {
  const row = normaliseTerminalRow(raw);
  if (!row || !isRecord(raw)) return null;
  return {
    ...row,
    owner: normaliseOwner(raw.owner),
    dataCap: normaliseDataCap(pick(raw, 'dataCap', 'data_cap')),
    model: str(raw.model),
    accountNumber: str(pick(raw, 'accountNumber', 'account_number')),
    serviceLine: normaliseServiceLine(pick(raw, 'serviceLine', 'service_line')),
    address: normaliseAddress(raw.address),
    telemetry: normaliseTelemetry(raw.telemetry),
    syncError: str(pick(raw, 'syncError', 'sync_error')),
    removedAt: str(pick(raw, 'removedAt', 'removed_at')),
  };
}

export function normaliseAmount(raw: unknown): UsageAmount {
  const r = isRecord(raw) ? raw : {};
  const used = Math.max(0, num(r.used) ?? 0);
  const total = Math.max(0, num(r.total) ?? 0);
  return { used, total, unit: str(r.unit) ?? 'GB', percentage: num(r.percentage) ?? usagePercentage(used, total) };
}

export function normaliseDailyUsage(raw: unknown): DailyUsageRecord | null {
  if (!isRecord(raw)) return null;
  const date = str(raw.date);
  if (!date) return null;
  const gb = (camel: string, snake: string) => Math.max(0, num(pick(raw, camel, snake)) ?? 0);
  return {
    date,
    priorityGB: gb('priorityGB', 'priority_gb'),
    standardGB: gb('standardGB', 'standard_gb'),
    optInPriorityGB: gb('optInPriorityGB', 'opt_in_priority_gb'),
    nonBillableGB: gb('nonBillableGB', 'non_billable_gb'),
  };
}

function normaliseBillingCycle(raw: unknown): ServiceLineUsage['currentBillingCycle'] {
  if (!isRecord(raw)) return null;
  const startDate = str(pick(raw, 'startDate', 'start_date'));
  const endDate = str(pick(raw, 'endDate', 'end_date'));
  if (!startDate || !endDate) return null;
  const priorityData = normaliseAmount(pick(raw, 'priorityData', 'priority_data'));
  const deprioritised = isRecord(raw.deprioritizedData) ? raw.deprioritizedData : isRecord(raw.deprioritized_data) ? raw.deprioritized_data : {};
  const deprioritizedData = { used: Math.max(0, num(deprioritised.used) ?? 0), unit: str(deprioritised.unit) ?? 'GB' };
  return {
    startDate,
    endDate,
    priorityData,
    deprioritizedData,
    totalUsed: num(pick(raw, 'totalUsed', 'total_used')) ?? priorityData.used + deprioritizedData.used,
    totalUnit: str(pick(raw, 'totalUnit', 'total_unit')) ?? 'GB',
  };
}

/**
 * `GET /terminals/service-line/{sl}/usage` data; null when not a record. A cycle without its dates
 * reads as no usage for the month (`currentBillingCycle: null`).
 */
export function normaliseUsage(raw: unknown, serviceLineNumber = ''): ServiceLineUsage | null {
  if (!isRecord(raw)) return null;
  const range = isRecord(pick(raw, 'dateRange', 'date_range')) ? (pick(raw, 'dateRange', 'date_range') as Raw) : {};
  return {
    terminalId: str(pick(raw, 'terminalId', 'terminal_id')),
    serviceLineNumber: str(pick(raw, 'serviceLineNumber', 'service_line_number')) ?? serviceLineNumber,
    // Spec 3: active when the status equals Active.
    status: raw.status === 'Active' ? 'Active' : 'Inactive',
    owner: normaliseOwner(raw.owner),
    lastSyncedAt: str(pick(raw, 'lastSyncedAt', 'last_synced_at')),
    dataCap: normaliseDataCap(pick(raw, 'dataCap', 'data_cap')),
    currentBillingCycle: normaliseBillingCycle(pick(raw, 'currentBillingCycle', 'current_billing_cycle')),
    plan: str(raw.plan),
    location: str(raw.location),
    terminalType: str(pick(raw, 'terminalType', 'terminal_type')),
    dateRange: { start: str(range.start) ?? '', end: str(range.end) ?? '' },
    rawUsageRecords: listOf(pick(raw, 'rawUsageRecords', 'raw_usage_records'))
      .map(normaliseDailyUsage)
      .filter((record): record is DailyUsageRecord => record !== null),
  };
}

export function normaliseRefresh(raw: unknown, userTerminalId: string): TerminalRefresh | null {
  if (!isRecord(raw)) return null;
  return {
    userTerminalId: str(pick(raw, 'userTerminalId', 'user_terminal_id')) ?? userTerminalId,
    syncStatus: oneOf(TERMINAL_SYNC_STATUSES, pick(raw, 'syncStatus', 'sync_status')) ?? 'pending',
    lastSyncedAt: str(pick(raw, 'lastSyncedAt', 'last_synced_at')),
  };
}

// ---- The module ----------------------------------------------------------------------------

export function createTerminalsApi(client: ApiClient) {
  const path = (id: string) => `/terminals/${encodeURIComponent(id)}`;
  const get = async <U>(url: string, map: (data: unknown) => U | null, signal?: AbortSignal, query?: Record<string, number>) =>
    mapResult(await client.request<unknown>(url, { ...(query ? { query } : {}), ...withSignal(signal) }), map);

  return {
    listTerminals: async (query: TerminalListQuery = {}, signal?: AbortSignal): Promise<ApiResult<TerminalListData>> =>
      mapResult(
        await client.request<unknown>('/terminals', { query: terminalListSearchParams(query), ...withSignal(signal) }),
        (data) => normaliseTerminalPage(data, query),
      ),

    /** The CSV of the list's search, filters and sort: every page of it. */
    exportCsv: (query: TerminalListQuery = {}, signal?: AbortSignal): Promise<ApiResult<Download>> =>
      downloadCsv(client, '/terminals/export.csv', terminalListSearchParams(query), listExportFileName('terminals', new Date()), signal),

    /** The summary cards, over the whole inventory. */
    fleetHealth: (signal?: AbortSignal): Promise<ApiResult<FleetHealth>> => get('/terminals/health', normaliseFleetHealth, signal),

    syncStats: (signal?: AbortSignal): Promise<ApiResult<SyncStats>> => get('/terminals/sync/stats', normaliseSyncStats, signal),

    /** 202 with the queued job; 409 whose message says "already running" when one is. */
    startSync: async (signal?: AbortSignal): Promise<ApiResult<SyncJob>> =>
      mapResult(await client.request<unknown>('/terminals/sync', { method: 'POST', body: {}, ...withSignal(signal) }), normaliseSyncJob),

    syncJob: (id: string, signal?: AbortSignal): Promise<ApiResult<SyncJob>> =>
      get(`/terminals/sync/job/${encodeURIComponent(id)}`, normaliseSyncJob, signal),

    /** The queued or running sync, if any, and recent runs; one provider account's when `accountId` is given. */
    syncQueue: (signal?: AbortSignal, accountId?: number): Promise<ApiResult<SyncQueue>> =>
      get('/terminals/sync/queue', normaliseSyncQueue, signal, accountId === undefined ? undefined : { account_id: accountId }),

    /**
     * One provider account's call budget (the first account's when `accountId` is missing): when
     * the next syncs are due, the last runs and the last hour's calls.
     */
    syncBudget: (signal?: AbortSignal, accountId?: number): Promise<ApiResult<SyncBudget>> =>
      get('/terminals/sync/budget', normaliseSyncBudget, signal, accountId === undefined ? undefined : { account_id: accountId }),

    /** 404 'Terminal not found'. */
    terminalDetail: (id: string, signal?: AbortSignal): Promise<ApiResult<TerminalDetail>> => get(path(id), normaliseDetail, signal),

    /** Spec 7: year and month go only when both are given. */
    serviceLineUsage: (
      serviceLineNumber: string,
      month?: { year?: number; month?: number },
      signal?: AbortSignal,
    ): Promise<ApiResult<ServiceLineUsage>> =>
      get(
        `/terminals/service-line/${encodeURIComponent(serviceLineNumber)}/usage`,
        (data) => normaliseUsage(data, serviceLineNumber),
        signal,
        month?.year !== undefined && month.month !== undefined ? { year: month.year, month: month.month } : undefined,
      ),

    refreshTerminal: async (id: string, signal?: AbortSignal): Promise<ApiResult<TerminalRefresh>> =>
      mapResult(await client.request<unknown>(`${path(id)}/refresh`, { method: 'POST', body: {}, ...withSignal(signal) }), (data) =>
        normaliseRefresh(data, id),
      ),

    reportTerminalIssue: async (id: string, note: string, signal?: AbortSignal): Promise<ApiResult<IssueReport>> =>
      mapResult(await client.request<unknown>(`${path(id)}/report-issue`, { method: 'POST', body: { note }, ...withSignal(signal) }), (data) => ({
        reported: isRecord(data) ? bool(data.reported, true) : true,
      })),
  };
}

export type TerminalsApi = ReturnType<typeof createTerminalsApi>;
