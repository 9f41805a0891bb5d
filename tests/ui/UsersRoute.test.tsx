// The users and settings pages through the whole client (composition root, router, session, the
// list, user form, row actions, password change and MFA machines, views) against a fake of the
// portal API at the fetch seam that keeps the users it was told about.
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { MFA_MESSAGES } from '../../src/domain/mfa';
import { SETTINGS_MESSAGES, USER_MESSAGES, type UserWire } from '../../src/domain/users';
import { adminProfile } from '../machines/fixtures';
import { builtInRoleFixture, builtInRoleFixtures, roleRefOf } from '../fixtures/roles';
import { openSignedInAt } from './open-app';
import { fill } from './fill';

function userWire(n: number, overrides: Partial<UserWire> = {}): UserWire {
  return {
    uuid: `00000000-0000-4000-9000-0000000000${String(n).padStart(2, '0')}`,
    name: `Person ${n}`,
    email: `person${n}@portal.example`,
    role: 'user',
    is_active: true,
    blocked_enabled: false,
    blocked_reason: null,
    mfa_enabled: false,
    last_login: null,
    created_at: '2026-10-01T10:00:00.000Z',
    updated_at: '2026-10-01T10:00:00.000Z',
    account_expires_at: null,
    failed_login_attempts: 0,
    locked_until: null,
    deleted_at: null,
    has_password: true,
    roles: [roleRefOf(builtInRoleFixture(overrides.role === 'admin' ? 'owner' : 'admin_read_only'))],
    ...overrides,
  };
}

function fakePortalApi() {
  const users = [userWire(1, { role: 'admin', name: 'Ana Admin' }), userWire(2, { name: 'Bea User' }), userWire(3, { name: 'Caio User', is_active: false })];
  const calls: string[] = [];
  const bodies: Array<[string, unknown]> = [];
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const ok = (data: unknown, message = 'ok', status = 200) => json(status, { success: true, message, data });
  const fail = (status: number, message: string) => json(status, { success: false, message });
  const stats = () => ({
    total: users.length,
    active: users.filter((u) => u.is_active && !u.blocked_enabled).length,
    mfaEnabled: users.filter((u) => u.mfa_enabled).length,
  });

  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const call = `${method} ${url.pathname}`;
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    calls.push(`${call}${url.search}`);
    if (body !== undefined) bodies.push([call, body]);
    if (new Headers(init?.headers).get('authorization') !== 'Bearer admin-token') return fail(401, 'Invalid or expired token');

    if (call === 'GET /api/v1/auth/me') return ok({ user: adminProfile });
    if (call === 'GET /api/v1/roles') return ok({ roles: builtInRoleFixtures });
    if (call === 'GET /api/v1/users') {
      const active = url.searchParams.get('is_active');
      const shown = users.filter((u) => active === null || String(u.is_active) === active);
      return ok({ users: shown, pagination: { total: shown.length, page: 1, limit: 100, pages: 1 }, stats: stats() });
    }
    if (call === 'POST /api/v1/users') {
      if (users.some((u) => u.email === body.email)) return fail(409, USER_MESSAGES.duplicateEmail);
      const held = builtInRoleFixtures.filter((role) => body.role_ids.includes(role.id));
      const created = userWire(users.length + 1, { name: body.name, email: body.email, roles: held.map(roleRefOf), is_active: false, has_password: false });
      users.unshift(created);
      return ok({ user: created }, USER_MESSAGES.createdWithLink(body.email), 201);
    }
    const match = /^\/api\/v1\/users\/([^/]+)(\/[a-z-]+)?$/.exec(url.pathname);
    const target = match ? users.find((u) => u.uuid === match[1]) : undefined;
    if (target && method === 'PUT' && !match![2]) {
      if (body.is_active === false && target.role === 'admin') return fail(403, USER_MESSAGES.adminSuspendRefused);
      Object.assign(target, body);
      return ok({ user: target }, body.is_active === false ? USER_MESSAGES.suspended(target.name) : USER_MESSAGES.updated);
    }
    if (target && method === 'POST' && match![2] === '/block') {
      Object.assign(target, { blocked_enabled: true, blocked_reason: body.reason });
      return ok({ user: target }, USER_MESSAGES.blocked(target.name));
    }
    if (call === 'POST /api/v1/auth/mfa/setup') {
      return ok({ secret: 'JBSWY3DPEHPK3PXP', otpauthUri: 'otpauth://totp/Admin%20Portal:ana?secret=JBSWY3DPEHPK3PXP', qrCodeDataUrl: 'data:image/png;base64,iVBORw0KGgo=' });
    }
    if (call === 'POST /api/v1/auth/mfa/verify') {
      if (body.code !== '123456') return fail(400, MFA_MESSAGES.wrongCode);
      return ok({ backupCodes: Array.from({ length: 8 }, (_, i) => `ABCD-EFG${i + 2}`) }, MFA_MESSAGES.enabled);
    }
    if (call === 'PUT /api/v1/users/change-password') {
      if (body.currentPassword !== 'old-password') return fail(400, SETTINGS_MESSAGES.wrongCurrentPassword);
      return ok({ user: adminProfile, token: 'admin-token' }, SETTINGS_MESSAGES.passwordChanged);
    }
    return fail(404, `Route not found: ${call}`);
  });
  return { fetch, calls, bodies, users };
}

function open(path: string) {
  const api = fakePortalApi();
  return { ...openSignedInAt(path, api.fetch), api };
}

const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;

describe('the users page', () => {
  it('lists the users with the stat cards over the whole set, and suspends a user, whose row follows', async () => {
    const { user, api } = open('/users');
    expect(await screen.findByText('Bea User', {}, { timeout: 5000 })).toBeTruthy();
    expect(api.calls.some((c) => c.startsWith('GET /api/v1/users?') && c.includes('limit=100'))).toBe(true);
    const activeCard = screen.getByText('Active Users').closest('section') as HTMLElement;
    await waitFor(() => expect(activeCard.textContent).toContain('2'));

    // Admin rows cannot be suspended from here.
    expect((within(row('Ana Admin')).getByRole('button', { name: 'Suspend Ana Admin' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(row('Bea User')).getByRole('button', { name: 'Suspend Bea User' }));
    expect(await screen.findByText(USER_MESSAGES.suspended('Bea User'))).toBeTruthy();
    expect(api.bodies).toContainEqual(['PUT /api/v1/users/00000000-0000-4000-9000-000000000002', { is_active: false }]);
    await waitFor(() => expect(within(row('Bea User')).getByRole('button', { name: 'Activate Bea User' })).toBeTruthy());
  });

  it('adds a user without a password (a setup link is emailed) and shows a duplicate email on its field', async () => {
    const { user, api } = open('/users');
    await screen.findByText('Bea User', {}, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    await fill(user, within(dialog).getByLabelText('Full Name'), 'Dora New');
    await fill(user, within(dialog).getByLabelText('Email Address'), 'person2@portal.example');
    await user.click(within(dialog).getByRole('button', { name: 'Create User' }));
    // Nothing is sent before a role is chosen.
    expect(await within(dialog).findByText(USER_MESSAGES.rolesRequired)).toBeTruthy();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Billing' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Technical (read-only)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create User' }));
    expect(await within(dialog).findByText(USER_MESSAGES.duplicateEmail)).toBeTruthy();

    const email = within(dialog).getByLabelText('Email Address');
    await user.clear(email);
    await fill(user, email, 'dora@portal.example');
    await user.click(within(dialog).getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('Dora New')).toBeTruthy();
    expect(api.bodies).toContainEqual(['POST /api/v1/users', { name: 'Dora New', email: 'dora@portal.example', role_ids: ['role-billing', 'role-technical_read_only'] }]);
    // The list names the roles each user holds.
    expect(within(row('Dora New')).getByText('Billing')).toBeTruthy();
    expect(within(row('Dora New')).getByText('Technical (read-only)')).toBeTruthy();
    expect(within(row('Ana Admin')).getByText('Owner')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add User' })).toBeNull());
  });

  it('blocks a user with a reason from the row menu; an empty reason is refused first', async () => {
    const { user, api } = open('/users');
    await screen.findByText('Bea User', {}, { timeout: 5000 });
    await user.click(within(row('Bea User')).getByRole('button', { name: 'More actions for Bea User' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Block' }));
    const dialog = await screen.findByRole('dialog', { name: 'Block User' });
    await user.click(within(dialog).getByRole('button', { name: 'Block User' }));
    expect(await within(dialog).findByText(USER_MESSAGES.blockReasonRequired)).toBeTruthy();
    await fill(user, within(dialog).getByLabelText('Reason'), 'Left the company');
    await user.click(within(dialog).getByRole('button', { name: 'Block User' }));
    expect(await screen.findByText(USER_MESSAGES.blocked('Bea User'))).toBeTruthy();
    expect(api.bodies).toContainEqual(['POST /api/v1/users/00000000-0000-4000-9000-000000000002/block', { reason: 'Left the company' }]);
    await waitFor(() => expect(within(row('Bea User')).getByText('Blocked')).toBeTruthy());
  });
});

describe('the settings page', () => {
  it('turns MFA on: the QR code and manual key, Verify only at six digits, a wrong code refused, then the backup codes', async () => {
    const { user } = open('/settings');
    await user.click(await screen.findByRole('tab', { name: 'Security' }, { timeout: 5000 }));
    await user.click(screen.getByRole('button', { name: MFA_MESSAGES.enable }));
    expect(await screen.findByRole('img', { name: /QR code/ })).toBeTruthy();
    expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeTruthy();
    const verify = screen.getByRole('button', { name: MFA_MESSAGES.verifyAndEnable }) as HTMLButtonElement;
    const code = screen.getByLabelText('Verification code') as HTMLInputElement;
    await user.type(code, '12a34');
    expect(code.value).toBe('1234');
    expect(verify.disabled).toBe(true);
    await user.type(code, '99');
    expect(verify.disabled).toBe(false);
    await user.click(verify);
    expect(await screen.findByText(MFA_MESSAGES.wrongCode)).toBeTruthy();

    await user.clear(screen.getByLabelText('Verification code'));
    await user.type(screen.getByLabelText('Verification code'), '123456');
    await user.click(screen.getByRole('button', { name: MFA_MESSAGES.verifyAndEnable }));
    const codes = await screen.findByRole('list', { name: 'Backup recovery codes' });
    expect(within(codes).getAllByRole('listitem')).toHaveLength(8);
    expect(screen.getByRole('button', { name: MFA_MESSAGES.disable })).toBeTruthy();
  });

  it('changes the password: the client rules first, then the server refuses a wrong current password', async () => {
    const { user, api } = open('/settings');
    await user.click(await screen.findByRole('tab', { name: 'Security' }, { timeout: 5000 }));
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Please fill in all password fields')).toBeTruthy();
    await fill(user, screen.getByLabelText('Current Password'), 'wrong-password');
    await fill(user, screen.getByLabelText('New Password'), 'new-password-1');
    await fill(user, screen.getByLabelText('Confirm New Password'), 'new-password-2');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('New passwords do not match')).toBeTruthy();
    expect(api.calls.some((c) => c.startsWith('PUT /api/v1/users/change-password'))).toBe(false);

    await user.clear(screen.getByLabelText('Confirm New Password'));
    await fill(user, screen.getByLabelText('Confirm New Password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText(SETTINGS_MESSAGES.wrongCurrentPassword)).toBeTruthy();
    expect(api.bodies).toContainEqual(['PUT /api/v1/users/change-password', { currentPassword: 'wrong-password', newPassword: 'new-password-1' }]);
  });
});
