import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
let clientDir: string;
const INDEX_HTML = '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div></body></html>';

beforeAll(async () => {
  clientDir = await mkdtemp(path.join(tmpdir(), 'portal-client-'));
  await mkdir(path.join(clientDir, 'assets'));
  await writeFile(path.join(clientDir, 'index.html'), INDEX_HTML);
  await writeFile(path.join(clientDir, 'assets', 'app-abc123.js'), 'console.log("portal");');
  ctx = await createTestContext({ env: { CLIENT_DIR: clientDir } });
});
afterAll(async () => {
  await ctx?.close();
  await rm(clientDir, { recursive: true, force: true });
});

describe('the built client', () => {
  it('serves index.html at the root', async () => {
    const res = await ctx.request({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toBe(INDEX_HTML);
  });

  it('serves index.html for client-side routes such as /customers and /customer/terminals/:uuid', async () => {
    for (const url of ['/customers', '/customer/terminals/5b0c1c1e-2f7a-4a59-9d1e-0b8f1f0d2a11', '/login?redirect=%2Fhome']) {
      const res = await ctx.request({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(INDEX_HTML);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves fingerprinted assets with a long cache lifetime', async () => {
    const res = await ctx.request({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers a missing asset with 404 rather than the page', async () => {
    const res = await ctx.request({ method: 'GET', url: '/assets/missing-123.js' });
    expect(res.statusCode).toBe(404);
  });

  it('keeps unknown API paths as 404 envelopes, not the page', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/v1/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, message: 'Route not found: GET /api/v1/nope' });
  });

  it('sends a CSP that allows same-origin scripts, inline styles and data: images only', async () => {
    const res = await ctx.request({ method: 'GET', url: '/customers' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data:");
    expect(csp).not.toContain('upgrade-insecure-requests');
  });
});

describe('API documentation', () => {
  it('serves Swagger UI at /api/docs', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger-ui');
  });

  it('generates the OpenAPI document from the route schemas, without secret fields', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/health', '/api/v1/auth/login', '/api/v1/auth/me', '/api/v1/customers/auth/login', '/api/v1/customers/auth/me', '/api/v1/dashboard/summary']),
    );
    const login = doc.paths['/api/v1/auth/login'].post;
    expect(login.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
    const user = login.responses['200'].content['application/json'].schema.properties.data.properties.user;
    expect(Object.keys(user.properties)).toContain('uuid');
    expect(JSON.stringify(doc)).not.toMatch(/passwordHash|password_hash|mfaSecret|mfa_secret/);
  });
});
