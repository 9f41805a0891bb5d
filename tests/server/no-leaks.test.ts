// The leak scan every server test's answers go through (tests/server/helpers.ts): it must catch
// each kind of secret, and the answers that come nearest to them (a user with MFA on and a
// password, a customer's profile, a sign-in) must pass it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth/passwords';
import { DEMO_CREDENTIALS } from '../../server/simulator/options';
import { assertNoLeak, createTestContext, TEST_JWT_SECRET, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

describe('the leak scan', () => {
  it('catches a password hash, the signing secret, stored MFA secrets and their columns, backup-code hashes', async () => {
    const samples = [
      JSON.stringify({ data: { hash: await hashPassword('a password') } }),
      JSON.stringify({ data: { note: TEST_JWT_SECRET } }),
      JSON.stringify({ data: { user: { mfaSecret: 'x' } } }),
      JSON.stringify({ data: { user: { password_hash: null } } }),
      JSON.stringify({ data: { codes: [{ code_hash: 'ab' }] } }),
      JSON.stringify({ data: { secret: 'v1:AAAAAAAAAAAA:BBBBBBBBBBBBBBBB:CCCCCCCCCCCCCCCCCCCC' } }),
      JSON.stringify({ data: { provider: { clientSecret: DEMO_CREDENTIALS.clientSecret } } }),
    ];
    for (const body of samples) expect(() => assertNoLeak('sample', body), body).toThrow(/carries something secret/);
  });

  it('lets through what the portal does answer about accounts: users with MFA and passwords, customers, a sign-in', async () => {
    const admin = await ctx.createAdmin({ mfaEnabled: false });
    await ctx.createAdmin({ mfaEnabled: true, mfaSecret: 'v1:AAAAAAAAAAAA:BBBBBBBBBBBBBBBB:CCCCCCCCCCCCCCCCCCCC' });
    await ctx.createCustomer({ isActive: true });
    const login = await ctx.login('admin', admin.email, admin.password);
    expect(login.statusCode).toBe(200);
    for (const url of ['/api/v1/users', '/api/v1/customers', '/api/v1/auth/me', '/api/v1/dashboard/summary']) {
      const res = await ctx.request({ method: 'GET', url, token: login.token });
      expect(res.statusCode, url).toBe(200);
    }
  });

  it("catches another account's session token, and lets the caller's own through", async () => {
    const first = await ctx.createAdmin();
    const second = await ctx.createAdmin();
    const mine = (await ctx.login('admin', first.email, first.password)).token!;
    const theirs = (await ctx.login('admin', second.email, second.password)).token!;
    expect(mine).not.toBe(theirs);
    const sample = (token: string) => JSON.stringify({ data: { token } });
    expect(() => assertNoLeak('sample', sample(theirs), [theirs])).toThrow(/another account's session token/);
    expect(() => assertNoLeak('sample', sample(mine), [theirs])).not.toThrow();
    // A password change answers the caller's fresh token: that one is theirs to have.
    const changed = await ctx.request({
      method: 'PUT',
      url: '/api/v1/users/change-password',
      token: mine,
      payload: { currentPassword: first.password, newPassword: 'A-new-Passw0rd!', confirmPassword: 'A-new-Passw0rd!' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data.token).toEqual(expect.any(String));
  });
});
