// Provider billing (`/billing/provider`, Subscriptions → Provider Billing): what the provider bills
// the reseller, read live. The wire is the shared contract of src/domain/provider-billing.ts; an
// answer that does not read as one is a failure (mapResult's null), never an empty page. Rows that
// cannot be read are skipped. Refusals (404 unknown invoice, 502/503/504 provider trouble) come
// back as ok:false with the server's words.
import { mapResult, type ApiClient, type ApiResult } from './client';
import { isRecord, present, text, withSignal } from './normalise';
import { listOf, num } from './terminals';
import { DEFAULT_CURRENCY } from '../domain/subscriptions';
import type {
  ProviderBalanceWire,
  ProviderBillingWire,
  ProviderInvoiceLineWire,
  ProviderInvoiceSummaryWire,
  ProviderInvoiceWire,
} from '../domain/provider-billing';

const amount = (value: unknown) => num(value) ?? 0;
function balance(raw: unknown): ProviderBalanceWire | null {
  if (!isRecord(raw)) return null;
  const currency = text(raw.currency);
  const dueAmount = num(raw.dueAmount);
  return currency && dueAmount !== null ? { currency, dueAmount } : null;
}

/** One invoice of the list; null without an id or a date. */
function invoiceSummary(raw: unknown): ProviderInvoiceSummaryWire | null {
  if (!isRecord(raw)) return null;
  const invoiceId = text(raw.invoiceId);
  const invoiceDate = text(raw.invoiceDate);
  if (invoiceId === null || invoiceDate === null) return null;
  return {
    invoiceId,
    description: text(raw.description),
    currency: text(raw.currency) ?? DEFAULT_CURRENCY,
    amount: amount(raw.amount),
    dueAmount: amount(raw.dueAmount),
    invoiceDate,
    dueDate: text(raw.dueDate),
    status: text(raw.status) ?? 'Unknown',
  };
}

function invoiceLine(raw: unknown): ProviderInvoiceLineWire | null {
  if (!isRecord(raw)) return null;
  return {
    productReferenceId: text(raw.productReferenceId),
    description: text(raw.description),
    quantity: amount(raw.quantity),
    unitPrice: amount(raw.unitPrice),
    taxAmount: amount(raw.taxAmount),
    subTotal: amount(raw.subTotal),
    periodStart: text(raw.periodStart),
    periodEnd: text(raw.periodEnd),
    serviceLines: listOf(raw.serviceLines)
      .filter(isRecord)
      .map((sl) => ({ serviceLineNumber: text(sl.serviceLineNumber) ?? '', userTerminalId: text(sl.userTerminalId) }))
      .filter((sl) => sl.serviceLineNumber !== ''),
  };
}

/** `GET /billing/provider` data; null without its two lists. */
export function normaliseProviderBilling(data: unknown): ProviderBillingWire | null {
  if (!isRecord(data) || !Array.isArray(data.balances) || !Array.isArray(data.invoices)) return null;
  return { balances: data.balances.map(balance).filter(present), invoices: data.invoices.map(invoiceSummary).filter(present) };
}

/** `GET /billing/provider/invoices/{id}` data; null without an id, a date or its lines. */
export function normaliseProviderInvoice(data: unknown): ProviderInvoiceWire | null {
  if (!isRecord(data) || !Array.isArray(data.lines)) return null;
  const invoiceId = text(data.invoiceId);
  const invoiceDate = text(data.invoiceDate);
  if (invoiceId === null || invoiceDate === null) return null;
  const unmatched = isRecord(data.unmatched) ? data.unmatched : {};
  return {
    invoiceId,
    currency: text(data.currency) ?? DEFAULT_CURRENCY,
    dueAmount: amount(data.dueAmount),
    paidAmount: amount(data.paidAmount),
    invoiceDate,
    dueDate: text(data.dueDate),
    lines: data.lines.map(invoiceLine).filter(present),
    unmatched: { lines: Math.max(0, Math.trunc(amount(unmatched.lines))), amount: amount(unmatched.amount) },
  };
}

/** Each call takes the provider account it reads (`account_id`); without one the server reads its first enabled account. */
export function createProviderBillingApi(client: ApiClient) {
  const account = (accountId: number | null) => (accountId === null ? {} : { query: { account_id: accountId } });
  return {
    /** The provider account's balances and its invoices, newest first. */
    overview: async (signal?: AbortSignal, accountId: number | null = null): Promise<ApiResult<ProviderBillingWire>> =>
      mapResult(await client.request<unknown>('/billing/provider', { ...account(accountId), ...withSignal(signal) }), normaliseProviderBilling),

    /** One invoice with its lines, each service line with the inventory's terminal on it. */
    invoice: async (invoiceId: string, signal?: AbortSignal, accountId: number | null = null): Promise<ApiResult<ProviderInvoiceWire>> =>
      mapResult(
        await client.request<unknown>(`/billing/provider/invoices/${encodeURIComponent(invoiceId)}`, { ...account(accountId), ...withSignal(signal) }),
        normaliseProviderInvoice,
      ),
  };
}

export type ProviderBillingApi = ReturnType<typeof createProviderBillingApi>;
