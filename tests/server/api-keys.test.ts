// API keys end to end through the app: made by a user who may manage users (shown once, stored as
// a SHA-256, listed by prefix), scoped to a role no wider than its creator's and narrowed by the
// creator's permissions at each call, expiry, the address allow-list, revocation, the same 401 for
// every key that does not hold (with the same timing), the per-key rate limit, the audit rows under
// the key's name, the logs, and the OpenAPI document's scheme.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_MESSAGES as M, API_KEY_SHOWN_LENGTH, type ApiKeyCreatedWire, type ApiKeyWire } from '../../src/domain/api-keys';
import { ROLE_MESSAGES, type BuiltInRoleKey } from '../../src/domain/permissions';
import type { AuditListWire } from '../../src/domain/audit';
import { buildApp, loggerOptions } from '../../server/app';
import { INVALID_TOKEN_MESSAGE } from '../../server/errors';
import { IN_PERSON_MESSAGE } from '../../server/plugins/auth';
import { apiKeyRateLimitMessage } from '../../server/plugins/api-keys';
import { rowsOf } from '../../server/db/repositories/results';
import { createTestContext, until, type TestContext } from './helpers';

const RATE_LIMIT = 8;
const FUTURE = '2026-03-02T10:00:00.000Z'; // an hour after the test clock's start

let ctx: TestContext;
let ownerId: string;
let ownerToken: string;

async function grant(userId: string, ...keys: BuiltInRoleKey[]): Promise<void> {
  const ids = await Promise.all(keys.map(async (key) => (await ctx.app.repos.roles.findByKey(key))!.id));
  await ctx.app.repos.roles.setUserRoles(userId, ids);
}

async function roleId(key: BuiltInRoleKey): Promise<string> {
  return (await ctx.app.repos.roles.findByKey(key))!.id;
}

/** A portal user holding these roles, signed in. */
async function person(...keys: BuiltInRoleKey[]) {
  const user = await ctx.createAdmin({ roles: keys });
  const { token } = await ctx.login('admin', user.email, user.password);
  return { id: user.id, token: token! };
}

let keyCounter = 0;
async function createKey(token: string, body: Record<string, unknown>) {
  return ctx.request({ method: 'POST', url: '/api/v1/api-keys', token, payload: { name: `System ${++keyCounter}`, ...body } });
}

/** A new key with this role, made by the Owner unless `token` says who. */
async function newKey(role: BuiltInRoleKey, extra: Record<string, unknown> = {}, token = ownerToken): Promise<ApiKeyCreatedWire> {
  const res = await createKey(token, { roleId: await roleId(role), ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { data: ApiKeyCreatedWire }).data;
}

const withKey = (secret: string, method: 'GET' | 'POST', url: string, options: { ip?: string; payload?: Record<string, unknown> } = {}) =>
  ctx.request({
    method,
    url,
    headers: { 'x-api-key': secret },
    ...(options.payload === undefined ? {} : { payload: options.payload }),
    ...(options.ip ? { remoteAddress: options.ip } : {}),
  });

async function listKeys(token = ownerToken): Promise<ApiKeyWire[]> {
  const res = await ctx.request({ method: 'GET', url: '/api/v1/api-keys', token });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: ApiKeyWire[] }).data;
}

beforeAll(async () => {
  ctx = await createTestContext({ env: { API_KEY_RATE_LIMIT: String(RATE_LIMIT) } });
  const owner = await person('owner');
  ownerId = owner.id;
  ownerToken = owner.token;
});

afterAll(async () => {
  await ctx.close();
});

describe('making a key', () => {
  it('answers the key once, stores only its SHA-256, and lists a short prefix of it', async () => {
    const res = await createKey(ownerToken, { name: '  ERP  ', roleId: await roleId('support_read_only') });
    expect(res.statusCode, res.body).toBe(201);
    const { key, secret } = (res.json() as { data: ApiKeyCreatedWire }).data;
    expect(secret).toMatch(/^slk_[A-Za-z0-9_-]{43}$/);
    expect(key).toMatchObject({
      name: 'ERP',
      prefix: secret.slice(0, API_KEY_SHOWN_LENGTH),
      role: { key: 'support_read_only', name: 'Support (read-only)' },
      createdBy: { id: ownerId },
      expiresAt: null,
      allowedIps: [],
      lastUsedAt: null,
      revokedAt: null,
      status: 'active',
    });

    const stored = rowsOf<Record<string, unknown>>(await ctx.database.db.execute(sql`SELECT * FROM api_keys WHERE id = ${key.id}`));
    expect(stored[0]?.key_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(secret.slice(API_KEY_SHOWN_LENGTH));

    const listing = await ctx.request({ method: 'GET', url: '/api/v1/api-keys', token: ownerToken });
    expect(listing.body).not.toContain(secret);
    expect(listing.body).not.toContain(String(stored[0]?.key_hash));
    expect((listing.json() as { data: ApiKeyWire[] }).data.find((k) => k.id === key.id)?.prefix).toBe(secret.slice(0, API_KEY_SHOWN_LENGTH));
  });

  it('refuses a role wider than its creator holds (403), and allows one within it', async () => {
    const manager = await person('user_management');
    const wider = await createKey(manager.token, { roleId: await roleId('support_read_only') });
    expect(wider.statusCode).toBe(403);
    expect(wider.json()).toMatchObject({ success: false, message: ROLE_MESSAGES.escalation });
    const within = await createKey(manager.token, { roleId: await roleId('user_management_read_only') });
    expect(within.statusCode).toBe(201);
  });

  it('needs users:manage to make or revoke keys and users:read to list them', async () => {
    const reader = await person('user_management_read_only');
    expect((await ctx.request({ method: 'GET', url: '/api/v1/api-keys', token: reader.token })).statusCode).toBe(200);
    expect((await createKey(reader.token, { roleId: await roleId('user_management_read_only') })).statusCode).toBe(403);
    const support = await person('support');
    expect((await ctx.request({ method: 'GET', url: '/api/v1/api-keys', token: support.token })).statusCode).toBe(403);
  });

  it('answers bad input with 400s by field, never a 500', async () => {
    const role = await roleId('support_read_only');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '   ', roleId: role }, 'name', M.nameRequired],
      [{ name: 'x'.repeat(81), roleId: role }, 'name', M.nameTooLong],
      [{ roleId: '' }, 'roleId', M.roleRequired],
      [{ roleId: 'not-a-uuid' }, 'roleId', M.roleNotFound],
      [{ roleId: '00000000-0000-4000-8000-000000000000' }, 'roleId', M.roleNotFound],
      [{ roleId: role, expiresAt: 'tomorrow' }, 'expiresAt', M.expiryInvalid],
      [{ roleId: role, expiresAt: '2026-03-01T00:00:00Z' }, 'expiresAt', M.expiryPast],
      [{ roleId: role, allowedIps: ['10.0.0.1/8'] }, 'allowedIps.0', M.ipHostBits('10.0.0.1/8', '10.0.0.0/8')],
      [{ roleId: role, allowedIps: ['203.0.113.7', 'fe80::1%eth0'] }, 'allowedIps.1', M.ipInvalid('fe80::1%eth0')],
      [{ roleId: role, allowedIps: Array.from({ length: 21 }, (_, i) => `10.0.0.${i}`) }, 'allowedIps', M.tooManyIps],
    ];
    for (const [body, path, message] of cases) {
      const res = await ctx.request({ method: 'POST', url: '/api/v1/api-keys', token: ownerToken, payload: { name: 'Bad input', ...body } });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect((res.json() as { errors?: { path: string; message: string }[] }).errors).toContainEqual({ path, message });
    }
    for (const payload of [{ name: 'x', roleId: role, secret: 'mine' }, { name: 7, roleId: role }, { name: 'x', roleId: role, allowedIps: '10.0.0.0/8' }]) {
      expect((await ctx.request({ method: 'POST', url: '/api/v1/api-keys', token: ownerToken, payload })).statusCode).toBe(400);
    }
    expect((await ctx.request({ method: 'POST', url: '/api/v1/api-keys/nope/revoke', token: ownerToken })).statusCode).toBe(400);
  });

  it('refuses a second key in use with the same name (409), and allows it once the first is revoked', async () => {
    const first = await newKey('support_read_only', { name: 'Monitoring' });
    const again = await createKey(ownerToken, { name: 'monitoring', roleId: await roleId('support_read_only') });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: M.nameTaken });
    await ctx.request({ method: 'POST', url: `/api/v1/api-keys/${first.key.id}/revoke`, token: ownerToken });
    expect((await createKey(ownerToken, { name: 'Monitoring', roleId: await roleId('support_read_only') })).statusCode).toBe(201);
  });
});

describe('calling with a key', () => {
  it("acts with its role: the read-only Support role reads terminals and is refused a top-up", async () => {
    const { secret } = await newKey('support_read_only');
    const read = await withKey(secret, 'GET', '/api/v1/terminals');
    expect(read.statusCode, read.body).toBe(200);
    const topUp = await withKey(secret, 'POST', '/api/v1/service-lines/SL-1-2-3/top-up', { payload: { productId: 'TOPUP-1', count: 1 } });
    expect(topUp.statusCode).toBe(403);
    expect(topUp.json()).toMatchObject({ success: false, message: ROLE_MESSAGES.forbidden('lifecycle:manage') });
  });

  it('is refused the routes a person uses in person, and may not make keys', async () => {
    const { secret } = await newKey('owner');
    const me = await withKey(secret, 'GET', '/api/v1/auth/me');
    expect(me.statusCode).toBe(403);
    expect(me.json()).toMatchObject({ message: IN_PERSON_MESSAGE });
    expect((await withKey(secret, 'GET', '/api/v1/api-keys')).statusCode).toBe(200);
    const make = await withKey(secret, 'POST', '/api/v1/api-keys', { payload: { name: 'Child', roleId: await roleId('support_read_only') } });
    expect(make.statusCode).toBe(403);
    expect(make.json()).toMatchObject({ message: M.keyCreatesKey });
  });

  it("never acts beyond its creator's permissions now, and stops while the creator cannot sign in", async () => {
    const creator = await person('owner');
    const { key, secret } = await newKey('support_read_only', {}, creator.token);
    expect((await withKey(secret, 'GET', '/api/v1/webhooks')).statusCode).toBe(200);
    // Demoted to Billing (read-only), who reads terminals but not alerts: the key narrows with them.
    await grant(creator.id, 'billing_read_only');
    expect((await withKey(secret, 'GET', '/api/v1/terminals')).statusCode).toBe(200);
    expect((await withKey(secret, 'GET', '/api/v1/webhooks')).statusCode).toBe(403);
    await ctx.database.db.execute(sql`UPDATE users SET blocked_enabled = true WHERE id = ${creator.id}`);
    expect((await withKey(secret, 'GET', '/api/v1/terminals')).statusCode).toBe(401);
    expect((await listKeys()).find((k) => k.id === key.id)?.status).toBe('suspended');
    await ctx.database.db.execute(sql`UPDATE users SET blocked_enabled = false WHERE id = ${creator.id}`);
    expect((await withKey(secret, 'GET', '/api/v1/terminals')).statusCode).toBe(200);
  });

  it('stops at its expiry', async () => {
    const { key, secret } = await newKey('support_read_only', { expiresAt: FUTURE });
    expect(key.expiresAt).toBe(FUTURE);
    expect((await withKey(secret, 'GET', '/api/v1/terminals')).statusCode).toBe(200);
    ctx.clock.set('2026-03-02T10:00:00.000Z');
    try {
      const late = await withKey(secret, 'GET', '/api/v1/terminals');
      expect(late.statusCode).toBe(401);
      expect(late.json()).toMatchObject({ message: INVALID_TOKEN_MESSAGE });
      expect((await listKeys()).find((k) => k.id === key.id)?.status).toBe('expired');
    } finally {
      ctx.clock.set('2026-03-02T09:00:00.000Z');
    }
  });

  it('works only from the addresses and ranges it allows, IPv4 and IPv6, and records where it was last used', async () => {
    const { key, secret } = await newKey('support_read_only', { allowedIps: ['203.0.113.0/24', ' 2001:db8::/32 ', '198.51.100.7'] });
    expect(key.allowedIps).toEqual(['203.0.113.0/24', '2001:db8::/32', '198.51.100.7']);
    expect((await withKey(secret, 'GET', '/api/v1/terminals', { ip: '203.0.113.200' })).statusCode).toBe(200);
    expect((await withKey(secret, 'GET', '/api/v1/terminals', { ip: '::ffff:198.51.100.7' })).statusCode).toBe(200);
    expect((await withKey(secret, 'GET', '/api/v1/terminals', { ip: '2001:db8:5::1' })).statusCode).toBe(200);
    expect((await withKey(secret, 'GET', '/api/v1/terminals', { ip: '198.51.100.8' })).statusCode).toBe(401);
    expect((await withKey(secret, 'GET', '/api/v1/terminals', { ip: '2001:db9::1' })).statusCode).toBe(401);
    // The first use is recorded; later ones within the minute are not written again.
    const listed = (await listKeys()).find((k) => k.id === key.id);
    expect(listed).toMatchObject({ lastUsedAt: '2026-03-02T09:00:00.000Z', lastUsedIp: '203.0.113.200' });
  });

  it('is refused from the moment it is revoked', async () => {
    const { key, secret } = await newKey('support_read_only');
    expect((await withKey(secret, 'GET', '/api/v1/terminals')).statusCode).toBe(200);
    const revoked = await ctx.request({ method: 'POST', url: `/api/v1/api-keys/${key.id}/revoke`, token: ownerToken });
    expect(revoked.statusCode).toBe(200);
    expect((revoked.json() as { data: ApiKeyWire }).data).toMatchObject({ status: 'revoked', revokedBy: { id: ownerId } });
    const after = await withKey(secret, 'GET', '/api/v1/terminals');
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ message: INVALID_TOKEN_MESSAGE });
    expect((await ctx.request({ method: 'POST', url: `/api/v1/api-keys/${key.id}/revoke`, token: ownerToken })).statusCode).toBe(409);
    expect((await ctx.request({ method: 'POST', url: '/api/v1/api-keys/00000000-0000-4000-8000-000000000000/revoke', token: ownerToken })).statusCode).toBe(404);
  });

  it('answers unknown, revoked and expired keys with the same 401, in the same time', async () => {
    const revoked = await newKey('support_read_only');
    await ctx.request({ method: 'POST', url: `/api/v1/api-keys/${revoked.key.id}/revoke`, token: ownerToken });
    const expired = await newKey('support_read_only', { expiresAt: FUTURE });
    ctx.clock.set('2026-03-02T11:00:00.000Z');
    try {
      const keys = { unknown: `slk_${'A'.repeat(43)}`, revoked: revoked.secret, expired: expired.secret, malformed: 'x' };
      const times: Record<string, number[]> = { unknown: [], revoked: [], expired: [], malformed: [] };
      for (let round = 0; round < 40; round++) {
        for (const [kind, secret] of Object.entries(keys)) {
          const started = process.hrtime.bigint();
          const res = await withKey(secret, 'GET', '/api/v1/terminals');
          times[kind]!.push(Number(process.hrtime.bigint() - started) / 1e6);
          expect(res.statusCode).toBe(401);
          expect(res.json()).toMatchObject({ success: false, message: INVALID_TOKEN_MESSAGE });
        }
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const medians = Object.values(times).map(median);
      // Generous: the paths do the same work, so a real difference (a skipped query) would be a
      // multiple; noise on a busy machine stays within this.
      expect(Math.max(...medians), JSON.stringify(medians)).toBeLessThan(Math.min(...medians) * 2 + 3);
    } finally {
      ctx.clock.set('2026-03-02T09:00:00.000Z');
    }
  });

  it('has a bucket of its own in the rate limit: the limit answers 429 with the envelope, and another key is not slowed', async () => {
    const busy = await newKey('support_read_only');
    const other = await newKey('support_read_only');
    for (let i = 0; i < RATE_LIMIT; i++) expect((await withKey(busy.secret, 'GET', '/api/v1/terminals')).statusCode).toBe(200);
    const limited = await withKey(busy.secret, 'GET', '/api/v1/terminals');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ success: false, message: apiKeyRateLimitMessage(RATE_LIMIT, Number(limited.headers['retry-after'])) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await withKey(other.secret, 'GET', '/api/v1/terminals')).statusCode).toBe(200);
    // People signed in are not counted in a key's bucket.
    expect((await ctx.request({ method: 'GET', url: '/api/v1/terminals', token: ownerToken })).statusCode).toBe(200);
    // Calls refused for want of a permission count too.
    const prober = await newKey('support_read_only');
    for (let i = 0; i < RATE_LIMIT; i++) expect((await withKey(prober.secret, 'GET', '/api/v1/users')).statusCode).toBe(403);
    expect((await withKey(prober.secret, 'GET', '/api/v1/terminals')).statusCode).toBe(429);
  });
});

describe('what a key leaves behind', () => {
  it("audits every call under the key's name, and the writes it makes with the key as the actor", async () => {
    const { key, secret } = await newKey('owner', { name: 'Accounting' });
    await withKey(secret, 'GET', '/api/v1/terminals?search=abc');
    await withKey(secret, 'GET', '/api/v1/auth/me');
    const revokeOther = await newKey('support_read_only');
    expect((await withKey(secret, 'POST', `/api/v1/api-keys/${revokeOther.key.id}/revoke`)).statusCode).toBe(200);
    const entries = async () => {
      const res = await ctx.request({ method: 'GET', url: `/api/v1/audit?actorKind=api_key&actor=Accounting&limit=100`, token: ownerToken });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { data: AuditListWire }).data.entries;
    };
    await until('three calls audited', async () => (await entries()).filter((e) => e.action === 'api_key.request').length === 3, { timeoutMs: 3000 });
    const all = await entries();
    for (const entry of all) expect(entry.actor).toMatchObject({ kind: 'api_key', id: key.id, name: 'Accounting' });
    expect(all.filter((e) => e.action === 'api_key.request').map((e) => e.after)).toEqual(
      expect.arrayContaining([
        { method: 'GET', route: '/api/v1/terminals', status: 200 },
        { method: 'GET', route: '/api/v1/auth/me', status: 403 },
        { method: 'POST', route: '/api/v1/api-keys/:id/revoke', status: 200 },
      ]),
    );
    expect(all.find((e) => e.action === 'api_key.revoked')?.target).toEqual({ type: 'api_key', id: revokeOther.key.id });
    expect(JSON.stringify(all)).not.toContain('search=abc');
  });

  it('never writes a key into the log, whatever the answer', async () => {
    const lines: string[] = [];
    const app = await buildApp({ config: ctx.config, database: ctx.database, now: ctx.clock.now, logger: loggerOptions('trace', { write: (line) => lines.push(line) }) });
    try {
      const { secret } = await newKey('support_read_only');
      for (const url of ['/api/v1/terminals', '/api/v1/service-lines/SL-1/top-up', '/api/v1/auth/me', '/api/v1/nowhere']) {
        await app.inject({ method: url.includes('top-up') ? 'POST' : 'GET', url, headers: { 'x-api-key': secret }, ...(url.includes('top-up') ? { payload: '{bad json' , headers: { 'x-api-key': secret, 'content-type': 'application/json' } } : {}) });
      }
      await app.inject({ method: 'GET', url: '/api/v1/terminals', headers: { 'x-api-key': `${secret}x` } });
      // A request's line is written when its response has finished, which may come just after
      // inject resolves on a loaded machine: wait for the five request lines.
      await until('every request logged', () => lines.filter((line) => line.includes('request completed')).length >= 5, { timeoutMs: 3000 });
      expect(lines.join('\n')).not.toContain(secret.slice(API_KEY_SHOWN_LENGTH));
    } finally {
      await app.close();
    }
  });

  it('is described in the OpenAPI document: the apiKey scheme, offered on every route a permission guards', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/docs/json' });
    const doc = res.json() as { components: { securitySchemes: Record<string, unknown> }; paths: Record<string, Record<string, { security?: unknown[] }>> };
    expect(doc.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.paths['/api/v1/terminals']?.get?.security).toEqual([{ bearerAuth: [] }, { apiKey: [] }]);
    expect(doc.paths['/api/v1/api-keys']?.post?.security).toEqual([{ bearerAuth: [] }, { apiKey: [] }]);
    expect(doc.paths['/api/v1/auth/me']?.get?.security).toEqual([{ bearerAuth: [] }]);
    for (const [route, access] of ctx.app.routeAccess) {
      if (!access.includes(':')) continue;
      const [method, url] = route.split(' ') as [string, string];
      const path = url.replace(/:(\w+)/g, '{$1}');
      const operation = doc.paths[path]?.[method.toLowerCase()];
      if (operation) expect(operation.security, route).toContainEqual({ apiKey: [] });
    }
  });
});
