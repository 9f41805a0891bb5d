import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { TERMINAL_MESSAGES, type TerminalListItem } from '../../src/domain/terminals';
import { ADD_TERMINAL_HINT, TerminalsView, type TerminalsViewProps } from '../../src/ui/terminals/TerminalsView';
import { signalGrade } from '../../src/ui/terminals/format';
import { fleetHealth, syncJob, terminalItem } from '../fixtures/terminals-ui';
import { renderStrict } from './render';

const NOW = Date.parse('2026-11-20T10:05:00.000Z');

const rows: TerminalListItem[] = [
  terminalItem({
    userTerminalId: 'UT-0001',
    serviceLineNumber: 'AST-0001',
    assignedTo: '7d3e9a41-5b2c-4d8e-9f10-2a3b4c5d6e7f',
    assignedToCustomer: 'Northwind Shipping',
  }),
  terminalItem({ userTerminalId: 'UT-0002', serviceLineNumber: 'AST-0002', assignedTo: 'c0ffee00-0000-4000-8000-000000000002', syncStatus: 'pending' }),
  terminalItem({ userTerminalId: 'UT-0003', serviceLineNumber: 'AST-0003', active: false, syncStatus: 'error' }),
];

function renderView(props: Partial<TerminalsViewProps> = {}) {
  const callbacks = {
    onSearch: vi.fn(),
    onStatus: vi.fn(),
    onAccount: vi.fn(),
    onPage: vi.fn(),
    onRetry: vi.fn(),
    onRefresh: vi.fn(),
    onSync: vi.fn(),
    onDismissNotice: vi.fn(),
    onOpen: vi.fn(),
    onNavigate: vi.fn(),
  };
  const all: TerminalsViewProps = {
    health: fleetHealth(),
    healthLoading: false,
    rows,
    totalCount: 60,
    page: 1,
    limit: 25,
    loading: false,
    error: null,
    search: '',
    status: 'all',
    account: null,
    syncing: false,
    syncNotice: null,
    lastSync: null,
    now: NOW,
    ...callbacks,
    ...props,
  };
  const result = renderStrict(<TerminalsView {...all} />);
  return { ...result, ...callbacks, rerenderWith: (more: Partial<TerminalsViewProps>) => result.rerender(<TerminalsView {...all} {...more} />) };
}

const table = () => screen.getByRole('table', { name: 'Terminals List' });
const rowOf = (serviceLine: string) => within(table()).getByText(serviceLine).closest('tr') as HTMLElement;
const card = (title: string) => within(screen.getByRole('group', { name: 'Terminal summary' })).getByRole('region', { name: title });
const fact = (container: HTMLElement, label: string) => within(container).getByText(label, { selector: 'dt' }).nextElementSibling as HTMLElement;
const syncButton = () => screen.getByRole('button', { name: /^(Sync from the provider|Syncing\.\.\.)$/ }) as HTMLButtonElement;

describe('TerminalsView: header', () => {
  it('is "Terminal Management" under Home > Terminals, with the inventory total as subtitle', async () => {
    const { user, onNavigate } = renderView();
    expect(screen.getByRole('heading', { level: 1, name: 'Terminal Management' })).toBeTruthy();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    await user.click(within(crumbs).getByRole('link', { name: 'Home' }));
    expect(onNavigate).toHaveBeenCalledWith('/home');
    expect(within(crumbs).getByText('Terminals').getAttribute('aria-current')).toBe('page');
    expect(screen.getByText('1,234 terminals in total')).toBeTruthy();
  });

  it('shows the synced count always, and pending and errors only when above 0', () => {
    const { rerenderWith } = renderView();
    const counts = () => screen.getByLabelText('Sync status counts').textContent;
    expect(counts()).toBe('1,200 synced');
    rerenderWith({ health: fleetHealth({ sync: { synced: 1190, pending: 7, error: 1 } }) });
    expect(counts()).toBe('1,190 synced7 pending1 error');
    rerenderWith({ health: fleetHealth({ sync: { synced: 1190, pending: 0, error: 3 } }) });
    expect(counts()).toBe('1,190 synced3 errors');
  });

  it('"Sync from the provider" asks for a sync; while syncing it reads "Syncing..." and is disabled', async () => {
    const { user, onSync, rerenderWith } = renderView();
    expect(syncButton().textContent).toContain('Sync from the provider');
    expect(syncButton().disabled).toBe(false);
    await user.click(syncButton());
    expect(onSync).toHaveBeenCalledOnce();
    rerenderWith({ syncing: true });
    expect(syncButton().textContent).toContain('Syncing...');
    expect(syncButton().disabled).toBe(true);
  });

  it('"Add Terminal" opens the activation wizard, and is not shown without its callback (not an administrator)', async () => {
    const onAddTerminal = vi.fn();
    const { unmount, user } = renderView({ onAddTerminal });
    const add = screen.getByRole('button', { name: 'Add Terminal' }) as HTMLButtonElement;
    expect(add.disabled).toBe(false);
    expect(document.getElementById(add.getAttribute('aria-describedby')!)?.textContent).toBe(ADD_TERMINAL_HINT);
    await user.click(add);
    expect(onAddTerminal).toHaveBeenCalledOnce();
    unmount();
    renderView();
    expect(screen.queryByRole('button', { name: 'Add Terminal' })).toBeNull();
  });
});

describe('TerminalsView: sync notices', () => {
  it('while a sync runs, a "Background Sync Running" card shows the sync message', () => {
    renderView({ syncing: true, syncNotice: { kind: 'running', text: TERMINAL_MESSAGES.syncStarted } });
    const running = screen.getByRole('status', { name: 'Background Sync Running' });
    expect(running.classList.contains('sync-running-card')).toBe(true);
    expect(running.textContent).toContain(TERMINAL_MESSAGES.syncStarted);
    expect(within(running).queryByRole('button', { name: 'Dismiss' })).toBeNull();
  });

  it('an "already running" answer is an informational notice that can be dismissed', async () => {
    const { user, onDismissNotice } = renderView({ syncNotice: { kind: 'info', text: TERMINAL_MESSAGES.syncAlreadyRunning } });
    expect(screen.queryByRole('status', { name: 'Background Sync Running' })).toBeNull();
    const notice = screen.getByText(TERMINAL_MESSAGES.syncAlreadyRunning).closest('.terminal-notice') as HTMLElement;
    expect(notice.classList.contains('terminal-notice-info')).toBe(true);
    expect(notice.getAttribute('role')).toBe('status');
    await user.click(within(notice).getByRole('button', { name: 'Dismiss' }));
    expect(onDismissNotice).toHaveBeenCalledOnce();
  });

  it('a failed start is an alert; a finished sync a success message', () => {
    const { rerenderWith } = renderView({ syncNotice: { kind: 'error', text: TERMINAL_MESSAGES.syncFailed('provider down') } });
    expect(screen.getByRole('alert').textContent).toContain('Failed to start sync: provider down');
    rerenderWith({ syncNotice: { kind: 'success', text: 'Sync finished: 3 added' } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('Sync finished: 3 added').closest('.terminal-notice')?.classList.contains('terminal-notice-success')).toBe(true);
  });
});

describe('TerminalsView: summary cards', () => {
  it('show the fleet figures from the health answer', () => {
    renderView();
    const total = card('Total Terminals');
    expect(total.querySelector('.stat-card-value')?.textContent).toBe('1,234');
    expect(fact(total, 'Priority').textContent).toBe('200');
    expect(fact(total, 'Standard').textContent).toBe('1,034');
    const status = card('Terminal Status');
    expect(['Active', 'Warning', 'Maintenance', 'Inactive'].map((label) => fact(status, label).textContent)).toEqual(['1,100', '40', '6', '88']);
    const network = card('Network Health');
    expect(fact(network, 'Signal Quality').textContent).toBe('92% (Excellent)');
    expect(fact(network, 'Network Uptime').textContent).toBe('97%');
    const usage = card('Data Usage');
    expect(usage.querySelector('.stat-card-value')?.textContent).toBe('2.0 TB');
    expect(fact(usage, 'Priority Lines').textContent).toBe('31%');
  });

  it('writes usage in GB with one decimal below 1024 GB, and in TB from 1024 GB', () => {
    const { rerenderWith } = renderView({ health: fleetHealth({ monthlyUsageGB: 1023.9 }) });
    const figure = () => card('Data Usage').querySelector('.stat-card-value')?.textContent;
    expect(figure()).toBe('1023.9 GB');
    rerenderWith({ health: fleetHealth({ monthlyUsageGB: 1024 }) });
    expect(figure()).toBe('1.0 TB');
  });

  it.each([
    [95, 'signal-excellent'],
    [90, 'signal-excellent'],
    [89, 'signal-good'],
    [80, 'signal-good'],
    [79, 'signal-warning'],
    [70, 'signal-warning'],
    [69, 'signal-critical'],
  ])('colours an average signal of %s percent with %s', (quality, className) => {
    renderView({ health: fleetHealth({ averageSignalQuality: quality }) });
    expect(fact(card('Network Health'), 'Signal Quality').className).toBe(className);
  });

  it('signalGrade: 90 or more excellent, 80 good, 70 warning, below 70 critical', () => {
    expect([100, 90, 89.9, 80, 79.9, 70, 69.9, 0].map(signalGrade)).toEqual([
      'excellent',
      'excellent',
      'good',
      'good',
      'warning',
      'warning',
      'critical',
      'critical',
    ]);
  });

  it('show dashes while loading, and for figures the inventory cannot give yet', () => {
    const { rerenderWith } = renderView({ health: null, healthLoading: true });
    expect(card('Total Terminals').getAttribute('aria-busy')).toBe('true');
    expect(fact(card('Total Terminals'), 'Priority').textContent).toBe('—');
    expect(fact(card('Network Health'), 'Signal Quality').textContent).toBe('—');
    rerenderWith({
      health: fleetHealth({ averageSignalQuality: null, networkUptime: null, monthlyUsageGB: null, priorityShare: null }),
      healthLoading: false,
    });
    expect(fact(card('Network Health'), 'Signal Quality').textContent).toBe('—');
    expect(fact(card('Network Health'), 'Network Uptime').textContent).toBe('—');
    expect(card('Data Usage').querySelector('.stat-card-value')?.textContent).toBe('—');
    expect(fact(card('Data Usage'), 'Priority Lines').textContent).toBe('—');
    expect(card('Total Terminals').querySelector('.stat-card-value')?.textContent).toBe('1,234');
  });
});

describe('TerminalsView: search and status filter', () => {
  it('has the spec placeholder, a length limit, and reports what is typed', async () => {
    const { user, onSearch } = renderView({ search: 'ast' });
    const box = screen.getByRole('searchbox', { name: 'Search terminals' }) as HTMLInputElement;
    expect(box.placeholder).toBe('Search terminals by ID, kit serial, dish serial, or service line');
    expect(box.maxLength).toBe(100);
    expect(box.value).toBe('ast');
    await user.type(box, '-');
    expect(onSearch).toHaveBeenLastCalledWith('ast-');
  });

  it('offers All Status, Active and Inactive and reports the one picked', async () => {
    const { user, onStatus } = renderView();
    const filter = screen.getByLabelText('Status filter') as HTMLInputElement;
    expect(filter.value).toBe('All Status');
    await user.click(filter.closest('.p-dropdown')!);
    const list = within(await screen.findByRole('listbox'));
    expect(list.getAllByRole('option').map((o) => o.textContent)).toEqual(['All Status', 'Active', 'Inactive']);
    await user.click(list.getByRole('option', { name: 'Inactive' }));
    expect(onStatus).toHaveBeenCalledWith('inactive');
  });
});

describe('TerminalsView: the table', () => {
  it('is "Terminals List" with the spec columns and the caption "Showing X of Y terminals from local database"', () => {
    renderView();
    expect(screen.getByRole('heading', { level: 2, name: 'Terminals List' })).toBeTruthy();
    expect(within(table()).getAllByRole('columnheader').map((th) => th.textContent?.trim())).toEqual([
      'Service Line Number',
      'Owner',
      'Status',
      'Actions',
    ]);
    expect(screen.getByText('Showing 3 of 60 terminals from local database')).toBeTruthy();
  });

  it('adds the last sync counts and when it finished to the caption', () => {
    const { rerenderWith } = renderView({ lastSync: syncJob() });
    expect(screen.getByText('Last sync: 3 added, 2 updated, 150 unchanged, 1 removed, finished 5 minutes ago')).toBeTruthy();
    rerenderWith({ lastSync: syncJob({ counts: { added: 0, updated: 1, unchanged: 10, removed: 0, failed: 2 } }) });
    expect(screen.getByText('Last sync: 0 added, 1 updated, 10 unchanged, 0 removed, 2 failed, finished 5 minutes ago')).toBeTruthy();
    rerenderWith({ lastSync: syncJob({ status: 'running', phase: 'Reading user terminals (page 3)', finishedAt: null }) });
    expect(screen.getByText('Sync in progress: Reading user terminals (page 3)')).toBeTruthy();
  });

  it('shows the service line with the terminal id beneath', () => {
    renderView();
    const cell = within(rowOf('AST-0001')).getByText('UT-0001');
    expect(cell.classList.contains('cell-secondary')).toBe(true);
  });

  it('owner: the customer name over its id; "Customer" with the id when only the id is known; else "Unassigned"', () => {
    renderView();
    const named = within(rowOf('AST-0001'));
    expect(named.getByText('Northwind Shipping')).toBeTruthy();
    expect(named.getByText('7d3e9a41-5b2c-4d8e-9f10-2a3b4c5d6e7f')).toBeTruthy();
    const idOnly = within(rowOf('AST-0002'));
    expect(idOnly.getByText('Customer')).toBeTruthy();
    expect(idOnly.getByText('c0ffee00-0000-4000-8000-000000000002')).toBeTruthy();
    const none = rowOf('AST-0003');
    expect(within(none).getByText('Unassigned')).toBeTruthy();
  });

  it('status: Active or Inactive, and a sync badge only when the row is not synced', () => {
    renderView();
    expect(within(rowOf('AST-0001')).getByText('Active')).toBeTruthy();
    expect(rowOf('AST-0001').querySelector('.sync-badge')).toBeNull();
    expect(within(rowOf('AST-0002')).getByText('Sync pending')).toBeTruthy();
    expect(within(rowOf('AST-0003')).getByText('Inactive')).toBeTruthy();
    expect(within(rowOf('AST-0003')).getByText('Sync error')).toBeTruthy();
  });

  it('both row actions open the terminal (the Usage one on its tab), once each', async () => {
    const { user, onOpen } = renderView();
    await user.click(screen.getByRole('button', { name: 'View details of AST-0002' }));
    expect(onOpen).toHaveBeenCalledTimes(1);
    expect(onOpen).toHaveBeenLastCalledWith(rows[1]);
    await user.click(screen.getByRole('button', { name: 'Usage of AST-0002' }));
    expect(onOpen).toHaveBeenCalledTimes(2);
    expect(onOpen).toHaveBeenLastCalledWith(rows[1], 'usage');
  });

  it('clicking a row opens its terminal', async () => {
    const { user, onOpen } = renderView();
    await user.click(within(rowOf('AST-0003')).getByText('Unassigned'));
    expect(onOpen).toHaveBeenCalledOnce();
    expect(onOpen).toHaveBeenCalledWith(rows[2]);
  });

  it('pages on the server: rows = limit, total from totalCount, and reports the 1-based page', async () => {
    const { user, onPage } = renderView();
    expect(screen.getByRole('button', { name: 'Page 3' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Page 4' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(onPage).toHaveBeenCalledWith(2);
    await user.click(screen.getByRole('button', { name: 'Next Page' }));
    expect(onPage).toHaveBeenLastCalledWith(2);
  });

  it('starts the paginator at the page it is given', () => {
    renderView({ page: 3 });
    expect(screen.getByRole('button', { name: 'Page 3' }).getAttribute('aria-current')).toBe('true');
  });

  it('Refresh asks to reload the list', async () => {
    const { user, onRefresh } = renderView();
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(onRefresh).toHaveBeenCalledOnce();
  });

  it('says no terminal matches when a search finds none', () => {
    renderView({ rows: [], totalCount: 0, search: 'zzz' });
    expect(screen.getByText('No terminals match the search or filter')).toBeTruthy();
    expect(screen.getByText('Showing 0 of 0 terminals from local database')).toBeTruthy();
  });

  it('shows HTML in a customer name as text, never as markup', () => {
    renderView({ rows: [terminalItem({ assignedTo: 'x-1', assignedToCustomer: '<img src=x onerror="alert(1)">' })] });
    expect(within(table()).getByText('<img src=x onerror="alert(1)">')).toBeTruthy();
    expect(table().querySelector('img')).toBeNull();
  });
});

describe('TerminalsView: loading and error', () => {
  it('says "Loading terminals from local database..." on the first load', () => {
    renderView({ rows: [], totalCount: 0, loading: true });
    expect(screen.getByRole('status').textContent).toContain('Loading terminals from local database...');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('keeps the rows under the loading note while another page loads, with Refresh disabled', () => {
    renderView({ loading: true });
    expect(screen.getByRole('status').textContent).toContain('Loading terminals from local database...');
    expect(within(table()).getByText('AST-0001')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Refresh' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows "Error loading terminals" with the message and Try Again', async () => {
    const { user, onRetry } = renderView({ error: TERMINAL_MESSAGES.fetchFailed('Database unavailable') });
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Error loading terminals' })).toBeTruthy();
    expect(alert.textContent).toContain('Failed to fetch terminals: Database unavailable');
    expect(screen.queryByRole('table')).toBeNull();
    await user.click(within(alert).getByRole('button', { name: /Try Again/ }));
    expect(onRetry).toHaveBeenCalledOnce();
  });
});

describe('TerminalsView: provider accounts', () => {
  const accounts = [
    { id: 1, name: 'Demo US' },
    { id: 2, name: 'Demo Brasil' },
  ];

  it('with the accounts given, an Account column names each row\'s account and the Account filter reports the one picked', async () => {
    const { user, onAccount } = renderView({
      accounts,
      rows: [rows[0]!, { ...rows[1]!, accountId: 2, accountName: 'Demo Brasil' }],
    });
    expect(screen.getByRole('columnheader', { name: 'Account' })).toBeTruthy();
    expect(within(rowOf('AST-0001')).getByText('Demo US')).toBeTruthy();
    expect(within(rowOf('AST-0002')).getByText('Demo Brasil')).toBeTruthy();
    const filter = screen.getByLabelText('Account') as HTMLInputElement;
    expect(filter.value).toBe('All accounts');
    await user.click(filter.closest('.p-dropdown')!);
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Demo Brasil' }));
    expect(onAccount).toHaveBeenCalledWith(2);
  });

  it('without them the table and filters are as with one account', () => {
    renderView();
    expect(screen.queryByRole('columnheader', { name: 'Account' })).toBeNull();
    expect(screen.queryByLabelText('Account')).toBeNull();
  });
});
