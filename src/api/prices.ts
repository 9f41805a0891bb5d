// Billing prices: the reseller's price list with the provider's price beside each
// product, adding a price from a date and withdrawing one not yet in effect, and the customers'
// own prices (a discount, negotiated figures) with their start and end. The wire is the shared
// contract of src/domain/billing.ts; money is whole minor units. Rows that cannot be read are
// skipped; an answer whose shape cannot be read at all is a failure (mapResult's null). Refusals
// (400 with the fields at fault, 403 for a viewer, 409 for a price already there or in effect)
// come back as ok:false with the server's words.
import { mapResult, type ApiClient, type ApiResult } from './client';
import { bool, isRecord, present, str, text, withSignal } from './normalise';
import { listOf, num } from './terminals';
import type { CustomerPriceBody, CustomerPriceWire, PriceBody, PriceListWire, PriceProductWire, PriceWire } from '../domain/billing';

/** Whole minor units; null for anything else (a fraction of a cent is not an amount). */
export const minorOf = (value: unknown): number | null => {
  const n = num(value);
  return n !== null && Number.isSafeInteger(n) ? n : null;
};

/** One row of the list; null without an id, a product, a currency, a date or its three figures. */
export function normalisePrice(raw: unknown): PriceWire | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  const productReferenceId = text(raw.productReferenceId);
  const currency = text(raw.currency);
  const effectiveFrom = text(raw.effectiveFrom);
  const monthlyMinor = minorOf(raw.monthlyMinor);
  const overagePerGbMinor = minorOf(raw.overagePerGbMinor);
  const topUpMinor = minorOf(raw.topUpMinor);
  if (!id || !productReferenceId || !currency || !effectiveFrom || monthlyMinor === null || overagePerGbMinor === null || topUpMinor === null) return null;
  return {
    id,
    productReferenceId,
    productName: text(raw.productName),
    currency,
    monthlyMinor,
    overagePerGbMinor,
    topUpMinor,
    effectiveFrom,
    note: text(raw.note),
    createdAt: str(raw.createdAt) ?? '',
    createdBy: text(raw.createdBy),
    current: bool(raw.current),
  };
}

function normaliseProduct(raw: unknown): PriceProductWire | null {
  if (!isRecord(raw)) return null;
  const productReferenceId = text(raw.productReferenceId);
  if (!productReferenceId) return null;
  return {
    productReferenceId,
    name: text(raw.name) ?? productReferenceId,
    providerPrice: num(raw.providerPrice),
    providerCurrency: text(raw.providerCurrency),
    current: raw.current === null || raw.current === undefined ? null : normalisePrice(raw.current),
  };
}

export function normalisePriceList(data: unknown): PriceListWire | null {
  if (!isRecord(data) || !Array.isArray(data.products)) return null;
  return {
    products: data.products.map(normaliseProduct).filter(present),
    history: listOf(data.history).map(normalisePrice).filter(present),
  };
}

/** A customer's own price; null without an id, a customer or a start. */
export function normaliseCustomerPrice(raw: unknown): CustomerPriceWire | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  const customerId = text(raw.customerId);
  const effectiveFrom = text(raw.effectiveFrom);
  if (!id || !customerId || !effectiveFrom) return null;
  return {
    id,
    customerId,
    customerName: text(raw.customerName) ?? '',
    productReferenceId: text(raw.productReferenceId),
    effectiveFrom,
    effectiveUntil: text(raw.effectiveUntil),
    discountBp: minorOf(raw.discountBp),
    monthlyMinor: minorOf(raw.monthlyMinor),
    overagePerGbMinor: minorOf(raw.overagePerGbMinor),
    topUpMinor: minorOf(raw.topUpMinor),
    note: text(raw.note),
    createdAt: str(raw.createdAt) ?? '',
  };
}

export const normaliseCustomerPrices = (data: unknown): CustomerPriceWire[] | null =>
  Array.isArray(data) ? data.map(normaliseCustomerPrice).filter(present) : null;

/** What an answer without data (a DELETE) reads as: any success will do. */
const noData = (result: ApiResult<unknown>): ApiResult<null> => (result.ok ? { ...result, data: null } : result);

export function createPricesApi(client: ApiClient) {
  return {
    list: async (signal?: AbortSignal): Promise<ApiResult<PriceListWire>> =>
      mapResult(await client.request<unknown>('/billing/prices', withSignal(signal)), normalisePriceList),

    create: async (body: PriceBody, signal?: AbortSignal): Promise<ApiResult<PriceWire>> =>
      mapResult(await client.request<unknown>('/billing/prices', { method: 'POST', body, ...withSignal(signal) }), normalisePrice),

    /** Only a row not yet in effect; 409 for one that is. */
    withdraw: async (id: string, signal?: AbortSignal): Promise<ApiResult<null>> =>
      noData(await client.request<unknown>(`/billing/prices/${encodeURIComponent(id)}`, { method: 'DELETE', ...withSignal(signal) })),

    customerPrices: async (query: { customer?: string } = {}, signal?: AbortSignal): Promise<ApiResult<CustomerPriceWire[]>> =>
      mapResult(
        await client.request<unknown>('/billing/customer-prices', { query: { customer: query.customer || undefined }, ...withSignal(signal) }),
        normaliseCustomerPrices,
      ),

    createCustomerPrice: async (body: CustomerPriceBody, signal?: AbortSignal): Promise<ApiResult<CustomerPriceWire>> =>
      mapResult(await client.request<unknown>('/billing/customer-prices', { method: 'POST', body, ...withSignal(signal) }), normaliseCustomerPrice),

    /** Ends a running row (from the first day of the next cycle, or on `effectiveUntil`). */
    endCustomerPrice: async (id: string, effectiveUntil?: string, signal?: AbortSignal): Promise<ApiResult<CustomerPriceWire>> =>
      mapResult(
        await client.request<unknown>(`/billing/customer-prices/${encodeURIComponent(id)}/end`, {
          method: 'POST',
          body: effectiveUntil ? { effectiveUntil } : {},
          ...withSignal(signal),
        }),
        normaliseCustomerPrice,
      ),
  };
}

export type PricesApi = ReturnType<typeof createPricesApi>;
