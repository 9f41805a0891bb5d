// The Starlink API Simulator page in Chromium against the real server and its built-in simulator.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { signInAsAdminAt, startPortal, useChromium, type Portal } from './harness';

let portal: Portal;
const chromium = useChromium();
let context: BrowserContext;
let page: Page;

const MISSING = 'SL-E2E-MISSING-0000';

beforeAll(async () => {
  // The page asks the provider (the built-in simulator) itself: no sync of the inventory needed.
  portal = await startPortal({ SYNC_INTERVAL: 'off' });
});

afterAll(async () => {
  await portal?.stop();
});

beforeEach(async () => {
  await context?.close();
  context = await chromium.browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
});

async function openConsoleSignedIn() {
  await signInAsAdminAt(page, portal, '/customers/starlink-simulator');
  await page.getByRole('heading', { level: 1, name: 'Starlink API Simulator' }).waitFor();
}

async function search(serviceLineNumber: string) {
  const input = page.getByLabel('Service line number');
  await input.fill(serviceLineNumber);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

describe('the Starlink API Simulator', () => {
  it('an admin loads the terminals, opens every tab of a known service line, and a missing one is not found', async () => {
    await openConsoleSignedIn();
    await page.getByText('Connected to the built-in simulator').waitFor();

    // Search stays disabled until there is something to search for.
    await expect(page.getByRole('button', { name: 'Search', exact: true }).isDisabled()).resolves.toBe(true);

    await page.getByRole('button', { name: 'Load Terminals' }).click();
    const summary = page.getByLabel('Loaded terminals');
    await summary.getByText(/^Total: \d+/).waitFor();
    await summary.getByText(/^Active: \d+/).waitFor();

    const terminalsTabs = page.getByRole('tablist', { name: 'User terminals results' });
    for (const tab of ['Overview', 'Terminals List', 'Statistics', 'Raw Response']) {
      await expect(terminalsTabs.getByRole('tab', { name: tab }).isVisible()).resolves.toBe(true);
    }

    // A service line the provider knows, taken from the page's own Terminals List.
    await terminalsTabs.getByRole('tab', { name: 'Terminals List' }).click();
    const table = page.getByRole('table', { name: 'User terminals' });
    await table.waitFor();
    const serviceLines = (await table.locator('tbody tr td:nth-child(4)').allTextContents()).map((text) => text.trim());
    const known = serviceLines.find((text) => text !== '' && text !== '—');
    expect(known, `a service line among ${JSON.stringify(serviceLines)}`).toBeTruthy();

    await search(known!);
    const resultTabs = page.getByRole('tablist', { name: 'Search results' });
    await resultTabs.waitFor();
    const panel = page.getByRole('region', { name: 'Search Results' }).getByRole('tabpanel');

    await resultTabs.getByRole('tab', { name: 'Service Line Details' }).click();
    await panel.getByText(known!, { exact: true }).first().waitFor();

    await resultTabs.getByRole('tab', { name: 'Enhanced Details' }).click();
    for (const heading of ['Product', 'Location', 'Data Blocks', 'Terminal Hardware', 'Service History', 'Account']) {
      await panel.getByRole('heading', { name: heading, exact: true }).waitFor();
    }

    await resultTabs.getByRole('tab', { name: 'Usage Data' }).click();
    await panel.getByRole('table', { name: 'Usage records' }).or(panel.getByRole('heading', { name: 'No Usage Data' })).waitFor();

    await resultTabs.getByRole('tab', { name: 'Metadata' }).click();
    await panel.getByText('API Version', { exact: true }).waitFor();

    await resultTabs.getByRole('tab', { name: 'Raw Response' }).click();
    const raw = await panel.getByLabel('Raw provider responses').textContent();
    expect(() => JSON.parse(raw ?? '')).not.toThrow();

    await search(MISSING);
    await page.getByRole('heading', { name: 'Service Line Not Found' }).waitFor();
    await page.getByText('The specified service line was not found in the Starlink system').waitFor();
    await expect(resultTabs.count()).resolves.toBe(0);
  });
});
