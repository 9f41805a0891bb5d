// The customer area's views: props in, callbacks out, and `readOnly` hides every action
// (the admin "View as customer" preview renders the same views).
import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { MY_AREA_MESSAGES as M, type MyOverviewWire, type MyTerminalDetailWire, type MyTerminalWire } from '../../src/domain/my-area';
import { MyOverviewView } from '../../src/ui/my/MyOverviewView';
import { MyTerminalsView } from '../../src/ui/my/MyTerminalsView';
import { MyTerminalView } from '../../src/ui/my/MyTerminalView';
import type { TerminalActionsProps } from '../../src/ui/my/TerminalActionDialogs';
import { renderStrict } from './render';

const terminal: MyTerminalWire = {
  terminalId: 'UT1001',
  nickname: 'North Barn',
  serviceLineNumber: 'AST-1-2-3',
  kitSerialNumber: 'KIT1001',
  dishSerialNumber: 'DSH1001',
  status: 'Active',
  lineEndDate: null,
  online: true,
  signalQuality: 91.5,
  uptimeSeconds: 93_600,
  telemetryAt: '2026-03-18T10:29:50.000Z',
  alerts: [],
  planName: 'Local Priority 50 GB',
  usage: { usedGB: 45, planGB: 50, remainingGB: 5, overageGB: 0, percentage: 90 },
  billingCycle: { startDate: '2026-03-01', endDate: '2026-03-31' },
};

const detail: MyTerminalDetailWire = {
  terminal,
  month: '2026-03',
  months: ['2026-03', '2026-02', '2026-01'],
  daily: [
    { date: '2026-03-01', priorityGB: 2, standardGB: 1 },
    { date: '2026-03-02', priorityGB: 3, standardGB: 0 },
  ],
  totals: { priorityGB: 5, standardGB: 1 },
  forecast: { projectedUsedGB: 77.5, projectedOverageGB: 27.5, projectedCharges: 137.5 },
  currency: 'USD',
};

const closedActions = (over: Partial<TerminalActionsProps> = {}): TerminalActionsProps => ({
  dialog: null,
  busy: false,
  name: '',
  nameError: null,
  failure: null,
  onRename: vi.fn(),
  onReboot: vi.fn(),
  onName: vi.fn(),
  onConfirm: vi.fn(),
  onClose: vi.fn(),
  ...over,
});

const terminalView = (props: Partial<Parameters<typeof MyTerminalView>[0]> = {}) => (
  <MyTerminalView detail={detail} loading={false} error={null} onRetry={vi.fn()} onNavigate={vi.fn()} onMonth={vi.fn()} readOnly={false} actions={closedActions()} {...props} />
);

describe('MyTerminalView', () => {
  it('shows the name, service line, usage, the daily chart and the forecast, and offers Rename and Reboot', async () => {
    const actions = closedActions();
    const { user } = renderStrict(terminalView({ actions }));
    expect(screen.getByRole('heading', { level: 1, name: 'North Barn' })).toBeTruthy();
    expect(screen.getByText(/Service line AST-1-2-3/)).toBeTruthy();
    expect(screen.getByText(/45\.0 GB of 50\.0 GB \(90%\)/)).toBeTruthy();
    expect(screen.getByRole('img', { name: /Daily usage over 2 days/ })).toBeTruthy();
    expect(screen.getByText(/about \$137\.50/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Rename' }));
    await user.click(screen.getByRole('button', { name: 'Reboot' }));
    expect(actions.onRename).toHaveBeenCalledOnce();
    expect(actions.onReboot).toHaveBeenCalledOnce();
  });

  it('hides every action when read-only', () => {
    renderStrict(terminalView({ readOnly: true, actions: closedActions({ dialog: 'reboot' }) }));
    expect(screen.queryByRole('button', { name: 'Rename' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reboot' })).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('does not offer Reboot for an offline terminal', () => {
    renderStrict(terminalView({ detail: { ...detail, terminal: { ...terminal, online: false } } }));
    expect((screen.getByRole('button', { name: 'Reboot' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("shows the server's words in the reboot confirmation (how long to wait after a 429)", async () => {
    const actions = closedActions({ dialog: 'reboot', failure: M.rebootTooSoonTerminal(6) });
    const { user } = renderStrict(terminalView({ actions }));
    const dialog = await screen.findByRole('dialog', { name: 'Reboot terminal' });
    expect(within(dialog).getByText(M.rebootTooSoonTerminal(6))).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Reboot' }));
    expect(actions.onConfirm).toHaveBeenCalledOnce();
  });

  it('edits the name in the rename dialog and shows its problem', async () => {
    const actions = closedActions({ dialog: 'rename', name: 'North Barn', nameError: M.nameTooLong });
    const { user } = renderStrict(terminalView({ actions }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename terminal' });
    expect(within(dialog).getByText(M.nameTooLong)).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Name'), 'x');
    expect(actions.onName).toHaveBeenLastCalledWith('North Barnx');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(actions.onClose).toHaveBeenCalled();
  });

  it('shows the load failure with Try Again', async () => {
    const onRetry = vi.fn();
    const { user } = renderStrict(terminalView({ detail: null, error: M.notFound, onRetry }));
    expect(screen.getByText(M.notFound)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Try Again/ }));
    expect(onRetry).toHaveBeenCalledOnce();
  });
});

describe('MyTerminalsView', () => {
  it('lists the terminals with status, connection, signal and plan; a row opens the terminal', async () => {
    const onOpenTerminal = vi.fn();
    const { user } = renderStrict(<MyTerminalsView terminals={[terminal]} loading={false} error={null} onRetry={vi.fn()} onNavigate={vi.fn()} onOpenTerminal={onOpenTerminal} />);
    const table = screen.getByRole('table');
    expect(within(table).getByText('Active')).toBeTruthy();
    expect(within(table).getByText('Online')).toBeTruthy();
    expect(within(table).getByText('91.5%')).toBeTruthy();
    expect(within(table).getByText('1 d 2 h')).toBeTruthy();
    expect(within(table).getByText('Local Priority 50 GB')).toBeTruthy();
    await user.click(within(table).getByRole('button', { name: /North Barn/ }));
    expect(onOpenTerminal).toHaveBeenCalledWith('UT1001');
  });

  it('says so when no terminal is assigned yet', () => {
    renderStrict(<MyTerminalsView terminals={[]} loading={false} error={null} onRetry={vi.fn()} onNavigate={vi.fn()} onOpenTerminal={vi.fn()} />);
    expect(screen.getByText(M.noTerminals)).toBeTruthy();
  });
});

describe('MyOverviewView', () => {
  const overview: MyOverviewWire = {
    terminals: 3,
    onlineNow: 2,
    usage: { usedGB: 105, planGB: 100, remainingGB: 0, overageGB: 5, percentage: 105 },
    forecast: { projectedUsedGB: 180.8, projectedOverageGB: 80.8, projectedCharges: 404 },
    currency: 'USD',
    alerts: {
      count: 2,
      items: [
        { id: 'a1', kind: 'offline', severity: 'critical', title: 'Terminal offline', terminalId: 'UT9', serviceLineNumber: null, message: 'Shed is offline', since: null },
        { id: 'a2', kind: 'account_expiring', severity: 'warning', title: 'Account expiring', terminalId: null, serviceLineNumber: null, message: 'Your account expires in 5 days', since: null },
      ],
    },
  };

  it('shows the counts, the use against the plans, the projected charge and the open alerts', async () => {
    const onOpenTerminal = vi.fn();
    const { user } = renderStrict(<MyOverviewView overview={overview} loading={false} error={null} onRetry={vi.fn()} onNavigate={vi.fn()} onOpenTerminal={onOpenTerminal} />);
    expect(screen.getByText('2 of 3')).toBeTruthy();
    expect(screen.getByText(/105\.0 GB of 100\.0 GB \(105%\), 5\.0 GB over/)).toBeTruthy();
    expect(screen.getByText(/about \$404\.00 in overage charges/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Open alerts (2)' })).toBeTruthy();
    expect(screen.getByText('Terminal offline: Shed is offline')).toBeTruthy();
    // An alert about the account names no terminal to open.
    expect(screen.getByText('Account expiring: Your account expires in 5 days')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /^Open terminal/ })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Open terminal UT9' }));
    expect(onOpenTerminal).toHaveBeenCalledWith('UT9');
  });

  it('says there are no alerts when none is open', () => {
    renderStrict(<MyOverviewView overview={{ ...overview, alerts: { count: 0, items: [] } }} loading={false} error={null} onRetry={vi.fn()} onNavigate={vi.fn()} onOpenTerminal={vi.fn()} />);
    expect(screen.getByText(M.noAlerts)).toBeTruthy();
  });
});
