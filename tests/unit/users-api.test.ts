import { describe, expect, it } from 'vitest';
import { normalisePortalUser, userListSearchParams, userStatsOf } from '../../src/api/users';
import { UNEXPECTED_RESPONSE } from '../../src/api/client';
import { USERS_FETCH_LIMIT, type UserWire } from '../../src/domain/users';
import { apiAnswering, envelope } from '../fixtures/api-fetch';
import { portalUserFixture, userWireOf } from '../fixtures/portal-users';

const user = portalUserFixture({ role: 'admin', mfaEnabled: true, failedLoginAttempts: 2, lockedUntil: '2026-11-21T00:00:00.000Z' });

const wire: UserWire = userWireOf(user);

const camel = {
  uuid: user.uuid,
  name: user.name,
  email: user.email,
  role: user.role,
  isActive: user.isActive,
  blockedEnabled: user.blockedEnabled,
  blockedReason: user.blockedReason,
  mfaEnabled: user.mfaEnabled,
  lastLogin: user.lastLogin,
  createdAt: user.createdAt,
  updatedAt: user.updatedAt,
  accountExpiresAt: user.accountExpiresAt,
  failedLoginAttempts: user.failedLoginAttempts,
  lockedUntil: user.lockedUntil,
  deletedAt: user.deletedAt,
  hasPassword: user.hasPassword,
  roles: user.roles,
};

describe('normalisePortalUser', () => {
  it('reads the snake_case wire user and the camelCase one alike', () => {
    expect(normalisePortalUser(wire)).toEqual(user);
    expect(normalisePortalUser(camel)).toEqual(user);
  });

  it('rejects a record without a uuid or an email', () => {
    expect(normalisePortalUser({ ...wire, uuid: undefined })).toBeNull();
    expect(normalisePortalUser({ ...wire, email: undefined })).toBeNull();
    expect(normalisePortalUser('nope')).toBeNull();
  });

  it('leaves missing dates missing and reads an unknown role as user', () => {
    const read = normalisePortalUser({ uuid: 'u-1', email: 'a@b.example', role: 'root' });
    expect(read).toMatchObject({ role: 'user', createdAt: null, updatedAt: null, failedLoginAttempts: 0, deletedAt: null, roles: [] });
  });

  it('reads the roles a user holds, skipping entries it cannot name', () => {
    const roles = [{ id: 'r-1', key: 'billing', name: 'Billing' }, { id: 'r-2', key: 'nope', name: 'Night shift' }, { id: 'r-3' }, 'x'];
    expect(normalisePortalUser({ ...wire, roles })?.roles).toEqual([
      { id: 'r-1', key: 'billing', name: 'Billing' },
      { id: 'r-2', key: null, name: 'Night shift' },
    ]);
  });
});

describe('userListSearchParams', () => {
  it('asks for page 1 and the users page limit by default and leaves the filters out', () => {
    expect(userListSearchParams({})).toEqual({ page: 1, limit: USERS_FETCH_LIMIT, search: undefined, is_active: undefined, include_deleted: undefined });
  });

  it('sends the trimmed search, is_active and include_deleted when given', () => {
    expect(userListSearchParams({ page: 2, limit: 10, search: '  rui ', isActive: false, includeDeleted: true })).toEqual({
      page: 2,
      limit: 10,
      search: 'rui',
      is_active: false,
      include_deleted: true,
    });
  });
});

describe('userStatsOf', () => {
  it('counts live users, the active and unblocked ones, and those with MFA on', () => {
    const stats = userStatsOf([
      portalUserFixture({ uuid: 'a', mfaEnabled: true }),
      portalUserFixture({ uuid: 'b', blockedEnabled: true }),
      portalUserFixture({ uuid: 'c', isActive: false, mfaEnabled: true }),
      portalUserFixture({ uuid: 'd', deletedAt: '2026-01-01T00:00:00.000Z', mfaEnabled: true }),
    ]);
    expect(stats).toEqual({ total: 3, active: 1, mfaEnabled: 2 });
  });
});

describe('users api', () => {
  it('lists users with the query on GET /users and reads users, pagination and the server stats', async () => {
    const stats = { total: 40, active: 31, mfa_enabled: 12 };
    const { api, sent } = apiAnswering(200, envelope({ users: [wire, { junk: true }], pagination: { total: 40, page: 1, limit: 100, pages: 1 }, stats }));
    const result = await api.users.list({ search: 'rui', isActive: true });

    expect(sent()).toEqual({ path: '/api/v1/users', method: 'GET', body: undefined, query: { page: '1', limit: '100', search: 'rui', is_active: 'true' } });
    expect(result).toMatchObject({ ok: true, data: { users: [user], pagination: { total: 40, page: 1, limit: 100, pages: 1 }, stats: { total: 40, active: 31, mfaEnabled: 12 } } });
  });

  it('computes the stats from the rows when the server sends none', async () => {
    const { api } = apiAnswering(200, envelope({ users: [camel, { ...camel, uuid: 'x', is_active: false, isActive: false, mfaEnabled: false }] }));
    const result = await api.users.list();
    expect(result.ok && result.data.stats).toEqual({ total: 2, active: 1, mfaEnabled: 1 });
    expect(result.ok && result.data.pagination).toEqual({ total: 2, page: 1, limit: USERS_FETCH_LIMIT, pages: 1 });
  });

  it('passes a refusal through with the server message', async () => {
    const { api } = apiAnswering(403, { success: false, message: 'Admin access required' });
    expect(await api.users.list()).toEqual({ ok: false, status: 403, message: 'Admin access required' });
  });

  it.each([
    ['get', () => ['GET', `/api/v1/users/${user.uuid}`, undefined]],
    ['restore', () => ['POST', `/api/v1/users/${user.uuid}/restore`, {}]],
    ['unblock', () => ['POST', `/api/v1/users/${user.uuid}/unblock`, {}]],
    ['disableMfa', () => ['POST', `/api/v1/users/${user.uuid}/disable-mfa`, {}]],
    ['resetLoginAttempts', () => ['POST', `/api/v1/users/${user.uuid}/reset-login-attempts`, {}]],
  ] as const)('%s sends the user uuid to its endpoint and reads the answered user', async (method, expected) => {
    const { api, sent } = apiAnswering(200, envelope({ user: wire }));
    const result = await api.users[method](user.uuid);
    const [httpMethod, path, body] = expected();
    expect(sent()).toMatchObject({ method: httpMethod, path, body });
    expect(result).toMatchObject({ ok: true, data: user });
  });

  it('creates a user with POST /users and the payload as given', async () => {
    const { api, sent } = apiAnswering(201, envelope({ user: wire }, 'User created'));
    const payload = { name: 'Rui Costa', email: 'rui.costa@example.com', role: 'admin' as const };
    const result = await api.users.create(payload);
    expect(sent()).toMatchObject({ method: 'POST', path: '/api/v1/users', body: payload });
    expect(result).toEqual({ ok: true, status: 201, data: user, message: 'User created' });
  });

  it('suspends with PUT /users/{uuid} and only is_active', async () => {
    const { api, sent } = apiAnswering(200, envelope({ user: { ...wire, is_active: false } }));
    const result = await api.users.update(user.uuid, { is_active: false });
    expect(sent()).toMatchObject({ method: 'PUT', path: `/api/v1/users/${user.uuid}`, body: { is_active: false } });
    expect(result.ok && result.data.isActive).toBe(false);
  });

  it('blocks with the reason in the body and extends with the days in a PATCH', async () => {
    const blocking = apiAnswering(200, envelope({ user: wire }));
    await blocking.api.users.block(user.uuid, 'Left the company');
    expect(blocking.sent()).toMatchObject({ method: 'POST', path: `/api/v1/users/${user.uuid}/block`, body: { reason: 'Left the company' } });

    const extending = apiAnswering(200, envelope({ user: wire }));
    await extending.api.users.extendExpiration(user.uuid, 90);
    expect(extending.sent()).toMatchObject({ method: 'PATCH', path: `/api/v1/users/${user.uuid}/extend-expiration`, body: { days: 90 } });
  });

  it('deletes softly with DELETE /users/{uuid} and for good with DELETE /hard-delete, answering no data', async () => {
    const soft = apiAnswering(200, envelope(null, 'User deleted'));
    expect(await soft.api.users.remove(user.uuid)).toEqual({ ok: true, status: 200, data: null, message: 'User deleted' });
    expect(soft.sent()).toMatchObject({ method: 'DELETE', path: `/api/v1/users/${user.uuid}` });

    const hard = apiAnswering(200, envelope({}));
    expect((await hard.api.users.hardDelete(user.uuid)).ok).toBe(true);
    expect(hard.sent()).toMatchObject({ method: 'DELETE', path: `/api/v1/users/${user.uuid}/hard-delete` });
  });

  it('answers a 409 with its message and an unreadable user as an unexpected response', async () => {
    const duplicate = apiAnswering(409, { success: false, message: 'A user with this email address already exists' });
    expect(await duplicate.api.users.create({ name: 'A', email: 'a@b.example', role: 'user' })).toEqual({
      ok: false,
      status: 409,
      message: 'A user with this email address already exists',
    });
    const unreadable = apiAnswering(200, envelope({ user: { name: 'no uuid' } }));
    expect(await unreadable.api.users.unblock('u-1')).toEqual({ ok: false, status: 200, message: UNEXPECTED_RESPONSE });
  });

  it('escapes the uuid in the path', async () => {
    const { api, sent } = apiAnswering(200, envelope({ user: wire }));
    await api.users.get('a/b');
    expect(sent().path).toBe('/api/v1/users/a%2Fb');
  });
});
