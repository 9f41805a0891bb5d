// Collecting the money in Chromium against the real server and its simulator (the payments
// journey): once the billing job has closed the ended cycle, an admin imports the bank's camt.053
// file that pays three of five customers' statements: one line names its statement, one is matched
// by amount and payer, and the third, from a payer the portal cannot tell, waits and is matched by
// hand. The ageing then shows the two unpaid statements and none of the paid. The simulator's clock
// moves past the grace period, the dunning runs, and the overdue customer is blocked for
// non-payment; a payment recorded by hand unblocks them.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { cycleOf, shiftCycle, type StatementListWire, type StatementSummaryWire, type StatementWire } from '../../src/domain/billing';
import type { CustomerAccountWire } from '../../src/domain/ledger';
import { formatMinor, formatMoney } from '../../src/domain/money';
import { camt053 } from '../fixtures/camt053';
import { signInAsAdminAt, useBrowserSession, until as waitUntil } from './harness';

const session = useBrowserSession({ SIM_CONTROLS: 'on' });

const until = <T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 180_000) => waitUntil(what, probe, timeoutMs);

const statement = (page: Page, s: StatementSummaryWire) => session.api<StatementWire>(page, `/billing/statements/${s.id}`);
const account = (page: Page, s: StatementSummaryWire) => session.api<CustomerAccountWire>(page, `/customers/${s.customerId}/account`);

/** Picks a customer in a dialog's drop-down by searching their name. */
async function pickCustomer(page: Page, dialog: ReturnType<Page['getByRole']>, s: StatementSummaryWire) {
  await dialog.getByRole('combobox', { name: 'Customer' }).click();
  await page.getByPlaceholder('Search customers').fill(s.customerName);
  await page.getByRole('option', { name: `${s.customerName} \u00b7 ${s.customerEmail}` }).click();
}

/** The ageing's rows for one customer, searched on the page by their email (no other customer's holds it). */
async function ageingRowOf(page: Page, s: StatementSummaryWire) {
  await page.getByLabel('Search customers').fill(s.customerEmail);
  return page.getByRole('table', { name: 'Ageing per customer' }).getByRole('row').filter({ hasText: s.customerName });
}

/** Whether the ageing, searched for one customer, says nobody of that search owes anything. */
async function owesNothing(page: Page, s: StatementSummaryWire) {
  await page.getByLabel('Search customers').fill(s.customerEmail);
  return page.getByText('No customer owes anything for this choice').isVisible();
}

describe('payments in the browser', () => {
  it('a bank file pays three of five statements (one matched by hand), the ageing shows the other two, dunning blocks the overdue customer and a payment unblocks them', async () => {
    const { portal } = session;
    let page = await session.context.newPage();
    await signInAsAdminAt(page, portal, '/billing/payments');
    const previous = shiftCycle(cycleOf(new Date()), -1);

    // The billing job closes the ended cycle once the first usage sync is in.
    const closed = await until('the ended cycle to be closed', async () => {
      const list = await session.api<StatementListWire>(page, `/billing/statements?cycle=${previous}&status=closed&limit=100`);
      return list.cycles.some((c) => c.cycle === previous && c.status === 'closed') && list.items.length >= 5 && list;
    });
    // Five customers' USD statements, each customer's only one, with distinct totals.
    const seen = new Set<number>();
    const five = closed.items.filter((s) => s.currency === 'USD' && s.totalMinor > 0 && !seen.has(s.totalMinor) && seen.add(s.totalMinor)).slice(0, 5);
    expect(five).toHaveLength(5);
    const [byNumber, byPayer, byHand, unpaid1, unpaid2] = five as [StatementSummaryWire, StatementSummaryWire, StatementSummaryWire, StatementSummaryWire, StatementSummaryWire];

    // The bank's file: three payments in, and the bank's fee out.
    const file = camt053([
      { amount: formatMinor(byNumber.totalMinor, 'USD'), bookedOn: new Date().toISOString().slice(0, 10), payer: 'Treasury Department', remittance: `Payment of ${byNumber.number}`, reference: 'E2E-BANK-1' },
      { amount: formatMinor(byPayer.totalMinor, 'USD'), bookedOn: new Date().toISOString().slice(0, 10), payer: byPayer.customerName, remittance: 'Monthly service', reference: 'E2E-BANK-2' },
      { amount: formatMinor(byHand.totalMinor, 'USD'), bookedOn: new Date().toISOString().slice(0, 10), payer: 'Unrecognised Payer Ltd', remittance: 'services', reference: 'E2E-BANK-3' },
      { amount: '12.50', bookedOn: new Date().toISOString().slice(0, 10), payer: 'Bank', remittance: 'account fee', reference: 'E2E-BANK-4', direction: 'debit' },
    ]);
    const importing = page.getByRole('region', { name: 'Import bank statement' });
    await importing.getByLabel('Bank statement file').setInputFiles({ name: 'bank-statement.xml', mimeType: 'text/xml', buffer: Buffer.from(file) });
    await importing.getByRole('button', { name: 'Import' }).click();
    await importing.getByRole('status').filter({ hasText: '2 matched, 1 to match by hand, 0 already imported' }).waitFor();

    // The one line the portal could not tell is matched by hand, to the statement it pays.
    const waiting = page.getByRole('table', { name: 'Bank lines waiting to be matched' });
    await waiting.getByRole('row').filter({ hasText: 'Unrecognised Payer Ltd' }).getByRole('button', { name: /^Match / }).click();
    const match = page.getByRole('dialog', { name: 'Match payment' });
    await pickCustomer(page, match, byHand);
    await match.getByRole('checkbox', { name: new RegExp(byHand.number!) }).check();
    await match.getByRole('button', { name: 'Match payment' }).click();
    await page.getByText('Payment matched').first().waitFor();
    await waiting.getByRole('row').filter({ hasText: 'Unrecognised Payer Ltd' }).waitFor({ state: 'detached' });

    for (const paid of [byNumber, byPayer, byHand]) expect((await statement(page, paid)).paymentStatus, paid.number ?? paid.id).toBe('paid');
    for (const open of [unpaid1, unpaid2]) expect((await statement(page, open)).paymentStatus, open.number ?? open.id).toBe('unpaid');

    // The ageing shows the two unpaid statements, and nothing of the paid.
    await page.goto(`${portal.url}/billing/ageing`);
    for (const open of [unpaid1, unpaid2]) await expect.poll(async () => (await ageingRowOf(page, open)).filter({ hasText: formatMoney(open.totalMinor, 'USD') }).count()).toBe(1);
    // Only the search's answer says so: an empty filter of the rows shown would pass before it came.
    for (const paid of [byNumber, byPayer, byHand]) await expect.poll(() => owesNothing(page, paid)).toBe(true);

    // Past the grace period on the simulator's clock (due 30 days after closing, blocked 30 after
    // that): the dunning blocks the overdue customer.
    const moved = await fetch(`${portal.url}/simulator/api/controls/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ days: 65 }) });
    expect(moved.status).toBe(200);
    await session.freshContext();
    page = await session.context.newPage();
    await signInAsAdminAt(page, portal, '/billing/ageing');
    await page.getByRole('button', { name: 'Run dunning now' }).click();
    await page.getByText(/^Dunning ran: /).first().waitFor();
    await expect.poll(async () => (await ageingRowOf(page, unpaid1)).filter({ hasText: 'Blocked for non-payment' }).count()).toBe(1);
    expect((await account(page, unpaid1)).terms.blockedForNonPayment).toBe(true);

    // A payment of what is overdue unblocks them at once.
    await page.goto(`${portal.url}/billing/payments`);
    await page.getByRole('button', { name: 'Record payment' }).click();
    const record = page.getByRole('dialog', { name: 'Record payment' });
    await pickCustomer(page, record, unpaid1);
    await record.getByLabel('Amount').fill(formatMinor(unpaid1.totalMinor, 'USD'));
    await record.getByRole('button', { name: 'Record' }).click();
    await page.getByText('Payment recorded').first().waitFor();
    const after = await account(page, unpaid1);
    expect(after.terms.blockedForNonPayment).toBe(false);
    expect(after.dunning.map((d) => d.step)).toEqual(['unblock', 'block']);
    expect((await statement(page, unpaid1)).paymentStatus).toBe('paid');
  }, 240_000);
});
