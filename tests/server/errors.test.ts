import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

const post = (payload: string | object | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  ctx.request({ method: 'POST', url: '/api/v1/auth/login', payload, headers });

describe('error responses', () => {
  it('answers the health check', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { status: 'ok' }, message: 'OK' });
  });

  it('answers malformed JSON with 400 "Malformed JSON body"', async () => {
    const res = await post('{"email": "a@b.c", ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message: 'Malformed JSON body' });
  });

  it('answers an empty JSON body with 400, not 500', async () => {
    const res = await post('');
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
  });

  it('answers missing fields with 400 and one error per field', async () => {
    const res = await post({});
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ success: false, message: 'Validation failed' });
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { path: 'email', message: 'Email is required' },
        { path: 'password', message: 'Password is required' },
      ]),
    );
  });

  it('answers mistyped fields with 400 naming the field', async () => {
    const res = await post({ email: 42, password: ['x'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { path: string }) => e.path).sort()).toEqual(['email', 'password']);
  });

  it('answers a JSON body that is not an object with 400', async () => {
    for (const payload of ['null', '"text"', '[1,2]', '17']) {
      const res = await post(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().success).toBe(false);
    }
  });

  it('answers a body over 1 MB with 413', async () => {
    const res = await post(JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(1024 * 1024 + 10) }));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ success: false, message: 'Request body is too large (limit 1 MB)' });
  });

  it('answers an unsupported content type with 415', async () => {
    for (const contentType of ['application/x-www-form-urlencoded', 'text/plain']) {
      const res = await post('email=a@b.c&password=x', { 'content-type': contentType });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toMatchObject({ success: false, message: 'Unsupported content type: send application/json' });
    }
  });

  it('ignores JSON prototype-poisoning keys instead of failing', async () => {
    const res = await post('{"email":"nobody@test.local","password":"pw","__proto__":{"isAdmin":true}}');
    expect([400, 401]).toContain(res.statusCode);
  });

  it('answers an unknown API route with 404 in the envelope', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/v1/x?page=2' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, message: 'Route not found: GET /api/v1/x' });
  });

  it('answers a known path with the wrong method with 404 in the envelope', async () => {
    const res = await ctx.request({ method: 'DELETE', url: '/api/v1/auth/login' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Route not found: DELETE /api/v1/auth/login');
  });

  it('puts the request id in every error body and in the x-request-id header', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(res.json().requestId).toBe(res.headers['x-request-id']);
    expect(res.json().requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('marks API responses as not cacheable and sends security headers', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/v1/health' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
  });
});

describe('requests the fuzz tests found answered outside the envelope or with a 500', () => {
  it('answers a path with a malformed percent-escape with 400 in the envelope, not Fastify\'s own body', async () => {
    for (const url of ['/api/v1/users/%zz', '/api/v1/terminals/%E0%A4%A/assign']) {
      const res = await ctx.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ success: false, message: 'Malformed URL: a percent-escape does not decode', requestId: res.headers['x-request-id'] });
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('answers a path segment over 100 characters with 414 in the envelope', async () => {
    const res = await ctx.request({ method: 'GET', url: `/api/v1/password-setup/${'a'.repeat(101)}` });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ success: false, message: 'A path segment is too long', requestId: res.headers['x-request-id'] });
  });

  it('refuses NUL characters and unpaired surrogates anywhere in a request with 400 before anything is written (they were 500s from the database)', async () => {
    const audits = async () => Number(((await ctx.database.db.execute(sql`SELECT count(*) AS n FROM audit_log`)) as unknown as { rows: { n: unknown }[] }).rows[0]!.n);
    const before = await audits();
    const requests = [
      { method: 'POST' as const, url: '/api/v1/auth/login', payload: { email: 'a\u0000b@test.local', password: 'pw' } },
      { method: 'POST' as const, url: '/api/v1/auth/login', payload: '{"email":"\\ud800@test.local","password":"pw"}', headers: { 'content-type': 'application/json' } },
      { method: 'POST' as const, url: '/api/v1/auth/login', payload: '{"email":"a@test.local","password":"pw","\\udc00":1}', headers: { 'content-type': 'application/json' } },
      { method: 'GET' as const, url: '/api/v1/password-setup/a%00b' },
      { method: 'GET' as const, url: '/api/v1/health?q=x%00' },
    ];
    for (const request of requests) {
      const res = await ctx.request(request);
      expect(res.statusCode, request.url).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: 'Text may not contain NUL characters or unpaired surrogates' });
    }
    expect(await audits()).toBe(before);
  });
});

describe('server faults', () => {
  it('answers a failing database with a generic 500 that names nothing internal', async () => {
    const broken = await createTestContext();
    try {
      await broken.database.close();
      const res = await broken.request({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'a@test.local', password: 'pw' } });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ success: false, message: 'Internal server error', requestId: res.headers['x-request-id'] });
    } finally {
      await broken.close();
    }
  });
});
