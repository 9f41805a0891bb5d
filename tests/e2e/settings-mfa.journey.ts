// Settings in Chromium against the real server: an admin turns on multi-factor authentication with
// a code computed here from the secret the page shows (as an authenticator app would), signs in
// with a TOTP code and with a backup code, sees that backup code refused the second time, then
// changes the password and signs in with the new one.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MFA_MESSAGES } from '../../src/domain/mfa';
import { SETTINGS_MESSAGES } from '../../src/domain/users';
import { totpCode } from '../../server/auth/totp';
import { signInAsAdminAt, submitLogin, type BrowserSession } from './harness';

async function logOut(page: Page, session: BrowserSession) {
  await page.getByRole('button', { name: new RegExp(session.portal.admin.email) }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.waitForURL('**/login');
}

/** Email and password, then the code step with `code`. */
async function signInWithCode(page: Page, session: BrowserSession, password: string, code: string) {
  await submitLogin(page, session.portal.admin.email, password);
  const input = page.getByLabel(MFA_MESSAGES.codeLabel);
  await input.waitFor();
  await input.fill(code);
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
}

export function settingsMfaJourney(session: BrowserSession): void {
  describe('settings in the browser', () => {
    beforeAll(() => session.freshContext());
    it('an admin enables MFA, signs in with a TOTP code and a backup code (refused the second time), and changes the password', async () => {
      const page = await session.context.newPage();
      await signInAsAdminAt(page, session.portal, '/settings');
      await page.getByRole('tab', { name: 'Security' }).click();

      // Enable: the QR code and the manual code; the code an authenticator would show.
      await page.getByRole('button', { name: MFA_MESSAGES.enable }).click();
      await page.getByRole('img', { name: /QR/i }).waitFor();
      const secret = (await page.locator('code.mfa-secret').textContent())!.trim();
      expect(secret).toMatch(/^[A-Z2-7]+=*$/);
      const verify = page.getByRole('button', { name: MFA_MESSAGES.verifyAndEnable });
      await page.getByLabel('Verification code').fill((await totpCode(secret, new Date())).slice(0, 5));
      await expect(verify.isDisabled()).resolves.toBe(true);
      await page.getByLabel('Verification code').fill(await totpCode(secret, new Date()));
      await verify.click();
      await page.getByText(MFA_MESSAGES.enabled).first().waitFor();
      const codes = (await page.getByRole('list', { name: 'Backup recovery codes' }).getByRole('listitem').allTextContents()).map((t) => t.trim());
      expect(codes).toHaveLength(8);
      const backup = codes.map((c) => /[A-Z2-9]{4}-[A-Z2-9]{4}/.exec(c)?.[0] ?? '');
      expect(backup.every((c) => c.length === 9)).toBe(true);

      // Sign in with a code: the password alone no longer lets anyone in. The next step's code is
      // used, since the step that enabled MFA cannot be replayed.
      await logOut(page, session);
      await signInWithCode(page, session, session.portal.admin.password, await totpCode(secret, new Date(Date.now() + 30_000)));
      await page.waitForURL('**/home');

      // A backup code works once…
      await logOut(page, session);
      await signInWithCode(page, session, session.portal.admin.password, backup[0]!);
      await page.waitForURL('**/home');
      await logOut(page, session);
      // …and is refused the second time.
      await signInWithCode(page, session, session.portal.admin.password, backup[0]!);
      await page.getByText(MFA_MESSAGES.usedBackupCode).waitFor();
      await page.getByRole('button', { name: 'Back' }).click();

      // Another backup code, then a new password.
      await signInWithCode(page, session, session.portal.admin.password, backup[1]!);
      await page.waitForURL('**/home');
      await page.goto(`${session.portal.url}/settings`);
      await page.getByRole('tab', { name: 'Security' }).click();
      const newPassword = 'A-brand-new-passphrase-7';
      await page.getByLabel('Current Password').fill(session.portal.admin.password);
      await page.getByLabel('New Password', { exact: true }).fill(newPassword);
      await page.getByLabel('Confirm New Password').fill(newPassword);
      await page.getByRole('button', { name: 'Change Password' }).click();
      await page.getByText(SETTINGS_MESSAGES.passwordChanged).first().waitFor();
      // The session carries on with the fresh token: the page still works after a reload.
      await page.reload();
      await page.getByRole('tab', { name: 'Security' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/settings');

      await logOut(page, session);
      await submitLogin(page, session.portal.admin.email, session.portal.admin.password);
      await page.getByText('Invalid email or password').waitFor();
      await signInWithCode(page, session, newPassword, backup[2]!);
      await page.waitForURL('**/home');
    });
  });
}
