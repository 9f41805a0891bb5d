// Behind a reverse proxy the client's address comes from X-Forwarded-For, but only when told to
// trust the proxy: otherwise anyone could pick their own address and dodge the sign-in rate limit.
import { afterEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

async function lastIpAfterLogin(env: Record<string, string>) {
  ctx = await createTestContext({ env });
  const admin = await ctx.createAdmin({ email: 'proxy@example.com', password: 'Proxy-Passw0rd' });
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email: admin.email, password: 'Proxy-Passw0rd' },
    headers: { 'x-forwarded-for': '203.0.113.9' },
  });
  expect(res.statusCode).toBe(200);
  return res.json().data.user.lastIp as string;
}

describe('TRUST_PROXY', () => {
  it('ignores X-Forwarded-For by default', async () => {
    expect(await lastIpAfterLogin({})).toBe('127.0.0.1');
  });

  it('records the forwarded client address when the proxy is trusted by hop count', async () => {
    expect(await lastIpAfterLogin({ TRUST_PROXY: '1' })).toBe('203.0.113.9');
  });

  it('records the forwarded client address when the proxy address is listed', async () => {
    expect(await lastIpAfterLogin({ TRUST_PROXY: '127.0.0.1' })).toBe('203.0.113.9');
  });
});
