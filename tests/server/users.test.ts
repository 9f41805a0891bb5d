// Portal users for administrators: list (search, filters, paging, stats), get, create (with a
// password or a setup link), edit, suspend/activate, block, delete, hard delete, restore, disable
// MFA, extend, reset login attempts; every refusal leaves the user as it was; audit rows; access.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mfaBackupCodes } from '../../server/db/schema';
import { ACCOUNT_MESSAGES } from '../../src/domain/auth';
import { USER_MESSAGES, type UserWire } from '../../src/domain/users';
import { permissionMessage } from '../../server/plugins/auth';
import { ROLE_MESSAGES } from '../../src/domain/permissions';
import { USER_SERVER_MESSAGES } from '../../server/services/users';
import { createTestContext, type TestContext } from './helpers';

const DAY = 86_400_000;

let ctx: TestContext;
let token: string;
let selfId: string;
let counter = 0;

beforeAll(async () => {
  ctx = await createTestContext();
  const admin = await ctx.createAdmin({ name: 'Ana Admin' });
  selfId = admin.id;
  token = (await ctx.login('admin', admin.email, admin.password)).token as string;
});
afterAll(async () => {
  await ctx?.close();
});

const uniqueEmail = (stem = 'person') => `${stem}${++counter}@users.example`;
const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object, as = token) =>
  ctx.request({ method, url: `/api/v1${url}`, ...(payload ? { payload } : {}), token: as });

async function createUser(overrides: Record<string, unknown> = {}): Promise<UserWire> {
  const res = await call('POST', '/users', { name: 'Uma User', email: uniqueEmail(), role: 'user', password: 'a-good-password', ...overrides });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.user;
}

async function rowOf(id: string) {
  return ctx.app.repos.users.findById(id);
}

async function auditFor(action: string, targetId: string) {
  return (await ctx.app.repos.audit.listByAction(action)).filter((r) => r.targetId === targetId);
}

async function expectRefused(res: { statusCode: number; json(): unknown }, status: number, message: string) {
  expect(res.statusCode).toBe(status);
  expect(res.json()).toMatchObject({ success: false, message });
}

describe('creating a user', () => {
  it('creates an active user with the given password who can then sign in', async () => {
    const res = await call('POST', '/users', { name: ' Pat Doe ', email: ' Pat.Doe@Example.COM ', role: 'user', password: 'secret-pass-1' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: USER_MESSAGES.created('pat.doe@example.com') });
    expect(body.data.user).toMatchObject({
      name: 'Pat Doe',
      email: 'pat.doe@example.com',
      role: 'user',
      is_active: true,
      blocked_enabled: false,
      mfa_enabled: false,
      has_password: true,
      deleted_at: null,
      created_at: ctx.clock.now().toISOString(),
    });
    expect(body.data.user).not.toHaveProperty('password_hash');
    const login = await ctx.login('admin', 'pat.doe@example.com', 'secret-pass-1');
    expect(login.statusCode).toBe(200);
    const [audit] = await auditFor('user.created', body.data.user.uuid);
    expect(audit?.after).toMatchObject({ email: 'pat.doe@example.com', role: 'user', is_active: true });
    expect(JSON.stringify(audit?.after)).not.toContain('secret-pass-1');
  });

  it('creates an inactive user without a password and emails a setup link that lets them choose one', async () => {
    const email = uniqueEmail('linked');
    const res = await call('POST', '/users', { name: 'Link Person', email, role: 'admin' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ message: USER_MESSAGES.createdWithLink(email), data: { user: { is_active: false, has_password: false, role: 'admin' } } });
    const [mail] = await ctx.app.repos.emailOutbox.listRecent({ recipient: email, limit: 1 });
    const link = /token=([A-Za-z0-9_-]{43})/.exec(mail?.bodyText ?? '')?.[1];
    expect(link).toBeDefined();

    const info = await call('GET', `/password-setup/${link}`, undefined, '');
    expect(info.json().data).toMatchObject({ email, name: 'Link Person', company: '' });
    const set = await call('POST', '/password-setup', { token: link, password: 'chosen-pass-9', confirmPassword: 'chosen-pass-9' }, '');
    expect(set.statusCode, set.body).toBe(200);
    const user = await rowOf(res.json().data.user.uuid);
    expect(user).toMatchObject({ isActive: true });
    expect((await ctx.login('admin', email, 'chosen-pass-9')).statusCode).toBe(200);
    expect(await auditFor('user.password_set', user!.id)).toHaveLength(1);
  });

  it('answers 400 with field errors for a missing name, a bad email, an unknown role and a short password', async () => {
    const res = await call('POST', '/users', { name: ' ', email: 'nope', role: 'owner', password: 'short' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { path: 'name', message: USER_MESSAGES.nameRequired },
      { path: 'email', message: USER_MESSAGES.emailInvalid },
      { path: 'role', message: USER_MESSAGES.roleInvalid },
      { path: 'password', message: USER_MESSAGES.passwordTooShort },
    ]);
  });

  it('refuses an email a live user already has, whatever its case, and creates nothing', async () => {
    const existing = await createUser();
    const before = (await ctx.app.repos.users.stats()).total;
    const res = await call('POST', '/users', { name: 'Twin', email: existing.email.toUpperCase(), role: 'user', password: 'another-pass' });
    await expectRefused(res, 409, USER_MESSAGES.duplicateEmail);
    expect((await ctx.app.repos.users.stats()).total).toBe(before);
  });
});

describe('listing users', () => {
  it('searches name and email case-insensitively with % and _ literal, filters, pages newest first and counts every live user', async () => {
    const stem = `zq${Date.now()}`;
    const a = await createUser({ name: `${stem} Alpha`, email: `${stem}.a@users.example` });
    ctx.clock.advance(1000);
    const b = await createUser({ name: 'Beta', email: `${stem}_b@users.example` });
    ctx.clock.advance(1000);
    const c = await createUser({ name: `${stem.toUpperCase()} Gamma`, email: uniqueEmail() });
    await call('PUT', `/users/${c.uuid}`, { is_active: false });

    const all = await call('GET', `/users?search=${stem}`);
    expect(all.statusCode).toBe(200);
    expect(all.json().data.users.map((u: UserWire) => u.uuid)).toEqual([c.uuid, b.uuid, a.uuid]);
    expect(all.json().data.pagination).toEqual({ total: 3, page: 1, limit: 100, pages: 1 });

    const underscore = await call('GET', `/users?search=${stem}_`);
    expect(underscore.json().data.users.map((u: UserWire) => u.uuid)).toEqual([b.uuid]);
    const percent = await call('GET', `/users?search=${stem}%25`);
    expect(percent.json().data.users).toEqual([]);

    const inactive = await call('GET', `/users?search=${stem}&is_active=false`);
    expect(inactive.json().data.users.map((u: UserWire) => u.uuid)).toEqual([c.uuid]);
    const page2 = await call('GET', `/users?search=${stem}&limit=2&page=2`);
    expect(page2.json().data.users.map((u: UserWire) => u.uuid)).toEqual([a.uuid]);
    expect(page2.json().data.pagination).toEqual({ total: 3, page: 2, limit: 2, pages: 2 });

    const stats = page2.json().data.stats;
    const live = await ctx.app.repos.users.list({}, { limit: 1000, offset: 0 });
    expect(stats).toEqual({
      total: live.length,
      active: live.filter((u) => u.isActive && !u.blockedEnabled).length,
      mfaEnabled: live.filter((u) => u.mfaEnabled).length,
    });
  });

  it('counts the unfiltered list, a blank search and include_deleted each by what they list', async () => {
    const gone = await createUser({ name: 'Counted Out' });
    await call('DELETE', `/users/${gone.uuid}`);
    const inactive = await createUser({ name: 'Counted Inactive' });
    await call('PUT', `/users/${inactive.uuid}`, { is_active: false });
    const everyone = await ctx.app.repos.users.list({ includeDeleted: true }, { limit: 1000, offset: 0 });
    const live = everyone.filter((u) => u.deletedAt === null);
    for (const [query, expected] of [
      ['', live.length],
      ['search=%20%20', live.length],
      ['include_deleted=true', everyone.length],
      ['is_active=false', live.filter((u) => !u.isActive).length],
      ['is_active=true&include_deleted=true', everyone.filter((u) => u.isActive).length],
    ] as const) {
      const res = await call('GET', `/users?limit=1&${query}`);
      expect(res.json().data.pagination.total, query).toBe(expected);
      expect(res.json().data.stats.total, query).toBe(live.length);
    }
    expect(everyone.length).toBeGreaterThan(live.length);
  });

  it('lists soft-deleted users only with include_deleted=true', async () => {
    const gone = await createUser({ name: 'Gone Soon' });
    await call('DELETE', `/users/${gone.uuid}`);
    const hidden = await call('GET', `/users?search=${encodeURIComponent(gone.email)}`);
    expect(hidden.json().data.users).toEqual([]);
    const shown = await call('GET', `/users?search=${encodeURIComponent(gone.email)}&include_deleted=true`);
    expect(shown.json().data.users).toMatchObject([{ uuid: gone.uuid, deleted_at: ctx.clock.now().toISOString() }]);
  });

  it('answers 400 for a limit over 100, a page of 0 and an is_active that is not true or false', async () => {
    for (const query of ['limit=101', 'page=0', 'is_active=yes']) {
      expect((await call('GET', `/users?${query}`)).statusCode, query).toBe(400);
    }
  });
});

describe('one user', () => {
  it('answers the user, 404 for an unknown id and 400 for a malformed one', async () => {
    const user = await createUser();
    const res = await call('GET', `/users/${user.uuid}`);
    expect(res.json()).toMatchObject({ success: true, data: { user: { uuid: user.uuid, email: user.email } } });
    await expectRefused(await call('GET', '/users/00000000-0000-4000-8000-000000000000'), 404, USER_MESSAGES.notFound);
    expect((await call('GET', '/users/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('editing a user', () => {
  it('changes name, email and role and records before and after', async () => {
    const user = await createUser({ name: 'Old Name' });
    const res = await call('PUT', `/users/${user.uuid}`, { name: 'New Name', email: 'Renamed@Users.Example' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: USER_MESSAGES.updated, data: { user: { name: 'New Name', email: 'renamed@users.example' } } });
    const [audit] = await auditFor('user.updated', user.uuid);
    expect(audit?.before).toEqual({ email: user.email, name: 'Old Name' });
    expect(audit?.after).toEqual({ email: 'renamed@users.example', name: 'New Name' });
  });

  it('suspends and activates a user-role user', async () => {
    const user = await createUser({ name: 'Toggle Me' });
    const off = await call('PUT', `/users/${user.uuid}`, { is_active: false });
    expect(off.json()).toMatchObject({ message: USER_MESSAGES.suspended('Toggle Me'), data: { user: { is_active: false } } });
    const on = await call('PUT', `/users/${user.uuid}`, { is_active: true });
    expect(on.json()).toMatchObject({ message: USER_MESSAGES.activated('Toggle Me'), data: { user: { is_active: true } } });
    expect(await auditFor('user.suspended', user.uuid)).toHaveLength(1);
    expect(await auditFor('user.activated', user.uuid)).toHaveLength(1);
  });

  it('refuses to suspend an admin-role user or oneself, and changes nothing', async () => {
    const admin = await createUser({ role: 'admin' });
    await expectRefused(await call('PUT', `/users/${admin.uuid}`, { is_active: false, name: 'Changed' }), 403, USER_MESSAGES.adminSuspendRefused);
    expect(await rowOf(admin.uuid)).toMatchObject({ isActive: true, name: admin.name });
    await expectRefused(await call('PUT', `/users/${selfId}`, { is_active: false }), 403, USER_MESSAGES.selfRefused);
    expect(await rowOf(selfId)).toMatchObject({ isActive: true });
  });

  it('refuses an email another live user has', async () => {
    const a = await createUser();
    const b = await createUser();
    await expectRefused(await call('PUT', `/users/${b.uuid}`, { email: a.email }), 409, USER_MESSAGES.duplicateEmail);
    expect((await rowOf(b.uuid))?.email).toBe(b.email);
  });

  it('answers 400 for an unknown role and an empty name', async () => {
    const user = await createUser();
    expect((await call('PUT', `/users/${user.uuid}`, { role: 'owner' })).statusCode).toBe(400);
    await expectRefused(await call('PUT', `/users/${user.uuid}`, { name: '  ' }), 400, USER_MESSAGES.nameRequired);
  });
});

describe('the last active administrator', () => {
  it('cannot demote itself while it is the only one; once another administrator is active, that one can demote it', async () => {
    const solo = await createTestContext();
    try {
      const only = await solo.createAdmin({ name: 'Only Admin' });
      const other = await solo.createAdmin({ name: 'Other Admin', isActive: false });
      const as = async (account: { email: string; password: string }) => (await solo.login('admin', account.email, account.password)).token as string;
      const req = (token: string, method: 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
        solo.request({ method, url: `/api/v1${url}`, ...(payload ? { payload } : {}), token });

      // Only Owners can take the Owner role (nobody grants or takes what they do not hold), so the
      // last active one can only be reached by itself: keeping the right to manage users, it is
      // the last-Owner lock that refuses; without it, taking away one's own user management.
      const own = await as(only);
      const userManagement = (await solo.app.repos.roles.findByKey('user_management'))!.id;
      await expectRefused(await req(own, 'PUT', `/users/${only.id}`, { role_ids: [userManagement] }), 409, USER_MESSAGES.lastAdminRefused);
      await expectRefused(await req(own, 'PUT', `/users/${only.id}`, { role: 'user' }), 403, ROLE_MESSAGES.selfLockout);
      await expectRefused(await req(own, 'POST', `/users/${only.id}/block`, { reason: 'Testing' }), 403, USER_MESSAGES.selfRefused);
      await expectRefused(await req(own, 'DELETE', `/users/${only.id}`), 403, USER_MESSAGES.selfRefused);
      expect(await solo.app.repos.users.findById(only.id)).toMatchObject({ role: 'admin', blockedEnabled: false, deletedAt: null });

      // With a second active administrator, the first one can be demoted.
      await solo.app.repos.users.update(other.id, { isActive: true });
      const demoted = await req(await as(other), 'PUT', `/users/${only.id}`, { role: 'user' });
      expect(demoted.json()).toMatchObject({ data: { user: { role: 'user' } } });
    } finally {
      await solo.close();
    }
  });

});

describe('blocking and unblocking', () => {
  it('blocks with a trimmed reason, keeps the first blocked moment, and unblocks', async () => {
    const user = await createUser({ name: 'Blocky' });
    const res = await call('POST', `/users/${user.uuid}/block`, { reason: '  Left the company ' });
    expect(res.json()).toMatchObject({ message: USER_MESSAGES.blocked('Blocky'), data: { user: { blocked_enabled: true, blocked_reason: 'Left the company' } } });
    const first = (await rowOf(user.uuid))?.blockedAt;
    ctx.clock.advance(60_000);
    await call('POST', `/users/${user.uuid}/block`, { reason: 'Another reason' });
    expect((await rowOf(user.uuid))?.blockedAt).toEqual(first);
    const un = await call('POST', `/users/${user.uuid}/unblock`);
    expect(un.json()).toMatchObject({ message: USER_MESSAGES.unblocked('Blocky'), data: { user: { blocked_enabled: false, blocked_reason: null } } });
    expect(await auditFor('user.blocked', user.uuid)).toHaveLength(2);
    expect(await auditFor('user.unblocked', user.uuid)).toHaveLength(1);
  });

  it('refuses a missing or over-long reason and blocking oneself', async () => {
    const user = await createUser();
    await expectRefused(await call('POST', `/users/${user.uuid}/block`, {}), 400, USER_MESSAGES.blockReasonRequired);
    await expectRefused(await call('POST', `/users/${user.uuid}/block`, { reason: '   ' }), 400, USER_MESSAGES.blockReasonRequired);
    expect((await call('POST', `/users/${user.uuid}/block`, { reason: 'x'.repeat(501) })).statusCode).toBe(400);
    await expectRefused(await call('POST', `/users/${selfId}/block`, { reason: 'Me' }), 403, USER_MESSAGES.selfRefused);
    expect(await rowOf(user.uuid)).toMatchObject({ blockedEnabled: false });
    expect(await rowOf(selfId)).toMatchObject({ blockedEnabled: false });
  });
});

describe('deleting, restoring and hard-deleting', () => {
  it('soft-deletes, restores and then, once deleted again, removes the row while the audit keeps its id', async () => {
    const user = await createUser({ name: 'Cycle' });
    const del = await call('DELETE', `/users/${user.uuid}`);
    expect(del.json()).toMatchObject({ message: USER_MESSAGES.deleted('Cycle'), data: { user: { deleted_at: ctx.clock.now().toISOString() } } });
    await expectRefused(await call('DELETE', `/users/${user.uuid}`), 404, USER_MESSAGES.notFound);
    const restored = await call('POST', `/users/${user.uuid}/restore`);
    expect(restored.json()).toMatchObject({ message: USER_MESSAGES.restored('Cycle'), data: { user: { deleted_at: null } } });

    await expectRefused(await call('DELETE', `/users/${user.uuid}/hard-delete`), 409, USER_SERVER_MESSAGES.notDeleted);
    expect(await rowOf(user.uuid)).not.toBeNull();
    await call('DELETE', `/users/${user.uuid}`);
    const hard = await call('DELETE', `/users/${user.uuid}/hard-delete`);
    expect(hard.json()).toMatchObject({ message: USER_MESSAGES.hardDeleted('Cycle'), data: { uuid: user.uuid } });
    expect(await rowOf(user.uuid)).toBeNull();
    expect(await auditFor('user.hard_deleted', user.uuid)).toHaveLength(1);
    expect(await auditFor('user.created', user.uuid)).toHaveLength(1);
  });

  it('refuses to restore a user whose email a live user now has, and to delete oneself', async () => {
    const user = await createUser();
    await call('DELETE', `/users/${user.uuid}`);
    await createUser({ email: user.email });
    await expectRefused(await call('POST', `/users/${user.uuid}/restore`), 409, USER_MESSAGES.duplicateEmail);
    expect((await rowOf(user.uuid))?.deletedAt).not.toBeNull();
    await expectRefused(await call('DELETE', `/users/${selfId}`), 403, USER_MESSAGES.selfRefused);
    expect((await rowOf(selfId))?.deletedAt).toBeNull();
  });
});

describe('MFA, expiry and login attempts', () => {
  it('disables MFA and forgets the secret', async () => {
    const user = await createUser({ name: 'Mfa Person' });
    await ctx.app.repos.users.update(user.uuid, { mfaEnabled: true, mfaSecret: 'encrypted-secret', mfaPendingSecret: 'pending', mfaLastStep: 42 });
    await ctx.database.db.insert(mfaBackupCodes).values([{ userId: user.uuid, codeHash: 'a' }, { userId: user.uuid, codeHash: 'b' }]);
    const res = await call('POST', `/users/${user.uuid}/disable-mfa`);
    expect(res.json()).toMatchObject({ message: USER_MESSAGES.mfaDisabled('Mfa Person'), data: { user: { mfa_enabled: false } } });
    expect(await rowOf(user.uuid)).toMatchObject({ mfaEnabled: false, mfaSecret: null, mfaPendingSecret: null, mfaLastStep: null });
    // The backup codes go with the secret.
    expect(await ctx.database.db.select().from(mfaBackupCodes).where(eq(mfaBackupCodes.userId, user.uuid))).toEqual([]);
    expect(await auditFor('user.mfa_disabled', user.uuid)).toHaveLength(1);
  });

  it('extends from now when there is no future expiry and from the expiry when there is, and refuses bad days', async () => {
    const user = await createUser({ name: 'Ext' });
    const first = await call('PATCH', `/users/${user.uuid}/extend-expiration`, { days: 30 });
    const expected = new Date(ctx.clock.now().getTime() + 30 * DAY);
    expect(first.json()).toMatchObject({ message: USER_MESSAGES.extended('Ext', 30), data: { user: { account_expires_at: expected.toISOString() } } });
    const second = await call('PATCH', `/users/${user.uuid}/extend-expiration`, { days: 1 });
    expect(second.json().data.user.account_expires_at).toBe(new Date(expected.getTime() + DAY).toISOString());
    for (const days of [0, 3651, 1.5, 'ten']) {
      expect((await call('PATCH', `/users/${user.uuid}/extend-expiration`, { days })).statusCode, String(days)).toBe(400);
    }
    expect((await rowOf(user.uuid))?.accountExpiresAt?.toISOString()).toBe(new Date(expected.getTime() + DAY).toISOString());
    const audits = await auditFor('user.extended', user.uuid);
    expect(audits.map((a) => (a.after as { days: number }).days).sort()).toEqual([1, 30]);
  });

  it('resets failed login attempts and the lock', async () => {
    const user = await createUser({ name: 'Locked' });
    await ctx.app.repos.users.update(user.uuid, { failedLoginAttempts: 3, lockedUntil: new Date(ctx.clock.now().getTime() + 60_000) });
    const res = await call('POST', `/users/${user.uuid}/reset-login-attempts`);
    expect(res.json()).toMatchObject({ message: USER_MESSAGES.attemptsReset('Locked'), data: { user: { failed_login_attempts: 0, locked_until: null } } });
  });

  it('answers 404 for actions on an unknown user', async () => {
    const missing = '00000000-0000-4000-8000-000000000001';
    for (const path of ['unblock', 'disable-mfa', 'reset-login-attempts', 'restore']) {
      await expectRefused(await call('POST', `/users/${missing}/${path}`), 404, USER_MESSAGES.notFound);
    }
  });
});

describe('who may call the users endpoints', () => {
  it('answers 401 without a token and 403 to a customer', async () => {
    expect((await call('GET', '/users', undefined, '')).statusCode).toBe(401);
    const customer = await ctx.createCustomer({ isActive: true });
    const customerToken = (await ctx.login('customer', customer.email, customer.password)).token as string;
    await expectRefused(await call('GET', '/users', undefined, customerToken), 403, ACCOUNT_MESSAGES.adminsOnly);
    await expectRefused(await call('POST', '/users', { name: 'X', email: uniqueEmail(), role: 'user' }, customerToken), 403, ACCOUNT_MESSAGES.adminsOnly);
  });

  it("refuses a portal user without user management: a read-only Admin cannot list, create or promote users, itself included", async () => {
    const plain = await ctx.createAdmin({ role: 'user', name: 'Plain User' });
    const plainToken = (await ctx.login('admin', plain.email, plain.password)).token as string;
    await expectRefused(await call('GET', '/users', undefined, plainToken), 403, permissionMessage('users:read'));
    await expectRefused(await call('POST', '/users', { name: 'X', email: uniqueEmail(), role: 'admin' }, plainToken), 403, permissionMessage('users:manage'));
    await expectRefused(await call('PUT', `/users/${plain.id}`, { role: 'admin' }, plainToken), 403, permissionMessage('users:manage'));
    expect((await rowOf(plain.id))?.role).toBe('user');
    // Their own profile and password stay theirs to change.
    expect((await call('PUT', '/users/profile', { name: 'Plain Person' }, plainToken)).statusCode).toBe(200);
  });
});

describe('the API documentation', () => {
  it('lists every users, profile and change-password route without secret fields', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/api/docs/json' })).json();
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'GET /api/v1/users',
        'POST /api/v1/users',
        'GET /api/v1/users/{uuid}',
        'PUT /api/v1/users/{uuid}',
        'DELETE /api/v1/users/{uuid}',
        'DELETE /api/v1/users/{uuid}/hard-delete',
        'POST /api/v1/users/{uuid}/restore',
        'POST /api/v1/users/{uuid}/block',
        'POST /api/v1/users/{uuid}/unblock',
        'POST /api/v1/users/{uuid}/disable-mfa',
        'PATCH /api/v1/users/{uuid}/extend-expiration',
        'POST /api/v1/users/{uuid}/reset-login-attempts',
        'PUT /api/v1/users/profile',
        'PUT /api/v1/users/change-password',
        'PUT /api/v1/customers/profile',
        'PUT /api/v1/customers/change-password',
      ]),
    );
    const users = JSON.stringify(Object.fromEntries(Object.entries(doc.paths).filter(([p]) => p.startsWith('/api/v1/users'))));
    expect(users).not.toMatch(/passwordHash|password_hash|mfaSecret|mfa_secret/);
  });
});
