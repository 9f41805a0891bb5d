import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, INVALID_CREDENTIALS_MESSAGE, LOCKOUT_MINUTES, MAX_FAILED_LOGINS } from '../../src/domain/auth';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

async function failTimes(kind: 'admin' | 'customer', email: string, times: number) {
  for (let i = 0; i < times; i++) {
    const attempt = await ctx.login(kind, email, `wrong-${i}`);
    expect(attempt.statusCode).toBe(401);
    expect(attempt.body.message).toBe(INVALID_CREDENTIALS_MESSAGE);
  }
}

describe('lockout after failed sign-ins', () => {
  it(`locks an admin after ${MAX_FAILED_LOGINS} wrong passwords and refuses the right one with the locked message`, async () => {
    const admin = await ctx.createAdmin();
    await failTimes('admin', admin.email, MAX_FAILED_LOGINS);

    const sixth = await ctx.login('admin', admin.email, admin.password);
    expect(sixth.statusCode).toBe(423);
    expect(sixth.body).toMatchObject({ success: false, message: ACCOUNT_MESSAGES.locked(LOCKOUT_MINUTES) });
    expect(sixth.token).toBeNull();
  });

  it('counts down the minutes left in the locked message', async () => {
    const admin = await ctx.createAdmin();
    await failTimes('admin', admin.email, MAX_FAILED_LOGINS);
    ctx.clock.advanceMinutes(14);
    ctx.clock.advance(1000);
    const attempt = await ctx.login('admin', admin.email, admin.password);
    expect(attempt.statusCode).toBe(423);
    expect(attempt.body.message).toBe(ACCOUNT_MESSAGES.locked(1));
  });

  it(`lets the admin in again once ${LOCKOUT_MINUTES} minutes have passed`, async () => {
    const admin = await ctx.createAdmin();
    await failTimes('admin', admin.email, MAX_FAILED_LOGINS);
    ctx.clock.advanceMinutes(LOCKOUT_MINUTES - 1);
    expect((await ctx.login('admin', admin.email, admin.password)).statusCode).toBe(423);
    ctx.clock.advanceMinutes(1);
    const after = await ctx.login('admin', admin.email, admin.password);
    expect(after.statusCode).toBe(200);
  });

  it('starts counting afresh after the lock expires', async () => {
    const admin = await ctx.createAdmin();
    await failTimes('admin', admin.email, MAX_FAILED_LOGINS);
    ctx.clock.advanceMinutes(LOCKOUT_MINUTES);
    // The counter was reset when the lock was set: four more failures do not lock again.
    await failTimes('admin', admin.email, MAX_FAILED_LOGINS - 1);
    expect((await ctx.login('admin', admin.email, admin.password)).statusCode).toBe(200);
  });

  it('resets the failure count on a successful sign-in', async () => {
    const admin = await ctx.createAdmin();
    await failTimes('admin', admin.email, MAX_FAILED_LOGINS - 1);
    expect((await ctx.login('admin', admin.email, admin.password)).statusCode).toBe(200);
    await failTimes('admin', admin.email, MAX_FAILED_LOGINS - 1);
    expect((await ctx.login('admin', admin.email, admin.password)).statusCode).toBe(200);
  });

  it('locks customers the same way', async () => {
    const customer = await ctx.createCustomer();
    await failTimes('customer', customer.email, MAX_FAILED_LOGINS);
    const locked = await ctx.login('customer', customer.email, customer.password);
    expect(locked.statusCode).toBe(423);
    expect(locked.body.message).toBe(ACCOUNT_MESSAGES.locked(LOCKOUT_MINUTES));
  });

  it('records the locking failure and the refused attempt in the audit log', async () => {
    const admin = await ctx.createAdmin();
    await failTimes('admin', admin.email, MAX_FAILED_LOGINS);
    await ctx.login('admin', admin.email, admin.password);
    const rows = (await ctx.app.repos.audit.listByAction('auth.login_failed')).filter((r) => r.targetId === admin.id);
    const reasons = rows.map((r) => (r.after as { reason: string; locked?: boolean }).reason);
    expect(reasons.filter((r) => r === 'wrong_password')).toHaveLength(MAX_FAILED_LOGINS);
    expect(reasons).toContain('locked');
    expect(rows.some((r) => (r.after as { locked?: boolean }).locked === true)).toBe(true);
  });
});
