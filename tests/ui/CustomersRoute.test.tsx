// The customers page through the whole client (composition root, router, session, the list,
// create and row-action machines, views) against a fake of the portal API at the fetch seam.
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { CUSTOMER_LINE_ENDING_MESSAGES, CUSTOMER_MESSAGES, type CustomerLineEnding, type CustomerListItem } from '../../src/domain/customers';
import { assignedPageOf, assignedTerminal } from '../fixtures/customer-terminals-client';
import type { AdminUser } from '../../src/domain/auth';
import { formatDate } from '../../src/ui/customers/format';
import { adminProfile, profileWith } from '../machines/fixtures';
import { locationOf, searchOf, validateCustomersSearch } from '../../src/routes/customers';
import { fill } from './fill';
import { openSignedInAt } from './open-app';

const DAY = 86_400_000;

function customer(n: number, overrides: Partial<CustomerListItem> = {}): CustomerListItem {
  const id = String(n).padStart(2, '0');
  return {
    uuid: `00000000-0000-4000-8000-0000000000${id}`,
    name: `Person ${id}`,
    email: `person${id}@example.com`,
    company: `Company ${id}`,
    phone: null,
    address: null,
    isActive: true,
    blockedEnabled: false,
    blockedReason: null,
    blockedAt: null,
    mfaEnabled: n % 3 === 0,
    accountExpiresAt: new Date(Date.now() + 200 * DAY).toISOString(),
    lastLogin: null,
    createdAt: new Date(Date.UTC(2026, 0, n)).toISOString(),
    updatedAt: new Date(Date.UTC(2026, 0, n)).toISOString(),
    hasPassword: true,
    ...overrides,
  };
}

function seed(): CustomerListItem[] {
  const list = Array.from({ length: 10 }, (_, i) => customer(i + 3));
  return [
    customer(1, { name: 'Nina Park', email: 'ops@northwind.example', company: 'Northwind Shipping', phone: '+1 555 0100' }),
    customer(2, {
      name: 'Omar Haddad',
      email: 'omar@contoso.example',
      company: 'Contoso Marine',
      blockedEnabled: true,
      blockedReason: 'Unpaid invoices',
      blockedAt: '2026-11-01T09:00:00.000Z',
    }),
    ...list,
  ];
}

interface FakeOptions {
  /**
   * How many of the seeded customers there are (all 12, two pages, unless told). Tests that need
   * no second page (the dialogs, the row actions, the status filter, a failed load) take only Nina
   * Park and Omar Haddad: the page renders its table again on every change, each row with it.
   */
  count?: number;
  /** Statuses of the next list answers (500 = the database failed). */
  listStatus?: number[];
  /** Create requests wait until released, to catch the dialog in "Creating Account...". */
  holdCreates?: boolean;
  /** Who is signed in (the fixture administrator unless told). */
  profile?: AdminUser;
  /** What a block that asks to end the customer's lines answers for them, as the server would. */
  lineEndings?: CustomerLineEnding[];
}

/** The customers API as the page sees it, for the stored admin token "admin-token". */
function fakePortalApi({ count, listStatus = [], holdCreates = false, profile = adminProfile, lineEndings = [] }: FakeOptions = {}) {
  const customers = seed().slice(0, count);
  const calls: string[] = [];
  const bodies: Array<[string, unknown]> = [];
  const aborted: string[] = [];
  const held: Array<() => void> = [];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const ok = (data: unknown, status = 200) => json(status, { success: true, message: 'ok', data });
  const fail = (status: number, message: string, errors?: unknown) => json(status, { success: false, message, ...(errors ? { errors } : {}) });
  const status = (c: CustomerListItem) => (c.blockedEnabled ? 'blocked' : c.isActive ? 'active' : 'pending');

  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const call = `${method} ${url.pathname}`;
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    if (holdCreates && call === 'POST /api/v1/customers') await new Promise<void>((resolve) => held.push(resolve));
    // Like the real fetch: an aborted request rejects, a moment later, with an AbortError.
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (init?.signal?.aborted) {
      aborted.push(`${call}${url.search}`);
      throw new DOMException('The operation was aborted.', 'AbortError');
    }
    calls.push(`${call}${url.search}`);
    if (body !== undefined) bodies.push([call, body]);
    const token = new Headers(init?.headers).get('authorization')?.replace('Bearer ', '');
    if (token !== 'admin-token') return fail(401, 'Invalid or expired token');

    if (call === 'GET /api/v1/auth/me') return ok({ user: profile });
    if (call === 'GET /api/v1/customers') {
      const code = listStatus.shift() ?? 200;
      if (code !== 200) return fail(code, 'Database unavailable');
      const q = url.searchParams;
      const search = (q.get('search') ?? '').toLowerCase();
      const filter = q.get('status');
      const page = Number(q.get('page') ?? 1);
      const limit = Number(q.get('limit') ?? 10);
      const matching = customers.filter(
        (c) =>
          (!search || [c.name, c.email, c.company].some((v) => v.toLowerCase().includes(search))) && (!filter || status(c) === filter),
      );
      return ok({
        customers: matching.slice((page - 1) * limit, page * limit),
        pagination: { total: matching.length, page, limit, pages: Math.ceil(matching.length / limit) },
      });
    }
    if (call === 'GET /api/v1/customers/stats') {
      return ok({
        total: customers.length,
        active: customers.filter((c) => status(c) === 'active').length,
        pending: customers.filter((c) => status(c) === 'pending').length,
        mfaEnabled: customers.filter((c) => c.mfaEnabled).length,
        blocked: customers.filter((c) => c.blockedEnabled).length,
        expiringSoon: 0,
        expired: 0,
      });
    }
    if (call === 'POST /api/v1/customers') {
      if (customers.some((c) => c.email === body.email)) return fail(409, CUSTOMER_MESSAGES.duplicateEmail);
      const created = customer(99, {
        uuid: '99999999-0000-4000-8000-000000000099',
        name: body.name,
        email: body.email,
        company: body.company,
        isActive: false,
        hasPassword: false,
        accountExpiresAt: new Date(Date.now() + body.expirationDays * DAY).toISOString(),
      });
      customers.unshift(created);
      return ok({ customer: created }, 201);
    }
    const owned = /^\/api\/v1\/terminals\/customers\/([^/]+)\/terminals\/page$/.exec(url.pathname);
    if (owned) {
      return ok(assignedPageOf([assignedTerminal({ deviceId: 'UT-1', serviceLine: 'AST-100001-20000-11', assignedTo: owned[1]!, kitSerialNumber: 'KIT1' })]));
    }
    if (call === 'POST /api/v1/terminals/customers/assign-terminals') {
      return ok({ assigned: body.serviceLineNumbers, failed: [], total: body.serviceLineNumbers.length });
    }
    const match = /^\/api\/v1\/customers\/([^/]+)(\/[a-z-]+)?$/.exec(url.pathname);
    const target = match ? customers.find((c) => c.uuid === decodeURIComponent(match[1]!)) : undefined;
    if (match && !target) return fail(404, CUSTOMER_MESSAGES.notFound);
    if (target) {
      const rest = match![2] ?? '';
      if (method === 'GET' && rest === '') return ok({ customer: target });
      if (method === 'GET' && rest === '/activity') {
        return ok([{ id: 'a1', action: 'customer.created', description: `${target.name} was added`, actorName: 'Ana Lima', createdAt: '2026-11-20T10:00:00.000Z' }]);
      }
      if (method === 'PUT' && rest === '') {
        // As the server: ending lines is the admin role's alone, and refused before anything changes.
        if (body.end_lines_at_cycle_end === true && profile.role !== 'admin') return fail(403, 'Only portal users with the admin role can do this.');
        if (body.email && customers.some((c) => c.email === body.email && c !== target)) return fail(409, CUSTOMER_MESSAGES.duplicateEmail);
        if ('name' in body) Object.assign(target, { name: body.name, email: body.email, company: body.company, phone: body.phone, address: body.address });
        if ('blocked_enabled' in body) {
          Object.assign(target, {
            blockedEnabled: body.blocked_enabled,
            blockedReason: body.blocked_reason,
            blockedAt: body.blocked_enabled ? new Date().toISOString() : null,
          });
        }
        return ok({ customer: target, lineEndings: body.end_lines_at_cycle_end === true ? lineEndings : [] });
      }
      if (method === 'PUT' && rest === '/extend') {
        target.accountExpiresAt = new Date(Date.parse(target.accountExpiresAt!) + body.days * DAY).toISOString();
        return ok({ customer: target });
      }
      if (method === 'POST' && rest === '/password-link') return ok({ sent: true });
    }
    return fail(404, `Route not found: ${call}`);
  });
  return { fetch, calls, bodies, aborted, customers, releaseCreates: () => held.splice(0).forEach((release) => release()) };
}

function openCustomers(path = '/customers', options: FakeOptions = {}) {
  const api = fakePortalApi(options);
  const listCalls = () => api.calls.filter((c) => c.startsWith('GET /api/v1/customers?'));
  return { ...openSignedInAt(path, api.fetch, options.profile ? { profile: options.profile } : {}), api, listCalls };
}

const table = () => screen.getByRole('table', { name: 'Customers' });
const rowOf = (text: string) => within(table()).getByText(text).closest('tr') as HTMLElement;
const dialog = (name: string) => screen.findByRole('dialog', { name });

async function openRowAction(user: ReturnType<typeof openCustomers>['user'], name: string, item: string) {
  await user.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  await user.click(await screen.findByRole('menuitem', { name: item }));
}

describe('the customers page: list, URL and stats', () => {
  it('an admin sees the first page, the stat cards and the caption; each page loads once', async () => {
    const { listCalls, api } = openCustomers();
    expect(await screen.findByText('Showing 10 of 12 customers')).toBeTruthy();
    expect(within(table()).getByText('Northwind Shipping')).toBeTruthy();
    expect(within(rowOf('Contoso Marine')).getByText('Unpaid invoices')).toBeTruthy();
    const total = within(screen.getByRole('region', { name: 'Total Customers' }));
    await waitFor(() => expect(total.getByText('12')).toBeTruthy());
    expect(screen.getByText('12 customers in total')).toBeTruthy();
    // StrictMode starts nothing twice.
    expect(listCalls()).toEqual(['GET /api/v1/customers?page=1&limit=10']);
    expect(api.calls.filter((c) => c.endsWith('/customers/stats'))).toHaveLength(1);
  });

  it('a shared link with page and status opens that page, and paging writes the page into the URL', async () => {
    const { user, listCalls, location, history } = openCustomers('/customers?page=2&status=active');
    expect(await screen.findByText('Showing 1 of 11 customers')).toBeTruthy();
    expect(listCalls()).toEqual(['GET /api/v1/customers?page=2&limit=10&is_active=true&status=active']);
    expect((screen.getByLabelText('Status filter') as HTMLInputElement).value).toBe('Active');

    await user.click(screen.getByRole('button', { name: 'Page 1' }));
    await waitFor(() => expect(location()).toBe('/customers?status=active'));
    expect(await screen.findByText('Showing 10 of 11 customers')).toBeTruthy();

    // Back in history is a URL change the list follows.
    history.back();
    await waitFor(() => expect(location()).toBe('/customers?page=2&status=active'));
    expect(await screen.findByText('Showing 1 of 11 customers')).toBeTruthy();
    expect(listCalls()).toHaveLength(3);
  });

  it('typing a search waits for the pause, resets to page 1 and puts the search in the URL', async () => {
    const { user, listCalls, location } = openCustomers('/customers?page=2');
    await screen.findByText('Showing 2 of 12 customers');
    // The keys follow one another without a pause between them, as a person's do: on a busy core
    // a render between two keys could outlast the search's 300 ms pause and send half a word.
    await user.setup({ delay: null }).type(screen.getByRole('searchbox', { name: 'Search customers' }), 'north');
    await waitFor(() => expect(location()).toBe('/customers?search=north'));
    expect(await screen.findByText('Showing 1 of 1 customers')).toBeTruthy();
    // One request for the typing, not one per key.
    expect(listCalls()).toEqual(['GET /api/v1/customers?page=2&limit=10', 'GET /api/v1/customers?page=1&limit=10&search=north']);
  });

  it('choosing a status filter loads page 1 of that status', async () => {
    const { user, location } = openCustomers('/customers', { count: 2 });
    await screen.findByText('Showing 2 of 2 customers');
    await user.click((screen.getByLabelText('Status filter') as HTMLElement).closest('.p-dropdown')!);
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Blocked' }));
    await waitFor(() => expect(location()).toBe('/customers?status=blocked'));
    expect(await screen.findByText('Showing 1 of 1 customers')).toBeTruthy();
    expect(within(table()).getByText('Contoso Marine')).toBeTruthy();
  });

  it('a failed load shows the error card and the toast, and Try Again loads the list', async () => {
    const { user } = openCustomers('/customers', { count: 2, listStatus: [500] });
    const card = await screen.findByRole('heading', { name: 'Error loading customers' });
    expect(card.closest('[role="alert"]')?.textContent).toContain('Database unavailable');
    expect(await screen.findByText('Failed to fetch customers: Database unavailable')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Try Again/ }));
    expect(await screen.findByText('Showing 2 of 2 customers')).toBeTruthy();
  });
});

describe('the customers page: Add New Customer', () => {
  it('validates, clears a message when its field is edited, creates, toasts for 5 s and refreshes the list and stats', async () => {
    const { user, api } = openCustomers('/customers', { holdCreates: true, count: 2 });
    await screen.findByText('Showing 2 of 2 customers');
    await user.click(screen.getByRole('button', { name: 'Add Customer' }));
    const form = await dialog('Add New Customer');
    expect(within(form).getByText(/secure password setup link will be sent to the customer's email address/)).toBeTruthy();
    expect((within(form).getByLabelText('Account Expiration (Days)') as HTMLInputElement).value).toBe('1 year (365 days)');

    await user.click(within(form).getByRole('button', { name: 'Create Customer Account' }));
    expect(within(form).getByText('Company name is required')).toBeTruthy();
    expect(within(form).getByText('Admin representative name is required')).toBeTruthy();
    expect(within(form).getByText('Admin email address is required')).toBeTruthy();

    await fill(user, within(form).getByLabelText('Company Name'), 'Tailspin Toys');
    expect(within(form).queryByText('Company name is required')).toBeNull();
    expect(within(form).getByText('Admin representative name is required')).toBeTruthy();
    await fill(user, within(form).getByLabelText('Full Name'), 'Tara Lee');
    await fill(user, within(form).getByLabelText('Email Address'), 'tara@tailspin');
    await user.click(within(form).getByRole('button', { name: 'Create Customer Account' }));
    expect(within(form).getByText('Please enter a valid email address')).toBeTruthy();
    await fill(user, within(form).getByLabelText('Email Address'), '.example');
    await user.click((within(form).getByLabelText('Account Expiration (Days)') as HTMLElement).closest('.p-dropdown')!);
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: '90 days' }));

    const listsBefore = api.calls.filter((c) => c.startsWith('GET /api/v1/customers?')).length;
    await user.click(within(form).getByRole('button', { name: 'Create Customer Account' }));
    const busy = await within(form).findByRole('button', { name: 'Creating Account...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect((within(form).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    api.releaseCreates();

    expect(await screen.findByText('Customer created successfully! Password setup link sent to tara@tailspin.example')).toBeTruthy();
    expect(screen.getByText('Tara Lee from Tailspin Toys has been added.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add New Customer' })).toBeNull());
    expect(api.bodies.find(([call]) => call === 'POST /api/v1/customers')?.[1]).toEqual({
      email: 'tara@tailspin.example',
      name: 'Tara Lee',
      company: 'Tailspin Toys',
      expirationDays: 90,
    });
    expect(await within(table()).findByText('Tailspin Toys')).toBeTruthy();
    expect(api.calls.filter((c) => c.startsWith('GET /api/v1/customers?')).length).toBe(listsBefore + 1);
    await waitFor(() => expect(api.calls.filter((c) => c.endsWith('/customers/stats'))).toHaveLength(2));
  });

  it('a duplicate email is shown on the email field with the failure toast, and Cancel closes', async () => {
    const { user } = openCustomers('/customers', { count: 2 });
    await screen.findByText('Showing 2 of 2 customers');
    await user.click(screen.getByRole('button', { name: 'Add Customer' }));
    const form = await dialog('Add New Customer');
    await fill(user, within(form).getByLabelText('Company Name'), 'Northwind Again');
    await fill(user, within(form).getByLabelText('Full Name'), 'Nina Again');
    await fill(user, within(form).getByLabelText('Email Address'), 'ops@northwind.example');
    await user.click(within(form).getByRole('button', { name: 'Create Customer Account' }));
    expect(await within(form).findByText(CUSTOMER_MESSAGES.duplicateEmail)).toBeTruthy();
    expect(await screen.findByText(`Failed to create customer: ${CUSTOMER_MESSAGES.duplicateEmail}`)).toBeTruthy();
    expect(within(form).getByLabelText('Email Address').getAttribute('aria-invalid')).toBe('true');
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add New Customer' })).toBeNull());
  });
});

describe('the customers page: row actions', () => {
  it('View Details shows every field and the activity', async () => {
    const { user } = openCustomers('/customers', { count: 2 });
    await openRowAction(user, 'Omar Haddad', 'View Details');
    const details = await dialog('Customer Details');
    expect(within(details).getByText('omar@contoso.example')).toBeTruthy();
    expect(within(details).getByText('Blocked Reason')).toBeTruthy();
    expect(within(details).getAllByText('Unpaid invoices').length).toBeGreaterThan(0);
    for (const label of ['Last Login', 'Created', 'Updated', 'Blocked At', 'Account Expires', 'Customer UUID']) {
      expect(within(details).getByText(label)).toBeTruthy();
    }
    expect(await within(details).findByText('Omar Haddad was added')).toBeTruthy();
    // The footer's Close (the header's close icon is named Close too).
    await user.click(within(details).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('Edit Customer saves the changes, toasts, and the row shows them', async () => {
    const { user, api } = openCustomers('/customers', { count: 2 });
    await openRowAction(user, 'Nina Park', 'Edit Customer');
    const form = await dialog('Edit Customer');
    const name = within(form).getByLabelText('Full Name') as HTMLInputElement;
    expect(name.value).toBe('Nina Park');
    await user.clear(name);
    await user.click(within(form).getByRole('button', { name: 'Save Changes' }));
    expect(within(form).getByText('Admin representative name is required')).toBeTruthy();
    await fill(user, name, 'Nina Park-Lee');
    expect(within(form).queryByText('Admin representative name is required')).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Nina Park-Lee has been updated')).toBeTruthy();
    expect(await within(table()).findByText('Nina Park-Lee')).toBeTruthy();
    expect(api.bodies.filter(([call]) => call.startsWith('PUT'))).toEqual([
      [
        `PUT /api/v1/customers/${api.customers.find((c) => c.company === 'Northwind Shipping')!.uuid}`,
        { name: 'Nina Park-Lee', email: 'ops@northwind.example', company: 'Northwind Shipping', phone: '+1 555 0100', address: null },
      ],
    ]);
  });

  it('Edit Customer shows a duplicate email on the field', async () => {
    const { user } = openCustomers('/customers', { count: 2 });
    await openRowAction(user, 'Nina Park', 'Edit Customer');
    const form = await dialog('Edit Customer');
    const email = within(form).getByLabelText('Email Address');
    await user.clear(email);
    await fill(user, email, 'omar@contoso.example');
    await user.click(within(form).getByRole('button', { name: 'Save Changes' }));
    expect(await within(form).findByText(CUSTOMER_MESSAGES.duplicateEmail)).toBeTruthy();
  });

  it('Block asks for a reason, confirms, blocks, and the row shows Blocked with the reason; Unblock confirms and restores it', async () => {
    const { user, api } = openCustomers('/customers', { count: 2 });
    await openRowAction(user, 'Nina Park', 'Block Customer');
    const block = await dialog('Block Customer');
    await user.click(within(block).getByRole('button', { name: 'Continue' }));
    expect(within(block).getByText(CUSTOMER_MESSAGES.blockReasonRequired)).toBeTruthy();
    await fill(user, within(block).getByLabelText('Reason'), 'Chargeback on the <b>March</b> invoice');
    await user.click(within(block).getByRole('button', { name: 'Continue' }));
    expect(within(block).getByText('Chargeback on the <b>March</b> invoice')).toBeTruthy();
    await user.click(within(block).getByRole('button', { name: 'Block Customer' }));
    expect(await screen.findByText('Nina Park has been blocked')).toBeTruthy();
    const row = await waitFor(() => {
      const r = rowOf('Northwind Shipping');
      expect(within(r).getByText('Blocked')).toBeTruthy();
      return r;
    });
    expect(within(row).getByText('Chargeback on the <b>March</b> invoice')).toBeTruthy();
    expect(api.bodies.at(-1)).toEqual([expect.stringMatching(/^PUT \/api\/v1\/customers\//), { blocked_enabled: true, blocked_reason: 'Chargeback on the <b>March</b> invoice' }]);

    await openRowAction(user, 'Nina Park', 'Unblock Customer');
    const unblock = await dialog('Unblock Customer');
    await user.click(within(unblock).getByRole('button', { name: 'Unblock Customer' }));
    expect(await screen.findByText('Nina Park has been unblocked')).toBeTruthy();
    await waitFor(() => expect(within(rowOf('Northwind Shipping')).getByText('Active')).toBeTruthy());
    expect(api.bodies.at(-1)?.[1]).toEqual({ blocked_enabled: false, blocked_reason: null });
    // Each change refreshed the stats.
    await waitFor(() => expect(api.calls.filter((c) => c.endsWith('/customers/stats'))).toHaveLength(3));
  });

  it('an admin blocks and also ends their lines: the flag goes with the block, the toasts say how many will end and which could not', async () => {
    const { user, api } = openCustomers('/customers', {
      count: 2,
      lineEndings: [
        { serviceLineNumber: 'AST-100001-20000-11', outcome: 'scheduled' },
        { serviceLineNumber: 'AST-100002-20000-11', outcome: 'scheduled' },
        { serviceLineNumber: 'AST-100003-20000-11', outcome: 'failed', message: 'Service line AST-100003-20000-11 is not active' },
      ],
    });
    await openRowAction(user, 'Nina Park', 'Block Customer');
    const block = await dialog('Block Customer');
    await fill(user, within(block).getByLabelText('Reason'), 'Chargeback');
    const box = within(block).getByRole('checkbox', { name: CUSTOMER_LINE_ENDING_MESSAGES.option }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    await user.click(box);
    await waitFor(() => expect(box.checked).toBe(true));
    await user.click(within(block).getByRole('button', { name: 'Continue' }));
    expect(within(block).getByText(CUSTOMER_LINE_ENDING_MESSAGES.confirmNote)).toBeTruthy();
    await user.click(within(block).getByRole('button', { name: 'Block Customer' }));
    expect(await screen.findByText('Nina Park has been blocked; 2 service lines will end at the end of the billing cycle')).toBeTruthy();
    expect(
      await screen.findByText('Service line AST-100003-20000-11 could not be set to end: Service line AST-100003-20000-11 is not active'),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Block Customer' })).toBeNull());
    await waitFor(() => expect(within(rowOf('Northwind Shipping')).getByText('Blocked')).toBeTruthy());
    expect(api.bodies.at(-1)).toEqual([
      expect.stringMatching(/^PUT \/api\/v1\/customers\//),
      { blocked_enabled: true, blocked_reason: 'Chargeback', end_lines_at_cycle_end: true },
    ]);
  });

  it('a portal user who manages customers but not the lifecycle may block, but is not offered to end the lines', async () => {
    const { user, api } = openCustomers('/customers', { count: 2, profile: profileWith(['customers:manage', 'terminals:read']) });
    await openRowAction(user, 'Nina Park', 'Block Customer');
    const block = await dialog('Block Customer');
    await fill(user, within(block).getByLabelText('Reason'), 'Chargeback');
    expect(within(block).queryByRole('checkbox')).toBeNull();
    expect(within(block).queryByText(CUSTOMER_LINE_ENDING_MESSAGES.option)).toBeNull();
    await user.click(within(block).getByRole('button', { name: 'Continue' }));
    await user.click(within(block).getByRole('button', { name: 'Block Customer' }));
    expect(await screen.findByText('Nina Park has been blocked')).toBeTruthy();
    expect(api.bodies.at(-1)?.[1]).toEqual({ blocked_enabled: true, blocked_reason: 'Chargeback' });
  });

  it('Account Settings extends the expiry by the chosen days, shows the new date, and resends the link', async () => {
    const { user, api } = openCustomers('/customers', { count: 2 });
    await openRowAction(user, 'Nina Park', 'Account Settings');
    const settings = await dialog('Account Settings');
    const nina = api.customers.find((c) => c.company === 'Northwind Shipping')!;
    const before = Date.parse(nina.accountExpiresAt!);
    await user.click((within(settings).getByLabelText('Extend by') as HTMLElement).closest('.p-dropdown')!);
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: '90 days' }));
    await user.click(within(settings).getByRole('button', { name: 'Extend Account' }));
    const newDate = formatDate(new Date(before + 90 * DAY).toISOString());
    expect(await within(settings).findByText(`Extended by 90 days. The account now expires on ${newDate}.`)).toBeTruthy();
    expect(await screen.findByText('Account extended by 90 days')).toBeTruthy();
    expect(api.bodies.at(-1)).toEqual([`PUT /api/v1/customers/${nina.uuid}/extend`, { days: 90 }]);

    await user.click(within(settings).getByRole('button', { name: 'Resend password link' }));
    expect(await screen.findByText('Password setup link sent to ops@northwind.example')).toBeTruthy();
    expect(api.calls).toContain(`POST /api/v1/customers/${nina.uuid}/password-link`);
  });

  it('Manage Terminals opens the customer terminal usage page', async () => {
    const { user, location } = openCustomers('/customers', { count: 2 });
    await openRowAction(user, 'Nina Park', 'Manage Terminals');
    await waitFor(() => expect(location()).toBe('/customer/terminals/00000000-0000-4000-8000-000000000001'));
  });

  it('Assign Terminals in the row menu opens the dialog for that customer and assigns the lines typed', async () => {
    const { user, api } = openCustomers('/customers', { count: 2 });
    await openRowAction(user, 'Nina Park', 'Assign Terminals');
    const dialog = await screen.findByRole('dialog', { name: 'Assign Terminals' });
    expect(within(dialog).getByText('00000000-0000-4000-8000-000000000001')).toBeTruthy();
    expect(await within(dialog).findByText('1 terminal currently assigned')).toBeTruthy();
    await user.click(within(dialog).getByLabelText('Service Line Numbers'));
    await user.paste('AST-100002-20000-11 AST-100003-20000-11');
    await user.click(within(dialog).getByRole('button', { name: 'Assign Terminals' }));
    expect(await within(dialog).findByText('2 terminals assigned')).toBeTruthy();
    expect(api.bodies.at(-1)).toEqual([
      'POST /api/v1/terminals/customers/assign-terminals',
      { customerUuid: '00000000-0000-4000-8000-000000000001', serviceLineNumbers: ['AST-100002-20000-11', 'AST-100003-20000-11'] },
    ]);
  });
});

describe('the customers URL', () => {
  it('keeps only sensible page, search and status values, and leaves defaults out', () => {
    expect(validateCustomersSearch({ page: '3', search: '  acme ', status: 'blocked' })).toEqual({ page: 3, search: 'acme', status: 'blocked' });
    expect(validateCustomersSearch({ page: 'abc', search: '   ', status: 'bogus' })).toEqual({});
    expect(validateCustomersSearch({ page: 1, status: 'all' })).toEqual({});
    expect(validateCustomersSearch({ page: -2 })).toEqual({});
    expect(validateCustomersSearch({ page: 2.5 })).toEqual({});
    expect(validateCustomersSearch({ search: 'x'.repeat(150) }).search).toHaveLength(100);
    expect(locationOf({})).toEqual({ page: 1, search: '', status: 'all' });
    expect(searchOf({ page: 1, search: '', status: 'all' })).toEqual({});
    expect(searchOf({ page: 4, search: 'north', status: 'expiring_soon' })).toEqual({ page: 4, search: 'north', status: 'expiring_soon' });
  });

  it('an unreadable address still opens the page on its defaults', async () => {
    const { listCalls } = openCustomers('/customers?page=zero&status=everything', { count: 2 });
    expect(await screen.findByText('Showing 2 of 2 customers')).toBeTruthy();
    expect(listCalls()).toEqual(['GET /api/v1/customers?page=1&limit=10']);
  });
});
