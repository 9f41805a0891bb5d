// The Account filter and column of the alerts, the requests queue and the recent bulk runs: shown
// when the portal holds more than one provider account, absent with one (the page as before).
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ALERT_MESSAGES } from '../../src/domain/alerts';
import type { BulkOperationWire } from '../../src/domain/bulk';
import type { ProviderAccountRef } from '../../src/domain/provider-accounts';
import { REQUEST_MESSAGES } from '../../src/domain/requests';
import { RecentBulkActions } from '../../src/ui/bulk/RecentBulkActions';
import { BULK_TEXTS } from '../../src/ui/bulk/parts';
import { RequestsView } from '../../src/ui/requests/RequestsView';
import { alertList, envelope, offlineAlert, openAlert } from '../fixtures/alerts';
import { declinedRequest, queuedRequest, requestQueue } from '../fixtures/requests-client';
import { fakePortalApi } from '../model/framework/screen';
import { openSignedInAt } from './open-app';
import { renderStrict } from './render';

const US: ProviderAccountRef = { id: 1, name: 'Demo US' };
const BRASIL: ProviderAccountRef = { id: 2, name: 'Demo Brasil' };

describe('Alerts page', () => {
  function openAlerts(accounts: ProviderAccountRef[], path = '/alerts') {
    const api = fakePortalApi({
      'GET /api/v1/provider-accounts/refs': { body: envelope(accounts) },
      'GET /api/v1/alerts': {
        body: envelope(alertList([{ ...openAlert, accountId: US.id, accountName: US.name }, { ...offlineAlert, accountId: null, accountName: null }])),
      },
      'GET /api/v1/alerts/bell': { body: envelope({ unread: 0, open: 0, latest: [] }) },
    });
    return { ...openSignedInAt(path, api.fetch), calls: api.calls };
  }
  const table = () => within(screen.getByRole('table', { name: ALERT_MESSAGES.pageTitle }));

  it("with two accounts, names each alert's account and filters by the one chosen, in the address too", async () => {
    const { user, location, calls } = openAlerts([US, BRASIL]);
    await screen.findByText(offlineAlert.message);
    await waitFor(() => expect(table().getByRole('columnheader', { name: 'Account' })).toBeTruthy());
    expect(table().getByText(US.name)).toBeTruthy();
    // An alert on no line has no account.
    expect(table().getAllByText('—').length).toBeGreaterThan(0);
    await user.click(screen.getByLabelText('Account').closest('.p-dropdown')!);
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: BRASIL.name }));
    await waitFor(() => expect(location()).toBe('/alerts?account=2'));
    await waitFor(() => expect(calls.some((c) => c.startsWith('GET /api/v1/alerts?') && c.includes('account_id=2'))).toBe(true));
  });

  it('asks for the account of the address from the first load', async () => {
    const { calls } = openAlerts([US, BRASIL], '/alerts?account=2');
    await screen.findByText(offlineAlert.message);
    expect(calls.find((c) => c.startsWith('GET /api/v1/alerts?'))).toContain('account_id=2');
  });

  it('with one account, shows neither the filter nor the column', async () => {
    const { calls } = openAlerts([US]);
    await screen.findByText(offlineAlert.message);
    await waitFor(() => expect(calls).toContain('GET /api/v1/provider-accounts/refs'));
    expect(table().queryByRole('columnheader', { name: 'Account' })).toBeNull();
    expect(screen.queryByLabelText('Account')).toBeNull();
  });
});

describe('Requests queue', () => {
  function renderQueue(accounts?: ProviderAccountRef[]) {
    const onAccount = vi.fn();
    const data = requestQueue([queuedRequest({ accountId: BRASIL.id, accountName: BRASIL.name }), declinedRequest]);
    const view = renderStrict(
      <RequestsView
        requests={data.requests}
        pagination={data.pagination}
        counts={data.counts}
        status="all"
        loading={false}
        error={null}
        busy={false}
        onStatus={vi.fn()}
        onPage={vi.fn()}
        onRetry={vi.fn()}
        onApprove={vi.fn()}
        onDecline={vi.fn()}
        {...(accounts ? { accounts } : {})}
        account={null}
        onAccount={onAccount}
      />,
    );
    return { ...view, onAccount, table: within(screen.getByRole('table', { name: REQUEST_MESSAGES.queueTitle })) };
  }

  it("with two accounts, names each request's account (a dash without a line) and offers the filter", async () => {
    const { user, onAccount, table } = renderQueue([US, BRASIL]);
    expect(table.getByRole('columnheader', { name: 'Account' })).toBeTruthy();
    expect(table.getByText(BRASIL.name)).toBeTruthy();
    expect(table.getAllByText('—').length).toBeGreaterThan(0);
    await user.click(screen.getByLabelText('Account').closest('.p-dropdown')!);
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: BRASIL.name }));
    expect(onAccount).toHaveBeenCalledWith(BRASIL.id);
  });

  it('asks the server for the chosen account, from the first page', async () => {
    const api = fakePortalApi({
      'GET /api/v1/provider-accounts/refs': { body: envelope([US, BRASIL]) },
      'GET /api/v1/requests': { body: envelope(requestQueue([queuedRequest({ accountId: US.id, accountName: US.name })])) },
    });
    const { user } = openSignedInAt('/requests', api.fetch);
    await waitFor(() => expect(screen.getByLabelText('Account')).toBeTruthy());
    await user.click(screen.getByLabelText('Account').closest('.p-dropdown')!);
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: BRASIL.name }));
    await waitFor(() => expect(api.calls.at(-1)).toMatch(/^GET \/api\/v1\/requests\?.*page=1.*account_id=2/));
  });

  it('with one account, shows neither the filter nor the column', () => {
    const { table } = renderQueue();
    expect(table.queryByRole('columnheader', { name: 'Account' })).toBeNull();
    expect(screen.queryByLabelText('Account')).toBeNull();
  });
});

describe('Recent bulk actions', () => {
  const run = (overrides: Partial<BulkOperationWire>): BulkOperationWire => ({
    id: 'b0000000-0000-4000-8000-000000000001',
    kind: 'assign',
    status: 'done',
    total: 3,
    done: 3,
    succeeded: 3,
    failed: 0,
    skipped: 0,
    createdAt: '2026-03-10T09:00:00.000Z',
    finishedAt: '2026-03-10T09:01:00.000Z',
    createdBy: 'Test Admin',
    ...overrides,
  });
  const runs = [run({ accounts: [BRASIL, US] }), run({ id: 'b0000000-0000-4000-8000-000000000002', kind: 'block', accounts: [] })];
  const renderRecent = (showAccounts: boolean) =>
    renderStrict(<RecentBulkActions operations={runs} error={null} shown={null} canOpen showAccounts={showAccounts} onOpen={vi.fn()} onRetry={vi.fn()} />);

  it('with two accounts, names the accounts of each run (a dash for a customer action)', () => {
    renderRecent(true);
    const table = within(screen.getByRole('table', { name: BULK_TEXTS.recentTable }));
    expect(table.getByRole('columnheader', { name: 'Accounts' })).toBeTruthy();
    expect(table.getByText('Demo Brasil, Demo US')).toBeTruthy();
    expect(table.getByText('—')).toBeTruthy();
  });

  it('with one account, has no Accounts column', () => {
    renderRecent(false);
    const table = within(screen.getByRole('table', { name: BULK_TEXTS.recentTable }));
    expect(table.queryByRole('columnheader', { name: 'Accounts' })).toBeNull();
  });
});
