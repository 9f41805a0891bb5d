import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import {
  ASSIGN_MESSAGES,
  CUSTOMER_USAGE_MESSAGES,
  USAGE_BAR_COLOURS,
  type CustomerUsageSort,
  type TerminalUsageRecord,
} from '../../src/domain/customer-terminals';
import { lastTwelveMonths } from '../../src/domain/terminals';
import {
  CUSTOMER_LOADING_TEXT,
  CustomerTerminalsView,
  UNASSIGN_DIALOG_TITLE,
  UNASSIGNING_TEXT,
  USAGE_LOADING_TEXT,
  USAGE_TABLE_PAGE_SIZE,
  type CustomerTerminalsViewProps,
} from '../../src/ui/customer-terminals/CustomerTerminalsView';
import { CUSTOMER_UUID, usageRecord } from '../fixtures/customer-terminals-client';
import { renderStrict } from './render';

const months = lastTwelveMonths(new Date('2026-11-20T10:00:00.000Z'));
const customer = { uuid: CUSTOMER_UUID, name: 'Nina Park', company: 'Northwind Shipping', email: 'nina@northwind.example' };

/** Three lines whose usage, remaining and overage each order them differently. */
const records: TerminalUsageRecord[] = [
  usageRecord({ used: 500, total: 1000 }, { terminalId: 'UT-B', serviceLineNumber: 'AST-B', location: 'Rotterdam, NL' }),
  usageRecord({ used: 1100, total: 1000 }, { terminalId: 'UT-A', serviceLineNumber: 'AST-A', location: 'Hamburg, DE', status: 'Suspended' }),
  usageRecord({ used: 100, total: 1000 }, { terminalId: 'UT-C', serviceLineNumber: 'AST-C', location: 'Antwerp, BE', plan: 'Standard 500 GB', status: 'Maintenance' }),
];

/** AST-000, AST-001, …: the even ones in the north, the odd ones in the south. */
const numberedRecords = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    usageRecord(undefined, {
      terminalId: `UT-${i}`,
      serviceLineNumber: `AST-${String(i).padStart(3, '0')}`,
      location: i % 2 === 0 ? 'North' : 'South',
    }),
  );

const daily = [
  { date: '2026-11-01', priorityGB: 800, standardGB: 150 },
  { date: '2026-11-02', priorityGB: 400, standardGB: 100 },
];

function baseProps(props: Partial<CustomerTerminalsViewProps> = {}) {
  const callbacks = {
    onMonth: vi.fn(),
    onSearch: vi.fn(),
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

/** The view with its sort held the way the route holds it: what onSort reports comes back as `sort`. */
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
  it('counts the terminals, the active ones, the data used and those over the limit', () => {
    renderView();
    const value = (title: string) => card(title).querySelector('.stat-card-value')?.textContent;
    expect(value('Total Terminals')).toBe('3');
    expect(value('Active Terminals')).toBe('1');
    // 540 + 1140 + 140 GB: TB from 1000 GB on this page.
    expect(value('Total Data Used')).toBe('1.8 TB');
    expect(value('Over Limit')).toBe('1');
    expect(card('Over Limit').querySelector('.usage-over')).toBeTruthy();
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

  it('shows only the rows matching the search, over service line, terminal, location and plan', () => {
    const { rerenderWith } = renderView({ search: 'hamburg' });
    expect(shownLines()).toEqual(['AST-A']);
    rerenderWith({ search: 'ut-c' });
    expect(shownLines()).toEqual(['AST-C']);
    rerenderWith({ search: 'standard 500' });
    expect(shownLines()).toEqual(['AST-C']);
  });

  it('shows only the rows of the chosen status', () => {
    const { rerenderWith } = renderView({ status: 'Suspended' });
    expect(shownLines()).toEqual(['AST-A']);
    rerenderWith({ status: 'Active' });
    expect(shownLines()).toEqual(['AST-B']);
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

  it('says "No terminals assigned to this customer" when there are none', () => {
    renderView({ records: [] });
    expect(within(table()).getByText(CUSTOMER_USAGE_MESSAGES.noTerminals)).toBeTruthy();
  });

  it('says "No terminals match the current filters" when the search and filter leave none', () => {
    renderView({ search: 'nowhere', status: 'Pending' });
    expect(within(table()).getByText(CUSTOMER_USAGE_MESSAGES.noMatches)).toBeTruthy();
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

  it('pages a long list 25 rows at a time', async () => {
    const many = numberedRecords(USAGE_TABLE_PAGE_SIZE + 5);
    const { user } = renderView({ records: many, sort: { field: 'serviceLine', order: 1 } });
    expect(shownLines()).toHaveLength(USAGE_TABLE_PAGE_SIZE);
    expect(shownLines()[0]).toBe('AST-000');
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(shownLines()).toEqual(['AST-025', 'AST-026', 'AST-027', 'AST-028', 'AST-029']);
  });

  it('goes back to the first rows when a search leaves fewer rows than the page looked at', async () => {
    const many = numberedRecords(60);
    const sort = { field: 'serviceLine', order: 1 } as const;
    const { user, rerenderWith } = renderView({ records: many, sort });
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(shownLines()[0]).toBe('AST-050');
    rerenderWith({ records: many, sort, search: 'north' });
    expect(shownLines()).toHaveLength(USAGE_TABLE_PAGE_SIZE);
    expect(shownLines().slice(0, 3)).toEqual(['AST-000', 'AST-002', 'AST-004']);
  });
});

describe('CustomerTerminalsView: sorting', () => {
  function renderSorting() {
    const { all, callbacks } = baseProps();
    const result = renderStrict(<SortingView {...all} />);
    return { ...result, ...callbacks };
  }

  it.each([
    // Usage: priority used; remaining: what is left of the allowance; overage: what is past it (ties by service line).
    ['Service Line', 'serviceLine', ['AST-A', 'AST-B', 'AST-C'], ['AST-C', 'AST-B', 'AST-A']],
    ['Usage', 'usage', ['AST-C', 'AST-B', 'AST-A'], ['AST-A', 'AST-B', 'AST-C']],
    ['Remaining', 'remaining', ['AST-A', 'AST-B', 'AST-C'], ['AST-C', 'AST-B', 'AST-A']],
    ['Overage', 'overage', ['AST-B', 'AST-C', 'AST-A'], ['AST-A', 'AST-B', 'AST-C']],
  ] as const)('%s sorts ascending on the first click, descending on the second, and unsorted on the third', async (column, field, ascending, descending) => {
    const { user, onSort } = renderSorting();
    expect(shownLines()).toEqual(['AST-B', 'AST-A', 'AST-C']);

    await user.click(header(column));
    expect(onSort).toHaveBeenLastCalledWith({ field, order: 1 });
    expect(shownLines()).toEqual(ascending);
    expect(header(column).getAttribute('aria-sort')).toBe('ascending');

    await user.click(header(column));
    expect(onSort).toHaveBeenLastCalledWith({ field, order: -1 });
    expect(shownLines()).toEqual(descending);
    expect(header(column).getAttribute('aria-sort')).toBe('descending');

    await user.click(header(column));
    expect(onSort).toHaveBeenLastCalledWith(null);
    expect(shownLines()).toEqual(['AST-B', 'AST-A', 'AST-C']);
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
