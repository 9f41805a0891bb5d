// A list's CSV export in Chromium against the real server: an administrator filters the customers
// list by a search and a status, presses Export CSV, and the file the browser saves holds exactly
// the customers the page shows, in its order, under the list's columns.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMERS_EXPORT } from '../../src/domain/list-exports';
import { parseCsv } from '../fixtures/csv';
import { signInAsAdminAt, type BrowserSession } from './harness';

export function exportsJourney(session: BrowserSession): void {
  describe('list exports', () => {
    beforeAll(() => session.freshContext());
    it('an administrator filters the customers list, exports it, and the file holds the rows the page shows', async () => {
      const page = await session.context.newPage();
      await signInAsAdminAt(page, session.portal, '/customers');
      await page.getByText(/^Showing \d+ of \d+ customers$/).waitFor();

      // Three customers of the journey's own; one of them blocked, so the status filter leaves two.
      const tag = `Exportee${Date.now()}`;
      const created: Array<{ uuid: string; email: string }> = [];
      for (const n of [1, 2, 3]) {
        const { customer } = await session.api<{ customer: { uuid: string; email: string } }>(page, '/customers', {
          method: 'POST',
          body: { name: `${tag} ${n}`, email: `${tag.toLowerCase()}.${n}@export.test`, company: `${tag}, Co ${n}` },
        });
        created.push(customer);
      }
      await session.api(page, `/customers/${created[1]!.uuid}`, { method: 'PUT', body: { blocked_enabled: true, blocked_reason: 'E2E export' } });

      await page.getByRole('searchbox', { name: 'Search customers' }).fill(tag);
      // The search goes out after a pause in typing; the status is chosen once its three rows show,
      // as a person would (a choice made inside the pause once left the URL without the status on
      // a busy machine).
      await page.waitForURL(/search=Exportee/);
      await page.getByText('Showing 3 of 3 customers').waitFor();
      await page.locator('.list-status').click();
      await page.getByRole('listbox').getByRole('option', { name: 'Pending', exact: true }).click();
      await page.waitForURL(/status=pending/);
      await page.getByText('Showing 2 of 2 customers').waitFor();
      const table = page.getByRole('table', { name: 'Customers' });
      const shown = await table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.textContent ?? ''));
      expect(shown).toHaveLength(2);

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
      const [header, ...records] = parseCsv(readFileSync((await download.path())!, 'utf8'));
      expect(header).toEqual(CUSTOMERS_EXPORT.columns.map((column) => column.header));
      const cell = (record: string[], name: string) => record[header!.indexOf(name)]!;
      // The page's rows, in its order: newest first, the blocked one left out.
      expect(records.map((record) => cell(record, 'Email'))).toEqual([created[2]!.email, created[0]!.email]);
      records.forEach((record, i) => {
        expect(shown[i]).toContain(cell(record, 'Email'));
        expect(shown[i]).toContain(cell(record, 'Name'));
        expect(shown[i]).toContain(cell(record, 'Company'));
        expect(shown[i]).toContain(cell(record, 'Customer ID'));
        expect(cell(record, 'Status')).toBe('Pending');
      });
    });
  });
}
