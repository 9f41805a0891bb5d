// The reconciliation board: a cycle's provider cost beside what the customers were
// billed, and the leaks between them (lines billed by the provider to no customer, prices below
// cost, top-ups never billed…), each with the fixes it offers; a fix, and importing the
// provider's invoices. The wire is the shared contract of src/domain/billing.ts; money is whole
// minor units. Leaks that cannot be read are skipped; a board whose shape cannot be read is a
// failure. Refusals (403 for a viewer, 404 for a leak gone from the board, 409 for a fix that
// does not apply) come back as ok:false with the server's words.
import { mapResult, type ApiClient, type ApiResult } from './client';
import { bool, int, isRecord, present, str, text, withSignal } from './normalise';
import { listOf, oneOf } from './terminals';
import { minorOf } from './prices';
import { FIX_ACTIONS, LEAK_KINDS, type FixAction, type FixBody, type LeakWire, type ReconciliationWire } from '../domain/billing';

const amount = (value: unknown) => minorOf(value) ?? 0;

/** One leak; null without a known kind or a key. Fixes this client does not know are dropped. */
export function normaliseLeak(raw: unknown): LeakWire | null {
  if (!isRecord(raw)) return null;
  const kind = oneOf(LEAK_KINDS, raw.kind);
  const key = text(raw.key);
  if (!kind || !key) return null;
  const resolution = isRecord(raw.resolution) ? raw.resolution : null;
  const resolvedBy = resolution ? oneOf(FIX_ACTIONS, resolution.action) : null;
  return {
    kind,
    key,
    serviceLineNumber: text(raw.serviceLineNumber),
    customerId: text(raw.customerId),
    customerName: text(raw.customerName),
    detail: str(raw.detail) ?? '',
    amountMinor: amount(raw.amountMinor),
    fixes: listOf(raw.fixes)
      .map((fix) => oneOf(FIX_ACTIONS, fix))
      .filter((fix): fix is FixAction => fix !== null),
    resolution: resolution && resolvedBy ? { action: resolvedBy, at: str(resolution.at) ?? '', by: text(resolution.by), note: text(resolution.note) } : null,
  };
}

export function normaliseBoard(data: unknown): ReconciliationWire | null {
  if (!isRecord(data) || !isRecord(data.totals)) return null;
  const cycle = text(data.cycle);
  const currency = text(data.currency);
  if (!cycle || !currency) return null;
  const invoice = isRecord(data.invoice) ? data.invoice : null;
  const invoiceId = invoice ? text(invoice.invoiceId) : null;
  const account = isRecord(data.account) ? data.account : null;
  const accountId = account ? int(account.id, 0) : 0;
  const accountName = account ? text(account.name) : null;
  return {
    cycle,
    account: accountId >= 1 && accountName ? { id: accountId, name: accountName } : null,
    currency,
    invoice: invoice && invoiceId ? { invoiceId, amountMinor: amount(invoice.amountMinor), status: text(invoice.status) } : null,
    costEstimated: bool(data.costEstimated, invoiceId === null),
    totals: {
      providerCostMinor: amount(data.totals.providerCostMinor),
      billedMinor: amount(data.totals.billedMinor),
      marginMinor: amount(data.totals.marginMinor),
      statements: Math.max(0, int(data.totals.statements, 0)),
    },
    leaks: listOf(data.leaks).map(normaliseLeak).filter(present),
    byKind: listOf(data.byKind)
      .map((raw) => {
        if (!isRecord(raw)) return null;
        const kind = oneOf(LEAK_KINDS, raw.kind);
        return kind ? { kind, count: Math.max(0, int(raw.count, 0)), amountMinor: amount(raw.amountMinor) } : null;
      })
      .filter(present),
    openLeakMinor: amount(data.openLeakMinor),
    otherCurrencies: listOf(data.otherCurrencies)
      .map((raw) => {
        if (!isRecord(raw)) return null;
        const other = text(raw.currency);
        return other ? { currency: other, lines: Math.max(0, int(raw.lines, 0)), billedMinor: amount(raw.billedMinor) } : null;
      })
      .filter(present),
  };
}

export function createReconciliationApi(client: ApiClient) {
  return {
    /** One account's board of a cycle ('YYYY-MM'; the current cycle, and the first account, when none is given). */
    board: async (cycle: string | null, signal?: AbortSignal, accountId?: number | null): Promise<ApiResult<ReconciliationWire>> =>
      mapResult(
        await client.request<unknown>('/billing/reconciliation', { query: { cycle: cycle ?? undefined, account_id: accountId ?? undefined }, ...withSignal(signal) }),
        normaliseBoard,
      ),

    /** Answers the leak as it now stands (with its resolution). */
    fix: async (body: FixBody, signal?: AbortSignal): Promise<ApiResult<LeakWire>> =>
      mapResult(await client.request<unknown>('/billing/reconciliation/fix', { method: 'POST', body, ...withSignal(signal) }), (data) =>
        isRecord(data) ? normaliseLeak(data.leak) : null,
      ),

    importInvoices: async (signal?: AbortSignal): Promise<ApiResult<{ imported: number; updated: number }>> =>
      mapResult(await client.request<unknown>('/billing/invoices/import', { method: 'POST', body: {}, ...withSignal(signal) }), (data) =>
        isRecord(data) ? { imported: Math.max(0, int(data.imported, 0)), updated: Math.max(0, int(data.updated, 0)) } : null,
      ),
  };
}

export type ReconciliationApi = ReturnType<typeof createReconciliationApi>;
