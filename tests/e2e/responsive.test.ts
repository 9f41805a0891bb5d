// Responsive list tables (they fold on a phone) in Chromium against the real server and its demo data: every
// list page at a desktop 1366 × 850 and a phone 390 × 844. On the desktop each table fits its card,
// its last column (the actions, where a table has them) inside the card and the screen without
// scrolling; on the phone a table either fits or scrolls in a named, focusable region, and its
// less important columns fold into the row's "More about …" expansion.
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { REQUEST_MESSAGES } from '../../src/domain/requests';
import type { TerminalPageWire } from '../../src/domain/terminals';
import { animationsSettled, submitLogin, useBrowserSession, waitForUsageRun, type Portal } from './harness';

const session = useBrowserSession({ WEBHOOK_ALLOW_HTTP_LOCALHOST: 'true' });

const DESKTOP = { width: 1366, height: 850 };
const PHONE = { width: 390, height: 844 };

interface ListPage {
  path: string;
  /** The page has rows in the demo data (or the test's set-up): the phone opens one row's fields. */
  rows: boolean;
}

interface TableMeasure {
  label: string;
  headers: string[];
  rows: number;
  scrollWidth: number;
  clientWidth: number;
  region: boolean;
  wrapper: { left: number; right: number };
  /** The right edge of the last header and of each row's last cell. */
  lastColumnRights: number[];
}

interface PageMeasure {
  viewport: number;
  pageScrollWidth: number;
  tables: TableMeasure[];
}

async function measure(page: Page): Promise<PageMeasure> {
  return page.evaluate(() => {
    const tables = [...document.querySelectorAll<HTMLElement>('main .p-datatable')].map((root) => {
      const wrapper = root.querySelector<HTMLElement>('.p-datatable-wrapper')!;
      const table = wrapper.querySelector('table')!;
      const rows = [...table.querySelectorAll<HTMLTableRowElement>(':scope > tbody > tr')].filter(
        (tr) => !tr.classList.contains('p-datatable-emptymessage') && !tr.classList.contains('p-datatable-row-expansion'),
      );
      const lastHeader = table.querySelector(':scope > thead > tr > th:last-child');
      const box = wrapper.getBoundingClientRect();
      return {
        label: table.getAttribute('aria-label') ?? '',
        headers: [...table.querySelectorAll(':scope > thead > tr > th')].map((th) => (th.textContent ?? '').trim()),
        rows: rows.length,
        scrollWidth: wrapper.scrollWidth,
        clientWidth: wrapper.clientWidth,
        region: wrapper.tabIndex === 0 && wrapper.getAttribute('role') === 'region' && !!wrapper.getAttribute('aria-label'),
        wrapper: { left: box.left, right: box.right },
        lastColumnRights: [lastHeader, ...rows.map((tr) => tr.lastElementChild)].filter((cell): cell is Element => !!cell).map((cell) => cell.getBoundingClientRect().right),
      };
    });
    return { viewport: window.innerWidth, pageScrollWidth: document.documentElement.scrollWidth, tables };
  });
}

async function open(page: Page, portal: Portal, path: string): Promise<void> {
  await page.goto(`${portal.url}${path}`);
  await page.locator('main .p-datatable table').first().waitFor();
  // Loading overlays and skeletons go first: the rows are what is measured.
  await page.locator('main .p-datatable-loading-overlay, main .p-skeleton').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
  await animationsSettled(page);
}

/** Desktop: every table fits its card; its last column is inside the card and the screen. */
function desktopProblems(path: string, m: PageMeasure): string[] {
  const problems: string[] = [];
  if (m.pageScrollWidth > m.viewport + 1) problems.push(`${path}: the page scrolls sideways (${m.pageScrollWidth} > ${m.viewport})`);
  for (const t of m.tables) {
    const where = `${path} "${t.label}"`;
    if (t.scrollWidth > t.clientWidth + 1) problems.push(`${where}: wider than its card (${t.scrollWidth} > ${t.clientWidth})`);
    const outside = t.lastColumnRights.filter((right) => right > t.wrapper.right + 1 || right > m.viewport + 1);
    if (outside.length > 0) problems.push(`${where}: last column "${t.headers.at(-1)}" ends at ${Math.max(...outside)} past the card (${t.wrapper.right}) or screen (${m.viewport})`);
  }
  return problems;
}

/** Phone: the page never scrolls sideways; a table fits, or scrolls in a named focusable region. */
function phoneProblems(path: string, m: PageMeasure): string[] {
  const problems: string[] = [];
  if (m.pageScrollWidth > m.viewport + 1) problems.push(`${path}: the page scrolls sideways (${m.pageScrollWidth} > ${m.viewport})`);
  for (const t of m.tables) {
    if (t.scrollWidth > t.clientWidth + 1 && !t.region) problems.push(`${path} "${t.label}": scrolls sideways (${t.scrollWidth} > ${t.clientWidth}) outside a named focusable region`);
  }
  return problems;
}

/** Phone: the first row's "More about …" toggle opens its folded fields, and closes them again. */
async function foldProblems(page: Page, path: string): Promise<string[]> {
  const toggle = page.locator('main').getByRole('button', { name: /^More about / }).first();
  if ((await toggle.count()) === 0) return [`${path}: no "More about …" toggle on the phone`];
  const name = await toggle.getAttribute('aria-label');
  await toggle.click();
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') return [`${path}: "${name}" did not open`];
  const fields = page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`);
  await fields.waitFor();
  const terms = await fields.locator('dt').allTextContents();
  if (terms.length === 0 || !(await fields.locator('dd').first().isVisible())) return [`${path}: "${name}" shows no folded field`];
  await toggle.click();
  await fields.waitFor({ state: 'detached' });
  return [];
}

async function checkPages(browser: Browser, portal: Portal, signIn: (page: Page) => Promise<void>, pages: ListPage[]): Promise<string[]> {
  const problems: string[] = [];
  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    const context = await browser.newContext({ viewport });
    try {
      const page = await context.newPage();
      await signIn(page);
      for (const list of pages) {
        await open(page, portal, list.path);
        const m = await measure(page);
        if (process.env.RESPONSIVE_DIAG) console.log(size, list.path, JSON.stringify(m));
        if (m.tables.length === 0) problems.push(`${list.path}: no table`);
        if (size === 'desktop') {
          problems.push(...desktopProblems(list.path, m));
        } else {
          problems.push(...phoneProblems(list.path, m));
          if (list.rows) problems.push(...(await foldProblems(page, list.path)));
        }
      }
    } finally {
      await context.close();
    }
  }
  return problems;
}

function demoCustomer(portal: Portal): { email: string; password: string } {
  const output = portal.output();
  const email = [...output.matchAll(/Email:\s+(\S+@\S+)/g)].map((m) => m[1]!).find((address) => address !== portal.admin.email);
  const password = [...output.matchAll(/Password:\s+(\S+)/g)].map((m) => m[1]!).find((p) => p !== portal.admin.password);
  if (!email || !password) throw new Error(`No demo customer login in the start-up output:\n${output}`);
  return { email, password };
}

describe('responsive list tables', () => {
  it('every admin list fits its card at 1366 × 850, and on a 390 × 844 phone fits or scrolls in a region, folding columns behind "More about …"', async () => {
    const { portal, browser } = session;
    const setup = await session.context.newPage();
    await setup.goto(`${portal.url}/login`);
    await submitLogin(setup, portal.admin.email, portal.admin.password);
    await setup.waitForURL('**/home');
    await waitForUsageRun(setup, portal);
    const terminals = await session.api<TerminalPageWire>(setup, '/terminals?assigned=true&limit=1');
    const customer = terminals.results[0]!.assigned_to!;
    await session.api(setup, '/webhooks', { method: 'POST', body: { url: 'http://127.0.0.1:9/hooks', description: 'A receiver with a long description that wraps on a narrow screen' } });

    // A customer's request, so both Requests lists have a row to fold: the demo customer asks for
    // a top-up on their first line.
    const asCustomer = await browser.newContext({ viewport: DESKTOP });
    const own = await asCustomer.newPage();
    const customerLogin = demoCustomer(portal);
    await own.goto(`${portal.url}/login`);
    await submitLogin(own, customerLogin.email, customerLogin.password);
    await own.waitForURL(/\/my$/);
    await own.goto(`${portal.url}/my/requests`);
    await own.getByRole('button', { name: REQUEST_MESSAGES.newRequest }).click();
    const dialog = own.getByRole('dialog', { name: REQUEST_MESSAGES.newRequest });
    await own.getByRole('combobox', { name: 'Service line' }).click();
    await own.getByRole('listbox').getByRole('option').first().click();
    await dialog.getByText('Top-up', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await own.getByText(REQUEST_MESSAGES.created).first().waitFor();
    await asCustomer.close();

    // A finished bulk action, for its results list: one row extended, one skipped.
    const { operation } = await session.api<{ operation: { id: string } }>(setup, '/bulk', { method: 'POST', body: { kind: 'extend', csv: `customer,days\n${customer},30\nnot-an-email,5` } });
    for (let tries = 0; (await session.api<{ status: string }>(setup, `/bulk/${operation.id}`)).status !== 'done'; tries++) {
      if (tries > 100) throw new Error('the bulk action did not finish');
      await setup.waitForTimeout(100);
    }

    const pages: ListPage[] = [
      { path: '/customers', rows: true },
      { path: '/terminals', rows: true },
      { path: '/subscription', rows: true },
      { path: '/subscription/provider-billing', rows: true },
      { path: '/users', rows: true },
      { path: '/alerts', rows: true },
      { path: '/requests', rows: true },
      { path: `/customer/terminals/${customer}`, rows: true },
      { path: '/billing/statements', rows: true },
      { path: '/billing/prices', rows: true },
      { path: '/billing/reconciliation', rows: true },
      { path: '/alerts/webhooks', rows: true },
      { path: `/bulk?operation=${operation.id}`, rows: true },
    ];
    const signIn = async (page: Page) => {
      await page.goto(`${portal.url}/login`);
      await submitLogin(page, portal.admin.email, portal.admin.password);
      await page.waitForURL('**/home');
    };
    const problems = await checkPages(browser, portal, signIn, pages);
    expect(problems, problems.join('\n')).toEqual([]);
  }, 240_000);

  it('the customer area’s lists fit at 1366 × 850 and fold on a 390 × 844 phone', async () => {
    const { portal, browser } = session;
    const customer = demoCustomer(portal);
    const signIn = async (page: Page) => {
      await page.goto(`${portal.url}/login`);
      await submitLogin(page, customer.email, customer.password);
      await page.waitForURL(/\/my$/);
    };
    const pages: ListPage[] = [
      { path: '/my/terminals', rows: true },
      // The request the first test made.
      { path: '/my/requests', rows: true },
      { path: '/my/alerts', rows: true },
      { path: '/my/statements', rows: true },
    ];
    const problems = await checkPages(browser, portal, signIn, pages);
    expect(problems, problems.join('\n')).toEqual([]);
  }, 120_000);
});
