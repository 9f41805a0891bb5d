// Responsive list tables (they fold on a phone), measured in the page as it is now. On a desktop
// each table fits its card, its last column (the actions, where a table has them) inside the card
// and the screen without scrolling; on a phone a table either fits or scrolls in a named,
// focusable region, and its less important columns fold into the row's "More about …" expansion.
import type { Page } from 'playwright-core';
import { animationsSettled } from './harness';

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

/**
 * The list page `path` as loaded on `page` (its rows in, nothing animating): what does not fit on
 * the desktop or the phone `page` is sized as, and on the phone whether one row's folded fields
 * open and close. The row is closed again afterwards, so the screen is as it was.
 */
export async function listLayoutProblems(page: Page, path: string, size: 'desktop' | 'phone'): Promise<string[]> {
  await page.locator('main .p-datatable table').first().waitFor();
  // Loading overlays and skeletons go first: the rows are what is measured.
  await page.locator('main .p-datatable-loading-overlay, main .p-skeleton').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
  await animationsSettled(page);
  const m = await measure(page);
  if (process.env.RESPONSIVE_DIAG) console.log(path, JSON.stringify(m));
  if (m.tables.length === 0) return [`${path}: no table`];
  if (size === 'desktop') return desktopProblems(path, m);
  return [...phoneProblems(path, m), ...(await foldProblems(page, path))];
}
