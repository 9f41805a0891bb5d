// Bulk actions: one action applied to many rows of a pasted or uploaded CSV — assign
// service lines to customers, block, unblock or extend customers, change plans. The file is read
// here, on both sides: the page shows the problems as the operator types, the server reads the same
// text again and never trusts the page's reading. Each row then runs through the single-row action
// the portal already has, so a bulk row succeeds or fails exactly as the same action by hand would.
import { CUSTOMER_FIELD_LIMITS, MAX_EXPIRATION_DAYS, MIN_EXPIRATION_DAYS, DEFAULT_EXTENSION_DAYS, isEmailAddress } from './customers';
import { isServiceLineNumber } from './customer-terminals';
import type { Permission } from './permissions';
import { csvUnclosedQuote, readCsvRecords } from './csv';

// Bulk's readers know the CSV reader by this module; it lives in ./csv, shared with the bank files.
export { readCsvRecords };

export const BULK_KINDS = ['assign', 'block', 'unblock', 'extend', 'change-plan'] as const;
export type BulkKind = (typeof BULK_KINDS)[number];
export const isBulkKind = (value: unknown): value is BulkKind => typeof value === 'string' && (BULK_KINDS as readonly string[]).includes(value);

/**
 * What each action needs besides bulk:manage: the permission of the single-row action it runs, so
 * that a bulk action never does what its user could not do one row at a time.
 */
export const BULK_KIND_PERMISSION: Readonly<Record<BulkKind, Permission>> = {
  assign: 'terminals:manage',
  block: 'customers:manage',
  unblock: 'customers:manage',
  extend: 'customers:manage',
  'change-plan': 'subscriptions:manage',
};

export const BULK_KIND_LABELS: Record<BulkKind, string> = {
  assign: 'Assign service lines',
  block: 'Block customers',
  unblock: 'Unblock customers',
  extend: 'Extend customers',
  'change-plan': 'Change plans',
};

/** The most rows one file may hold, and the most characters: enough for a fleet, small enough to read in one request. */
export const BULK_MAX_ROWS = 5_000;
export const BULK_MAX_CHARS = 1_000_000;

export type BulkField = 'customer' | 'serviceLine' | 'reason' | 'days' | 'plan';

export interface BulkColumn {
  field: BulkField;
  /** The header a file names it by (also accepted: the aliases). */
  header: string;
  aliases: readonly string[];
  required: boolean;
  hint: string;
}

const CUSTOMER: BulkColumn = { field: 'customer', header: 'customer', aliases: ['email', 'customer_email', 'customer_uuid', 'uuid'], required: true, hint: "the customer's email or UUID" };
const SERVICE_LINE: BulkColumn = { field: 'serviceLine', header: 'service_line', aliases: ['service_line_number', 'servicelinenumber', 'line'], required: true, hint: 'a service line number, e.g. AST-1234-5678' };

/** Each kind's columns, in the order a file without a header row gives them. */
export const BULK_COLUMNS: Record<BulkKind, readonly BulkColumn[]> = {
  assign: [CUSTOMER, SERVICE_LINE],
  block: [CUSTOMER, { field: 'reason', header: 'reason', aliases: ['block_reason', 'blocked_reason'], required: true, hint: 'why the customer is blocked' }],
  unblock: [CUSTOMER],
  extend: [CUSTOMER, { field: 'days', header: 'days', aliases: ['extension_days'], required: false, hint: `days to add (${MIN_EXPIRATION_DAYS}–${MAX_EXPIRATION_DAYS}, ${DEFAULT_EXTENSION_DAYS} when empty)` }],
  'change-plan': [SERVICE_LINE, { field: 'plan', header: 'plan', aliases: ['product', 'product_reference_id', 'productreferenceid'], required: true, hint: "the plan's product reference id" }],
};

/** One row as the file gives it; `days` stays text until checked. */
export interface BulkRowInput {
  customer?: string;
  serviceLine?: string;
  reason?: string;
  days?: string;
  plan?: string;
}

export interface ParsedBulkRow {
  /** The row's line in the file (1 is the first line, the header when there is one). */
  line: number;
  input: BulkRowInput;
  /** Why the row cannot run, or null. */
  problem: string | null;
}

export const BULK_MESSAGES = {
  empty: 'Paste or upload a CSV with at least one row',
  tooLong: `The file is too large: at most ${BULK_MAX_CHARS.toLocaleString('en-US')} characters`,
  tooMany: (rows: number) => `The file has ${rows.toLocaleString('en-US')} rows; at most ${BULK_MAX_ROWS.toLocaleString('en-US')} run at once`,
  unclosedQuote: csvUnclosedQuote,
  missingColumn: (header: string) => `The header names no "${header}" column`,
  unknownColumn: (header: string) => `The header's "${header}" column is not one this action reads`,
  missing: (what: string) => `No ${what}`,
  customerInvalid: "The customer must be an email address or a customer's UUID",
  serviceLineInvalid: 'Not a service line number',
  reasonTooLong: `The reason is longer than ${CUSTOMER_FIELD_LIMITS.blockedReason} characters`,
  daysInvalid: `Days must be a whole number from ${MIN_EXPIRATION_DAYS} to ${MAX_EXPIRATION_DAYS}`,
  planInvalid: 'Not a plan reference',
  repeats: (line: number) => `Repeats line ${line}`,
  customerNotFound: 'No such customer',
  serviceLineNotFound: 'No such service line',
  planNotFound: 'No such plan',
  previewed: 'Preview ready',
  started: (rows: number) => `Bulk action started: ${rows.toLocaleString('en-US')} ${rows === 1 ? 'row' : 'rows'}`,
  nothingToRun: 'No row can run: fix the problems shown first',
  notFound: 'Bulk action not found',
  listed: 'Bulk actions retrieved successfully',
  loaded: 'Bulk action retrieved successfully',
  rowFailed: 'The action failed on this row',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);
const PLAN_REFERENCE = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

const headerKey = (value: string) => value.trim().toLowerCase().replace(/[\s-]+/g, '_');
const columnOf = (columns: readonly BulkColumn[], cell: string) => {
  const key = headerKey(cell);
  return columns.find((column) => column.header === key || column.aliases.includes(key) || column.aliases.includes(key.replace(/_/g, '')));
};

/** The problem of one row's fields for a kind, or null. */
export function bulkRowProblem(kind: BulkKind, input: BulkRowInput): string | null {
  for (const column of BULK_COLUMNS[kind]) {
    const value = input[column.field];
    if (column.required && !value) return BULK_MESSAGES.missing(column.header.replace('_', ' '));
  }
  if (input.customer !== undefined && input.customer !== '' && !(isEmailAddress(input.customer) || isUuid(input.customer))) return BULK_MESSAGES.customerInvalid;
  if (input.serviceLine && !isServiceLineNumber(input.serviceLine)) return BULK_MESSAGES.serviceLineInvalid;
  if (input.reason && input.reason.length > CUSTOMER_FIELD_LIMITS.blockedReason) return BULK_MESSAGES.reasonTooLong;
  if (input.days) {
    const days = Number(input.days);
    if (!/^\d+$/.test(input.days) || days < MIN_EXPIRATION_DAYS || days > MAX_EXPIRATION_DAYS) return BULK_MESSAGES.daysInvalid;
  }
  if (input.plan && !PLAN_REFERENCE.test(input.plan)) return BULK_MESSAGES.planInvalid;
  return null;
}

/** What makes two rows the same work: the same line for line actions, the same customer for customer actions. */
function rowKey(kind: BulkKind, input: BulkRowInput): string {
  if (kind === 'assign' || kind === 'change-plan') return `line:${(input.serviceLine ?? '').toUpperCase()}`;
  return `customer:${(input.customer ?? '').toLowerCase()}`;
}

/**
 * A kind's rows from the text: a header row naming the columns (any order, aliases accepted) or
 * none (then the columns come in the kind's order). Every data row comes back, with its problem
 * or null; only a file that cannot be read at all is refused whole.
 */
export function parseBulkCsv(kind: BulkKind, text: string): { ok: true; rows: ParsedBulkRow[] } | { ok: false; message: string } {
  if (text.length > BULK_MAX_CHARS) return { ok: false, message: BULK_MESSAGES.tooLong };
  const read = readCsvRecords(text);
  if (!read.ok) return read;
  const columns = BULK_COLUMNS[kind];
  let records = read.records;
  if (records.length === 0) return { ok: false, message: BULK_MESSAGES.empty };

  let order: (BulkColumn | null)[] = [...columns];
  const first = records[0]!.fields;
  const named = first.map((cell) => columnOf(columns, cell));
  // A first row naming any of the kind's columns is the header; otherwise it is data.
  if (named.some(Boolean)) {
    const unknown = first.find((cell, index) => cell.trim() !== '' && !named[index]);
    if (unknown !== undefined) return { ok: false, message: BULK_MESSAGES.unknownColumn(unknown.trim()) };
    const absent = columns.find((column) => column.required && !named.includes(column));
    if (absent) return { ok: false, message: BULK_MESSAGES.missingColumn(absent.header) };
    order = named.map((column) => column ?? null);
    records = records.slice(1);
  }
  if (records.length === 0) return { ok: false, message: BULK_MESSAGES.empty };
  if (records.length > BULK_MAX_ROWS) return { ok: false, message: BULK_MESSAGES.tooMany(records.length) };

  const seen = new Map<string, number>();
  const rows = records.map(({ line, fields }): ParsedBulkRow => {
    const input: BulkRowInput = {};
    order.forEach((column, index) => {
      const value = (fields[index] ?? '').trim();
      if (column && value !== '') input[column.field] = value;
    });
    let problem = bulkRowProblem(kind, input);
    if (!problem) {
      const key = rowKey(kind, input);
      const earlier = seen.get(key);
      if (earlier !== undefined) problem = BULK_MESSAGES.repeats(earlier);
      else seen.set(key, line);
    }
    return { line, input, problem };
  });
  return { ok: true, rows };
}

/** The days an extend row adds: its own, or the portal's default extension. */
export const bulkDays = (input: BulkRowInput) => (input.days ? Number(input.days) : DEFAULT_EXTENSION_DAYS);

/** What the preview says a row will do, from the names the server resolved. */
export function bulkActionText(kind: BulkKind, input: BulkRowInput, names: { customer?: string; plan?: string }): string {
  const customer = names.customer ?? input.customer ?? '';
  switch (kind) {
    case 'assign':
      return `Assign ${input.serviceLine} to ${customer}`;
    case 'block':
      return `Block ${customer}: ${input.reason}`;
    case 'unblock':
      return `Unblock ${customer}`;
    case 'extend':
      return `Extend ${customer} by ${bulkDays(input)} days`;
    case 'change-plan':
      return `Move ${input.serviceLine} to ${names.plan ?? input.plan}`;
  }
}

/** A preview row: what it will do, or why it cannot run. */
export interface BulkPreviewRow {
  line: number;
  input: BulkRowInput;
  action: string | null;
  problem: string | null;
}

export interface BulkPreviewWire {
  kind: BulkKind;
  rows: BulkPreviewRow[];
  /** Rows that will run, and rows that will be skipped for their problem. */
  ready: number;
  problems: number;
}

export const BULK_OPERATION_STATUSES = ['running', 'done'] as const;
export type BulkOperationStatus = (typeof BULK_OPERATION_STATUSES)[number];
export const BULK_ROW_STATUSES = ['pending', 'ok', 'failed', 'skipped'] as const;
export type BulkRowStatus = (typeof BULK_ROW_STATUSES)[number];

export const BULK_ROW_STATUS_LABELS: Record<BulkRowStatus, string> = { pending: 'Waiting', ok: 'Done', failed: 'Failed', skipped: 'Skipped' };

export interface BulkOperationWire {
  id: string;
  kind: BulkKind;
  status: BulkOperationStatus;
  total: number;
  /** Rows finished so far (ok + failed + skipped). */
  done: number;
  succeeded: number;
  failed: number;
  skipped: number;
  createdAt: string;
  finishedAt: string | null;
  createdBy: string | null;
  /**
   * The provider accounts whose lines the run's rows name, by name (the list of runs only; none
   * for the customer actions, which name no line).
   */
  accounts?: BulkAccountRef[];
}

export interface BulkAccountRef {
  id: number;
  name: string;
}

export interface BulkResultRow {
  line: number;
  input: BulkRowInput;
  status: BulkRowStatus;
  message: string | null;
}

export interface BulkRowsPage {
  rows: BulkResultRow[];
  total: number;
  page: number;
  limit: number;
}

export const BULK_ROWS_PAGE_SIZE = 50;
export const BULK_POLL_INTERVAL_MS = 1_000;

/** The share done, 0–100, whole. */
export const bulkProgress = (operation: Pick<BulkOperationWire, 'done' | 'total'>) => (operation.total === 0 ? 100 : Math.floor((operation.done / operation.total) * 100));
