import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, LOCKOUT_MINUTES, MAX_FAILED_LOGINS } from '../../src/domain/auth';
import { BACKUP_CODE_COUNT, MFA_CHALLENGE_SECONDS, MFA_MESSAGES, TOTP_ISSUER, type MfaSetupWire } from '../../src/domain/mfa';
import { SETTINGS_MESSAGES } from '../../src/domain/users';
import { totpCode } from '../../server/auth/totp';
import { INVALID_TOKEN_MESSAGE } from '../../server/errors';
import { createTestContext, type TestContext } from './helpers';
import { mfaSteps } from './mfa-fixtures';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

const { post, sessionOf, nextCode, enableMfa, challengeOf, loginMfa, mfaColumns, backupRows, auditActions } = mfaSteps(() => ctx, 'admin');

describe('MFA set-up', () => {
  it('answers a new secret, its otpauth URI and a PNG QR code, and keeps the secret pending and encrypted', async () => {
    const admin = await ctx.createAdmin();
    const token = await sessionOf(admin);
    const response = await post('/auth/mfa/setup', token);
    expect(response.statusCode).toBe(200);
    const data = response.json().data as MfaSetupWire;
    expect(data.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(data.otpauthUri);
    expect(data.otpauthUri.startsWith(`otpauth://totp/${encodeURIComponent(TOTP_ISSUER)}:${encodeURIComponent(admin.email)}?`)).toBe(true);
    expect(uri.searchParams.get('secret')).toBe(data.secret);
    expect(data.qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(data.qrCodeDataUrl.split(',')[1]!, 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');

    const row = await mfaColumns(admin.id);
    expect(row.mfa_enabled).toBe(false);
    expect(row.mfa_secret).toBeNull();
    expect(row.mfa_pending_secret).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(row.mfa_pending_secret).not.toContain(data.secret);
    expect((await ctx.request({ method: 'GET', url: '/api/v1/auth/me', token })).json().data.user.mfaEnabled).toBe(false);
  });

  it('refuses a code that is not 6 digits, a wrong code and a verify before any set-up, changing nothing', async () => {
    const admin = await ctx.createAdmin();
    const token = await sessionOf(admin);
    const early = await post('/auth/mfa/verify', token, { code: '123456' });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(MFA_MESSAGES.setupFirst);

    const { secret } = (await post('/auth/mfa/setup', token)).json().data as MfaSetupWire;
    for (const code of ['12345', '12a456', '1234567', '']) {
      const bad = await post('/auth/mfa/verify', token, { code });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe(MFA_MESSAGES.invalidCode);
    }
    const right = await totpCode(secret, ctx.clock.now());
    const wrong = right === '000000' ? '111111' : '000000';
    const refused = await post('/auth/mfa/verify', token, { code: wrong });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(MFA_MESSAGES.wrongCode);
    expect((await mfaColumns(admin.id)).mfa_enabled).toBe(false);
    expect(await auditActions(admin.id)).toContain('auth.mfa_enable_failed');
  });

  it('turns MFA on with the first right code and answers 8 distinct XXXX-XXXX backup codes, stored only as digests', async () => {
    const admin = await ctx.createAdmin();
    const { token, secret, backupCodes } = await enableMfa(admin);
    expect(backupCodes).toHaveLength(BACKUP_CODE_COUNT);
    for (const code of backupCodes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    expect(new Set(backupCodes).size).toBe(BACKUP_CODE_COUNT);

    const row = await mfaColumns(admin.id);
    expect(row.mfa_enabled).toBe(true);
    expect(row.mfa_pending_secret).toBeNull();
    expect(row.mfa_secret).toMatch(/^v1:/);
    expect(row.mfa_secret).not.toContain(secret);
    const stored = await backupRows(admin.id);
    expect(stored).toHaveLength(BACKUP_CODE_COUNT);
    for (const { code_hash } of stored) {
      expect(code_hash).toMatch(/^[0-9a-f]{64}$/);
      for (const code of backupCodes) expect(code_hash).not.toContain(code.replace('-', ''));
    }

    expect((await ctx.request({ method: 'GET', url: '/api/v1/auth/me', token })).json().data.user.mfaEnabled).toBe(true);
    const again = await post('/auth/mfa/setup', token);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(MFA_MESSAGES.alreadyEnabled);
    expect(await auditActions(admin.id)).toEqual(expect.arrayContaining(['auth.mfa_setup_started', 'auth.mfa_enabled']));
  });

  it('lets a later set-up replace a pending secret, so only the newest secret verifies', async () => {
    const admin = await ctx.createAdmin();
    const token = await sessionOf(admin);
    const first = (await post('/auth/mfa/setup', token)).json().data as MfaSetupWire;
    const second = (await post('/auth/mfa/setup', token)).json().data as MfaSetupWire;
    expect(second.secret).not.toBe(first.secret);
    const stale = await totpCode(first.secret, ctx.clock.now());
    const fresh = await totpCode(second.secret, ctx.clock.now());
    if (stale !== fresh) expect((await post('/auth/mfa/verify', token, { code: stale })).statusCode).toBe(400);
    expect((await post('/auth/mfa/verify', token, { code: fresh })).statusCode).toBe(200);
  });
});

describe('signing in with MFA on', () => {
  it('answers that a code is required with a challenge and no token, then gives the token for a current code', async () => {
    const admin = await ctx.createAdmin();
    const { secret } = await enableMfa(admin);
    const login = await ctx.login('admin', admin.email, admin.password);
    expect(login.statusCode).toBe(200);
    expect(login.body).toMatchObject({ success: true, message: MFA_MESSAGES.codeRequired, data: { mfaRequired: true } });
    expect(login.token).toBeNull();
    expect(JSON.stringify(login.body)).not.toContain('"user"');

    const challenge = (login.body.data as { challenge: string }).challenge;
    const answer = await loginMfa(challenge, await nextCode(secret));
    expect(answer.statusCode).toBe(200);
    const { user, token } = answer.json().data as { user: { uuid: string; mfaEnabled: boolean }; token: string };
    expect(user).toMatchObject({ uuid: admin.id, mfaEnabled: true });
    expect((await ctx.request({ method: 'GET', url: '/api/v1/auth/me', token })).statusCode).toBe(200);
    expect(await auditActions(admin.id)).toEqual(expect.arrayContaining(['auth.mfa_challenge', 'auth.login']));
  });

  it('accepts a code one step old and refuses a code whose step was already used (replay)', async () => {
    const admin = await ctx.createAdmin();
    const { secret } = await enableMfa(admin);
    const code = await nextCode(secret);
    ctx.clock.advance(30_000);
    const challenge = await challengeOf(admin);
    expect((await loginMfa(challenge, code)).statusCode).toBe(200);

    const replay = await loginMfa(await challengeOf(admin), code);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toBe(MFA_MESSAGES.wrongCode);
  });

  it('refuses a code two steps old', async () => {
    const admin = await ctx.createAdmin();
    const { secret } = await enableMfa(admin);
    const old = await nextCode(secret);
    ctx.clock.advance(60_000);
    const current = await totpCode(secret, ctx.clock.now());
    const answer = await loginMfa(await challengeOf(admin), old);
    if (old !== current) expect(answer.statusCode).toBe(401);
  });

  it('takes a backup code once, in any case and without the dash, and refuses it the second time', async () => {
    const admin = await ctx.createAdmin();
    const { backupCodes } = await enableMfa(admin);
    const code = backupCodes[3]!;
    const first = await loginMfa(await challengeOf(admin), code.replace('-', '').toLowerCase());
    expect(first.statusCode).toBe(200);
    expect(typeof first.json().data.token).toBe('string');

    const second = await loginMfa(await challengeOf(admin), code);
    expect(second.statusCode).toBe(401);
    expect(second.json().message).toBe(MFA_MESSAGES.usedBackupCode);
    expect((await backupRows(admin.id)).filter((r) => r.used_at !== null)).toHaveLength(1);
    // Another account's codes are not this one's.
    const other = await ctx.createAdmin();
    await enableMfa(other);
    const foreign = await loginMfa(await challengeOf(other), backupCodes[4]!);
    expect(foreign.statusCode).toBe(401);
    expect(foreign.json().message).toBe(MFA_MESSAGES.wrongCode);
  });

  it(`locks the account after ${MAX_FAILED_LOGINS} wrong codes, even with the password entered again in between`, async () => {
    const admin = await ctx.createAdmin();
    const { secret } = await enableMfa(admin);
    let challenge = await challengeOf(admin);
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      if (i === 2) challenge = await challengeOf(admin);
      const wrong = await loginMfa(challenge, 'ZZZZ-ZZZZ');
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().message).toBe(MFA_MESSAGES.wrongCode);
    }
    const right = await loginMfa(challenge, await nextCode(secret));
    expect(right.statusCode).toBe(423);
    expect(right.json().message).toBe(ACCOUNT_MESSAGES.locked(LOCKOUT_MINUTES));
    expect((await ctx.login('admin', admin.email, admin.password)).statusCode).toBe(423);

    ctx.clock.advanceMinutes(LOCKOUT_MINUTES);
    const again = await loginMfa(await challengeOf(admin), await nextCode(secret));
    expect(again.statusCode).toBe(200);
    expect((await mfaColumns(admin.id)).failed_login_attempts).toBe(0);
  });

  it('refuses an expired challenge, a tampered one and a session token as a challenge', async () => {
    const admin = await ctx.createAdmin();
    const { token, secret } = await enableMfa(admin);
    const challenge = await challengeOf(admin);
    const tampered = `${challenge.slice(0, -2)}${challenge.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const bad of [tampered, token, 'not-a-jwt']) {
      const answer = await loginMfa(bad, await nextCode(secret));
      expect(answer.statusCode).toBe(401);
      expect(answer.json().message).toBe(MFA_MESSAGES.challengeExpired);
    }
    ctx.clock.advance((MFA_CHALLENGE_SECONDS + 1) * 1000);
    const late = await loginMfa(challenge, await totpCode(secret, ctx.clock.now()));
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toBe(MFA_MESSAGES.challengeExpired);
    // None of these counted toward the lockout.
    expect((await mfaColumns(admin.id)).failed_login_attempts).toBe(0);
  });

  it('does not accept the challenge as a bearer token', async () => {
    const admin = await ctx.createAdmin();
    await enableMfa(admin);
    const challenge = await challengeOf(admin);
    const me = await ctx.request({ method: 'GET', url: '/api/v1/auth/me', token: challenge });
    expect(me.statusCode).toBe(401);
    expect(me.json().message).toBe(INVALID_TOKEN_MESSAGE);
    expect((await post('/auth/mfa/setup', challenge)).statusCode).toBe(401);
  });

  it('refuses a code for an account whose stored secret does not decrypt (the demo seed), without an error', async () => {
    const admin = await ctx.createAdmin({ mfaEnabled: true, mfaSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' });
    const challenge = await challengeOf(admin);
    const answer = await loginMfa(challenge, await totpCode('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', ctx.clock.now()));
    expect(answer.statusCode).toBe(401);
    expect(answer.json().message).toBe(MFA_MESSAGES.wrongCode);
  });

  it('signs in without a code when MFA is off', async () => {
    const admin = await ctx.createAdmin();
    const login = await ctx.login('admin', admin.email, admin.password);
    expect(login.statusCode).toBe(200);
    expect(login.token).toEqual(expect.any(String));
  });
});

describe('turning MFA off', () => {
  it('turns it off with the password, removing the secret and the backup codes; sign-in then needs no code', async () => {
    const admin = await ctx.createAdmin();
    const { token } = await enableMfa(admin);
    const off = await post('/auth/mfa/disable', token, { password: admin.password });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ success: true, message: MFA_MESSAGES.disabled, data: { mfaEnabled: false } });
    expect(await mfaColumns(admin.id)).toMatchObject({ mfa_enabled: false, mfa_secret: null, mfa_pending_secret: null, mfa_last_step: null });
    expect(await backupRows(admin.id)).toHaveLength(0);
    expect((await ctx.login('admin', admin.email, admin.password)).token).toEqual(expect.any(String));
    expect(await auditActions(admin.id)).toContain('auth.mfa_disabled');
  });

  it('turns it off with a current code', async () => {
    const admin = await ctx.createAdmin();
    const { token, secret } = await enableMfa(admin);
    const off = await post('/auth/mfa/disable', token, { code: await nextCode(secret) });
    expect(off.statusCode).toBe(200);
    expect((await mfaColumns(admin.id)).mfa_enabled).toBe(false);
  });

  it('refuses a wrong password, a wrong or replayed code and no proof at all, leaving MFA on', async () => {
    const admin = await ctx.createAdmin();
    const { token, secret } = await enableMfa(admin);
    const wrongPassword = await post('/auth/mfa/disable', token, { password: 'not-the-password' });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().message).toBe(SETTINGS_MESSAGES.wrongCurrentPassword);

    // The code that verified the set-up is of a step already used.
    const replayed = await post('/auth/mfa/disable', token, { code: await totpCode(secret, ctx.clock.now()) });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().message).toBe(MFA_MESSAGES.wrongCode);

    const none = await post('/auth/mfa/disable', token, {});
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(MFA_MESSAGES.disableNeedsProof);

    expect((await mfaColumns(admin.id)).mfa_enabled).toBe(true);
    expect(await backupRows(admin.id)).toHaveLength(BACKUP_CODE_COUNT);
    expect(await auditActions(admin.id)).toContain('auth.mfa_disable_failed');
  });

  it('answers 409 when MFA is not on', async () => {
    const admin = await ctx.createAdmin();
    const off = await post('/auth/mfa/disable', await sessionOf(admin), { password: admin.password });
    expect(off.statusCode).toBe(409);
    expect(off.json().message).toBe(MFA_MESSAGES.notEnabled);
  });
});

describe('who may use the MFA routes', () => {
  it.each(['/auth/mfa/setup', '/auth/mfa/verify', '/auth/mfa/disable'])('refuses %s without a session (401) and to customers (403)', async (url) => {
    expect((await post(url, null, { code: '123456' })).statusCode).toBe(401);
    const customer = await ctx.createCustomer();
    const login = await ctx.login('customer', customer.email, customer.password);
    expect((await post(url, login.token, { code: '123456' })).statusCode).toBe(403);
  });

  it('lists every MFA route in the OpenAPI document', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, unknown> };
    for (const path of ['/api/v1/auth/mfa/setup', '/api/v1/auth/mfa/verify', '/api/v1/auth/mfa/disable', '/api/v1/auth/login/mfa']) {
      expect(doc.paths).toHaveProperty([path]);
    }
  });
});
