import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import {
  SETUP_LINK_NOTE,
  UserActionDialog,
  UserFormDialog,
  type UserActionStep,
  type UserConfirmAction,
  type UserFormDialogProps,
  type UserRoleOption,
} from '../../src/ui/users/UserDialogs';
import { renderStrict } from './render';
import { portalUserFixture } from '../fixtures/portal-users';

const ROLES: UserRoleOption[] = [
  { id: 'r-owner', name: 'Owner', description: 'Everything', grantable: true },
  { id: 'r-billing', name: 'Billing', description: 'Statements and prices', grantable: true },
  { id: 'r-night', name: 'Night shift', description: 'Alerts overnight', grantable: false },
];

const person = portalUserFixture({ name: 'Rui Costa', email: 'rui.costa@example.com', blockedReason: 'Left the company' });

function renderForm(props: Partial<UserFormDialogProps> = {}) {
  const callbacks = { onField: vi.fn(), onRoles: vi.fn(), onSubmit: vi.fn(), onCancel: vi.fn() };
  const { user } = renderStrict(
    <UserFormDialog
      visible
      mode="create"
      form={{ name: '', email: '', roleIds: [], password: '' }}
      roles={ROLES}
      errors={{}}
      failure={null}
      busy={false}
      {...callbacks}
      {...props}
    />,
  );
  return { user, ...callbacks };
}

function renderAction(step: UserActionStep) {
  const callbacks = { onClose: vi.fn(), onReason: vi.fn(), onDays: vi.fn(), onConfirm: vi.fn() };
  const { user } = renderStrict(<UserActionDialog step={step} {...callbacks} />);
  return { user, ...callbacks };
}

describe('UserFormDialog', () => {
  it('asks for name, email, roles and an optional initial password with the setup-link note in Add User', () => {
    renderForm();
    const dialog = screen.getByRole('dialog', { name: 'Add User' });
    expect(within(dialog).getByLabelText('Full Name')).toBeTruthy();
    expect(within(dialog).getByLabelText('Email Address')).toBeTruthy();
    expect(within(dialog).getByRole('group', { name: 'Roles' })).toBeTruthy();
    expect(within(dialog).getAllByRole('checkbox').map((box) => (box as HTMLInputElement).checked)).toEqual([false, false, false]);
    // A role the editor could not grant is not offered.
    expect((within(dialog).getByRole('checkbox', { name: 'Night shift' }) as HTMLInputElement).disabled).toBe(true);
    expect(within(dialog).getByRole('checkbox', { name: 'Billing' }).getAttribute('aria-describedby')).toBeTruthy();
    expect(within(dialog).getByLabelText('Initial Password (optional)')).toBeTruthy();
    expect(within(dialog).getByText(SETUP_LINK_NOTE)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Create User' })).toBeTruthy();
  });

  it('offers no password in Edit User and shows the values it is given', () => {
    renderForm({ mode: 'edit', form: { name: 'Rui Costa', email: 'rui.costa@example.com', roleIds: ['r-owner', 'r-night'], password: '' } });
    const dialog = screen.getByRole('dialog', { name: 'Edit User' });
    expect((within(dialog).getByLabelText('Full Name') as HTMLInputElement).value).toBe('Rui Costa');
    expect(within(dialog).queryByLabelText('Initial Password (optional)')).toBeNull();
    expect((within(dialog).getByRole('checkbox', { name: 'Owner' }) as HTMLInputElement).checked).toBe(true);
    // Held already: it stays checked and may be taken away, though it could not be given.
    const night = within(dialog).getByRole('checkbox', { name: 'Night shift' }) as HTMLInputElement;
    expect([night.checked, night.disabled]).toEqual([true, false]);
    expect(within(dialog).getByRole('button', { name: 'Save Changes' })).toBeTruthy();
  });

  it('hands each typed field back and submits on Create User', async () => {
    const { user, onField, onRoles, onSubmit } = renderForm();
    await user.type(screen.getByLabelText('Full Name'), 'R');
    await user.type(screen.getByLabelText('Email Address'), 'r');
    await user.type(screen.getByLabelText('Initial Password (optional)'), 'p');
    await user.click(screen.getByRole('checkbox', { name: 'Billing' }));
    expect(onField.mock.calls).toEqual([
      ['name', 'R'],
      ['email', 'r'],
      ['password', 'p'],
    ]);
    expect(onRoles.mock.calls).toEqual([[['r-billing']]]);
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('shows field errors on their fields and a failure above the form', () => {
    renderForm({ errors: { name: 'Name is required', email: 'Please enter a valid email address' }, failure: 'A user with this email address already exists' });
    const name = screen.getByLabelText('Full Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(name.getAttribute('aria-describedby')!)?.textContent).toBe('Name is required');
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    expect(screen.getByText('A user with this email address already exists')).toBeTruthy();
  });

  it('reads "Saving..." while busy, with Cancel and the fields disabled', async () => {
    const { user, onCancel, onSubmit } = renderForm({ busy: true });
    const saving = screen.getByRole('button', { name: 'Saving...' }) as HTMLButtonElement;
    expect(saving.disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByLabelText('Full Name') as HTMLInputElement).disabled).toBe(true);
    await user.click(saving);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(onCancel).not.toHaveBeenCalled();
  });

  it('cancels with Cancel when idle', async () => {
    const { user, onCancel } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});

describe('UserActionDialog', () => {
  it('renders nothing when closed', () => {
    renderAction({ kind: 'closed' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks a block reason, hands it back and blocks on Block User', async () => {
    const { user, onReason, onConfirm } = renderAction({ kind: 'block', user: person, reason: '', reasonError: null, failure: null, busy: false });
    const dialog = screen.getByRole('dialog', { name: 'Block User' });
    await user.type(within(dialog).getByLabelText('Reason'), 'x');
    expect(onReason).toHaveBeenCalledWith('x');
    await user.click(within(dialog).getByRole('button', { name: 'Block User' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('shows the reason error on the textarea and the server failure in the dialog', () => {
    renderAction({ kind: 'block', user: person, reason: '', reasonError: 'A reason is required to block a user', failure: 'User not found', busy: false });
    expect(screen.getByLabelText('Reason').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('A reason is required to block a user')).toBeTruthy();
    expect(screen.getByText('User not found')).toBeTruthy();
  });

  it('reads "Blocking..." while busy with Cancel disabled', () => {
    renderAction({ kind: 'block', user: person, reason: 'Left', reasonError: null, failure: null, busy: true });
    expect((screen.getByRole('button', { name: 'Blocking...' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('offers the extension days and extends on Extend', async () => {
    const { user, onDays, onConfirm } = renderAction({ kind: 'extend', user: person, days: 90, failure: null, busy: false });
    const dialog = screen.getByRole('dialog', { name: 'Extend Expiration' });
    const days = within(dialog).getByLabelText('Extend by') as HTMLInputElement;
    expect(days.value).toBe('90 days');
    expect(within(dialog).getByText(/has no expiration set/)).toBeTruthy();
    await user.click(days.closest('.p-dropdown')!);
    const options = within(await screen.findByRole('listbox')).getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['30 days', '90 days', '180 days', '365 days']);
    await user.click(screen.getByRole('option', { name: '365 days' }));
    expect(onDays).toHaveBeenCalledWith(365);
    await user.click(within(dialog).getByRole('button', { name: 'Extend' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it.each<[UserConfirmAction, string, string, RegExp]>([
    ['unblock', 'Unblock User', 'Unblock', /Unblock Rui Costa\? They will be able to sign in again\./],
    ['disableMfa', 'Disable MFA', 'Disable MFA', /Disable multi-factor authentication for Rui Costa\?/],
    ['resetAttempts', 'Reset Login Attempts', 'Reset', /Reset the failed login attempts of Rui Costa\?/],
    ['delete', 'Delete User', 'Delete', /Delete Rui Costa\?.*can be restored later/],
    ['hardDelete', 'Delete Permanently', 'Delete permanently', /Permanently delete Rui Costa\? This cannot be undone\./],
    ['restore', 'Restore User', 'Restore', /Restore Rui Costa\?/],
  ])('confirms %s in the "%s" dialog with its %s button', async (action, header, button, question) => {
    const { user, onConfirm, onClose } = renderAction({ kind: 'confirm', action, user: person, failure: null, busy: false });
    const dialog = screen.getByRole('dialog', { name: header });
    expect(dialog.textContent).toMatch(question);
    await user.click(within(dialog).getByRole('button', { name: button }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('shows the blocked reason when confirming an unblock', () => {
    renderAction({ kind: 'confirm', action: 'unblock', user: person, failure: null, busy: false });
    expect(screen.getByText('Blocked for: Left the company')).toBeTruthy();
  });

  it('reads its busy label while running and shows a refusal', () => {
    renderAction({ kind: 'confirm', action: 'restore', user: person, failure: 'User not found', busy: true });
    expect((screen.getByRole('button', { name: 'Restoring...' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('User not found')).toBeTruthy();
  });
});
