// The portal with the keyboard alone: sign in, open a dialog from a button and from a row's menu,
// Tab stays inside the dialog, Escape closes it and the focus is back where it was, and the
// element with the focus always shows it.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signInAsAdminAt, useBrowserSession } from './harness';

// The journeys use the demo customers, not the inventory: no background syncs.
const session = useBrowserSession({ SYNC_INTERVAL: 'off' }, { width: 1366, height: 850 });

/** What has the focus: its role-ish description, whether it sits in an open dialog, and whether it shows. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: '', inDialog: false, visible: false };
    const style = getComputedStyle(el);
    const shows = (style.outlineStyle !== 'none' && style.outlineWidth !== '0px') || style.boxShadow !== 'none';
    return { name: el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '', inDialog: Boolean(el.closest('[role="dialog"]')), visible: shows };
  });
}

/** Tabs forward until the focus is on `name` (at most `max` stops), each stop showing its focus. */
async function tabTo(page: Page, name: string | RegExp, max = 20): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    expect(now.visible, `"${now.name}" has the focus but does not show it`).toBe(true);
    if (typeof name === 'string' ? now.name === name : name.test(now.name)) return;
  }
  throw new Error(`${max} Tabs did not reach "${String(name)}"`);
}

describe('the keyboard alone', () => {
  it('signs in, opens a dialog from a button and from a row menu, keeps Tab inside it, and gets the focus back on Escape', async () => {
    const { portal } = session;
    const page = await session.context.newPage();
    await page.goto(`${portal.url}/login`);
    await page.getByLabel('Email').focus();
    await page.keyboard.type(portal.admin.email);
    // Email, then the "Forgot your password?" link beside the password's label, then the password.
    await page.keyboard.press('Tab');
    expect((await focused(page)).name).toBe('Forgot your password?');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe('password');
    await page.keyboard.type(portal.admin.password);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/home');

    await page.goto(`${portal.url}/customers`);
    await page.getByText(/^Showing \d+ of \d+ customers$/).waitFor();
    const add = page.getByRole('button', { name: 'Add Customer' });
    await add.focus();
    expect(await focused(page)).toMatchObject({ name: 'Add Customer', visible: true });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add New Customer' });
    await dialog.waitFor();
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('Tab');
      const now = await focused(page);
      expect(now.inDialog, `Tab ${i + 1} left the dialog for "${now.name}"`).toBe(true);
      expect(now.visible, `"${now.name}" has the focus but does not show it`).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focused(page)).toMatchObject({ name: 'Add Customer', inDialog: false });

    // A row's menu: the dialog opened from one of its items gives the focus back to the row's button.
    const actions = page.getByRole('button', { name: /^Actions for / }).first();
    const actionsName = await actions.getAttribute('aria-label');
    await actions.focus();
    await page.keyboard.press('Enter');
    const editItem = page.getByRole('menuitem', { name: 'Edit Customer' });
    await editItem.waitFor();
    // The menu takes the focus; the arrow keys walk its items (View Details, then Edit Customer).
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const edit = page.getByRole('dialog').first();
    await edit.waitFor();
    expect((await focused(page)).inDialog).toBe(true);
    await page.keyboard.press('Escape');
    await edit.waitFor({ state: 'detached' });
    expect(await focused(page)).toMatchObject({ name: actionsName, inDialog: false });
    await page.close();
  });

  it('runs a bulk action: picks the action, types the CSV, previews, runs and reads the result', async () => {
    const { portal } = session;
    // A context of its own: signed out, whatever the test before did.
    const context = await session.browser.newContext({ viewport: { width: 1366, height: 850 } });
    const page = await context.newPage();
    await signInAsAdminAt(page, portal, '/bulk');
    const { customers } = await session.api<{ customers: { email: string }[] }>(page, '/customers?limit=1');
    const email = customers[0]!.email;

    await page.goto(`${portal.url}/bulk`);
    await page.getByRole('heading', { name: 'New bulk action' }).waitFor();
    // The action picker: Enter opens it, the arrows move, Enter picks.
    const picker = page.getByLabel('Action', { exact: true });
    await picker.focus();
    expect((await focused(page)).visible).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('option', { name: 'Unblock customers' }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('.bulk-kind input')?.value === 'Unblock customers');

    await tabTo(page, /^$|Paste the rows here/);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    await page.keyboard.type(email);
    await tabTo(page, 'Preview');
    await page.keyboard.press('Enter');
    await page.getByText('1 ready, 0 with problems').waitFor();
    await tabTo(page, 'Run 1 row');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Unblock customers: done' }).waitFor({ timeout: 60_000 });
    await page.getByRole('table', { name: 'Results of the rows' }).getByText('Not blocked: nothing changed').waitFor();
    await context.close();
  });
});
