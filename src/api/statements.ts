// Billing statements: the admins' list of every customer's statements with its totals
// and cycles, its CSV export (a file, fetched with the bearer token like any call), one statement,
// one customer's statements, the customer's own (/my) and the admin preview's, and the credit or
// charge an administrator adds against a statement. The wire is the shared contract of
// src/domain/billing.ts; money is whole minor units, so an amount that is not a whole number makes
// its statement unreadable rather than shown wrong. Refusals (400 with the fields at fault, 403 for
// a viewer, 404) come back as ok:false with the server's words.
import { STATEMENT_ITEM_KINDS, type AdjustmentBody, type AdjustmentWire, type PaymentStatus, type StatementItemWire, type StatementListWire, type StatementStatus, type StatementSummaryWire, type StatementWire } from '../domain/billing';
import { mapResult, type ApiClient, type ApiResult, type Download } from './client';
import { downloadCsv } from './csv';
import { normalisePagination } from './customers';
import { int, isRecord, present, str, text, withSignal } from './normalise';
import { listOf, oneOf } from './terminals';

export type StatementStatusFilter = StatementStatus | 'all';

export interface StatementsQuery {
  /** 'YYYY-MM'; none lets the server choose. */
  cycle?: string | undefined;
  status?: StatementStatusFilter | undefined;
  /** A customer's uuid. */
  customer?: string | undefined;
  search?: string | undefined;
  page?: number | undefined;
  limit?: number | undefined;
}

const STATUSES: readonly StatementStatus[] = ['draft', 'closed'];
const PAYMENT_STATUSES: readonly PaymentStatus[] = ['unpaid', 'part_paid', 'paid'];

/** Whole minor units, or null for anything else (a float, a string, out of the safe range). */
function minor(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
}

export function normaliseStatementSummary(raw: unknown): StatementSummaryWire | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  const customerId = text(raw.customerId);
  const cycle = text(raw.cycle);
  const currency = text(raw.currency);
  const status = oneOf(STATUSES, raw.status);
  const amounts = [minor(raw.subtotalMinor), minor(raw.discountMinor), minor(raw.adjustmentMinor), minor(raw.totalMinor)];
  if (!id || !customerId || !cycle || !currency || !status || amounts.some((a) => a === null)) return null;
  const [subtotalMinor, discountMinor, adjustmentMinor, totalMinor] = amounts as [number, number, number, number];
  return {
    id,
    number: text(raw.number),
    customerId,
    customerName: str(raw.customerName) ?? '',
    customerEmail: str(raw.customerEmail) ?? '',
    cycle,
    currency,
    status,
    serviceLines: Math.max(0, int(raw.serviceLines, 0)),
    subtotalMinor,
    discountMinor,
    adjustmentMinor,
    totalMinor,
    updatedAt: text(raw.updatedAt) ?? '',
    closedAt: text(raw.closedAt),
    dueOn: text(raw.dueOn),
    paidMinor: minor(raw.paidMinor) ?? 0,
    amountDueMinor: minor(raw.amountDueMinor) ?? (status === 'closed' ? 0 : totalMinor),
    paymentStatus: status === 'closed' ? (oneOf(PAYMENT_STATUSES, raw.paymentStatus) ?? null) : null,
  };
}

function normaliseItem(raw: unknown, index: number): StatementItemWire | null {
  if (!isRecord(raw)) return null;
  const kind = oneOf(STATEMENT_ITEM_KINDS, raw.kind);
  const amountMinor = minor(raw.amountMinor);
  if (!kind || amountMinor === null) return null;
  return {
    position: int(raw.position, index),
    kind,
    serviceLineNumber: text(raw.serviceLineNumber),
    productReferenceId: text(raw.productReferenceId),
    description: str(raw.description) ?? '',
    periodStart: text(raw.periodStart),
    periodEnd: text(raw.periodEnd),
    quantity: typeof raw.quantity === 'number' ? String(raw.quantity) : (str(raw.quantity) ?? ''),
    unitMinor: minor(raw.unitMinor),
    amountMinor,
    adjustmentId: text(raw.adjustmentId),
  };
}

export function normaliseStatement(raw: unknown): StatementWire | null {
  const summary = normaliseStatementSummary(raw);
  if (!summary || !isRecord(raw) || !Array.isArray(raw.items)) return null;
  const items = raw.items.map(normaliseItem);
  // A statement missing a line would not add up: unreadable as a whole.
  if (items.some((item) => item === null)) return null;
  return {
    ...summary,
    customerCompany: text(raw.customerCompany),
    customerAddress: text(raw.customerAddress),
    cycleStart: text(raw.cycleStart) ?? '',
    cycleEnd: text(raw.cycleEnd) ?? '',
    items: (items as StatementItemWire[]).sort((a, b) => a.position - b.position),
  };
}

export const normaliseStatementSummaries = (data: unknown): StatementSummaryWire[] | null =>
  Array.isArray(data) ? data.map(normaliseStatementSummary).filter(present) : null;

export function normaliseStatementList(data: unknown, query: StatementsQuery = {}): StatementListWire | null {
  if (!isRecord(data) || !Array.isArray(data.items)) return null;
  const items = data.items.map(normaliseStatementSummary).filter(present);
  const totals = listOf(data.totals)
    .map((raw) => {
      if (!isRecord(raw)) return null;
      const currency = text(raw.currency);
      const totalMinor = minor(raw.totalMinor);
      return currency && totalMinor !== null ? { currency, statements: Math.max(0, int(raw.statements, 0)), totalMinor } : null;
    })
    .filter(present);
  const cycles = listOf(data.cycles)
    .map((raw) => {
      if (!isRecord(raw)) return null;
      const cycle = text(raw.cycle);
      return cycle ? { cycle, status: raw.status === 'closed' ? ('closed' as const) : ('open' as const) } : null;
    })
    .filter(present);
  return { items, pagination: normalisePagination(data.pagination, items.length, { page: query.page, limit: query.limit }), totals, cycles };
}

export function normaliseAdjustment(raw: unknown): AdjustmentWire | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  const amountMinor = minor(raw.amountMinor);
  if (!id || amountMinor === null) return null;
  return {
    id,
    customerId: str(raw.customerId) ?? '',
    customerName: str(raw.customerName) ?? '',
    currency: str(raw.currency) ?? '',
    amountMinor,
    reason: str(raw.reason) ?? '',
    source: raw.source === 'reconciliation' ? 'reconciliation' : 'manual',
    againstStatementId: text(raw.againstStatementId),
    appliedStatementId: text(raw.appliedStatementId),
    appliedStatementNumber: text(raw.appliedStatementNumber),
    createdAt: text(raw.createdAt) ?? '',
  };
}

/** The filter as query parameters: defaults left out ('all' is no status). */
function filterQuery(query: StatementsQuery): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (query.cycle) out.cycle = query.cycle;
  if (query.status && query.status !== 'all') out.status = query.status;
  if (query.customer) out.customer = query.customer;
  if (query.search) out.search = query.search;
  if (query.page) out.page = query.page;
  if (query.limit) out.limit = query.limit;
  return out;
}

/** The export's file name when the server names none. */
export const exportFileName = (cycle: string | undefined) => `statements-${cycle ?? 'all'}.csv`;

const statementPath = (id: string) => `/billing/statements/${encodeURIComponent(id)}`;

/** The customer area's reading of statements: the signed-in customer's own, or an admin's preview of a customer's. */
function areaStatements(client: ApiClient, base: string) {
  return {
    list: async (signal?: AbortSignal): Promise<ApiResult<StatementSummaryWire[]>> =>
      mapResult(await client.request<unknown>(`${base}/statements`, withSignal(signal)), normaliseStatementSummaries),
    get: async (id: string, signal?: AbortSignal): Promise<ApiResult<StatementWire>> =>
      mapResult(await client.request<unknown>(`${base}/statements/${encodeURIComponent(id)}`, withSignal(signal)), normaliseStatement),
  };
}

export function createStatementsApi(client: ApiClient) {
  return {
    list: async (query: StatementsQuery, signal?: AbortSignal): Promise<ApiResult<StatementListWire>> =>
      mapResult(await client.request<unknown>('/billing/statements', { query: filterQuery(query), ...withSignal(signal) }), (data) => normaliseStatementList(data, query)),

    /** The CSV of the filter (no paging: every statement it selects). */
    exportCsv: (query: StatementsQuery, signal?: AbortSignal): Promise<ApiResult<Download>> =>
      downloadCsv(client, '/billing/statements/export.csv', filterQuery(query), exportFileName(query.cycle), signal),

    get: async (id: string, signal?: AbortSignal): Promise<ApiResult<StatementWire>> =>
      mapResult(await client.request<unknown>(statementPath(id), withSignal(signal)), normaliseStatement),

    ofCustomer: async (customerUuid: string, signal?: AbortSignal): Promise<ApiResult<StatementSummaryWire[]>> =>
      mapResult(await client.request<unknown>(`/customers/${encodeURIComponent(customerUuid)}/statements`, withSignal(signal)), normaliseStatementSummaries),

    /** A credit or charge for the customer's next statement (administrators only). */
    adjust: async (body: AdjustmentBody, signal?: AbortSignal): Promise<ApiResult<AdjustmentWire>> =>
      mapResult(await client.request<unknown>('/billing/adjustments', { method: 'POST', body, ...withSignal(signal) }), normaliseAdjustment),

    /** The signed-in customer's own statements. */
    mine: areaStatements(client, '/my'),
    /** A customer's statements as they see them, for an admin's "View as customer". */
    preview: (customerUuid: string) => areaStatements(client, `/customers/${encodeURIComponent(customerUuid)}/preview`),
  };
}

export type StatementsApi = ReturnType<typeof createStatementsApi>;
