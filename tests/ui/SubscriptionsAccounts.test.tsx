// The Subscriptions page across provider accounts, through the whole client against a fake of the
// portal API at the fetch seam: the Account column and filter show only with more than one account,
// and the Change Plan dialog offers the plans of the line's own account.
import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { ProviderAccountRef } from '../../src/domain/provider-accounts';
import { SUBSCRIPTION_MESSAGES, type SubscriptionWire } from '../../src/domain/subscriptions';
import { adminProfile } from '../machines/fixtures';
import { plan1TB, plan50, subscription } from '../fixtures/subscriptions-client';
import { openSignedInAt } from './open-app';

const DEMO_US: ProviderAccountRef = { id: 1, name: 'Demo US' };
const DEMO_BRASIL: ProviderAccountRef = { id: 2, name: 'Demo Brasil' };

function fakePortalApi(accounts: readonly ProviderAccountRef[]) {
  const rows: SubscriptionWire[] = [
    subscription({ terminalId: 'UT-US-1', serviceLineNumber: 'AST-100001-20000-11', accountId: DEMO_US.id, accountName: DEMO_US.name }),
    subscription({ terminalId: 'UT-BR-1', serviceLineNumber: 'AST-200001-20000-22', accountId: DEMO_BRASIL.id, accountName: DEMO_BRASIL.name, currency: 'BRL' }),
  ];
  const calls: string[] = [];
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const ok = (data: unknown) => json(200, { success: true, message: 'ok', data });
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const call = `${init?.method ?? 'GET'} ${url.pathname}`;
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    calls.push(`${call}${url.search}`);
    if (call === 'GET /api/v1/auth/me') return ok({ user: adminProfile });
    if (call === 'GET /api/v1/provider-accounts/refs') return ok(accounts);
    if (call === 'GET /api/v1/subscriptions') {
      const account = url.searchParams.get('account_id');
      const matching = rows.filter((r) => account === null || String(r.accountId) === account);
      const summary = { totalTerminals: rows.length, plans50GB: rows.length, plans1TB: 0, overageTerminals: 0, totalOverageGB: 0 };
      return ok({ subscriptions: matching, pagination: { total: matching.length, page: 1, limit: 25, pages: 1 }, summary });
    }
    if (call === 'GET /api/v1/subscriptions/plans') return ok([plan50, plan1TB]);
    return json(404, { success: false, message: `Route not found: ${call}` });
  });
  return { fetch, calls };
}

function openSubscriptions(path: string, accounts: readonly ProviderAccountRef[]) {
  const api = fakePortalApi(accounts);
  const listCalls = () => api.calls.filter((c) => c.startsWith('GET /api/v1/subscriptions?'));
  return { ...openSignedInAt(path, api.fetch), api, listCalls };
}

describe('the Subscriptions page across provider accounts', () => {
  const table = () => screen.getByRole('table', { name: SUBSCRIPTION_MESSAGES.title });

  it("with two accounts each row names its account, the filter asks for one account from page 1, and Change Plan lists that line's account's plans", async () => {
    const { user, location, listCalls, api } = openSubscriptions('/subscription?page=2', [DEMO_US, DEMO_BRASIL]);
    expect(await screen.findByRole('columnheader', { name: 'Account' }, { timeout: 5000 })).toBeTruthy();
    const brasilRow = within(table()).getByText('UT-BR-1').closest('tr') as HTMLElement;
    expect(within(brasilRow).getByText('Demo Brasil')).toBeTruthy();

    await user.click(within(brasilRow).getByRole('button', { name: `${SUBSCRIPTION_MESSAGES.changePlan} AST-200001-20000-22` }));
    await waitFor(() => expect(api.calls).toContain('GET /api/v1/subscriptions/plans?account_id=2'));
    await user.keyboard('{Escape}');

    const filter = screen.getByLabelText('Account') as HTMLInputElement;
    expect(filter.value).toBe('All accounts');
    await user.click(filter.closest('.p-dropdown')!);
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Demo Brasil' }));
    await waitFor(() => expect(location()).toContain('account=2'));
    expect(location()).not.toContain('page=');
    await waitFor(() => expect(listCalls().at(-1)).toContain('account_id=2'));
    expect(listCalls().at(-1)).toContain('page=1');
    await waitFor(() => expect(within(table()).queryByText('UT-US-1')).toBeNull());
  });

  it('with one account there is no Account column and no Account filter', async () => {
    const { api, listCalls } = openSubscriptions('/subscription', [DEMO_US]);
    await screen.findByText('UT-US-1', {}, { timeout: 5000 });
    await waitFor(() => expect(api.calls).toContain('GET /api/v1/provider-accounts/refs'));
    // The answer is on its way through the client and the chart: let it land before looking.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole('columnheader', { name: 'Account' })).toBeNull();
    expect(screen.queryByLabelText('Account')).toBeNull();
    expect(listCalls().every((call) => !call.includes('account_id'))).toBe(true);
  });
});
