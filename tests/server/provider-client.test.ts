// The provider client's failure modes, against a small scripted HTTP server of our own (real
// sockets, so dropped connections and stalls are real). The simulator suite covers whole runs.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createStarlinkClient,
  ProviderAuthError,
  ProviderNotFoundError,
  ProviderPermissionError,
  ProviderRateLimitError,
  ProviderResponseError,
  ProviderTimeoutError,
  ProviderUnavailableError,
  ProviderValidationError,
  type ProviderClientOptions,
} from '../../server/provider';

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Reply = (req: Seen, res: http.ServerResponse) => void;
type Route = Reply | Reply[];

interface Fake {
  apiUrl: string;
  tokenUrl: string;
  seen: Seen[];
  api: () => Seen[];
  tokens: () => Seen[];
  route(key: string, reply: Route): void;
  close(): Promise<void>;
}

const fakes: Fake[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => (_req, res) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
const ok = (content?: unknown): Reply => json(200, { errors: null, warnings: null, information: null, isValid: true, ...(content === undefined ? {} : { content }) });
const drop: Reply = (_req, res) => res.socket?.destroy();
const stall: Reply = () => undefined;

const ACCOUNT = { accountNumber: 'ACC-511274-31364-54', regionCode: 'US', accountName: 'Reseller', activeSuspensions: [] };
const terminal = (n: number) => ({
  userTerminalId: `00020900-002220cc-${n.toString(16).padStart(8, '0')}`,
  nickname: null,
  kitSerialNumber: `KIT${String(n).padStart(8, '0')}`,
  dishSerialNumber: `2DHT${String(n).padStart(8, '0')}`,
  serviceLineNumber: n % 3 === 0 ? null : `AST-511274-31364-${n}`,
  l2VpnCircuits: [],
  routers: [],
});
const page = <T>(results: T[], pageIndex: number, isLastPage: boolean, totalCount: number) => ({ pageIndex, limit: 100, isLastPage, results, totalCount });

/** A server answering tokens `tok-1`, `tok-2`… and the routes given as `METHOD /path`. */
async function fake(routes: Record<string, Route> = {}): Promise<Fake> {
  const table = new Map<string, Route>(Object.entries(routes));
  const counts = new Map<string, number>();
  const seen: Seen[] = [];
  let tokenCount = 0;
  table.set('GET /api/public/v2/account', table.get('GET /api/public/v2/account') ?? ok(ACCOUNT));
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const entry: Seen = { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString() };
      seen.push(entry);
      const key = `${entry.method} ${entry.path}`;
      if (key === 'POST /api/auth/connect/token' && !table.has(key)) {
        tokenCount += 1;
        return json(200, { access_token: `tok-${tokenCount}`, token_type: 'Bearer', expires_in: 900, scope: 'api' })(entry, res);
      }
      const route = table.get(key);
      if (!route) return json(404, { errors: [{ memberNames: [], errorMessage: `no route ${key}` }], isValid: false })(entry, res);
      const n = counts.get(key) ?? 0;
      counts.set(key, n + 1);
      const reply = Array.isArray(route) ? route[Math.min(n, route.length - 1)]! : route;
      reply(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}/api`;
  const f: Fake = {
    apiUrl: base,
    tokenUrl: `${base}/auth/connect/token`,
    seen,
    api: () => seen.filter((s) => s.path.startsWith('/api/public/')),
    tokens: () => seen.filter((s) => s.path === '/api/auth/connect/token'),
    route: (key, reply) => table.set(key, reply),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  fakes.push(f);
  return f;
}

/** Client on a simulated clock: sleeps are recorded and move the clock at once (aborts honoured). */
function clientFor(f: Fake, extra: Partial<ProviderClientOptions> = {}) {
  const sleeps: number[] = [];
  let t = Date.parse('2026-06-01T00:00:00Z');
  const client = createStarlinkClient({
    apiUrl: f.apiUrl,
    tokenUrl: f.tokenUrl,
    clientId: 'client-id',
    clientSecret: 's3cret&=',
    random: () => 0.5,
    now: () => new Date(t),
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      sleeps.push(ms);
      t += ms;
    },
    ...extra,
  });
  return { client, sleeps };
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('provider client: token', () => {
  it('asks for a client-credentials token form-encoded and sends it as a bearer token', async () => {
    const f = await fake();
    const { client } = clientFor(f);
    await client.getAccount();
    const [token] = f.tokens();
    expect(token?.method).toBe('POST');
    expect(token?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(token?.body))).toEqual({
      client_id: 'client-id',
      client_secret: 's3cret&=',
      grant_type: 'client_credentials',
    });
    expect(f.api()[0]?.headers.authorization).toBe('Bearer tok-1');
  });

  it('shares one token request between concurrent callers and reuses the token afterwards', async () => {
    const f = await fake({ 'GET /api/public/v2/service-lines/AST-1': ok({ serviceLineNumber: 'AST-1', productReferenceId: 'p', active: true }) });
    const { client } = clientFor(f);
    await Promise.all(Array.from({ length: 8 }, () => client.getServiceLine('AST-1')));
    await client.getServiceLine('AST-1');
    expect(f.tokens()).toHaveLength(1);
    expect(client.usage().tokenRequests).toBe(1);
  });

  it('renews the token a minute before it expires', async () => {
    const f = await fake({ 'GET /api/public/v2/service-lines/AST-1': ok({ serviceLineNumber: 'AST-1', productReferenceId: 'p', active: true }) });
    let t = Date.parse('2026-06-01T00:00:00Z');
    const { client } = clientFor(f, { now: () => new Date(t) });
    await client.getServiceLine('AST-1');
    t += 839_000; // 900 s token: still more than 60 s left
    await client.getServiceLine('AST-1');
    expect(f.tokens()).toHaveLength(1);
    t += 2_000; // now inside the last minute
    await client.getServiceLine('AST-1');
    expect(f.tokens()).toHaveLength(2);
    expect(f.api().at(-1)?.headers.authorization).toBe('Bearer tok-2');
  });

  it('gets a new token once after a 401 and retries the call with it', async () => {
    const f = await fake({
      'GET /api/public/v2/service-lines/AST-1': [json(401, {}), ok({ serviceLineNumber: 'AST-1', productReferenceId: 'p', active: true })],
    });
    const { client } = clientFor(f);
    await expect(client.getServiceLine('AST-1')).resolves.toMatchObject({ serviceLineNumber: 'AST-1' });
    expect(f.api().map((s) => s.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(client.usage()).toMatchObject({ requests: 2, retries: 1, tokenRequests: 2 });
  });

  it('renews a token that expired under several calls in flight once, and sends each call again once with it', async () => {
    const line = { serviceLineNumber: 'AST-1', productReferenceId: 'p', active: true };
    const held: (() => void)[] = [];
    // The provider's "expired" 401s go out only once all four calls were sent with the old token.
    const expiredUntilRenewed: Reply = (req, res) => {
      if (req.headers.authorization === 'Bearer tok-2') return ok(line)(req, res);
      const refuse = json(
        401,
        { errors: [{ errorMessage: 'The access token has expired', memberNames: [] }], warnings: null, information: null, isValid: false },
        { 'www-authenticate': 'Bearer error="invalid_token", error_description="The access token has expired"' },
      );
      held.push(() => refuse(req, res));
      if (held.length === 4) for (const send of held.splice(0)) send();
    };
    const f = await fake({ 'GET /api/public/v2/service-lines/AST-1': expiredUntilRenewed });
    const { client } = clientFor(f);
    await expect(Promise.all(Array.from({ length: 4 }, () => client.getServiceLine('AST-1')))).resolves.toHaveLength(4);
    expect(f.tokens()).toHaveLength(2);
    expect(f.api().map((s) => s.headers.authorization)).toEqual([...Array(4).fill('Bearer tok-1'), ...Array(4).fill('Bearer tok-2')]);
    expect(client.usage()).toMatchObject({ requests: 8, retries: 4, tokenRequests: 2 });
  });

  it('gives up with ProviderAuthError when the renewed token is refused too', async () => {
    const f = await fake({ 'GET /api/public/v2/service-lines/AST-1': json(401, {}) });
    const { client } = clientFor(f);
    const error = await caught(client.getServiceLine('AST-1'));
    expect(error).toBeInstanceOf(ProviderAuthError);
    expect(error).toMatchObject({ status: 401, kind: 'auth' });
    expect(f.api()).toHaveLength(2);
  });

  it('reports refused credentials as ProviderAuthError with the token endpoint description', async () => {
    const f = await fake({ 'POST /api/auth/connect/token': json(400, { error: 'invalid_client', error_description: 'Client authentication failed' }) });
    const { client } = clientFor(f);
    const error = await caught(client.getAccount());
    expect(error).toBeInstanceOf(ProviderAuthError);
    expect(error).toMatchObject({ status: 400, messages: ['Client authentication failed'] });
    expect(f.api()).toHaveLength(0);
  });
});

describe('provider client: errors', () => {
  it('maps a 403 to ProviderPermissionError naming the required permission', async () => {
    const f = await fake({
      'GET /api/public/v2/user-terminals': json(403, {
        errors: null,
        isValid: false,
        content: { accountId: 'ACC-1', requiredPermission: { featureAccess: 8, permission: 0 }, featureAccessString: 'DeviceManagement', permissionString: 'View' },
      }),
    });
    const { client } = clientFor(f);
    const error = await caught(client.listUserTerminals());
    expect(error).toBeInstanceOf(ProviderPermissionError);
    expect(error).toMatchObject({
      status: 403,
      messages: ['Requires DeviceManagement, View'],
      requiredPermission: { featureAccess: 8, permission: 0, featureAccessString: 'DeviceManagement', permissionString: 'View' },
    });
  });

  it('maps a 404 to ProviderNotFoundError', async () => {
    const f = await fake({ 'GET /api/public/v2/service-lines/AST-404': json(404, { errors: [{ memberNames: [], errorMessage: 'Service line not found' }], isValid: false }) });
    const { client } = clientFor(f);
    const error = await caught(client.getServiceLine('AST-404'));
    expect(error).toBeInstanceOf(ProviderNotFoundError);
    expect(error).toMatchObject({ status: 404, messages: ['Service line not found'], path: '/public/v2/service-lines/AST-404' });
  });

  it('maps a 422 to ProviderValidationError with the envelope messages and fields', async () => {
    const f = await fake({
      'POST /api/public/v2/service-lines/AST-1/user-terminals': json(422, {
        errors: [{ memberNames: ['deviceId'], errorMessage: 'User terminal is already on a service line' }],
        warnings: null,
        information: null,
        isValid: false,
      }),
    });
    const { client } = clientFor(f);
    const error = await caught(client.attachTerminal('AST-1', 'ut-1'));
    expect(error).toBeInstanceOf(ProviderValidationError);
    expect(error).toMatchObject({ status: 422, messages: ['User terminal is already on a service line'], fields: ['deviceId'] });
    expect((error as Error).message).toContain('User terminal is already on a service line');
  });

  it('maps a 400 without a body to ProviderValidationError', async () => {
    const f = await fake({ 'GET /api/public/v2/service-lines/bad': (_q, res) => res.writeHead(400).end() });
    const { client } = clientFor(f);
    const error = await caught(client.getServiceLine('bad'));
    expect(error).toBeInstanceOf(ProviderValidationError);
    expect(error).toMatchObject({ status: 400, messages: [] });
  });

  it('treats a 200 with isValid:false and errors as ProviderValidationError, without errors as ProviderResponseError', async () => {
    const f = await fake({
      'POST /api/public/v2/user-terminals/ut-1/reboot': [
        json(200, { errors: [{ memberNames: [], errorMessage: 'Terminal offline' }], isValid: false }),
        json(200, { errors: [], isValid: false }),
      ],
    });
    const { client } = clientFor(f);
    await expect(client.rebootTerminal('ut-1')).rejects.toMatchObject({ name: 'ProviderValidationError', messages: ['Terminal offline'] });
    await expect(client.rebootTerminal('ut-1')).rejects.toBeInstanceOf(ProviderResponseError);
  });

  it('rejects a body that is not JSON with ProviderResponseError', async () => {
    const f = await fake({ 'GET /api/public/v2/service-lines/AST-1': (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>') });
    const { client } = clientFor(f);
    const error = await caught(client.getServiceLine('AST-1'));
    expect(error).toBeInstanceOf(ProviderResponseError);
    expect(error).toMatchObject({ status: 200, messages: ['<html>maintenance</html>'] });
  });

  it('rejects a record missing a field we use with ProviderResponseError naming the field', async () => {
    const broken = { ...terminal(1), userTerminalId: undefined };
    const f = await fake({ 'GET /api/public/v2/user-terminals': ok(page([terminal(0), broken], 0, true, 2)) });
    const { client } = clientFor(f);
    const error = await caught(client.listUserTerminals());
    expect(error).toBeInstanceOf(ProviderResponseError);
    expect((error as ProviderResponseError).messages[0]).toMatch(/^content\.results\.1\.userTerminalId: /);
  });

  it('keeps records with extra fields and fills absent optional ones with null', async () => {
    const f = await fake({
      'GET /api/public/v2/service-lines/AST-1': ok({ serviceLineNumber: 'AST-1', productReferenceId: 'p', active: false, somethingNew: { a: 1 } }),
    });
    const { client } = clientFor(f);
    const line = await client.getServiceLine('AST-1');
    expect(line).toMatchObject({ serviceLineNumber: 'AST-1', nickname: null, endDate: null, dataBlocks: null, active: false });
    expect(line).not.toHaveProperty('somethingNew');
  });
});

describe('provider client: retries', () => {
  it('retries 5xx answers with full-jitter back-off and then succeeds', async () => {
    const line = { serviceLineNumber: 'AST-1', productReferenceId: 'p', active: true };
    const f = await fake({ 'GET /api/public/v2/service-lines/AST-1': [json(500, {}), json(502, {}), json(503, {}), ok(line)] });
    const { client, sleeps } = clientFor(f, { backoffBaseMs: 100 });
    await expect(client.getServiceLine('AST-1')).resolves.toMatchObject(line);
    // random() = 0.5 of 100, 200, 400
    expect(sleeps).toEqual([50, 100, 200]);
    expect(client.usage()).toMatchObject({ requests: 4, retries: 3, backoffMs: 350 });
  });

  it('retries a dropped connection and then succeeds', async () => {
    const line = { serviceLineNumber: 'AST-1', productReferenceId: 'p', active: true };
    const f = await fake({ 'GET /api/public/v2/service-lines/AST-1': [drop, drop, ok(line)] });
    const { client } = clientFor(f);
    await expect(client.getServiceLine('AST-1')).resolves.toMatchObject(line);
    expect(f.api()).toHaveLength(3);
  });

  it('gives up with ProviderUnavailableError after maxRetries', async () => {
    const f = await fake({ 'GET /api/public/v2/service-lines/AST-1': json(503, {}) });
    const { client } = clientFor(f, { maxRetries: 2 });
    const error = await caught(client.getServiceLine('AST-1'));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error).toMatchObject({ status: 503, attempts: 3 });
    expect(f.api()).toHaveLength(3);
  });

  it('gives up on dropped connections with ProviderUnavailableError naming the network error', async () => {
    const f = await fake({ 'GET /api/public/v2/service-lines/AST-1': drop });
    const { client } = clientFor(f, { maxRetries: 1 });
    const error = await caught(client.getServiceLine('AST-1'));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error).toMatchObject({ status: null, attempts: 2 });
    expect((error as ProviderUnavailableError).messages[0]).toMatch(/fetch failed|socket|closed/i);
  });

  it('does not resend a reboot after a 5xx or a dropped connection (it may have happened)', async () => {
    const f = await fake({ 'POST /api/public/v2/user-terminals/ut-1/reboot': [json(500, {}), drop] });
    const { client } = clientFor(f);
    await expect(client.rebootTerminal('ut-1')).rejects.toMatchObject({ name: 'ProviderUnavailableError', status: 500, attempts: 1 });
    await expect(client.rebootTerminal('ut-1')).rejects.toMatchObject({ name: 'ProviderUnavailableError', status: null, attempts: 1 });
    expect(f.api().filter((s) => s.method === 'POST')).toHaveLength(2);
  });

  it('slows down on 429, holding the limiter back, and gives up with ProviderRateLimitError', async () => {
    const f = await fake({ 'GET /api/public/v2/service-lines/AST-1': json(429, {}) });
    const { client, sleeps } = clientFor(f, { maxRetries: 3, backoffBaseMs: 1_000 });
    const error = await caught(client.getServiceLine('AST-1'));
    expect(error).toBeInstanceOf(ProviderRateLimitError);
    expect(error).toMatchObject({ status: 429, attempts: 4 });
    // Each 429 pauses the limiter by random() × 1000 × 2^(n-1); the retry waits there.
    expect(sleeps).toEqual([500, 1_000, 2_000]);
    expect(client.usage()).toMatchObject({ requests: 4, retries: 3, throttledMs: 3_500 });
  });

  it('keeps the 5xx retries for 5xx: a 429 burst before them does not use them up (a sync under trouble failed so)', async () => {
    const line = { serviceLineNumber: 'AST-1', productReferenceId: 'p', active: true };
    const burstThenFailures = [...Array<Reply>(3).fill(json(429, {})), json(503, {}), drop, json(500, {}), json(429, {}), ok(line)];
    const f = await fake({ 'GET /api/public/v2/service-lines/AST-1': burstThenFailures });
    const { client } = clientFor(f, { maxRetries: 4 });
    await expect(client.getServiceLine('AST-1')).resolves.toMatchObject(line);
    expect(client.usage()).toMatchObject({ requests: 8, retries: 7 });
  });

  it('still gives up when either budget runs out, mixed with the other kind', async () => {
    const f = await fake({
      'GET /api/public/v2/service-lines/AST-1': [json(429, {}), json(503, {}), json(503, {}), json(429, {}), json(503, {})],
      'GET /api/public/v2/service-lines/AST-2': [json(503, {}), json(429, {}), json(429, {}), json(503, {}), json(429, {})],
    });
    const { client } = clientFor(f, { maxRetries: 2 });
    await expect(client.getServiceLine('AST-1')).rejects.toMatchObject({ name: 'ProviderUnavailableError', status: 503, attempts: 5 });
    await expect(client.getServiceLine('AST-2')).rejects.toMatchObject({ name: 'ProviderRateLimitError', status: 429, attempts: 5 });
  });

  it('retries a 429 on a reboot (the provider did not act on it)', async () => {
    const f = await fake({ 'POST /api/public/v2/user-terminals/ut-1/reboot': [json(429, {}), ok()] });
    const { client } = clientFor(f, { backoffBaseMs: 1 });
    await expect(client.rebootTerminal('ut-1')).resolves.toEqual({ status: 200, information: [], warnings: [] });
  });
});

describe('provider client: timeouts and abort', () => {
  it('fails a request that gets no answer with ProviderTimeoutError after timeoutMs', async () => {
    const f = await fake({ 'GET /api/public/v2/service-lines/AST-1': stall });
    const { client } = clientFor(f, { timeoutMs: 150 });
    const started = performance.now();
    const error = await caught(client.getServiceLine('AST-1'));
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 150, status: null });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('times out a body that stops half-way', async () => {
    const f = await fake({
      'GET /api/public/v2/service-lines/AST-1': (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"errors":null,"isValid":true,"content":{');
      },
    });
    const { client } = clientFor(f, { timeoutMs: 150 });
    await expect(client.getServiceLine('AST-1')).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('times out even when an injected fetch ignores the abort signal', async () => {
    const f = await fake();
    const { client } = clientFor(f, { timeoutMs: 100, fetch: () => new Promise<Response>(() => undefined) });
    await expect(client.getAccount()).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('rejects promptly with the caller abort reason while the provider is silent', async () => {
    const f = await fake({ 'GET /api/public/v2/service-lines/AST-1': stall });
    const { client } = clientFor(f, { timeoutMs: 10_000 });
    const controller = new AbortController();
    const pending = client.getServiceLine('AST-1', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    const error = await caught(pending);
    expect((error as Error).name).toBe('AbortError');
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('rejects an already aborted call without sending anything', async () => {
    const f = await fake();
    const { client } = clientFor(f);
    await expect(client.getServiceLine('AST-1', { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(f.seen).toHaveLength(0);
  });

  it('stops waiting in back-off when the caller aborts', async () => {
    const f = await fake({ 'GET /api/public/v2/service-lines/AST-1': json(503, {}) });
    const client = createStarlinkClient({
      apiUrl: f.apiUrl,
      tokenUrl: f.tokenUrl,
      clientId: 'c',
      clientSecret: 's',
      backoffBaseMs: 60_000,
      backoffMaxMs: 60_000,
      random: () => 0.99,
    });
    const controller = new AbortController();
    const pending = client.getServiceLine('AST-1', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 100);
    await expect(pending).rejects.toThrow('user left');
  });

  it('lets a second caller get the account when the first one aborted', async () => {
    const f = await fake({ 'GET /api/public/v2/account': (_q, res) => setTimeout(() => ok(ACCOUNT)(_q, res), 100) });
    const { client } = clientFor(f);
    const controller = new AbortController();
    const first = client.getAccount({ signal: controller.signal });
    const second = client.getAccount();
    controller.abort();
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    await expect(second).resolves.toMatchObject({ accountNumber: ACCOUNT.accountNumber });
  });
});

describe('provider client: requests', () => {
  it('sends JSON with a JSON content type on POST and PUT, and no body on DELETE', async () => {
    const f = await fake({
      'PUT /api/public/v2/service-lines/AST-1/product': ok(),
      'POST /api/public/v2/service-lines/AST-1/user-terminals': ok(),
      'DELETE /api/public/v2/service-lines/AST-1/user-terminals/ut-1': ok(),
      'POST /api/public/v2/user-terminals/ut-1/reboot': ok(),
    });
    const { client } = clientFor(f);
    await client.changeServiceLineProduct('AST-1', 'prod-50gb');
    await client.attachTerminal('AST-1', 'ut-1');
    await client.detachTerminal('AST-1', 'ut-1');
    await client.rebootTerminal('ut-1');
    const [put, attach, detach, reboot] = f.api();
    expect(put).toMatchObject({ method: 'PUT', headers: { 'content-type': 'application/json' } });
    expect(JSON.parse(put!.body)).toEqual({ productReferenceId: 'prod-50gb' });
    expect(attach!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(attach!.body)).toEqual({ deviceId: 'ut-1' });
    expect(detach).toMatchObject({ method: 'DELETE', body: '' });
    expect(detach!.headers['content-type']).toBeUndefined();
    expect(reboot).toMatchObject({ method: 'POST', body: '' });
    expect(reboot!.headers['content-type']).toBe('application/json');
  });

  it('repeats array filters as one key each and encodes path segments', async () => {
    const f = await fake({
      'GET /api/public/v2/user-terminals': ok(page([], 0, true, 0)),
      'GET /api/public/v2/service-lines/AST%2F1%3Fx': ok({ serviceLineNumber: 'AST/1?x', productReferenceId: 'p', active: true }),
    });
    const { client } = clientFor(f);
    await client.listUserTerminals({ serviceLineNumbers: ['AST-1', 'AST-2'], userTerminalIds: ['ut-1'], hasServiceLine: false, searchString: 'KIT' });
    const list = f.api().find((s) => s.path.endsWith('/user-terminals'))!;
    expect(list.query.getAll('serviceLineNumbers')).toEqual(['AST-1', 'AST-2']);
    expect(list.query.getAll('userTerminalIds')).toEqual(['ut-1']);
    expect(list.query.get('hasServiceLine')).toBe('false');
    expect(list.query.get('searchString')).toBe('KIT');
    expect(list.query.get('page')).toBe('0');
    await expect(client.getServiceLine('AST/1?x')).resolves.toMatchObject({ serviceLineNumber: 'AST/1?x' });
  });

  it('queries data usage 250 a page with the body given', async () => {
    const usage = { serviceLineNumber: 'AST-1', billingCycles: [], servicePlan: null };
    const f = await fake({ 'POST /api/public/v2/data-usage/query': ok({ pageIndex: 0, limit: 250, isLastPage: true, results: [usage], totalCount: 1 }) });
    const { client } = clientFor(f);
    const result = await client.queryDataUsage({ serviceLineNumbers: ['AST-1'], previousBillingCycles: 2 });
    const call = f.api().find((s) => s.path.endsWith('/data-usage/query'))!;
    expect(call.query.get('limit')).toBe('250');
    expect(JSON.parse(call.body)).toEqual({ serviceLineNumbers: ['AST-1'], previousBillingCycles: 2 });
    expect(result).toMatchObject({ accountNumber: ACCOUNT.accountNumber, totalCount: 1, complete: true, items: [{ serviceLineNumber: 'AST-1', accountNumber: null }] });
  });

  it('hands each answer it reads to onRaw, errors included, once per page', async () => {
    const f = await fake({
      'GET /api/public/v2/user-terminals': (req, res) => {
        const n = Number(req.query.get('page'));
        ok(page([terminal(n)], n, n === 1, 2))(req, res);
      },
      'GET /api/public/v2/service-lines/NOPE': json(404, { errors: [{ memberNames: [], errorMessage: 'nope' }], isValid: false }),
    });
    const { client } = clientFor(f);
    const raws: unknown[] = [];
    await client.listUserTerminals({}, { onRaw: (body) => raws.push(body) });
    await expect(client.getServiceLine('NOPE', { onRaw: (body) => raws.push(body) })).rejects.toBeInstanceOf(ProviderNotFoundError);
    expect(raws).toMatchObject([{ content: { pageIndex: 0 } }, { content: { pageIndex: 1 } }, { isValid: false, errors: [{ errorMessage: 'nope' }] }]);
  });

  it('caches the account after the first success and asks again only when told fresh', async () => {
    const f = await fake();
    const { client } = clientFor(f);
    await client.getAccount();
    await client.accountNumber();
    await client.listUserTerminals().catch(() => undefined);
    expect(f.api().filter((s) => s.path.endsWith('/account'))).toHaveLength(1);
    await client.getAccount({ fresh: true });
    expect(f.api().filter((s) => s.path.endsWith('/account'))).toHaveLength(2);
  });

  it('asks for the account again after a failed first attempt', async () => {
    const f = await fake({ 'GET /api/public/v2/account': [json(403, { isValid: false }), ok(ACCOUNT)] });
    const { client } = clientFor(f);
    await expect(client.accountNumber()).rejects.toBeInstanceOf(ProviderPermissionError);
    await expect(client.accountNumber()).resolves.toBe(ACCOUNT.accountNumber);
  });

  it('refuses an empty id instead of calling the list endpoint', async () => {
    const f = await fake();
    const { client } = clientFor(f);
    await expect(client.getServiceLine('  ')).rejects.toBeInstanceOf(TypeError);
    expect(f.seen).toHaveLength(0);
  });

  it('raw() answers any status with the parsed body and its duration, and keeps the last call', async () => {
    const f = await fake({ 'GET /api/public/v2/service-lines/NOPE': json(404, { errors: [{ memberNames: [], errorMessage: 'nope' }], isValid: false }) });
    const { client } = clientFor(f);
    const raw = await client.raw('GET', '/public/v2/service-lines/NOPE', { query: { x: [1, 2] } });
    expect(raw).toMatchObject({ status: 404, body: { isValid: false }, attempts: 1 });
    expect(raw.durationMs).toBeGreaterThan(0);
    expect(client.lastCall()).toMatchObject({ method: 'GET', path: '/public/v2/service-lines/NOPE', status: 404, attempts: 1, error: null });
    await expect(client.raw('GET', 'https://evil.example/steal')).rejects.toBeInstanceOf(TypeError);
  });
});

describe('provider client: paging', () => {
  it('reads pages from 0 until isLastPage and tags the list with the account number', async () => {
    const all = Array.from({ length: 250 }, (_, i) => terminal(i));
    const f = await fake({
      'GET /api/public/v2/user-terminals': (req, res) => {
        const n = Number(req.query.get('page'));
        ok(page(all.slice(n * 100, n * 100 + 100), n, n === 2, 250))(req, res);
      },
    });
    const { client } = clientFor(f);
    const result = await client.listUserTerminals();
    expect(result).toMatchObject({ accountNumber: ACCOUNT.accountNumber, pages: 3, totalCount: 250, complete: true });
    expect(result.items.map((t) => t.userTerminalId)).toEqual(all.map((t) => t.userTerminalId));
  });

  it('drops duplicates and reads the listing again when page order moved and records were missed', async () => {
    const all = Array.from({ length: 150 }, (_, i) => terminal(i));
    let reads = 0;
    const f = await fake({
      'GET /api/public/v2/user-terminals': (req, res) => {
        const n = Number(req.query.get('page'));
        reads += 1;
        // First reading: page 1 repeats 10 records of page 0 and misses 10 others.
        const results = reads === 2 ? [...all.slice(90, 100), ...all.slice(100, 140)] : all.slice(n * 100, n * 100 + 100);
        ok(page(results, n, n === 1, 150))(req, res);
      },
    });
    const { client } = clientFor(f);
    const result = await client.listUserTerminals();
    expect(result.items).toHaveLength(150);
    expect(new Set(result.items.map((t) => t.userTerminalId)).size).toBe(150);
    expect(result).toMatchObject({ pages: 4, complete: true });
  });

  it('says the listing is incomplete when re-reading finds nothing new', async () => {
    const f = await fake({ 'GET /api/public/v2/user-terminals': ok(page([terminal(1)], 0, true, 5)) });
    const { client } = clientFor(f);
    await expect(client.listUserTerminals()).resolves.toMatchObject({ complete: false, totalCount: 5, pages: 2, items: [{ userTerminalId: terminal(1).userTerminalId }] });
  });

  it('stops a listing that never ends at the page cap', async () => {
    let n = 0;
    const f = await fake({ 'GET /api/public/v2/user-terminals': (req, res) => ok(page([terminal(n++)], 0, false, 1_000_000))(req, res) });
    const { client } = clientFor(f, { maxPages: 20 });
    const error = await caught(client.listUserTerminals());
    expect(error).toBeInstanceOf(ProviderResponseError);
    expect(f.api().filter((s) => s.path.endsWith('/user-terminals'))).toHaveLength(20);
  });
});
