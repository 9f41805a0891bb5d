// The simulator's token endpoint and bearer checks, and the plugin mounted inside a portal-like app.
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { simulatorPlugin, startSimulator, type RunningSimulator } from '../../server/simulator/index';
import { contract } from './contract/openapi-contract';

function testClock(start: string) {
  let at = Date.parse(start);
  return { now: () => new Date(at), advanceSeconds: (s: number) => (at += s * 1000) };
}

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields),
});

async function requestToken(sim: RunningSimulator, fields: Partial<Record<'client_id' | 'client_secret' | 'grant_type', string>> = {}) {
  const response = await fetch(
    sim.tokenUrl,
    form({ client_id: sim.credentials.clientId, client_secret: sim.credentials.clientSecret, grant_type: 'client_credentials', ...fields }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers };
}

const getAccount = (sim: RunningSimulator, authorization?: string) =>
  fetch(`${sim.baseUrl}/public/v2/account`, { headers: authorization ? { authorization } : {} });

describe('token endpoint', () => {
  const clock = testClock('2026-03-18T10:30:00Z');
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ now: clock.now });
  });
  afterAll(() => sim.close());

  it('issues a Bearer token for the right client id and secret, with no refresh token', async () => {
    const { status, body, headers } = await requestToken(sim);
    expect(status).toBe(200);
    expect(body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 900, scope: 'public_api' });
    expect(headers.get('cache-control')).toBe('no-store');
  });

  it('answers 401 invalid_client to a wrong secret or an unknown client', async () => {
    for (const fields of [{ client_secret: 'wrong' }, { client_id: 'someone-else' }]) {
      const { status, body } = await requestToken(sim, fields);
      expect(status).toBe(401);
      expect(body.error).toBe('invalid_client');
    }
  });

  it('answers 400 to an unsupported grant type or missing credentials', async () => {
    expect((await requestToken(sim, { grant_type: 'password' })).body.error).toBe('unsupported_grant_type');
    const missing = await fetch(sim.tokenUrl, form({ grant_type: 'client_credentials' }));
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('requires a form-encoded body: JSON is an invalid_request', async () => {
    const response = await fetch(sim.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: sim.credentials.clientId, client_secret: sim.credentials.clientSecret, grant_type: 'client_credentials' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('x-www-form-urlencoded') });
  });

  it('also takes the client credentials as HTTP Basic', async () => {
    const basic = Buffer.from(`${sim.credentials.clientId}:${sim.credentials.clientSecret}`).toString('base64');
    const response = await fetch(sim.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
      body: 'grant_type=client_credentials',
    });
    expect(response.status).toBe(200);
  });
});

describe('bearer tokens on /public/v2', () => {
  const clock = testClock('2026-03-18T10:30:00Z');
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ now: clock.now });
  });
  afterAll(() => sim.close());

  it('answers 401 with an envelope and WWW-Authenticate when the token is missing', async () => {
    const response = await getAccount(sim);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    const body = await response.json();
    contract.expectResponseMatches('GET', '/public/v2/account', 401, body);
    expect(body.isValid).toBe(false);
  });

  it('answers 401 to a malformed header or a token it never issued', async () => {
    for (const header of ['Token abc', 'Bearer', 'Bearer not-a-token-we-issued']) {
      const response = await getAccount(sim, header);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('accepts a token until it expires, then answers 401', async () => {
    const { body } = await requestToken(sim);
    const authorization = `Bearer ${body.access_token as string}`;
    expect((await getAccount(sim, authorization)).status).toBe(200);
    clock.advanceSeconds(899);
    expect((await getAccount(sim, authorization)).status).toBe(200);
    clock.advanceSeconds(1);
    const expired = await getAccount(sim, authorization);
    expect(expired.status).toBe(401);
    expect((await expired.json()).errors[0].errorMessage).toMatch(/expired/);
    // A new token works again: the client's "renew on 401 and retry once".
    const renewed = await requestToken(sim);
    expect((await getAccount(sim, `Bearer ${renewed.body.access_token as string}`)).status).toBe(200);
  });

  it('does not accept a token another simulator issued', async () => {
    const other = await startSimulator({ now: clock.now });
    try {
      const { body } = await requestToken(other);
      expect((await getAccount(sim, `Bearer ${body.access_token as string}`)).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('uses the credentials and token lifetime it is given', async () => {
    const custom = await startSimulator({ credentials: { clientId: 'acme', clientSecret: 's3cret-value' }, tokenTtlSeconds: 60, now: clock.now });
    try {
      expect(custom.credentials).toEqual({ clientId: 'acme', clientSecret: 's3cret-value' });
      const { status, body } = await requestToken(custom);
      expect(status).toBe(200);
      expect(body.expires_in).toBe(60);
    } finally {
      await custom.close();
    }
  });
});

describe('mounted inside a portal-like app', () => {
  it('serves the provider wire format under /simulator/api, untouched by the host app\'s schemas, parsers and handlers', async () => {
    const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
    // What the portal does at its root: zod compilers, no text/plain parser, its own error and 404 shapes.
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.removeContentTypeParser('text/plain');
    app.setErrorHandler((_error, _request, reply) => reply.code(500).send({ portal: 'error' }));
    app.get('/api/v1/ping', { schema: { response: { 200: z.object({ ok: z.boolean() }) } } }, async () => ({ ok: true }));
    await app.register(simulatorPlugin, { prefix: '/simulator/api', seed: 'mounted', now: () => new Date('2026-03-18T10:30:00Z') });
    app.setNotFoundHandler((_request, reply) => reply.code(404).send({ portal: 'not found' }));
    await app.ready();
    try {
      const token = await app.inject({
        method: 'POST',
        url: '/simulator/api/auth/connect/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'client_id=simulator-demo-client&client_secret=simulator-demo-secret&grant_type=client_credentials',
      });
      expect(token.statusCode).toBe(200);
      const authorization = `Bearer ${token.json<{ access_token: string }>().access_token}`;

      const account = await app.inject({ method: 'GET', url: '/simulator/api/public/v2/account', headers: { authorization } });
      expect(account.statusCode).toBe(200);
      contract.expectResponseMatches('GET', '/simulator/api/public/v2/account', 200, account.json());

      const emptyPost = await app.inject({
        method: 'POST',
        url: '/simulator/api/public/v2/data-usage/query?limit=1',
        headers: { authorization, 'content-type': 'application/json' },
      });
      expect(emptyPost.statusCode).toBe(200);

      const textPost = await app.inject({
        method: 'POST',
        url: '/simulator/api/public/v2/data-usage/query',
        headers: { authorization, 'content-type': 'text/plain' },
        payload: 'hello',
      });
      expect(textPost.statusCode).toBe(403);

      const unknown = await app.inject({ method: 'GET', url: '/simulator/api/public/v2/nothing-here', headers: { authorization } });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ isValid: false, errors: [expect.objectContaining({ errorMessage: expect.any(String) })] });

      expect((await app.inject({ method: 'GET', url: '/elsewhere' })).json()).toEqual({ portal: 'not found' });
      expect((await app.inject({ method: 'GET', url: '/api/v1/ping' })).json()).toEqual({ ok: true });
    } finally {
      await app.close();
    }
  });
});
