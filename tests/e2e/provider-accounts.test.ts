// Several provider accounts in Chromium against the real server: an administrator adds the
// built-in simulator's Brazilian account on the Provider accounts page; it syncs at once, its
// terminals appear on the Terminals page with the account's name, and the Account filter shows
// only them. The dashboard then splits the fleet by account. The page and its dialog pass axe-core.
import { describe, expect, it } from 'vitest';
import type { ProviderAccountWire } from '../../src/domain/provider-accounts';
import { axeViolations, describeViolations } from './axe';
import { signInAsAdminAt, useBrowserSession } from './harness';

const US = 30;
const BR = 12;
const session = useBrowserSession({ SIM_ACCOUNTS: `us:${US},br:${BR}`, SEED_DEMO: '0' });

describe('provider accounts in the browser', () => {
  it('adds a second simulated account; its terminals appear with its name and the filter shows only them', async () => {
    const { portal } = session;
    const page = await session.context.newPage();
    await signInAsAdminAt(page, portal, '/customers/provider-accounts');
    const table = page.getByRole('table', { name: 'Provider accounts' });
    await table.getByRole('row', { name: /Demo US/ }).waitFor();

    // The page and its dialog under axe-core, as the accessibility walk checks the others.
    expect(describeViolations(await axeViolations(page, { colours: true }))).toBe('');
    await page.getByRole('button', { name: 'Add account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add provider account' });
    await dialog.getByLabel('Built-in simulator').check();
    expect(describeViolations(await axeViolations(page))).toBe('');
    // PrimeReact's Dropdown opens from its frame (its input is the hidden accessible one).
    await dialog.locator('.p-dropdown', { has: page.getByRole('textbox', { name: 'Simulated account' }) }).click();
    await page.getByRole('option', { name: /Demo Brasil \(BRL/ }).click();
    await expect(dialog.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('Demo Brasil');
    await dialog.getByRole('button', { name: 'Add account' }).click();
    await dialog.waitFor({ state: 'detached' });
    await table.getByRole('row', { name: /Demo Brasil/ }).waitFor();

    // It syncs as it is added: wait for its terminals to be in.
    for (const deadline = Date.now() + 60_000; ; await page.waitForTimeout(250)) {
      const accounts = await session.api<ProviderAccountWire[]>(page, '/provider-accounts');
      if (accounts.find((a) => a.name === 'Demo Brasil')?.terminalCount === BR) break;
      if (Date.now() > deadline) throw new Error(`the new account did not sync: ${JSON.stringify(accounts)}`);
    }

    await page.goto(`${portal.url}/terminals`);
    const terminals = page.getByRole('table', { name: /Terminals/ });
    // With two accounts every row names its own (the first page may hold only one account's).
    await terminals.getByRole('cell', { name: /^Demo (US|Brasil)$/ }).first().waitFor();
    await page.locator('.p-dropdown', { has: page.getByRole('textbox', { name: 'Account', exact: true }) }).click();
    await page.getByRole('option', { name: 'Demo Brasil' }).click();
    await page.waitForURL(/account=/);
    await expect.poll(async () => terminals.getByRole('cell', { name: 'Demo Brasil' }).count(), { timeout: 15_000 }).toBe(BR);
    await expect(terminals.getByRole('cell', { name: 'Demo US' }).count()).resolves.toBe(0);

    await page.goto(`${portal.url}/home`);
    const split = page.getByRole('region', { name: 'Provider accounts' });
    await split.getByRole('rowheader', { name: 'Demo Brasil' }).waitFor();
  });
});
