// The command palette in Chromium against the real server: Ctrl+K on /home, a
// part of a kit serial typed, Enter, and the terminal's page opens; all by keyboard.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SearchAnswerWire } from '../../src/domain/search';
import { TERMINAL_MESSAGES } from '../../src/domain/terminals';
import { PALETTE_INPUT_LABEL, PALETTE_TITLE } from '../../src/ui/palette/CommandPalette';
import { signInAsAdminAt, type BrowserSession } from './harness';

export function paletteJourney(session: BrowserSession): void {
  const api = session.api;
  describe('the command palette in the browser', () => {
    beforeAll(() => session.freshContext());
    it('an admin presses Ctrl+K on the home page, types the middle of a kit serial and lands on that terminal', async () => {
      const page = await session.context.newPage();
      await signInAsAdminAt(page, session.portal, '/home');

      // The first sync of the demo fleet runs in the background at start-up.
      type Listing = { totalCount: number; results: { kit_serial_number: string; user_terminal_id: string }[] };
      let listing: Listing = { totalCount: 0, results: [] };
      for (const deadline = Date.now() + 90_000; listing.totalCount === 0 && Date.now() < deadline; ) {
        listing = await api<Listing>(page, '/terminals?limit=10');
        if (listing.totalCount === 0) await page.waitForTimeout(500);
      }
      expect(listing.totalCount).toBeGreaterThan(0);
      const target = listing.results[Math.floor(listing.results.length / 2)]!;
      const kit = target.kit_serial_number;
      const part = kit.slice(Math.max(0, Math.floor(kit.length / 2) - 3), Math.floor(kit.length / 2) + 3);
      // The server finds it by that part (the browser then has to pick it out by keyboard).
      const answer = await api<SearchAnswerWire>(page, `/search?q=${encodeURIComponent(part)}`);
      expect(answer.results.some((r) => r.kind === 'kit' && r.id === target.user_terminal_id)).toBe(true);

      await page.locator('body').click();
      await page.keyboard.press('Control+k');
      const dialog = page.getByRole('dialog', { name: PALETTE_TITLE });
      await dialog.waitFor();
      const combobox = dialog.getByRole('combobox', { name: PALETTE_INPUT_LABEL });
      // The input takes the focus once the dialog has shown, after its opening animation: on a busy
      // machine that passes the poll's default second.
      await expect.poll(() => combobox.evaluate((el) => el === document.activeElement), { timeout: 10_000 }).toBe(true);
      await page.keyboard.type(part.toLowerCase());
      await dialog.getByRole('option', { name: new RegExp(kit) }).first().waitFor();

      // Arrow down to the kit's option, reading what a screen reader would: the active descendant.
      const activeText = () => combobox.evaluate((el) => document.getElementById(el.getAttribute('aria-activedescendant') ?? '')?.textContent ?? '');
      for (let i = 0; i < 25 && !(await activeText()).includes(`${kit}Terminal ${target.user_terminal_id}`); i++) await page.keyboard.press('ArrowDown');
      expect(await activeText()).toContain(kit);
      await page.keyboard.press('Enter');

      await page.waitForURL(new RegExp(`/terminals\\?terminal=${target.user_terminal_id}`));
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('dialog', { name: TERMINAL_MESSAGES.detailTitle }).getByText(kit).first().waitFor();
    });
  });
}
