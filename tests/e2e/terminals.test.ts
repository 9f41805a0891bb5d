// The terminals page in Chromium against the real server, its pg-boss worker and the built-in
// provider simulator: automatic syncs are off, so the inventory is empty until the admin syncs.
import { describe, expect, it } from 'vitest';
import { SERVICE_LINE_MESSAGES, type ServiceLineSettingsWire } from '../../src/domain/service-lines';
import { TERMINAL_MESSAGES } from '../../src/domain/terminals';
import { signInAsAdminAt, useBrowserSession, waitForUsageRun } from './harness';

  // A little provider latency keeps the sync visibly running for a moment.
const session = useBrowserSession({ SYNC_INTERVAL: 'off', SIM_TERMINALS: '120', SIM_LATENCY_MS: '150' });
const api = session.api;

describe('terminals in the browser', () => {
  it('an admin starts a sync, sees it running, sees the terminals arrive, finds one and reads its usage', async () => {
    const page = await session.context.newPage();
    await signInAsAdminAt(page, session.portal, '/terminals');
    await page.getByRole('heading', { level: 1, name: TERMINAL_MESSAGES.title }).waitFor();
    await page.getByText('Showing 0 of 0 terminals from local database').waitFor();

    await page.getByRole('button', { name: TERMINAL_MESSAGES.syncButton }).click();
    await page.getByText(TERMINAL_MESSAGES.syncRunningTitle).waitFor();
    await page.getByText(TERMINAL_MESSAGES.syncStarted).waitFor();
    await expect(page.getByRole('button', { name: TERMINAL_MESSAGES.syncing }).isDisabled()).resolves.toBe(true);

    // The page polls every 10 s: the terminals arrive without a reload, and the card goes away.
    await page.getByText(/^Showing 25 of 120 terminals from local database/).waitFor({ timeout: 45_000 });
    await page.getByText(TERMINAL_MESSAGES.syncRunningTitle).waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByText(/Last sync: 120 added/).waitFor();

    // The usage run follows the inventory run; wait for it so the usage tab has figures.
    await waitForUsageRun(page, session.portal, undefined, 60_000);

    // Find an active terminal by part of its kit serial, as an admin would.
    const listing = await api<{ results: { kit_serial_number: string; service_line_number: string; user_terminal_id: string }[] }>(
      page,
      '/terminals?active=true&limit=1',
    );
    const target = listing.results[0]!;
    await page.getByPlaceholder(TERMINAL_MESSAGES.searchPlaceholder).fill(target.kit_serial_number.slice(3).toLowerCase());
    await page.getByText(/^Showing 1 of 1 terminals from local database/).waitFor();
    await page.waitForURL(/search=/);

    await page.getByRole('button', { name: `View details of ${target.service_line_number}` }).click();
    const dialog = page.getByRole('dialog', { name: TERMINAL_MESSAGES.detailTitle });
    await dialog.waitFor();
    await page.waitForURL(new RegExp(`terminal=${target.user_terminal_id}`));
    await dialog.getByText(target.kit_serial_number).first().waitFor();

    await dialog.getByRole('tab', { name: 'Usage' }).click();
    await dialog.getByText('Current Billing Cycle Usage').waitFor();
    await dialog.getByText('Data Cap and Plan').waitFor();
    await expect(dialog.getByRole('progressbar').count()).resolves.toBeGreaterThan(0);

    // The dialog is URL state: a reload opens it again.
    await page.reload();
    await page.getByRole('dialog', { name: TERMINAL_MESSAGES.detailTitle }).getByText(target.kit_serial_number).first().waitFor();
  });

  it("an admin tops a line up, seeing the price first, then ends it at the end of its cycle, and the Settings tab says when", async () => {
    // Signed in already: the first journey's session is in this context's storage.
    const page = await session.context.newPage();
    await page.goto(`${session.portal.url}/terminals`);
    await page.getByRole('heading', { level: 1, name: TERMINAL_MESSAGES.title }).waitFor();
    // The inventory the first journey synced: an active terminal on a line.
    const listing = await api<{ results: { service_line_number: string; user_terminal_id: string }[] }>(page, '/terminals?active=true&limit=5');
    const target = listing.results.at(-1)!;
    const line = target.service_line_number;
    const before = await api<ServiceLineSettingsWire>(page, `/service-lines/${line}/settings`);

    await page.goto(`${session.portal.url}/terminals?terminal=${target.user_terminal_id}`);
    const dialog = page.getByRole('dialog', { name: TERMINAL_MESSAGES.detailTitle });
    await dialog.getByRole('tab', { name: 'Settings' }).click();

    await dialog.getByRole('button', { name: 'Buy Top-Up' }).click();
    const topUp = page.getByRole('dialog', { name: 'Buy Top-Up' });
    // PrimeReact's dropdown: its visible label opens the list (the labelled input underneath is read-only).
    await topUp.locator('.p-dropdown').click();
    await page.getByRole('listbox').getByRole('option', { name: '2 blocks', exact: true }).click();
    await topUp.getByRole('button', { name: 'Continue' }).click();
    await topUp.getByText('100.00 USD').waitFor();
    await topUp.getByRole('button', { name: 'Buy Top-Up' }).click();
    await page.getByText(SERVICE_LINE_MESSAGES.toppedUp).first().waitFor();
    await topUp.waitFor({ state: 'detached' });

    await dialog.getByRole('button', { name: 'Deactivate Service Line' }).click();
    const end = page.getByRole('dialog', { name: 'Deactivate Service Line' });
    await end.getByLabel('At the end of the billing cycle').check();
    await end.getByLabel('Reason').fill('Customer moved to fibre');
    await end.getByRole('button', { name: 'Continue' }).click();
    await end.getByText(/at the end of its billing cycle\?/).waitFor();
    await end.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await page.getByText(SERVICE_LINE_MESSAGES.deactivationScheduled).first().waitFor();
    await dialog.getByText(/Ends on \d{1,2} [A-Z][a-z]{2} \d{4}/).first().waitFor();

    const after = await api<ServiceLineSettingsWire>(page, `/service-lines/${line}/settings`);
    expect(after.topUpBlocksThisCycle).toBe(before.topUpBlocksThisCycle + 2);
    expect(after).toMatchObject({ active: true, endDate: expect.any(String) });
  });
});
