import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { SettingsView, type SettingsViewProps } from '../../src/ui/settings/SettingsView';
import { ENABLED_TEXT, MfaCard, QR_ALT, type MfaCardProps } from '../../src/ui/settings/MfaCard';
import { ChangePasswordForm, type ChangePasswordFormProps } from '../../src/ui/settings/ChangePasswordForm';
import { MFA_MESSAGES, type MfaSetupWire } from '../../src/domain/mfa';
import { formatDateTime } from '../../src/ui/common/format';
import { renderStrict } from './render';

const setup: MfaSetupWire = { secret: 'JBSWY3DPEHPK3PXP', otpauthUri: 'otpauth://totp/x', qrCodeDataUrl: 'data:image/png;base64,iVBORw0KGgo=' };
const backupCodes = ['ABCD-EFGH', 'JKLM-NPQR', 'STUV-WXYZ', '2345-6789', 'AB23-CD45', 'EF67-GH89', 'JK23-LM45', 'NP67-QR89'];

function passwordProps(props: Partial<ChangePasswordFormProps> = {}): ChangePasswordFormProps {
  return {
    form: { currentPassword: '', newPassword: '', confirmPassword: '' },
    error: null,
    busy: false,
    onField: vi.fn(),
    onSubmit: vi.fn(),
    ...props,
  };
}

function mfaProps(props: Partial<MfaCardProps> = {}): MfaCardProps {
  return {
    mode: 'disabled',
    setup: null,
    code: '',
    canVerify: false,
    backupCodes: null,
    proof: { code: '', password: '' },
    error: null,
    onEnable: vi.fn(),
    onCode: vi.fn(),
    onVerify: vi.fn(),
    onCancel: vi.fn(),
    onCopy: vi.fn(),
    onDisable: vi.fn(),
    onProof: vi.fn(),
    onConfirmDisable: vi.fn(),
    ...props,
  };
}

function renderSettings(props: Partial<SettingsViewProps> = {}) {
  const all: SettingsViewProps = {
    account: { email: 'ada@example.com', name: 'Ada Admin', isActive: true, createdAt: '2026-01-02T03:04:05.000Z', updatedAt: null },
    passwordChange: passwordProps(),
    mfa: mfaProps(),
    onNavigate: vi.fn(),
    ...props,
  };
  return { ...renderStrict(<SettingsView {...all} />), props: all };
}

const renderMfa = (props: Partial<MfaCardProps> = {}) => {
  const all = mfaProps(props);
  return { ...renderStrict(<MfaCard {...all} />), props: all };
};

describe('SettingsView', () => {
  it('has the two tabs Account and Security and opens on Account', () => {
    renderSettings();
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Account' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'Security' }).getAttribute('aria-selected')).toBe('false');
  });

  it('shows the email and full name read-only, the dates with N/A when missing, and the status badge', () => {
    renderSettings();
    const email = screen.getByLabelText('Email') as HTMLInputElement;
    expect(email.value).toBe('ada@example.com');
    expect(email.readOnly).toBe(true);
    expect((screen.getByLabelText('Full Name') as HTMLInputElement).readOnly).toBe(true);
    expect(screen.getByText('Account Created').nextElementSibling?.textContent).toBe(formatDateTime('2026-01-02T03:04:05.000Z'));
    expect(screen.getByText('Last Updated').nextElementSibling?.textContent).toBe('N/A');
    expect(screen.getByText('Active')).toBeTruthy();
  });

  it('shows Inactive for an inactive account', () => {
    renderSettings({ account: { email: 'a@b.example', name: 'A', isActive: false, createdAt: null, updatedAt: null } });
    expect(screen.getByText('Inactive')).toBeTruthy();
    expect(screen.getByText('Account Created').nextElementSibling?.textContent).toBe('N/A');
  });

  it('shows the change-password form and the MFA card on the Security tab', async () => {
    const { user } = renderSettings();
    await user.click(screen.getByRole('tab', { name: 'Security' }));
    expect(screen.getByRole('form', { name: 'Change Password' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: MFA_MESSAGES.title })).toBeTruthy();
  });

  it('leaves the MFA card out when it is not given', async () => {
    const { user } = renderSettings({ mfa: null });
    await user.click(screen.getByRole('tab', { name: 'Security' }));
    expect(screen.queryByRole('heading', { name: MFA_MESSAGES.title })).toBeNull();
  });
});

describe('ChangePasswordForm', () => {
  it('asks the current, new and confirmed password and hands each back', async () => {
    const props = passwordProps();
    const { user } = renderStrict(<ChangePasswordForm {...props} />);
    await user.type(screen.getByLabelText('Current Password'), 'a');
    await user.type(screen.getByLabelText('New Password'), 'b');
    await user.type(screen.getByLabelText('Confirm New Password'), 'c');
    expect(props.onField).toHaveBeenNthCalledWith(1, 'currentPassword', 'a');
    expect(props.onField).toHaveBeenNthCalledWith(2, 'newPassword', 'b');
    expect(props.onField).toHaveBeenNthCalledWith(3, 'confirmPassword', 'c');
    expect((screen.getByLabelText('New Password') as HTMLInputElement).type).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(props.onSubmit).toHaveBeenCalledTimes(1);
  });

  it('shows its error inline', () => {
    renderStrict(<ChangePasswordForm {...passwordProps({ error: 'New passwords do not match' })} />);
    expect(screen.getByRole('alert').textContent).toContain('New passwords do not match');
  });

  it('reads "Changing..." while busy, with the fields and the button disabled', async () => {
    const props = passwordProps({ busy: true });
    const { user } = renderStrict(<ChangePasswordForm {...props} />);
    const button = screen.getByRole('button', { name: 'Changing...' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect((screen.getByLabelText('Current Password') as HTMLInputElement).disabled).toBe(true);
    await user.click(button);
    expect(props.onSubmit).not.toHaveBeenCalled();
  });
});

describe('MfaCard', () => {
  it('warns when MFA is off and enables on Enable', async () => {
    const { user, props } = renderMfa();
    expect(screen.getByText(MFA_MESSAGES.disabledWarning)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Enable' }));
    expect(props.onEnable).toHaveBeenCalledTimes(1);
  });

  it('reads "Starting..." and is disabled while the set-up starts', () => {
    renderMfa({ mode: 'starting' });
    expect((screen.getByRole('button', { name: 'Starting...' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the QR image and the manual code with a copy button in set-up', async () => {
    const { user, props } = renderMfa({ mode: 'setup', setup });
    const qr = screen.getByRole('img', { name: QR_ALT }) as HTMLImageElement;
    expect(qr.getAttribute('src')).toBe(setup.qrCodeDataUrl);
    expect(screen.getByText(MFA_MESSAGES.manualCode)).toBeTruthy();
    expect(screen.getByText(setup.secret)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Copy code' }));
    expect(props.onCopy).toHaveBeenCalledWith(setup.secret);
  });

  it('takes the code in a numeric input of at most 6 and hands it back', async () => {
    const { user, props } = renderMfa({ mode: 'setup', setup });
    const input = screen.getByLabelText('Verification code') as HTMLInputElement;
    expect(input.inputMode).toBe('numeric');
    expect(input.maxLength).toBe(6);
    await user.type(input, '1');
    expect(props.onCode).toHaveBeenCalledWith('1');
  });

  it('enables Verify & Enable only when it can verify', async () => {
    renderMfa({ mode: 'setup', setup, code: '12345', canVerify: false });
    expect((screen.getByRole('button', { name: 'Verify & Enable' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('verifies on Verify & Enable at six digits and cancels on Cancel', async () => {
    const { user, props } = renderMfa({ mode: 'setup', setup, code: '123456', canVerify: true });
    await user.click(screen.getByRole('button', { name: 'Verify & Enable' }));
    expect(props.onVerify).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(props.onCancel).toHaveBeenCalledTimes(1);
  });

  it('reads "Verifying..." while verifying, with the input and Cancel disabled', () => {
    renderMfa({ mode: 'verifying', setup, code: '123456', canVerify: true });
    expect((screen.getByRole('button', { name: 'Verifying...' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByLabelText('Verification code') as HTMLInputElement).disabled).toBe(true);
  });

  it('shows the success note and the 8 backup codes, each copied with its own button', async () => {
    const { user, props } = renderMfa({ mode: 'enabled', backupCodes });
    expect(screen.getByText(MFA_MESSAGES.enabledNote)).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Backup recovery codes' });
    expect(within(list).getAllByRole('listitem').map((item) => item.querySelector('code')?.textContent)).toEqual(backupCodes);
    await user.click(screen.getByRole('button', { name: 'Copy JKLM-NPQR' }));
    expect(props.onCopy).toHaveBeenCalledWith('JKLM-NPQR');
  });

  it('shows only the enabled note when no backup codes are given, and disables on Disable', async () => {
    const { user, props } = renderMfa({ mode: 'enabled' });
    expect(screen.getByText(ENABLED_TEXT)).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Disable' }));
    expect(props.onDisable).toHaveBeenCalledTimes(1);
  });

  it('asks a current code or the password to disable and confirms', async () => {
    const { user, props } = renderMfa({ mode: 'confirmingDisable', error: 'Invalid verification code. Please try again.' });
    expect(screen.getByText(`${MFA_MESSAGES.disableNeedsProof}.`)).toBeTruthy();
    await user.type(screen.getByLabelText('Current code'), '1');
    await user.type(screen.getByLabelText('Or your password'), 'p');
    expect(props.onProof).toHaveBeenCalledWith({ code: '1' });
    expect(props.onProof).toHaveBeenCalledWith({ password: 'p' });
    expect(screen.getByRole('alert').textContent).toContain('Invalid verification code. Please try again.');
    await user.click(screen.getByRole('button', { name: 'Disable MFA' }));
    expect(props.onConfirmDisable).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(props.onCancel).toHaveBeenCalledTimes(1);
  });

  it('reads "Disabling..." while disabling', () => {
    renderMfa({ mode: 'disabling' });
    expect((screen.getByRole('button', { name: 'Disabling...' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
