// Customer self-service in Chromium against the real server and its simulator (the customer
// journey): a customer created in the admin portal sets a password from the emailed link, signs in
// at /login and lands in their own area, sees only their own two terminals, renames and reboots
// one, requests a top-up that an administrator approves from the Requests queue, and turns on
// multi-factor authentication; the administrator then looks through the customer's eyes with
// "View as customer" and can change nothing there.
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { MFA_MESSAGES } from '../../src/domain/mfa';
import { MY_AREA_MESSAGES } from '../../src/domain/my-area';
import { REQUEST_MESSAGES } from '../../src/domain/requests';
import type { ServiceLineSettingsWire } from '../../src/domain/service-lines';
import { SESSION_STORAGE_KEY, parsePersistedSession } from '../../src/domain/session';
import { totpCode } from '../../server/auth/totp';
import { PREVIEW_TEXTS } from '../../src/ui/my/PreviewBanner';
import { customerSignsInFromLink, signInAsAdminAt, useBrowserSession, waitForUsageRun } from './harness';

const session = useBrowserSession();

interface TerminalRow {
  user_terminal_id: string;
  service_line_number: string | null;
  condition: string;
}

/** PrimeReact's dropdown: open it by its labelled box, pick from its list. */
async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('listbox').getByRole('option', { name: option }).first().click();
}

describe('the customer area in the browser', () => {
  it('a new customer sets a password from the link, sees only their own terminals, renames and reboots one, gets a top-up approved, turns MFA on, and the admin previews it read-only', async () => {
    const { portal } = session;
    const admin = await session.context.newPage();
    await signInAsAdminAt(admin, portal, '/customers');
    await admin.getByText(/^Showing \d+ of \d+ customers$/).waitFor();

    // The admin creates the customer.
    const stamp = Date.now();
    const email = `maya.${stamp}@harbour.example`;
    const name = `Maya Costa ${stamp}`;
    const company = `Harbour Freight ${stamp}`;
    await admin.getByRole('button', { name: 'Add Customer' }).click();
    const create = admin.getByRole('dialog', { name: 'Add New Customer' });
    await create.getByLabel('Company Name').fill(company);
    await create.getByLabel('Full Name').fill(name);
    await create.getByLabel('Email Address').fill(email);
    await create.getByRole('button', { name: 'Create Customer Account' }).click();
    await create.waitFor({ state: 'detached' });

    // Two free lines that are in service, online at the last reading, and sell top-ups.
    await waitForUsageRun(admin, portal, async () => (await session.api<{ totalCount: number }>(admin, '/terminals?assigned=false&limit=1')).totalCount > 0);
    const free = await session.api<{ results: TerminalRow[] }>(admin, '/terminals?assigned=false&limit=100');
    const chosen: TerminalRow[] = [];
    for (const row of free.results) {
      if (chosen.length === 2) break;
      if (!row.service_line_number || row.condition !== 'active' || chosen.some((c) => c.service_line_number === row.service_line_number)) continue;
      const settings = await session.api<ServiceLineSettingsWire>(admin, `/service-lines/${row.service_line_number}/settings`);
      if (settings.active && !settings.endDate && settings.topUpProduct && settings.topUpBlocksLeft > 0) chosen.push(row);
    }
    expect(chosen).toHaveLength(2);
    const [first, second] = chosen as [TerminalRow, TerminalRow];
    const customers = await session.api<{ customers: { uuid: string; email: string }[] }>(admin, `/customers?search=${encodeURIComponent(email)}`);
    const uuid = customers.customers.find((c) => c.email === email)!.uuid;
    await session.api(admin, '/terminals/customers/assign-terminals', {
      method: 'POST',
      body: { customerUuid: uuid, serviceLineNumbers: [first.service_line_number, second.service_line_number] },
    });

    // The customer sets a password from the emailed link and signs in at /login, in their own browser.
    const own = await session.browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await own.newPage();
      const password = 'Harbour-Passw0rd!';
      await customerSignsInFromLink(page, admin, portal, email, password);
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      // The customer's own frame: no admin menu.
      const nav = page.getByRole('navigation');
      await expect(nav.getByRole('link', { name: 'Users' }).count()).resolves.toBe(0);

      // Only their own two terminals.
      await nav.getByRole('link', { name: 'Terminals' }).click();
      const table = page.getByRole('table', { name: 'Your terminals' });
      await table.getByText(first.service_line_number!).waitFor();
      const rows = table.locator('tbody tr');
      await expect(rows.count()).resolves.toBe(2);
      const shown = await rows.allTextContents();
      expect(shown.some((t) => t.includes(second.service_line_number!))).toBe(true);
      expect(shown.every((t) => t.includes(first.service_line_number!) || t.includes(second.service_line_number!))).toBe(true);
      // Nothing of anyone else's through the API either.
      const another = free.results.find((r) => r.service_line_number && !chosen.includes(r))!;
      const raw = await page.evaluate((key) => window.localStorage.getItem(key), SESSION_STORAGE_KEY);
      const customerToken = parsePersistedSession(raw)?.token;
      const foreign = await fetch(`${portal.url}/api/v1/my/terminals/${encodeURIComponent(another.user_terminal_id)}`, { headers: { authorization: `Bearer ${customerToken}` } });
      expect(foreign.status).toBe(404);

      // Rename the first terminal, then reboot it.
      await rows.filter({ hasText: first.service_line_number! }).getByRole('button').first().click();
      await page.waitForURL(`**/my/terminals/${first.user_terminal_id}`);
      const newName = `Quay office ${stamp % 10_000}`;
      await page.getByRole('button', { name: 'Rename' }).click();
      const rename = page.getByRole('dialog', { name: 'Rename terminal' });
      await rename.getByLabel('Name').fill(newName);
      await rename.getByRole('button', { name: 'Save' }).click();
      await page.getByText(MY_AREA_MESSAGES.renamed(newName)).first().waitFor();
      await page.getByRole('heading', { level: 1, name: newName }).waitFor();
      await page.getByRole('button', { name: 'Reboot' }).click();
      const reboot = page.getByRole('dialog', { name: 'Reboot terminal' });
      await reboot.getByRole('button', { name: 'Reboot' }).click();
      await page.getByText(MY_AREA_MESSAGES.rebooted).first().waitFor();

      // Request a top-up for the first line.
      await nav.getByRole('link', { name: 'Requests' }).click();
      await page.getByRole('heading', { level: 1, name: REQUEST_MESSAGES.myTitle }).waitFor();
      await page.getByRole('button', { name: REQUEST_MESSAGES.newRequest }).click();
      const dialog = page.getByRole('dialog', { name: REQUEST_MESSAGES.newRequest });
      await choose(page, 'Service line', new RegExp(first.service_line_number!));
      await dialog.getByText('Top-up', { exact: true }).click();
      await dialog.getByRole('button', { name: 'Send request' }).click();
      await page.getByText(REQUEST_MESSAGES.created).first().waitFor();
      const requests = page.getByRole('table', { name: REQUEST_MESSAGES.myTitle });
      await requests.locator('tbody tr').filter({ hasText: 'Pending' }).waitFor();

      // The admin approves it from the queue.
      await admin.goto(`${portal.url}/requests`);
      await admin.getByRole('heading', { level: 1, name: REQUEST_MESSAGES.queueTitle }).waitFor();
      await admin.getByRole('button', { name: `Approve request of ${name} on ${first.service_line_number}` }).click();
      const approve = admin.getByRole('dialog');
      await approve.getByRole('button', { name: 'Approve', exact: true }).click();
      await admin.getByText(REQUEST_MESSAGES.approved).first().waitFor();

      // The customer sees it approved.
      await page.reload();
      await requests.locator('tbody tr').filter({ hasText: 'Approved' }).waitFor();

      // MFA on, from the account page, with a code an authenticator would show.
      await nav.getByRole('link', { name: 'Account' }).click();
      await page.getByRole('button', { name: MFA_MESSAGES.enable }).click();
      await page.getByRole('img', { name: /QR/i }).waitFor();
      const secret = (await page.locator('code.mfa-secret').textContent())!.trim();
      await page.getByLabel('Verification code').fill(await totpCode(secret, new Date()));
      await page.getByRole('button', { name: MFA_MESSAGES.verifyAndEnable }).click();
      await page.getByText(MFA_MESSAGES.enabled).first().waitFor();
      await expect(page.getByRole('list', { name: 'Backup recovery codes' }).getByRole('listitem').count()).resolves.toBe(8);

      // The admin looks through the customer's eyes: the new name, the banner, no actions.
      await admin.goto(`${portal.url}/customers?search=${encodeURIComponent(email)}`);
      await admin.getByRole('button', { name: `Actions for ${name}` }).click();
      await admin.getByRole('menuitem', { name: 'View as customer' }).click();
      await admin.waitForURL(`**/customers/${uuid}/preview`);
      const banner: Locator = admin.getByRole('region', { name: 'Customer preview' });
      await banner.getByText(PREVIEW_TEXTS.title(name)).waitFor();
      await admin.getByRole('navigation').getByRole('link', { name: 'Terminals' }).click();
      await admin.getByRole('table', { name: 'Your terminals' }).getByText(newName).click();
      await admin.getByRole('heading', { level: 1, name: newName }).waitFor();
      await expect(admin.getByRole('button', { name: 'Rename' }).count()).resolves.toBe(0);
      await expect(admin.getByRole('button', { name: 'Reboot' }).count()).resolves.toBe(0);
      await admin.getByRole('navigation').getByRole('link', { name: 'Account' }).click();
      await admin.getByText('Multi-factor authentication is on.').waitFor();
      await banner.getByRole('button', { name: PREVIEW_TEXTS.exit }).click();
      await admin.waitForURL('**/customers');
    } finally {
      await own.close();
    }
  }, 120_000); // A long journey: twice the default, for the runs where every journey shares two cores.
});
