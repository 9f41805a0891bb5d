// The customer's own account, in the browser: the customer's MFA code step on /login, the public
// forgot-password page, the reset wording of /set-password, and the customer's own account page
// (views alone, and the whole client over a fake API).
import { screen, waitFor, within } from '@testing-library/react';
import { createMemoryHistory } from '@tanstack/react-router';
import { describe, expect, it, vi } from 'vitest';
import type { CustomerProfile } from '../../src/domain/auth';
import { MFA_MESSAGES } from '../../src/domain/mfa';
import { FORGOT_PASSWORD_MESSAGES as M } from '../../src/domain/password-reset';
import { SESSION_STORAGE_KEY, serialisePersistedSession } from '../../src/domain/session';
import { AppRoot } from '../../src/routes/AppRoot';
import { createTestApp } from './open-app';
import { AccountView, MFA_OFF_TEXT, MFA_ON_TEXT, type AccountProfileFormProps } from '../../src/ui/account/AccountView';
import { ForgotPasswordView } from '../../src/ui/forgot-password/ForgotPasswordView';
import { SetPasswordView } from '../../src/ui/set-password/SetPasswordView';
import { customerProfile } from '../machines/fixtures';
import { fakePortalApi, type FakeAnswer } from '../model/framework/screen';
import { renderStrict } from './render';
import { fill } from './fill';

/** The whole client at `path`, signed out, or signed in as the fixture customer. */
function openApp(path: string, answers: Record<string, FakeAnswer>, signedInAs: CustomerProfile | null = null) {
  localStorage.clear();
  if (signedInAs) {
    localStorage.setItem(SESSION_STORAGE_KEY, serialisePersistedSession({ token: 'customer-token', profile: signedInAs, userType: 'customer', isAuthenticated: true }));
  }
  const api = fakePortalApi({ 'GET /api/v1/customers/auth/me': { body: { success: true, message: 'ok', data: { customer: signedInAs ?? customerProfile } } }, ...answers });
  const history = createMemoryHistory({ initialEntries: [path] });
  const app = createTestApp({ storage: localStorage, history, fetch: api.fetch as typeof globalThis.fetch });
  const view = renderStrict(<AppRoot app={app} />);
  return { ...view, app, history, calls: api.calls };
}

const refusal = (status: number, message: string) => ({ status, body: { success: false, message } });

describe('signing in as a customer with MFA on', () => {
  it('asks for the code after the customer password and sends it to the customer step, landing in the customer area', async () => {
    const codes: unknown[] = [];
    const page = openApp('/login', {
      'POST /api/v1/auth/login': refusal(401, 'Invalid email or password'),
      'POST /api/v1/customers/auth/login': { body: { success: true, message: MFA_MESSAGES.codeRequired, data: { mfaRequired: true, challenge: 'customer-challenge' } } },
      'POST /api/v1/customers/auth/login/mfa': ({ body }) => {
        codes.push(body);
        return { body: { success: true, message: 'Login successful', data: { customer: customerProfile, token: 'customer-token' } } };
      },
    });
    await fill(page.user, await screen.findByLabelText('Email'), customerProfile.email);
    await fill(page.user, screen.getByLabelText('Password', { selector: 'input' }), 'correct horse');
    await page.user.click(screen.getByRole('button', { name: 'Login' }));

    const form = within(await screen.findByRole('form', { name: 'Multi-factor authentication' }));
    expect(screen.getByText(MFA_MESSAGES.codeRequired)).toBeTruthy();
    await fill(page.user, form.getByLabelText(MFA_MESSAGES.codeLabel), '123456');
    await page.user.click(form.getByRole('button', { name: 'Verify' }));

    await waitFor(() => expect(page.history.location.pathname).toBe('/my'));
    expect(codes).toEqual([{ challenge: 'customer-challenge', code: '123456' }]);
    expect(page.calls).not.toContain('POST /api/v1/auth/login/mfa');
    expect(page.app.session.getSnapshot().context.userType).toBe('customer');
    page.unmount();
    page.app.session.stop();
  });

  it("shows the customer step's refusal on the code step", async () => {
    const page = openApp('/login', {
      'POST /api/v1/auth/login': refusal(401, 'Invalid email or password'),
      'POST /api/v1/customers/auth/login': { body: { success: true, message: '', data: { mfaRequired: true, challenge: 'c' } } },
      'POST /api/v1/customers/auth/login/mfa': refusal(401, MFA_MESSAGES.usedBackupCode),
    });
    await fill(page.user, await screen.findByLabelText('Email'), customerProfile.email);
    await fill(page.user, screen.getByLabelText('Password', { selector: 'input' }), 'pw');
    await page.user.click(screen.getByRole('button', { name: 'Login' }));
    const form = within(await screen.findByRole('form', { name: 'Multi-factor authentication' }));
    await fill(page.user, form.getByLabelText(MFA_MESSAGES.codeLabel), 'ABCD-EFGH');
    await page.user.click(form.getByRole('button', { name: 'Verify' }));
    expect((await form.findByRole('alert')).textContent).toBe(MFA_MESSAGES.usedBackupCode);
    expect(page.history.location.pathname).toBe('/login');
    page.unmount();
    page.app.session.stop();
  });
});

describe('the forgot-password page', () => {
  it('is reached from the login form', async () => {
    const page = openApp('/login', {});
    await page.user.click(await screen.findByRole('link', { name: 'Forgot your password?' }));
    await waitFor(() => expect(page.history.location.pathname).toBe('/forgot-password'));
    expect(await screen.findByRole('heading', { level: 1, name: M.title })).toBeTruthy();
    page.unmount();
    page.app.session.stop();
  });

  it('answers with the same words whatever the address, with a link back to sign in', async () => {
    const sent: unknown[] = [];
    const page = openApp('/forgot-password', {
      'POST /api/v1/auth/forgot-password': ({ body }) => (sent.push(body), { status: 202, body: { success: true, message: M.sent, data: {} } }),
    });
    await fill(page.user, await screen.findByLabelText(M.emailLabel), ' nobody@example.com ');
    await page.user.click(screen.getByRole('button', { name: M.submit }));
    expect((await screen.findByRole('status')).textContent).toBe(M.sent);
    expect(sent).toEqual([{ email: 'nobody@example.com' }]);
    expect(screen.queryByLabelText(M.emailLabel)).toBeNull();
    await page.user.click(screen.getByRole('link', { name: M.backToLogin }));
    await waitFor(() => expect(page.history.location.pathname).toBe('/login'));
    page.unmount();
    page.app.session.stop();
  });

  it("checks the address before sending and shows the server's refusal (too many requests)", async () => {
    const page = openApp('/forgot-password', { 'POST /api/v1/auth/forgot-password': refusal(429, M.tooMany('15 minutes')) });
    await fill(page.user, await screen.findByLabelText(M.emailLabel), 'not-an-address');
    await page.user.click(screen.getByRole('button', { name: M.submit }));
    expect(screen.getByRole('alert').textContent).toBe(M.emailInvalid);
    expect(page.calls).not.toContain('POST /api/v1/auth/forgot-password');
    await page.user.clear(screen.getByLabelText(M.emailLabel));
    await fill(page.user, screen.getByLabelText(M.emailLabel), 'ana@example.com');
    await page.user.click(screen.getByRole('button', { name: M.submit }));
    expect((await screen.findByRole('alert')).textContent).toBe(M.tooMany('15 minutes'));
    expect((screen.getByLabelText(M.emailLabel) as HTMLInputElement).value).toBe('ana@example.com');
    page.unmount();
    page.app.session.stop();
  });

  it('disables the field and the button while sending', () => {
    renderStrict(<ForgotPasswordView stage="sending" email="a@b.co" error={null} onEmail={() => {}} onSubmit={() => {}} onNavigate={() => {}} />);
    expect(screen.getByRole('button', { name: M.sending })).toHaveProperty('disabled', true);
    expect(screen.getByLabelText(M.emailLabel)).toHaveProperty('disabled', true);
  });
});

describe('the set-password page with a reset link', () => {
  const base = { account: { name: 'Ana', company: 'Andes', email: 'ana@example.com' }, password: '', confirmPassword: '', problem: null, linkMessage: null, email: 'ana@example.com' };
  const noop = { onField: () => {}, onSubmit: () => {}, onRetry: () => {}, onNavigate: () => {} };

  it('reads "Reset your password" and, once done, links to the login page', () => {
    const { unmount } = renderStrict(<SetPasswordView stage="ready" purpose="reset" {...base} {...noop} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reset Password' })).toBeTruthy();
    unmount();
    renderStrict(<SetPasswordView stage="done" purpose="reset" {...base} {...noop} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Your password has been reset' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the login page' }).getAttribute('href')).toBe('/login');
  });

  it('keeps the set-up wording for a set-up link', () => {
    renderStrict(<SetPasswordView stage="ready" {...base} {...noop} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Set your password' })).toBeTruthy();
  });
});

describe('the account page (view)', () => {
  const account = { email: 'ops@northwind.example', name: 'Nina Park', company: 'Northwind Shipping', phone: '+1 555 0100', address: null, mfaEnabled: true };

  it('read-only: shows the profile and the MFA state with no form, button or card', () => {
    renderStrict(<AccountView readOnly account={account} onNavigate={() => {}} />);
    expect(screen.getByText('Nina Park')).toBeTruthy();
    expect(screen.getByText('Northwind Shipping')).toBeTruthy();
    expect(screen.getByText(MFA_ON_TEXT, { exact: false })).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('read-only with MFA off says so', () => {
    renderStrict(<AccountView readOnly account={{ ...account, mfaEnabled: false }} onNavigate={() => {}} />);
    expect(screen.getByText(MFA_OFF_TEXT, { exact: false })).toBeTruthy();
  });

  it('editable: hands each field back, shows field errors, and disables the form while saving', async () => {
    const profile: AccountProfileFormProps = {
      form: { name: 'Nina Park', company: 'Northwind Shipping', phone: '', address: '' },
      errors: { company: 'Company name is required' },
      failure: null,
      busy: false,
      onField: vi.fn(),
      onSubmit: vi.fn(),
    };
    const passwordChange = { form: { currentPassword: '', newPassword: '', confirmPassword: '' }, error: null, busy: false, onField: vi.fn(), onSubmit: vi.fn() };
    const mfa = {
      mode: 'disabled' as const, setup: null, code: '', canVerify: false, backupCodes: null, proof: { code: '', password: '' }, error: null,
      onEnable: vi.fn(), onCode: vi.fn(), onVerify: vi.fn(), onCancel: vi.fn(), onCopy: vi.fn(), onDisable: vi.fn(), onProof: vi.fn(), onConfirmDisable: vi.fn(),
    };
    const { user, rerender } = renderStrict(<AccountView account={account} profile={profile} passwordChange={passwordChange} mfa={mfa} onNavigate={() => {}} />);
    const form = within(screen.getByRole('form', { name: 'Profile' }));
    expect((form.getByLabelText('Email') as HTMLInputElement).readOnly).toBe(true);
    await user.type(form.getByLabelText('Phone'), '7');
    expect(profile.onField).toHaveBeenCalledWith('phone', '7');
    expect(form.getByText('Company name is required')).toBeTruthy();
    await user.click(form.getByRole('button', { name: 'Save Changes' }));
    expect(profile.onSubmit).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('form', { name: 'Change Password' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Enable' }));
    expect(mfa.onEnable).toHaveBeenCalledTimes(1);

    rerender(<AccountView account={account} profile={{ ...profile, busy: true }} passwordChange={passwordChange} mfa={mfa} onNavigate={() => {}} />);
    expect(within(screen.getByRole('form', { name: 'Profile' })).getByRole('button', { name: 'Saving...' })).toHaveProperty('disabled', true);
    expect(within(screen.getByRole('form', { name: 'Profile' })).getByLabelText('Full Name')).toHaveProperty('disabled', true);
  });
});

describe('the account page (/my/account, signed in as a customer)', () => {
  it('saves the profile to /customers/profile and the session shows the new name', async () => {
    const saved: unknown[] = [];
    const page = openApp(
      '/my/account',
      {
        'PUT /api/v1/customers/profile': ({ body }) => {
          saved.push(body);
          const patch = body as Partial<CustomerProfile>;
          return { body: { success: true, message: 'Profile updated successfully', data: { customer: { ...customerProfile, ...patch } } } };
        },
      },
      customerProfile,
    );
    const form = within(await screen.findByRole('form', { name: 'Profile' }));
    const name = form.getByLabelText('Full Name');
    await page.user.clear(name);
    await fill(page.user, name, 'Nina Park-Lee');
    await fill(page.user, form.getByLabelText('Phone'), '+1 555 0101');
    await page.user.click(form.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(page.app.session.getSnapshot().context.profile?.name).toBe('Nina Park-Lee'));
    expect(saved).toEqual([{ name: 'Nina Park-Lee', company: customerProfile.company, phone: '+1 555 0101', address: null }]);
    page.unmount();
    page.app.session.stop();
  });

  it('refuses an empty company without a request, and turns MFA on through the customer routes', async () => {
    const page = openApp(
      '/my/account',
      {
        'POST /api/v1/customers/mfa/setup': {
          body: { success: true, message: 'ok', data: { secret: 'JBSWY3DPEHPK3PXP', otpauthUri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP', qrCodeDataUrl: 'data:image/png;base64,iVBORw0KGgo=' } },
        },
      },
      customerProfile,
    );
    const form = within(await screen.findByRole('form', { name: 'Profile' }));
    await page.user.clear(form.getByLabelText('Company'));
    await page.user.click(form.getByRole('button', { name: 'Save Changes' }));
    expect(form.getByText('Company name is required')).toBeTruthy();
    expect(page.calls).not.toContain('PUT /api/v1/customers/profile');

    await page.user.click(screen.getByRole('button', { name: 'Enable' }));
    expect(await screen.findByAltText('QR code to scan with your authenticator app')).toBeTruthy();
    expect(page.calls).toContain('POST /api/v1/customers/mfa/setup');
    expect(page.calls).not.toContain('POST /api/v1/auth/mfa/setup');
    page.unmount();
    page.app.session.stop();
  });
});
