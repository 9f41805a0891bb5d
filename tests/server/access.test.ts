import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInRole } from '../../src/domain/permissions';
import { ACCOUNT_MESSAGES } from '../../src/domain/auth';
import { buildApp } from '../../server/app';
import { auditContext } from '../../server/services/audit';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

// Fresh tokens per test: one test moves the clock past every token issued before it.
async function signIn(kind: 'admin' | 'customer') {
  const account = kind === 'admin' ? await ctx.createAdmin() : await ctx.createCustomer();
  const { token } = await ctx.login(kind, account.email, account.password);
  return { id: account.id, token: token as string };
}

const me = (token?: string | null, headers: Record<string, string> = {}) =>
  ctx.request({ method: 'GET', url: '/api/v1/auth/me', token, headers });

describe('protected routes', () => {
  it('answers 401 "Authentication required" without a token', async () => {
    const res = await me();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, message: 'Authentication required' });
  });

  it('answers 401 "Invalid or expired token" to a malformed authorization header', async () => {
    for (const header of ['Bearer', 'Basic dXNlcjpwYXNz', 'Bearer not.a.jwt']) {
      const res = await me(null, { authorization: header });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('Invalid or expired token');
    }
  });

  it('answers 401 to a tampered token', async () => {
    const { token: adminToken } = await signIn('admin');
    const [header, payload, signature] = adminToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, role: 'admin', sub: '00000000-0000-4000-8000-000000000000' })).toString('base64url');
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
    expect((await me(`${header}.${forged}.${signature}`)).statusCode).toBe(401);
    expect((await me(`${header}.${payload}.${flipped}`)).statusCode).toBe(401);
  });

  it('answers 401 to a token signed with another secret', async () => {
    const { createTokenService } = await import('../../server/auth/tokens');
    const other = createTokenService({ secret: 'another-secret-of-at-least-32-characters!', expiresInSeconds: 3600, now: ctx.clock.now });
    const { id } = await signIn('admin');
    const token = await other.sign({ sub: id, typ: 'admin', role: 'admin' });
    expect((await me(token)).statusCode).toBe(401);
  });

  it('answers 401 once the token has expired, going by the injected clock', async () => {
    const admin = await ctx.createAdmin();
    const token = (await ctx.login('admin', admin.email, admin.password)).token;
    expect((await me(token)).statusCode).toBe(200);
    ctx.clock.advance(ctx.config.jwtExpiresInSeconds * 1000 + 1000);
    const res = await me(token);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Invalid or expired token');
  });

  it('stops accepting the token of a user blocked after signing in', async () => {
    const admin = await ctx.createAdmin();
    const token = (await ctx.login('admin', admin.email, admin.password)).token;
    expect((await me(token)).statusCode).toBe(200);
    await ctx.app.repos.users.update(admin.id, { blockedEnabled: true, blockedReason: 'Test', blockedAt: ctx.clock.now() });
    const res = await me(token);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Invalid or expired token');
  });

  it('stops accepting the tokens of deleted, deactivated and expired accounts', async () => {
    const cases = [
      { deletedAt: ctx.clock.now() },
      { isActive: false },
      { accountExpiresAt: new Date(ctx.clock.now().getTime() + 60_000) },
    ];
    for (const patch of cases) {
      const admin = await ctx.createAdmin();
      const token = (await ctx.login('admin', admin.email, admin.password)).token;
      await ctx.app.repos.users.update(admin.id, patch);
      if ('accountExpiresAt' in patch) ctx.clock.advance(120_000);
      expect((await me(token)).statusCode).toBe(401);
    }
  });

  it('answers 403 with the admins-only message to a customer token on an admin route', async () => {
    const { token: customerToken } = await signIn('customer');
    for (const url of ['/api/v1/auth/me', '/api/v1/dashboard/summary']) {
      const res = await ctx.request({ method: 'GET', url, token: customerToken });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ success: false, message: ACCOUNT_MESSAGES.adminsOnly });
    }
  });

  it('answers 403 to an admin token on a customer route', async () => {
    const { token: adminToken } = await signIn('admin');
    const res = await ctx.request({ method: 'GET', url: '/api/v1/customers/auth/me', token: adminToken });
    expect(res.statusCode).toBe(403);
    expect(res.json().success).toBe(false);
  });

  it('ignores a bad token on a public route', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/v1/health', token: 'garbage' });
    expect(res.statusCode).toBe(200);
  });
});

describe('route access declarations', () => {
  it("admits both admins and customers to an 'authenticated' route, with their principal and audit context", async () => {
    const app = await buildApp({ config: ctx.config, database: ctx.database, now: ctx.clock.now, logger: false });
    try {
      app.get('/api/v1/test/whoami', { config: { auth: 'authenticated' } }, async (request) => ({
        principal: request.principal,
        audit: auditContext(request),
      }));
      await app.ready();
      const admin = await signIn('admin');
      const customer = await signIn('customer');
      const call = (token?: string) =>
        app.inject({ method: 'GET', url: '/api/v1/test/whoami', headers: token ? { authorization: `Bearer ${token}` } : {} });

      const asAdmin = (await call(admin.token)).json();
      expect(asAdmin.principal).toEqual({ type: 'admin', id: admin.id, permissions: builtInRole('owner').permissions, apiKey: null });
      expect(asAdmin.audit).toMatchObject({ actor: { type: 'user', id: admin.id }, ip: '127.0.0.1' });
      const asCustomer = (await call(customer.token)).json();
      expect(asCustomer.principal).toEqual({ type: 'customer', id: customer.id, member: null });
      expect(asCustomer.audit.actor).toEqual({ type: 'customer', id: customer.id });
      expect((await call()).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('refuses to start with an /api/v1 route that declares no access', async () => {
    const app = await buildApp({ config: ctx.config, database: ctx.database, logger: false });
    try {
      await expect(async () => {
        app.get('/api/v1/undeclared', async () => ({}));
        await app.ready();
      }).rejects.toThrow(/GET \/api\/v1\/undeclared declares no access/);
    } finally {
      await app.close().catch(() => undefined);
    }
  });
});
