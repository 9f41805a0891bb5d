// What the Prices page's pieces share: texts, the margin of a list price over the provider's, and
// the readings of a row (in effect, upcoming, running) against today.
import { Tag } from 'primereact/tag';
import { formatPercent, type CustomerPriceWire, type PriceProductWire, type PriceWire } from '../../../domain/billing';
import { currencyExponent, formatMoney, multiply, MoneyError } from '../../../domain/money';

export const PRICES_TEXTS = {
  listTitle: 'Price list',
  listTable: 'Products and their prices',
  historyTitle: 'History of the list',
  historyTable: 'Price list history',
  customerTitle: 'Customer prices',
  customerTable: 'Customer prices',
  newPrice: 'New price',
  newPriceTitle: 'New price',
  newCustomerPrice: 'New customer price',
  newCustomerPriceTitle: 'New customer price',
  withdraw: 'Withdraw',
  withdrawTitle: 'Withdraw price',
  end: 'End',
  endTitle: 'End customer price',
  noPrice: 'No price \u2014 lines on it are billed nothing',
  noProducts: 'No products yet: they appear once the provider\u2019s plans are synced.',
  noHistory: 'No prices yet.',
  noCustomerPrices: 'No customer has prices of their own.',
  everyProduct: 'Every product',
  listPrice: 'List price',
  openEnded: 'Open-ended',
  inEffect: 'In effect',
  upcoming: 'Upcoming',
  past: 'Past',
  running: 'Running',
  ended: 'Ended',
  scheduled: 'Scheduled',
  saving: 'Saving...',
  working: 'Working...',
  loading: 'Loading prices...',
  loadFailed: 'The prices could not be loaded',
  customerLoadFailed: 'The customer prices could not be loaded',
  readOnly: 'Your roles let you read the prices, not change them.',
  differentCurrency: 'Not comparable: another currency',
  marginHint: 'The list\u2019s monthly price less the provider\u2019s, and its share of the list price.',
  figuresHint: 'Blank figures keep the list price.',
} as const;

/** The provider's price (major units, as it gives it) in minor units of its currency. */
export function providerMinor(product: PriceProductWire): number | null {
  if (product.providerPrice === null || !product.providerCurrency) return null;
  try {
    return multiply(10 ** currencyExponent(product.providerCurrency), product.providerPrice);
  } catch (error) {
    if (error instanceof MoneyError) return null;
    throw error;
  }
}

export interface Margin {
  currency: string;
  amountMinor: number;
  /** Basis points of the list price; null when the list price is zero. */
  shareBp: number | null;
}

/**
 * The margin of the list's monthly price over what the provider charges: null without both, or
 * when they are in different currencies (no rate is assumed).
 */
export function marginOf(product: PriceProductWire): Margin | 'other-currency' | null {
  const cost = providerMinor(product);
  const price = product.current;
  if (cost === null || !price) return null;
  if (price.currency !== product.providerCurrency) return 'other-currency';
  const amountMinor = price.monthlyMinor - cost;
  return { currency: price.currency, amountMinor, shareBp: price.monthlyMinor === 0 ? null : Math.round((amountMinor * 10_000) / price.monthlyMinor) };
}

export const marginText = (margin: Margin) => `${formatMoney(margin.amountMinor, margin.currency)}${margin.shareBp === null ? '' : ` (${formatPercent(margin.shareBp)})`}`;

export type PriceRowStatus = 'inEffect' | 'upcoming' | 'past';

export function priceRowStatus(price: PriceWire, today: string): PriceRowStatus {
  if (price.current) return 'inEffect';
  return price.effectiveFrom > today ? 'upcoming' : 'past';
}

export type CustomerPriceStatus = 'running' | 'scheduled' | 'ended';

export function customerPriceStatus(row: CustomerPriceWire, today: string): CustomerPriceStatus {
  if (row.effectiveUntil !== null && row.effectiveUntil <= today) return 'ended';
  return row.effectiveFrom > today ? 'scheduled' : 'running';
}

const PRICE_STATUS: Record<PriceRowStatus, { label: string; severity: 'success' | 'info' | 'secondary' }> = {
  inEffect: { label: PRICES_TEXTS.inEffect, severity: 'success' },
  upcoming: { label: PRICES_TEXTS.upcoming, severity: 'info' },
  past: { label: PRICES_TEXTS.past, severity: 'secondary' },
};

const CUSTOMER_STATUS: Record<CustomerPriceStatus, { label: string; severity: 'success' | 'info' | 'secondary' }> = {
  running: { label: PRICES_TEXTS.running, severity: 'success' },
  scheduled: { label: PRICES_TEXTS.scheduled, severity: 'info' },
  ended: { label: PRICES_TEXTS.ended, severity: 'secondary' },
};

export const PriceStatusTag = ({ status }: { status: PriceRowStatus }) => <Tag value={PRICE_STATUS[status].label} severity={PRICE_STATUS[status].severity} />;
export const CustomerPriceStatusTag = ({ status }: { status: CustomerPriceStatus }) => (
  <Tag value={CUSTOMER_STATUS[status].label} severity={CUSTOMER_STATUS[status].severity} />
);

/** A product's name from the list, else its id. */
export const productName = (products: readonly PriceProductWire[], id: string | null) =>
  id === null ? PRICES_TEXTS.everyProduct : (products.find((p) => p.productReferenceId === id)?.name ?? id);

/**
 * The currency a customer's negotiated figures are in: their product's list currency; for a row
 * on every product, the list's currency when the list has only one.
 */
export function figureCurrency(row: Pick<CustomerPriceWire, 'productReferenceId'>, products: readonly PriceProductWire[]): string | null {
  const currencies = new Set(
    products.filter((p) => row.productReferenceId === null || p.productReferenceId === row.productReferenceId).flatMap((p) => (p.current ? [p.current.currency] : [])),
  );
  return currencies.size === 1 ? [...currencies][0]! : null;
}
