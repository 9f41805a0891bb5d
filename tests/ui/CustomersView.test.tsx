import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { CustomersView, type CustomersViewProps } from '../../src/ui/customers/CustomersView';
import type { CustomerListItem, CustomerStats } from '../../src/domain/customers';
import { formatDate } from '../../src/ui/customers/format';
import { renderStrict } from './render';
import { customerFixture } from '../fixtures/customers';

const DAY = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY - 60_000).toISOString();

function customer(overrides: Partial<CustomerListItem>): CustomerListItem {
  return customerFixture({
    uuid: '00000000-0000-4000-8000-000000000000',
    name: 'Someone',
    email: 'someone@example.com',
    company: 'Some Co',
    updatedAt: '2026-01-02T03:04:05.000Z',
    ...overrides,
  });
}

const normalExpiry = inDays(200);
const rows: CustomerListItem[] = [
  customer({
    uuid: '7d3e9a41-5b2c-4d8e-9f10-2a3b4c5d6e7f',
    name: 'Nina Park',
    email: 'ops@northwind.example',
    company: 'Northwind Shipping',
    mfaEnabled: true,
    accountExpiresAt: normalExpiry,
    lastLogin: '2026-11-20T10:00:00.000Z',
  }),
  customer({
    uuid: '1a2b3c4d-0000-4000-8000-00000000beef',
    name: 'Omar Haddad',
    email: 'omar@contoso.example',
    company: 'Contoso Marine',
    blockedEnabled: true,
    blockedReason: 'Unpaid invoices since March',
    accountExpiresAt: inDays(-3),
  }),
  customer({
    uuid: '2b3c4d5e-0000-4000-8000-0000000000aa',
    name: 'Pia Lund',
    email: 'pia@fabrikam.example',
    company: 'Fabrikam Offshore',
    isActive: false,
    accountExpiresAt: inDays(5),
  }),
  customer({
    uuid: '3c4d5e6f-0000-4000-8000-0000000000bb',
    name: '<img src=x onerror="alert(1)">',
    email: 'xss@example.com',
    company: '<b>Bold</b> Ltd',
  }),
];

const stats: CustomerStats = { total: 23, active: 15, pending: 4, mfaEnabled: 7, blocked: 2, expiringSoon: 3, expired: 1 };

function renderView(props: Partial<CustomersViewProps> = {}) {
  const callbacks = {
    onSearchInput: vi.fn(),
    onStatusChange: vi.fn(),
    onPageChange: vi.fn(),
    onRetry: vi.fn(),
    onAddCustomer: vi.fn(),
    onAction: vi.fn(),
    onNavigate: vi.fn(),
  };
  const result = renderStrict(
    <CustomersView
      stats={stats}
      statsLoading={false}
      rows={rows}
      pagination={{ total: 23, page: 1, limit: 10, pages: 3 }}
      page={1}
      pageSize={10}
      loading={false}
      error={null}
      searchInput=""
      status="all"
      {...callbacks}
      {...props}
    />,
  );
  return { ...result, ...callbacks };
}

const table = () => screen.getByRole('table', { name: 'Customers' });
const rowOf = (text: string) => within(table()).getByText(text).closest('tr') as HTMLElement;

describe('CustomersView: header and stat cards', () => {
  it('is "Customer Management" under Home > Customers, with the total from the paging object and Add Customer', async () => {
    const { user, onAddCustomer, onNavigate } = renderView();
    expect(screen.getByRole('heading', { level: 1, name: 'Customer Management' })).toBeTruthy();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    await user.click(within(crumbs).getByRole('link', { name: 'Home' }));
    expect(onNavigate).toHaveBeenCalledWith('/home');
    expect(within(crumbs).getByText('Customers').getAttribute('aria-current')).toBe('page');
    expect(screen.getByText('23 customers in total')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add Customer' }));
    expect(onAddCustomer).toHaveBeenCalledOnce();
  });

  it('shows the six stat cards with their counts, and placeholders while they load', () => {
    const { rerender } = renderView();
    const cards = within(screen.getByRole('group', { name: 'Customer statistics' }));
    const value = (title: string) => cards.getByRole('region', { name: title }).querySelector('.stat-card-value')?.textContent;
    expect([
      value('Total Customers'),
      value('Active'),
      value('Pending'),
      value('MFA Enabled'),
      value('Blocked'),
      value('Expiring Soon'),
    ]).toEqual(['23', '15', '4', '7', '2', '3']);
    rerender(
      <CustomersView
        stats={null}
        statsLoading
        rows={rows}
        pagination={null}
        page={1}
        pageSize={10}
        loading={false}
        error={null}
        searchInput=""
        status="all"
        onSearchInput={vi.fn()}
        onStatusChange={vi.fn()}
        onPageChange={vi.fn()}
        onRetry={vi.fn()}
        onAddCustomer={vi.fn()}
        onAction={vi.fn()}
        onNavigate={vi.fn()}
      />,
    );
    expect(screen.getByRole('region', { name: 'Total Customers' }).getAttribute('aria-busy')).toBe('true');
    expect(document.querySelectorAll('.customers-stat-grid .stat-card-value')).toHaveLength(0);
  });
});

describe('CustomersView: the table', () => {
  it('has the spec columns and the caption "Showing X of Y customers"', () => {
    renderView();
    const headers = within(table())
      .getAllByRole('columnheader')
      .map((th) => th.textContent?.trim());
    expect(headers).toEqual(['Customer', 'Contact', 'Status', 'MFA', 'Account Expires', 'Last Login', 'Actions']);
    expect(screen.getByText('Showing 4 of 23 customers')).toBeTruthy();
  });

  it('shows company and uuid, name and email, status, MFA, expiry and last login for each row', () => {
    renderView();
    const nina = within(rowOf('Northwind Shipping'));
    expect(nina.getByText('7d3e9a41-5b2c-4d8e-9f10-2a3b4c5d6e7f')).toBeTruthy();
    expect(nina.getByText('Nina Park')).toBeTruthy();
    expect(nina.getByText('ops@northwind.example')).toBeTruthy();
    expect(nina.getByText('Active')).toBeTruthy();
    expect(nina.getByText('Enabled')).toBeTruthy();
    expect(nina.getByText(formatDate(normalExpiry))).toBeTruthy();
    expect(nina.queryByText('Never')).toBeNull();

    const omar = within(rowOf('Contoso Marine'));
    expect(omar.getByText('Blocked')).toBeTruthy();
    expect(omar.getByText('Unpaid invoices since March')).toBeTruthy();
    expect(omar.getByText('Expired')).toBeTruthy();
    expect(omar.getByText('Disabled')).toBeTruthy();
    expect(omar.getByText('Never')).toBeTruthy();

    const pia = within(rowOf('Fabrikam Offshore'));
    expect(pia.getByText('Pending')).toBeTruthy();
    expect(pia.getByText('Expiring Soon')).toBeTruthy();
    expect(pia.getByText('5 days left')).toBeTruthy();

    expect(within(rowOf('<b>Bold</b> Ltd')).getByText('No expiration set')).toBeTruthy();
  });

  it('shows HTML in a name or company as text, never as markup', () => {
    renderView();
    expect(within(table()).getByText('<img src=x onerror="alert(1)">')).toBeTruthy();
    expect(within(table()).getByText('<b>Bold</b> Ltd')).toBeTruthy();
    expect(table().querySelector('img')).toBeNull();
    expect(table().querySelector('b')).toBeNull();
  });

  it('pages by 10 through the paginator', async () => {
    const { user, onPageChange } = renderView();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(onPageChange).toHaveBeenCalledWith(2);
    await user.click(screen.getByRole('button', { name: 'Next Page' }));
    expect(onPageChange).toHaveBeenLastCalledWith(2);
  });

  it('starts the paginator at the page it is given', () => {
    renderView({ page: 3 });
    const current = screen.getByRole('button', { name: 'Page 3' });
    expect(current.getAttribute('aria-current')).toBe('true');
  });
});

describe('CustomersView: loading, empty and error states', () => {
  it('says "Loading customers..." on the first load', () => {
    renderView({ rows: [], pagination: null, loading: true });
    expect(screen.getByRole('status').textContent).toContain('Loading customers...');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('keeps the rows under a loading note while another page loads', () => {
    renderView({ loading: true });
    expect(screen.getByRole('status').textContent).toContain('Loading customers...');
    expect(within(table()).getByText('Northwind Shipping')).toBeTruthy();
  });

  it('shows the error card "Error loading customers" with Try Again', async () => {
    const { user, onRetry } = renderView({ error: 'Database unavailable' });
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Error loading customers' })).toBeTruthy();
    expect(alert.textContent).toContain('Database unavailable');
    expect(screen.queryByRole('table')).toBeNull();
    await user.click(within(alert).getByRole('button', { name: /Try Again/ }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('says no customer matches when a search finds none', () => {
    renderView({ rows: [], pagination: { total: 0, page: 1, limit: 10, pages: 0 }, searchInput: 'zzz' });
    expect(screen.getByText('No customers match the search or filter')).toBeTruthy();
    expect(screen.getByText('Showing 0 of 0 customers')).toBeTruthy();
  });
});

describe('CustomersView: search and status filter', () => {
  it('has a search box for name, email or company that reports what is typed', async () => {
    const { user, onSearchInput } = renderView({ searchInput: 'nor' });
    const box = screen.getByRole('searchbox', { name: 'Search customers' }) as HTMLInputElement;
    expect(box.placeholder).toBe('Search by name, email or company...');
    expect(box.value).toBe('nor');
    await user.type(box, 't');
    expect(onSearchInput).toHaveBeenLastCalledWith('nort');
  });

  it('offers the seven status choices and reports the one picked', async () => {
    const { user, onStatusChange } = renderView({ status: 'all' });
    const filter = screen.getByLabelText('Status filter') as HTMLInputElement;
    expect(filter.value).toBe('All Status');
    // PrimeReact's input is visually hidden; the visible dropdown around it takes the click.
    await user.click(filter.closest('.p-dropdown')!);
    const list = within(await screen.findByRole('listbox'));
    expect(list.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'All Status',
      'Active',
      'Pending',
      'Inactive',
      'Blocked',
      'Expiring Soon',
      'Expired',
    ]);
    await user.click(list.getByRole('option', { name: 'Blocked' }));
    expect(onStatusChange).toHaveBeenCalledWith('blocked');
  });
});

describe('CustomersView: row actions', () => {
  it('every row has an actions menu; each item reports its action with the row', async () => {
    const { user, onAction } = renderView();
    for (const [item, action] of [
      ['View Details', 'view'],
      ['Edit Customer', 'edit'],
      ['Account Settings', 'settings'],
      ['Manage Terminals', 'terminals'],
      ['Block Customer', 'block'],
    ] as const) {
      await user.click(screen.getByRole('button', { name: 'Actions for Nina Park' }));
      await user.click(await screen.findByRole('menuitem', { name: item }));
      expect(onAction).toHaveBeenLastCalledWith(action, rows[0]);
      await waitFor(() => expect(screen.queryByRole('menuitem', { name: item })).toBeNull());
    }
  });

  it('a blocked customer is offered Unblock instead of Block', async () => {
    const { user, onAction } = renderView();
    await user.click(screen.getByRole('button', { name: 'Actions for Omar Haddad' }));
    expect(screen.queryByRole('menuitem', { name: 'Block Customer' })).toBeNull();
    await user.click(await screen.findByRole('menuitem', { name: 'Unblock Customer' }));
    expect(onAction).toHaveBeenCalledWith('unblock', rows[1]);
  });
});
