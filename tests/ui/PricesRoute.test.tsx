// Billing → Prices through the whole client (composition root, router, session, the two resources,
// the price and customer price form machines, the customer search, the views) against a fake of
// the portal API at the fetch seam that keeps the prices it was told about.
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { AdminUser } from '../../src/domain/auth';
import { BILLING_MESSAGES, type CustomerPriceWire, type PriceListWire, type PriceWire } from '../../src/domain/billing';
import { CUSTOMER_PRICE_TEXTS } from '../../src/machines/customer-price-form';
import { PRICE_FORM_TEXTS } from '../../src/machines/price-form';
import { CUSTOMER_SEARCH_TEXTS } from '../../src/ui/billing/prices/CustomerPriceDialog';
import { PRICES_TEXTS as T } from '../../src/ui/billing/prices/parts';
import { adminProfile, userProfile } from '../machines/fixtures';
import { CUSTOMER_ID, NEXT_MONTH, endedCustomerPrice, priceList, priceWire, runningCustomerPrice, upcomingPrice } from '../fixtures/prices';
import { enteredDialog } from './dialogs';
import { openSignedInAt } from './open-app';
import { fill } from './fill';

const customers = [
  { uuid: CUSTOMER_ID, email: 'billing@acme.example', name: 'Acme Maritime', company: 'Acme', isActive: true },
  { uuid: 'c0000000-0000-4000-8000-000000000003', email: 'ops@cormorant.example', name: 'Cormorant Air', company: 'Cormorant', isActive: true },
];

function fakePortalApi(profile: AdminUser = adminProfile) {
  let list: PriceListWire = priceList();
  let rows: CustomerPriceWire[] = [runningCustomerPrice, endedCustomerPrice];
  const calls: string[] = [];
  const bodies: Array<[string, unknown]> = [];
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const ok = (data: unknown, status = 200) => json(status, { success: true, message: 'ok', data });
  const fail = (status: number, message: string) => json(status, { success: false, message });
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const call = `${method} ${url.pathname}`;
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    calls.push(`${call}${url.search}`);
    if (body !== undefined) bodies.push([call, body]);
    if (call === 'GET /api/v1/auth/me') return ok({ user: profile });
    if (call === 'GET /api/v1/billing/prices') return ok(list);
    if (call === 'POST /api/v1/billing/prices') {
      if (list.history.some((p) => p.productReferenceId === body.productReferenceId && p.effectiveFrom === body.effectiveFrom)) return fail(409, BILLING_MESSAGES.priceExists);
      const created: PriceWire = priceWire({
        id: 'p0000000-0000-4000-8000-0000000000aa',
        productReferenceId: body.productReferenceId,
        productName: list.products.find((p) => p.productReferenceId === body.productReferenceId)?.name ?? null,
        monthlyMinor: Math.round(Number(body.monthly) * 100),
        overagePerGbMinor: Math.round(Number(body.overagePerGb) * 100),
        topUpMinor: Math.round(Number(body.topUp) * 100),
        effectiveFrom: body.effectiveFrom,
        note: body.note,
        current: false,
      });
      list = { ...list, history: [created, ...list.history] };
      return ok(created, 201);
    }
    const price = /^\/api\/v1\/billing\/prices\/([^/]+)$/.exec(url.pathname);
    if (method === 'DELETE' && price) {
      list = { ...list, history: list.history.filter((p) => p.id !== price[1]) };
      return ok(null);
    }
    if (call === 'GET /api/v1/billing/customer-prices') return ok(rows);
    if (call === 'POST /api/v1/billing/customer-prices') {
      const created = { ...runningCustomerPrice, id: 'cp000000-0000-4000-8000-0000000000aa', customerName: 'Cormorant Air', customerId: body.customerId, discountBp: 1250, effectiveFrom: body.effectiveFrom, note: null };
      rows = [...rows, created];
      return ok(created, 201);
    }
    const end = /^\/api\/v1\/billing\/customer-prices\/([^/]+)\/end$/.exec(url.pathname);
    if (method === 'POST' && end) {
      rows = rows.map((r) => (r.id === end[1] ? { ...r, effectiveUntil: new Date().toISOString().slice(0, 10) } : r));
      return ok(rows.find((r) => r.id === end[1]));
    }
    if (call === 'GET /api/v1/customers') {
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      const found = customers.filter((c) => c.name.toLowerCase().includes(search));
      return ok({ customers: found, pagination: { total: found.length, page: 1, limit: 20, pages: 1 } });
    }
    return fail(404, `Route not found: ${call}`);
  });
  return { fetch, calls, bodies, count: (call: string) => calls.filter((c) => c === call).length };
}

const table = async (name: string) => within(await screen.findByRole('table', { name }, { timeout: 5000 }));
const rowOf = (rows: ReturnType<typeof within>, text: string) => rows.getByText(text).closest('tr') as HTMLElement;

describe('Prices page', () => {
  it('shows each product with the provider’s price, its list price, a warning where it has none and a negative margin in red', async () => {
    const api = fakePortalApi();
    openSignedInAt('/billing/prices', api.fetch);
    const products = await table(T.listTable);
    const standard = within(rowOf(products, 'Standard'));
    expect(standard.getByText('ref-standard')).toBeTruthy();
    expect(standard.getByText('USD 65.00')).toBeTruthy();
    expect(standard.getByText('USD 79.00')).toBeTruthy();
    expect(standard.getByText('USD 14.00 (17.72 %)').className).toBe('amount');
    const mobile = within(rowOf(products, 'Mobile'));
    expect(mobile.getByText(T.noPrice)).toBeTruthy();
    const below = within(rowOf(products, 'Priority 1 TB')).getByText('USD -10.00 (-4.17 %)');
    expect(below.className).toBe('amount-negative');
  });

  it('lists the history newest first, with Withdraw only on the row not yet in effect', async () => {
    const api = fakePortalApi();
    openSignedInAt('/billing/prices', api.fetch);
    const history = await table(T.historyTable);
    const rows = history.getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText(NEXT_MONTH)).toBeTruthy();
    expect(within(rows[0]!).getByText(T.upcoming)).toBeTruthy();
    expect(history.getAllByRole('button', { name: /^Withdraw/ })).toHaveLength(1);
    expect(history.getAllByText(T.inEffect)).toHaveLength(2);
    expect(history.getByText(T.past)).toBeTruthy();
  });

  it('refuses a bad amount and three decimals in USD on the client, shows the server’s 409 under the date, and reloads once saved', async () => {
    const api = fakePortalApi();
    const { user } = openSignedInAt('/billing/prices', api.fetch);
    const products = await table(T.listTable);
    // From Standard's row: its figures and next month, a date it already has a price from.
    await user.click(products.getByRole('button', { name: `${T.newPrice}: Standard` }));
    const form = within(await enteredDialog(T.newPriceTitle));
    const monthly = form.getByLabelText('Monthly price') as HTMLInputElement;
    expect(monthly.value).toBe('79.00');
    expect((form.getByLabelText('Effective from') as HTMLInputElement).value).toBe(NEXT_MONTH);

    await user.clear(monthly);
    await fill(user, monthly, 'eighty');
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText(PRICE_FORM_TEXTS.amountInvalid('Monthly price'))).toBeTruthy();
    await user.clear(monthly);
    await fill(user, monthly, '89.995');
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText('Monthly price: USD amounts have at most 2 decimals')).toBeTruthy();
    expect(monthly.getAttribute('aria-invalid')).toBe('true');
    expect(api.bodies.filter(([call]) => call === 'POST /api/v1/billing/prices')).toEqual([]);

    await user.clear(monthly);
    await fill(user, monthly, '89.99');
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText(BILLING_MESSAGES.priceExists)).toBeTruthy();
    const date = form.getByLabelText('Effective from') as HTMLInputElement;
    expect(date.getAttribute('aria-invalid')).toBe('true');

    const listLoads = api.count('GET /api/v1/billing/prices');
    await user.clear(date);
    await fill(user, date, '2099-01-01');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: T.newPriceTitle })).toBeNull());
    expect(api.bodies.filter(([call]) => call === 'POST /api/v1/billing/prices').at(-1)).toEqual([
      'POST /api/v1/billing/prices',
      { productReferenceId: 'ref-standard', currency: 'USD', monthly: '89.99', overagePerGb: '1.00', topUp: '25.00', effectiveFrom: '2099-01-01', note: null },
    ]);
    await waitFor(() => expect(api.count('GET /api/v1/billing/prices')).toBe(listLoads + 1));
    expect(await (await table(T.historyTable)).findByText('2099-01-01')).toBeTruthy();
  });

  it('withdraws a row not yet in effect after asking, and the history reloads without it', async () => {
    const api = fakePortalApi();
    const { user } = openSignedInAt('/billing/prices', api.fetch);
    const history = await table(T.historyTable);
    await user.click(history.getByRole('button', { name: `${T.withdraw}: Standard from ${NEXT_MONTH}` }));
    const dialog = within(await enteredDialog(T.withdrawTitle));
    expect(dialog.getByText(PRICE_FORM_TEXTS.withdrawQuestion('Standard', NEXT_MONTH))).toBeTruthy();
    expect(api.calls.some((c) => c.startsWith('DELETE'))).toBe(false);
    await user.click(dialog.getByRole('button', { name: T.withdraw }));
    await waitFor(() => expect(api.calls).toContain(`DELETE /api/v1/billing/prices/${upcomingPrice.id}`));
    await waitFor(() => expect(screen.queryByText(NEXT_MONTH)).toBeNull());
  });

  it('adds a customer price for a customer found by search, and ends a running one after asking', async () => {
    const api = fakePortalApi();
    const { user } = openSignedInAt('/billing/prices', api.fetch);
    const listed = await table(T.customerTable);
    expect(within(rowOf(listed, 'Acme Maritime')).getByText(T.everyProduct)).toBeTruthy();
    expect(within(rowOf(listed, 'Acme Maritime')).getByText('10 %')).toBeTruthy();
    expect(within(rowOf(listed, 'Borealis Fisheries')).getByText(T.ended)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: T.newCustomerPrice }));
    const form = within(await enteredDialog(T.newCustomerPriceTitle));
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText(CUSTOMER_PRICE_TEXTS.customerRequired)).toBeTruthy();
    expect(form.getByText(BILLING_MESSAGES.customerPriceEmpty)).toBeTruthy();

    await user.click(form.getByRole('combobox', { name: 'Customer' }));
    const search = await screen.findByPlaceholderText(CUSTOMER_SEARCH_TEXTS.search);
    await fill(user, search, 'corm');
    await waitFor(() => expect(api.calls).toContain('GET /api/v1/customers?page=1&limit=20&search=corm'));
    await user.click(await screen.findByRole('option', { name: 'Cormorant Air · ops@cormorant.example' }));
    await fill(user, form.getByLabelText('Discount %'), '12.5');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: T.newCustomerPriceTitle })).toBeNull());
    expect(api.bodies.find(([call]) => call === 'POST /api/v1/billing/customer-prices')?.[1]).toEqual({
      customerId: 'c0000000-0000-4000-8000-000000000003',
      productReferenceId: null,
      effectiveFrom: NEXT_MONTH,
      effectiveUntil: null,
      discountPercent: '12.5',
      monthly: null,
      overagePerGb: null,
      topUp: null,
      currency: 'USD',
      note: null,
    });
    expect(await (await table(T.customerTable)).findByText('Cormorant Air')).toBeTruthy();

    await user.click((await table(T.customerTable)).getByRole('button', { name: `${T.end}: Acme Maritime, ${T.everyProduct}` }));
    const confirm = within(await enteredDialog(T.endTitle));
    expect(confirm.getByText(CUSTOMER_PRICE_TEXTS.endQuestion('Acme Maritime', T.everyProduct))).toBeTruthy();
    await user.click(confirm.getByRole('button', { name: T.end }));
    await waitFor(() => expect(api.calls).toContain(`POST /api/v1/billing/customer-prices/${runningCustomerPrice.id}/end`));
    await waitFor(async () => expect(within(rowOf(await table(T.customerTable), 'Acme Maritime')).getByText(T.ended)).toBeTruthy());
  });

  it('a portal user who is not an administrator reads every price and is offered no change', async () => {
    const reader: AdminUser = userProfile;
    const api = fakePortalApi(reader);
    openSignedInAt('/billing/prices', api.fetch, { profile: reader });
    await table(T.historyTable);
    await table(T.customerTable);
    expect(screen.getByText(T.readOnly)).toBeTruthy();
    for (const name of [/New price/, /New customer price/, /^Withdraw/, /^End/]) expect(screen.queryByRole('button', { name }), String(name)).toBeNull();
  });
});
