// The customer ledger as the client reads it: payments, credit notes, refunds and reversals, a
// customer's account and terms, the ageing and its CSV, the dunning policy, bank statement imports
// and the lines waiting to be matched, and the customer's own account. The wire is the contract
// of src/domain/ledger.ts; rows that cannot be read are skipped.
import {
  AGEING_BUCKETS,
  BANK_FORMATS,
  BANK_LINE_STATUSES,
  BANK_MATCH_KINDS,
  DUNNING_STEPS,
  LEDGER_ENTRY_KINDS,
  LEDGER_PAGE_SIZE,
  PAYMENT_METHODS,
  type AgeingFigures,
  type AgeingRowWire,
  type AgeingWire,
  type BalanceWire,
  type BankImportBody,
  type BankImportReportWire,
  type BankImportWire,
  type BankLineListWire,
  type BankLineStatus,
  type BankLineWire,
  type BillingTermsBody,
  type BillingTermsWire,
  type CustomerAccountWire,
  type DunningPolicy,
  type DunningReport,
  type DunningStepWire,
  type LedgerEntryBody,
  type LedgerEntryKind,
  type LedgerEntryWire,
  type LedgerListWire,
  type MatchBody,
  type MyAccountWire,
  type OpenStatementWire,
  type PostedWire,
} from '../domain/ledger';
import { mapResult, type ApiClient, type ApiResult, type Download } from './client';
import { downloadCsv } from './csv';
import { normalisePagination } from './customers';
import { bool, int, isRecord, present, text, withSignal } from './normalise';
import { listOf, oneOf } from './terminals';

/** Whole minor units; 0 for anything else. */
const minor = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) ? value : 0);
const numbers = (value: unknown) => listOf(value).filter((n): n is number => typeof n === 'number' && Number.isInteger(n));

export function normaliseEntry(raw: unknown): LedgerEntryWire | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  const customerId = text(raw.customerId);
  const kind = oneOf(LEDGER_ENTRY_KINDS, raw.kind);
  const currency = text(raw.currency);
  if (!id || !customerId || !kind || !currency) return null;
  return {
    id,
    customerId,
    customerName: text(raw.customerName) ?? '',
    currency,
    kind,
    amountMinor: minor(raw.amountMinor),
    occurredOn: text(raw.occurredOn) ?? '',
    method: oneOf(PAYMENT_METHODS, raw.method),
    reference: text(raw.reference),
    note: text(raw.note),
    statementId: text(raw.statementId),
    statementNumber: text(raw.statementNumber),
    reversesId: text(raw.reversesId),
    reversedById: text(raw.reversedById),
    bankLineId: text(raw.bankLineId),
    allocations: listOf(raw.allocations)
      .map((a) => (isRecord(a) && text(a.statementId) ? { statementId: text(a.statementId)!, statementNumber: text(a.statementNumber), amountMinor: minor(a.amountMinor) } : null))
      .filter(present),
    createdAt: text(raw.createdAt) ?? '',
    createdBy: text(raw.createdBy),
  };
}

function normaliseBalance(raw: unknown): BalanceWire | null {
  if (!isRecord(raw) || !text(raw.currency)) return null;
  return { currency: text(raw.currency)!, balanceMinor: minor(raw.balanceMinor), openMinor: minor(raw.openMinor), overdueMinor: minor(raw.overdueMinor), creditMinor: minor(raw.creditMinor) };
}

function normaliseOpen(raw: unknown): OpenStatementWire | null {
  if (!isRecord(raw) || !text(raw.statementId) || !text(raw.currency)) return null;
  return {
    statementId: text(raw.statementId)!,
    number: text(raw.number) ?? '',
    dueOn: text(raw.dueOn) ?? '',
    openMinor: minor(raw.openMinor),
    cycle: text(raw.cycle) ?? '',
    currency: text(raw.currency)!,
    totalMinor: minor(raw.totalMinor),
    paidMinor: minor(raw.paidMinor),
    daysOverdue: Math.max(0, int(raw.daysOverdue, 0)),
  };
}

function normaliseTerms(raw: unknown): BillingTermsWire | null {
  if (!isRecord(raw)) return null;
  return { paymentTermsDays: Math.max(0, int(raw.paymentTermsDays, 30)), promiseToPayUntil: text(raw.promiseToPayUntil), promiseNote: text(raw.promiseNote), blockedForNonPayment: bool(raw.blockedForNonPayment) };
}

function normaliseStep(raw: unknown): DunningStepWire | null {
  if (!isRecord(raw)) return null;
  const step = oneOf([...DUNNING_STEPS, 'unblock'] as const, raw.step);
  if (!step) return null;
  return { step, statementId: text(raw.statementId), statementNumber: text(raw.statementNumber), takenAt: text(raw.takenAt) ?? '' };
}

export function normaliseAccount(raw: unknown): CustomerAccountWire | null {
  if (!isRecord(raw) || !text(raw.customerId)) return null;
  const terms = normaliseTerms(raw.terms);
  if (!terms) return null;
  return {
    customerId: text(raw.customerId)!,
    currencies: listOf(raw.currencies).map(text).filter(present),
    balances: listOf(raw.balances).map(normaliseBalance).filter(present),
    open: listOf(raw.open).map(normaliseOpen).filter(present),
    entries: listOf(raw.entries).map(normaliseEntry).filter(present),
    terms,
    dunning: listOf(raw.dunning).map(normaliseStep).filter(present),
  };
}

export function normaliseMyAccount(raw: unknown): MyAccountWire | null {
  if (!isRecord(raw)) return null;
  return {
    balances: listOf(raw.balances).map(normaliseBalance).filter(present),
    open: listOf(raw.open).map(normaliseOpen).filter(present),
    payments: listOf(raw.payments)
      .map((p) => normaliseEntry(isRecord(p) ? { customerName: '', ...p } : p))
      .filter(present)
      .map(({ customerName: _n, createdBy: _b, note: _o, bankLineId: _l, ...own }) => own),
    paymentTermsDays: Math.max(0, int(raw.paymentTermsDays, 30)),
  };
}

function normalisePosted(raw: unknown): PostedWire | null {
  if (!isRecord(raw)) return null;
  const entry = normaliseEntry(raw.entry);
  const balance = normaliseBalance(raw.balance);
  return entry && balance ? { entry, balance, unblocked: bool(raw.unblocked) } : null;
}

const figuresOf = (raw: Record<string, unknown>): AgeingFigures => Object.fromEntries(AGEING_BUCKETS.map((b) => [b, minor(raw[b])])) as unknown as AgeingFigures;

function normaliseAgeingRow(raw: unknown): AgeingRowWire | null {
  if (!isRecord(raw) || !text(raw.customerId) || !text(raw.currency)) return null;
  return {
    customerId: text(raw.customerId)!,
    customerName: text(raw.customerName) ?? '',
    currency: text(raw.currency)!,
    ...figuresOf(raw),
    totalMinor: minor(raw.totalMinor),
    creditMinor: minor(raw.creditMinor),
    oldestDueOn: text(raw.oldestDueOn),
    blockedForNonPayment: bool(raw.blockedForNonPayment),
    promiseToPayUntil: text(raw.promiseToPayUntil),
  };
}

export function normaliseAgeing(raw: unknown): AgeingWire | null {
  if (!isRecord(raw) || !Array.isArray(raw.rows)) return null;
  return {
    asOf: text(raw.asOf) ?? '',
    rows: raw.rows.map(normaliseAgeingRow).filter(present),
    totals: listOf(raw.totals)
      .map((t) => (isRecord(t) && text(t.currency) ? { currency: text(t.currency)!, ...figuresOf(t), totalMinor: minor(t.totalMinor), customers: Math.max(0, int(t.customers, 0)) } : null))
      .filter(present),
  };
}

export function normalisePolicy(raw: unknown): (DunningPolicy & { updatedAt: string }) | null {
  if (!isRecord(raw)) return null;
  const nullableDays = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : null);
  return {
    enabled: bool(raw.enabled),
    reminderDays: numbers(raw.reminderDays),
    finalNoticeDays: nullableDays(raw.finalNoticeDays),
    blockDays: nullableDays(raw.blockDays),
    proposeLineEnds: bool(raw.proposeLineEnds),
    updatedAt: text(raw.updatedAt) ?? '',
  };
}

export function normaliseBankLine(raw: unknown): BankLineWire | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  const status = oneOf(BANK_LINE_STATUSES, raw.status);
  const currency = text(raw.currency);
  if (!id || !status || !currency) return null;
  return {
    id,
    importId: text(raw.importId) ?? '',
    bookedOn: text(raw.bookedOn) ?? '',
    amountMinor: minor(raw.amountMinor),
    currency,
    payer: text(raw.payer),
    remittance: text(raw.remittance),
    bankReference: text(raw.bankReference),
    status,
    matchedBy: oneOf(BANK_MATCH_KINDS, raw.matchedBy),
    customerId: text(raw.customerId),
    customerName: text(raw.customerName),
    entryId: text(raw.entryId),
    statementNumbers: listOf(raw.statementNumbers).map(text).filter(present),
    note: text(raw.note),
  };
}

function normaliseImport(raw: unknown): BankImportWire | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  const format = oneOf(BANK_FORMATS, raw.format);
  if (!id || !format) return null;
  const count = (value: unknown) => Math.max(0, int(value, 0));
  return {
    id,
    fileName: text(raw.fileName) ?? '',
    format,
    importedAt: text(raw.importedAt) ?? '',
    importedBy: text(raw.importedBy),
    lines: count(raw.lines),
    matched: count(raw.matched),
    unmatched: count(raw.unmatched),
    duplicates: count(raw.duplicates),
    skipped: count(raw.skipped),
  };
}

function normaliseReport(raw: unknown): BankImportReportWire | null {
  const summary = normaliseImport(raw);
  return summary && isRecord(raw) ? { ...summary, items: listOf(raw.items).map(normaliseBankLine).filter(present) } : null;
}

export interface LedgerListQuery {
  customer?: string | undefined;
  currency?: string | undefined;
  kind?: LedgerEntryKind | undefined;
  page?: number | undefined;
  limit?: number | undefined;
}

export interface AgeingQuery {
  currency?: string | undefined;
  search?: string | undefined;
}

export function createLedgerApi(client: ApiClient) {
  return {
    entries: async (query: LedgerListQuery = {}, signal?: AbortSignal): Promise<ApiResult<LedgerListWire>> =>
      mapResult(
        await client.request<unknown>('/billing/ledger', {
          query: { customer: query.customer || undefined, currency: query.currency || undefined, kind: query.kind, page: query.page ?? 1, limit: query.limit ?? LEDGER_PAGE_SIZE },
          ...withSignal(signal),
        }),
        (data) => {
          if (!isRecord(data) || !Array.isArray(data.items)) return null;
          const items = data.items.map(normaliseEntry).filter(present);
          return { items, pagination: normalisePagination(data.pagination, items.length, { page: query.page, limit: query.limit ?? LEDGER_PAGE_SIZE }) };
        },
      ),
    post: async (body: LedgerEntryBody, signal?: AbortSignal): Promise<ApiResult<PostedWire>> =>
      mapResult(await client.request<unknown>('/billing/ledger', { method: 'POST', body, ...withSignal(signal) }), normalisePosted),
    reverse: async (id: string, reason: string, signal?: AbortSignal): Promise<ApiResult<PostedWire>> =>
      mapResult(await client.request<unknown>(`/billing/ledger/${encodeURIComponent(id)}/reverse`, { method: 'POST', body: { reason }, ...withSignal(signal) }), normalisePosted),
    account: async (customerId: string, signal?: AbortSignal): Promise<ApiResult<CustomerAccountWire>> =>
      mapResult(await client.request<unknown>(`/customers/${encodeURIComponent(customerId)}/account`, withSignal(signal)), normaliseAccount),
    setTerms: async (customerId: string, body: BillingTermsBody, signal?: AbortSignal): Promise<ApiResult<BillingTermsWire>> =>
      mapResult(await client.request<unknown>(`/customers/${encodeURIComponent(customerId)}/billing-terms`, { method: 'PUT', body, ...withSignal(signal) }), normaliseTerms),
    ageing: async (query: AgeingQuery = {}, signal?: AbortSignal): Promise<ApiResult<AgeingWire>> =>
      mapResult(await client.request<unknown>('/billing/ageing', { query: { currency: query.currency || undefined, search: query.search || undefined }, ...withSignal(signal) }), normaliseAgeing),
    ageingCsv: (query: AgeingQuery = {}, signal?: AbortSignal): Promise<ApiResult<Download>> =>
      downloadCsv(client, '/billing/ageing/export.csv', { currency: query.currency || undefined, search: query.search || undefined }, 'ageing.csv', signal),
    policy: async (signal?: AbortSignal) => mapResult(await client.request<unknown>('/billing/dunning-policy', withSignal(signal)), normalisePolicy),
    savePolicy: async (policy: DunningPolicy, signal?: AbortSignal) =>
      mapResult(await client.request<unknown>('/billing/dunning-policy', { method: 'PUT', body: policy, ...withSignal(signal) }), normalisePolicy),
    runDunning: async (signal?: AbortSignal): Promise<ApiResult<DunningReport>> =>
      mapResult(await client.request<unknown>('/billing/dunning-policy/run', { method: 'POST', ...withSignal(signal) }), (data) =>
        isRecord(data) ? { reminders: Math.max(0, int(data.reminders, 0)), finalNotices: Math.max(0, int(data.finalNotices, 0)), blocked: Math.max(0, int(data.blocked, 0)), unblocked: Math.max(0, int(data.unblocked, 0)), proposedEnds: Math.max(0, int(data.proposedEnds, 0)) } : null,
      ),
    importFile: async (body: BankImportBody, signal?: AbortSignal): Promise<ApiResult<BankImportReportWire>> =>
      mapResult(await client.request<unknown>('/billing/bank-imports', { method: 'POST', body, ...withSignal(signal) }), normaliseReport),
    imports: async (signal?: AbortSignal): Promise<ApiResult<BankImportWire[]>> =>
      mapResult(await client.request<unknown>('/billing/bank-imports', withSignal(signal)), (data) => (Array.isArray(data) ? data.map(normaliseImport).filter(present) : null)),
    bankLines: async (query: { status?: BankLineStatus | undefined; page?: number | undefined; limit?: number | undefined } = {}, signal?: AbortSignal): Promise<ApiResult<BankLineListWire>> =>
      mapResult(
        await client.request<unknown>('/billing/bank-lines', { query: { status: query.status, page: query.page ?? 1, limit: query.limit ?? LEDGER_PAGE_SIZE }, ...withSignal(signal) }),
        (data) => {
          if (!isRecord(data) || !Array.isArray(data.items)) return null;
          const items = data.items.map(normaliseBankLine).filter(present);
          return { items, pagination: normalisePagination(data.pagination, items.length, { page: query.page, limit: query.limit ?? LEDGER_PAGE_SIZE }) };
        },
      ),
    match: async (lineId: string, body: MatchBody, signal?: AbortSignal): Promise<ApiResult<BankLineWire>> =>
      mapResult(await client.request<unknown>(`/billing/bank-lines/${encodeURIComponent(lineId)}/match`, { method: 'POST', body, ...withSignal(signal) }), normaliseBankLine),
    ignore: async (lineId: string, note: string, signal?: AbortSignal): Promise<ApiResult<BankLineWire>> =>
      mapResult(await client.request<unknown>(`/billing/bank-lines/${encodeURIComponent(lineId)}/ignore`, { method: 'POST', body: { note }, ...withSignal(signal) }), normaliseBankLine),
    mine: async (signal?: AbortSignal): Promise<ApiResult<MyAccountWire>> => mapResult(await client.request<unknown>('/my/account', withSignal(signal)), normaliseMyAccount),
    /** "View as customer": the customer's own account, read by an admin. */
    preview: (customerUuid: string) => async (signal?: AbortSignal): Promise<ApiResult<MyAccountWire>> =>
      mapResult(await client.request<unknown>(`/customers/${encodeURIComponent(customerUuid)}/preview/account`, withSignal(signal)), normaliseMyAccount),
  };
}

export type LedgerApi = ReturnType<typeof createLedgerApi>;
