import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { LOGIN_RATE_LIMIT: '3' } });
});
afterAll(async () => {
  await ctx?.close();
});

describe('login rate limit', () => {
  it('answers 429 in the envelope once an IP passes LOGIN_RATE_LIMIT sign-ins a minute, across both login routes', async () => {
    const ip = '198.51.100.7';
    expect((await ctx.login('admin', 'a@test.local', 'pw', { ip })).statusCode).toBe(401);
    expect((await ctx.login('customer', 'a@test.local', 'pw', { ip })).statusCode).toBe(401);
    expect((await ctx.login('admin', 'a@test.local', 'pw', { ip })).statusCode).toBe(401);

    const limited = await ctx.login('customer', 'a@test.local', 'pw', { ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toMatchObject({ success: false });
    expect(limited.body.message).toMatch(/^Too many sign-in attempts from this address\. Try again in /);
  });

  it('counts each IP separately', async () => {
    expect((await ctx.login('admin', 'a@test.local', 'pw', { ip: '198.51.100.8' })).statusCode).toBe(401);
  });

  it('does not limit other routes', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/health', remoteAddress: '198.51.100.7' });
      expect(res.statusCode).toBe(200);
    }
  });

  it('tells the client when to retry', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'a@test.local', password: 'pw' },
      remoteAddress: '198.51.100.7',
    });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});
