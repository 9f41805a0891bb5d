import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import {
  ASSIGN_MESSAGES,
  CUSTOMER_USAGE_MESSAGES,
  CUSTOMER_USAGE_PAGE_SIZE,
  USAGE_BAR_COLOURS,
  type CustomerUsageSort,
  type CustomerUsageSummary,
  type TerminalUsageRecord,
} from '../../src/domain/customer-terminals';
import type { Pagination } from '../../src/domain/customers';
import { lastTwelveMonths } from '../../src/domain/terminals';
import {
  CUSTOMER_LOADING_TEXT,
  CustomerTerminalsView,
  UNASSIGN_DIALOG_TITLE,
  UNASSIGNING_TEXT,
  USAGE_LOADING_TEXT,
  type CustomerTerminalsViewProps,
} from '../../src/ui/customer-terminals/CustomerTerminalsView';
import { CUSTOMER_UUID, usageRecord } from '../fixtures/customer-terminals-client';
import { renderStrict } from './render';

const months = lastTwelveMonths(new Date('2026-11-20T10:00:00.000Z'));
const customer = { uuid: CUSTOMER_UUID, name: 'Nina Park', company: 'Northwind Shipping', email: 'nina@northwind.example' };

/** The page the server answered: three lines, in the order it chose. */
const records: TerminalUsageRecord[] = [
  usageRecord({ used: 500, total: 1000 }, { terminalId: 'UT-B', serviceLineNumber: 'AST-B', location: 'Rotterdam, NL' }),
  usageRecord({ used: 1100, total: 1000 }, { terminalId: 'UT-A', serviceLineNumber: 'AST-A', location: 'Hamburg, DE', status: 'Suspended' }),
  usageRecord({ used: 100, total: 1000 }, { terminalId: 'UT-C', serviceLineNumber: 'AST-C', location: 'Antwerp, BE', plan: 'Standard 500 GB', status: 'Maintenance' }),
];

/** The server's counts over every terminal of the customer: not what the three rows on screen add up to. */
const summary: CustomerUsageSummary = { totalTerminals: 1234, activeTerminals: 987, totalDataUsed: 45210.5, overLimit: 17 };
/** The three rows are the whole of what matches. */
const onePage: Pagination = { total: records.length, page: 1, limit: CUSTOMER_USAGE_PAGE_SIZE, pages: 1 };

/** `n` rows numbered from `from`: AST-000, AST-001, … */
const numberedRecords = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) =>
    usageRecord(undefined, { terminalId: `UT-${from + i}`, serviceLineNumber: `AST-${String(from + i).padStart(3, '0')}` }),
  );

const daily = [
  { date: '2026-11-01', priorityGB: 800, standardGB: 150 },
  { date: '2026-11-02', priorityGB: 400, standardGB: 100 },
];

function baseProps(props: Partial<CustomerTerminalsViewProps> = {}) {
  const callbacks = {
    onMonth: vi.fn(),
    onSearch: vi.fn(),
    onPage: vi.fn(),
    onStatus: vi.fn(),
    onSort: vi.fn(),
    onRefresh: vi.fn(),
    onAssign: vi.fn(),
    onOpen: vi.fn(),
    onUnassign: vi.fn(),
    onConfirmUnassign: vi.fn(),
    onCancelUnassign: vi.fn(),
    onRetry: vi.fn(),
    onNavigate: vi.fn(),
  };
  const all: CustomerTerminalsViewProps = {
    customerUuid: CUSTOMER_UUID,
    customer,
    customerLoading: false,
    customerError: null,
    months,
    month: months[0]!.value,
    records,
    pagination: onePage,
    summary,
    daily,
    usageLoading: false,
    refreshing: false,
    search: '',
    status: 'all',
    sort: null,
    unassign: null,
    ...callbacks,
    ...props,
  };
  return { all, callbacks };
}

function renderView(props: Partial<CustomerTerminalsViewProps> = {}) {
  const { all, callbacks } = baseProps(props);
  const result = renderStrict(<CustomerTerminalsView {...all} />);
  return { ...result, ...callbacks, rerenderWith: (more: Partial<CustomerTerminalsViewProps>) => result.rerender(<CustomerTerminalsView {...all} {...more} />) };
}

/**
 * The view with its sort held the way the route holds it: what onSort reports comes back as
 * `sort`, while the rows stay the ones given (the server sorts them).
 */
function SortingView(props: CustomerTerminalsViewProps) {
  const [sort, setSort] = useState<CustomerUsageSort | null>(null);
  return (
    <CustomerTerminalsView
      {...props}
      sort={sort}
      onSort={(next) => {
        props.onSort(next);
        setSort(next);
      }}
    />
  );
}

const table = () => screen.getByRole('table', { name: 'Customer terminals' });
const shownLines = () => Array.from(table().querySelectorAll('tbody .usage-service-line')).map((cell) => cell.textContent);
const rowOf = (serviceLine: string) => within(table()).getByText(serviceLine).closest('tr') as HTMLElement;
const cellOf = (serviceLine: string, column: string) => {
  const headers = within(table()).getAllByRole('columnheader').map((h) => h.textContent?.trim());
  return rowOf(serviceLine).querySelectorAll('td')[headers.indexOf(column)] as HTMLElement;
};
const card = (title: string) => within(screen.getByRole('group', { name: 'Usage summary' })).getByRole('region', { name: title });
const header = (name: string) => within(table()).getByRole('columnheader', { name: new RegExp(`^${name}`) });
const cardValue = (title: string) => card(title).querySelector('.stat-card-value')?.textContent;

describe('CustomerTerminalsView: without a customer', () => {
  it.each([undefined, null, '', '   '])('a customer UUID of %j shows only the "required" error card', (customerUuid) => {
    renderView({ customerUuid });
    expect(screen.getByRole('alert').textContent).toContain(CUSTOMER_USAGE_MESSAGES.uuidRequired);
    expect(screen.queryByRole('heading', { name: CUSTOMER_USAGE_MESSAGES.title })).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('a failed customer load shows "Error Loading Customer" with the message, and Try Again retries', async () => {
    const { user, onRetry } = renderView({ customer: null, customerError: 'Customer not found' });
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading', { name: CUSTOMER_USAGE_MESSAGES.loadErrorTitle })).toBeTruthy();
    expect(alert.textContent).toContain('Customer not found');
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(onRetry).toHaveBeenCalledOnce();
    expect(screen.queryByRole('button', { name: ASSIGN_MESSAGES.button })).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('a failed customer load without a message says "Failed to load customer information"', () => {
    renderView({ customer: null, customerError: ' ' });
    expect(screen.getByRole('alert').textContent).toContain(CUSTOMER_USAGE_MESSAGES.loadFailed);
  });
});

describe('CustomerTerminalsView: header', () => {
  it('is "Customer Terminal Usage" under Customers > Terminal Usage', async () => {
    const { user, onNavigate } = renderView();
    expect(screen.getByRole('heading', { level: 1, name: CUSTOMER_USAGE_MESSAGES.title })).toBeTruthy();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByText('Terminal Usage').getAttribute('aria-current')).toBe('page');
    await user.click(within(crumbs).getByRole('link', { name: 'Customers' }));
    expect(onNavigate).toHaveBeenCalledWith('/customers');
  });

  it('shows a spinner and no Assign Terminals button while the customer loads', () => {
    renderView({ customer: null, customerLoading: true });
    expect(screen.getByRole('status').textContent).toContain(CUSTOMER_LOADING_TEXT);
    expect(screen.queryByRole('button', { name: ASSIGN_MESSAGES.button })).toBeNull();
  });

  it('once loaded shows the name with company and email beneath, and Assign Terminals opens the dialog', async () => {
    const { user, onAssign } = renderView();
    expect(screen.getByText('Nina Park')).toBeTruthy();
    expect(screen.getByText('Northwind Shipping · nina@northwind.example')).toBeTruthy();
    expect(screen.queryByText(CUSTOMER_LOADING_TEXT)).toBeNull();
    await user.click(screen.getByRole('button', { name: ASSIGN_MESSAGES.button }));
    expect(onAssign).toHaveBeenCalledOnce();
  });

  it('names a customer without a name "Customer" and the last 8 characters of the UUID', () => {
    renderView({ customer: { ...customer, name: '  ', company: null } });
    expect(screen.getByText(`Customer ${CUSTOMER_UUID.slice(-8)}`)).toBeTruthy();
    expect(screen.getByText('nina@northwind.example')).toBeTruthy();
  });

  it('offers the months newest first, shows the chosen one, and reports the one picked', async () => {
    const { user, onMonth } = renderView({ month: months[2]!.value });
    const picker = screen.getByRole('combobox', { name: 'Month' });
    expect(picker.getAttribute('aria-expanded')).toBe('false');
    expect((screen.getByLabelText('Month', { selector: 'input' }) as HTMLInputElement).value).toBe(months[2]!.label);
    await user.click(picker);
    expect(picker.getAttribute('aria-expanded')).toBe('true');
    const list = within(await screen.findByRole('listbox'));
    expect(list.getAllByRole('option').map((o) => o.textContent)).toEqual(months.map((m) => m.label));
    await user.click(list.getByRole('option', { name: months[1]!.label }));
    expect(onMonth).toHaveBeenCalledWith(months[1]!.value);
  });

  it('shows "Select month" when no month is chosen', () => {
    renderView({ month: '' });
    expect(screen.getByRole('combobox', { name: 'Month' }).textContent).toContain(CUSTOMER_USAGE_MESSAGES.monthPlaceholder);
  });
});

describe('CustomerTerminalsView: summary and chart', () => {
  it("shows the server's counts of the terminals, the active ones, the data used and those over the limit, not the rows on the page", () => {
    renderView();
    expect(cardValue('Total Terminals')).toBe('1,234');
    expect(cardValue('Active Terminals')).toBe('987');
    // TB from 1000 GB on this page.
    expect(cardValue('Total Data Used')).toBe('45.2 TB');
    expect(cardValue('Over Limit')).toBe('17');
    expect(card('Over Limit').querySelector('.usage-over')).toBeTruthy();
  });

  it('shows what the summary it is given says, whatever the rows', () => {
    const { rerenderWith } = renderView({ records: [], summary: { totalTerminals: 4, activeTerminals: 2, totalDataUsed: 912.34, overLimit: 0 } });
    expect(cardValue('Total Terminals')).toBe('4');
    expect(cardValue('Active Terminals')).toBe('2');
    expect(cardValue('Total Data Used')).toBe('912.3 GB');
    expect(cardValue('Over Limit')).toBe('0');
    expect(card('Over Limit').querySelector('.usage-over')).toBeNull();
    rerenderWith({ summary: { totalTerminals: 5, activeTerminals: 5, totalDataUsed: 0, overLimit: 1 } });
    expect(cardValue('Total Terminals')).toBe('5');
    expect(cardValue('Over Limit')).toBe('1');
  });

  it('shows zeros in the cards before there is a summary', () => {
    renderView({ summary: null });
    expect(cardValue('Total Terminals')).toBe('0');
    expect(cardValue('Active Terminals')).toBe('0');
    expect(cardValue('Total Data Used')).toBe('0.0 GB');
    expect(cardValue('Over Limit')).toBe('0');
  });

  it('shows placeholders in the cards and the chart while the month loads', () => {
    renderView({ usageLoading: true });
    for (const title of ['Total Terminals', 'Active Terminals', 'Total Data Used', 'Over Limit']) {
      expect(card(title).getAttribute('aria-busy')).toBe('true');
      expect(card(title).querySelector('.stat-card-value')).toBeNull();
    }
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('draws the daily priority and standard GB above the table, in this page\'s units', () => {
    renderView();
    const chart = screen.getByRole('region', { name: CUSTOMER_USAGE_MESSAGES.chartTitle });
    expect(within(chart).getByRole('img').getAttribute('aria-label')).toBe('Daily usage over 2 days: 1.2 TB priority, 250.0 GB standard');
    expect(chart.querySelectorAll('.usage-chart-day')).toHaveLength(2);
    expect(chart.compareDocumentPosition(table()) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('leaves the chart out when there are no days', () => {
    renderView({ daily: [] });
    expect(screen.queryByRole('region', { name: CUSTOMER_USAGE_MESSAGES.chartTitle })).toBeNull();
  });
});

describe('CustomerTerminalsView: search, filter and refresh', () => {
  it('has the "Search terminals..." box and reports what is typed', async () => {
    const { user, onSearch } = renderView({ search: 'ast' });
    const box = screen.getByRole('searchbox', { name: 'Search terminals' }) as HTMLInputElement;
    expect(box.placeholder).toBe(CUSTOMER_USAGE_MESSAGES.searchPlaceholder);
    expect(box.value).toBe('ast');
    await user.type(box, '-');
    expect(onSearch).toHaveBeenLastCalledWith('ast-');
  });

  it('offers All Status, Active, Suspended, Pending and Maintenance and reports the one picked', async () => {
    const { user, onStatus } = renderView();
    const filter = screen.getByLabelText('Status filter') as HTMLInputElement;
    expect(filter.value).toBe('All Status');
    await user.click(filter.closest('.p-dropdown')!);
    const list = within(await screen.findByRole('listbox'));
    expect(list.getAllByRole('option').map((o) => o.textContent)).toEqual(['All Status', 'Active', 'Suspended', 'Pending', 'Maintenance']);
    await user.click(list.getByRole('option', { name: 'Maintenance' }));
    expect(onStatus).toHaveBeenCalledWith('Maintenance');
  });

  it('shows the chosen status', () => {
    renderView({ status: 'Suspended' });
    expect((screen.getByLabelText('Status filter') as HTMLInputElement).value).toBe('Suspended');
  });

  it('shows the rows it is given as they are: the search, status and sort do not filter or reorder them in the browser', () => {
    // None of these rows holds "hamburg-x" or is Pending; the server chose them and their order.
    renderView({ search: 'hamburg-x', status: 'Pending', sort: { field: 'serviceLine', order: 1 } });
    expect(shownLines()).toEqual(['AST-B', 'AST-A', 'AST-C']);
  });

  it('Refresh asks for a reload; while refreshing the rows stay and Refresh is disabled', async () => {
    const { user, onRefresh, rerenderWith } = renderView();
    const refresh = () => screen.getByRole('button', { name: CUSTOMER_USAGE_MESSAGES.refresh }) as HTMLButtonElement;
    await user.click(refresh());
    expect(onRefresh).toHaveBeenCalledOnce();
    rerenderWith({ refreshing: true });
    expect(refresh().disabled).toBe(true);
    expect(shownLines()).toEqual(['AST-B', 'AST-A', 'AST-C']);
  });
});

describe('CustomerTerminalsView: the table', () => {
  it('has the spec columns', () => {
    renderView();
    expect(within(table()).getAllByRole('columnheader').map((h) => h.textContent?.trim())).toEqual([
      'Service Line',
      'Usage',
      'Remaining',
      'Overage',
      'Data Cap',
      'Billing Cycle',
      'Status',
      'Actions',
    ]);
  });

  it('shows priority used of total with a bar coloured by level, the whole percentage, and the remainder', () => {
    renderView({ records: [usageRecord({ used: 912.34, total: 1000 }, { serviceLineNumber: 'AST-N' })] });
    const usage = cellOf('AST-N', 'Usage');
    expect(usage.querySelector('.usage-cell-figures')?.textContent).toBe('912.3 GB / 1.0 TB');
    expect(usage.querySelector('.usage-cell-percent')?.textContent).toBe('91%');
    const bar = within(usage).getByRole('progressbar', { name: 'Priority data used on AST-N' });
    expect(bar.getAttribute('aria-valuenow')).toBe('91');
    const fill = bar.querySelector('.p-progressbar-value') as HTMLElement;
    expect(fill.style.backgroundColor).toBe(USAGE_BAR_COLOURS.danger);
    expect(fill.style.width).toBe('91%');
    expect(cellOf('AST-N', 'Remaining').textContent).toBe('87.7 GB');
    expect(cellOf('AST-N', 'Overage').textContent).toBe('0.0 GB');
    expect(cellOf('AST-N', 'Overage').querySelector('.usage-over')).toBeNull();
  });

  it('caps the bar at 100 % and shows the overage in red above the limit', () => {
    renderView({ records: [usageRecord({ used: 1500, total: 1000 }, { serviceLineNumber: 'AST-X' })] });
    const bar = within(cellOf('AST-X', 'Usage')).getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('100');
    const fill = bar.querySelector('.p-progressbar-value') as HTMLElement;
    expect(fill.style.backgroundColor).toBe(USAGE_BAR_COLOURS.exceeded);
    expect(fill.style.width).toBe('100%');
    expect(cellOf('AST-X', 'Usage').querySelector('.usage-cell-percent')?.textContent).toBe('150%');
    expect(cellOf('AST-X', 'Remaining').textContent).toBe('0.0 GB');
    const overage = cellOf('AST-X', 'Overage');
    expect(overage.textContent).toBe('500.0 GB');
    expect(overage.querySelector('.usage-over')).toBeTruthy();
  });

  it('shows the data cap, the billing cycle and the status badge', () => {
    renderView({ records: [usageRecord(undefined, { serviceLineNumber: 'AST-S', status: 'Suspended', dataCap: { amount: 500, unit: 'GB' } })] });
    expect(cellOf('AST-S', 'Data Cap').textContent).toBe('500 GB');
    expect(cellOf('AST-S', 'Billing Cycle').textContent).toBe('Nov 1, 2026 – Nov 30, 2026');
    const status = cellOf('AST-S', 'Status').querySelector('.p-tag') as HTMLElement;
    expect(status.textContent).toBe('Suspended');
    expect(status.classList.contains('p-tag-danger')).toBe(true);
  });

  it('shows dashes for a month without usage and a terminal without a cap', () => {
    renderView({ records: [usageRecord(null, { serviceLineNumber: 'AST-0', dataCap: null })] });
    for (const column of ['Usage', 'Remaining', 'Overage', 'Data Cap', 'Billing Cycle']) {
      expect(cellOf('AST-0', column).textContent).toBe('—');
    }
    expect(within(cellOf('AST-0', 'Usage')).queryByRole('progressbar')).toBeNull();
  });

  it('says "No terminals assigned to this customer" when the summary counts none', () => {
    const none = { total: 0, page: 1, limit: CUSTOMER_USAGE_PAGE_SIZE, pages: 0 };
    renderView({ records: [], pagination: none, summary: { totalTerminals: 0, activeTerminals: 0, totalDataUsed: 0, overLimit: 0 } });
    expect(within(table()).getByText(CUSTOMER_USAGE_MESSAGES.noTerminals)).toBeTruthy();
    expect(within(table()).queryByText(CUSTOMER_USAGE_MESSAGES.noMatches)).toBeNull();
  });

  it('says "No terminals assigned to this customer" before there is a summary', () => {
    renderView({ records: [], pagination: null, summary: null });
    expect(within(table()).getByText(CUSTOMER_USAGE_MESSAGES.noTerminals)).toBeTruthy();
  });

  it('says "No terminals match the current filters" when the customer has terminals but the page holds none', () => {
    const none = { total: 0, page: 1, limit: CUSTOMER_USAGE_PAGE_SIZE, pages: 0 };
    renderView({ records: [], pagination: none, search: 'nowhere', status: 'Pending' });
    expect(within(table()).getByText(CUSTOMER_USAGE_MESSAGES.noMatches)).toBeTruthy();
    expect(within(table()).queryByText(CUSTOMER_USAGE_MESSAGES.noTerminals)).toBeNull();
  });

  it('shows a loading state instead of the table while the usage loads', () => {
    renderView({ usageLoading: true, records: [] });
    expect(screen.getByText(USAGE_LOADING_TEXT).closest('[role="status"]')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect((screen.getByRole('button', { name: CUSTOMER_USAGE_MESSAGES.refresh }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('opens the terminal of a clicked row', async () => {
    const { user, onOpen } = renderView();
    await user.click(within(rowOf('AST-C')).getByText('Antwerp, BE'));
    expect(onOpen).toHaveBeenCalledExactlyOnceWith(records[2]);
  });

  it('Unassign asks to unassign the line without opening the row', async () => {
    const { user, onOpen, onUnassign } = renderView();
    await user.click(screen.getByRole('button', { name: 'Unassign AST-A' }));
    expect(onUnassign).toHaveBeenCalledExactlyOnceWith('AST-A');
    expect(onOpen).not.toHaveBeenCalled();
  });

});

describe('CustomerTerminalsView: paging', () => {
  const paged = (page: number, total = 60): Pagination => ({ total, page, limit: CUSTOMER_USAGE_PAGE_SIZE, pages: Math.ceil(total / CUSTOMER_USAGE_PAGE_SIZE) });
  const current = () => screen.getAllByRole('button', { name: /^Page \d+$/ }).filter((b) => b.getAttribute('aria-current') === 'true').map((b) => b.textContent);

  it('has no paginator while everything matching fits on one page', () => {
    const { rerenderWith } = renderView({ records: numberedRecords(CUSTOMER_USAGE_PAGE_SIZE), pagination: paged(1, CUSTOMER_USAGE_PAGE_SIZE) });
    expect(shownLines()).toHaveLength(CUSTOMER_USAGE_PAGE_SIZE);
    expect(screen.queryByRole('button', { name: 'Page 1' })).toBeNull();
    rerenderWith({ records: numberedRecords(CUSTOMER_USAGE_PAGE_SIZE), pagination: paged(1, CUSTOMER_USAGE_PAGE_SIZE + 1) });
    expect(screen.getByRole('button', { name: 'Page 2' })).toBeTruthy();
  });

  it('shows the page of rows it is given, and as many pages as the total holds at the limit', () => {
    renderView({ records: numberedRecords(CUSTOMER_USAGE_PAGE_SIZE, 25), pagination: paged(2) });
    // The rows are shown as given, not sliced again at the page's offset.
    expect(shownLines()).toHaveLength(CUSTOMER_USAGE_PAGE_SIZE);
    expect(shownLines()[0]).toBe('AST-025');
    expect(shownLines().at(-1)).toBe('AST-049');
    expect(screen.getByRole('button', { name: 'Page 3' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Page 4' })).toBeNull();
  });

  // The paginator follows `pagination`, not the rows: one row a page is enough for the next two,
  // where a full page of 25 would only make every render and role query slower.
  it('starts the paginator at the page it is given', () => {
    const { rerenderWith } = renderView({ records: numberedRecords(1, 50), pagination: paged(3) });
    expect(current()).toEqual(['3']);
    rerenderWith({ records: numberedRecords(1), pagination: paged(1) });
    expect(current()).toEqual(['1']);
  });

  it('reports the 1-based page picked, and the next and previous ones', async () => {
    const { user, onPage, rerenderWith } = renderView({ records: numberedRecords(1), pagination: paged(1) });
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(onPage).toHaveBeenLastCalledWith(3);
    await user.click(screen.getByRole('button', { name: 'Next Page' }));
    expect(onPage).toHaveBeenLastCalledWith(2);
    // The page changes when the route says so, not when it is clicked.
    expect(current()).toEqual(['1']);
    rerenderWith({ records: numberedRecords(1, 25), pagination: paged(2) });
    await user.click(screen.getByRole('button', { name: 'Previous Page' }));
    expect(onPage).toHaveBeenLastCalledWith(1);
    expect(onPage).toHaveBeenCalledTimes(3);
  });
});

describe('CustomerTerminalsView: sorting', () => {
  function renderSorting() {
    const { all, callbacks } = baseProps();
    const result = renderStrict(<SortingView {...all} />);
    return { ...result, ...callbacks };
  }

  it.each([
    ['Service Line', 'serviceLine'],
    ['Usage', 'usage'],
    ['Remaining', 'remaining'],
    ['Overage', 'overage'],
  ] as const)('%s asks for ascending on the first click, descending on the second, and unsorted on the third', async (column, field) => {
    const { user, onSort } = renderSorting();
    expect(header(column).getAttribute('aria-sort')).toBe('none');

    await user.click(header(column));
    expect(onSort).toHaveBeenLastCalledWith({ field, order: 1 });
    expect(header(column).getAttribute('aria-sort')).toBe('ascending');

    await user.click(header(column));
    expect(onSort).toHaveBeenLastCalledWith({ field, order: -1 });
    expect(header(column).getAttribute('aria-sort')).toBe('descending');

    await user.click(header(column));
    expect(onSort).toHaveBeenLastCalledWith(null);
    expect(header(column).getAttribute('aria-sort')).toBe('none');
    expect(onSort).toHaveBeenCalledTimes(3);
    // The server sorts: the rows stay as given.
    expect(shownLines()).toEqual(['AST-B', 'AST-A', 'AST-C']);
  });

  it('marks the column of the sort it is given', () => {
    renderView({ sort: { field: 'overage', order: -1 } });
    expect(header('Overage').getAttribute('aria-sort')).toBe('descending');
    expect(header('Usage').getAttribute('aria-sort')).toBe('none');
  });

  it('Data Cap, Billing Cycle and Status do not sort', async () => {
    const { user, onSort } = renderSorting();
    for (const column of ['Data Cap', 'Billing Cycle', 'Status']) await user.click(header(column));
    expect(onSort).not.toHaveBeenCalled();
  });
});

describe('CustomerTerminalsView: unassign confirmation', () => {
  const dialog = () => screen.getByRole('dialog', { name: UNASSIGN_DIALOG_TITLE });

  it('is closed until a line waits for confirmation', () => {
    renderView();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('names the line and the customer; Unassign confirms and Cancel cancels', async () => {
    const { user, onConfirmUnassign, onCancelUnassign } = renderView({ unassign: { serviceLineNumber: 'AST-A', busy: false } });
    expect(dialog().textContent).toContain(CUSTOMER_USAGE_MESSAGES.unassignConfirm('AST-A', 'Nina Park'));
    await user.click(within(dialog()).getByRole('button', { name: CUSTOMER_USAGE_MESSAGES.unassign }));
    expect(onConfirmUnassign).toHaveBeenCalledOnce();
    await user.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    expect(onCancelUnassign).toHaveBeenCalledOnce();
  });

  it('while unassigning reads "Unassigning..." and nothing in it can be pressed', () => {
    renderView({ unassign: { serviceLineNumber: 'AST-A', busy: true } });
    const confirm = within(dialog()).getByRole('button', { name: UNASSIGNING_TEXT }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    expect((within(dialog()).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(dialog()).queryByRole('button', { name: /close/i })).toBeNull();
  });
});

describe('a customer holding lines of several provider accounts', () => {
  const accounts = [
    { id: 1, name: 'Demo US' },
    { id: 2, name: 'Demo Brasil' },
  ];
  const table = () => within(screen.getByRole('table', { name: 'Customer terminals' }));

  it("with two accounts in the portal, names each terminal's account and filters by the one chosen", async () => {
    const mixed = [usageRecord(null, { terminalId: 'UT-US', serviceLineNumber: 'AST-1', accountId: 1, accountName: 'Demo US' }), usageRecord(null, { terminalId: 'UT-BR', serviceLineNumber: 'AST-2', accountId: 2, accountName: 'Demo Brasil' })];
    const onAccount = vi.fn();
    const { user } = renderView({ records: mixed, accounts, account: null, onAccount });
    expect(table().getByRole('columnheader', { name: 'Account' })).toBeTruthy();
    expect(table().getByText('Demo Brasil')).toBeTruthy();
    await user.click(screen.getByLabelText('Account').closest('.p-dropdown')!);
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Demo Brasil' }));
    expect(onAccount).toHaveBeenCalledWith(2);
  });

  it('with one account, shows neither the filter nor the column', () => {
    renderView({ account: null, onAccount: vi.fn() });
    expect(table().queryByRole('columnheader', { name: 'Account' })).toBeNull();
    expect(screen.queryByLabelText('Account')).toBeNull();
  });
});
