// Hardening (part 7): what the server tells strangers about itself, how it treats people
// probing unknown paths, and whether every text it accepts has an upper bound. Sign-in lockout and
// the per-IP sign-in limit are proven in lockout.test.ts and rate-limit.test.ts; the CSP's
// directives in spa-and-docs.test.ts.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { INPUT_TEXT_MAX, INPUT_TEXT_TOO_LONG } from '../../server/routes/schemas';
import { CUSTOMER_FIELD_LIMITS, CUSTOMER_MESSAGES } from '../../src/domain/customers';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
let clientDir: string;
const NOT_FOUND_LIMIT = 4;

beforeAll(async () => {
  clientDir = await mkdtemp(path.join(tmpdir(), 'portal-hardening-'));
  await mkdir(path.join(clientDir, 'assets'));
  await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body></body></html>');
  await writeFile(path.join(clientDir, 'assets', 'app.js'), 'console.log("portal");');
  ctx = await createTestContext({ env: { CLIENT_DIR: clientDir, NOT_FOUND_RATE_LIMIT: String(NOT_FOUND_LIMIT) } });
});
afterAll(async () => {
  await ctx?.close();
  await rm(clientDir, { recursive: true, force: true });
});

/** Inline scripts would need 'unsafe-inline' under our CSP: a page with one is broken or unsafe. */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].filter(([, attributes, body]) => !/\bsrc\s*=/.test(attributes!) && body!.trim() !== '').map(([tag]) => tag.slice(0, 120));
}

describe('what the server says about itself', () => {
  it.each([
    ['an API answer', 'GET', '/api/v1/health'],
    ['an API error', 'POST', '/api/v1/auth/login'],
    ['the page', 'GET', '/customers'],
    ['an asset', 'GET', '/assets/app.js'],
    ['the API docs', 'GET', '/api/docs/'],
  ])('sends no framework or server banner with %s', async (_what, method, url) => {
    const res = await ctx.request({ method: method as 'GET' | 'POST', url, remoteAddress: '203.0.113.1' });
    expect(res.statusCode).toBeLessThan(500);
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers.server).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBeDefined();
  });

  it("keeps the CSP free of 'unsafe-inline' and 'unsafe-eval' for scripts", async () => {
    const res = await ctx.request({ method: 'GET', url: '/customers', remoteAddress: '203.0.113.1' });
    const scriptSrc = /script-src ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1];
    expect(scriptSrc).toBe("'self'");
  });

  it('ships pages without inline scripts: the SPA source and the API docs', async () => {
    const source = await readFile(path.resolve('index.html'), 'utf8');
    expect(source).toContain('<script type="module" src=');
    expect(inlineScripts(source)).toEqual([]);
    const docs = await ctx.request({ method: 'GET', url: '/api/docs/', remoteAddress: '203.0.113.1' });
    expect(docs.body).toContain('<script');
    expect(inlineScripts(docs.body)).toEqual([]);
    // The finder itself must see one, or the two checks above prove nothing.
    expect(inlineScripts('<script>alert(1)</script><script src="/a.js"></script>')).toHaveLength(1);
  });
});

describe('probing unknown paths', () => {
  it(`answers 404 in the envelope up to NOT_FOUND_RATE_LIMIT a minute per IP, then 429`, async () => {
    const ip = '198.51.100.40';
    for (let i = 0; i < NOT_FOUND_LIMIT; i++) {
      const res = await ctx.request({ method: 'GET', url: `/api/v1/no-such-thing-${i}`, remoteAddress: ip });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ success: false, message: `Route not found: GET /api/v1/no-such-thing-${i}` });
    }
    const limited = await ctx.request({ method: 'POST', url: '/wp-login.php', remoteAddress: ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ success: false, message: expect.stringMatching(/^Too many requests for unknown paths from this address\. Try again in /) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts each IP separately and never limits the known routes', async () => {
    const other = await ctx.request({ method: 'GET', url: '/api/v1/nothing-here', remoteAddress: '198.51.100.41' });
    expect(other.statusCode).toBe(404);
    const health = await ctx.request({ method: 'GET', url: '/api/v1/health', remoteAddress: '198.51.100.40' });
    expect(health.statusCode).toBe(200);
  });

  it("never limits the page's own client routes, which the same handler serves", async () => {
    const ip = '198.51.100.42';
    for (let i = 0; i < NOT_FOUND_LIMIT * 3; i++) {
      const res = await ctx.request({ method: 'GET', url: `/customer/terminals/${i}`, remoteAddress: ip });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
    }
  });
});

interface JsonSchema {
  type?: string | string[];
  maxLength?: number;
  maxItems?: number;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

/** Every string or array a schema accepts without an upper bound, by path. */
function unbounded(schema: JsonSchema | undefined, at: string): string[] {
  if (!schema) return [];
  const found: string[] = [];
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const fixed = schema.enum !== undefined || schema.const !== undefined;
  // A UUID or a calendar day has its length by its format; an anchored pattern without open-ended
  // repetition has one by its shape.
  const boundedFormat = schema.format === 'uuid' || schema.format === 'date';
  const boundedPattern = schema.pattern !== undefined && /^\^.*\$$/.test(schema.pattern) && !/[*+]|\{\d+,\}/.test(schema.pattern.replace(/\\./g, ''));
  if (types.includes('string') && !fixed && !boundedFormat && !boundedPattern && schema.maxLength === undefined) found.push(at);
  if (types.includes('array') && schema.maxItems === undefined) found.push(`${at}[]`);
  for (const [name, child] of Object.entries(schema.properties ?? {})) found.push(...unbounded(child, `${at}.${name}`));
  if (typeof schema.additionalProperties === 'object') found.push(...unbounded(schema.additionalProperties, `${at}.*`));
  found.push(...unbounded(schema.items, `${at}[]`));
  for (const list of [schema.anyOf, schema.oneOf, schema.allOf]) for (const child of list ?? []) found.push(...unbounded(child, at));
  return found;
}

describe('input limits', () => {
  it('bounds every string and list the API accepts (body, query, path), so no field can carry megabytes', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/api/docs/json', remoteAddress: '203.0.113.1' })).json() as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string; schema: JsonSchema }[]; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;
    };
    const problems: string[] = [];
    let inputs = 0;
    for (const [route, operations] of Object.entries(doc.paths)) {
      if (!route.startsWith('/api/v1')) continue;
      for (const [method, operation] of Object.entries(operations)) {
        for (const parameter of operation.parameters ?? []) {
          inputs++;
          problems.push(...unbounded(parameter.schema, `${method.toUpperCase()} ${route} ${parameter.in}.${parameter.name}`));
        }
        for (const content of Object.values(operation.requestBody?.content ?? {})) {
          inputs++;
          problems.push(...unbounded(content.schema, `${method.toUpperCase()} ${route} body`));
        }
      }
    }
    expect(inputs).toBeGreaterThan(50);
    expect(problems).toEqual([]);
    expect(unbounded({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'array', items: { type: 'string', maxLength: 3 } } } }, 'x')).toEqual(['x.a', 'x.b[]']);
  });
});

describe('the edge cap on text', () => {
  async function customers(): Promise<number> {
    const result = (await ctx.database.db.execute(sql`SELECT count(*)::int AS n FROM customers`)) as unknown as { rows: { n: number }[] };
    return result.rows[0]!.n;
  }

  it('refuses a field over the cap with 400 and its message, and writes nothing', async () => {
    const admin = await ctx.createAdmin();
    const { token } = await ctx.login('admin', admin.email, admin.password, { ip: '203.0.113.9' });
    const before = await customers();
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v1/customers',
      token,
      payload: { email: 'edge@example.com', name: 'N'.repeat(INPUT_TEXT_MAX + 1), company: 'Edge Ltd' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message: `Validation failed: ${INPUT_TEXT_TOO_LONG}`, errors: [{ path: 'name', message: INPUT_TEXT_TOO_LONG }] });
    expect(await customers()).toBe(before);

    // Under the cap, the field's own rule still answers with the spec's words.
    const long = await ctx.request({
      method: 'POST',
      url: '/api/v1/customers',
      token,
      payload: { email: 'edge@example.com', name: 'N'.repeat(CUSTOMER_FIELD_LIMITS.name + 1), company: 'Edge Ltd' },
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(CUSTOMER_MESSAGES.tooLong('Name', CUSTOMER_FIELD_LIMITS.name));
    expect(await customers()).toBe(before);
  });
});

