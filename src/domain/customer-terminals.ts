// A customer's terminals: assignment by service line number, the assigned list, and data usage
// by month (spec sections 2 "Customer terminal usage" and "Assign Terminals dialog", 3, 4
// "Assign dialog" and "Usage bar colour", 5 "Assign terminals", 7 "Terminals", 8 "Customers", 9).
// The wire shapes both sides speak, the client rules of the assign input, and the arithmetic and
// texts of the usage page. Shared by the server (answers, validation) and the client.
import type { Pagination } from './customers';
import { MONTH_NAMES, monthRange, round1, SERVICE_LINE_PATTERN, usageLevel, type DataCap, type UsageAmount, type UsageLevel } from './terminals';

// ---- Limits --------------------------------------------------------------------------------

/** At most this many service lines in one assign request (the server refuses more). */
export const ASSIGN_MAX_LINES = 500;
/** Longest entry the server will echo back in a failure (longer ones are malformed anyway). */
export const ASSIGN_MAX_ENTRY_LENGTH = 64;
/** `GET /usage/service-line/{sl}`: daily records answered when `limit` is not given, and at most. */
export const USAGE_RECORDS_DEFAULT_LIMIT = 100;
export const USAGE_RECORDS_MAX_LIMIT = 1000;
/** Longest range of days a usage query may ask for (the daily chart, the service-line history). */
export const USAGE_MAX_RANGE_DAYS = 400;

// ---- Usage days (`YYYY-MM-DD`, UTC calendar days, as the usage queries send them) ----------

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/** A real calendar day written `YYYY-MM-DD` (2026-02-30 is not one). */
export function isUsageDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const n = dayNumber(value);
  return Number.isInteger(n) && new Date(n * DAY_MS).toISOString().slice(0, 10) === value;
}

/** Days from `start` to `end`, both counted (1 for a single day; 0 or less when end is before start). */
export const usageDaySpan = (start: string, end: string) => dayNumber(end) - dayNumber(start) + 1;

/** Every day from `start` to `end`, both included, oldest first. */
export function usageDays(start: string, end: string): string[] {
  const first = dayNumber(start);
  return Array.from({ length: Math.max(0, usageDaySpan(start, end)) }, (_, i) => new Date((first + i) * DAY_MS).toISOString().slice(0, 10));
}

// ---- Assign input (spec 5 "Assign terminals") ----------------------------------------------

/** Each entry trimmed; empties dropped; repeats kept once (first wins). */
export function distinctServiceLines(entries: readonly string[]): string[] {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const entry of entries) {
    const line = entry.trim();
    if (line === '' || seen.has(line)) continue;
    seen.add(line);
    lines.push(line);
  }
  return lines;
}

/** Split on commas, spaces or new lines; trimmed; empties dropped; repeats kept once (first wins). */
export function parseServiceLineInput(text: string): string[] {
  return distinctServiceLines(text.split(/[\s,]+/));
}

export type AssignInputCheck = { ok: true; lines: string[] } | { ok: false; message: string };

/**
 * The list as the server receives it (`serviceLineNumbers`): none given, none left after
 * trimming, or more than ASSIGN_MAX_LINES distinct ones is refused as a whole.
 */
export function checkServiceLineList(entries: readonly string[]): AssignInputCheck {
  if (entries.length === 0) return { ok: false, message: ASSIGN_MESSAGES.empty };
  const lines = distinctServiceLines(entries);
  if (lines.length === 0) return { ok: false, message: ASSIGN_MESSAGES.noneValid };
  if (lines.length > ASSIGN_MAX_LINES) return { ok: false, message: ASSIGN_MESSAGES.tooMany(lines.length) };
  return { ok: true, lines };
}

/** The client's checks before anything is sent; the server reports per-line problems after. */
export function validateAssignInput(text: string): AssignInputCheck {
  if (text.trim() === '') return { ok: false, message: ASSIGN_MESSAGES.empty };
  return checkServiceLineList(text.split(/[\s,]+/));
}

/** A well-formed service line number (letters, digits and dashes), as the server checks each entry. */
export const isServiceLineNumber = (value: string) => SERVICE_LINE_PATTERN.test(value);

// ---- Assign answer (spec 3 "Assign-terminals payload") ------------------------------------

/** `POST /terminals/customers/assign-terminals` body. */
export interface AssignTerminalsPayload {
  customerUuid: string;
  serviceLineNumbers: string[];
}

/** Why one line was not assigned; `reason` is the sentence shown next to it. */
export const ASSIGN_FAILURE_CODES = [
  'malformed',
  'not_found',
  'removed',
  'no_terminal',
  'already_assigned',
  'assigned_to_other',
  'customer_blocked',
  'customer_expired',
  'customer_deleted',
] as const;
export type AssignFailureCode = (typeof ASSIGN_FAILURE_CODES)[number];

export interface AssignFailure {
  serviceLineNumber: string;
  reason: string;
  code: AssignFailureCode;
}

/** `POST /terminals/customers/assign-terminals` data. `total` counts the distinct lines asked for. */
export interface AssignTerminalsResult {
  /** Service line numbers now assigned to the customer by this request. */
  assigned: string[];
  failed: AssignFailure[];
  total: number;
}

export const assignSuccessCount = (r: Pick<AssignTerminalsResult, 'assigned'>) => r.assigned.length;
export const assignFailedCount = (r: Pick<AssignTerminalsResult, 'failed'>) => r.failed.length;

/** The per-line reasons the server gives (one sentence each, shown beside the line). */
export const ASSIGN_REASONS = {
  malformed: 'Not a valid service line number (letters, digits and dashes only)',
  notFound: 'Not found in the terminal inventory',
  removed: 'No longer listed by the provider',
  noTerminal: 'No terminal is on this service line',
  alreadyAssigned: 'Already assigned to this customer',
  assignedToOther: (customer: string) => `Already assigned to another customer (${customer})`,
  customerBlocked: (reason: string | null) => `The customer is blocked${reason ? ` (${reason})` : ''}`,
  customerExpired: (day: string) => `The customer's account expired on ${day}`,
  customerDeleted: 'The customer has been deleted',
} as const;

/** `POST /terminals/customers/unassign-terminal` body and data. */
export interface UnassignTerminalPayload {
  customerUuid: string;
  serviceLineNumber: string;
}
export interface UnassignTerminalResult {
  serviceLineNumber: string;
  /** The user terminal ids that were on the line and are now unassigned. */
  unassigned: string[];
}

// ---- Assigned terminals (spec 3 "Assigned terminal") ---------------------------------------

/** `GET /terminals/customers/{uuid}/terminals` data is a list of these. */
export interface AssignedTerminal {
  /** The user terminal id. */
  deviceId: string;
  /** The service line number. */
  serviceLine: string;
  status: 'Active' | 'Inactive';
  /** The customer's uuid. */
  assignedTo: string;
  kitSerialNumber: string;
  assignedAt: string;
  /**
   * The provider account the terminal lives under (a customer may hold lines of several); null
   * when the server did not say (an older one).
   */
  accountId: number | null;
  accountName: string | null;
}

/**
 * The Assign Terminals dialog shows how many terminals the customer holds and the first of them
 * (`GET /terminals/customers/{uuid}/terminals/page`): a customer may hold thousands, which the
 * usage table behind the dialog lists, searches and pages.
 */
export const ASSIGNED_PREVIEW_SIZE = 50;

export interface AssignedTerminalsPage {
  /** By service line, then terminal. */
  records: AssignedTerminal[];
  /** Of every live terminal of the customer. */
  pagination: Pagination;
}

// ---- Usage records (spec 3 "Terminal usage record (per customer)") -------------------------

export const CUSTOMER_TERMINAL_STATUSES = ['Active', 'Suspended', 'Pending', 'Maintenance'] as const;
/**
 * Active: on an active line; Suspended: the line is not active; Maintenance: a hardware alert is
 * on; Pending: the terminal's record is not yet synced (a sync is applying it, or it failed to).
 */
export type CustomerTerminalStatus = (typeof CUSTOMER_TERMINAL_STATUSES)[number];

export const CUSTOMER_USAGE_STATUS_OPTIONS = [
  { value: 'all', label: 'All Status' },
  { value: 'Active', label: 'Active' },
  { value: 'Suspended', label: 'Suspended' },
  { value: 'Pending', label: 'Pending' },
  { value: 'Maintenance', label: 'Maintenance' },
] as const;
export type CustomerUsageStatusFilter = (typeof CUSTOMER_USAGE_STATUS_OPTIONS)[number]['value'];

/** One terminal of the customer with its billing cycle for the asked month. */
export interface TerminalUsageRecord {
  terminalId: string;
  serviceLineNumber: string;
  location: string | null;
  terminalType: string | null;
  plan: string | null;
  status: CustomerTerminalStatus;
  dataCap: DataCap | null;
  /** null when no usage is stored for the asked period. */
  currentBillingCycle: {
    startDate: string;
    endDate: string;
    /** Priority + standard GB in the cycle. */
    totalUsed: number;
    priorityData: UsageAmount;
    /** Standard (deprioritised) GB in the cycle. */
    standardUsed: number;
  } | null;
  /** The provider account the terminal lives under; null when the server did not say. */
  accountId: number | null;
  accountName: string | null;
}

/** `GET /terminals/customers/{uuid}/usage/daily` data: one entry per day of the range, zeros included. */
export interface CustomerDailyUsage {
  date: string;
  priorityGB: number;
  standardGB: number;
}

/** `GET /usage/service-line/{sl}` data: a line's stored cycles and its daily records, newest first. */
export interface ServiceLineUsageHistory {
  serviceLineNumber: string;
  terminalId: string | null;
  owner: { uuid: string; name: string; company: string | null } | null;
  cycles: {
    startDate: string;
    endDate: string;
    priorityGB: number;
    standardGB: number;
    totalGB: number;
    usageLimitGB: number | null;
    overageGB: number | null;
  }[];
  records: { date: string; priorityGB: number; standardGB: number; optInPriorityGB: number; nonBillableGB: number }[];
  totals: { priorityGB: number; standardGB: number; totalGB: number; days: number };
}

/** Query of the month variant (spec 7): first and last UTC day of the month. */
export function monthUsageQuery(year: number, month: number): { billing_cycle_start: string; billing_cycle_end: string } {
  const { start, end } = monthRange(year, month);
  return { billing_cycle_start: start, billing_cycle_end: end };
}

/** "March 2025" for `2025-3`. */
export const monthLabel = (year: number, month: number) => `${MONTH_NAMES[month - 1]} ${year}`;

// ---- Usage arithmetic and display (spec 4 "Usage bar colour", 9) --------------------------

/** Overage GB of a record (priority used beyond its total), 0 when within it or unknown. */
export function recordOverage(r: TerminalUsageRecord): number {
  const p = r.currentBillingCycle?.priorityData;
  if (!p || !(p.total > 0)) return 0;
  return Math.max(0, p.used - p.total);
}

/** Remaining priority GB, 0 when exceeded or unknown. */
export function recordRemaining(r: TerminalUsageRecord): number {
  const p = r.currentBillingCycle?.priorityData;
  if (!p || !(p.total > 0)) return 0;
  return Math.max(0, p.total - p.used);
}

export const recordPercentage = (r: TerminalUsageRecord) => r.currentBillingCycle?.priorityData.percentage ?? 0;

/** Bar colours of spec 4: over 100 red, over 90 reddish, over 75 yellow, otherwise green. */
export const USAGE_BAR_COLOURS: Record<UsageLevel, string> = {
  exceeded: '#dc2626',
  danger: '#f87171',
  warning: '#eab308',
  normal: '#16a34a',
};
export const usageBarColour = (percentage: number) => USAGE_BAR_COLOURS[usageLevel(percentage)];

/** The customer usage table shows TB from 1000 GB (spec 9; a 1 TB plan is 1,000 GB), one decimal. */
export function formatCustomerUsage(gb: number): string {
  // Compared as shown: 999.96 GB would otherwise read "1000.0 GB".
  if (round1(gb) >= 1000) return `${(gb / 1000).toFixed(1)} TB`;
  return `${gb.toFixed(1)} GB`;
}

export interface CustomerUsageSummary {
  totalTerminals: number;
  activeTerminals: number;
  /** GB, priority + standard over the records' cycles. */
  totalDataUsed: number;
  /** Records whose priority use is above 100 %. */
  overLimit: number;
}

export function summariseUsage(records: readonly TerminalUsageRecord[]): CustomerUsageSummary {
  let activeTerminals = 0;
  let totalDataUsed = 0;
  let overLimit = 0;
  for (const r of records) {
    if (r.status === 'Active') activeTerminals++;
    totalDataUsed += r.currentBillingCycle?.totalUsed ?? 0;
    if (recordPercentage(r) > 100) overLimit++;
  }
  return { totalTerminals: records.length, activeTerminals, totalDataUsed: Math.round(totalDataUsed * 100) / 100, overLimit };
}

// ---- Table: search, filter, sort -----------------------------------------------------------

export const CUSTOMER_USAGE_SORT_FIELDS = ['serviceLine', 'usage', 'remaining', 'overage'] as const;
export type CustomerUsageSortField = (typeof CUSTOMER_USAGE_SORT_FIELDS)[number];
export interface CustomerUsageSort {
  field: CustomerUsageSortField;
  /** 1 ascending, -1 descending. */
  order: 1 | -1;
}

/** Case-insensitive substring over service line, terminal id, location, plan and type. */
export function matchesUsageSearch(r: TerminalUsageRecord, term: string): boolean {
  const needle = term.trim().toLowerCase();
  if (needle === '') return true;
  return [r.serviceLineNumber, r.terminalId, r.location ?? '', r.plan ?? '', r.terminalType ?? ''].some((f) => f.toLowerCase().includes(needle));
}

const sortValue: Record<CustomerUsageSortField, (r: TerminalUsageRecord) => number | string> = {
  serviceLine: (r) => r.serviceLineNumber,
  usage: (r) => r.currentBillingCycle?.priorityData.used ?? -1,
  remaining: recordRemaining,
  overage: recordOverage,
};

/** The rows the table shows: searched, filtered by status, sorted (stable, service line breaks ties). */
export function visibleUsageRecords(
  records: readonly TerminalUsageRecord[],
  view: { search: string; status: CustomerUsageStatusFilter; sort: CustomerUsageSort | null },
): TerminalUsageRecord[] {
  const rows = records.filter((r) => (view.status === 'all' || r.status === view.status) && matchesUsageSearch(r, view.search));
  const sort = view.sort;
  if (!sort) return rows;
  const value = sortValue[sort.field];
  return rows.sort((a, b) => {
    const x = value(a);
    const y = value(b);
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return c !== 0 ? c * sort.order : a.serviceLineNumber.localeCompare(b.serviceLineNumber);
  });
}

// ---- The table a page at a time (`GET /terminals/customers/{uuid}/usage/page`) -------------
// A customer holding thousands of lines gets the table's rows from the server, searched, filtered,
// sorted and paged there by the rules above (the same fields, statuses and sort values), with the
// summary cards counted over all of the customer's terminals.

export const CUSTOMER_USAGE_PAGE_SIZE = 25;
export const CUSTOMER_USAGE_MAX_PAGE_SIZE = 100;
export const CUSTOMER_USAGE_SEARCH_MAX_LENGTH = 100;

export interface CustomerUsagePage {
  records: TerminalUsageRecord[];
  /** Of the rows matching the search and status. */
  pagination: Pagination;
  /** Over every live terminal of the customer, whatever the search. */
  summary: CustomerUsageSummary;
}

export interface CustomerUsagePageQuery {
  year: number;
  /** 1–12. */
  month: number;
  page: number;
  limit: number;
  search: string;
  status: CustomerUsageStatusFilter;
  sort: CustomerUsageSort | null;
  /** Only the customer's terminals under this provider account; every account's when missing. */
  accountId?: number;
}

/** The query string of the page request; the defaults are left out. */
export function customerUsagePageSearchParams(query: CustomerUsagePageQuery): Record<string, string | number> {
  return {
    ...monthUsageQuery(query.year, query.month),
    page: query.page,
    limit: query.limit,
    ...(query.search.trim() ? { search: query.search.trim() } : {}),
    ...(query.status !== 'all' ? { status: query.status } : {}),
    ...(query.sort ? { sort: query.sort.field, order: query.sort.order === 1 ? 'asc' : 'desc' } : {}),
    ...(query.accountId !== undefined ? { account_id: query.accountId } : {}),
  };
}

// ---- Texts (spec sections 2, 5 and 8) ------------------------------------------------------

export const ASSIGN_MESSAGES = {
  title: 'Assign Terminals',
  button: 'Assign Terminals',
  busy: 'Assigning...',
  close: 'Close',
  inputLabel: 'Service Line Numbers',
  placeholder: 'AST-511274-31364-54, AST-622190-48211-07',
  instructions:
    'Enter one or more service line numbers, separated by commas, spaces or new lines. Each line is checked against the terminal inventory; lines that cannot be assigned are listed with the reason.',
  empty: 'Please enter at least one service line number',
  noneValid: 'Please enter valid service line numbers',
  tooMany: (n: number) => `At most ${ASSIGN_MAX_LINES} service line numbers can be assigned at once (${n} entered)`,
  failed: (message: string) => `Failed to assign terminals: ${message}`,
  failedGeneric: 'Failed to assign terminals. Please try again.',
  unexpected: 'An unexpected error occurred. Please try again.',
  successTitle: (n: number) => `${n} terminal${n === 1 ? '' : 's'} assigned`,
  failureTitle: (n: number) => `${n} service line${n === 1 ? '' : 's'} not assigned`,
  assignedCount: (n: number) => `${n.toLocaleString('en-US')} terminal${n === 1 ? '' : 's'} currently assigned`,
  /** Under the first ASSIGNED_PREVIEW_SIZE of them. */
  assignedMore: (n: number) => `and ${n.toLocaleString('en-US')} more, listed in the usage table`,
} as const;

export const CUSTOMER_USAGE_MESSAGES = {
  title: 'Customer Terminal Usage',
  uuidRequired: 'Customer UUID is required to view terminal usage.',
  loadErrorTitle: 'Error Loading Customer',
  loadFailed: 'Failed to load customer information',
  monthPlaceholder: 'Select month',
  searchPlaceholder: 'Search terminals...',
  noTerminals: 'No terminals assigned to this customer',
  noMatches: 'No terminals match the current filters',
  refresh: 'Refresh',
  chartTitle: 'Daily Data Usage',
  unassign: 'Unassign',
  unassignConfirm: (serviceLine: string, customer: string) =>
    `Unassign service line ${serviceLine} from ${customer}? Its terminal returns to the unassigned inventory.`,
  unassigned: (serviceLine: string) => `Service line ${serviceLine} unassigned`,
  unassignFailed: (message: string) => `Failed to unassign terminal: ${message}`,
  notAssigned: (serviceLine: string) => `Service line ${serviceLine} is not assigned to this customer`,
} as const;
