import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { health, searchResponse, terminalsResponse } from '../fixtures/provider-console';
import { ProviderConsoleView, type ProviderConsoleViewProps } from '../../src/ui/provider-console/ProviderConsoleView';
import { renderStrict } from './render';

function renderConsole(props: Partial<ProviderConsoleViewProps> = {}) {
  const callbacks = {
    onServiceLineInput: vi.fn(),
    onSearch: vi.fn(),
    onLoadTerminals: vi.fn(),
    onCheckConnection: vi.fn(),
    onNavigate: vi.fn(),
  };
  const result = renderStrict(
    <ProviderConsoleView
      serviceLineInput=""
      canSearch={false}
      searching={false}
      searchResult={null}
      notFoundServiceLine={null}
      searchError={null}
      loadingTerminals={false}
      terminals={null}
      terminalsError={null}
      health={health}
      healthError={null}
      checkingHealth={false}
      {...callbacks}
      {...props}
    />,
  );
  return { ...result, ...callbacks };
}

const searchButton = () => screen.getByRole('button', { name: /^Search(ing\.\.\.)?$/ });
const field = (container: HTMLElement, label: string) => {
  const term = within(container).getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent;
};
async function openTab(user: ReturnType<typeof renderConsole>['user'], name: string) {
  await user.click(screen.getByRole('tab', { name }));
  return screen.getByRole('tabpanel');
}

describe('ProviderConsoleView: header, search box and buttons', () => {
  it('is titled "Starlink API Simulator" under the breadcrumb Home > Customers', async () => {
    const { user, onNavigate } = renderConsole();
    expect(screen.getByRole('heading', { level: 1, name: 'Starlink API Simulator' })).toBeTruthy();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/home');
    await user.click(within(crumbs).getByRole('link', { name: 'Customers' }));
    expect(onNavigate).toHaveBeenCalledWith('/customers');
    expect(within(crumbs).getByText('Starlink API Simulator').getAttribute('aria-current')).toBe('page');
  });

  it('has one labelled service line input with an example placeholder, and Search is disabled while it cannot search', () => {
    renderConsole({ serviceLineInput: '   ', canSearch: false });
    const input = screen.getByLabelText('Service line number') as HTMLInputElement;
    expect(input.placeholder).toBe('SL-12345-67890');
    expect(input.value).toBe('   ');
    expect((searchButton() as HTMLButtonElement).disabled).toBe(true);
  });

  it('typing reports the text, and an enabled Search (or Enter) asks to search', async () => {
    const { user, onServiceLineInput, onSearch } = renderConsole({ serviceLineInput: 'SL-1', canSearch: true });
    await user.type(screen.getByLabelText('Service line number'), '2');
    expect(onServiceLineInput).toHaveBeenLastCalledWith('SL-12');
    expect((searchButton() as HTMLButtonElement).disabled).toBe(false);
    await user.click(searchButton());
    await user.type(screen.getByLabelText('Service line number'), '{Enter}');
    expect(onSearch).toHaveBeenCalledTimes(2);
  });

  it('while searching the button reads "Searching..." and is disabled, and the results are a placeholder', () => {
    renderConsole({ serviceLineInput: 'SL-1', canSearch: false, searching: true });
    expect(searchButton().textContent).toContain('Searching...');
    expect((searchButton() as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('heading', { name: 'Search Results' })).toBeTruthy();
    expect(screen.queryByRole('tablist')).toBeNull();
  });

  it('Load Terminals asks to load, reads "Loading..." while it does, then shows Total, Active and the call duration', async () => {
    const first = renderConsole();
    await first.user.click(screen.getByRole('button', { name: 'Load Terminals' }));
    expect(first.onLoadTerminals).toHaveBeenCalledOnce();
    first.unmount();

    const loading = renderConsole({ loadingTerminals: true });
    expect((screen.getByRole('button', { name: 'Loading...' }) as HTMLButtonElement).disabled).toBe(true);
    loading.unmount();

    renderConsole({ terminals: terminalsResponse });
    const summary = screen.getByLabelText('Loaded terminals');
    expect(summary.textContent).toContain('Total: 12');
    expect(summary.textContent).toContain('Active: 9');
    expect(summary.textContent).toContain('137 ms');
  });

  it('the status line names the built-in simulator, the account and the latency, and Test Connection asks again', async () => {
    const { user, onCheckConnection } = renderConsole();
    expect(screen.getByRole('status').textContent).toBe('Connected to the built-in simulator · ACC-2231-11 · API v2 · 42 ms');
    await user.click(screen.getByRole('button', { name: 'Test Connection' }));
    expect(onCheckConnection).toHaveBeenCalledOnce();
  });

  it('a failed connection test says so', () => {
    renderConsole({ health: null, healthError: 'Network error occurred' });
    expect(screen.getByRole('status').textContent).toBe('Connection test failed: Network error occurred');
  });
});

describe('ProviderConsoleView: user terminals results', () => {
  it('Overview shows total, active, inactive and connected', () => {
    renderConsole({ terminals: terminalsResponse });
    expect(screen.getByRole('heading', { name: 'User Terminals Results' })).toBeTruthy();
    expect(screen.getByRole('tablist', { name: 'User terminals results' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Overview' }).getAttribute('aria-selected')).toBe('true');
    const figures = Object.fromEntries(
      ['Total Terminals', 'Active', 'Inactive', 'Connected'].map((name) => [
        name,
        within(screen.getByRole('group', { name })).getByText(/^\d+$/).textContent,
      ]),
    );
    expect(figures).toEqual({ 'Total Terminals': '12', Active: '9', Inactive: '3', Connected: '8' });
  });

  it('Terminals List pages ten rows at a time and shows location from the address reference or else the region', async () => {
    const { user } = renderConsole({ terminals: terminalsResponse });
    const panel = await openTab(user, 'Terminals List');
    const table = within(panel).getByRole('table', { name: 'User terminals' });
    const headers = within(table).getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(headers).toEqual(['Terminal ID', 'Kit Serial', 'Status', 'Service Line', 'Location', 'Model']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(10);
    expect(rows[0]!.textContent).toBe('UT-0001KIT-0001ActiveSL-0001-00000ADDR-HARBOUR-1Flat High Performance');
    expect(rows[1]!.textContent).toBe('UT-0002KIT-0002Active———');
    expect(rows[2]!.textContent).toContain('Pacific Northwest');
    await user.click(within(panel).getByRole('button', { name: 'Next Page' }));
    expect(within(table).getAllByRole('row').slice(1).map((row) => row.textContent?.slice(0, 7))).toEqual(['UT-0011', 'UT-0012']);
    const pageSize = within(panel).getByRole('textbox', { name: 'Rows per page' }) as HTMLInputElement;
    expect(pageSize.value).toBe('10');
  });

  it('Statistics lists regions and models with counts and the API metadata', async () => {
    const { user } = renderConsole({ terminals: terminalsResponse });
    const panel = await openTab(user, 'Statistics');
    const regions = within(panel).getByRole('table', { name: 'Region counts' });
    expect(within(regions).getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual(['Pacific Northwest11', 'Alaska1']);
    const models = within(panel).getByRole('table', { name: 'Model counts' });
    expect(within(models).getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual([
      'Standard10',
      'Flat High Performance1',
      'Mini1',
    ]);
    const metadata = within(panel).getByRole('region', { name: 'API Metadata' });
    expect(field(metadata, 'Account Number')).toBe('ACC-2231-11');
    expect(field(metadata, 'API Version')).toBe('v2');
    expect(field(metadata, 'API Call Duration')).toBe('137 ms');
    expect(field(metadata, 'Data Freshness')).toBe('2026-11-20');
  });

  it('Raw Response shows the whole answer as pretty JSON', async () => {
    const { user } = renderConsole({ terminals: terminalsResponse });
    const panel = await openTab(user, 'Raw Response');
    const raw = within(panel).getByLabelText('Raw user terminals response');
    expect(raw.tagName).toBe('PRE');
    expect(JSON.parse(raw.textContent!)).toEqual(terminalsResponse);
    expect(raw.textContent).toContain('\n  "success": true');
  });

  it('an account without terminals shows "No Terminals Found"', () => {
    renderConsole({ terminals: { ...terminalsResponse, terminals: [], totalCount: 0 } });
    expect(screen.getByRole('heading', { name: 'No Terminals Found' })).toBeTruthy();
    expect(screen.getByText('No user terminals were found for this account')).toBeTruthy();
    expect(screen.queryByRole('tablist')).toBeNull();
  });

  it('a failed load shows the red error card and Try Again loads again', async () => {
    const { user, onLoadTerminals } = renderConsole({ terminalsError: 'Provider unavailable' });
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Error loading terminals' })).toBeTruthy();
    expect(alert.textContent).toContain('Provider unavailable');
    await user.click(within(alert).getByRole('button', { name: /Try Again/ }));
    expect(onLoadTerminals).toHaveBeenCalledOnce();
  });
});

describe('ProviderConsoleView: search results', () => {
  const found = { serviceLineInput: 'SL-12345-67890', canSearch: true, searchResult: searchResponse };

  it('Service Line Details shows the line, its hardware, data cap and billing cycle', () => {
    renderConsole(found);
    expect(screen.getByRole('tablist', { name: 'Search results' })).toBeTruthy();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Service Line Details',
      'Enhanced Details',
      'Usage Data',
      'Metadata',
      'Raw Response',
    ]);
    const panel = screen.getByRole('tabpanel');
    expect(
      Object.fromEntries(
        [
          'Service Line',
          'Status',
          'Nickname',
          'Product Type',
          'Data Allowance',
          'Terminal ID',
          'Kit Serial',
          'Dish Serial',
          'Location',
          'Data Cap',
          'Billing Cycle Start',
          'Billing Cycle End',
        ].map((label) => [label, field(panel, label)]),
      ),
    ).toEqual({
      'Service Line': 'SL-12345-67890',
      Status: 'Active',
      Nickname: 'Harbour office',
      'Product Type': 'Priority',
      'Data Allowance': '1 TB',
      'Terminal ID': 'UT-0001',
      'Kit Serial': 'KIT-0001',
      'Dish Serial': 'DISH-0001',
      Location: '1 Harbour Way, Seattle, WA',
      'Data Cap': '1 TB',
      'Billing Cycle Start': '2026-11-01',
      'Billing Cycle End': '2026-11-30',
    });
  });

  it('Enhanced Details shows product, location, data blocks with utilization, hardware, history and account', async () => {
    const { user } = renderConsole(found);
    const panel = await openTab(user, 'Enhanced Details');
    const block = (name: string) => within(panel).getByRole('region', { name });

    expect(field(block('Product'), 'Name')).toBe('Priority 1 TB');
    expect(field(block('Product'), 'Billing Type')).toBe('Monthly');
    expect(field(block('Product'), 'Description')).toBe('Priority data for business use');
    expect(field(block('Location'), 'Timezone')).toBe('America/Los_Angeles');
    expect(field(block('Location'), 'Coordinates')).toBe('47.6062, -122.3321');

    const blocks = block('Data Blocks');
    expect(field(blocks, 'Current Cycle Total')).toBe('1024.0 GB');
    expect(field(blocks, 'Used')).toBe('312.5 GB');
    expect(field(blocks, 'Remaining')).toBe('711.5 GB');
    expect(field(blocks, 'Utilization')).toBe('31%');
    expect(within(blocks).getByRole('progressbar', { name: 'Data utilization' }).getAttribute('aria-valuenow')).toBe('31');
    const recurring = within(blocks).getByRole('table', { name: 'Recurring data blocks' });
    expect(within(recurring).getAllByRole('row')[1]!.textContent).toBe('1TBPriorityYes');
    const oneTime = within(blocks).getByRole('table', { name: 'One-time data blocks' });
    expect(within(oneTime).getAllByRole('row')[1]!.textContent).toBe('50GBAvailable2026-11-052026-12-05');

    expect(field(block('Terminal Hardware'), 'Firmware Version')).toBe('fw-9.3');
    expect(field(block('Terminal Hardware'), 'Installation Date')).toBe('2025-03-14');
    const history = within(block('Service History')).getByRole('table', { name: 'Service history' });
    expect(within(history).getAllByRole('row')[1]!.textContent).toBe('ActivationService line activatedCompleted2025-03-14');
    expect(field(block('Account'), 'Organization')).toBe('Northwind Shipping');
    expect(field(block('Account'), 'Customer Type')).toBe('Business');
  });

  it('Enhanced Details says so when the provider gave no product or hardware', async () => {
    const bare = { ...searchResponse.serviceLineDetails!, product: null, terminal: null };
    const { user } = renderConsole({ ...found, searchResult: { ...searchResponse, serviceLineDetails: bare } });
    const panel = await openTab(user, 'Enhanced Details');
    expect(within(within(panel).getByRole('region', { name: 'Product' })).getByText(/Not provided/)).toBeTruthy();
    expect(within(within(panel).getByRole('region', { name: 'Terminal Hardware' })).getByText(/Not provided/)).toBeTruthy();
  });

  it('Usage Data shows the total with one decimal, the record count, the range and the hourly table', async () => {
    const { user } = renderConsole(found);
    const panel = await openTab(user, 'Usage Data');
    expect(field(panel, 'Total Usage')).toBe('3.3 GB');
    expect(field(panel, 'Records')).toBe('2');
    expect(field(panel, 'Date Range')).toBe('2026-11-19 – 2026-11-19');
    const table = within(panel).getByRole('table', { name: 'Usage records' });
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Date', 'Hour', 'Usage (GB)', 'Synced']);
    expect(within(table).getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual([
      '2026-11-197:001.32026-11-19',
      '2026-11-198:002.02026-11-19',
    ]);
  });

  it('Usage Data without records shows "No Usage Data"', async () => {
    const { user } = renderConsole({ ...found, searchResult: { ...searchResponse, usageData: [] } });
    const panel = await openTab(user, 'Usage Data');
    expect(within(panel).getByRole('heading', { name: 'No Usage Data' })).toBeTruthy();
    expect(within(panel).getByText('No usage records found for this service line')).toBeTruthy();
  });

  it('Metadata shows the API version, account, call duration and data freshness', async () => {
    const { user } = renderConsole(found);
    const panel = await openTab(user, 'Metadata');
    expect(field(panel, 'API Version')).toBe('v2');
    expect(field(panel, 'Account Number')).toBe('ACC-2231-11');
    expect(field(panel, 'API Call Duration')).toBe('84 ms');
    expect(field(panel, 'Service Line Details Freshness')).toBe('2026-11-20');
    expect(field(panel, 'Usage Data Freshness')).toBe('2026-11-19');
  });

  it('Raw Response shows the provider answers as pretty JSON', async () => {
    const { user } = renderConsole(found);
    const panel = await openTab(user, 'Raw Response');
    expect(JSON.parse(within(panel).getByLabelText('Raw provider responses').textContent!)).toEqual(searchResponse.rawApiResponses);
  });

  it('a service line the provider does not know shows "Service Line Not Found"', () => {
    renderConsole({ serviceLineInput: 'SL-00000-00000', canSearch: true, notFoundServiceLine: 'SL-00000-00000' });
    expect(screen.getByRole('heading', { name: 'Service Line Not Found' })).toBeTruthy();
    expect(screen.getByText('The specified service line was not found in the Starlink system')).toBeTruthy();
    expect(screen.queryByRole('tablist')).toBeNull();
  });

  it('a failed search shows the red error card, and Try Again searches again', async () => {
    const { user, onSearch } = renderConsole({ serviceLineInput: 'SL-1', canSearch: true, searchError: 'Network error occurred' });
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Search failed' })).toBeTruthy();
    expect(alert.textContent).toContain('Network error occurred');
    await user.click(within(alert).getByRole('button', { name: /Try Again/ }));
    expect(onSearch).toHaveBeenCalledOnce();
  });
});
