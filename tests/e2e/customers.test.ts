// The customers page in Chromium against the real server: a customer is created in the dialog,
// sets a password from the emailed link and signs in; the admin then finds, blocks, unblocks,
// extends the customer and opens their terminals. Then a customer holding two lines of the
// built-in simulator is blocked with the option to end their lines at the end of the cycle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { CUSTOMER_LINE_ENDING_MESSAGES } from '../../src/domain/customers';
import { linkTokenFromOutbox, portalApi, signInAsAdminAt, startPortal, useChromium, waitForUsageRun, type Portal } from './harness';

let portal: Portal;
// Each page in a context of its own; the file's contexts close after it.
const chromium = useChromium();

beforeAll(async () => {
  portal = await startPortal();
});

afterAll(async () => {
  await portal?.stop();
});

async function newPage(): Promise<Page> {
  const context = await chromium.browser.newContext({ viewport: { width: 1440, height: 900 } });
  return context.newPage();
}

async function customerLogin(email: string, password: string) {
  const response = await fetch(`${portal.url}/api/v1/customers/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return { status: response.status, body: (await response.json()) as { success: boolean; message?: string; data?: { token?: string } } };
}

const rowFor = (page: Page, email: string): Locator =>
  page.getByRole('table', { name: 'Customers' }).locator('tbody tr').filter({ hasText: email });

async function rowAction(page: Page, name: string, item: string) {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

/** PrimeReact's dropdown input is visually hidden: open the dropdown around it, pick from its list. */
async function choose(scope: Locator, option: string) {
  await scope.locator('.p-dropdown').click();
  await scope.page().getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
}

describe('customers', () => {
  it('an admin creates a customer who sets a password from the emailed link and signs in; the admin then blocks, unblocks, extends and opens their terminals', async () => {
    const admin = await newPage();
    await signInAsAdminAt(admin, portal, '/customers');
    await admin.getByRole('heading', { level: 1, name: 'Customer Management' }).waitFor();
    await admin.getByText(/^Showing \d+ of \d+ customers$/).waitFor();

    // Create the customer in the dialog.
    const stamp = Date.now();
    const email = `tara.${stamp}@tailspin.example`;
    const name = `Tara Lee ${stamp}`;
    const company = `Tailspin Toys ${stamp}`;
    await admin.getByRole('button', { name: 'Add Customer' }).click();
    const create = admin.getByRole('dialog', { name: 'Add New Customer' });
    await create.getByRole('button', { name: 'Create Customer Account' }).click();
    await create.getByText('Company name is required').waitFor();
    await create.getByLabel('Company Name').fill(company);
    await create.getByLabel('Full Name').fill(name);
    await create.getByLabel('Email Address').fill(email);
    await expect(create.getByText('Company name is required').count()).resolves.toBe(0);
    await create.getByRole('button', { name: 'Create Customer Account' }).click();
    await admin.getByText(`Customer created successfully! Password setup link sent to ${email}`).waitFor();
    await admin.getByText(`${name} from ${company} has been added.`).waitFor();
    await create.waitFor({ state: 'detached' });

    // The customer opens the emailed link, signed out, in another browser.
    const setupToken = await linkTokenFromOutbox(admin, portal, email, 'set-password');
    const visitor = await newPage();
    await visitor.goto(`${portal.url}/set-password?token=${encodeURIComponent(setupToken)}`);
    const account = visitor.getByLabel('Your account');
    await account.getByText(email).waitFor();
    await account.getByText(name).waitFor();
    await account.getByText(company).waitFor();
    const password = 'Tailspin-Passw0rd!';
    await visitor.getByLabel('New password').fill(password);
    await visitor.getByLabel('Confirm password').fill(`${password}x`);
    await visitor.getByRole('button', { name: 'Set Password' }).click();
    await visitor.getByText('New passwords do not match').waitFor();
    await visitor.getByLabel('Confirm password').fill(password);
    await visitor.getByRole('button', { name: 'Set Password' }).click();
    await visitor.getByRole('heading', { name: 'Your password is set' }).waitFor();
    await visitor.getByRole('link', { name: 'Go to the login page' }).click();
    await visitor.waitForURL('**/login');

    // The link is spent; the password works.
    await visitor.goto(`${portal.url}/set-password?token=${encodeURIComponent(setupToken)}`);
    await visitor.getByRole('heading', { name: 'This link can no longer be used' }).waitFor();
    const signedIn = await customerLogin(email, password);
    expect(signedIn.body.success, JSON.stringify(signedIn.body)).toBe(true);
    expect(signedIn.body.data?.token).toBeTruthy();

    // Back as the admin: find the customer by search (the search goes into the URL).
    await admin.getByRole('searchbox', { name: 'Search customers' }).fill(email);
    await admin.waitForURL(/\/customers\?search=/);
    await admin.getByText('Showing 1 of 1 customers').waitFor();
    const row = rowFor(admin, email);
    await row.getByText(company).waitFor();
    const uuid = (await row.locator('.cell-mono').textContent())?.trim();
    expect(uuid).toMatch(/^[0-9a-f-]{36}$/);

    // Block with a reason, confirmed.
    const reason = 'E2E: unpaid invoices';
    await rowAction(admin, name, 'Block Customer');
    const block = admin.getByRole('dialog', { name: 'Block Customer' });
    await block.getByLabel('Reason').fill(reason);
    await block.getByRole('button', { name: 'Continue' }).click();
    await block.getByRole('button', { name: 'Block Customer' }).click();
    await admin.getByText(`${name} has been blocked`).waitFor();
    await row.getByText('Blocked', { exact: true }).waitFor();
    await row.getByText(reason).waitFor();
    const refused = await customerLogin(email, password);
    expect(refused.body.success).toBe(false);

    // Unblock, confirmed.
    await rowAction(admin, name, 'Unblock Customer');
    await admin.getByRole('dialog', { name: 'Unblock Customer' }).getByRole('button', { name: 'Unblock Customer' }).click();
    await admin.getByText(`${name} has been unblocked`).waitFor();
    await row.getByText(reason).waitFor({ state: 'detached' });
    await expect(row.getByText('Blocked', { exact: true }).count()).resolves.toBe(0);
    expect((await customerLogin(email, password)).body.success).toBe(true);

    // Extend the account by 90 days; the dialog shows the new date.
    await rowAction(admin, name, 'Account Settings');
    const settings = admin.getByRole('dialog', { name: 'Account Settings' });
    await choose(settings, '90 days');
    await settings.getByRole('button', { name: 'Extend Account' }).click();
    await settings.getByText(/^Extended by 90 days\. The account now expires on .+\.$/).waitFor();
    await admin.getByText('Account extended by 90 days').waitFor();
    await settings.getByRole('button', { name: 'Close' }).last().click();
    await settings.waitFor({ state: 'detached' });

    // Reload keeps the search; Manage Terminals opens the customer's terminal page.
    await admin.reload();
    await admin.getByText('Showing 1 of 1 customers').waitFor();
    await expect(admin.getByRole('searchbox', { name: 'Search customers' }).inputValue()).resolves.toBe(email);
    await rowAction(admin, name, 'Manage Terminals');
    await admin.waitForURL(`**/customer/terminals/${uuid}`);
  });

  it('an admin blocks a customer who holds two lines and also ends the lines at the end of the billing cycle', async () => {
    const admin = await newPage();
    await signInAsAdminAt(admin, portal, '/customers');
    const api = <T>(path: string, init: { method?: string; body?: unknown } = {}) => portalApi<T>(admin, portal, path, init);
    // The start-up sync has filled the inventory, and the demo has handed out its lines (so the
    // two free lines taken here stay free until they are assigned).
    await waitForUsageRun(admin, portal, async () => (await api<{ totalCount: number }>('/terminals?assigned=true&limit=1')).totalCount > 0);

    const stamp = Date.now();
    const name = `Ines Ortega ${stamp}`;
    const { customer } = await api<{ customer: { uuid: string; email: string } }>('/customers', {
      method: 'POST',
      body: { company: `Harbor Freight Lines ${stamp}`, name, email: `ines.${stamp}@harborfreight.example`, expirationDays: 365 },
    });
    type Settings = { active: boolean; endDate: string | null };
    const settingsOf = (line: string) => api<Settings>(`/service-lines/${encodeURIComponent(line)}/settings`);
    // Two free lines not already ending (the simulator has some that are), so both will be set to end.
    const free = await api<{ results: { service_line_number: string }[] }>('/terminals/available?active=true&limit=10');
    const lines: string[] = [];
    for (const line of new Set(free.results.map((row) => row.service_line_number))) {
      if (lines.length < 2 && (await settingsOf(line)).endDate === null) lines.push(line);
    }
    expect(lines).toHaveLength(2);
    const assigned = await api<{ assigned: string[] }>('/terminals/customers/assign-terminals', {
      method: 'POST',
      body: { customerUuid: customer.uuid, serviceLineNumbers: lines },
    });
    expect(assigned.assigned).toHaveLength(2);

    await admin.getByRole('searchbox', { name: 'Search customers' }).fill(customer.email);
    await admin.getByText('Showing 1 of 1 customers').waitFor();
    await rowAction(admin, name, 'Block Customer');
    const block = admin.getByRole('dialog', { name: 'Block Customer' });
    await block.getByLabel('Reason').fill('E2E: contract ended');
    await block.getByText(CUSTOMER_LINE_ENDING_MESSAGES.optionHint).waitFor();
    // PrimeReact's checkbox input is visually hidden: its label is what a person clicks.
    await block.getByText(CUSTOMER_LINE_ENDING_MESSAGES.option, { exact: true }).click();
    await expect(block.getByRole('checkbox', { name: CUSTOMER_LINE_ENDING_MESSAGES.option }).isChecked()).resolves.toBe(true);
    await block.getByRole('button', { name: 'Continue' }).click();
    await block.getByText(CUSTOMER_LINE_ENDING_MESSAGES.confirmNote).waitFor();
    await block.getByRole('button', { name: 'Block Customer' }).click();
    await admin.getByText(CUSTOMER_LINE_ENDING_MESSAGES.blockedLinesEnding(name, 2), { exact: true }).waitFor();
    await rowFor(admin, customer.email).getByText('Blocked', { exact: true }).waitFor();

    // Each line now has an end date at the provider, and is still active until then.
    for (const line of lines) {
      const settings = await settingsOf(line);
      expect(settings.active, line).toBe(true);
      expect(settings.endDate, line).toBeTruthy();
    }
  });
});
