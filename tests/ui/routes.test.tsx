// The whole client in happy-dom: composition root, router guards, session and login machines and
// the views, against a fake of the portal API at the fetch seam.
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { createMemoryHistory } from '@tanstack/react-router';
import { createTestApp } from './open-app';
import { AppRoot } from '../../src/routes/AppRoot';
import type { AdminUser } from '../../src/domain/auth';
import type { MyOverviewWire } from '../../src/domain/my-area';
import { SESSION_STORAGE_KEY, serialisePersistedSession } from '../../src/domain/session';
import { summary } from '../fixtures/dashboard';
import { adminProfile, customerProfile, profileWithRoles } from '../machines/fixtures';
import { renderStrict } from './render';
import { fill } from './fill';

const myOverview: MyOverviewWire = {
  terminals: 2,
  onlineNow: 1,
  usage: { usedGB: 40, planGB: 100, remainingGB: 60, overageGB: 0, percentage: 40 },
  forecast: null,
  currency: 'USD',
  alerts: { count: 0, items: [] },
};

interface FakeOptions {
  /** The signed-in portal user /auth/me answers with (the administrator Ana by default). */
  admin?: AdminUser;
  adminPassword?: string;
  customerPassword?: string;
  summaryStatus?: number;
}

/** A small stand-in for the portal API: two accounts, tokens "admin-token" / "customer-token". */
function fakePortalApi({ admin = adminProfile, adminPassword = 'admin-pass', customerPassword = 'customer-pass', summaryStatus = 200 }: FakeOptions = {}) {
  const calls: string[] = [];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    // Like the real fetch: an aborted request rejects, a moment later, with an AbortError.
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const token = new Headers(init?.headers).get('authorization')?.replace('Bearer ', '');
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : {};
    calls.push(`${method} ${url.pathname}`);
    switch (`${method} ${url.pathname}`) {
      case 'POST /api/v1/auth/login':
        return body.email === adminProfile.email && body.password === adminPassword
          ? json(200, { success: true, message: 'Login successful', data: { user: adminProfile, token: 'admin-token' } })
          : json(401, { success: false, message: 'Invalid email or password' });
      case 'POST /api/v1/customers/auth/login':
        return body.email === customerProfile.email && body.password === customerPassword
          ? json(200, { success: true, message: 'Login successful', data: { customer: customerProfile, token: 'customer-token' } })
          : json(401, { success: false, message: 'Invalid email or password' });
      case 'GET /api/v1/auth/me':
        return token === 'admin-token'
          ? json(200, { success: true, message: 'ok', data: { user: admin } })
          : json(401, { success: false, message: 'Invalid or expired token' });
      case 'GET /api/v1/customers/auth/me':
        return token === 'customer-token'
          ? json(200, { success: true, message: 'ok', data: { customer: customerProfile } })
          : json(401, { success: false, message: 'Invalid or expired token' });
      case 'GET /api/v1/my/overview':
        return token === 'customer-token' ? json(200, { success: true, message: 'ok', data: myOverview }) : json(403, { success: false, message: 'This area is for customers only.' });
      case 'GET /api/v1/my/terminals':
        return token === 'customer-token' ? json(200, { success: true, message: 'ok', data: [] }) : json(403, { success: false, message: 'This area is for customers only.' });
      case 'GET /api/v1/dashboard/summary':
        if (token !== 'admin-token' || summaryStatus === 401) return json(401, { success: false, message: 'Invalid or expired token' });
        return json(summaryStatus, summaryStatus === 200 ? { success: true, message: 'ok', data: summary } : { success: false, message: 'Database unavailable' });
      default:
        return json(404, { success: false, message: `Route not found: ${method} ${url.pathname}` });
    }
  });
  return { fetch, calls };
}

function storeSession(token: string, userType: 'admin' | 'customer' = 'admin', admin: AdminUser = adminProfile) {
  const profile = userType === 'admin' ? admin : customerProfile;
  localStorage.setItem(SESSION_STORAGE_KEY, serialisePersistedSession({ token, profile, userType, isAuthenticated: true }));
}

function startAt(path: string, options: FakeOptions = {}) {
  const api = fakePortalApi(options);
  const history = createMemoryHistory({ initialEntries: [path] });
  const app = createTestApp({ storage: localStorage, history, fetch: api.fetch as typeof globalThis.fetch });
  const view = renderStrict(<AppRoot app={app} />);
  const location = () => `${history.location.pathname}${history.location.search}`;
  return { ...view, app, api, history, location };
}

async function fillLogin(user: ReturnType<typeof startAt>['user'], email: string, password: string) {
  await fill(user, await screen.findByLabelText('Email'), email);
  await fill(user, screen.getByLabelText('Password', { selector: 'input' }), password);
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

describe('routes, guards and the session', () => {
  it('a signed-out visit to /customers lands on /login and returns to /customers after sign-in', async () => {
    localStorage.clear();
    const { user, location } = startAt('/customers');
    await screen.findByRole('button', { name: 'Login' });
    expect(location()).toBe('/login?redirect=%2Fcustomers');
    await fillLogin(user, adminProfile.email, 'admin-pass');
    await waitFor(() => expect(location()).toBe('/customers'));
    expect(await screen.findByRole('heading', { name: 'Customer Management' })).toBeTruthy();
    expect(JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY)!).state).toMatchObject({ token: 'admin-token', userType: 'admin', isAuthenticated: true });
  });

  it('a signed-in admin at /login, /, /dashboard or an unknown path lands on /home with live figures', async () => {
    for (const path of ['/login', '/', '/dashboard', '/no/such/page']) {
      localStorage.clear();
      storeSession('admin-token');
      const { location, unmount } = startAt(path);
      await waitFor(() => expect(location()).toBe('/home'));
      expect(await screen.findByText('Total Customers')).toBeTruthy();
      expect(await screen.findByText('24')).toBeTruthy();
      unmount();
    }
  });

  it('offers the Audit log and Users in the sidebar to those whose roles read them: an Owner, not the business Admin', async () => {
    for (const [admin, offered] of [[adminProfile, true], [profileWithRoles('admin'), false]] as const) {
      localStorage.clear();
      storeSession('admin-token', 'admin', admin);
      const { unmount } = startAt('/home', { admin });
      const sidebar = await screen.findByRole('navigation', { name: 'Main navigation' });
      expect(await within(sidebar).findByText('Terminals')).toBeTruthy();
      expect(within(sidebar).queryByText('Audit log') !== null).toBe(offered);
      expect(within(sidebar).queryByText('Users') !== null).toBe(offered);
      unmount();
    }
  });

  it('a redirect target on another origin is ignored after sign-in', async () => {
    localStorage.clear();
    const { user, location } = startAt('/login?redirect=%2F%2Fevil.example%2Fhome');
    await fillLogin(user, adminProfile.email, 'admin-pass');
    await waitFor(() => expect(location()).toBe('/home'));
  });

  it('a stored token the server rejects sends the visitor to /login and clears storage', async () => {
    localStorage.clear();
    storeSession('expired-token');
    const { location } = startAt('/home');
    await screen.findByRole('button', { name: 'Login' });
    expect(location()).toBe('/login?redirect=%2Fhome');
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('legacy customer keys are removed at start', async () => {
    localStorage.clear();
    localStorage.setItem('customer-token', 'old');
    localStorage.setItem('customerInfo', '{}');
    startAt('/login');
    await screen.findByRole('button', { name: 'Login' });
    expect(localStorage.getItem('customer-token')).toBeNull();
    expect(localStorage.getItem('customerInfo')).toBeNull();
  });

  it('a wrong password shows the inline error and tries the customer login after the admin login', async () => {
    localStorage.clear();
    const { user, api, location } = startAt('/login');
    await fillLogin(user, adminProfile.email, 'wrong');
    expect((await screen.findByRole('alert')).textContent).toContain('Invalid email or password');
    expect(api.calls).toEqual(['POST /api/v1/auth/login', 'POST /api/v1/customers/auth/login']);
    expect(location()).toBe('/login');
  });

  it('a customer who signs in through the fallback lands on their own overview in the Customer Portal, never the admin shell', async () => {
    localStorage.clear();
    const { user, api, location } = startAt('/login');
    await fillLogin(user, customerProfile.email, 'customer-pass');
    await waitFor(() => expect(location()).toBe('/my'));
    expect(await screen.findByText('Online now')).toBeTruthy();
    expect(screen.getAllByText('Customer Portal').length).toBeGreaterThan(0);
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(['Overview', 'Terminals', 'Requests', 'Account'].every((name) => nav.textContent?.includes(name))).toBe(true);
    expect(nav.textContent).not.toContain('Customers');
    expect(nav.textContent).not.toContain('Users');
    expect(api.calls).not.toContain('GET /api/v1/dashboard/summary');
    await waitFor(() => expect(document.title).toBe('Overview · Customer Portal'));
  });

  it.each(['/home', '/', '/customers', '/terminals?page=2', '/users', '/requests', '/login', '/forgot-password', '/nowhere'])(
    'a signed-in customer who opens %s is sent to /my',
    async (path) => {
      localStorage.clear();
      storeSession('customer-token', 'customer');
      const { api, location } = startAt(path);
      await waitFor(() => expect(location()).toBe('/my'));
      expect(await screen.findByText('Online now')).toBeTruthy();
      expect(api.calls.filter((c) => !c.includes('/my/') && !c.endsWith('/customers/auth/me'))).toEqual([]);
    },
  );

  it.each(['/my', '/my/terminals', '/my/terminals/UT1', '/my/account'])('a signed-in admin who opens %s is sent to /home', async (path) => {
    localStorage.clear();
    storeSession('admin-token');
    const { api, location } = startAt(path);
    await waitFor(() => expect(location()).toBe('/home'));
    await screen.findByText('Total Customers');
    expect(api.calls.some((c) => c.includes('/api/v1/my/'))).toBe(false);
  });

  it("a signed-out visit to /my/terminals lands on /login and returns there after the customer's sign-in", async () => {
    localStorage.clear();
    const { user, location } = startAt('/my/terminals');
    await waitFor(() => expect(location()).toBe('/login?redirect=%2Fmy%2Fterminals'));
    await fillLogin(user, customerProfile.email, 'customer-pass');
    await waitFor(() => expect(location()).toBe('/my/terminals'));
    await waitFor(() => expect(document.title).toBe('My Terminals · Customer Portal'));
  });

  it("a remembered admin path is not followed after a customer's sign-in: the customer lands on /my", async () => {
    localStorage.clear();
    const { user, location } = startAt('/customers');
    await waitFor(() => expect(location()).toBe('/login?redirect=%2Fcustomers'));
    await fillLogin(user, customerProfile.email, 'customer-pass');
    await waitFor(() => expect(location()).toBe('/my'));
  });

  it("a remembered /my path is not followed after an admin's sign-in: the admin lands on /home", async () => {
    localStorage.clear();
    const { user, location } = startAt('/my/terminals');
    await waitFor(() => expect(location()).toBe('/login?redirect=%2Fmy%2Fterminals'));
    await fillLogin(user, adminProfile.email, 'admin-pass');
    await waitFor(() => expect(location()).toBe('/home'));
  });

  it('log out from the user menu clears the session and returns to a plain /login', async () => {
    localStorage.clear();
    storeSession('admin-token');
    const { user, location } = startAt('/home');
    await screen.findByText('Total Customers');
    await user.click(screen.getByRole('button', { name: new RegExp(adminProfile.email) }));
    await user.click(await screen.findByRole('menuitem', { name: 'Log out' }));
    await waitFor(() => expect(location()).toBe('/login'));
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('a 401 from any API call ends the session and returns to /login with the way back', async () => {
    localStorage.clear();
    storeSession('admin-token');
    const { location } = startAt('/home', { summaryStatus: 401 });
    await waitFor(() => expect(location()).toBe('/login?redirect=%2Fhome'));
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('a dashboard load failure shows the error card and Try Again loads again', async () => {
    localStorage.clear();
    storeSession('admin-token');
    const { user, api } = startAt('/home', { summaryStatus: 503 });
    expect(await screen.findByText('Database unavailable')).toBeTruthy();
    const before = api.calls.filter((c) => c.endsWith('/dashboard/summary')).length;
    await user.click(screen.getByRole('button', { name: /Try Again/ }));
    await waitFor(() => expect(api.calls.filter((c) => c.endsWith('/dashboard/summary')).length).toBe(before + 1));
  });
});
