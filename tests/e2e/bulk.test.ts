// A bulk assignment of 500 lines in Chromium against the real server and its job queue: an
// operator uploads a CSV of 500 service lines for two customers (plus a mistyped row and a line
// that does not exist), previews it, runs it, watches the progress and reads a result for every
// row — then the customers' terminals pages hold the lines, and the failed-rows filter shows only
// the rows that could not run.
import { describe, expect, it } from 'vitest';
import { signInAsAdminAt, useBrowserSession, waitForUsageRun } from './harness';

const LINES = 500;

// No demo data: all 600 lines of the simulated fleet are free to assign.
const session = useBrowserSession({ SEED_DEMO: '0', SIM_TERMINALS: '600', SYNC_INTERVAL: 'off' });

interface TerminalPage {
  results: { service_line_number: string | null }[];
  totalCount: number;
}

describe('bulk actions', () => {
  it('an operator assigns 500 lines from an uploaded CSV and reads a result for every row', async () => {
    const page = await session.context.newPage();
    await signInAsAdminAt(page, session.portal, '/bulk');
    // Scheduled syncs are off: one by hand brings the fleet in.
    await session.api(page, '/terminals/sync', { method: 'POST' });
    await waitForUsageRun(page, session.portal);

    const lines = new Set<string>();
    for (let n = 1; lines.size < LINES; n++) {
      const { results } = await session.api<TerminalPage>(page, `/terminals/available?limit=100&page=${n}`);
      if (results.length === 0) throw new Error(`only ${lines.size} free lines`);
      for (const row of results) if (row.service_line_number && lines.size < LINES) lines.add(row.service_line_number);
    }
    const tag = `Bulk${Date.now()}`;
    const customers: { uuid: string; email: string }[] = [];
    for (const n of [1, 2]) {
      const { customer } = await session.api<{ customer: { uuid: string; email: string } }>(page, '/customers', {
        method: 'POST',
        body: { name: `${tag} ${n}`, email: `${tag.toLowerCase()}.${n}@bulk.test`, company: `${tag} Co ${n}` },
      });
      customers.push(customer);
    }
    const csv = [
      'customer,service_line',
      ...[...lines].map((line, i) => `${customers[i % 2]!.email},${line}`),
      `${customers[0]!.email},not a line`,
      `${customers[1]!.email},AST-00000-00000-00`,
    ].join('\n');

    await page.getByRole('heading', { name: 'New bulk action' }).waitFor();
    await page.getByLabel('Upload CSV').setInputFiles({ name: 'lines.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByText('Read from lines.csv').waitFor();
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByText(`${LINES} ready, 2 with problems`).waitFor();
    const preview = page.getByRole('table', { name: 'Preview of the rows' });
    await expect(preview.getByText(`Assign ${[...lines][0]} to ${tag} 1 (${customers[0]!.email})`).count()).resolves.toBe(1);

    await page.getByRole('button', { name: `Run ${LINES} rows` }).click();
    // The job's progress, then the outcome of every row.
    await page.getByRole('heading', { name: /^Assign service lines: (running|done)$/ }).waitFor();
    await page.getByRole('heading', { name: 'Assign service lines: done' }).waitFor({ timeout: 120_000 });
    await page.getByText(`${LINES} done, 0 failed, 2 skipped`).first().waitFor();
    const results = page.getByRole('table', { name: 'Results of the rows' });
    await results.locator('tbody tr').first().waitFor();
    expect(await results.locator('tbody tr').count()).toBeGreaterThan(0);

    // The skipped rows, with their reasons, through the status filter.
    await page.getByRole('button', { name: 'Skipped' }).click();
    await results.getByText('Not a service line number').waitFor();
    await results.getByText('No such service line').waitFor();
    expect(await results.locator('tbody tr').count()).toBe(2);

    // Every row has its result on the server, and the lines are the customers' now.
    const operations = await session.api<{ id: string; total: number; succeeded: number; skipped: number }[]>(page, '/bulk');
    expect(operations[0]).toMatchObject({ total: LINES + 2, succeeded: LINES, skipped: 2 });
    const rows = await session.api<{ total: number }>(page, `/bulk/${operations[0]!.id}/rows?status=ok&limit=1`);
    expect(rows.total).toBe(LINES);
    for (const customer of customers) {
      const held = await session.api<{ pagination: { total: number } }>(page, `/terminals/customers/${customer.uuid}/terminals/page?limit=1`);
      // A line may carry more than one terminal: at least its half of the lines.
      expect(held.pagination.total).toBeGreaterThanOrEqual(LINES / 2);
    }
  }, 300_000);
});
