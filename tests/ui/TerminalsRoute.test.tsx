// The terminals page through the whole client (composition root, router, session, the list,
// fleet health, sync and detail machines, views) against a fake of the portal API at the fetch seam.
import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { ProviderAccountRef } from '../../src/domain/provider-accounts';
import { TERMINAL_MESSAGES, type SyncJob, type TerminalRowWire } from '../../src/domain/terminals';
import { validateTerminalsSearch } from '../../src/routes/search-params';
import { adminProfile } from '../machines/fixtures';
import { terminalRowWire } from '../fixtures/terminals-client';
import { fleetHealth, serviceLineUsage, syncJob } from '../fixtures/terminals-ui';
import { openSignedInAt } from './open-app';

const NORTHWIND = '7d3e9a41-5b2c-4d8e-9f10-2a3b4c5d6e7f';
const DEMO_US: ProviderAccountRef = { id: 1, name: 'Demo US' };
const DEMO_BRASIL: ProviderAccountRef = { id: 2, name: 'Demo Brasil' };

/** Every odd terminal is under the second account when there is one. */
function seed(accounts: readonly ProviderAccountRef[] = [DEMO_US]): TerminalRowWire[] {
  return Array.from({ length: 30 }, (_, i) => {
    const n = String(i + 1).padStart(3, '0');
    return terminalRowWire({
      user_terminal_id: `0100000${n}-00000000-00a1b${n}`,
      kit_serial_number: `KIT00${n}`,
      dish_serial_number: `2DHT00${n}`,
      service_line_number: `AST-100${n}-20000-11`,
      active: i % 4 !== 0,
      assigned_to: i < 3 ? NORTHWIND : null,
      assigned_to_customer: i < 3 ? 'Northwind Shipping' : null,
      account_id: accounts[i % accounts.length]!.id,
      account_name: accounts[i % accounts.length]!.name,
    });
  });
}

interface FakeOptions {
  /**
   * How many terminals the fleet has (30, more than a page, unless told). The tests of a search, a
   * row's details and the sync need only the first three; each row more is rendered again on every
   * change of the page.
   */
  count?: number;
  /** What POST /terminals/sync answers. */
  sync?: 'accepted' | 'already-running' | 'refused';
  /** A job already running when the page opens (the page was reloaded mid-sync). */
  runningJob?: SyncJob | null;
  detailStatus?: number;
  /** What GET /provider-accounts/refs answers (one account unless told). */
  accounts?: ProviderAccountRef[];
}

function fakePortalApi({ count, sync = 'accepted', runningJob = null, detailStatus = 200, accounts = [DEMO_US] }: FakeOptions = {}) {
  const terminals = seed(accounts).slice(0, count);
  const calls: string[] = [];
  const bodies: Array<[string, unknown]> = [];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const ok = (data: unknown, status = 200, message = 'ok') => json(status, { success: true, message, data });
  const fail = (status: number, message: string) => json(status, { success: false, message });
  const queued = syncJob({ id: '5d7f6a52-1f0c-4c55-9a43-1b1f0d7b2f10', status: 'queued', finishedAt: null });

  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const call = `${method} ${url.pathname}`;
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    calls.push(`${call}${url.search}`);
    if (body !== undefined) bodies.push([call, body]);
    const token = new Headers(init?.headers).get('authorization')?.replace('Bearer ', '');
    if (token !== 'admin-token') return fail(401, 'Invalid or expired token');

    if (call === 'GET /api/v1/auth/me') return ok({ user: adminProfile });
    if (call === 'GET /api/v1/provider-accounts/refs') return ok(accounts);
    if (call === 'GET /api/v1/terminals') {
      const q = url.searchParams;
      const account = q.get('account_id');
      const search = (q.get('search') ?? '').toLowerCase();
      const active = q.get('active');
      const page = Number(q.get('page') ?? 1);
      const limit = Number(q.get('limit') ?? 25);
      const matching = terminals.filter(
        (t) =>
          (!search ||
            [t.user_terminal_id, t.kit_serial_number, t.dish_serial_number, t.service_line_number, t.assigned_to_customer ?? '', t.assigned_to ?? ''].some(
              (v) => (v ?? '').toLowerCase().includes(search),
            )) &&
          (active === null || String(t.active) === active) &&
          (account === null || String(t.account_id) === account),
      );
      return ok({ results: matching.slice((page - 1) * limit, page * limit), totalCount: matching.length, page, limit });
    }
    if (call === 'GET /api/v1/terminals/health') return ok(fleetHealth({ total: terminals.length }));
    if (call === 'GET /api/v1/terminals/sync/queue') return ok({ active: runningJob, recent: runningJob ? [runningJob] : [] });
    if (call === 'POST /api/v1/terminals/sync') {
      if (sync === 'already-running') return fail(409, 'A terminal sync is already running');
      if (sync === 'refused') return fail(502, 'The provider did not answer');
      return ok(queued, 202, TERMINAL_MESSAGES.syncStarted);
    }
    if (url.pathname.startsWith('/api/v1/terminals/sync/job/')) return ok({ ...queued, status: 'running' });
    const usage = /^\/api\/v1\/terminals\/service-line\/([^/]+)\/usage$/.exec(url.pathname);
    if (usage) return ok(serviceLineUsage({ used: 40, total: 50 }, { serviceLineNumber: decodeURIComponent(usage[1]!) }));
    const detail = /^\/api\/v1\/terminals\/([^/]+)$/.exec(url.pathname);
    if (detail && method === 'GET') {
      const row = terminals.find((t) => t.user_terminal_id === decodeURIComponent(detail[1]!));
      if (!row) return fail(404, TERMINAL_MESSAGES.terminalNotFound);
      if (detailStatus !== 200) return fail(detailStatus, 'Database unavailable');
      return ok({
        ...row,
        owner: row.assigned_to ? { uuid: row.assigned_to, name: row.assigned_to_customer, company: 'Northwind Shipping BV' } : null,
        dataCap: { amount: 50, unit: 'GB' },
        model: 'Standard Actuated',
        accountNumber: 'ACC-150940-77763-41',
        serviceLine: null,
        address: null,
        telemetry: null,
        syncError: null,
        removedAt: null,
      });
    }
    return fail(404, `Route not found: ${call}`);
  });
  return { fetch, calls, bodies, terminals };
}

function openTerminals(path = '/terminals', options: FakeOptions = {}) {
  const api = fakePortalApi(options);
  const listCalls = () => api.calls.filter((c) => c.startsWith('GET /api/v1/terminals?'));
  return { ...openSignedInAt(path, api.fetch), api, listCalls };
}

describe('the terminals page', () => {
  it('shows the first server page with its caption and the fleet summary from /terminals/health', async () => {
    const { listCalls } = openTerminals();
    expect(await screen.findByText(/Showing 25 of 30 terminals from local database/, {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('Terminal Management')).toBeTruthy();
    expect(screen.getAllByText('Northwind Shipping').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Unassigned').length).toBeGreaterThan(0);
    expect(listCalls()[0]).toContain('page=1');
    expect(listCalls()[0]).toContain('limit=25');
  });

  it('a search is sent to the server and kept in the URL', async () => {
    const { user, location, listCalls } = openTerminals('/terminals', { count: 3 });
    await screen.findByText(/Showing 3 of 3/, {}, { timeout: 5000 });
    await user.click(screen.getByPlaceholderText(TERMINAL_MESSAGES.searchPlaceholder));
    await user.paste('KIT00002');
    await waitFor(() => expect(location()).toContain('search=KIT00002'));
    expect(await screen.findByText(/Showing 1 of 1 terminals/)).toBeTruthy();
    expect(listCalls().at(-1)).toContain('search=KIT00002');
  });

  it('opening a row puts the terminal in the URL and shows its details and usage; closing removes it', async () => {
    const { user, location } = openTerminals('/terminals', { count: 3 });
    await screen.findByText(/Showing 3 of 3/, {}, { timeout: 5000 });
    const first = seed()[0]!;
    await user.click(screen.getAllByRole('button', { name: /view details/i })[0]!);
    await waitFor(() => expect(location()).toContain(`terminal=${first.user_terminal_id}`));
    const dialog = await screen.findByRole('dialog', { name: TERMINAL_MESSAGES.detailTitle }, { timeout: 5000 });
    expect(await within(dialog).findByText('Standard Actuated')).toBeTruthy();
    await user.click(within(dialog).getByRole('tab', { name: 'Usage' }));
    expect(await within(dialog).findByText(/80%/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: /close/i }));
    await waitFor(() => expect(location()).not.toContain('terminal='));
  });

  it('a link with ?terminal= opens that terminal even when it is not on the page shown', async () => {
    // The first terminal, on page 1, opened over page 2: the page shown is the five of 26 to 30
    // rather than a full page of 25, which every render of the page would draw again.
    const first = seed()[0]!;
    openTerminals(`/terminals?page=2&terminal=${first.user_terminal_id}`);
    const dialog = await screen.findByRole('dialog', { name: TERMINAL_MESSAGES.detailTitle }, { timeout: 5000 });
    expect(await within(dialog).findByText(first.kit_serial_number)).toBeTruthy();
    expect(await screen.findByText(/Showing 5 of 30 terminals/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: `View details of ${first.service_line_number}`, hidden: true })).toBeNull();
  });

  it('a failed detail fetch shows the basic record under "Showing basic terminal information"', async () => {
    const { user } = openTerminals('/terminals', { count: 3, detailStatus: 500 });
    await screen.findByText(/Showing 3 of 3/, {}, { timeout: 5000 });
    await user.click(screen.getAllByRole('button', { name: /view details/i })[1]!);
    const dialog = await screen.findByRole('dialog', { name: TERMINAL_MESSAGES.detailTitle }, { timeout: 5000 });
    expect(await within(dialog).findByText(TERMINAL_MESSAGES.basicInfoWarning)).toBeTruthy();
    expect(within(dialog).getByText(seed()[1]!.kit_serial_number)).toBeTruthy();
  });

  it('"Sync from the provider" starts a sync: the button says "Syncing..." and the blue card shows the server message', async () => {
    const { user, api } = openTerminals('/terminals', { count: 3 });
    await screen.findByText(/Showing 3 of 3/, {}, { timeout: 5000 });
    await user.click(await screen.findByRole('button', { name: TERMINAL_MESSAGES.syncButton }));
    expect(await screen.findByText(TERMINAL_MESSAGES.syncRunningTitle)).toBeTruthy();
    expect(screen.getByText(TERMINAL_MESSAGES.syncStarted)).toBeTruthy();
    expect((screen.getByRole('button', { name: TERMINAL_MESSAGES.syncing }) as HTMLButtonElement).disabled).toBe(true);
    expect(api.calls).toContain('POST /api/v1/terminals/sync');
  });

  it('"already running" is information, not an error, and the button is usable again', async () => {
    const { user } = openTerminals('/terminals', { count: 3, sync: 'already-running' });
    await screen.findByText(/Showing 3 of 3/, {}, { timeout: 5000 });
    await user.click(await screen.findByRole('button', { name: TERMINAL_MESSAGES.syncButton }));
    expect(await screen.findByText(TERMINAL_MESSAGES.syncAlreadyRunning)).toBeTruthy();
    expect((screen.getByRole('button', { name: TERMINAL_MESSAGES.syncButton }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('another refusal says "Failed to start sync:" with the server message', async () => {
    const { user } = openTerminals('/terminals', { count: 3, sync: 'refused' });
    await screen.findByText(/Showing 3 of 3/, {}, { timeout: 5000 });
    await user.click(await screen.findByRole('button', { name: TERMINAL_MESSAGES.syncButton }));
    expect(await screen.findByText(TERMINAL_MESSAGES.syncFailed('The provider did not answer'))).toBeTruthy();
  });

  it('a sync already running when the page opens (a reload) shows as running', async () => {
    openTerminals('/terminals', { count: 3, runningJob: syncJob({ status: 'running', finishedAt: null }) });
    expect(await screen.findByText(TERMINAL_MESSAGES.syncRunningTitle, {}, { timeout: 5000 })).toBeTruthy();
    expect((await screen.findByRole('button', { name: TERMINAL_MESSAGES.syncing })).hasAttribute('disabled')).toBe(true);
  });

  it('the URL validator keeps known values and drops the rest', () => {
    expect(validateTerminalsSearch({ page: '2', search: ' kit ', status: 'inactive', account: '2', terminal: '01000000-00000000-00a1b001' })).toEqual({
      page: 2,
      search: 'kit',
      status: 'inactive',
      account: 2,
      terminal: '01000000-00000000-00a1b001',
    });
    expect(validateTerminalsSearch({ page: '0', search: '  ', status: 'assigned', account: '1.5', terminal: '../etc' })).toEqual({
      page: undefined,
      search: undefined,
      status: undefined,
      account: undefined,
      terminal: undefined,
    });
  });
});

describe('the terminals page across provider accounts', () => {
  const table = () => screen.getByRole('table', { name: TERMINAL_MESSAGES.listTitle });
  const rowOf = (serviceLine: string) => within(table()).getByText(serviceLine).closest('tr') as HTMLElement;

  it('with two accounts each row names its account, and the Account filter asks for one account from page 1 and shows what the server answered', async () => {
    const { user, location, listCalls } = openTerminals('/terminals?page=2', { accounts: [DEMO_US, DEMO_BRASIL] });
    await screen.findByText(/Showing 5 of 30 terminals/, {}, { timeout: 5000 });
    expect(await within(table()).findByRole('columnheader', { name: 'Account' })).toBeTruthy();
    expect(within(rowOf('AST-100026-20000-11')).getByText('Demo Brasil')).toBeTruthy();
    expect(within(rowOf('AST-100027-20000-11')).getByText('Demo US')).toBeTruthy();

    const filter = screen.getByLabelText('Account') as HTMLInputElement;
    expect(filter.value).toBe('All accounts');
    await user.click(filter.closest('.p-dropdown')!);
    const options = within(await screen.findByRole('listbox'));
    expect(options.getAllByRole('option').map((o) => o.textContent)).toEqual(['All accounts', 'Demo US', 'Demo Brasil']);
    await user.click(options.getByRole('option', { name: 'Demo Brasil' }));

    await waitFor(() => expect(location()).toContain('account=2'));
    expect(location()).not.toContain('page=');
    expect(await screen.findByText(/Showing 15 of 15 terminals/)).toBeTruthy();
    expect(listCalls().at(-1)).toContain('page=1');
    expect(listCalls().at(-1)).toContain('account_id=2');
    expect(within(table()).queryByText('Demo US')).toBeNull();

    // Back to every account on the same page: the list loads again without the filter.
    await user.click(filter.closest('.p-dropdown')!);
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'All accounts' }));
    await waitFor(() => expect(location()).not.toContain('account='));
    expect(await screen.findByText(/Showing 25 of 30 terminals/)).toBeTruthy();
    expect(listCalls().at(-1)).not.toContain('account_id');
  });

  it("a link with ?account= loads that account only, and the Provider calls panel shows that account's budget", async () => {
    const { listCalls, api } = openTerminals('/terminals?account=2', { count: 3, accounts: [DEMO_US, DEMO_BRASIL] });
    expect(await screen.findByText(/Showing 1 of 1 terminals/, {}, { timeout: 5000 })).toBeTruthy();
    expect(listCalls()[0]).toContain('account_id=2');
    expect(((await screen.findByLabelText('Account')) as HTMLInputElement).value).toBe('Demo Brasil');
    expect(api.calls.filter((c) => c.startsWith('GET /api/v1/terminals/sync/budget'))).toEqual(['GET /api/v1/terminals/sync/budget?account_id=2']);
    // So do the recent syncs (the sync button's own check of a running sync looks at every account).
    expect(api.calls).toContain('GET /api/v1/terminals/sync/queue?account_id=2');
  });

  it('with one account there is no Account column and no Account filter', async () => {
    const { api, listCalls } = openTerminals('/terminals', { count: 3 });
    await screen.findByText(/Showing 3 of 3/, {}, { timeout: 5000 });
    await waitFor(() => expect(api.calls).toContain('GET /api/v1/provider-accounts/refs'));
    // The answer is on its way through the client and the chart: let it land before looking.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole('columnheader', { name: 'Account' })).toBeNull();
    expect(screen.queryByLabelText('Account')).toBeNull();
    expect(listCalls().every((call) => !call.includes('account_id'))).toBe(true);
    // The budget panel shows the first account's, as the server answers when no account is named.
    expect(api.calls).toContain('GET /api/v1/terminals/sync/budget');
  });
});
