// Provider Billing in Chromium against the real server and the built-in provider simulator: after
// the first sync has filled the inventory, an admin goes Subscriptions → Provider Billing, reads the
// balance and the invoices, opens the newest invoice, and follows one of its service lines to the
// terminals page searched for that line.
import { beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER_BILLING_TEXTS as T, type ProviderBillingWire, type ProviderInvoiceWire } from '../../src/domain/provider-billing';
import { TERMINAL_MESSAGES } from '../../src/domain/terminals';
import { money } from '../../src/ui/subscriptions/format';
import { signInAsAdminAt, waitForUsageRun, type BrowserSession } from './harness';

export function providerBillingJourney(session: BrowserSession): void {
  const api = session.api;
  describe('provider billing in the browser', () => {
    beforeAll(() => session.freshContext());
    it('an admin reads the balance and invoices, opens the newest invoice and follows a line to its terminal', async () => {
      const page = await session.context.newPage();
      await signInAsAdminAt(page, session.portal, '/subscription');
      // Lines link to terminals only once the inventory holds them: wait for the first sync.
      await waitForUsageRun(page, session.portal);
      // What the page should show, as the server reads it from the simulator.
      const billing = await api<ProviderBillingWire>(page, '/billing/provider');
      expect(billing.balances.length).toBeGreaterThan(0);
      expect(billing.invoices.length).toBeGreaterThan(1);
      const newest = billing.invoices[0]!;
      const detail = await api<ProviderInvoiceWire>(page, `/billing/provider/invoices/${newest.invoiceId}`);
      // A line on the dialog's first page (ten rows) whose service line the inventory has.
      const held = detail.lines.slice(0, 10).flatMap((line) => line.serviceLines).find((sl) => sl.userTerminalId !== null);
      expect(held).toBeTruthy();
      // The simulator bills one line the inventory does not have on every invoice.
      expect(detail.unmatched.lines).toBeGreaterThan(0);

      await page.getByRole('link', { name: T.link }).click();
      await page.waitForURL('**/subscription/provider-billing');
      await page.getByRole('heading', { level: 1, name: T.title }).waitFor();
      for (const balance of billing.balances) {
        const card = page.getByRole('region', { name: `${T.amountDue} (${balance.currency})` });
        await expect(card.textContent()).resolves.toContain(money(balance.dueAmount, balance.currency));
      }
      const table = page.getByRole('table', { name: T.invoicesTable });
      for (const invoice of billing.invoices.slice(0, 12)) await table.getByText(invoice.invoiceId, { exact: true }).waitFor();

      await table.getByRole('button', { name: `${T.view} ${newest.invoiceId}` }).click();
      const dialog = page.getByRole('dialog', { name: T.invoiceHeader(newest.invoiceId) });
      await dialog.getByRole('table', { name: T.linesTable }).waitFor();
      await dialog.getByText(T.unmatched(detail.unmatched.lines, money(detail.unmatched.amount, detail.currency))).waitFor();

      const link = dialog.getByRole('link', { name: held!.serviceLineNumber, exact: true });
      await expect(link.getAttribute('href')).resolves.toBe(`/terminals?search=${held!.serviceLineNumber}`);
      await link.click();
      await page.waitForURL(`**/terminals?search=${held!.serviceLineNumber}`);
      await page.getByRole('heading', { level: 1, name: TERMINAL_MESSAGES.title }).waitFor();
      await expect(page.getByPlaceholder(TERMINAL_MESSAGES.searchPlaceholder).inputValue()).resolves.toBe(held!.serviceLineNumber);
      await page.getByText(/^Showing 1 of 1 terminals from local database/).waitFor();
      await page.getByText(held!.userTerminalId!, { exact: true }).waitFor();
      // The invoice dialog left with its page, and took its scroll lock with it.
      await expect(page.getByRole('dialog').count()).resolves.toBe(0);
      await expect(page.evaluate(() => document.body.classList.contains('p-overflow-hidden'))).resolves.toBe(false);
    });
  });
}
