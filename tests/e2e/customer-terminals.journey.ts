// A customer's terminals in Chromium against the real server, its sync worker and the built-in
// provider simulator: the first start syncs the demo inventory and a year of usage and hands two
// thirds of the lines to the demo customers; then an admin hands terminals to a new customer by
// service line, reads last month's usage and takes one back.
import { beforeAll, describe, expect, it } from 'vitest';
import { ASSIGN_MESSAGES, ASSIGN_REASONS, CUSTOMER_USAGE_MESSAGES } from '../../src/domain/customer-terminals';
import { lastTwelveMonths } from '../../src/domain/terminals';
import { signInAsAdminAt, waitForUsageRun, type BrowserSession } from './harness';

interface Row {
  user_terminal_id: string;
  service_line_number: string;
}

export function customerTerminalsJourney(session: BrowserSession): void {
  const api = session.api;
  describe("a customer's terminals in the browser", () => {
    beforeAll(() => session.freshContext());
    it('an admin assigns three lines of which one is taken, reads last month, and unassigns one line', async () => {
      const page = await session.context.newPage();
      await signInAsAdminAt(page, session.portal, '/customers');
      // The start-up sync, its usage run and the demo's hand-out of terminals have finished.
      await waitForUsageRun(page, session.portal, async () => (await api<{ totalCount: number }>(page, '/terminals?assigned=true&limit=1')).totalCount > 0);

      // A customer just signed up, and a line the demo already gave another customer.
      const { customer } = await api<{ customer: { uuid: string; name: string; company: string } }>(page, '/customers', {
        method: 'POST',
        body: { company: 'Lagoon Survey Partners', name: 'Mara Ilunga', email: 'mara.ilunga@lagoonsurvey.example', expirationDays: 365 },
      });
      const held = await api<{ results: (Row & { assigned_to_customer: string })[] }>(page, '/terminals?assigned=true&limit=1');
      const taken = held.results[0]!;
      const free = await api<{ results: Row[] }>(page, '/terminals/available?active=true&limit=2');
      const [first, second] = free.results as [Row, Row];
      const other = { name: taken.assigned_to_customer };

      // From the customers list, as an admin would: the row menu's Manage Terminals.
      await page.getByPlaceholder(/search by name, email or company/i).fill(customer.company);
      // Only once the search has run: the list it re-renders would close a row menu opened before
      // (CI once saw Manage Terminals clicked in a menu that was going away, and no navigation).
      await page.getByText('Showing 1 of 1 customers').waitFor();
      await page.getByRole('button', { name: new RegExp(`Actions for ${customer.name}`) }).click();
      await page.getByRole('menuitem', { name: 'Manage Terminals' }).click();
      await page.waitForURL(`**/customer/terminals/${customer.uuid}`);
      await page.getByRole('heading', { name: CUSTOMER_USAGE_MESSAGES.title }).waitFor();
      await page.getByText(CUSTOMER_USAGE_MESSAGES.noTerminals).waitFor();

      await page.getByRole('button', { name: ASSIGN_MESSAGES.button }).click();
      const dialog = page.getByRole('dialog', { name: ASSIGN_MESSAGES.title });
      await dialog.getByText(customer.uuid).waitFor();
      const input = dialog.getByLabel(ASSIGN_MESSAGES.inputLabel);
      await input.fill(`${first.service_line_number}, ${taken.service_line_number}\n${second.service_line_number}`);
      await dialog.getByRole('button', { name: ASSIGN_MESSAGES.button }).click();

      await dialog.getByText(ASSIGN_MESSAGES.successTitle(2)).waitFor();
      await dialog.getByText(ASSIGN_MESSAGES.failureTitle(1)).waitFor();
      await dialog.getByText(ASSIGN_REASONS.assignedToOther(other.name)).waitFor();
      // At least one line succeeded: the text clears (spec 4), and the assigned list follows.
      await expect(input.inputValue()).resolves.toBe('');
      await dialog.getByText(ASSIGN_MESSAGES.assignedCount(2)).waitFor();
      await dialog.getByRole('button', { name: ASSIGN_MESSAGES.close }).click();
      await dialog.waitFor({ state: 'detached' });

      // The usage view refreshed behind the dialog: both lines are listed.
      const table = page.getByRole('table');
      await table.getByText(first.service_line_number).waitFor();
      await table.getByText(second.service_line_number).waitFor();

      // Last month: the month selector's second option.
      const lastMonth = lastTwelveMonths(new Date())[1]!;
      await page.getByRole('combobox', { name: /month/i }).click();
      await page.getByRole('option', { name: lastMonth.label }).click();
      await page.waitForURL(new RegExp(`month=${lastMonth.value}`));
      await table.getByText(first.service_line_number).waitFor();
      const usage = await api<{ serviceLineNumber: string; currentBillingCycle: { totalUsed: number } | null }[]>(
        page,
        `/terminals/customers/${customer.uuid}/usage?billing_cycle_start=${lastMonth.year}-${String(lastMonth.month).padStart(2, '0')}-01&billing_cycle_end=${new Date(Date.UTC(lastMonth.year, lastMonth.month, 0)).toISOString().slice(0, 10)}`,
      );
      expect(usage.map((r) => r.serviceLineNumber).sort()).toEqual([first.service_line_number, second.service_line_number].sort());
      await page.getByText('Total Data Used').waitFor();
      // The line's row reads its priority use of the month against its allowance.
      await table.getByRole('row', { name: new RegExp(first.service_line_number) }).getByText(/\d+\.\d (GB|TB) \/ \d+\.\d (GB|TB)/).waitFor();

      // The table's search runs on the server: typing the second line leaves only its row.
      const search = page.getByRole('searchbox', { name: 'Search terminals' });
      const searched = page.waitForResponse((r) => r.url().includes('/usage/page?') && r.url().includes(`search=${second.service_line_number}`));
      await search.fill(second.service_line_number);
      await searched;
      await table.getByText(first.service_line_number).waitFor({ state: 'detached' });
      await table.getByText(second.service_line_number).waitFor();
      await search.fill('');
      await table.getByText(first.service_line_number).waitFor();

      // Take one line back.
      await page.getByRole('button', { name: `Unassign ${first.service_line_number}` }).click();
      const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog', { name: /unassign/i }));
      await confirm.getByText(CUSTOMER_USAGE_MESSAGES.unassignConfirm(first.service_line_number, customer.name)).waitFor();
      await confirm.getByRole('button', { name: CUSTOMER_USAGE_MESSAGES.unassign }).click();
      await page.getByText(CUSTOMER_USAGE_MESSAGES.unassigned(first.service_line_number)).waitFor();
      await table.getByText(first.service_line_number).waitFor({ state: 'detached' });
      await table.getByText(second.service_line_number).waitFor();

      const assigned = await api<{ serviceLine: string }[]>(page, `/terminals/customers/${customer.uuid}/terminals`);
      expect(assigned.map((t) => t.serviceLine)).toEqual([second.service_line_number]);
    });
  });
}
