// The /billing/prices page as the price-form and customer-price-form models open it: the products,
// history and customer prices of the price fixtures (Standard priced, with a row from next month
// not yet in effect; a running customer price), and the customers the customer picker lists.
import { screen, within } from '@testing-library/react';
import { PRICES_TEXTS as T } from '../../../src/ui/billing/prices/parts';
import { CUSTOMER_ID, endedCustomerPrice, priceList, runningCustomerPrice } from '../../fixtures/prices';
import type { ModelSeam } from '../framework/model';
import { openPage, type FakeAnswer, type PageScreen } from '../framework/screen';

const envelope = (data: unknown) => ({ body: { success: true, message: 'ok', data } });

export const ACME_OPTION = 'Acme Maritime \u00b7 billing@acme.example';

/** Opens the page; returns once the price list and the customer prices show. */
export async function openPricesPage(seam: ModelSeam): Promise<PageScreen> {
  const answers: Record<string, FakeAnswer> = {
    'GET /api/v1/billing/prices': envelope(priceList()),
    'GET /api/v1/billing/customer-prices': envelope([runningCustomerPrice, endedCustomerPrice]),
    'GET /api/v1/customers': envelope({
      customers: [{ uuid: CUSTOMER_ID, email: 'billing@acme.example', name: 'Acme Maritime', company: 'Acme', isActive: true }],
      pagination: { total: 1, page: 1, limit: 20, pages: 1 },
    }),
  };
  const page = openPage('/billing/prices', seam, answers);
  await screen.findByRole('table', { name: T.listTable }, { timeout: 5000 });
  await screen.findByRole('table', { name: T.customerTable }, { timeout: 5000 });
  return page;
}

export const pricesTable = (name: string) => within(screen.getByRole('table', { name }));
