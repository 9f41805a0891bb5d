// The administrators' guide's tour (docs/guide.md): Chromium against the real server, its sync
// worker and the built-in provider simulator. An administrator signs in and visits every screen
// of the portal; each step waits for the screen's real content, then writes a screenshot
// (1366×850, JPEG quality 80) into GUIDE_SCREENSHOTS_DIR (default `.tmp/guide`, relative to the
// repository root). `npm run docs:screenshots` writes the guide's own images into docs/guide/.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { ASSIGN_MESSAGES, ASSIGN_REASONS, CUSTOMER_USAGE_MESSAGES } from '../../src/domain/customer-terminals';
import { MFA_MESSAGES } from '../../src/domain/mfa';
import { PROVIDER_BILLING_TEXTS } from '../../src/domain/provider-billing';
import { SUBSCRIPTION_MESSAGES } from '../../src/domain/subscriptions';
import { TERMINAL_MESSAGES } from '../../src/domain/terminals';
import { totpCode } from '../../server/auth/totp';
import { portalApi, startPortal, submitLogin, type Portal, useChromium, waitForUsageRun } from './harness';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHOTS_DIR = resolve(ROOT, process.env.GUIDE_SCREENSHOTS_DIR || '.tmp/guide');
const VIEWPORT = { width: 1366, height: 850 };

/** Everything that means "not loaded yet": skeletons, spinners, busy regions, a table's loading overlay. */
const LOADING = '.p-skeleton, .pi-spin, [aria-busy="true"], .p-datatable-loading-overlay';
/** react-hot-toast's toasts. */
const TOASTS = '[data-rht-toaster] [role="status"]';

let portal: Portal;
const chromium = useChromium();
let context: BrowserContext;
let page: Page;
let inFlight = 0;

const api = <T>(path: string, init: { method?: string; body?: unknown } = {}) => portalApi<T>(page, portal, path, init);

interface TerminalRow {
  user_terminal_id: string;
  service_line_number: string;
  kit_serial_number: string;
  active: boolean;
  assigned_to: string | null;
  assigned_to_customer: string | null;
}

/** The demo customer holding the most terminals, and one free line and one taken by someone else. */
let customer: { uuid: string; name: string };
let freeLine: string;
let takenLine: { line: string; holder: string };
/** The authenticator secret Settings enrolled, for the code step of the next sign-in. */
let mfaSecret = '';

beforeAll(async () => {
  mkdirSync(SHOTS_DIR, { recursive: true });
  portal = await startPortal();
  context = await chromium.browser.newContext({
    viewport: VIEWPORT,
    deviceScaleFactor: 1,
    locale: 'en-US',
    timezoneId: 'UTC',
    reducedMotion: 'reduce',
    colorScheme: 'light',
  });
  page = await context.newPage();
  page.on('request', () => inFlight++);
  page.on('requestfinished', () => inFlight--);
  page.on('requestfailed', () => inFlight--);
});

afterAll(async () => {
  await context?.close().catch(() => {});
  await portal?.stop();
});

/** No request in flight for half a second (the pages load on demand and fetch after rendering). */
async function networkQuiet(timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let quietSince = inFlight === 0 ? Date.now() : 0;
  while (Date.now() < deadline) {
    if (inFlight > 0) quietSince = 0;
    else if (quietSince === 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= 500) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`The page kept ${inFlight} request(s) in flight`);
}

/**
 * Waits for the screen to be still (network quiet, no loading indicator, no toast, fonts in),
 * parks the pointer and the focus where they change nothing, and writes `<name>.jpg`.
 */
async function screenshot(name: string): Promise<void> {
  await networkQuiet();
  await page.locator(LOADING).first().waitFor({ state: 'detached', timeout: 15_000 });
  await page.locator(TOASTS).first().waitFor({ state: 'detached', timeout: 15_000 });
  await page.evaluate(async () => {
    await document.fonts.ready;
    (document.activeElement as HTMLElement | null)?.blur?.();
  });
  await page.mouse.move(VIEWPORT.width - 2, 2);
  await networkQuiet();
  await page.screenshot({ path: join(SHOTS_DIR, `${name}.jpg`), type: 'jpeg', quality: 80, animations: 'disabled', caret: 'hide' });
}

async function open(path: string): Promise<void> {
  await page.goto(`${portal.url}${path}`);
}

const heading = (name: string | RegExp, level = 1) => page.getByRole('heading', { level, name });

async function logOut(): Promise<void> {
  await page.getByRole('button', { name: new RegExp(portal.admin.email) }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.waitForURL('**/login');
}

async function tableRows(table: Locator): Promise<number> {
  // The header row is a row too.
  return (await table.getByRole('row').count()) - 1;
}

describe("the administrators' guide, screen by screen", () => {
  it('the login page asks for an email address and a password', async () => {
    await open('/login');
    await heading('Welcome to the Enterprise Admin Portal').waitFor();
    await page.getByText('Login with your admin account').waitFor();
    await expect(page.getByRole('button', { name: 'Login' }).isEnabled()).resolves.toBe(true);
    await screenshot('login');
  });

  it('an administrator signs in and the dashboard shows the live figures and the recent activity', async () => {
    await submitLogin(page, portal.admin.email, portal.admin.password);
    await page.waitForURL('**/home');
    // The first start syncs the inventory and its usage, hands lines to the demo customers, seeds
    // their prices, and its billing run then closes the demo's past cycles. Each step is audited,
    // so on a slow machine the sign-in above may already be older than the dashboard's ten lines.
    await waitForUsageRun(
      page,
      portal,
      async () =>
        (await api<{ totalCount: number }>('/terminals?assigned=true&limit=1')).totalCount > 0 &&
        (await api<{ entries: unknown[] }>('/audit?action=billing.cycle_closed&limit=1')).entries.length > 0,
      120_000,
    );
    const { recentActivity } = await api<{ recentActivity: { description: string }[] }>('/dashboard/summary');
    expect(recentActivity.length).toBeGreaterThan(0);

    await page.reload();
    await heading('Enterprise Dashboard').waitFor();
    await page.getByText('Welcome back, Administrator').waitFor();
    await page.getByRole('region', { name: 'Active Terminals' }).getByText(/^\d[\d,]*$/).waitFor();
    await page.getByRole('region', { name: 'Total Customers' }).getByText(/^\d[\d,]*$/).waitFor();
    // The newest audited action leads the recent activity.
    await expect(page.locator('.activity-description').first().textContent()).resolves.toBe(recentActivity[0]!.description);
    await screenshot('dashboard');
  }, 180_000);

  it('the customers list pages through the enterprise customers, ten at a time', async () => {
    await open('/customers');
    await heading('Customer Management').waitFor();
    await page.getByText(/^Showing 10 of \d+ customers$/).waitFor();
    const table = page.getByRole('table', { name: 'Customers' });
    await expect(tableRows(table)).resolves.toBe(10);
    await page.getByRole('region', { name: 'Total Customers' }).getByText(/^\d+$/).waitFor();
    await screenshot('customers');
  });

  it("a customer's details show the account and its activity", async () => {
    const firstRow = page.getByRole('table', { name: 'Customers' }).locator('tbody tr').first();
    const email = (await firstRow.locator('.cell-secondary').nth(1).textContent())?.trim() ?? '';
    expect(email).toMatch(/@/);
    await firstRow.getByRole('button', { name: /^Actions for / }).click();
    await page.getByRole('menuitem', { name: 'View Details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Customer Details' });
    await dialog.getByText(email, { exact: true }).waitFor();
    await dialog.getByRole('heading', { name: 'Activity' }).waitFor();
    await dialog.getByRole('list', { name: 'Customer activity' }).or(dialog.getByText('No activity recorded yet.')).waitFor();
    await screenshot('customer-details');
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('Add Customer asks for the company, the contact and how long the account lasts', async () => {
    await page.getByRole('button', { name: 'Add Customer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Customer' });
    await dialog.getByLabel('Company Name').fill('Lagoon Survey Partners');
    await dialog.getByLabel('Full Name').fill('Mara Ilunga');
    await dialog.getByLabel('Email Address').fill('mara.ilunga@lagoonsurvey.example');
    await dialog.getByText(/A secure password setup link will be sent/).waitFor();
    await expect(dialog.getByRole('button', { name: 'Create Customer Account' }).isEnabled()).resolves.toBe(true);
    await screenshot('customer-create');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it("a customer's terminal usage page shows the month's usage of every line they hold", async () => {
    const held = await api<{ results: TerminalRow[] }>('/terminals?assigned=true&limit=100');
    const byCustomer = new Map<string, { name: string; lines: number }>();
    for (const row of held.results) {
      if (!row.assigned_to) continue;
      const entry = byCustomer.get(row.assigned_to) ?? { name: row.assigned_to_customer ?? '', lines: 0 };
      entry.lines++;
      byCustomer.set(row.assigned_to, entry);
    }
    // The demo data is the same on every start: by name (not by the random uuid) the same customer each time.
    const [uuid, most] = [...byCustomer.entries()].sort((a, b) => b[1].lines - a[1].lines || a[1].name.localeCompare(b[1].name))[0]!;
    customer = { uuid, name: most.name };
    const other = held.results.find((r) => r.assigned_to && r.assigned_to !== uuid)!;
    takenLine = { line: other.service_line_number, holder: other.assigned_to_customer ?? '' };
    const free = await api<{ results: TerminalRow[] }>('/terminals/available?active=true&limit=1');
    freeLine = free.results[0]!.service_line_number;

    await open(`/customer/terminals/${uuid}`);
    await heading(CUSTOMER_USAGE_MESSAGES.title).waitFor();
    await page.getByText(customer.name, { exact: true }).first().waitFor();
    const table = page.getByRole('table', { name: 'Customer terminals' });
    await table.getByRole('row', { name: /\d+\.\d (GB|TB) \/ \d+\.\d (GB|TB)/ }).first().waitFor();
    await expect(tableRows(table)).resolves.toBeGreaterThan(1);
    await heading(CUSTOMER_USAGE_MESSAGES.chartTitle, 2).waitFor();
    await page.getByRole('region', { name: 'Total Data Used' }).getByText(/\d+\.\d (GB|TB)/).waitFor();
    await screenshot('customer-terminals');
  });

  it('Assign Terminals hands service lines to the customer and names the ones it refused, with the reason', async () => {
    await page.getByRole('button', { name: ASSIGN_MESSAGES.button }).click();
    const dialog = page.getByRole('dialog', { name: ASSIGN_MESSAGES.title });
    await dialog.getByText(customer.uuid).waitFor();
    await dialog.getByRole('heading', { name: /terminals? currently assigned$/ }).waitFor();
    await dialog.getByLabel(ASSIGN_MESSAGES.inputLabel).fill(`${freeLine}, ${takenLine.line}`);
    await dialog.getByRole('button', { name: ASSIGN_MESSAGES.button }).click();
    await dialog.getByText(ASSIGN_MESSAGES.successTitle(1)).waitFor();
    await dialog.getByText(ASSIGN_MESSAGES.failureTitle(1)).waitFor();
    const reason = dialog.getByText(ASSIGN_REASONS.assignedToOther(takenLine.holder));
    await reason.waitFor();
    await reason.scrollIntoViewIfNeeded();
    await screenshot('customer-assign');
    await dialog.getByRole('button', { name: ASSIGN_MESSAGES.close }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('table', { name: 'Customer terminals' }).getByText(freeLine).waitFor();
  });

  it('the terminals page shows the fleet summary and the synced inventory', async () => {
    await open('/terminals');
    await heading(TERMINAL_MESSAGES.title).waitFor();
    await page.getByText(/^Showing 25 of \d+ terminals from local database$/).waitFor();
    await page.getByText(/^Last sync: \d+ added/).waitFor();
    await expect(page.getByRole('button', { name: TERMINAL_MESSAGES.syncButton }).isEnabled()).resolves.toBe(true);
    await expect(tableRows(page.getByRole('table', { name: TERMINAL_MESSAGES.listTitle }))).resolves.toBe(25);
    await screenshot('terminals');
  });

  it('Add Terminal opens the activation wizard at its first step, the kit or dish serial', async () => {
    await page.getByRole('button', { name: 'Add Terminal' }).click();
    const wizard = page.getByRole('dialog', { name: 'Add Terminal' });
    await wizard.getByLabel('Kit or dish serial').waitFor();
    await screenshot('add-terminal');
    await page.keyboard.press('Escape');
    await wizard.waitFor({ state: 'detached' });
  });

  it('Terminal Details shows the owner, the usage of the month and the telemetry of one terminal', async () => {
    const firstPage = await api<{ results: TerminalRow[] }>('/terminals?limit=25');
    const target = firstPage.results.find((r) => r.active && r.assigned_to) ?? firstPage.results[0]!;
    await page.getByRole('button', { name: `View details of ${target.service_line_number}` }).click();
    const dialog = page.getByRole('dialog', { name: TERMINAL_MESSAGES.detailTitle });
    await page.waitForURL(new RegExp(`terminal=${target.user_terminal_id}`));
    await dialog.getByText(target.kit_serial_number).first().waitFor();
    await dialog.getByRole('heading', { name: 'Owner' }).waitFor();
    if (target.assigned_to) await dialog.getByLabel('Customer Name').waitFor();
    await dialog.getByRole('heading', { name: 'Terminal', exact: true }).waitFor();
    await screenshot('terminal-details');

    await dialog.getByRole('tab', { name: 'Usage' }).click();
    await dialog.getByRole('heading', { name: 'Data Cap and Plan' }).waitFor();
    await dialog.getByRole('heading', { name: 'Current Billing Cycle Usage' }).or(dialog.getByRole('heading', { name: TERMINAL_MESSAGES.noUsageTitle })).waitFor();
    await screenshot('terminal-usage');

    await dialog.getByRole('tab', { name: 'Status' }).click();
    await dialog.getByRole('heading', { name: 'Telemetry' }).waitFor();
    await dialog.getByText('Signal Quality', { exact: true }).waitFor();
    await screenshot('terminal-status');

    // The line's settings as the provider has them, and its equipment with the actions on each.
    await dialog.getByRole('tab', { name: 'Settings' }).click();
    await dialog.getByRole('heading', { name: 'Service Line' }).waitFor();
    await dialog.getByRole('heading', { name: 'Terminals and Routers' }).waitFor();
    await dialog.getByRole('button', { name: `Move ${target.kit_serial_number}`, exact: true }).waitFor();
    // The tab is taller than the dialog: show its end, where the equipment and Deactivate are.
    await dialog.getByRole('button', { name: 'Deactivate Service Line' }).scrollIntoViewIfNeeded();
    await screenshot('terminal-settings');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it("the subscriptions page shows each terminal's plan, its overage and the end-of-cycle forecast", async () => {
    await open('/subscription');
    await heading(SUBSCRIPTION_MESSAGES.title).waitFor();
    await page.getByText(/terminals? (is|are) over (its|their) plan this billing cycle$/).waitFor();
    const table = page.getByRole('table', { name: SUBSCRIPTION_MESSAGES.title });
    await table.getByRole('button', { name: /^Change Plan / }).first().waitFor();
    await expect(tableRows(table)).resolves.toBe(25);
    await screenshot('subscriptions');
  });

  it('Change Plan offers the plans the provider sells, the current one marked', async () => {
    await page.getByRole('table', { name: SUBSCRIPTION_MESSAGES.title }).getByRole('button', { name: /^Change Plan / }).first().click();
    const dialog = page.getByRole('dialog', { name: SUBSCRIPTION_MESSAGES.changePlan });
    await dialog.getByText('Available plans').waitFor();
    await dialog.getByText(/\(current plan\)$/).waitFor();
    await expect(dialog.getByRole('radio').count()).resolves.toBeGreaterThan(1);
    // Choose another plan: Next asks for the confirmation of its monthly data and price.
    const next = dialog.getByRole('button', { name: 'Next' });
    await expect(next.isDisabled()).resolves.toBe(true);
    await dialog.getByRole('radio', { disabled: false }).first().check();
    await expect(next.isEnabled()).resolves.toBe(true);
    await screenshot('subscription-change-plan');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('Provider Billing shows what the provider bills: the amount due and the invoices, newest first', async () => {
    await page.getByRole('link', { name: PROVIDER_BILLING_TEXTS.link }).click();
    await heading(PROVIDER_BILLING_TEXTS.title).waitFor();
    const table = page.getByRole('table', { name: PROVIDER_BILLING_TEXTS.invoicesTable });
    await table.getByRole('button', { name: new RegExp(`^${PROVIDER_BILLING_TEXTS.view} `) }).first().waitFor();
    await screenshot('provider-billing');
  });

  it("the users page lists the portal's own accounts with their role, status and MFA", async () => {
    await open('/users');
    await heading('User Management').waitFor();
    const table = page.getByRole('table', { name: 'Users' });
    await table.getByRole('row', { name: new RegExp(portal.admin.email) }).waitFor();
    await expect(tableRows(table)).resolves.toBeGreaterThan(10);
    await page.getByRole('region', { name: 'Total Users' }).getByText(/^\d+$/).waitFor();
    await screenshot('users');
  });

  it('Add User creates an account with a role and either an initial password or an emailed setup link', async () => {
    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await dialog.getByLabel('Full Name').fill('Noor Haddad');
    await dialog.getByLabel('Email Address').fill('noor.haddad@example.com');
    await dialog.getByText('Leave empty to email the user a link to choose their own password.').waitFor();
    await expect(dialog.getByRole('button', { name: 'Create User' }).isEnabled()).resolves.toBe(true);
    await screenshot('user-add');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('the Starlink API Simulator page queries the provider: its terminals and one service line', async () => {
    await open('/customers/starlink-simulator');
    await heading('Starlink API Simulator').waitFor();
    await page.getByText(/^Connected to the built-in simulator/).waitFor();
    await page.getByRole('button', { name: 'Load Terminals' }).click();
    await page.getByLabel('Loaded terminals').getByText(/^Total: \d+/).waitFor();
    const tabs = page.getByRole('tablist', { name: 'User terminals results' });
    await tabs.getByRole('tab', { name: 'Overview' }).waitFor();
    await screenshot('simulator');

    // A fresh page, so the search results sit right under the controls. The line is the one the
    // tour just handed to the customer.
    await page.reload();
    await page.getByText(/^Connected to the built-in simulator/).waitFor();
    await page.getByLabel('Service line number').fill(freeLine);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('tablist', { name: 'Search results' }).getByRole('tab', { name: 'Service Line Details' }).waitFor();
    const panel = page.getByRole('region', { name: 'Search Results' });
    await panel.getByText(freeLine, { exact: true }).first().waitFor();
    await panel.getByText('Active', { exact: true }).first().waitFor();
    await screenshot('simulator-search');
  });

  it('Settings shows the account; Security offers the password change and sets up MFA with its backup codes', async () => {
    await open('/settings');
    await heading('Settings').waitFor();
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe(portal.admin.email);
    await page.getByText('Account Created').waitFor();
    await screenshot('settings-account');

    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByRole('heading', { name: 'Change Password' }).waitFor();
    await page.getByText(MFA_MESSAGES.disabledWarning).waitFor();
    await screenshot('settings-security');

    await page.getByRole('button', { name: MFA_MESSAGES.enable }).click();
    await page.getByRole('img', { name: /QR/ }).waitFor();
    const secret = (await page.locator('code.mfa-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    await screenshot('settings-mfa-setup');

    await page.getByLabel('Verification code').fill(await totpCode(secret, new Date()));
    await page.getByRole('button', { name: MFA_MESSAGES.verifyAndEnable }).click();
    const codes = page.getByRole('list', { name: 'Backup recovery codes' }).getByRole('listitem');
    await codes.first().waitFor();
    await expect(codes.count()).resolves.toBe(8);
    await page.getByText(MFA_MESSAGES.enabledNote).waitFor();
    await screenshot('settings-mfa-enabled');
    mfaSecret = secret;
  });

  it('with MFA on, signing in asks for a code from the authenticator app after the password', async () => {
    await logOut();
    await submitLogin(page, portal.admin.email, portal.admin.password);
    await page.getByText(MFA_MESSAGES.codeRequired).waitFor();
    const input = page.getByLabel(MFA_MESSAGES.codeLabel);
    await input.waitFor();
    await screenshot('login-mfa');
    // The step that enabled MFA cannot be replayed: the next step's code signs in.
    await input.fill(await totpCode(mfaSecret, new Date(Date.now() + 30_000)));
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.waitForURL('**/home');
    await heading('Enterprise Dashboard').waitFor();
  });
});
