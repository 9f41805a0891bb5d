// Team roles, customer organisations and API keys in Chromium against the real server: an Owner
// creates a Billing user, who sees Statements but no way to deactivate a line; a customer's owner
// invites a site manager limited to two lines, who sees only those; and an API key with the
// read-only Support role reads terminals and is refused a top-up.
import { describe, expect, it } from 'vitest';
import type { ServiceLineSettingsWire } from '../../src/domain/service-lines';
import { TERMINAL_MESSAGES } from '../../src/domain/terminals';
import { signInAsAdminAt, submitLogin, useBrowserSession, waitForUsageRun } from './harness';

const session = useBrowserSession();

interface TerminalRow {
  user_terminal_id: string;
  service_line_number: string | null;
  condition: string;
}

describe('roles in the browser', () => {
  it('an Owner creates a Billing user, who sees Statements but no Deactivate', async () => {
    const { portal } = session;
    const owner = await session.context.newPage();
    await signInAsAdminAt(owner, portal, '/users');
    await owner.getByRole('button', { name: 'Add User' }).click();
    const form = owner.getByRole('dialog', { name: 'Add User' });
    const email = `bea.${Date.now()}@reseller.example`;
    const password = 'Billing-Passw0rd!';
    await form.getByLabel('Full Name').fill('Bea Billing');
    await form.getByLabel('Email Address').fill(email);
    await form.getByLabel('Billing', { exact: true }).check();
    await form.getByLabel('Initial Password (optional)').fill(password);
    await form.getByRole('button', { name: 'Create User' }).click();
    await form.waitFor({ state: 'detached' });
    await owner.getByRole('table', { name: 'Users' }).getByRole('row', { name: /Bea Billing/ }).getByText('Billing', { exact: true }).waitFor();

    // A line to look at once the inventory is in.
    await waitForUsageRun(owner, portal, async () => (await session.api<{ totalCount: number }>(owner, '/terminals?active=true&limit=1')).totalCount > 0);
    const listing = await session.api<{ results: TerminalRow[] }>(owner, '/terminals?active=true&limit=5');
    const target = listing.results.find((row) => row.service_line_number)!;

    const own = await session.browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await own.newPage();
      await page.goto(`${portal.url}/login`);
      await submitLogin(page, email, password);
      await page.waitForURL('**/home');
      const nav = page.getByRole('navigation', { name: 'Main navigation' });
      await nav.getByRole('button', { name: 'Billing' }).click();
      await nav.getByRole('link', { name: 'Statements' }).click();
      await page.getByRole('heading', { level: 1, name: 'Statements' }).waitFor();
      await expect(nav.getByRole('link', { name: 'Users' }).count()).resolves.toBe(0);
      await expect(nav.getByRole('link', { name: 'Audit log' }).count()).resolves.toBe(0);

      // The line's settings are there to read; ending service or buying data is not theirs.
      await page.goto(`${portal.url}/terminals?terminal=${target.user_terminal_id}`);
      const dialog = page.getByRole('dialog', { name: TERMINAL_MESSAGES.detailTitle });
      await dialog.getByRole('tab', { name: 'Settings' }).click();
      // The settings have loaded, and say why nothing on them can be changed.
      await dialog.getByText('Your roles do not allow changes to this service line.').waitFor();
      await expect(dialog.getByRole('button', { name: 'Deactivate Service Line' }).count()).resolves.toBe(0);
      await expect(dialog.getByRole('button', { name: 'Buy Top-Up' }).count()).resolves.toBe(0);
    } finally {
      await own.close();
    }
  });

  it('an API key with the read-only Support role reads terminals, and gets 403 on a top-up', async () => {
    const { portal } = session;
    const owner = await session.context.newPage();
    await owner.goto(`${portal.url}/users/api-keys`);
    await owner.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await owner.getByRole('button', { name: 'New API key' }).click();
    const form = owner.getByRole('dialog', { name: 'New API key' });
    await form.getByLabel('Name').fill('Monitoring');
    await form.getByLabel('Support (read-only)', { exact: true }).check();
    await form.getByRole('button', { name: 'Create key' }).click();
    const shown = owner.getByRole('dialog', { name: 'Your new API key' });
    const key = await shown.getByLabel('API key').inputValue();
    expect(key).toMatch(/^slk_/);
    await shown.getByRole('button', { name: 'Done' }).click();
    await owner.getByRole('table', { name: 'API keys' }).getByRole('row', { name: /Monitoring/ }).waitFor();

    const asKey = (path: string, init: { method?: string; body?: unknown } = {}) =>
      fetch(`${portal.url}/api/v1${path}`, {
        method: init.method ?? 'GET',
        headers: { 'x-api-key': key, ...(init.body ? { 'content-type': 'application/json' } : {}) },
        ...(init.body ? { body: JSON.stringify(init.body) } : {}),
      });
    const terminals = await asKey('/terminals?limit=5');
    expect(terminals.status).toBe(200);
    const line = ((await terminals.json()) as { data: { results: TerminalRow[] } }).data.results.find((row) => row.service_line_number)!.service_line_number!;
    const settings = await session.api<ServiceLineSettingsWire>(owner, `/service-lines/${line}/settings`);
    const topUp = await asKey(`/service-lines/${line}/top-up`, { method: 'POST', body: { productId: settings.topUpProduct?.productId ?? 'DATA-TOPUP-50GB', count: 1 } });
    expect(topUp.status).toBe(403);
    expect(((await topUp.json()) as { message: string }).message).toBe('You do not have permission to do this (lifecycle:manage)');
  });
});
