// Team roles, customer organisations and API keys in Chromium against the real server: an Owner
// creates a Billing user, who sees Statements but no way to deactivate a line; a customer's owner
// invites a site manager limited to two lines, who sees only those; and an API key with the
// read-only Support role reads terminals and is refused a top-up.
import { describe, expect, it } from 'vitest';
import type { ServiceLineSettingsWire } from '../../src/domain/service-lines';
import { TERMINAL_MESSAGES } from '../../src/domain/terminals';
import { customerSignsInFromLink, portalApi, signInAsAdminAt, submitLogin, useBrowserSession, waitForUsageRun } from './harness';

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

  it('a customer owner invites a site manager, who sees only their two lines', async () => {
    const { portal } = session;
    await session.freshContext();
    const admin = await session.context.newPage();
    await signInAsAdminAt(admin, portal, '/customers');
    await admin.getByText(/^Showing \d+ of \d+ customers$/).waitFor();
    const stamp = Date.now();
    const email = `olga.${stamp}@sites.example`;
    await session.api(admin, '/customers', { method: 'POST', body: { email, name: `Olga Owner ${stamp}`, company: `Sites ${stamp}`, expirationDays: 365 } });
    const uuid = (await session.api<{ customers: { uuid: string; email: string }[] }>(admin, `/customers?search=${encodeURIComponent(email)}`)).customers.find((c) => c.email === email)!.uuid;
    // Three free lines for the organisation: the site manager is to see two of them.
    const free = await session.api<{ results: TerminalRow[] }>(admin, '/terminals?assigned=false&limit=50');
    const lines = [...new Set(free.results.map((row) => row.service_line_number).filter((line): line is string => !!line))].slice(0, 3);
    expect(lines).toHaveLength(3);
    await session.api(admin, '/terminals/customers/assign-terminals', { method: 'POST', body: { customerUuid: uuid, serviceLineNumbers: lines } });

    const ownerContext = await session.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const memberContext = await session.browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const owner = await ownerContext.newPage();
      await customerSignsInFromLink(owner, admin, portal, email, 'Sites-Passw0rd!');
      await owner.getByRole('navigation').getByRole('link', { name: 'Team' }).click();
      await owner.getByRole('heading', { level: 1, name: 'Team' }).waitFor();
      await owner.getByRole('button', { name: 'Invite member' }).click();
      const invite = owner.getByRole('dialog', { name: 'Invite member' });
      const memberEmail = `sam.${stamp}@sites.example`;
      await invite.getByLabel('Email', { exact: true }).fill(memberEmail);
      await invite.getByRole('textbox', { name: 'Name' }).fill('Sam Site');
      await invite.getByLabel(/^Manager/).check();
      await invite.getByLabel('All lines').uncheck();
      await invite.getByLabel(lines[0]!).check();
      await invite.getByLabel(lines[1]!).check();
      await invite.getByRole('button', { name: 'Send Invitation' }).click();
      await invite.waitFor({ state: 'detached' });
      await owner.getByRole('table', { name: 'Invitations' }).getByText(memberEmail).waitFor();

      // The invitation as emailed, opened in the site manager's own browser.
      let token: string | undefined;
      for (const deadline = Date.now() + 30_000; !token && Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
        const outbox = await portalApi<{ messages?: { to: string; text: string }[] }>(admin, portal, `/email-outbox?to=${encodeURIComponent(memberEmail)}&limit=5`);
        token = (outbox.messages ?? []).map((m) => /\/invitation\/([A-Za-z0-9_-]+)/.exec(m.text)?.[1]).find(Boolean);
      }
      expect(token).toBeDefined();
      const member = await memberContext.newPage();
      await member.goto(`${portal.url}/invitation/${token}`);
      await member.getByLabel('Your name').fill('Sam Site');
      await member.getByLabel('Password', { exact: true }).fill('Site-Passw0rd!');
      await member.getByLabel('Confirm password').fill('Site-Passw0rd!');
      await member.getByRole('button', { name: 'Join' }).click();
      await member.getByText('Welcome to the team').waitFor();
      await member.goto(`${portal.url}/login`);
      await submitLogin(member, memberEmail, 'Site-Passw0rd!');
      await member.waitForURL(/\/my$/);

      const nav = member.getByRole('navigation');
      await nav.getByRole('link', { name: 'Terminals' }).click();
      const table = member.getByRole('table', { name: 'Your terminals' });
      await table.getByText(lines[0]!).waitFor();
      const shown = await table.locator('tbody tr').allTextContents();
      expect(shown.filter((row) => row.includes(lines[0]!) || row.includes(lines[1]!)).length).toBe(shown.length);
      expect(shown.some((row) => row.includes(lines[1]!))).toBe(true);
      expect(shown.some((row) => row.includes(lines[2]!))).toBe(false);
      await expect(nav.getByRole('link', { name: 'Team' }).count()).resolves.toBe(0);
    } finally {
      await ownerContext.close();
      await memberContext.close();
    }
  });

  it('an API key with the read-only Support role reads terminals, and gets 403 on a top-up', async () => {
    const { portal } = session;
    await session.freshContext();
    const owner = await session.context.newPage();
    await signInAsAdminAt(owner, portal, '/users/api-keys');
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
