// The Provider Billing page (Subscriptions → Provider Billing) through the whole client
// (composition root, router, session, providerBilling machine, view) against a fake of the portal
// API at the fetch seam: the balances and invoices, an invoice's lines with their links into the
// inventory, each failure and its way back, and who may open the page.
import { describe, expect, it, vi } from 'vitest';
import { createMemoryHistory } from '@tanstack/react-router';
import { screen, waitFor, within } from '@testing-library/react';
import type { AdminUser } from '../../src/domain/auth';
import { PROVIDER_BILLING_MESSAGES, PROVIDER_BILLING_TEXTS as T } from '../../src/domain/provider-billing';
import { SESSION_STORAGE_KEY, serialisePersistedSession } from '../../src/domain/session';
import { AppRoot } from '../../src/routes/AppRoot';
import { adminProfile, customerProfile, userProfile } from '../machines/fixtures';
import { HELD_LINE, HELD_TERMINAL, NEWEST, OLDER, STRAY_LINE, billingFixture, invoiceFixture } from '../fixtures/provider-billing';
import { subscriptionPage } from '../fixtures/subscriptions-client';
import { terminalRowWire } from '../fixtures/terminals-client';
import { fleetHealth } from '../fixtures/terminals-ui';
import { createTestApp, openSignedInAt } from './open-app';
import { enteredDialog } from './dialogs';
import { renderStrict } from './render';

const PATH = '/subscription/provider-billing';
const billing = billingFixture();
const newest = invoiceFixture();
// The older invoice was paid in full, and all its lines are on service lines the inventory has.
const older = invoiceFixture({ invoiceId: OLDER, dueAmount: 0, paidAmount: 980, lines: [invoiceFixture().lines[0]!], unmatched: { lines: 0, amount: 0 } });
const invoices: Record<string, typeof newest> = { [NEWEST]: newest, [OLDER]: older };
/** The terminal on the held line, as the terminals page lists it. */
const heldRow = terminalRowWire({ user_terminal_id: HELD_TERMINAL, service_line_number: HELD_LINE });
/** Another terminal of the inventory, which the search for the held line must leave out. */
const otherRow = terminalRowWire({ user_terminal_id: 'ut-0100000002', service_line_number: 'SL-DF-3000-0002' });

interface FakeOptions {
  /** Status of each GET /billing/provider in turn (200 when the list runs out). */
  billingStatus?: number[];
  /** Status of each GET /billing/provider/invoices/:id in turn (200 when the list runs out). */
  invoiceStatus?: number[];
  profile?: AdminUser;
  /** The portal's provider accounts (absent: the list cannot be read, as with one account). */
  accounts?: Array<{ id: number; name: string }>;
}

/** The portal API as the page sees it, for the stored tokens "admin-token" and "customer-token". */
function fakePortalApi({ billingStatus = [], invoiceStatus = [], profile = adminProfile, accounts }: FakeOptions = {}) {
  const calls: string[] = [];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const ok = (data: unknown) => json(200, { success: true, message: 'ok', data });
  const fail = (status: number, message: string) => json(status, { success: false, message });
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const call = `${init?.method ?? 'GET'} ${url.pathname}`;
    // Like the real fetch: an aborted request rejects, a moment later, with an AbortError.
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    calls.push(`${call}${url.search}`);
    const token = new Headers(init?.headers).get('authorization')?.replace('Bearer ', '');
    if (token === 'customer-token') {
      if (call === 'GET /api/v1/customers/auth/me') return ok({ customer: customerProfile });
      // The server's own guard: no portal data for a customer.
      return fail(403, 'Administrators only');
    }
    if (token !== 'admin-token') return fail(401, 'Invalid or expired token');
    if (call === 'GET /api/v1/auth/me') return ok({ user: profile });
    if (call === 'GET /api/v1/provider-accounts/refs' && accounts) return ok(accounts);
    if (call === 'GET /api/v1/billing/provider') {
      const status = billingStatus.shift() ?? 200;
      return status === 200 ? ok(billing) : fail(status, 'Provider unavailable');
    }
    const invoice = /^\/api\/v1\/billing\/provider\/invoices\/([^/]+)$/.exec(url.pathname);
    if (invoice) {
      const status = invoiceStatus.shift() ?? 200;
      if (status !== 200) return fail(status, 'The provider did not answer in time');
      const found = invoices[decodeURIComponent(invoice[1]!)];
      return found ? ok(found) : fail(404, PROVIDER_BILLING_MESSAGES.invoiceNotFound);
    }
    if (call === 'GET /api/v1/subscriptions') return ok(subscriptionPage());
    if (call === 'GET /api/v1/terminals') {
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      const rows = [heldRow, otherRow].filter((row) => row.service_line_number!.toLowerCase().includes(search));
      return ok({ results: rows, totalCount: rows.length, page: 1, limit: 25 });
    }
    if (call === 'GET /api/v1/terminals/health') return ok(fleetHealth({ total: 1 }));
    if (call === 'GET /api/v1/terminals/sync/queue') return ok({ active: null, recent: [] });
    return fail(404, `Route not found: ${call}`);
  });
  /** How many times the balances and invoices were asked for. */
  const loads = () => calls.filter((c) => c === 'GET /api/v1/billing/provider').length;
  return { fetch, calls, loads };
}

function openBilling(options: FakeOptions = {}, path = PATH) {
  const api = fakePortalApi(options);
  const profile = options.profile ?? adminProfile;
  return { ...openSignedInAt(path, api.fetch, { profile }), api };
}

const invoicesTable = () => screen.findByRole('table', { name: T.invoicesTable });
const invoiceRow = (table: HTMLElement, invoiceId: string) => within(table).getByText(invoiceId).closest('tr')!;
const amountDue = () => screen.getByRole('region', { name: `${T.amountDue} (USD)` });

describe('the Provider Billing page', () => {
  it('shows the balance per currency and the invoices, newest first, from the API', async () => {
    const { api } = openBilling();
    expect(await screen.findByRole('heading', { level: 1, name: T.title })).toBeTruthy();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Subscriptions' }).getAttribute('href')).toBe('/subscription');
    const table = await invoicesTable();
    expect(amountDue().textContent).toContain('1234.50 USD');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByText(/^INV-/).textContent)).toEqual([NEWEST, OLDER]);
    const [open, paid] = rows.map((row) => row.textContent ?? '');
    expect(open).toContain('Mar 1, 2026');
    expect(open).toContain('Starlink service 2026-02');
    expect(open).toContain('Outstanding');
    expect(open).toContain('Mar 31, 2026');
    expect(paid).toContain('980.00 USD');
    expect(paid).toContain('0.00 USD');
    expect(paid).toContain('Paid');
    // One load (StrictMode starts nothing twice), and no invoice asked for before one is opened.
    expect(api.loads()).toBe(1);
    expect(api.calls.some((c) => c.includes('/billing/provider/invoices/'))).toBe(false);
  });

  it('an invoice opens in a dialog with its lines: a held line links to its terminal, a stray one is marked and warned about', async () => {
    const { user, api } = openBilling();
    const table = await invoicesTable();
    await user.click(within(invoiceRow(table, NEWEST)).getByRole('button', { name: `${T.view} ${NEWEST}` }));
    const dialog = within(await enteredDialog(T.invoiceHeader(NEWEST)));
    const lines = await dialog.findByRole('table', { name: T.linesTable });
    expect(dialog.getByText('Paid Amount').nextElementSibling?.textContent).toBe('0.00 USD');
    expect(dialog.getByText('Due Amount').nextElementSibling?.textContent).toBe('1234.50 USD');

    const [held, stray] = within(lines).getAllByRole('row').slice(1);
    expect(held!.textContent).toContain('Priority 1 TB');
    expect(held!.textContent).toContain('Feb 1, 2026 – Feb 28, 2026');
    expect(held!.textContent).toContain('250.00 USD');
    const link = within(held!).getByRole('link', { name: HELD_LINE });
    expect(link.getAttribute('href')).toBe(`/terminals?search=${HELD_LINE}`);
    expect(link.getAttribute('title')).toBe(`Terminal ${HELD_TERMINAL}`);
    expect(within(held!).queryByText(T.notInInventory)).toBeNull();

    // The line the inventory does not have is not a link, and says so; the dialog sums it up.
    expect(within(stray!).getByText(STRAY_LINE)).toBeTruthy();
    expect(within(stray!).queryByRole('link')).toBeNull();
    expect(within(stray!).getByText(T.notInInventory)).toBeTruthy();
    expect(dialog.getByText(T.unmatched(1, '88.00 USD'))).toBeTruthy();
    expect(api.calls).toContain(`GET /api/v1/billing/provider/invoices/${NEWEST}`);
  });

  it('Older steps to the next invoice in the dialog, whose lines are all held: no warning there; closing leaves the page', async () => {
    const { user } = openBilling();
    const table = await invoicesTable();
    await user.click(within(invoiceRow(table, NEWEST)).getByRole('button', { name: `${T.view} ${NEWEST}` }));
    const first = within(await enteredDialog(T.invoiceHeader(NEWEST)));
    await first.findByRole('table', { name: T.linesTable });
    expect(first.queryByRole('button', { name: T.newer })).toBeNull();
    await user.click(first.getByRole('button', { name: T.older }));

    const second = within(await screen.findByRole('dialog', { name: T.invoiceHeader(OLDER) }));
    await waitFor(() => expect(second.getByText('Paid Amount').nextElementSibling?.textContent).toBe('980.00 USD'));
    expect(within(second.getByRole('table', { name: T.linesTable })).getAllByRole('row')).toHaveLength(2);
    expect(second.queryByText(T.unmatched(1, '88.00 USD'))).toBeNull();
    expect(second.queryByRole('button', { name: T.older })).toBeNull();
    expect(second.getByRole('button', { name: T.newer })).toBeTruthy();

    await user.click(second.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('table', { name: T.invoicesTable })).toBeTruthy();
  });

  it('a held line’s link opens the terminals page searched for that line, listing its terminal', async () => {
    const { user, location, api } = openBilling();
    const table = await invoicesTable();
    await user.click(within(invoiceRow(table, NEWEST)).getByRole('button', { name: `${T.view} ${NEWEST}` }));
    const dialog = within(await enteredDialog(T.invoiceHeader(NEWEST)));
    await user.click(await dialog.findByRole('link', { name: HELD_LINE }));
    await waitFor(() => expect(location()).toBe(`/terminals?search=${HELD_LINE}`));
    expect(await screen.findByRole('heading', { level: 1, name: 'Terminal Management' })).toBeTruthy();
    expect((screen.getByRole('searchbox', { name: /search/i }) as HTMLInputElement).value).toBe(HELD_LINE);
    // The list shows the one terminal on the line: the one the invoice line named.
    expect(await screen.findByText(/Showing 1 of 1 terminals/)).toBeTruthy();
    expect(screen.getByText(HELD_TERMINAL)).toBeTruthy();
    expect(api.calls.some((c) => c.startsWith('GET /api/v1/terminals?') && c.includes(`search=${HELD_LINE}`))).toBe(true);
    // The invoice dialog went with its page.
    expect(screen.queryByRole('dialog', { name: T.invoiceHeader(NEWEST) })).toBeNull();
  });

  it('a failed load shows the error card with the server’s words, and Try Again loads the page', async () => {
    const { user, api } = openBilling({ billingStatus: [502] });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: T.loadFailedTitle })).toBeTruthy();
    expect(alert.textContent).toContain('Provider unavailable');
    expect(screen.queryByRole('table', { name: T.invoicesTable })).toBeNull();
    expect((screen.getByRole('button', { name: 'Refresh' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    const table = await invoicesTable();
    expect(within(table).getByText(NEWEST)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(api.loads()).toBe(2);
  });

  it('a failed refresh keeps the balances and invoices and says why; the next refresh clears it', async () => {
    const { user, api } = openBilling({ billingStatus: [200, 503] });
    const table = await invoicesTable();
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText(`${T.refreshFailed}Provider unavailable`)).toBeTruthy();
    expect(within(table).getByText(NEWEST)).toBeTruthy();
    expect(amountDue().textContent).toContain('1234.50 USD');
    expect(screen.queryByRole('heading', { name: T.loadFailedTitle })).toBeNull();

    await waitFor(() => expect((screen.getByRole('button', { name: 'Refresh' }) as HTMLButtonElement).disabled).toBe(false));
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(screen.queryByText(`${T.refreshFailed}Provider unavailable`)).toBeNull());
    expect(within(await invoicesTable()).getByText(NEWEST)).toBeTruthy();
    expect(api.loads()).toBe(3);
  });

  it('an invoice that fails to load says why in the dialog, and Try Again there shows its lines', async () => {
    const { user, api } = openBilling({ invoiceStatus: [504] });
    const table = await invoicesTable();
    await user.click(within(invoiceRow(table, NEWEST)).getByRole('button', { name: `${T.view} ${NEWEST}` }));
    const dialog = within(await enteredDialog(T.invoiceHeader(NEWEST)));
    const alert = await dialog.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: T.invoiceFailedTitle })).toBeTruthy();
    expect(alert.textContent).toContain('The provider did not answer in time');
    expect(dialog.queryByRole('table', { name: T.linesTable })).toBeNull();

    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await dialog.findByRole('table', { name: T.linesTable })).toBeTruthy();
    expect(dialog.queryByRole('heading', { name: T.invoiceFailedTitle })).toBeNull();
    expect(api.calls.filter((c) => c === `GET /api/v1/billing/provider/invoices/${NEWEST}`)).toHaveLength(2);
    // The page behind the dialog was not reloaded.
    expect(api.loads()).toBe(1);
  });

  it('the Subscriptions page’s "Provider Billing" link opens this page', async () => {
    const { user, location } = openBilling({}, '/subscription');
    const link = await screen.findByRole('link', { name: T.link });
    expect(link.getAttribute('href')).toBe(PATH);
    await user.click(link);
    await waitFor(() => expect(location()).toBe(PATH));
    expect(await screen.findByRole('heading', { level: 1, name: T.title })).toBeTruthy();
    expect(within(await invoicesTable()).getByText(NEWEST)).toBeTruthy();
  });

  it('with two provider accounts the header asks whose bill to read, and the second one\'s bill and invoices name it', async () => {
    const { user, api } = openBilling({ accounts: [{ id: 1, name: 'Demo US' }, { id: 2, name: 'Demo Brasil' }] });
    const picker = (await screen.findByLabelText('Account')) as HTMLInputElement;
    await waitFor(() => expect(api.calls).toContain('GET /api/v1/billing/provider?account_id=1'));
    expect(picker.value).toBe('Demo US');
    await user.click(picker.closest('.p-dropdown')!);
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Demo Brasil' }));
    await waitFor(() => expect(api.calls).toContain('GET /api/v1/billing/provider?account_id=2'));
    await user.click(within(invoiceRow(await invoicesTable(), NEWEST)).getByRole('button', { name: `${T.view} ${NEWEST}` }));
    await waitFor(() => expect(api.calls).toContain(`GET /api/v1/billing/provider/invoices/${NEWEST}?account_id=2`));
  });

  it('with one provider account there is no account to choose, and the bill is asked for as before', async () => {
    const { api } = openBilling({ accounts: [{ id: 1, name: 'Demo US' }] });
    await invoicesTable();
    await waitFor(() => expect(api.calls).toContain('GET /api/v1/provider-accounts/refs'));
    expect(screen.queryByLabelText('Account')).toBeNull();
    expect(api.calls.filter((c) => c.startsWith('GET /api/v1/billing/provider'))).toEqual(['GET /api/v1/billing/provider']);
  });

  it('a portal user who is not an administrator reads it too: the page guards customers, not roles', async () => {
    // The server lets any portal user read it (tests/server/authorization-matrix.ts: 'admin').
    const { user } = openBilling({ profile: userProfile });
    const table = await invoicesTable();
    expect(amountDue().textContent).toContain('1234.50 USD');
    await user.click(within(invoiceRow(table, NEWEST)).getByRole('button', { name: `${T.view} ${NEWEST}` }));
    const dialog = within(await enteredDialog(T.invoiceHeader(NEWEST)));
    expect(await dialog.findByRole('link', { name: HELD_LINE })).toBeTruthy();
  });

  it('a signed-in customer is sent to their own area, and the page asks for nothing', async () => {
    const api = fakePortalApi();
    localStorage.clear();
    localStorage.setItem(
      SESSION_STORAGE_KEY,
      serialisePersistedSession({ token: 'customer-token', profile: customerProfile, userType: 'customer', isAuthenticated: true }),
    );
    const history = createMemoryHistory({ initialEntries: [PATH] });
    renderStrict(<AppRoot app={createTestApp({ storage: localStorage, history, fetch: api.fetch as typeof globalThis.fetch })} />);
    await waitFor(() => expect(history.location.pathname).toBe('/my'));
    expect(screen.queryByRole('heading', { name: T.title })).toBeNull();
    expect(api.calls.some((c) => c.includes('/billing/provider'))).toBe(false);
  });
});
