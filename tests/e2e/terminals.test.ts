// The terminals page in Chromium against the real server, its pg-boss worker and the built-in
// provider simulator: automatic syncs are off, so the inventory is empty until the admin syncs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TERMINAL_MESSAGES } from '../../src/domain/terminals';
import { launchChromium, signInAsAdminAt, startPortal, type Portal, portalApi, waitForUsageRun } from './harness';

let portal: Portal;
let browser: Browser;
let context: BrowserContext;
const api = <T>(page: Page, path: string) => portalApi<T>(page, portal, path);

beforeAll(async () => {
  // A little provider latency keeps the sync visibly running for a moment.
  portal = await startPortal({ SYNC_INTERVAL: 'off', SIM_TERMINALS: '120', SIM_LATENCY_MS: '150' });
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
});

afterAll(async () => {
  await context?.close().catch(() => {});
  await browser?.close();
  await portal?.stop();
});

describe('terminals in the browser', () => {
  it('an admin starts a sync, sees it running, sees the terminals arrive, finds one and reads its usage', async () => {
    const page = await context.newPage();
    await signInAsAdminAt(page, portal, '/terminals');
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
    await waitForUsageRun(page, portal, undefined, 60_000);

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
});
