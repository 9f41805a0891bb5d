// Terminals: the inventory's shapes, statuses, filters, usage arithmetic and sync texts (spec
// sections 2 "Terminals" and "Terminal Details dialog", 3, 4, 5, 8 and 9). Shared by the server
// (answers, search, condition) and the client (normalisers, display, machines).

// ---- Statuses and filters ------------------------------------------------------------------

export const TERMINAL_SYNC_STATUSES = ['synced', 'pending', 'error'] as const;
/** synced is the good state; pending: seen by a sync that has not finished applying; error: the provider's record could not be applied. */
export type TerminalSyncStatus = (typeof TERMINAL_SYNC_STATUSES)[number];

/** How the terminal pages (and the terminals export) name a sync status. */
export const SYNC_STATUS_LABEL: Readonly<Record<TerminalSyncStatus, string>> = {
  synced: 'Synced',
  pending: 'Sync pending',
  error: 'Sync error',
};

/** Filter values (spec 4 "Terminal-list filter values"); the page offers only the first three. */
export const TERMINAL_FILTER_VALUES = ['all', 'active', 'inactive', 'assigned', 'unassigned'] as const;
export type TerminalFilter = (typeof TERMINAL_FILTER_VALUES)[number];
export const TERMINAL_STATUS_OPTIONS = [
  { value: 'all', label: 'All Status' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
] as const satisfies readonly { value: TerminalFilter; label: string }[];

/** The Terminal Status card's partition of the fleet (real data instead of the spec's zeros). */
export const TERMINAL_CONDITIONS = ['active', 'warning', 'maintenance', 'inactive'] as const;
export type TerminalCondition = (typeof TERMINAL_CONDITIONS)[number];

/** Telemetry alerts that need someone on site: the terminal counts as "Maintenance". */
export const MAINTENANCE_ALERTS = ['alertMotorsStuck', 'alertMastNotNearVertical', 'alertThermalShutdown'] as const;
/** A terminal reports every 15 s; a last report older than this means offline (provider NOTES). */
export const TELEMETRY_OFFLINE_AFTER_MS = 60_000;
/** Signal quality (percent) below this is a warning: the spec's "critical" grade starts here. */
export const SIGNAL_WARNING_BELOW = 70;

export interface TelemetrySnapshot {
  /** ISO time of the terminal's last report, null when it never reported. */
  reportedAt: string | null;
  /** 0–100, null when unknown. */
  signalQuality: number | null;
  /** Alert names that are on (e.g. alertMotorsStuck). */
  alerts: readonly string[];
}

/**
 * Inactive when the service line is not active; Maintenance when a hardware alert is on; Warning
 * when offline, the signal is critical or any other alert is on; otherwise Active.
 */
export function terminalCondition(active: boolean, telemetry: TelemetrySnapshot | null, at: Date): TerminalCondition {
  if (!active) return 'inactive';
  if (!telemetry || telemetry.reportedAt === null) return 'warning';
  if (telemetry.alerts.some((a) => (MAINTENANCE_ALERTS as readonly string[]).includes(a))) return 'maintenance';
  const age = at.getTime() - Date.parse(telemetry.reportedAt);
  if (!(age <= TELEMETRY_OFFLINE_AFTER_MS)) return 'warning';
  if (telemetry.signalQuality !== null && telemetry.signalQuality < SIGNAL_WARNING_BELOW) return 'warning';
  if (telemetry.alerts.length > 0) return 'warning';
  return 'active';
}

// ---- Limits --------------------------------------------------------------------------------

export const TERMINALS_PAGE_SIZE = 25;
export const TERMINALS_MAX_PAGE_SIZE = 100;
export const TERMINAL_SEARCH_MAX_LENGTH = 100;
/** Provider ids (user terminal ids, kit and dish serials): letters, digits and dashes. */
export const TERMINAL_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9-]{1,63}$/;
/** Service line numbers, e.g. AST-511274-31364-54. */
export const SERVICE_LINE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9-]{1,63}$/;
export const TERMINAL_SORTS = ['service_line', '-service_line', 'terminal_id', '-terminal_id', 'last_synced', '-last_synced', 'owner', '-owner'] as const;
export type TerminalSort = (typeof TERMINAL_SORTS)[number];
export const DEFAULT_TERMINAL_SORT: TerminalSort = 'service_line';

/** Sync polling (spec 9): every 10 s, stop after 5 minutes. */
export const SYNC_POLL_INTERVAL_MS = 10_000;
export const SYNC_POLL_TIMEOUT_MS = 300_000;

// ---- Answers of /api/v1/terminals ----------------------------------------------------------

/** One row of `GET /api/v1/terminals` as the server answers it (snake_case, spec section 3). */
export interface TerminalRowWire {
  user_terminal_id: string;
  kit_serial_number: string;
  dish_serial_number: string | null;
  service_line_number: string | null;
  nickname: string | null;
  active: boolean;
  /** Customer uuid when assigned. */
  assigned_to: string | null;
  /** Customer name when assigned. */
  assigned_to_customer: string | null;
  sync_status: TerminalSyncStatus;
  last_synced_at: string | null;
  data_cap_updated_at: string | null;
  updated_at: string;
  condition: TerminalCondition;
  terminal_type: string | null;
  plan: string | null;
  location: string | null;
  region: string | null;
  /** The provider account the terminal lives under. */
  account_id: number;
  account_name: string;
}

/** `GET /api/v1/terminals` data: one page of the list. */
export interface TerminalPageWire {
  results: TerminalRowWire[];
  totalCount: number;
  page: number;
  limit: number;
}

/** A terminal as the client holds it (spec 3 "Terminal (list view)"): 'Unknown' for missing ids. */
export interface TerminalListItem {
  userTerminalId: string;
  kitSerialNumber: string;
  dishSerialNumber: string;
  serviceLineNumber: string;
  nickname: string | null;
  active: boolean;
  assignedTo?: string;
  assignedToCustomer?: string;
  syncStatus: TerminalSyncStatus;
  lastSyncedAt: string | null;
  dataCapUpdatedAt: string | null;
  updatedAt: string | null;
  condition: TerminalCondition | null;
  terminalType: string | null;
  plan: string | null;
  location: string | null;
  region: string | null;
  /** The provider account the terminal lives under; null when the server did not say (an older one). */
  accountId: number | null;
  accountName: string | null;
}

export interface DataCap {
  amount: number;
  unit: string;
}

export interface TerminalTelemetry {
  reportedAt: string | null;
  signalQuality: number | null;
  uptimeSeconds: number | null;
  downlinkMbps: number | null;
  uplinkMbps: number | null;
  latencyMs: number | null;
  obstructionPercent: number | null;
  softwareVersion: string | null;
  alerts: string[];
}

/** `GET /api/v1/terminals/{id}` data (camelCase): the list fields plus what the dialog shows. */
export interface TerminalDetailWire extends TerminalRowWire {
  owner: { uuid: string; name: string; company: string | null } | null;
  dataCap: DataCap | null;
  model: string | null;
  accountNumber: string;
  serviceLine: {
    active: boolean;
    productReferenceId: string | null;
    startDate: string | null;
    endDate: string | null;
    addressReferenceId: string | null;
  } | null;
  address: { formattedAddress: string | null; region: string | null; latitude: number | null; longitude: number | null } | null;
  telemetry: TerminalTelemetry | null;
  syncError: string | null;
  removedAt: string | null;
}

/**
 * A terminal's detail as the client holds it: the list item (camelCase, 'Unknown' for missing ids)
 * plus the dialog's fields of `TerminalDetailWire`. Views render this, never the snake_case wire.
 */
export interface TerminalDetail extends TerminalListItem {
  owner: TerminalDetailWire['owner'];
  dataCap: DataCap | null;
  model: string | null;
  accountNumber: string | null;
  serviceLine: TerminalDetailWire['serviceLine'];
  address: TerminalDetailWire['address'];
  telemetry: TerminalTelemetry | null;
  syncError: string | null;
  removedAt: string | null;
}

/** Priority or standard data of one billing cycle. */
export interface UsageAmount {
  used: number;
  total: number;
  unit: string;
  percentage: number;
}

/** One day of usage as stored from the provider (GB). */
export interface DailyUsageRecord {
  date: string;
  priorityGB: number;
  standardGB: number;
  optInPriorityGB: number;
  nonBillableGB: number;
}

/** `GET /api/v1/terminals/service-line/{sl}/usage` data (spec 3 "Usage response for a service line"). */
export interface ServiceLineUsageWire {
  terminalId: string | null;
  serviceLineNumber: string;
  status: 'Active' | 'Inactive';
  owner: { uuid: string; name: string; company: string | null } | null;
  lastSyncedAt: string | null;
  dataCap: DataCap | null;
  /** null when no usage is stored for the requested month. */
  currentBillingCycle: {
    startDate: string;
    endDate: string;
    priorityData: UsageAmount;
    deprioritizedData: { used: number; unit: string };
    totalUsed: number;
    totalUnit: string;
  } | null;
  plan: string | null;
  location: string | null;
  terminalType: string | null;
  dateRange: { start: string; end: string };
  rawUsageRecords: DailyUsageRecord[];
}

/** `GET /api/v1/terminals/health` data: the summary cards, computed over the whole inventory. */
export interface FleetHealth {
  total: number;
  priority: number;
  standard: number;
  active: number;
  warning: number;
  maintenance: number;
  inactive: number;
  assigned: number;
  unassigned: number;
  /** Mean signal quality (percent, whole) of active terminals that report it; null when none. */
  averageSignalQuality: number | null;
  /** Share (percent, whole) of active terminals online at the last telemetry reading; null when none. */
  networkUptime: number | null;
  /** GB used in the current billing cycles (priority + standard); null when no usage is stored. */
  monthlyUsageGB: number | null;
  /** Share (percent, whole) of the terminals that are on priority lines; null when there are none. */
  priorityShare: number | null;
  sync: SyncStats;
  lastSync: SyncJob | null;
}

/** `GET /api/v1/terminals/sync/stats` data. */
export interface SyncStats {
  synced: number;
  pending: number;
  error: number;
}

export const SYNC_JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type SyncJobStatus = (typeof SYNC_JOB_STATUSES)[number];
export const SYNC_JOB_KINDS = ['inventory', 'usage'] as const;
export type SyncJobKind = (typeof SYNC_JOB_KINDS)[number];
export type SyncTrigger = 'manual' | 'schedule' | 'startup';

export interface SyncCounts {
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  failed: number;
}

/** A sync run (`POST /sync`, `GET /sync/job/{id}`, `GET /sync/queue`). */
export interface SyncJob {
  id: string;
  kind: SyncJobKind;
  trigger: SyncTrigger;
  status: SyncJobStatus;
  /** What it is doing now, e.g. "Reading user terminals (page 3)". */
  phase: string | null;
  /** 0–100 when known. */
  progress: number | null;
  counts: SyncCounts;
  providerCalls: number;
  /** Why it failed, or warnings of a run that finished (e.g. an incomplete listing). */
  message: string | null;
  requestedBy: string | null;
  queuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  heartbeatAt: string | null;
  /** The provider account the run syncs; null when the answer did not say (an older server). */
  accountId: number | null;
  /** Null when the answer did not name it (an older server). */
  accountName: string | null;
}

/** `GET /api/v1/terminals/sync/queue` data. */
export interface SyncQueue {
  /** The queued or running inventory sync, if any. */
  active: SyncJob | null;
  /** Most recent runs first (history). */
  recent: SyncJob[];
}

// ---- Usage arithmetic (spec 4 "Usage bar colour", 9) --------------------------------------

export const USAGE_THRESHOLDS = { warning: 75, danger: 90, exceeded: 100 } as const;
export type UsageLevel = 'normal' | 'warning' | 'danger' | 'exceeded';

/** Over 100 red (exceeded); over 90 reddish; over 75 yellow; otherwise green. */
export function usageLevel(percentage: number): UsageLevel {
  if (percentage > USAGE_THRESHOLDS.exceeded) return 'exceeded';
  if (percentage > USAGE_THRESHOLDS.danger) return 'danger';
  if (percentage > USAGE_THRESHOLDS.warning) return 'warning';
  return 'normal';
}

export const isOverLimit = (percentage: number) => percentage > 100;
export const isNearLimit = (percentage: number) => percentage >= 90 && percentage <= 100;
/** The progress bar never draws past 100 %. */
export const barPercent = (percentage: number) => (Number.isFinite(percentage) ? Math.max(0, Math.min(100, percentage)) : 0);

export function usagePercentage(used: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.round((used / total) * 100);
}

/** Overage (positive) or remaining (positive) of a priority allowance; no allowance leaves nothing remaining. */
export function usageBalance(used: number, total: number): { exceeded: boolean; amount: number } {
  if (!(total > 0)) return { exceeded: false, amount: 0 };
  return { exceeded: used > total, amount: round1(Math.abs(total - used)) };
}

export const BYTES_PER_GB = 1_048_576;
export const bytesToGB = (bytes: number) => bytes / BYTES_PER_GB;
export const round1 = (value: number) => Math.round(value * 10) / 10;

/** Terminal pages show TB from 1024 GB, one decimal (spec 9). */
export function formatTerminalData(gb: number, unit = 'GB'): string {
  // Compared as shown: 1023.96 GB would otherwise read "1024.0 GB".
  if (unit === 'GB' && round1(gb) >= 1024) return `${(gb / 1024).toFixed(1)} TB`;
  return `${gb.toFixed(1)} ${unit}`;
}

// ---- Month selector (spec 9: 12 months, newest first) --------------------------------------

export const MONTH_NAMES = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
] as const;

export interface MonthOption {
  /** `2025-3` for March 2025. */
  value: string;
  label: string;
  year: number;
  /** 1–12. */
  month: number;
}

/** The last 12 months, newest (the current one, UTC) first. */
export function lastTwelveMonths(now: Date): MonthOption[] {
  const options: MonthOption[] = [];
  for (let i = 0; i < 12; i++) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    const year = d.getUTCFullYear();
    const month = d.getUTCMonth() + 1;
    options.push({ value: `${year}-${month}`, label: `${MONTH_NAMES[month - 1]} ${year}`, year, month });
  }
  return options;
}

export function parseMonthValue(value: string): { year: number; month: number } | null {
  const match = /^(\d{4})-(\d{1,2})$/.exec(value);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  return month >= 1 && month <= 12 ? { year, month } : null;
}

/** First and last day (UTC, YYYY-MM-DD) of a month. */
export function monthRange(year: number, month: number): { start: string; end: string } {
  const start = new Date(Date.UTC(year, month - 1, 1));
  const end = new Date(Date.UTC(year, month, 0));
  return { start: start.toISOString().slice(0, 10), end: end.toISOString().slice(0, 10) };
}

// ---- Owner cell and search -----------------------------------------------------------------

/** Customer name over its id; "Customer" with the id when only the id is known; else "Unassigned". */
export function ownerLabel(t: Pick<TerminalListItem, 'assignedTo' | 'assignedToCustomer'>): { name: string; id: string | null } {
  if (t.assignedToCustomer) return { name: t.assignedToCustomer, id: t.assignedTo ?? null };
  if (t.assignedTo) return { name: 'Customer', id: t.assignedTo };
  return { name: 'Unassigned', id: null };
}

/** Spec 5: case-insensitive substring over the six fields (the client-side rule; the server does the same in SQL). */
export function matchesTerminalSearch(t: TerminalListItem, term: string): boolean {
  const needle = term.trim().toLowerCase();
  if (needle === '') return true;
  return [t.userTerminalId, t.kitSerialNumber, t.dishSerialNumber, t.serviceLineNumber, t.assignedToCustomer ?? '', t.assignedTo ?? '']
    .some((field) => field.toLowerCase().includes(needle));
}

// ---- Texts (spec sections 2 and 8) ---------------------------------------------------------

export const TERMINAL_MESSAGES = {
  title: 'Terminal Management',
  syncButton: 'Sync from the provider',
  syncing: 'Syncing...',
  syncRunningTitle: 'Background Sync Running',
  syncStarted: 'Terminal sync has been started in the background. Data will be updated automatically when complete.',
  syncAlreadyRunning: 'A sync job is already running in the background. Please wait for it to complete.',
  syncFailed: (message: string) => `Failed to start sync: ${message}`,
  alreadyRunningMarker: 'already running',
  searchPlaceholder: 'Search terminals by ID, kit serial, dish serial, or service line',
  listTitle: 'Terminals List',
  loading: 'Loading terminals from local database...',
  loadError: 'Error loading terminals',
  fetchFailed: (message: string) => `Failed to fetch terminals: ${message}`,
  unknownError: 'Unknown error occurred',
  caption: (shown: number, total: number) => `Showing ${shown} of ${total} terminals from local database`,
  detailTitle: 'Terminal Details',
  basicInfoWarning: 'Showing basic terminal information',
  detailFailed: 'Failed to load terminal details',
  terminalNotFound: 'Terminal not found',
  detailFetchFailed: 'Failed to fetch terminal details',
  noOwnerTitle: 'No Owner Information',
  noOwnerText: 'This terminal is not assigned to a customer. Assign it to view owner information.',
  noUsageTitle: 'No Usage Data Available',
  noUsageAssigned: 'No usage has been reported for this terminal in the selected month.',
  noUsageUnassigned: 'This terminal is not assigned to a customer, and no usage has been reported for it in the selected month.',
  activeStatusText: 'Terminal is active and operational',
  inactiveStatusText: 'Terminal is inactive',
  refreshData: 'Refresh Data',
  reportIssue: 'Report Issue',
} as const;
