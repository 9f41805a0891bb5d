import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { DashboardSummary } from '../../src/domain/dashboard';
import { DashboardView, type DashboardViewProps } from '../../src/ui/dashboard/DashboardView';
import { renderStrict } from './render';

const summary: DashboardSummary = {
  totalCustomers: 24,
  activeTerminals: 156,
  systemUsers: 48,
  providerHealth: { status: 'Healthy', checkedAt: null, detail: 'Built-in simulator answered in 12 ms' },
  recentActivity: [
    {
      id: 'a1',
      action: 'auth.login',
      description: 'Ana Lima signed in',
      actorName: 'Ana Lima',
      createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    },
    {
      id: 'a2',
      action: 'customer.create',
      description: 'Customer Orbital Freight was created',
      actorName: 'Ana Lima',
      createdAt: '2024-01-15T10:00:00.000Z',
    },
  ],
  accounts: [],
};

const twoAccounts: DashboardSummary['accounts'] = [
  { id: 1, name: 'Demo US', status: 'active', currency: 'USD', terminals: 156, activeTerminals: 140 },
  { id: 2, name: 'Demo Brasil', status: 'auth_failed', currency: 'BRL', terminals: 52, activeTerminals: 16 },
];

function renderDashboard(props: Partial<DashboardViewProps> = {}) {
  const onRetry = vi.fn();
  const onNavigate = vi.fn();
  const result = renderStrict(
    <DashboardView
      profile={{ uuid: 'a1b2c3d4-e5f6-4711-8899-aabbccddeeff', name: 'Ana Lima', updatedAt: '2025-03-01T09:30:00.000Z' }}
      summary={summary}
      loading={false}
      error={null}
      onRetry={onRetry}
      onNavigate={onNavigate}
      {...props}
    />,
  );
  return { ...result, onRetry, onNavigate };
}

const card = (name: string) => screen.getByRole('region', { name });

describe('DashboardView', () => {
  it('splits the fleet by provider account when there are several, each with its status', () => {
    renderDashboard({ summary: { ...summary, accounts: twoAccounts } });
    const table = within(screen.getByRole('region', { name: 'Provider accounts' })).getByRole('table');
    const rows = within(table).getAllByRole('row').slice(1).map((row) => row.textContent);
    expect(rows).toEqual(['Demo USActiveUSD156140', 'Demo BrasilAuthentication failedBRL5216']);
  });

  it('shows no account split with a single account', () => {
    renderDashboard({ summary: { ...summary, accounts: twoAccounts.slice(0, 1) } });
    expect(screen.queryByRole('region', { name: 'Provider accounts' })).toBeNull();
  });

  it('is titled "Enterprise Dashboard" and greets the signed-in admin by name', () => {
    renderDashboard();
    expect(screen.getByRole('heading', { level: 1, name: 'Enterprise Dashboard' })).toBeTruthy();
    expect(screen.getByText('Welcome back, Ana Lima')).toBeTruthy();
  });

  it('shows the account id as ACC- plus the first 8 characters of the uuid in upper case', () => {
    renderDashboard();
    expect(screen.getByText('ACC-A1B2C3D4')).toBeTruthy();
  });

  it('shows the last login from the profile updatedAt in local time', () => {
    renderDashboard();
    expect(screen.getByText(new Date('2025-03-01T09:30:00.000Z').toLocaleString())).toBeTruthy();
  });

  it('falls back to "Enterprise Admin", "ACC-DEMO123" and "Just now" without a profile', () => {
    renderDashboard({ profile: null });
    expect(screen.getByText('Welcome back, Enterprise Admin')).toBeTruthy();
    expect(screen.getByText('ACC-DEMO123')).toBeTruthy();
    expect(screen.getByText('Just now')).toBeTruthy();
  });

  it('falls back the same way for a profile with blank fields', () => {
    renderDashboard({ profile: { name: '  ' } });
    expect(screen.getByText('Welcome back, Enterprise Admin')).toBeTruthy();
    expect(screen.getByText('ACC-DEMO123')).toBeTruthy();
    expect(screen.getByText('Just now')).toBeTruthy();
  });

  it('renders the four figures from the summary', () => {
    renderDashboard();
    expect(within(card('Total Customers')).getByText('24')).toBeTruthy();
    expect(within(card('Active Terminals')).getByText('156')).toBeTruthy();
    expect(within(card('System Users')).getByText('48')).toBeTruthy();
    const health = card('Starlink-style API Health');
    expect(within(health).getByText('Healthy').className).toContain('health-success');
    expect(within(health).getByText('Built-in simulator answered in 12 ms')).toBeTruthy();
  });

  it('formats large figures with thousands separators', () => {
    renderDashboard({ summary: { ...summary, totalCustomers: 12_345 } });
    expect(within(card('Total Customers')).getByText('12,345')).toBeTruthy();
  });

  it('shows an em dash and the first-sync hint while there are no terminals', () => {
    renderDashboard({ summary: { ...summary, activeTerminals: null } });
    const terminals = card('Active Terminals');
    expect(within(terminals).getByText('—')).toBeTruthy();
    expect(within(terminals).getByText('Available after the first terminal sync')).toBeTruthy();
  });

  it.each([
    ['Degraded', 'health-warning'],
    ['Down', 'health-danger'],
    ['Not connected', 'health-secondary'],
  ] as const)('colours a %s provider with %s', (status, className) => {
    renderDashboard({ summary: { ...summary, providerHealth: { status, checkedAt: null, detail: null } } });
    const health = card('Starlink-style API Health');
    expect(within(health).getByText(status).className).toContain(className);
    expect(within(health).getByText('Not checked yet')).toBeTruthy();
  });

  it('shows skeletons instead of figures while loading, with the greeting in place', () => {
    renderDashboard({ loading: true, summary: null });
    expect(card('Total Customers').getAttribute('aria-busy')).toBe('true');
    expect(within(card('Total Customers')).queryByText('24')).toBeNull();
    expect(screen.getByText('Welcome back, Ana Lima')).toBeTruthy();
    expect(screen.queryByText('No recent activity')).toBeNull();
  });

  it('shows the error with a Try Again button that calls onRetry, and keeps the greeting', async () => {
    const { user, onRetry } = renderDashboard({ summary: null, error: 'Could not reach the server' });
    const alert = screen.getByRole('alert');

    expect(within(alert).getByText('Could not reach the server')).toBeTruthy();
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect(screen.getByText('Welcome back, Ana Lima')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Total Customers' })).toBeNull();
  });

  it('offers four modules with Open links that navigate, and says "4 active modules"', async () => {
    const { user, onNavigate } = renderDashboard();
    expect(screen.getByText('4 active modules')).toBeTruthy();

    const expected = [
      ['Customers', '/customers'],
      ['Terminals', '/terminals'],
      ['Users', '/users'],
      ['Settings', '/settings'],
    ];
    for (const [title, url] of expected) {
      const open = screen.getByRole('link', { name: `Open ${title}` });
      expect(open.getAttribute('href')).toBe(url);
      await user.click(open);
      expect(onNavigate).toHaveBeenLastCalledWith(url);
    }
    expect(onNavigate).toHaveBeenCalledTimes(4);
  });

  it('lists recent activity with relative and local times', () => {
    renderDashboard();
    const activity = screen.getByRole('region', { name: 'Recent Activity' });
    const items = within(activity).getAllByRole('listitem');

    expect(items).toHaveLength(2);
    expect(within(items[0] as HTMLElement).getByText('Ana Lima signed in')).toBeTruthy();
    expect(within(items[0] as HTMLElement).getByText('5 minutes ago')).toBeTruthy();
    expect(within(items[1] as HTMLElement).getByText(new Date('2024-01-15T10:00:00.000Z').toLocaleString('en'))).toBeTruthy();
  });

  it('says "No recent activity" when the list is empty', () => {
    renderDashboard({ summary: { ...summary, recentActivity: [] } });
    expect(screen.getByText('No recent activity')).toBeTruthy();
  });
});
