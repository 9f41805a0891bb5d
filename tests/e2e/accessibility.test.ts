// Every screen and the main dialogs of the portal under axe-core (WCAG 2 A and AA), in both
// themes and at two sizes: a desktop at 1366 × 850 in the light theme and a phone at 390 × 844 in
// the dark one. The theme follows the browser's colour scheme. Each size is one pass; every
// screen is loaded once in it and checked against every rule, so every screen passes every rule
// in both themes (a theme changes the colours and nothing else; the size changes the layout)
// without loading or checking it a second time. The customer area is checked twice over: signed
// in as the demo customer, and through an administrator's read-only preview of a customer. Each list page, loaded for that check, is
// measured as well (layout.ts): on the desktop its table fits the card, on the phone it fits or
// scrolls in a named region and a row's less important columns fold behind "More about …".
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { StatementListWire } from '../../src/domain/billing';
import type { CustomerListData } from '../../src/domain/customers';
import type { TerminalPageWire } from '../../src/domain/terminals';
import { REQUEST_MESSAGES } from '../../src/domain/requests';
import { axeViolations, describeViolations } from './axe';
import { listLayoutProblems } from './layout';
import { animationsSettled, demoCustomer, submitLogin, useBrowserSession, waitForUsageRun, type Portal } from './harness';

// Plain http to localhost, for the webhook whose row the Webhooks list shows.
const session = useBrowserSession({ WEBHOOK_ALLOW_HTTP_LOCALHOST: 'true' });

const SIZES = [
  { name: 'desktop', width: 1366, height: 850, theme: 'light' },
  { name: 'phone', width: 390, height: 844, theme: 'dark' },
] as const;
type Size = (typeof SIZES)[number];
type Theme = Size['theme'];

interface Screen {
  name: string;
  path: string;
  /** What shows once the screen has its data; axe runs after it. */
  ready: (page: Page) => Promise<void>;
  /**
   * Opens a dialog of the screen; axe runs on the screen with it open. Listed right after its
   * screen, it opens on that screen as its check left it (loaded, then switched to the other
   * theme), so the screen is not loaded again for it.
   */
  open?: (page: Page) => Promise<void>;
  /** A list page with rows: its table is measured too (layout.ts), and on the phone one row unfolds. */
  list?: true;
}

const heading = (text: string | RegExp) => async (page: Page) => {
  await page.getByRole('heading', { name: text }).first().waitFor();
};

async function settle(page: Page) {
  // Not 'networkidle': the bell and the sync status poll, so the network is never idle for long.
  // Skeletons and spinners go before the check.
  await page.locator('.p-skeleton, .p-progress-spinner').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  // PrimeReact's dialog and row animations end.
  await animationsSettled(page);
}

function adminScreens(ids: { paid: boolean; customer: string; statement: string | null; terminal: string; bulkOperation: string }): Screen[] {
  const screens: Screen[] = [
    { name: 'home', path: '/home', ready: heading(/Home|Dashboard|Welcome/) },
    { name: 'command palette', path: '/home', ready: heading(/Home|Dashboard|Welcome/), open: async (p) => {
      await p.keyboard.press('Control+k');
      await p.getByRole('combobox').first().fill('a');
      await p.getByRole('listbox').first().waitFor();
    } },
    { name: 'customers', path: '/customers', ready: async (p) => p.getByText(/^Showing \d+ of \d+ customers$/).waitFor(), list: true },
    { name: 'add customer dialog', path: '/customers', ready: async (p) => p.getByText(/^Showing \d+ of \d+ customers$/).waitFor(), open: async (p) => {
      await p.getByRole('button', { name: 'Add Customer' }).click();
      await p.getByRole('dialog').waitFor();
    } },
    { name: 'simulator', path: '/customers/starlink-simulator', ready: heading(/Simulator/i) },
    { name: "customer's terminals", path: `/customer/terminals/${ids.customer}`, ready: async (p) => p.locator('main').waitFor(), list: true },
    { name: 'terminals', path: '/terminals', ready: async (p) => p.locator('table').first().waitFor(), list: true },
    { name: 'terminal detail', path: `/terminals?terminal=${encodeURIComponent(ids.terminal)}`, ready: async (p) => p.locator('table').first().waitFor() },
    { name: 'fleet map', path: '/terminals/map', ready: async (p) => p.getByText(/^\d[\d,]* terminals? on the map/).first().waitFor() },
    { name: 'subscriptions', path: '/subscription', ready: async (p) => p.locator('table').first().waitFor(), list: true },
    { name: 'provider billing', path: '/subscription/provider-billing', ready: async (p) => p.locator('main').waitFor(), list: true },
    { name: 'settings', path: '/settings', ready: async (p) => p.locator('main').waitFor() },
    { name: 'users', path: '/users', ready: async (p) => p.locator('table').first().waitFor(), list: true },
    { name: 'add user dialog', path: '/users', ready: async (p) => p.locator('table').first().waitFor(), open: async (p) => {
      await p.getByRole('button', { name: /Add User/i }).click();
      await p.getByRole('dialog').waitFor();
    } },
    { name: 'roles', path: '/users/roles', ready: async (p) => p.locator('main table').first().waitFor() },
    { name: 'api keys', path: '/users/api-keys', ready: async (p) => p.locator('main').waitFor(), list: true },
    { name: 'requests', path: '/requests', ready: async (p) => p.locator('main').waitFor(), list: true },
    { name: 'alerts', path: '/alerts', ready: async (p) => p.locator('main').waitFor(), list: true },
    { name: 'alert rules', path: '/alerts/rules', ready: async (p) => p.locator('main').waitFor() },
    { name: 'webhooks', path: '/alerts/webhooks', ready: async (p) => p.locator('main').waitFor(), list: true },
    { name: 'statements', path: '/billing/statements', ready: async (p) => p.locator('main').waitFor(), list: true },
    // Its ledger has a row (and so a row to fold on the phone) once a payment was recorded.
    { name: 'payments', path: '/billing/payments', ready: async (p) => p.locator('main').waitFor(), ...(ids.paid ? { list: true as const } : {}) },
    { name: 'ageing', path: '/billing/ageing', ready: async (p) => p.locator('main').waitFor(), list: true },
    { name: 'prices', path: '/billing/prices', ready: async (p) => p.locator('main').waitFor(), list: true },
    { name: 'reconciliation', path: '/billing/reconciliation', ready: async (p) => p.locator('main').waitFor(), list: true },
    { name: 'customer preview', path: `/customers/${ids.customer}/preview`, ready: async (p) => p.locator('main').waitFor() },
    { name: 'customer preview terminals', path: `/customers/${ids.customer}/preview/terminals`, ready: async (p) => p.locator('main').waitFor() },
    { name: 'audit log', path: '/audit', ready: async (p) => p.locator('main').waitFor() },
    { name: 'bulk actions', path: '/bulk', ready: heading('New bulk action') },
    { name: 'bulk preview', path: '/bulk', ready: heading('New bulk action'), open: async (p) => {
      await p.getByLabel('CSV', { exact: true }).fill('customer,service_line\nnobody@example.test,AST-00000-00000-00\nnot-an-email,AST-1');
      await p.getByRole('button', { name: 'Preview' }).click();
      await p.getByRole('table', { name: 'Preview of the rows' }).waitFor();
    } },
    { name: 'bulk action results', path: `/bulk?operation=${ids.bulkOperation}`, ready: async (p) => p.locator('main table').first().waitFor(), list: true },
    { name: 'not found', path: '/no-such-page', ready: async (p) => p.locator('body').waitFor() },
  ];
  if (ids.statement) screens.push({ name: 'statement', path: `/billing/statements/${ids.statement}`, ready: async (p) => p.locator('main').waitFor() });
  return screens;
}

const SIGNED_OUT: Screen[] = [
  { name: 'login', path: '/login', ready: async (p) => p.getByRole('button', { name: 'Login' }).waitFor() },
  { name: 'forgot password', path: '/forgot-password', ready: async (p) => p.locator('form').waitFor() },
  { name: 'set password (bad link)', path: '/set-password?token=not-a-token', ready: async (p) => p.locator('body').waitFor() },
  { name: 'invitation (bad link)', path: '/invitation/not-a-token', ready: async (p) => p.locator('body').waitFor() },
];

const CUSTOMER_LISTS = new Set(['/my/terminals', '/my/requests', '/my/alerts', '/my/statements']);
const CUSTOMER_SCREENS: Screen[] = ['/my', '/my/terminals', '/my/requests', '/my/alerts', '/my/account', '/my/statements', '/my/team'].map((path) => ({
  name: `customer ${path}`,
  path,
  ready: async (p: Page) => p.locator('main').waitFor(),
  ...(CUSTOMER_LISTS.has(path) ? { list: true as const } : {}),
}));

/**
 * Loads the screen (unless it is a dialog on the screen `previous` left open) and checks it in the
 * pass's theme; a list's layout is measured last.
 */
async function check(page: Page, portal: Portal, size: Size, screen: Screen, previous?: Screen): Promise<string[]> {
  const onPreviousScreen = screen.open && previous && !previous.open && previous.path === screen.path;
  if (!onPreviousScreen) {
    await page.goto(`${portal.url}${screen.path}`, { timeout: 60_000, waitUntil: 'domcontentloaded' });
    await screen.ready(page);
    await settle(page);
  }
  if (screen.open) {
    await screen.open(page);
    await settle(page);
  }
  const failures: string[] = [];
  const violations = await axeViolations(page);
  if (violations.length > 0) failures.push(`${screen.name} (${screen.path}, ${size.theme} theme):\n${describeViolations(violations)}`);
  if (screen.list) failures.push(...(await listLayoutProblems(page, screen.path, size.name)));
  return failures;
}

async function newPage(browser: Browser, size: Size, theme: Theme) {
  // Reduced motion: the screens' colours and structure at rest are what is checked, and a theme
  // switch then repaints once instead of animating every colour of the page.
  const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, colorScheme: theme, reducedMotion: 'reduce' });
  return { context, page: await context.newPage() };
}

/** The finished bulk action whose results list is checked. */
let bulkOperation = '';

/**
 * Rows for the lists the demo data leaves empty, so each has one to measure and unfold: a webhook
 * whose description wraps on a narrow screen, the demo customer's top-up request (asked for on
 * their Requests page), a finished bulk action with one row done and one skipped, and an API key.
 */
async function addRows(browser: Browser, portal: Portal, admin: Page): Promise<void> {
  const terminals = await session.api<TerminalPageWire>(admin, '/terminals?assigned=true&limit=1');
  const customer = terminals.results[0]!.assigned_to!;
  await session.api(admin, '/webhooks', { method: 'POST', body: { url: 'http://127.0.0.1:9/hooks', description: 'A receiver with a long description that wraps on a narrow screen' } });
  const { roles } = await session.api<{ roles: { id: string; key: string | null }[] }>(admin, '/roles');
  const supportReadOnly = roles.find((role) => role.key === 'support_read_only')!.id;
  await session.api(admin, '/api-keys', { method: 'POST', body: { name: 'Monitoring', roleId: supportReadOnly, allowedIps: ['198.51.100.0/24'] } });

  const asCustomer = await browser.newContext({ viewport: { width: SIZES[0].width, height: SIZES[0].height } });
  try {
    const own = await asCustomer.newPage();
    const login = demoCustomer(portal);
    await own.goto(`${portal.url}/login`);
    await submitLogin(own, login.email, login.password);
    await own.waitForURL(/\/my$/);
    await own.goto(`${portal.url}/my/requests`);
    await own.getByRole('button', { name: REQUEST_MESSAGES.newRequest }).click();
    const dialog = own.getByRole('dialog', { name: REQUEST_MESSAGES.newRequest });
    await own.getByRole('combobox', { name: 'Service line' }).click();
    await own.getByRole('listbox').getByRole('option').first().click();
    await dialog.getByText('Top-up', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await own.getByText(REQUEST_MESSAGES.created).first().waitFor();
  } finally {
    await asCustomer.close();
  }

  const { operation } = await session.api<{ operation: { id: string } }>(admin, '/bulk', { method: 'POST', body: { kind: 'extend', csv: `customer,days\n${customer},30\nnot-an-email,5` } });
  for (let tries = 0; (await session.api<{ status: string }>(admin, `/bulk/${operation.id}`)).status !== 'done'; tries++) {
    if (tries > 100) throw new Error('the bulk action did not finish');
    await admin.waitForTimeout(100);
  }
  bulkOperation = operation.id;
}

// The two passes run side by side, each in its own browser context, once the portal's first
// sync (and the usage run after it) is over: until then the embedded database is busy with it.
describe.concurrent('accessibility (axe-core, WCAG 2 A and AA) and the lists\' layout', () => {
  beforeAll(async () => {
    const { context, page } = await newPage(session.browser, SIZES[0], 'light');
    try {
      await page.goto(`${session.portal.url}/login`);
      await submitLogin(page, session.portal.admin.email, session.portal.admin.password);
      await page.waitForURL('**/home');
      await waitForUsageRun(page, session.portal);
      await addRows(session.browser, session.portal, page);
    } finally {
      await context.close();
    }
  }, 180_000);

  for (const size of SIZES) {
    it(`every screen passes in the ${size.theme} theme at ${size.width} × ${size.height}, and every list fits (desktop) or folds (phone)`, async () => {
      const { portal, browser } = session;
      const failures: string[] = [];
      const { context, page } = await newPage(browser, size, size.theme);
      try {
        for (const screen of SIGNED_OUT) failures.push(...(await check(page, portal, size, screen)));
        await page.goto(`${portal.url}/login`);
        // Asked for less motion, the portal moves nothing: the login button's colour change on
        // hover (a PrimeReact transition otherwise) is immediate.
        const durations = await page.getByRole('button', { name: 'Login' }).evaluate((button) => getComputedStyle(button).transitionDuration);
        expect(durations.split(', ').every((duration) => duration === '0s'), durations).toBe(true);
        await submitLogin(page, portal.admin.email, portal.admin.password);
        await page.waitForURL('**/home');
        await waitForUsageRun(page, portal);
        // A customer who holds lines, a terminal, and a statement when the billing run made one.
        const terminals = await session.api<TerminalPageWire>(page, '/terminals?assigned=true&limit=1');
        const terminal = terminals.results[0]!;
        const customers = await session.api<CustomerListData>(page, '/customers?page=1&limit=1');
        const statements = await session.api<StatementListWire>(page, '/billing/statements?page=1&limit=1').catch(() => null);
        // A payment on a closed statement, when the billing run closed one: the ledger's first row.
        const closed = (await session.api<StatementListWire>(page, '/billing/statements?status=closed&page=1&limit=1').catch(() => null))?.items[0];
        const paid =
          closed !== undefined &&
          (await session
            .api(page, '/billing/ledger', { method: 'POST', body: { customerId: closed.customerId, kind: 'payment', currency: closed.currency, amount: '1', occurredOn: new Date().toISOString().slice(0, 10) } })
            .then(() => true, () => false));
        const ids = {
          paid,
          customer: terminal.assigned_to ?? customers.customers[0]!.uuid,
          terminal: terminal.user_terminal_id,
          statement: statements?.items[0]?.id ?? null,
          bulkOperation,
        };
        let previous: Screen | undefined;
        for (const screen of adminScreens(ids)) {
          failures.push(...(await check(page, portal, size, screen, previous)));
          previous = screen;
        }
      } finally {
        await context.close();
      }
      const customer = demoCustomer(portal);
      const mine = await newPage(browser, size, size.theme);
      try {
        await mine.page.goto(`${portal.url}/login`);
        await submitLogin(mine.page, customer.email, customer.password);
        await mine.page.waitForURL(/\/my$/);
        for (const screen of CUSTOMER_SCREENS) failures.push(...(await check(mine.page, portal, size, screen)));
      } finally {
        await mine.context.close();
      }
      expect(failures, failures.join('\n\n')).toEqual([]);
    }, 600_000);
  }
});
