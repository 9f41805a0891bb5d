// Bulk actions: the preview of a pasted or uploaded CSV, starting the run, the latest
// runs, one run's progress, a page of its per-row results and the results as a CSV file. The wire
// is src/domain/bulk.ts; rows that cannot be read are skipped, an answer whose shape cannot be read
// at all is a failure (mapResult's null), and refusals come back as ok:false with the server's words.
import {
  BULK_OPERATION_STATUSES,
  BULK_ROW_STATUSES,
  BULK_ROWS_PAGE_SIZE,
  BULK_KINDS,
  type BulkKind,
  type BulkOperationWire,
  type BulkPreviewRow,
  type BulkPreviewWire,
  type BulkResultRow,
  type BulkRowInput,
  type BulkRowsPage,
  type BulkRowStatus,
} from '../domain/bulk';
import { mapResult, type ApiClient, type ApiResult, type Download } from './client';
import { downloadCsv } from './csv';
import { int, isRecord, present, str, text, withSignal } from './normalise';
import { listOf, oneOf } from './terminals';
import { accountRefsOf } from './account-refs';

export interface BulkBody {
  kind: BulkKind;
  csv: string;
}

export interface BulkRowsQuery {
  page?: number | undefined;
  limit?: number | undefined;
  status?: BulkRowStatus | undefined;
}

const whole = (value: unknown) => Math.max(0, int(value, 0));
const INPUT_FIELDS = ['customer', 'serviceLine', 'reason', 'days', 'plan'] as const;

/** The row's fields as the file gave them; anything else is dropped. */
export function normaliseRowInput(raw: unknown): BulkRowInput {
  if (!isRecord(raw)) return {};
  const input: BulkRowInput = {};
  for (const field of INPUT_FIELDS) {
    const value = raw[field];
    if (typeof value === 'string') input[field] = value;
    else if (typeof value === 'number' && Number.isFinite(value)) input[field] = String(value);
  }
  return input;
}

function normalisePreviewRow(raw: unknown): BulkPreviewRow | null {
  if (!isRecord(raw)) return null;
  const line = int(raw.line, 0);
  if (line < 1) return null;
  return { line, input: normaliseRowInput(raw.input), action: text(raw.action), problem: text(raw.problem) };
}

export function normaliseBulkPreview(data: unknown): BulkPreviewWire | null {
  if (!isRecord(data) || !Array.isArray(data.rows)) return null;
  const kind = oneOf(BULK_KINDS, data.kind);
  if (!kind) return null;
  const rows = data.rows.map(normalisePreviewRow).filter(present);
  return {
    kind,
    rows,
    ready: int(data.ready, rows.filter((row) => row.problem === null).length),
    problems: int(data.problems, rows.filter((row) => row.problem !== null).length),
  };
}

export function normaliseBulkOperation(raw: unknown): BulkOperationWire | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  const kind = oneOf(BULK_KINDS, raw.kind);
  const status = oneOf(BULK_OPERATION_STATUSES, raw.status);
  const createdAt = text(raw.createdAt);
  if (!id || !kind || !status || !createdAt) return null;
  return {
    id,
    kind,
    status,
    total: whole(raw.total),
    done: whole(raw.done),
    succeeded: whole(raw.succeeded),
    failed: whole(raw.failed),
    skipped: whole(raw.skipped),
    createdAt,
    finishedAt: text(raw.finishedAt),
    createdBy: str(raw.createdBy),
    // The list of runs names the accounts of each run's lines; one run's progress does not.
    ...(Array.isArray(raw.accounts) ? { accounts: accountRefsOf(raw.accounts) } : {}),
  };
}

/** `POST /bulk` answers `{ operation }`. */
const normaliseStarted = (data: unknown): BulkOperationWire | null => (isRecord(data) ? normaliseBulkOperation(data.operation) : null);

export const normaliseBulkOperations = (data: unknown): BulkOperationWire[] | null => (Array.isArray(data) ? data.map(normaliseBulkOperation).filter(present) : null);

function normaliseResultRow(raw: unknown): BulkResultRow | null {
  if (!isRecord(raw)) return null;
  const line = int(raw.line, 0);
  const status = oneOf(BULK_ROW_STATUSES, raw.status);
  if (line < 1 || !status) return null;
  return { line, input: normaliseRowInput(raw.input), status, message: text(raw.message) };
}

export function normaliseBulkRowsPage(data: unknown, query: BulkRowsQuery = {}): BulkRowsPage | null {
  if (!isRecord(data) || !Array.isArray(data.rows)) return null;
  const rows = listOf(data.rows).map(normaliseResultRow).filter(present);
  return {
    rows,
    total: Math.max(0, int(data.total, rows.length)),
    page: Math.max(1, int(data.page, query.page ?? 1)),
    limit: Math.max(1, int(data.limit, query.limit ?? BULK_ROWS_PAGE_SIZE)),
  };
}

/** The rows query as parameters; the status only when one is chosen. */
export function bulkRowsParams(query: BulkRowsQuery): Record<string, string | number> {
  const out: Record<string, string | number> = { page: query.page ?? 1, limit: query.limit ?? BULK_ROWS_PAGE_SIZE };
  if (query.status) out.status = query.status;
  return out;
}

const operationPath = (id: string) => `/bulk/${encodeURIComponent(id)}`;

/** The file name when the server gives none: `bulk-<id>-failed.csv`. */
export const bulkResultsFileName = (id: string, status?: BulkRowStatus) => `bulk-${id}${status ? `-${status}` : ''}.csv`;

export function createBulkApi(client: ApiClient) {
  return {
    preview: async (body: BulkBody, signal?: AbortSignal): Promise<ApiResult<BulkPreviewWire>> =>
      mapResult(await client.request<unknown>('/bulk/preview', { method: 'POST', body, ...withSignal(signal) }), normaliseBulkPreview),
    start: async (body: BulkBody, signal?: AbortSignal): Promise<ApiResult<BulkOperationWire>> =>
      mapResult(await client.request<unknown>('/bulk', { method: 'POST', body, ...withSignal(signal) }), normaliseStarted),
    list: async (signal?: AbortSignal): Promise<ApiResult<BulkOperationWire[]>> =>
      mapResult(await client.request<unknown>('/bulk', withSignal(signal)), normaliseBulkOperations),
    get: async (id: string, signal?: AbortSignal): Promise<ApiResult<BulkOperationWire>> =>
      mapResult(await client.request<unknown>(operationPath(id), withSignal(signal)), normaliseBulkOperation),
    rows: async (id: string, query: BulkRowsQuery = {}, signal?: AbortSignal): Promise<ApiResult<BulkRowsPage>> =>
      mapResult(await client.request<unknown>(`${operationPath(id)}/rows`, { query: bulkRowsParams(query), ...withSignal(signal) }), (data) => normaliseBulkRowsPage(data, query)),
    exportCsv: (id: string, status?: BulkRowStatus, signal?: AbortSignal): Promise<ApiResult<Download>> =>
      downloadCsv(client, `${operationPath(id)}/rows/export.csv`, status ? { status } : {}, bulkResultsFileName(id, status), signal),
  };
}

export type BulkApi = ReturnType<typeof createBulkApi>;
