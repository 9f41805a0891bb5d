// The Starlink API Simulator page through the whole client (composition root, router, session,
// console machine, views) against a fake of the portal API at the fetch seam.
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { adminProfile } from '../machines/fixtures';
import { openSignedInAt } from './open-app';
import { health, notFoundResponse, searchResponseFor, terminalsResponse } from '../fixtures/provider-console';
import { fill } from './fill';

const PATH = '/customers/starlink-simulator';

// Of the fixture's terminals, the first is on the service line the fake provider knows.
const terminals = terminalsResponse;
const KNOWN_LINE = terminals.terminals[0]!.serviceLineNumber!;
const searchAnswer = (serviceLineNumber: string) =>
  serviceLineNumber === KNOWN_LINE ? searchResponseFor(serviceLineNumber) : { ...notFoundResponse, usageData: [] };

interface FakeOptions {
  /** Status of the next user-terminals answers (502 = the provider failed). */
  terminalsStatus?: number[];
  /** Searches wait until released, to catch the page in "Searching...". */
  holdSearches?: boolean;
  /** The portal's provider accounts (absent: the list cannot be read, as with one account). */
  accounts?: Array<{ id: number; name: string }>;
}

/** The portal API as the console sees it, for the stored admin token "admin-token". */
function fakePortalApi({ terminalsStatus = [], holdSearches = false, accounts }: FakeOptions = {}) {
  const calls: string[] = [];
  const aborted: string[] = [];
  const held: Array<() => void> = [];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const call = `${method} ${url.pathname}`;
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : {};
    if (holdSearches && call === 'POST /api/v1/starlink-simulator/search') {
      await new Promise<void>((resolve) => held.push(resolve));
    }
    // Like the real fetch: an aborted request rejects, a moment later, with an AbortError.
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (init?.signal?.aborted) {
      aborted.push(call);
      throw new DOMException('The operation was aborted.', 'AbortError');
    }
    const token = new Headers(init?.headers).get('authorization')?.replace('Bearer ', '');
    calls.push(method === 'POST' ? `${call}${url.search} ${JSON.stringify(body)}` : `${call}${url.search}`);
    if (token !== 'admin-token') return json(401, { success: false, message: 'Invalid or expired token' });
    switch (call) {
      case 'GET /api/v1/auth/me':
        return json(200, { success: true, message: 'ok', data: { user: adminProfile } });
      case 'GET /api/v1/provider-accounts/refs':
        return accounts ? json(200, { success: true, message: 'ok', data: accounts }) : json(404, { success: false, message: 'Route not found' });
      case 'GET /api/v1/starlink-simulator/health':
        return json(200, { success: true, message: 'ok', data: health });
      case 'GET /api/v1/starlink-simulator/user-terminals': {
        const status = terminalsStatus.shift() ?? 200;
        return status === 200
          ? json(200, { success: true, message: 'ok', data: terminals })
          : json(status, { success: false, message: 'The provider did not answer' });
      }
      case 'POST /api/v1/starlink-simulator/search': {
        const serviceLineNumber = typeof body.serviceLineNumber === 'string' ? body.serviceLineNumber.trim() : '';
        if (!serviceLineNumber) return json(400, { success: false, message: 'Service line number is required' });
        return json(200, { success: true, message: 'ok', data: searchAnswer(serviceLineNumber) });
      }
      default:
        return json(404, { success: false, message: `Route not found: ${call}` });
    }
  });
  return { fetch, calls, aborted, releaseSearches: () => held.splice(0).forEach((release) => release()) };
}

function openConsole(options: FakeOptions = {}) {
  const api = fakePortalApi(options);
  return { ...openSignedInAt(PATH, api.fetch), api };
}

const searchButton = () => screen.getByRole('button', { name: /^Search(ing\.\.\.)?$/ }) as HTMLButtonElement;

describe('the Starlink API Simulator page', () => {
  it('an admin loads the terminals, finds a known service line and then misses an unknown one', async () => {
    const { user, api } = openConsole();
    expect(await screen.findByRole('heading', { level: 1, name: 'Starlink API Simulator' })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Connected to the built-in simulator'));

    await user.click(screen.getByRole('button', { name: 'Load Terminals' }));
    const summary = await screen.findByLabelText('Loaded terminals');
    expect(summary.textContent).toContain(`Total: ${terminals.stats.totalTerminals}`);
    expect(summary.textContent).toContain(`Active: ${terminals.stats.activeTerminals}`);
    await user.click(screen.getByRole('tab', { name: 'Terminals List' }));
    expect(within(screen.getByRole('table', { name: 'User terminals' })).getByText(KNOWN_LINE)).toBeTruthy();

    expect(searchButton().disabled).toBe(true);
    const input = screen.getByLabelText('Service line number');
    await fill(user, input, `  ${KNOWN_LINE} `);
    expect(searchButton().disabled).toBe(false);
    await user.click(searchButton());
    const tabs = await screen.findByRole('tablist', { name: 'Search results' });
    expect(within(tabs).getAllByRole('tab')).toHaveLength(5);
    expect(screen.getAllByText('Harbour office').length).toBeGreaterThan(0);

    await user.clear(input);
    await fill(user, input, 'SL-00000-00000');
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { name: 'Service Line Not Found' })).toBeTruthy();
    expect(screen.queryByRole('tablist', { name: 'Search results' })).toBeNull();

    // The search sends the trimmed number; each click is one request (StrictMode starts nothing twice).
    expect(api.calls.filter((call) => call.startsWith('POST'))).toEqual([
      `POST /api/v1/starlink-simulator/search {"serviceLineNumber":"${KNOWN_LINE}"}`,
      'POST /api/v1/starlink-simulator/search {"serviceLineNumber":"SL-00000-00000"}',
    ]);
    expect(api.calls.filter((call) => call.endsWith('/user-terminals'))).toHaveLength(1);
  });

  it('a provider failure while loading terminals shows its message, and Try Again loads them', async () => {
    const { user } = openConsole({ terminalsStatus: [502] });
    await user.click(await screen.findByRole('button', { name: 'Load Terminals' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The provider did not answer');
    await user.click(within(alert).getByRole('button', { name: /Try Again/ }));
    expect((await screen.findByLabelText('Loaded terminals')).textContent).toContain(`Total: ${terminals.stats.totalTerminals}`);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('the search reads "Searching..." while it runs, and leaving the page cancels it', async () => {
    const { user, api, history } = openConsole({ holdSearches: true });
    await fill(user, await screen.findByLabelText('Service line number'), KNOWN_LINE);
    await user.click(searchButton());
    expect(searchButton().textContent).toContain('Searching...');
    expect(searchButton().disabled).toBe(true);

    history.push('/home');
    await screen.findByRole('heading', { level: 1, name: 'Enterprise Dashboard' });
    api.releaseSearches();
    await waitFor(() => expect(api.aborted).toContain('POST /api/v1/starlink-simulator/search'));
    expect(api.calls.some((call) => call.startsWith('POST /api/v1/starlink-simulator/search'))).toBe(false);
  });

  it('with two provider accounts the header asks which one to use; choosing the second tests its connection and asks it', async () => {
    const { user, api } = openConsole({ accounts: [{ id: 1, name: 'Demo US' }, { id: 2, name: 'Demo Brasil' }] });
    const picker = (await screen.findByLabelText('Account')) as HTMLInputElement;
    await waitFor(() => expect(api.calls).toContain('GET /api/v1/starlink-simulator/health?account_id=1'));
    expect(picker.value).toBe('Demo US');
    await user.click(screen.getByRole('button', { name: 'Load Terminals' }));
    await screen.findByLabelText('Loaded terminals');

    await user.click(picker.closest('.p-dropdown')!);
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Demo Brasil' }));
    await waitFor(() => expect(api.calls).toContain('GET /api/v1/starlink-simulator/health?account_id=2'));
    // What the first account answered goes with it.
    expect(screen.queryByLabelText('Loaded terminals')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Load Terminals' }));
    await screen.findByLabelText('Loaded terminals');
    await fill(user, screen.getByLabelText('Service line number'), KNOWN_LINE);
    await user.click(searchButton());
    await screen.findByRole('tablist', { name: 'Search results' });
    expect(api.calls).toContain('GET /api/v1/starlink-simulator/user-terminals?account_id=2');
    expect(api.calls).toContain(`POST /api/v1/starlink-simulator/search?account_id=2 {"serviceLineNumber":"${KNOWN_LINE}"}`);
  });

  it('with one provider account there is no account to choose, and the console names none', async () => {
    const { user, api } = openConsole({ accounts: [{ id: 1, name: 'Demo US' }] });
    await waitFor(() => expect(api.calls).toContain('GET /api/v1/provider-accounts/refs'));
    await user.click(await screen.findByRole('button', { name: 'Load Terminals' }));
    await screen.findByLabelText('Loaded terminals');
    expect(screen.queryByLabelText('Account')).toBeNull();
    expect(api.calls.filter((call) => call.includes('account_id'))).toEqual([]);
  });
});
