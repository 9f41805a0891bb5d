import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, INVALID_CREDENTIALS_MESSAGE } from '../../src/domain/auth';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

const SECRET_FIELDS = /password|hash|mfa_?secret|mfaSecret/i;

describe('admin login', () => {
  it('signs an admin in, returns the profile and a token that works on /auth/me', async () => {
    const admin = await ctx.createAdmin({ name: 'Ana Lima', mfaSecret: 'JBSWY3DPEHPK3PXP' });
    const login = await ctx.login('admin', admin.email, admin.password);

    expect(login.statusCode).toBe(200);
    expect(login.body).toMatchObject({ success: true, message: 'Login successful' });
    const user = (login.body.data as { user: Record<string, unknown> }).user;
    expect(user).toMatchObject({ uuid: admin.id, email: admin.email, name: 'Ana Lima', role: 'admin', isActive: true });
    expect(user.lastLogin).toBe(ctx.clock.now().toISOString());
    expect(user.lastIp).toBe('127.0.0.1');
    expect(Object.keys(user).filter((k) => SECRET_FIELDS.test(k))).toEqual([]);
    expect(login.raw).not.toContain(admin.row.passwordHash);
    expect(login.raw).not.toContain('JBSWY3DPEHPK3PXP');

    const me = await ctx.request({ method: 'GET', url: '/api/v1/auth/me', token: login.token });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ success: true, data: { user: { uuid: admin.id, email: admin.email } } });
    expect(me.body).not.toMatch(/argon2|JBSWY3DPEHPK3PXP|password_hash|passwordHash|mfaSecret/);
  });

  it('accepts the email in any letter case and with surrounding spaces', async () => {
    const admin = await ctx.createAdmin({ email: 'Mixed.Case@Test.local' });
    const login = await ctx.login('admin', '  MIXED.case@test.LOCAL ', admin.password);
    expect(login.statusCode).toBe(200);
  });

  it('gives a wrong password and an unknown email the same 401 and message', async () => {
    const admin = await ctx.createAdmin();
    const wrong = await ctx.login('admin', admin.email, 'not-the-password');
    const unknown = await ctx.login('admin', 'nobody@test.local', 'whatever-password');

    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.body.message).toBe(INVALID_CREDENTIALS_MESSAGE);
    expect(unknown.body.message).toBe(INVALID_CREDENTIALS_MESSAGE);
    expect(Object.keys(wrong.body).sort()).toEqual(Object.keys(unknown.body).sort());
  });

  it('refuses a blocked admin with the blocked message once the password is right', async () => {
    const admin = await ctx.createAdmin({ blockedEnabled: true, blockedReason: 'Left the company', blockedAt: ctx.clock.now() });
    const wrong = await ctx.login('admin', admin.email, 'not-the-password');
    expect(wrong.statusCode).toBe(401);
    const right = await ctx.login('admin', admin.email, admin.password);
    expect(right.statusCode).toBe(403);
    expect(right.body).toMatchObject({ success: false, message: ACCOUNT_MESSAGES.blocked });
  });

  it('refuses an inactive admin with the inactive message', async () => {
    const admin = await ctx.createAdmin({ isActive: false });
    const login = await ctx.login('admin', admin.email, admin.password);
    expect(login.statusCode).toBe(403);
    expect(login.body.message).toBe(ACCOUNT_MESSAGES.inactive);
  });

  it('refuses an admin whose account expired, and admits one whose expiry is still ahead', async () => {
    const now = ctx.clock.now().getTime();
    const expired = await ctx.createAdmin({ accountExpiresAt: new Date(now - 60_000) });
    const current = await ctx.createAdmin({ accountExpiresAt: new Date(now + 86_400_000) });
    const refused = await ctx.login('admin', expired.email, expired.password);
    expect(refused.statusCode).toBe(403);
    expect(refused.body.message).toBe(ACCOUNT_MESSAGES.expired);
    expect((await ctx.login('admin', current.email, current.password)).statusCode).toBe(200);
  });

  it('refuses a soft-deleted admin as an unknown account', async () => {
    const admin = await ctx.createAdmin({ deletedAt: ctx.clock.now() });
    const login = await ctx.login('admin', admin.email, admin.password);
    expect(login.statusCode).toBe(401);
    expect(login.body.message).toBe(INVALID_CREDENTIALS_MESSAGE);
  });

  it('refuses an account that has no password yet as invalid credentials', async () => {
    const admin = await ctx.createAdmin({ password: null });
    const login = await ctx.login('admin', admin.email, '');
    expect(login.statusCode).toBe(400);
    const attempt = await ctx.login('admin', admin.email, 'anything-at-all');
    expect(attempt.statusCode).toBe(401);
  });
});

describe('customer login', () => {
  it('signs a customer in and returns the customer profile on /customers/auth/me', async () => {
    const customer = await ctx.createCustomer({ name: 'Rosa Quispe', company: 'Andes Copper Logistics', phone: '+56 2 555 0101', address: 'Antofagasta' });
    const login = await ctx.login('customer', customer.email, customer.password);

    expect(login.statusCode).toBe(200);
    expect(login.body).toMatchObject({
      success: true,
      message: 'Login successful',
      data: { customer: { uuid: customer.id, name: 'Rosa Quispe', company: 'Andes Copper Logistics', phone: '+56 2 555 0101', address: 'Antofagasta' } },
    });
    const profile = (login.body.data as { customer: Record<string, unknown> }).customer;
    expect(profile).not.toHaveProperty('role');
    expect(Object.keys(profile).filter((k) => SECRET_FIELDS.test(k))).toEqual([]);

    const me = await ctx.request({ method: 'GET', url: '/api/v1/customers/auth/me', token: login.token });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      success: true,
      message: 'Customer information retrieved successfully',
      data: { customer: { uuid: customer.id, email: customer.email } },
    });
  });

  it('fails a customer credential on the admin login, so the client falls back to the customer login', async () => {
    const customer = await ctx.createCustomer();
    const asAdmin = await ctx.login('admin', customer.email, customer.password);
    expect(asAdmin.statusCode).toBe(401);
    expect(asAdmin.body.message).toBe(INVALID_CREDENTIALS_MESSAGE);
    expect((await ctx.login('customer', customer.email, customer.password)).statusCode).toBe(200);
  });

  it('fails an admin credential on the customer login', async () => {
    const admin = await ctx.createAdmin();
    expect((await ctx.login('customer', admin.email, admin.password)).statusCode).toBe(401);
  });

  it('refuses blocked, pending and expired customers with their messages', async () => {
    const past = new Date(ctx.clock.now().getTime() - 1000);
    const blocked = await ctx.createCustomer({ blockedEnabled: true, blockedReason: 'Payment overdue' });
    const pending = await ctx.createCustomer({ isActive: false });
    const expired = await ctx.createCustomer({ accountExpiresAt: past });
    expect((await ctx.login('customer', blocked.email, blocked.password)).body.message).toBe(ACCOUNT_MESSAGES.blocked);
    expect((await ctx.login('customer', pending.email, pending.password)).body.message).toBe(ACCOUNT_MESSAGES.inactive);
    expect((await ctx.login('customer', expired.email, expired.password)).body.message).toBe(ACCOUNT_MESSAGES.expired);
  });
});

describe('sign-in audit', () => {
  it('records a successful sign-in with the actor, ip and request id', async () => {
    const admin = await ctx.createAdmin();
    await ctx.login('admin', admin.email, admin.password, { ip: '203.0.113.9' });
    const rows = await ctx.app.repos.audit.listByAction('auth.login');
    const row = rows.find((r) => r.actorId === admin.id);
    expect(row).toMatchObject({ actorType: 'user', targetType: 'user', targetId: admin.id, ip: '203.0.113.9' });
    expect(row?.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('records a customer sign-in as customer.login', async () => {
    const customer = await ctx.createCustomer();
    await ctx.login('customer', customer.email, customer.password);
    const rows = await ctx.app.repos.audit.listByAction('customer.login');
    expect(rows.find((r) => r.actorId === customer.id)).toMatchObject({ actorType: 'customer', targetId: customer.id });
  });

  it('records failed sign-ins with the attempted email and reason, never the password', async () => {
    const admin = await ctx.createAdmin();
    await ctx.login('admin', admin.email, 'Wrong-Password-123');
    await ctx.login('admin', 'Ghost@Test.local', 'Ghost-Password-456');
    const rows = await ctx.app.repos.audit.listByAction('auth.login_failed');
    const wrong = rows.find((r) => (r.after as { email?: string }).email === admin.email);
    const ghost = rows.find((r) => (r.after as { email?: string }).email === 'ghost@test.local');
    expect(wrong).toMatchObject({ actorType: 'anonymous', actorId: null, targetId: admin.id, after: { reason: 'wrong_password' } });
    expect(ghost).toMatchObject({ actorType: 'anonymous', targetId: null, after: { reason: 'unknown_email' } });
    expect(JSON.stringify(rows)).not.toMatch(/Wrong-Password-123|Ghost-Password-456/);
  });
});
