import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startPortal, submitLogin, useChromium, type Portal } from './harness';

let portal: Portal;
const chromium = useChromium();
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  // The first install's path: initdb and every migration on an empty data directory. The shell
  // journeys need no inventory: no background syncs.
  portal = await startPortal({ SYNC_INTERVAL: 'off' }, { emptyDataDir: true });
});

afterAll(async () => {
  await portal?.stop();
});

beforeEach(async () => {
  await context?.close();
  context = await chromium.browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
});

async function signIn(email = portal.admin.email, password = portal.admin.password) {
  await page.goto(`${portal.url}/login`);
  await submitLogin(page, email, password);
}

describe('signing in and moving around the shell', () => {
  it('a first install creates the database from nothing: every migration applied, then ready', () => {
    expect(portal.output()).toMatch(/Applied migration 0001_/);
    expect(portal.output()).toMatch(/Portal ready at/);
  });

  it('an admin signs in, lands on the dashboard, and a reload keeps them signed in', async () => {
    await signIn();
    await page.waitForURL('**/home');
    // Pages load on demand: wait for the heading rather than checking it at once.
    await page.getByRole('heading', { name: /Enterprise Dashboard/ }).waitFor();
    await page.getByText('Total Customers').waitFor();

    await page.reload();
    await page.getByText('Total Customers').waitFor();
    expect(new URL(page.url()).pathname).toBe('/home');
  });

  it('a wrong password shows the inline error and stays on /login', async () => {
    await signIn(portal.admin.email, 'not-the-password');
    await page.getByText('Invalid email or password').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('an unknown path lands on /home when signed in', async () => {
    await signIn();
    await page.waitForURL('**/home');
    await page.goto(`${portal.url}/no/such/page`);
    await page.waitForURL('**/home');
    expect(new URL(page.url()).pathname).toBe('/home');
  });

  it('Ctrl+B collapses the sidebar and expands it again', async () => {
    await signIn();
    await page.waitForURL('**/home');
    const sidebar = page.locator('[data-state]').first();
    await expect(sidebar.getAttribute('data-state')).resolves.toBe('expanded');
    await page.keyboard.press('Control+b');
    await page.waitForSelector('[data-state="collapsed"]');
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'sidebar_state')?.value).toBe('false');
    await page.keyboard.press('Control+b');
    await page.waitForSelector('[data-state="expanded"]');
  });

  it('the sidebar navigates to Terminals and marks it as the current page', async () => {
    await signIn();
    await page.waitForURL('**/home');
    const link = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Terminals' });
    await link.click();
    await page.waitForURL('**/terminals');
    await page.getByRole('heading', { name: 'Terminal Management' }).waitFor();
    await expect(link.getAttribute('aria-current')).resolves.toBe('page');
  });

  it('log out returns to /login, and the portal stays closed afterwards', async () => {
    await signIn();
    await page.waitForURL('**/home');
    await page.getByRole('button', { name: new RegExp(portal.admin.email) }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    expect(new URL(page.url()).search).toBe('');
    await page.goto(`${portal.url}/home`);
    await page.waitForURL('**/login**');
  });

  it('a signed-out visit to /customers lands on /login and returns there after sign-in', async () => {
    await page.goto(`${portal.url}/customers`);
    await page.waitForURL('**/login?redirect=**');
    expect(new URL(page.url()).pathname).toBe('/login');
    await submitLogin(page, portal.admin.email, portal.admin.password);
    await page.waitForURL('**/customers');
  });
});

describe('the XState inspector', () => {
  async function scriptsLoaded(path: string) {
    const bodies: string[] = [];
    page.on('response', async (response) => {
      if (response.url().endsWith('.js')) bodies.push(await response.text().catch(() => ''));
    });
    // The inspector opens its own window; keep it from wandering off to the network.
    await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
    await page.goto(`${portal.url}${path}`);
    await page.getByRole('button', { name: 'Login' }).waitFor();
    await page.waitForLoadState('networkidle');
    return bodies;
  }

  it('is not loaded by default', async () => {
    const bodies = await scriptsLoaded('/login');
    expect(bodies.length).toBeGreaterThan(0);
    expect(bodies.some((body) => body.includes('stately.ai'))).toBe(false);
  });

  it('is loaded on demand with ?inspect=1', async () => {
    const bodies = await scriptsLoaded('/login?inspect=1');
    expect(bodies.some((body) => body.includes('stately.ai'))).toBe(true);
  });
});

describe('hardening, as the browser sees it: a strict CSP and no framework named', () => {
  it('runs the whole portal and the API docs under the CSP without one violation, and the server names no framework', async () => {
    // Recorded in the page from the first script on: every blocked inline script, eval or foreign load.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
    });
    const violations = async () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

    const login = await page.goto(`${portal.url}/login`);
    const headers = login!.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['x-powered-by']).toBeUndefined();
    expect(headers.server).toBeUndefined();
    await submitLogin(page, portal.admin.email, portal.admin.password);
    await page.waitForURL('**/home');
    await page.getByText('Total Customers').waitFor();
    expect(await violations()).toEqual([]);

    for (const [path, heading] of [
      ['/customers', 'Customer Management'],
      ['/terminals', /Terminals/],
      ['/settings', 'Settings'],
    ] as const) {
      await page.goto(`${portal.url}${path}`);
      await page.getByRole('heading', { name: heading }).first().waitFor();
      expect(await violations(), path).toEqual([]);
    }

    await page.goto(`${portal.url}/api/docs/`);
    await page.locator('.swagger-ui').first().waitFor();
    expect(await violations(), '/api/docs').toEqual([]);

    // The listener does see a violation: an inline script the CSP must block.
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true';
      document.body.append(script);
    });
    await expect.poll(violations, { timeout: 5_000 }).toHaveLength(1);
    expect(await page.evaluate(() => (window as unknown as { inlineRan?: boolean }).inlineRan)).toBeUndefined();
  });
});
