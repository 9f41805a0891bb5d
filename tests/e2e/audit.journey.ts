// The audit log in Chromium against the real server: an administrator blocks a demo customer, opens
// Audit log from the sidebar, filters by the action, opens the entry to its before and after with
// the changed fields marked, and exports the filter as a CSV that holds that entry.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_CSV_COLUMNS } from '../../src/domain/audit';
import { parseCsv } from '../fixtures/csv';
import { signInAsAdminAt, type BrowserSession } from './harness';

export function auditJourney(session: BrowserSession): void {
  describe('audit log', () => {
    beforeAll(() => session.freshContext());
    it('an administrator blocks a customer, finds it in the audit log by its action, sees before and after, and exports it', async () => {
      const page = await session.context.newPage();
      await signInAsAdminAt(page, session.portal, '/customers');
      await page.getByText(/^Showing \d+ of \d+ customers$/).waitFor();

      // Block the first customer listed, with a reason.
      const actions = page.getByRole('button', { name: /^Actions for / }).first();
      const name = ((await actions.getAttribute('aria-label')) ?? '').replace(/^Actions for /, '');
      expect(name).not.toBe('');
      await actions.click();
      await page.getByRole('menuitem', { name: 'Block Customer' }).click();
      const block = page.getByRole('dialog', { name: 'Block Customer' });
      const reason = `E2E audit ${Date.now()}`;
      await block.getByLabel('Reason').fill(reason);
      await block.getByRole('button', { name: 'Continue' }).click();
      await block.getByRole('button', { name: 'Block Customer' }).click();
      await page.getByText(`${name} has been blocked`).waitFor();

      // Audit log, from the sidebar.
      await page.getByRole('link', { name: 'Audit log' }).click();
      await page.waitForURL('**/audit');
      await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
      const table = page.getByRole('table', { name: 'Audit log' });
      await table.getByText('Customer blocked').first().waitFor();

      // Only that action.
      await page.getByText('Every action').click();
      await page.getByPlaceholder('Find an action').fill('Customer blocked');
      await page.getByRole('option', { name: 'Customer blocked' }).click();
      await page.keyboard.press('Escape');
      await page.waitForURL('**/audit?action=customer.blocked');
      await page.getByText(/^1 entry$/).waitFor();
      const row = table.locator('tbody tr').filter({ hasText: 'Customer blocked' });
      await row.getByText('customer.blocked').waitFor();
      await row.getByText(session.portal.admin.email).waitFor();

      // Before and after, side by side, the changed fields marked.
      await row.getByRole('button', { name: 'Show before and after: Customer blocked' }).click();
      await page.waitForURL(/entry=\d+/);
      const changes = page.getByRole('table', { name: /^Before and after of entry \d+$/ });
      const blocked = changes.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^blockedEnabled/ }) });
      await expect(blocked.textContent()).resolves.toMatch(/blockedEnabled \(changed\)\s*false\s*true/);
      const because = changes.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^blockedReason/ }) });
      await because.getByText(reason).waitFor();

      // Export the filter.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
      const [header, ...records] = parseCsv(readFileSync((await download.path())!, 'utf8'));
      expect(header).toEqual([...AUDIT_CSV_COLUMNS]);
      expect(records).toHaveLength(1);
      const record = Object.fromEntries(AUDIT_CSV_COLUMNS.map((column, i) => [column, records[0]![i]]));
      expect(record).toMatchObject({ Action: 'customer.blocked', 'Action label': 'Customer blocked', 'Actor email': session.portal.admin.email, 'Target type': 'customer' });
      expect(JSON.parse(record.After!)).toMatchObject({ blockedEnabled: true, blockedReason: reason });
    });
  });
}
