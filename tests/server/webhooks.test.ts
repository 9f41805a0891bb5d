// Signed webhooks over HTTP, against a real receiver on 127.0.0.1 (plain http to localhost allowed
// in this app's configuration) and the test clock: administrators register endpoints and get the
// secret once; a delivery carries a signature an independent node:crypto check verifies; failures
// are retried on the back-off schedule and abandoned after 24 hours; 20 failures in a row disable
// an endpoint with one notice email; publish() queues one delivery per endpoint taking the type,
// set-based; replay, delete, test events, validation, roles and two delivery runs at once.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  WEBHOOK_DISABLE_AFTER_FAILURES,
  WEBHOOK_HEADERS,
  WEBHOOK_MESSAGES as M,
  type WebhookDeliveryListWire,
  type WebhookDeliveryWire,
  type WebhookEndpointWire,
  type WebhookEventBody,
  type WebhookSecretWire,
} from '../../src/domain/webhooks';
import type { Db } from '../../server/db/client';
import { rowsOf } from '../../server/db/repositories/results';
import { createTestContext, type TestContext } from './helpers';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** The receiver: records every request; answers the next queued status, else 200. */
const received: Received[] = [];
const answers: number[] = [];
let receiver: http.Server;
let base: string;

let ctx: TestContext;
let admin: string;
let adminEmail: string;
let reader: string;
let customer: string;
/** Signs the three in again: a test that moves the clock a day on outlives their tokens. */
let signIn: () => Promise<void>;
let wakes = 0;
/** The times asked for by the wake-ups that named one (the next retry's). */
const wakeTimes: string[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = answers.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'text/plain', ...(status >= 300 && status < 400 ? { location: `${base}/elsewhere` } : {}) });
      res.end(`answer ${status} ${'x'.repeat(2000)}`);
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  ctx = await createTestContext({ env: { WEBHOOK_ALLOW_HTTP_LOCALHOST: '1' } });
  const a = await ctx.createAdmin();
  adminEmail = a.email;
  const u = await ctx.createAdmin({ role: 'user' });
  const c = await ctx.createCustomer();
  signIn = async () => {
    admin = (await ctx.login('admin', a.email, a.password)).token!;
    reader = (await ctx.login('admin', u.email, u.password)).token!;
    customer = (await ctx.login('customer', c.email, c.password)).token!;
  };
  await signIn();
  // The test runs deliveries itself (deliverDue) at the times it sets: whatever waker the app
  // attached (a job queue) is replaced by a counter of the runs asked for.
  ctx.app.services.webhooks.attachWaker((at) => {
    wakes++;
    if (at) wakeTimes.push(at.toISOString());
  });
});

afterAll(async () => {
  await ctx?.close();
  await new Promise((done) => receiver?.close(done));
});

/** Each test starts with no endpoints (deleting abandons what earlier tests left pending) and a quiet receiver. */
beforeEach(async () => {
  await signIn();
  for (const endpoint of await list()) expect((await ctx.request({ method: 'DELETE', url: `/api/v1/webhooks/${endpoint.id}`, token: admin })).statusCode).toBe(200);
  received.length = 0;
  answers.length = 0;
});

const service = () => ctx.app.services.webhooks;
const db = (): Db => ctx.database.db;

async function list(token = admin): Promise<WebhookEndpointWire[]> {
  const res = await ctx.request({ method: 'GET', url: '/api/v1/webhooks', token });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: WebhookEndpointWire[] }).data;
}

async function register(payload: Record<string, unknown>, token = admin): Promise<WebhookSecretWire> {
  const res = await ctx.request({ method: 'POST', url: '/api/v1/webhooks', token, payload });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { data: WebhookSecretWire }).data;
}

async function endpoint(id: string): Promise<WebhookEndpointWire> {
  const res = await ctx.request({ method: 'GET', url: `/api/v1/webhooks/${id}`, token: admin });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: WebhookEndpointWire }).data;
}

async function deliveries(id: string, query = ''): Promise<WebhookDeliveryListWire> {
  const res = await ctx.request({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries${query}`, token: reader });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: WebhookDeliveryListWire }).data;
}

const patch = (id: string, payload: Record<string, unknown>, token = admin) => ctx.request({ method: 'PATCH', url: `/api/v1/webhooks/${id}`, token, payload });

async function query<T>(text: ReturnType<typeof sql>): Promise<T[]> {
  return rowsOf<T>(await db().execute(text));
}

/** The independent receiver-side check: HMAC-SHA256 of `${timestamp}.${rawBody}`, compared in constant time. */
function verifiedBy(secret: string, request: Received): boolean {
  const timestamp = request.headers[WEBHOOK_HEADERS.timestamp] as string;
  const given = Buffer.from(String(request.headers[WEBHOOK_HEADERS.signature]));
  const wanted = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest('hex')}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

describe('registering endpoints', () => {
  it('gives an administrator the secret once; lists show only its hint; the row keeps it sealed; audited', async () => {
    const created = await register({ url: `${base}/a`, description: '  Ops receiver  ', eventTypes: ['alert.opened'] });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created.endpoint).toMatchObject({
      url: `${base}/a`,
      description: 'Ops receiver',
      eventTypes: ['alert.opened'],
      status: 'active',
      consecutiveFailures: 0,
      secretHint: `…${created.secret.slice(-4)}`,
      lastDelivery: null,
    });
    const listed = await ctx.request({ method: 'GET', url: '/api/v1/webhooks', token: reader });
    expect(listed.body).not.toContain(created.secret);
    expect((listed.json() as { data: WebhookEndpointWire[] }).data.map((e) => e.id)).toEqual([created.endpoint.id]);
    const [row] = await query<{ secret_sealed: string }>(sql`SELECT secret_sealed FROM webhook_endpoints WHERE id = ${created.endpoint.id}`);
    expect(row!.secret_sealed).not.toContain(created.secret.slice(6));
    expect(row!.secret_sealed).toMatch(/^v1:/);
    const audit = await query<{ action: string; actor_type: string }>(sql`SELECT action, actor_type FROM audit_log WHERE target_id = ${created.endpoint.id}`);
    expect(audit).toEqual([{ action: 'webhook.created', actor_type: 'user' }]);
  });

  it('refuses URLs that lead into private networks, or are not https, with a clear 400 and nothing written', async () => {
    const cases: [string, string][] = [
      ['http://example.com/hook', M.urlHttpOnlyLocalhost],
      ['https://10.0.0.5/hook', M.urlPrivateAddress('10.0.0.5', '10.0.0.5')],
      ['https://169.254.169.254/latest/meta-data', M.urlPrivateAddress('169.254.169.254', '169.254.169.254')],
      ['https://[::ffff:127.0.0.1]/hook', M.urlPrivateAddress('::ffff:7f00:1', '::ffff:7f00:1')],
      ['https://192.168.1.10/hook', M.urlPrivateAddress('192.168.1.10', '192.168.1.10')],
      ['https://[fd00::1]/hook', M.urlPrivateAddress('fd00::1', 'fd00::1')],
      ['https://100.64.1.1/hook', M.urlPrivateAddress('100.64.1.1', '100.64.1.1')],
      ['ftp://example.com/', M.urlNotHttps],
      ['https://user:secret@example.com/', M.urlCredentials],
    ];
    for (const [url, message] of cases) {
      const res = await ctx.request({ method: 'POST', url: '/api/v1/webhooks', token: admin, payload: { url } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ success: false, message, errors: [{ path: 'url', message }] });
    }
    const res = await patch((await register({ url: `${base}/a` })).endpoint.id, { url: 'https://10.0.0.5/' });
    expect(res.statusCode).toBe(400);
    expect((res.json() as { message: string }).message).toBe(M.urlPrivateAddress('10.0.0.5', '10.0.0.5'));
    expect((await list()).map((e) => e.url)).toEqual([`${base}/a`]);
  });

  it('answers 400 to malformed input, naming the field', async () => {
    const bad: [string, string, unknown][] = [
      ['POST', '/api/v1/webhooks', {}],
      ['POST', '/api/v1/webhooks', { url: `${base}/a`, eventTypes: ['webhook.test'] }],
      ['POST', '/api/v1/webhooks', { url: `${base}/a`, eventTypes: ['alert.bogus'] }],
      ['POST', '/api/v1/webhooks', { url: `${base}/a`, description: 'x'.repeat(201) }],
      ['POST', '/api/v1/webhooks', { url: `${base}/a`, secret: 'mine' }],
      ['POST', '/api/v1/webhooks', { url: `https://example.com/${'x'.repeat(2000)}` }],
      ['PATCH', '/api/v1/webhooks/not-a-uuid', { enabled: true }],
      ['GET', '/api/v1/webhooks/not-a-uuid/deliveries', undefined],
      ['POST', '/api/v1/webhooks/deliveries/42/replay', undefined],
    ];
    for (const [method, url, payload] of bad) {
      const res = await ctx.request({ method: method as 'POST', url, token: admin, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)?.slice(0, 80)}`).toBe(400);
    }
    const id = (await register({ url: `${base}/a` })).endpoint.id;
    expect((await patch(id, {})).statusCode).toBe(400);
    expect((await patch(id, { enabled: 'yes' })).statusCode).toBe(400);
    expect((await patch(id, { eventTypes: ['alert.opened', 'alert.opened'] })).statusCode).toBe(400);
    expect((await ctx.request({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries?limit=0`, token: admin })).statusCode).toBe(400);
    expect((await ctx.request({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries?page=x`, token: admin })).statusCode).toBe(400);
  });

  it('lets only the admin role change endpoints (403 to other portal users, 403 to customers, 401 without a token); any portal user reads', async () => {
    const id = (await register({ url: `${base}/a` })).endpoint.id;
    await service().publish([{ type: 'alert.opened', data: {} }]);
    const deliveryId = (await deliveries(id)).deliveries[0]!.id;
    const changes: [string, string, Record<string, unknown> | undefined][] = [
      ['POST', '/api/v1/webhooks', { url: `${base}/b` }],
      ['PATCH', `/api/v1/webhooks/${id}`, { description: 'mine now' }],
      ['DELETE', `/api/v1/webhooks/${id}`, undefined],
      ['POST', `/api/v1/webhooks/${id}/secret`, undefined],
      ['POST', `/api/v1/webhooks/${id}/test`, undefined],
      ['POST', `/api/v1/webhooks/deliveries/${deliveryId}/replay`, undefined],
    ];
    for (const [method, url, payload] of changes) {
      for (const [token, status] of [[reader, 403], [customer, 403], [null, 401]] as const) {
        const res = await ctx.request({ method: method as 'POST', url, token, ...(payload ? { payload } : {}) });
        expect(res.statusCode, `${method} ${url}`).toBe(status);
      }
    }
    for (const url of ['/api/v1/webhooks', `/api/v1/webhooks/${id}`, `/api/v1/webhooks/${id}/deliveries`]) {
      expect((await ctx.request({ method: 'GET', url, token: reader })).statusCode, url).toBe(200);
      expect((await ctx.request({ method: 'GET', url, token: customer })).statusCode, url).toBe(403);
    }
    expect((await endpoint(id)).description).toBe('');
    const [{ n }] = (await query<{ n: number }>(sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = ${id}`)) as [{ n: number }];
    expect(n).toBe(1);
  });

  it('answers 404 for an unknown or deleted endpoint and an unknown delivery', async () => {
    const gone = (await register({ url: `${base}/a` })).endpoint.id;
    expect((await ctx.request({ method: 'DELETE', url: `/api/v1/webhooks/${gone}`, token: admin })).statusCode).toBe(200);
    for (const id of [gone, '00000000-0000-4000-8000-000000000000']) {
      const calls = [
        ctx.request({ method: 'GET', url: `/api/v1/webhooks/${id}`, token: admin }),
        patch(id, { description: 'x' }),
        ctx.request({ method: 'DELETE', url: `/api/v1/webhooks/${id}`, token: admin }),
        ctx.request({ method: 'POST', url: `/api/v1/webhooks/${id}/secret`, token: admin }),
        ctx.request({ method: 'POST', url: `/api/v1/webhooks/${id}/test`, token: admin }),
        ctx.request({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries`, token: admin }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode).toBe(404);
        expect((res.json() as { message: string }).message).toBe(M.endpointNotFound);
      }
    }
    const res = await ctx.request({ method: 'POST', url: '/api/v1/webhooks/deliveries/00000000-0000-4000-8000-000000000000/replay', token: admin });
    expect(res.statusCode).toBe(404);
    expect((res.json() as { message: string }).message).toBe(M.deliveryNotFound);
  });
});

describe('delivering', () => {
  it('sends a test event to its endpoint only, signed so that an independent HMAC check verifies it', async () => {
    const a = await register({ url: `${base}/a` });
    await register({ url: `${base}/b` });
    const res = await ctx.request({ method: 'POST', url: `/api/v1/webhooks/${a.endpoint.id}/test`, token: admin });
    expect(res.statusCode).toBe(200);
    const queued = (res.json() as { data: WebhookDeliveryWire }).data;
    expect(queued).toMatchObject({ eventType: 'webhook.test', status: 'pending', attempts: 0, attemptLog: [] });

    expect(await service().deliverDue()).toEqual({ attempted: 1, succeeded: 1, failed: 0, abandoned: 0, disabled: 0 });
    expect(received.map((r) => r.path)).toEqual(['/a']);
    const [request] = received as [Received];
    expect(verifiedBy(a.secret, request)).toBe(true);
    expect(verifiedBy(`${a.secret}x`, request)).toBe(false);
    const body = JSON.parse(request.body) as WebhookEventBody;
    expect(body).toMatchObject({ id: queued.eventId, type: 'webhook.test', data: { endpointId: a.endpoint.id } });
    expect(request.headers[WEBHOOK_HEADERS.id]).toBe(queued.eventId);
    expect(request.headers[WEBHOOK_HEADERS.timestamp]).toBe(String(seconds(ctx.clock.now())));
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toMatch(/Webhooks/);

    const log = await deliveries(a.endpoint.id);
    expect(log.deliveries).toHaveLength(1);
    expect(log.deliveries[0]).toMatchObject({ id: queued.id, status: 'succeeded', attempts: 1, responseStatus: 200, error: null, nextAttemptAt: null });
    expect(log.deliveries[0]!.responseExcerpt).toHaveLength(500);
    expect(log.deliveries[0]!.attemptLog).toEqual([expect.objectContaining({ responseStatus: 200, error: null, attemptedAt: ctx.clock.now().toISOString() })]);
    expect(typeof log.deliveries[0]!.latencyMs).toBe('number');
    expect((await endpoint(a.endpoint.id)).lastDelivery).toEqual({ status: 'succeeded', at: ctx.clock.now().toISOString(), responseStatus: 200 });
  });

  it('retries a failing receiver after 30 s, then 60 s later, never before it is due, and succeeds on the third attempt', async () => {
    const a = await register({ url: `${base}/a` });
    const start = ctx.clock.now().getTime();
    answers.push(500, 500);
    expect(await service().publish([{ type: 'alert.opened', data: { line: 'AST-1' } }])).toEqual({ events: 1, deliveries: 1 });

    wakeTimes.length = 0;
    expect(await service().deliverDue()).toMatchObject({ attempted: 1, failed: 1 });
    // The next run is asked for when the retry comes due, not left to the minute's tick.
    expect(wakeTimes).toEqual([new Date(start + 30_000).toISOString()]);
    ctx.clock.set(new Date(start + 29_999));
    expect((await service().deliverDue()).attempted).toBe(0);
    ctx.clock.set(new Date(start + 30_000));
    expect(await service().deliverDue()).toMatchObject({ attempted: 1, failed: 1 });
    expect((await endpoint(a.endpoint.id)).consecutiveFailures).toBe(2);
    ctx.clock.set(new Date(start + 89_999));
    expect((await service().deliverDue()).attempted).toBe(0);
    ctx.clock.set(new Date(start + 90_000));
    expect(await service().deliverDue()).toMatchObject({ attempted: 1, succeeded: 1 });

    expect(received.map((r) => Number(r.headers[WEBHOOK_HEADERS.timestamp]) - seconds(new Date(start)))).toEqual([0, 30, 90]);
    expect(new Set(received.map((r) => r.headers[WEBHOOK_HEADERS.id])).size).toBe(1);
    expect(new Set(received.map((r) => r.body)).size).toBe(1);
    expect(received.every((r) => verifiedBy(a.secret, r))).toBe(true);
    const [delivery] = (await deliveries(a.endpoint.id)).deliveries as [WebhookDeliveryWire];
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3, responseStatus: 200 });
    expect(delivery.attemptLog.map((x) => [x.responseStatus, x.attemptedAt])).toEqual([
      [200, new Date(start + 90_000).toISOString()],
      [500, new Date(start + 30_000).toISOString()],
      [500, new Date(start).toISOString()],
    ]);
    expect(delivery.attemptLog[1]!.error).toBe('Answered 500');
    expect((await endpoint(a.endpoint.id)).consecutiveFailures).toBe(0);
  });

  it('abandons a delivery whose receiver keeps failing once 24 hours have passed since it was made', async () => {
    const a = await register({ url: `${base}/a` });
    const start = ctx.clock.now().getTime();
    // The schedule, worked out here from the documented rule: 30 s doubling, at most 2 h apart, within 24 h.
    const expected = [0];
    for (let delay = 30_000; ; delay = Math.min(delay * 2, 7_200_000)) {
      const next = expected.at(-1)! + delay;
      if (next > 24 * 3_600_000) break;
      expected.push(next);
    }
    answers.push(...Array<number>(expected.length + 5).fill(503));
    await service().publish([{ type: 'alert.opened', data: {} }]);
    const at: number[] = [];
    for (let i = 0; i < 40; i++) {
      const before = received.length;
      const report = await service().deliverDue();
      expect(report.attempted).toBe(1);
      at.push(ctx.clock.now().getTime() - start);
      expect(received.length).toBe(before + 1);
      const [row] = await query<{ status: string; next_attempt_at: unknown }>(sql`SELECT status, next_attempt_at FROM webhook_deliveries WHERE endpoint_id = ${a.endpoint.id}`);
      if (row!.status !== 'pending') {
        expect(row!.status).toBe('abandoned');
        expect(report.abandoned).toBe(1);
        break;
      }
      const next = new Date(String(row!.next_attempt_at instanceof Date ? row!.next_attempt_at.toISOString() : row!.next_attempt_at)).getTime();
      ctx.clock.set(new Date(next - 1));
      expect((await service().deliverDue()).attempted).toBe(0);
      ctx.clock.set(new Date(next));
    }
    expect(at).toEqual(expected);
    ctx.clock.advance(7 * 24 * 3_600_000);
    expect((await service().deliverDue()).attempted).toBe(0);
    await signIn();
    const [delivery] = (await deliveries(a.endpoint.id)).deliveries as [WebhookDeliveryWire];
    expect(delivery).toMatchObject({ status: 'abandoned', attempts: expected.length, nextAttemptAt: null, responseStatus: 503 });
    // Fewer than the failures that disable an endpoint: one dead delivery alone does not.
    expect(await endpoint(a.endpoint.id)).toMatchObject({ status: 'active', consecutiveFailures: expected.length });
  });

  it(`disables an endpoint after ${WEBHOOK_DISABLE_AFTER_FAILURES} failures in a row with one notice to its creator; its deliveries wait until it is enabled again`, async () => {
    const a = await register({ url: `${base}/a` });
    answers.push(...Array<number>(100).fill(500));
    await service().publish([
      { type: 'alert.opened', data: { n: 1 } },
      { type: 'alert.resolved', data: { n: 2 } },
    ]);
    const firstNotice = await lastOutboxId();
    const failures = await failUntilDisabled(a.endpoint.id);
    await signIn();
    expect(failures).toBe(WEBHOOK_DISABLE_AFTER_FAILURES);
    expect(await endpoint(a.endpoint.id)).toMatchObject({
      status: 'disabled',
      disabledReason: M.disabledAfterFailures(WEBHOOK_DISABLE_AFTER_FAILURES),
      consecutiveFailures: WEBHOOK_DISABLE_AFTER_FAILURES,
    });
    const notices = await noticesAfter(firstNotice);
    expect(notices.map((n) => n.recipient)).toEqual([adminEmail]);
    expect(notices[0]!.body_text).toContain(`${base}/a`);

    // Disabled: nothing is attempted, however late, and new events do not queue for it.
    ctx.clock.advance(3_600_000);
    expect((await service().deliverDue()).attempted).toBe(0);
    expect(await service().publish([{ type: 'alert.opened', data: {} }])).toEqual({ events: 0, deliveries: 0 });
    const pending = (await deliveries(a.endpoint.id)).deliveries.filter((d) => d.status === 'pending');
    expect(pending).toHaveLength(2);

    // Replaying or testing a disabled endpoint is refused.
    const replay = await ctx.request({ method: 'POST', url: `/api/v1/webhooks/deliveries/${pending[0]!.id}/replay`, token: admin });
    expect(replay.statusCode).toBe(409);
    expect((replay.json() as { message: string }).message).toBe(M.endpointDisabled);
    expect((await ctx.request({ method: 'POST', url: `/api/v1/webhooks/${a.endpoint.id}/test`, token: admin })).statusCode).toBe(409);

    answers.length = 0;
    const enabled = await patch(a.endpoint.id, { enabled: true });
    expect(enabled.statusCode).toBe(200);
    expect((enabled.json() as { data: WebhookEndpointWire; message: string }).message).toBe(M.enabled);
    expect((enabled.json() as { data: WebhookEndpointWire }).data).toMatchObject({ status: 'active', consecutiveFailures: 0, disabledReason: null, disabledAt: null });
    expect(await service().deliverDue()).toMatchObject({ attempted: 2, succeeded: 2 });
    expect((await noticesAfter(firstNotice)).length).toBe(1);
  });

  it('sends the disabled notice to every active administrator when the endpoint\'s creator is gone', async () => {
    const creator = await ctx.createAdmin();
    const token = (await ctx.login('admin', creator.email, creator.password)).token!;
    const a = await register({ url: `${base}/a` }, token);
    await db().execute(sql`UPDATE users SET deleted_at = now() WHERE id = ${creator.id}`);
    const since = await lastOutboxId();
    answers.push(...Array<number>(100).fill(500));
    await service().publish([{ type: 'alert.opened', data: {} }, { type: 'alert.opened', data: {} }]);
    expect(await failUntilDisabled(a.endpoint.id)).toBe(WEBHOOK_DISABLE_AFTER_FAILURES);
    const admins = await query<{ email: string }>(
      sql`SELECT email FROM users WHERE role = 'admin' AND is_active AND NOT blocked_enabled AND deleted_at IS NULL ORDER BY email`,
    );
    expect(admins.length).toBeGreaterThan(0);
    expect((await noticesAfter(since)).map((n) => n.recipient).sort()).toEqual(admins.map((r) => r.email).sort());
    expect(admins.map((r) => r.email)).not.toContain(creator.email);
  });

  it('does not follow a redirect: a 3xx is a failed attempt and the target is never asked', async () => {
    const a = await register({ url: `${base}/a` });
    answers.push(302);
    await service().publish([{ type: 'alert.opened', data: {} }]);
    expect(await service().deliverDue()).toMatchObject({ attempted: 1, failed: 1 });
    expect(received.map((r) => r.path)).toEqual(['/a']);
    const [delivery] = (await deliveries(a.endpoint.id)).deliveries as [WebhookDeliveryWire];
    expect(delivery).toMatchObject({ status: 'pending', responseStatus: 302 });
    expect(delivery.error).toMatch(/^Answered 302 .*redirects are not followed/);
  });

  it('signs with the new secret once it is rotated, and no longer with the old one', async () => {
    const a = await register({ url: `${base}/a` });
    const res = await ctx.request({ method: 'POST', url: `/api/v1/webhooks/${a.endpoint.id}/secret`, token: admin });
    expect(res.statusCode).toBe(200);
    const rotated = (res.json() as { data: WebhookSecretWire }).data;
    expect(rotated.secret).not.toBe(a.secret);
    expect(rotated.endpoint.secretHint).toBe(`…${rotated.secret.slice(-4)}`);
    await ctx.request({ method: 'POST', url: `/api/v1/webhooks/${a.endpoint.id}/test`, token: admin });
    await service().deliverDue();
    expect(verifiedBy(rotated.secret, received[0]!)).toBe(true);
    expect(verifiedBy(a.secret, received[0]!)).toBe(false);
  });

  it('replays a delivery as a new delivery of the same event, marked as a replay, sent with the same event id', async () => {
    const a = await register({ url: `${base}/a` });
    await service().publish([{ type: 'alert.acknowledged', data: { alert: 'x' } }]);
    await service().deliverDue();
    const [original] = (await deliveries(a.endpoint.id)).deliveries as [WebhookDeliveryWire];
    const res = await ctx.request({ method: 'POST', url: `/api/v1/webhooks/deliveries/${original.id}/replay`, token: admin });
    expect(res.statusCode).toBe(200);
    const replay = (res.json() as { data: WebhookDeliveryWire }).data;
    expect(replay).toMatchObject({ eventId: original.eventId, eventType: 'alert.acknowledged', replayOf: original.id, status: 'pending', attempts: 0 });
    expect(replay.id).not.toBe(original.id);
    await service().deliverDue();
    expect(received.map((r) => r.headers[WEBHOOK_HEADERS.id])).toEqual([original.eventId, original.eventId]);
    expect(received[0]!.body).toBe(received[1]!.body);
    const log = (await deliveries(a.endpoint.id)).deliveries;
    expect(log.map((d) => [d.id, d.status])).toEqual(
      expect.arrayContaining([
        [original.id, 'succeeded'],
        [replay.id, 'succeeded'],
      ]),
    );
  });

  it('abandons the pending deliveries of a deleted endpoint, which is then gone from every list', async () => {
    const a = await register({ url: `${base}/a` });
    await service().publish([{ type: 'alert.opened', data: {} }, { type: 'alert.resolved', data: {} }]);
    const res = await ctx.request({ method: 'DELETE', url: `/api/v1/webhooks/${a.endpoint.id}`, token: admin });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { data: null }).data).toBeNull();
    const rows = await query<{ status: string; error: string }>(sql`SELECT status, error FROM webhook_deliveries WHERE endpoint_id = ${a.endpoint.id}`);
    expect(rows).toEqual([
      { status: 'abandoned', error: 'The endpoint was deleted' },
      { status: 'abandoned', error: 'The endpoint was deleted' },
    ]);
    expect((await service().deliverDue()).attempted).toBe(0);
    expect(received).toEqual([]);
    expect(await list()).toEqual([]);
  });

  it('never sends one delivery twice when two delivery runs go at once', async () => {
    const a = await register({ url: `${base}/a` });
    await service().publish(Array.from({ length: 20 }, (_, n) => ({ type: 'alert.opened' as const, data: { n } })));
    const [one, two] = await Promise.all([service().deliverDue(), service().deliverDue()]);
    expect(one!.attempted + two!.attempted).toBe(20);
    const ids = received.map((r) => r.headers[WEBHOOK_HEADERS.id]);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
    const attempts = await query<{ n: number }>(sql`SELECT count(*)::int AS n FROM webhook_attempts t JOIN webhook_deliveries d ON d.id = t.delivery_id WHERE d.endpoint_id = ${a.endpoint.id}`);
    expect(attempts[0]!.n).toBe(20);
    expect((await service().deliverDue()).attempted).toBe(0);
  });
});

describe('asking for a delivery run', () => {
  it('wakes the attached waker after a test event, a replay and enabling an endpoint, not on publish', async () => {
    const a = await register({ url: `${base}/a` });
    wakes = 0;
    await service().publish([{ type: 'alert.opened', data: {} }]);
    expect(wakes).toBe(0);
    await ctx.request({ method: 'POST', url: `/api/v1/webhooks/${a.endpoint.id}/test`, token: admin });
    expect(wakes).toBe(1);
    const [delivery] = (await deliveries(a.endpoint.id)).deliveries;
    await ctx.request({ method: 'POST', url: `/api/v1/webhooks/deliveries/${delivery!.id}/replay`, token: admin });
    expect(wakes).toBe(2);
    await patch(a.endpoint.id, { enabled: false });
    expect(wakes).toBe(2);
    await patch(a.endpoint.id, { enabled: true });
    expect(wakes).toBe(3);
  });
});

describe('publish()', () => {
  it('queues one delivery per active endpoint taking the type: all types, a filtered one, not a disabled or deleted one', async () => {
    const all = await register({ url: `${base}/all` });
    const resolvedOnly = await register({ url: `${base}/resolved`, eventTypes: ['alert.resolved'] });
    const paused = await register({ url: `${base}/paused` });
    expect((await patch(paused.endpoint.id, { enabled: false })).statusCode).toBe(200);
    expect((await endpoint(paused.endpoint.id)).disabledReason).toBe(M.disabledByAdmin);
    const deleted = await register({ url: `${base}/deleted` });
    await ctx.request({ method: 'DELETE', url: `/api/v1/webhooks/${deleted.endpoint.id}`, token: admin });

    const result = await service().publish([
      { type: 'alert.opened', data: { alert: 'one' } },
      { type: 'alert.resolved', data: { alert: 'two' } },
    ]);
    expect(result).toEqual({ events: 2, deliveries: 3 });
    const rows = await query<{ endpoint_id: string; type: string; next_attempt_at: unknown; created_at: unknown }>(
      sql`SELECT d.endpoint_id::text, e.type, d.next_attempt_at, d.created_at FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.status = 'pending' ORDER BY e.type, d.endpoint_id`,
    );
    expect(rows.map((r) => [r.endpoint_id, r.type]).sort()).toEqual(
      [
        [all.endpoint.id, 'alert.opened'],
        [all.endpoint.id, 'alert.resolved'],
        [resolvedOnly.endpoint.id, 'alert.resolved'],
      ].sort(),
    );
    await service().deliverDue();
    const bodies = received.map((r) => ({ path: r.path, body: JSON.parse(r.body) as WebhookEventBody }));
    expect(bodies.map((b) => `${b.path} ${b.body.type}`).sort()).toEqual(['/all alert.opened', '/all alert.resolved', '/resolved alert.resolved']);
    const resolvedBodies = bodies.filter((b) => b.body.type === 'alert.resolved');
    // One event, two endpoints: the same event id and body.
    expect(resolvedBodies[0]!.body).toEqual(resolvedBodies[1]!.body);
    expect(resolvedBodies[0]!.body).toEqual({ id: expect.any(String), type: 'alert.resolved', createdAt: ctx.clock.now().toISOString(), data: { alert: 'two' } });
  });

  it('writes inside the caller\'s transaction: rolled back, nothing is queued', async () => {
    await register({ url: `${base}/a` });
    await expect(
      db().transaction(async (tx) => {
        expect(await service().publish([{ type: 'alert.opened', data: {} }], tx)).toEqual({ events: 1, deliveries: 1 });
        throw new Error('the alert change failed');
      }),
    ).rejects.toThrow('the alert change failed');
    expect(await query(sql`SELECT id FROM webhook_deliveries WHERE status = 'pending'`)).toEqual([]);
  });

  it('queues 1,000 events for two endpoints in one statement', async () => {
    await register({ url: `${base}/a` });
    await register({ url: `${base}/b` });
    const statements: string[] = [];
    const counting = new Proxy(db(), {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (['execute', 'select', 'insert', 'update', 'delete', '$count', 'transaction'].includes(String(property))) statements.push(String(property));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const events = Array.from({ length: 1000 }, (_, n) => ({ type: 'alert.opened' as const, data: { n, line: `AST-${n}` } }));
    const started = performance.now();
    expect(await service().publish(events, counting)).toEqual({ events: 1000, deliveries: 2000 });
    const took = performance.now() - started;
    expect(statements).toEqual(['execute']);
    expect(took).toBeLessThan(5000);
    const [row] = await query<{ n: number; distinct_events: number }>(
      sql`SELECT count(*)::int AS n, count(DISTINCT event_id)::int AS distinct_events FROM webhook_deliveries WHERE status = 'pending'`,
    );
    expect(row).toEqual({ n: 2000, distinct_events: 1000 });
  });
});

/** Runs deliveries (moving the clock to each next due time) until the endpoint is disabled; the failed attempts it took. */
async function failUntilDisabled(endpointId: string): Promise<number> {
  let failed = 0;
  for (let i = 0; i < 60; i++) {
    const report = await service().deliverDue();
    failed += report.failed;
    if (report.disabled > 0) {
      expect(report.disabled).toBe(1);
      return failed;
    }
    const [row] = await query<{ next: unknown }>(sql`SELECT min(next_attempt_at) AS next FROM webhook_deliveries WHERE endpoint_id = ${endpointId} AND status = 'pending'`);
    expect(row!.next).not.toBeNull();
    ctx.clock.set(new Date(row!.next instanceof Date ? row!.next.getTime() : String(row!.next)));
  }
  throw new Error('the endpoint was never disabled');
}

async function lastOutboxId(): Promise<number> {
  const [row] = await query<{ id: number | string }>(sql`SELECT coalesce(max(id), 0) AS id FROM email_outbox`);
  return Number(row!.id);
}

/** The disabled-endpoint notices written after outbox row `id`. */
async function noticesAfter(id: number) {
  return query<{ recipient: string; body_text: string }>(
    sql`SELECT recipient, body_text FROM email_outbox WHERE subject = ${M.disabledNoticeSubject} AND id > ${id} ORDER BY id`,
  );
}
