import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { lastTwelveMonths, TERMINAL_MESSAGES } from '../../src/domain/terminals';
import {
  REPORT_ISSUE_MAX_LENGTH,
  TerminalDetailDialog,
  type TerminalDetailDialogProps,
} from '../../src/ui/terminals/TerminalDetailDialog';
import { serviceLineUsage, terminalDetail, terminalItem } from '../fixtures/terminals-ui';
import { renderStrict } from './render';

const NOW = Date.parse('2026-11-20T10:05:00.000Z');
const months = lastTwelveMonths(new Date(NOW));

const assigned = terminalItem({
  userTerminalId: 'UT-0001',
  kitSerialNumber: 'KIT-0001',
  dishSerialNumber: 'DISH-0001',
  serviceLineNumber: 'AST-511274-31364-54',
  assignedTo: '7d3e9a41-5b2c-4d8e-9f10-2a3b4c5d6e7f',
  assignedToCustomer: 'Nina Park',
});
const unassigned = terminalItem({ userTerminalId: 'UT-0009', serviceLineNumber: 'AST-0009', active: false });

function renderDialog(props: Partial<TerminalDetailDialogProps> = {}) {
  const callbacks = { onMonth: vi.fn(), onRefresh: vi.fn(), onReportIssue: vi.fn(), onClose: vi.fn(), onRetry: vi.fn(), onDismissNotice: vi.fn() };
  const all: TerminalDetailDialogProps = {
    open: true,
    terminal: assigned,
    detail: terminalDetail(),
    loading: false,
    fallback: null,
    usageError: null,
    usage: serviceLineUsage(),
    usageLoading: false,
    months,
    month: months[0]!.value,
    refreshing: false,
    reporting: false,
    notice: null,
    now: NOW,
    ...callbacks,
    ...props,
  };
  const result = renderStrict(<TerminalDetailDialog {...all} />);
  return {
    ...result,
    ...callbacks,
    rerenderWith: (more: Partial<TerminalDetailDialogProps>) => result.rerender(<TerminalDetailDialog {...all} {...more} />),
  };
}

type User = ReturnType<typeof renderDialog>['user'];

const dialog = () => screen.getByRole('dialog', { name: 'Terminal Details' });
const overview = () => within(dialog()).getByRole('region', { name: 'Overview' });
const field = (container: HTMLElement, label: string) =>
  within(container).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
async function openTab(user: User, name: string) {
  await user.click(within(dialog()).getByRole('tab', { name }));
  return within(dialog()).getByRole('tabpanel');
}
/** Usage of `used` of 100 GB priority data: the percentage equals `used`. */
const usageAt = (used: number) => serviceLineUsage({ used, total: 100 });
const priorityBlock = (panel: HTMLElement) => panel.querySelector('.priority-usage') as HTMLElement;

describe('TerminalDetailDialog: frame and overview', () => {
  it('is titled "Terminal Details" and shows the status badge and the four identifiers', () => {
    renderDialog();
    expect(dialog()).toBeTruthy();
    const o = overview();
    expect(within(o).getByText('Active')).toBeTruthy();
    expect(field(o, 'User Terminal ID')).toBe('UT-0001');
    expect(field(o, 'Kit Serial')).toBe('KIT-0001');
    expect(field(o, 'Dish Serial')).toBe('DISH-0001');
    expect(field(o, 'Service Line Number')).toBe('AST-511274-31364-54');
  });

  it('shows the list record at once while the detail loads, then the detail', () => {
    const { rerenderWith } = renderDialog({ detail: null, loading: true, terminal: unassigned });
    expect(within(dialog()).getByRole('status').textContent).toContain('Loading terminal details...');
    expect(within(overview()).getByText('Inactive')).toBeTruthy();
    expect(field(overview(), 'Service Line Number')).toBe('AST-0009');
    rerenderWith({
      terminal: unassigned,
      loading: false,
      detail: terminalDetail({ userTerminalId: 'UT-0009', serviceLineNumber: 'AST-0009', active: true, dishSerialNumber: 'Unknown' }),
    });
    expect(within(dialog()).queryByText('Loading terminal details...')).toBeNull();
    expect(within(overview()).getByText('Active')).toBeTruthy();
    expect(field(overview(), 'Dish Serial')).toBe('Unknown');
  });

  it('when the detail fetch fails, warns "Showing basic terminal information" with the message and shows the basic record', () => {
    renderDialog({ detail: null, fallback: { message: TERMINAL_MESSAGES.detailFailed } });
    const warning = within(dialog()).getByText(TERMINAL_MESSAGES.basicInfoWarning).closest('.terminal-warning') as HTMLElement;
    expect(warning.textContent).toContain('Failed to load terminal details');
    expect(field(overview(), 'Kit Serial')).toBe('KIT-0001');
  });

  it('offers Try Again beside the warning, which asks to load again', async () => {
    const { user, onRetry } = renderDialog({ detail: null, fallback: { message: TERMINAL_MESSAGES.detailFailed } });
    await user.click(within(dialog()).getByRole('button', { name: 'Try Again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('has five tabs, opens on Information, and switches tab on click', async () => {
    const renderSettings = vi.fn((line: string) => <p>Settings of {line}</p>);
    const { user } = renderDialog({ renderSettings });
    expect(within(dialog()).getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Information',
      'Usage',
      'Status',
      'Settings',
      'Actions',
    ]);
    expect(within(dialog()).getByRole('tab', { name: 'Information' }).getAttribute('aria-selected')).toBe('true');
    const panel = await openTab(user, 'Settings');
    expect(within(dialog()).getByRole('tab', { name: 'Settings' }).getAttribute('aria-selected')).toBe('true');
    // The Settings tab is the terminal's service line, rendered by the caller.
    expect(panel.textContent).toBe('Settings of AST-511274-31364-54');
    const actions = await openTab(user, 'Actions');
    expect(within(actions).getByRole('button', { name: TERMINAL_MESSAGES.refreshData })).toBeTruthy();
  });

  it('has no Settings tab for a terminal on no service line, and opens on Information when asked for it', () => {
    const unlined = terminalItem({ userTerminalId: 'UT-0010', serviceLineNumber: 'Unknown' });
    renderDialog({ terminal: unlined, detail: null, usage: null, renderSettings: (line) => <p>Settings of {line}</p>, initialTab: 'settings' });
    expect(within(dialog()).getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Information', 'Usage', 'Status', 'Actions']);
    expect(within(dialog()).getByRole('tab', { name: 'Information' }).getAttribute('aria-selected')).toBe('true');
  });

  it('opens on the tab it is asked for', () => {
    renderDialog({ initialTab: 'usage' });
    expect(within(dialog()).getByRole('tab', { name: 'Usage' }).getAttribute('aria-selected')).toBe('true');
    expect(within(dialog()).getByText('Current Billing Cycle Usage')).toBeTruthy();
  });

  it('the close button asks to close', async () => {
    const { user, onClose } = renderDialog();
    await user.click(within(dialog()).getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('shows nothing while closed', () => {
    renderDialog({ open: false });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('TerminalDetailDialog: Information', () => {
  it('shows the owner read-only: customer name, company and customer UUID', () => {
    renderDialog();
    const name = within(dialog()).getByLabelText('Customer Name') as HTMLInputElement;
    expect(name.value).toBe('Nina Park');
    expect(name.readOnly).toBe(true);
    expect((within(dialog()).getByLabelText('Company') as HTMLInputElement).value).toBe('Northwind Shipping');
    expect((within(dialog()).getByLabelText('Customer UUID') as HTMLInputElement).value).toBe('7d3e9a41-5b2c-4d8e-9f10-2a3b4c5d6e7f');
  });

  it('writes N/A for an owner without a company (the list record knows no company)', () => {
    renderDialog({ detail: null, fallback: { message: 'Terminal not found' } });
    expect((within(dialog()).getByLabelText('Customer Name') as HTMLInputElement).value).toBe('Nina Park');
    expect((within(dialog()).getByLabelText('Company') as HTMLInputElement).value).toBe('N/A');
  });

  it('says "No Owner Information" for an unassigned terminal', () => {
    renderDialog({ terminal: unassigned, detail: terminalDetail({ owner: null, assignedTo: undefined, assignedToCustomer: undefined }), usage: null });
    expect(within(dialog()).getByRole('heading', { name: 'No Owner Information' })).toBeTruthy();
    expect(within(dialog()).getByText(TERMINAL_MESSAGES.noOwnerText)).toBeTruthy();
    expect(within(dialog()).queryByLabelText('Customer Name')).toBeNull();
  });

  it('shows plan, type, model, location and account number from the detail', () => {
    renderDialog();
    const terminal = within(dialog()).getByRole('region', { name: 'Terminal' });
    expect(field(terminal, 'Plan')).toBe('Business 1 TB');
    expect(field(terminal, 'Terminal Type')).toBe('Flat High Performance');
    expect(field(terminal, 'Model')).toBe('UTR-231');
    expect(field(terminal, 'Location')).toBe('Harbour office');
    expect(field(terminal, 'Account Number')).toBe('ACC-2963072-59271-11');
    expect(within(terminal).queryByText('Nickname')).toBeNull();
  });

  it('names the provider account in the overview when the portal holds more than one, and not otherwise', () => {
    const { rerenderWith } = renderDialog({ showAccount: true, detail: terminalDetail({ accountId: 2, accountName: 'Demo Brasil' }) });
    expect(field(overview(), 'Account')).toBe('Demo Brasil');
    rerenderWith({ showAccount: false, detail: terminalDetail({ accountId: 2, accountName: 'Demo Brasil' }) });
    expect(within(overview()).queryByText('Account')).toBeNull();
  });
});

describe('TerminalDetailDialog: Usage', () => {
  it('offers the twelve months, newest first, and reports the one picked', async () => {
    const { user, onMonth } = renderDialog();
    await openTab(user, 'Usage');
    const month = within(dialog()).getByRole('combobox', { name: 'Month' });
    expect(month.textContent).toContain('November 2026');
    await user.click(month);
    const list = within(await screen.findByRole('listbox'));
    const options = list.getAllByRole('option').map((o) => o.textContent);
    expect(options).toHaveLength(12);
    expect(options[0]).toBe('November 2026');
    expect(options[11]).toBe('December 2025');
    await user.click(list.getByRole('option', { name: 'September 2026' }));
    expect(onMonth).toHaveBeenCalledWith('2026-9');
  });

  it('shows Data Cap and Plan, and the billing cycle: period, percentage, used of total, remaining and total', async () => {
    const { user } = renderDialog();
    const panel = await openTab(user, 'Usage');
    const cap = within(panel).getByRole('region', { name: 'Data Cap and Plan' });
    expect(field(cap, 'Data Cap')).toBe('1,000 GB');
    expect(field(cap, 'Plan')).toBe('Business 1 TB');
    expect(field(cap, 'Terminal Type')).toBe('Flat High Performance');
    const cycle = within(panel).getByRole('region', { name: 'Current Billing Cycle Usage' });
    expect(field(cycle, 'Period Start')).toBe('Nov 1, 2026');
    expect(field(cycle, 'Period End')).toBe('Nov 30, 2026');
    expect(within(cycle).getByText(/30% used/)).toBeTruthy();
    expect(within(cycle).getByText('300.0 GB of 1000.0 GB')).toBeTruthy();
    expect(within(cycle).getByRole('progressbar', { name: 'Priority data used' }).getAttribute('aria-valuenow')).toBe('30');
    expect(within(cycle).getByText('Remaining: 700.0 GB').className).toBe('usage-remaining');
    expect(field(cycle, 'Total Usage This Cycle')).toBe('340.0 GB');
  });

  it.each([
    [75, 'normal'],
    [76, 'warning'],
    [90, 'warning'],
    [91, 'danger'],
    [100, 'danger'],
    [101, 'exceeded'],
  ])('colours the bar at %s percent as %s', async (used, level) => {
    const { user } = renderDialog({ usage: usageAt(used) });
    const panel = await openTab(user, 'Usage');
    expect(priorityBlock(panel).dataset.level).toBe(level);
    expect(within(panel).getByRole('progressbar').classList.contains(`usage-${level}`)).toBe(true);
    expect(within(panel).queryByText('EXCEEDED') !== null).toBe(level === 'exceeded');
  });

  it('above 100 percent marks EXCEEDED, caps the bar at 100 and shows the overage in red', async () => {
    const { user } = renderDialog({ usage: usageAt(150) });
    const panel = await openTab(user, 'Usage');
    expect(within(panel).getByText(/150% used/)).toBeTruthy();
    expect(within(panel).getByText('EXCEEDED')).toBeTruthy();
    expect(within(panel).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(within(panel).getByText('Overage: 50.0 GB').className).toBe('usage-overage');
    expect(within(panel).queryByText(/Remaining:/)).toBeNull();
  });

  it('at exactly 100 percent nothing is over: no EXCEEDED, and 0.0 GB remaining', async () => {
    const { user } = renderDialog({ usage: usageAt(100) });
    const panel = await openTab(user, 'Usage');
    expect(within(panel).queryByText('EXCEEDED')).toBeNull();
    expect(within(panel).getByText('Remaining: 0.0 GB')).toBeTruthy();
  });

  it('writes data in TB from 1024 GB and in GB below', async () => {
    const { user } = renderDialog({ usage: serviceLineUsage({ used: 1023.9, total: 2048 }) });
    const panel = await openTab(user, 'Usage');
    expect(within(panel).getByText('1023.9 GB of 2.0 TB')).toBeTruthy();
    expect(within(panel).getByText('Remaining: 1.0 TB')).toBeTruthy();
    expect(field(panel, 'Total Usage This Cycle')).toBe('1.0 TB');
  });

  it('without usage says "No Usage Data Available" with the message for an assigned terminal', async () => {
    const { user } = renderDialog({ usage: serviceLineUsage(null) });
    const panel = await openTab(user, 'Usage');
    expect(within(panel).getByRole('heading', { name: 'No Usage Data Available' })).toBeTruthy();
    expect(within(panel).getByText(TERMINAL_MESSAGES.noUsageAssigned)).toBeTruthy();
    expect(within(panel).queryByRole('region', { name: 'Current Billing Cycle Usage' })).toBeNull();
  });

  it('a month that failed to load says why and offers Try Again, rather than passing for an empty month', async () => {
    const { user, onRetry } = renderDialog({ usage: null, usageError: 'Failed to load usage data' });
    const panel = await openTab(user, 'Usage');
    expect(within(panel).getByRole('alert').textContent).toContain('Failed to load usage data');
    expect(within(panel).queryByRole('heading', { name: 'No Usage Data Available' })).toBeNull();
    await user.click(within(panel).getByRole('button', { name: 'Try Again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('without usage says so with the unassigned message for a terminal with no owner', async () => {
    const { user } = renderDialog({
      terminal: unassigned,
      detail: terminalDetail({ owner: null, assignedTo: undefined, assignedToCustomer: undefined }),
      usage: null,
    });
    const panel = await openTab(user, 'Usage');
    expect(within(panel).getByText(TERMINAL_MESSAGES.noUsageTitle)).toBeTruthy();
    expect(within(panel).getByText(TERMINAL_MESSAGES.noUsageUnassigned)).toBeTruthy();
  });

  it('shows a placeholder while the month loads', async () => {
    const { user } = renderDialog({ usage: null, usageLoading: true });
    const panel = await openTab(user, 'Usage');
    expect(within(panel).getByRole('status', { name: 'Loading usage' })).toBeTruthy();
    expect(within(panel).queryByText(TERMINAL_MESSAGES.noUsageTitle)).toBeNull();
  });

  it('draws one bar per day of the month, priority over standard', async () => {
    const records = [
      { date: '2026-11-01', priorityGB: 10, standardGB: 2, optInPriorityGB: 0, nonBillableGB: 0 },
      { date: '2026-11-02', priorityGB: 5, standardGB: 5, optInPriorityGB: 0, nonBillableGB: 0 },
    ];
    const { user } = renderDialog({ usage: serviceLineUsage(undefined, { rawUsageRecords: records }) });
    const panel = await openTab(user, 'Usage');
    const chart = within(panel).getByRole('img');
    expect(chart.getAttribute('aria-label')).toBe('Daily usage over 2 days: 15.0 GB priority, 7.0 GB standard');
    const days = chart.querySelectorAll('.usage-chart-day');
    expect(days).toHaveLength(2);
    expect(days[0]!.getAttribute('title')).toBe('Nov 1, 2026: 10.0 GB priority, 2.0 GB standard');
    expect((days[0]!.querySelector('.usage-chart-priority') as HTMLElement).style.height).toBe(`${(10 / 12) * 100}%`);
  });
});

describe('TerminalDetailDialog: Status', () => {
  it('an active terminal is Connected, On, Online and "Terminal is active and operational"', async () => {
    const { user } = renderDialog();
    const panel = await openTab(user, 'Status');
    expect(field(panel, 'Connection')).toBe('Connected');
    expect(field(panel, 'Power')).toBe('On');
    expect(field(panel, 'Network')).toBe('Online');
    expect(panel.textContent).toContain(TERMINAL_MESSAGES.activeStatusText);
  });

  it('an inactive terminal is Disconnected, Off, Offline and "Terminal is inactive"', async () => {
    const { user } = renderDialog({ terminal: unassigned, detail: null });
    const panel = await openTab(user, 'Status');
    expect(field(panel, 'Connection')).toBe('Disconnected');
    expect(field(panel, 'Power')).toBe('Off');
    expect(field(panel, 'Network')).toBe('Offline');
    expect(panel.textContent).toContain(TERMINAL_MESSAGES.inactiveStatusText);
    expect(panel.textContent).not.toContain(TERMINAL_MESSAGES.activeStatusText);
  });

  it('shows when it last synced and the sync status: synced in the default style, the others destructive', async () => {
    const { user, rerenderWith } = renderDialog();
    let panel = await openTab(user, 'Status');
    expect(field(panel, 'Last Synced')).toContain('(5 minutes ago)');
    const synced = within(panel).getByText('Synced').closest('.p-tag') as HTMLElement;
    expect(synced.className).not.toMatch(/p-tag-(danger|warning|success)/);
    rerenderWith({ detail: terminalDetail({ syncStatus: 'error', syncError: 'Provider record unreadable' }) });
    panel = within(dialog()).getByRole('tabpanel');
    expect((within(panel).getByText('Sync error').closest('.p-tag') as HTMLElement).classList.contains('p-tag-danger')).toBe(true);
    expect(field(panel, 'Sync Error')).toBe('Provider record unreadable');
    rerenderWith({ detail: terminalDetail({ syncStatus: 'pending', lastSyncedAt: null }) });
    panel = within(dialog()).getByRole('tabpanel');
    expect((within(panel).getByText('Sync pending').closest('.p-tag') as HTMLElement).classList.contains('p-tag-danger')).toBe(true);
    expect(field(panel, 'Last Synced')).toBe('Never');
  });

  it('shows telemetry with the signal graded by colour', async () => {
    const telemetry = {
      reportedAt: '2026-11-20T10:04:45.000Z',
      signalQuality: 84,
      uptimeSeconds: 3 * 86_400 + 4 * 3600,
      downlinkMbps: 182.44,
      uplinkMbps: 21.5,
      latencyMs: 38.4,
      obstructionPercent: 1.25,
      softwareVersion: '2026.11.1',
      alerts: ['alertSlowEthernetSpeeds'],
    };
    const { user } = renderDialog({ detail: terminalDetail({ telemetry }) });
    const panel = within(await openTab(user, 'Status')).getByRole('region', { name: 'Telemetry' });
    expect(field(panel, 'Signal Quality')).toBe('84% (Good)');
    expect(within(panel).getByText('84% (Good)').className).toBe('signal-good');
    expect(field(panel, 'Latency')).toBe('38 ms');
    expect(field(panel, 'Downlink')).toBe('182.4 Mbps');
    expect(field(panel, 'Obstruction')).toBe('1.3%');
    expect(field(panel, 'Uptime')).toBe('3d 4h');
    expect(field(panel, 'Last Report')).toBe('just now');
    expect(field(panel, 'Alerts')).toBe('alertSlowEthernetSpeeds');
  });

  it('shows no telemetry section when the terminal has none', async () => {
    const { user } = renderDialog();
    const panel = await openTab(user, 'Status');
    expect(within(panel).queryByRole('region', { name: 'Telemetry' })).toBeNull();
  });
});

describe('TerminalDetailDialog: Actions', () => {
  it('"Refresh Data" asks to refresh, and is busy while refreshing', async () => {
    const { user, onRefresh, rerenderWith } = renderDialog();
    const panel = await openTab(user, 'Actions');
    await user.click(within(panel).getByRole('button', { name: 'Refresh Data' }));
    expect(onRefresh).toHaveBeenCalledOnce();
    rerenderWith({ refreshing: true });
    const busy = within(dialog()).getByRole('button', { name: 'Refresh Data' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    expect(busy.getAttribute('aria-busy')).toBe('true');
  });

  it('"Report Issue" opens a form that needs a description and sends it trimmed', async () => {
    const { user, onReportIssue } = renderDialog();
    const panel = await openTab(user, 'Actions');
    expect(within(panel).queryByRole('form')).toBeNull();
    await user.click(within(panel).getByRole('button', { name: 'Report Issue' }));
    const form = within(panel).getByRole('form', { name: 'Report Issue' });
    const note = within(form).getByLabelText('Describe the issue') as HTMLTextAreaElement;
    expect(note.maxLength).toBe(REPORT_ISSUE_MAX_LENGTH);
    expect(note.required).toBe(true);

    await user.click(within(form).getByRole('button', { name: 'Send Report' }));
    expect(within(form).getByRole('alert').textContent).toBe('Please describe the issue.');
    expect(note.getAttribute('aria-invalid')).toBe('true');
    await user.type(note, '   ');
    expect(within(form).queryByRole('alert')).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Send Report' }));
    expect(within(form).getByRole('alert').textContent).toBe('Please describe the issue.');
    expect(onReportIssue).not.toHaveBeenCalled();

    await user.type(note, 'Dish reports motors stuck  ');
    expect(within(form).getByText(`30/${REPORT_ISSUE_MAX_LENGTH}`)).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: 'Send Report' }));
    expect(onReportIssue).toHaveBeenCalledExactlyOnceWith('Dish reports motors stuck');
  });

  it('refuses a description longer than 2000 characters', async () => {
    const { user, onReportIssue } = renderDialog();
    const panel = await openTab(user, 'Actions');
    await user.click(within(panel).getByRole('button', { name: 'Report Issue' }));
    const note = within(panel).getByLabelText('Describe the issue');
    // maxLength stops typing; a value set programmatically past it is still refused.
    fireEvent.change(note, { target: { value: 'x'.repeat(REPORT_ISSUE_MAX_LENGTH + 1) } });
    await user.click(within(panel).getByRole('button', { name: 'Send Report' }));
    expect(within(panel).getByRole('alert').textContent).toBe('Keep the description to 2000 characters or fewer.');
    fireEvent.change(note, { target: { value: 'y'.repeat(REPORT_ISSUE_MAX_LENGTH) } });
    await user.click(within(panel).getByRole('button', { name: 'Send Report' }));
    expect(onReportIssue).toHaveBeenCalledWith('y'.repeat(REPORT_ISSUE_MAX_LENGTH));
  });

  it('while sending the form is locked; a success closes it and shows the notice, an error keeps it', async () => {
    const { user, rerenderWith } = renderDialog();
    const panel = await openTab(user, 'Actions');
    await user.click(within(panel).getByRole('button', { name: 'Report Issue' }));
    await user.type(within(panel).getByLabelText('Describe the issue'), 'No signal');
    rerenderWith({ reporting: true });
    expect((within(dialog()).getByLabelText('Describe the issue') as HTMLTextAreaElement).disabled).toBe(true);
    expect((within(dialog()).getByRole('button', { name: 'Sending...' }) as HTMLButtonElement).disabled).toBe(true);

    rerenderWith({ reporting: false, notice: { kind: 'error', text: 'Could not send the report' } });
    expect(within(dialog()).getByRole('alert').textContent).toContain('Could not send the report');
    expect((within(dialog()).getByLabelText('Describe the issue') as HTMLTextAreaElement).value).toBe('No signal');

    rerenderWith({ reporting: false, notice: { kind: 'success', text: 'Issue reported' } });
    expect(within(dialog()).getByRole('status').textContent).toContain('Issue reported');
    expect(within(dialog()).queryByRole('form')).toBeNull();
    await user.click(within(dialog()).getByRole('button', { name: 'Report Issue' }));
    expect((within(dialog()).getByLabelText('Describe the issue') as HTMLTextAreaElement).value).toBe('');
  });

  it("the notice of the last action can be dismissed", async () => {
    const { user, onDismissNotice } = renderDialog({ notice: { kind: 'success', text: 'Terminal data refreshed' } });
    const panel = await openTab(user, 'Actions');
    await user.click(within(panel).getByRole('button', { name: 'Dismiss' }));
    expect(onDismissNotice).toHaveBeenCalledTimes(1);
  });
});
