// The signed-in account's own profile and password, for portal users and customers: success
// shapes, every refusal leaving the password as it was, the lockout count, audit rows, access.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, MAX_FAILED_LOGINS } from '../../src/domain/auth';
import { PASSWORD_MESSAGES } from '../../src/domain/password';
import { SETTINGS_MESSAGES, USER_FIELD_LIMITS, USER_MESSAGES } from '../../src/domain/users';
import { CUSTOMERS_ONLY_MESSAGE } from '../../server/plugins/auth';
import { tokenPredatesPasswordChange } from '../../server/services/profile';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

const put = (url: string, payload: object, token: string | null) => ctx.request({ method: 'PUT', url: `/api/v1${url}`, payload, token });

async function signedIn(kind: 'admin' | 'customer') {
  const account = kind === 'admin' ? await ctx.createAdmin({ name: 'Self Person' }) : await ctx.createCustomer({ name: 'Self Customer', isActive: true });
  const token = (await ctx.login(kind, account.email, account.password)).token as string;
  return { ...account, token };
}

for (const kind of ['admin', 'customer'] as const) {
  const base = kind === 'admin' ? '/users' : '/customers';
  const dataKey = kind === 'admin' ? 'user' : 'customer';
  const audited = kind === 'admin' ? 'user' : 'customer';

  describe(`${kind}: changing one's own password`, () => {
    it('changes it with the right current password, answers a fresh token, and the new password signs in', async () => {
      const me = await signedIn(kind);
      ctx.clock.advance(2000);
      const res = await put(`${base}/change-password`, { currentPassword: me.password, newPassword: 'brand-new-pass', confirmPassword: 'brand-new-pass' }, me.token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ success: true, message: SETTINGS_MESSAGES.passwordChanged, data: { [dataKey]: { uuid: me.id, email: me.email } } });
      expect(typeof res.json().data.token).toBe('string');
      expect((await ctx.login(kind, me.email, me.password)).statusCode).toBe(401);
      expect((await ctx.login(kind, me.email, 'brand-new-pass')).statusCode).toBe(200);
      const audits = (await ctx.app.repos.audit.listByAction(`${audited}.password_changed`)).filter((a) => a.targetId === me.id);
      expect(audits).toHaveLength(1);
      expect(JSON.stringify(audits[0])).not.toContain('brand-new-pass');

      // The old token predates the change; the fresh one does not.
      const row = kind === 'admin' ? await ctx.app.repos.users.findLiveById(me.id) : await ctx.app.repos.customers.findLiveById(me.id);
      const iat = (t: string) => (JSON.parse(Buffer.from(t.split('.')[1]!, 'base64url').toString()) as { iat: number }).iat;
      expect(tokenPredatesPasswordChange(row!, iat(me.token))).toBe(true);
      expect(tokenPredatesPasswordChange(row!, iat(res.json().data.token))).toBe(false);

      // So the server refuses the old token and takes the fresh one.
      const me2 = kind === 'admin' ? '/auth/me' : '/customers/auth/me';
      expect((await ctx.request({ method: 'GET', url: `/api/v1${me2}`, token: me.token })).statusCode).toBe(401);
      expect((await ctx.request({ method: 'GET', url: `/api/v1${me2}`, token: res.json().data.token })).statusCode).toBe(200);
    });

    it('refuses a wrong current password, counts it toward the lockout, and locks after too many', async () => {
      const me = await signedIn(kind);
      const wrong = { currentPassword: 'not-my-password', newPassword: 'brand-new-pass' };
      const res = await put(`${base}/change-password`, wrong, me.token);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: SETTINGS_MESSAGES.wrongCurrentPassword, errors: [{ path: 'currentPassword', message: SETTINGS_MESSAGES.wrongCurrentPassword }] });
      const repo = kind === 'admin' ? ctx.app.repos.users : ctx.app.repos.customers;
      expect((await repo.findLiveById(me.id))?.failedLoginAttempts).toBe(1);
      for (let i = 1; i < MAX_FAILED_LOGINS; i++) await put(`${base}/change-password`, wrong, me.token);
      const locked = await put(`${base}/change-password`, { currentPassword: me.password, newPassword: 'brand-new-pass' }, me.token);
      expect(locked.statusCode).toBe(423);
      expect((await ctx.login(kind, me.email, me.password)).statusCode).toBe(423);
      ctx.clock.advanceMinutes(60);
      expect((await ctx.login(kind, me.email, me.password)).statusCode).toBe(200);
      const failures = (await ctx.app.repos.audit.listByAction(`${audited}.password_change_failed`)).filter((a) => a.targetId === me.id);
      expect(failures).toHaveLength(MAX_FAILED_LOGINS);
    });

    it('refuses missing, mismatched, short and unchanged new passwords and keeps the old one', async () => {
      const me = await signedIn(kind);
      const cases: [object, string][] = [
        [{ currentPassword: me.password, newPassword: '' }, PASSWORD_MESSAGES.allRequired],
        [{ newPassword: 'brand-new-pass' }, PASSWORD_MESSAGES.allRequired],
        [{ currentPassword: me.password, newPassword: 'brand-new-pass', confirmPassword: 'brand-new-pasS' }, PASSWORD_MESSAGES.mismatch],
        [{ currentPassword: me.password, newPassword: 'short' }, PASSWORD_MESSAGES.tooShort],
        [{ currentPassword: me.password, newPassword: me.password }, SETTINGS_MESSAGES.samePassword],
      ];
      for (const [payload, message] of cases) {
        const res = await put(`${base}/change-password`, payload, me.token);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().message).toBe(message);
      }
      expect((await ctx.login(kind, me.email, me.password)).statusCode).toBe(200);
    });
  });

  describe(`${kind}: updating one's own profile`, () => {
    it('changes the name, records it, and refuses an empty one', async () => {
      const me = await signedIn(kind);
      const res = await put(`${base}/profile`, { name: '  Renamed Self ' }, me.token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ message: SETTINGS_MESSAGES.profileUpdated, data: { [dataKey]: { uuid: me.id, name: 'Renamed Self' } } });
      const [audit] = (await ctx.app.repos.audit.listByAction(`${audited}.profile_updated`)).filter((a) => a.targetId === me.id);
      expect(audit).toMatchObject({ before: { name: me.row.name }, after: { name: 'Renamed Self' } });
      const empty = await put(`${base}/profile`, { name: ' ' }, me.token);
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBe(USER_MESSAGES.nameRequired);
      const long = await put(`${base}/profile`, { name: 'x'.repeat(USER_FIELD_LIMITS.name + 1) }, me.token);
      expect(long.statusCode).toBe(400);
      expect(long.json().message).toBe(USER_MESSAGES.nameTooLong);
    });
  });
}

describe('customer profile fields', () => {
  it('sets company, phone and address, clears a blank phone and refuses an empty company', async () => {
    const me = await signedIn('customer');
    const res = await put('/customers/profile', { name: 'C Person', company: ' NewCo ', phone: ' +1 555 ', address: '1 Road' }, me.token);
    expect(res.json().data.customer).toMatchObject({ company: 'NewCo', phone: '+1 555', address: '1 Road' });
    const cleared = await put('/customers/profile', { name: 'C Person', phone: '' }, me.token);
    expect(cleared.json().data.customer).toMatchObject({ phone: null, company: 'NewCo' });
    expect((await put('/customers/profile', { name: 'C Person', company: '' }, me.token)).statusCode).toBe(400);
    expect((await ctx.app.repos.customers.findLiveById(me.id))?.company).toBe('NewCo');
  });
});

describe('who may change which profile', () => {
  it('answers 401 without a token, 403 to a customer on the users routes and to an admin on the customers routes', async () => {
    expect((await put('/users/profile', { name: 'X' }, null)).statusCode).toBe(401);
    const admin = await signedIn('admin');
    const customer = await signedIn('customer');
    const toUsers = await put('/users/change-password', { currentPassword: customer.password, newPassword: 'brand-new-pass' }, customer.token);
    expect(toUsers.statusCode).toBe(403);
    expect(toUsers.json().message).toBe(ACCOUNT_MESSAGES.adminsOnly);
    const toCustomers = await put('/customers/profile', { name: 'X' }, admin.token);
    expect(toCustomers.statusCode).toBe(403);
    expect(toCustomers.json().message).toBe(CUSTOMERS_ONLY_MESSAGE);
  });
});
