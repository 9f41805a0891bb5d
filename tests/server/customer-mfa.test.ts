// Customers' own MFA: the same TOTP and backup codes as portal users, under
// /customers/mfa, and the customer sign-in's code step at /customers/auth/login/mfa.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, LOCKOUT_MINUTES, MAX_FAILED_LOGINS } from '../../src/domain/auth';
import { BACKUP_CODE_COUNT, MFA_CHALLENGE_SECONDS, MFA_MESSAGES, type MfaSetupWire } from '../../src/domain/mfa';
import { SETTINGS_MESSAGES } from '../../src/domain/users';
import { totpCode } from '../../server/auth/totp';
import { createTestContext, type TestContext } from './helpers';
import { mfaSteps } from './mfa-fixtures';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

const { post, sessionOf, nextCode, enableMfa, challengeOf, loginMfa, mfaColumns: customerColumns, backupRows, auditActions } = mfaSteps(() => ctx, 'customer');

describe('a customer turns MFA on', () => {
  it('sets up a secret bound to the customer, verifies the first code and answers 8 backup codes', async () => {
    const customer = await ctx.createCustomer();
    const token = await sessionOf(customer);
    const early = await post('/customers/mfa/verify', token, { code: '123456' });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(MFA_MESSAGES.setupFirst);

    const setup = await post('/customers/mfa/setup', token);
    expect(setup.statusCode).toBe(200);
    const data = setup.json().data as MfaSetupWire;
    expect(data.otpauthUri).toContain(encodeURIComponent(customer.email));
    expect((await customerColumns(customer.id)).mfa_pending_secret).toMatch(/^v1:/);

    const right = await totpCode(data.secret, ctx.clock.now());
    const wrong = await post('/customers/mfa/verify', token, { code: right === '000000' ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(MFA_MESSAGES.wrongCode);

    const verify = await post('/customers/mfa/verify', token, { code: right });
    expect(verify.statusCode).toBe(200);
    expect(verify.json().data.backupCodes).toHaveLength(BACKUP_CODE_COUNT);
    expect((await customerColumns(customer.id)).mfa_enabled).toBe(true);
    expect(await backupRows(customer.id)).toHaveLength(BACKUP_CODE_COUNT);
    expect((await ctx.request({ method: 'GET', url: '/api/v1/customers/auth/me', token })).json().data.customer.mfaEnabled).toBe(true);
    expect((await post('/customers/mfa/setup', token)).statusCode).toBe(409);
    expect(await auditActions(customer.id)).toEqual(expect.arrayContaining(['customer.mfa_setup_started', 'customer.mfa_enable_failed', 'customer.mfa_enabled']));
  });

  it("does not let a portal user's session use the customer routes, nor a customer's the portal ones", async () => {
    const admin = await ctx.createAdmin();
    const adminToken = (await ctx.login('admin', admin.email, admin.password)).token;
    expect((await post('/customers/mfa/setup', adminToken)).statusCode).toBe(403);
    const customer = await ctx.createCustomer();
    expect((await post('/auth/mfa/setup', await sessionOf(customer))).statusCode).toBe(403);
    expect((await customerColumns(customer.id)).mfa_pending_secret).toBeNull();
  });
});

describe('a customer with MFA on signs in', () => {
  it('answers mfaRequired with a challenge and no token, then signs in with a current code', async () => {
    const customer = await ctx.createCustomer();
    const { secret } = await enableMfa(customer);
    const login = await ctx.login('customer', customer.email, customer.password);
    expect(login.statusCode).toBe(200);
    expect(login.body).toMatchObject({ success: true, message: MFA_MESSAGES.codeRequired, data: { mfaRequired: true } });
    expect(login.token).toBeNull();
    expect(login.raw).not.toContain('"customer"');

    const answer = await loginMfa((login.body.data as { challenge: string }).challenge, await nextCode(secret));
    expect(answer.statusCode, answer.body).toBe(200);
    const { customer: profile, token } = answer.json().data as { customer: { uuid: string }; token: string };
    expect(profile.uuid).toBe(customer.id);
    expect((await ctx.request({ method: 'GET', url: '/api/v1/customers/auth/me', token })).statusCode).toBe(200);
    expect(await auditActions(customer.id)).toEqual(expect.arrayContaining(['customer.mfa_challenge', 'customer.login']));
  });

  it('takes a backup code once and refuses it the second time', async () => {
    const customer = await ctx.createCustomer();
    const { backupCodes } = await enableMfa(customer);
    const first = await loginMfa(await challengeOf(customer), backupCodes[0]!);
    expect(first.statusCode).toBe(200);
    const second = await loginMfa(await challengeOf(customer), backupCodes[0]!);
    expect(second.statusCode).toBe(401);
    expect(second.json().message).toBe(MFA_MESSAGES.usedBackupCode);
    expect((await backupRows(customer.id)).filter((r) => r.used_at !== null)).toHaveLength(1);
  });

  it(`locks the customer after ${MAX_FAILED_LOGINS} wrong codes`, async () => {
    const customer = await ctx.createCustomer();
    const { secret } = await enableMfa(customer);
    const challenge = await challengeOf(customer);
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      const wrong = await loginMfa(challenge, 'ZZZZ-ZZZZ');
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().message).toBe(MFA_MESSAGES.wrongCode);
    }
    const right = await loginMfa(challenge, await nextCode(secret));
    expect(right.statusCode).toBe(423);
    expect(right.json().message).toBe(ACCOUNT_MESSAGES.locked(LOCKOUT_MINUTES));
    expect((await ctx.login('customer', customer.email, customer.password)).statusCode).toBe(423);
    ctx.clock.advanceMinutes(LOCKOUT_MINUTES);
    expect((await loginMfa(await challengeOf(customer), await nextCode(secret))).statusCode).toBe(200);
  });

  it("refuses a portal user's challenge at the customer step and a customer's at the portal step, counting neither", async () => {
    const customer = await ctx.createCustomer();
    const { secret } = await enableMfa(customer);
    const admin = await ctx.createAdmin();
    const adminToken = (await ctx.login('admin', admin.email, admin.password)).token;
    const adminSecret = ((await post('/auth/mfa/setup', adminToken)).json().data as MfaSetupWire).secret;
    expect((await post('/auth/mfa/verify', adminToken, { code: await totpCode(adminSecret, ctx.clock.now()) })).statusCode).toBe(200);
    const adminChallenge = ((await ctx.login('admin', admin.email, admin.password)).body.data as { challenge: string }).challenge;

    const customerChallenge = await challengeOf(customer);
    const atPortal = await post('/auth/login/mfa', null, { challenge: customerChallenge, code: await nextCode(secret) });
    expect(atPortal.statusCode).toBe(401);
    expect(atPortal.json().message).toBe(MFA_MESSAGES.challengeExpired);
    const atCustomer = await loginMfa(adminChallenge, await nextCode(adminSecret));
    expect(atCustomer.statusCode).toBe(401);
    expect(atCustomer.json().message).toBe(MFA_MESSAGES.challengeExpired);
    expect((await customerColumns(customer.id)).failed_login_attempts).toBe(0);
    // The customer's challenge still works where it belongs.
    expect((await loginMfa(customerChallenge, await nextCode(secret))).statusCode).toBe(200);
  });

  it('refuses an expired challenge and does not take a challenge as a bearer token', async () => {
    const customer = await ctx.createCustomer();
    const { secret } = await enableMfa(customer);
    const challenge = await challengeOf(customer);
    expect((await ctx.request({ method: 'GET', url: '/api/v1/customers/auth/me', token: challenge })).statusCode).toBe(401);
    ctx.clock.advance((MFA_CHALLENGE_SECONDS + 1) * 1000);
    const late = await loginMfa(challenge, await totpCode(secret, ctx.clock.now()));
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toBe(MFA_MESSAGES.challengeExpired);
  });

  it('refuses the code step of a customer blocked after the password step', async () => {
    const customer = await ctx.createCustomer();
    const { secret } = await enableMfa(customer);
    const challenge = await challengeOf(customer);
    await ctx.database.db.execute(sql`UPDATE customers SET blocked_enabled = true, blocked_reason = 'Unpaid' WHERE id = ${customer.id}`);
    const answer = await loginMfa(challenge, await nextCode(secret));
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toBe(ACCOUNT_MESSAGES.blocked);
  });
});

describe('a customer turns MFA off', () => {
  it('with the password; a wrong password or no proof leaves it on', async () => {
    const customer = await ctx.createCustomer();
    const { token } = await enableMfa(customer);
    const wrong = await post('/customers/mfa/disable', token, { password: 'not-it' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(SETTINGS_MESSAGES.wrongCurrentPassword);
    expect((await post('/customers/mfa/disable', token, {})).json().message).toBe(MFA_MESSAGES.disableNeedsProof);
    expect((await customerColumns(customer.id)).mfa_enabled).toBe(true);

    const off = await post('/customers/mfa/disable', token, { password: customer.password });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ data: { mfaEnabled: false }, message: MFA_MESSAGES.disabled });
    expect(await customerColumns(customer.id)).toMatchObject({ mfa_enabled: false, mfa_secret: null });
    expect(await backupRows(customer.id)).toHaveLength(0);
    expect((await ctx.login('customer', customer.email, customer.password)).token).toEqual(expect.any(String));
    expect((await post('/customers/mfa/disable', token, { password: customer.password })).statusCode).toBe(409);
  });

  it('with a backup code', async () => {
    const customer = await ctx.createCustomer();
    const { token, backupCodes } = await enableMfa(customer);
    expect((await post('/customers/mfa/disable', token, { code: backupCodes[2]! })).statusCode).toBe(200);
    expect((await customerColumns(customer.id)).mfa_enabled).toBe(false);
  });
});

describe("an administrator's MFA reset of a portal user", () => {
  it('still turns off a portal user\'s MFA (the route is unchanged by the customer routes)', async () => {
    const admin = await ctx.createAdmin();
    const adminToken = (await ctx.login('admin', admin.email, admin.password)).token;
    const user = await ctx.createAdmin({ role: 'user' });
    const userToken = (await ctx.login('admin', user.email, user.password)).token;
    const secret = ((await post('/auth/mfa/setup', userToken)).json().data as MfaSetupWire).secret;
    expect((await post('/auth/mfa/verify', userToken, { code: await totpCode(secret, ctx.clock.now()) })).statusCode).toBe(200);
    expect((await post(`/users/${user.id}/disable-mfa`, adminToken)).statusCode).toBe(200);
    expect((await ctx.login('admin', user.email, user.password)).token).toEqual(expect.any(String));
  });
});
