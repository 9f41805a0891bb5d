// The public password-setup page through the whole client against a fake of the portal API.
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { createMemoryHistory } from '@tanstack/react-router';
import { createTestApp } from './open-app';
import { AppRoot } from '../../src/routes/AppRoot';
import { SESSION_STORAGE_KEY, serialisePersistedSession } from '../../src/domain/session';
import { CUSTOMER_MESSAGES } from '../../src/domain/customers';
import { PASSWORD_MESSAGES } from '../../src/domain/password';
import { adminProfile } from '../machines/fixtures';
import { renderStrict } from './render';

const account = { email: 'tara@tailspin.example', name: 'Tara Lee', company: 'Tailspin Toys', expiresAt: '2026-11-27T10:00:00.000Z' };

/** Tokens: "good" (unused), "used" (410), "expired" (410); anything else is unknown (404). */
function fakePortalApi({ checkFailures = 0 }: { checkFailures?: number } = {}) {
  const calls: string[] = [];
  const auth: Array<string | null> = [];
  const bodies: unknown[] = [];
  let used = false;
  let failures = checkFailures;
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    calls.push(`${method} ${url.pathname}`);
    const token = new Headers(init?.headers).get('authorization');
    if (url.pathname.startsWith('/api/v1/password-setup')) auth.push(token);
    if (method === 'GET' && url.pathname === '/api/v1/auth/me') {
      return token === 'Bearer admin-token'
        ? json(200, { success: true, message: 'ok', data: { user: adminProfile } })
        : json(401, { success: false, message: 'Invalid or expired token' });
    }
    const check = /^\/api\/v1\/password-setup\/(.+)$/.exec(url.pathname);
    if (method === 'GET' && check) {
      if (failures-- > 0) return json(503, { success: false, message: '' });
      const t = decodeURIComponent(check[1]!);
      if (t === 'good' && !used) return json(200, { success: true, message: 'ok', data: account });
      if (t === 'good' || t === 'used') return json(410, { success: false, message: CUSTOMER_MESSAGES.setupTokenUsed });
      if (t === 'expired') return json(410, { success: false, message: CUSTOMER_MESSAGES.setupTokenExpired });
      return json(404, { success: false, message: CUSTOMER_MESSAGES.setupTokenInvalid });
    }
    if (method === 'POST' && url.pathname === '/api/v1/password-setup') {
      const body = JSON.parse(String(init?.body));
      bodies.push(body);
      if (body.password === 'password123') return json(400, { success: false, message: 'This password is too common' });
      used = true;
      return json(200, { success: true, message: 'Password set', data: { email: account.email } });
    }
    return json(404, { success: false, message: 'Route not found' });
  });
  return { fetch, calls, auth, bodies };
}

function openPage(path: string, { signedIn = false, checkFailures = 0 } = {}) {
  localStorage.clear();
  if (signedIn) {
    localStorage.setItem(
      SESSION_STORAGE_KEY,
      serialisePersistedSession({ token: 'admin-token', profile: adminProfile, userType: 'admin', isAuthenticated: true }),
    );
  }
  const api = fakePortalApi({ checkFailures });
  const history = createMemoryHistory({ initialEntries: [path] });
  const app = createTestApp({ storage: localStorage, history, fetch: api.fetch as typeof globalThis.fetch });
  const view = renderStrict(<AppRoot app={app} />);
  const location = () => `${history.location.pathname}${history.location.search}`;
  return { ...view, api, location };
}

describe('the password-setup page', () => {
  it('a signed-out visitor with a good link sees whose account it is, sets a password and is sent to the login page', async () => {
    const { user, api, location } = openPage('/set-password?token=good');
    expect(await screen.findByText('Checking your link...')).toBeTruthy();
    const details = await screen.findByLabelText('Your account');
    expect(within(details).getByText('Tara Lee')).toBeTruthy();
    expect(within(details).getByText('Tailspin Toys')).toBeTruthy();
    expect(within(details).getByText('tara@tailspin.example')).toBeTruthy();
    expect(location()).toBe('/set-password?token=good');

    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect((await screen.findByRole('alert')).textContent).toContain(PASSWORD_MESSAGES.allRequired);
    await user.type(screen.getByLabelText('New password'), 'correct horse');
    expect(screen.queryByRole('alert')).toBeNull();
    await user.type(screen.getByLabelText('Confirm password'), 'correct hors');
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(screen.getByRole('alert').textContent).toContain(PASSWORD_MESSAGES.mismatch);
    await user.type(screen.getByLabelText('Confirm password'), 'e');
    await user.click(screen.getByRole('button', { name: 'Set Password' }));

    expect(await screen.findByRole('heading', { name: 'Your password is set' })).toBeTruthy();
    expect(screen.getByText('tara@tailspin.example')).toBeTruthy();
    expect(api.bodies).toEqual([{ token: 'good', password: 'correct horse', confirmPassword: 'correct horse' }]);
    // The link is the credential: no bearer token goes with these calls.
    expect(api.auth.every((header) => header === null)).toBe(true);

    await user.click(screen.getByRole('link', { name: 'Go to the login page' }));
    await waitFor(() => expect(location()).toBe('/login'));
    expect(await screen.findByRole('button', { name: 'Login' })).toBeTruthy();
  });

  it('the password rules come first: a short password never reaches the server, and a server refusal is shown', async () => {
    const { user, api } = openPage('/set-password?token=good');
    await screen.findByLabelText('Your account');
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.type(screen.getByLabelText('Confirm password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(screen.getByRole('alert').textContent).toContain(PASSWORD_MESSAGES.tooShort);
    expect(api.bodies).toEqual([]);

    await user.clear(screen.getByLabelText('New password'));
    await user.clear(screen.getByLabelText('Confirm password'));
    await user.type(screen.getByLabelText('New password'), 'password123');
    await user.type(screen.getByLabelText('Confirm password'), 'password123');
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect((await screen.findByRole('alert')).textContent).toContain('This password is too common');
  });

  it('a signed-in admin opening the link sees the same page, not the portal', async () => {
    openPage('/set-password?token=good', { signedIn: true });
    expect(await screen.findByLabelText('Your account')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: /menu/i })).toBeNull();
  });

  it('an unknown link, a used one and an expired one each get their card with the way to the login page', async () => {
    for (const [token, heading, message] of [
      ['nope', 'This link is not valid', CUSTOMER_MESSAGES.setupTokenInvalid],
      ['used', 'This link can no longer be used', CUSTOMER_MESSAGES.setupTokenUsed],
      ['expired', 'This link can no longer be used', CUSTOMER_MESSAGES.setupTokenExpired],
    ] as const) {
      const { unmount } = openPage(`/set-password?token=${token}`);
      expect(await screen.findByRole('heading', { name: heading })).toBeTruthy();
      expect(screen.getByRole('alert').textContent).toBe(message);
      expect(screen.getByRole('link', { name: 'Go to the login page' }).getAttribute('href')).toBe('/login');
      expect(screen.queryByLabelText('New password')).toBeNull();
      unmount();
    }
  });

  it('a link without a token is not valid, and nothing is asked of the server', async () => {
    const { api } = openPage('/set-password');
    expect(await screen.findByRole('heading', { name: 'This link is not valid' })).toBeTruthy();
    expect(api.calls.filter((c) => c.includes('password-setup'))).toEqual([]);
  });

  it('a check that fails can be tried again', async () => {
    const { user } = openPage('/set-password?token=good', { checkFailures: 1 });
    expect(await screen.findByRole('heading', { name: 'We could not check your link' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Try Again/ }));
    expect(await screen.findByLabelText('Your account')).toBeTruthy();
  });
});
