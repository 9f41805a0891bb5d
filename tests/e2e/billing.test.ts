// Billing in Chromium against the real server and its simulator, end to end: on a fresh start the
// billing job closes the cycle that just ended and imports the provider's invoice for it; an admin
// opens that cycle's statements, exports the all-customers CSV and finds its totals equal to the
// statements', opens one statement and sees it print without the portal around it; on the
// reconciliation board the margin is billed minus provider cost and each leak the simulator and the
// demo seed is listed with its amount; the admin disputes the invoice line for a line the inventory
// lacks; and the demo customer finds their statement in their own area.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { cycleOf, LEAK_LABELS, shiftCycle, STATEMENT_CSV_COLUMNS, type LeakKind, type ReconciliationWire, type StatementListWire, type StatementSummaryWire } from '../../src/domain/billing';
import { formatMoney } from '../../src/domain/money';
import { statementsOfCsv } from '../fixtures/csv';
import { demoCustomer, signInAsAdminAt, submitLogin, useBrowserSession, until as waitUntil } from './harness';

const session = useBrowserSession();

const until = <T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 180_000) => waitUntil(what, probe, timeoutMs);

/** Every statement of the cycle, through the API's pages. */
async function allStatements(page: Page, cycle: string): Promise<{ items: StatementSummaryWire[]; totals: StatementListWire['totals'] }> {
  const items: StatementSummaryWire[] = [];
  let totals: StatementListWire['totals'];
  for (let p = 1; ; p++) {
    const list = await session.api<StatementListWire>(page, `/billing/statements?cycle=${cycle}&page=${p}&limit=100`);
    items.push(...list.items);
    totals = list.totals;
    if (items.length >= list.pagination.total || list.items.length === 0) break;
  }
  return { items, totals };
}

describe('billing in the browser', () => {
  it("an admin exports the closed cycle's statements as a CSV that adds up to them, prints one, finds every seeded leak on the board and disputes one; the customer sees their statement", async () => {
    const { portal } = session;
    const page = await session.context.newPage();
    await signInAsAdminAt(page, portal, '/home');
    const previous = shiftCycle(cycleOf(new Date()), -1);

    // The billing job closes the ended cycle once the first usage sync is in, and imports its invoice.
    const closed = await until('the ended cycle to be closed', async () => {
      const list = await session.api<StatementListWire>(page, `/billing/statements?cycle=${previous}&limit=1`);
      return list.cycles.some((c) => c.cycle === previous && c.status === 'closed') && list.pagination.total > 0 && list;
    });
    await until('the invoice of the ended cycle', async () => (await session.api<ReconciliationWire>(page, `/billing/reconciliation?cycle=${previous}`)).invoice);
    const { items: statements, totals } = await allStatements(page, previous);
    expect(statements.length).toBe(closed.pagination.total);
    expect(statements.every((s) => s.status === 'closed' && s.number?.startsWith(`ST-${previous}-`))).toBe(true);
    const usd = totals.find((t) => t.currency === 'USD')!;
    expect(usd.totalMinor).toBe(statements.filter((s) => s.currency === 'USD').reduce((sum, s) => sum + s.totalMinor, 0));

    // The Statements page of the cycle, and its CSV.
    await page.goto(`${portal.url}/billing/statements?cycle=${previous}`);
    await page.getByText(formatMoney(usd.totalMinor, 'USD')).first().waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`statements-${previous}.csv`);
    const { header, statements: fromCsv } = statementsOfCsv(readFileSync((await download.path())!, 'utf8'));
    expect(header).toEqual([...STATEMENT_CSV_COLUMNS]);
    expect(fromCsv.size).toBe(statements.length);
    for (const s of statements) expect(fromCsv.get(s.number!)).toEqual({ currency: s.currency, lines: s.totalMinor, total: s.totalMinor });
    expect([...fromCsv.values()].reduce((sum, s) => sum + s.total, 0)).toBe(totals.reduce((sum, t) => sum + t.totalMinor, 0));

    // One statement, and how it prints: the statement alone, without the portal's frame.
    const one = statements[0]!;
    await page.getByRole('link', { name: `Open statement ${one.number} of ${one.customerName}` }).click();
    await page.waitForURL(`**/billing/statements/${one.id}`);
    await page.getByText(formatMoney(one.totalMinor, one.currency)).first().waitFor();
    const print = page.getByRole('button', { name: 'Print or save as PDF' });
    await print.waitFor({ state: 'visible' });
    await page.emulateMedia({ media: 'print' });
    await print.waitFor({ state: 'hidden', timeout: 5000 });
    await page.locator('.app-sidebar').first().waitFor({ state: 'hidden', timeout: 5000 });
    await expect(page.getByText(one.number!).first().isVisible()).resolves.toBe(true);
    await page.emulateMedia({ media: 'screen' });
    await print.waitFor({ state: 'visible' });

    // The board: margin is billed minus cost, and each seeded leak is listed with its amount.
    const board = await session.api<ReconciliationWire>(page, `/billing/reconciliation?cycle=${previous}`);
    expect(board.costEstimated).toBe(false);
    expect(board.totals.marginMinor).toBe(board.totals.billedMinor - board.totals.providerCostMinor);
    expect(board.totals.billedMinor).toBe(statements.filter((s) => s.currency === board.currency).reduce((sum, s) => sum + s.totalMinor, 0));
    const seeded: LeakKind[] = ['unassigned', 'below_cost', 'unbilled_top_up', 'invoice_unmatched', 'missing_from_invoice'];
    for (const kind of seeded) expect(board.leaks.some((l) => l.kind === kind && l.amountMinor > 0), kind).toBe(true);
    await page.goto(`${portal.url}/billing/reconciliation?cycle=${previous}`);
    await page.getByText(formatMoney(board.totals.marginMinor, board.currency)).first().waitFor();
    for (const kind of seeded) {
      const largest = board.leaks.find((l) => l.kind === kind)!;
      const table = page.getByRole('table', { name: LEAK_LABELS[kind] });
      await table.getByText(formatMoney(largest.amountMinor, board.currency)).first().waitFor();
    }

    // One click: the invoice line for a line the inventory lacks is disputed, and shows as handled.
    const orphan = board.leaks.find((l) => l.kind === 'invoice_unmatched')!;
    const orphanTable = page.getByRole('table', { name: LEAK_LABELS.invoice_unmatched });
    await orphanTable.getByRole('button', { name: /^Mark as disputed/ }).first().click();
    await until('the dispute to be recorded', async () => {
      const after = await session.api<ReconciliationWire>(page, `/billing/reconciliation?cycle=${previous}`);
      return after.leaks.find((l) => l.kind === 'invoice_unmatched' && l.key === orphan.key)?.resolution?.action === 'dispute';
    }, 30_000);
    await orphanTable.getByText(/disputed/i).first().waitFor();

    // The demo customer reads their own statement.
    const customer = demoCustomer(portal);
    const theirs = statements.find((s) => s.customerEmail === customer.email);
    expect(theirs, 'the demo customer holds lines, so the closed cycle has a statement of theirs').toBeDefined();
    const mine = await session.browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const own = await mine.newPage();
      await own.goto(`${portal.url}/login`);
      await submitLogin(own, customer.email, customer.password);
      await own.waitForURL(/\/my$/);
      await own.goto(`${portal.url}/my/statements`);
      await own.getByText(theirs!.number!).first().click();
      await own.waitForURL(`**/my/statements/${theirs!.id}`);
      await own.getByText(formatMoney(theirs!.totalMinor, theirs!.currency)).first().waitFor();
      await expect(own.getByRole('button', { name: 'Add credit or charge' }).count()).resolves.toBe(0);
    } finally {
      await mine.close();
    }
  });
});
