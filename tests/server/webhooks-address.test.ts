// Server-side request forgery through webhook URLs, with the webhook service built over a real
// database and a resolver the test controls (the seam the service takes): names that resolve into
// private networks are refused at registration; configured networks let them through; localhost
// needs the setting; and a name that resolved to a public address when registered but resolves to
// a private one when the delivery is made (DNS rebinding) fails that attempt with the refusal,
// without a connection — also when it turns between the attempt's own check and the connection.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_MESSAGES as M } from '../../src/domain/webhooks';
import { ConfigError, parseEnv, type Config } from '../../server/config';
import { createRepositories } from '../../server/db/repositories';
import { BadRequestError } from '../../server/errors';
import { createAuditService, type RequestContext } from '../../server/services/audit';
import { createEmailSender } from '../../server/services/email';
import { createWebhookService, type WebhookService } from '../../server/services/webhooks';
import type { Resolve } from '../../server/webhooks/address-guard';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
let context: RequestContext;
/** A plain TCP listener on 127.0.0.1 that counts connections: nothing may reach it. */
let trap: net.Server;
let trapPort: number;
let connections = 0;

/** What each name resolves to now; tests change it between registration and delivery. */
const names = new Map<string, string[]>();
const lookups: string[] = [];
const resolve: Resolve = async (host) => {
  lookups.push(host);
  const found = names.get(host);
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

beforeAll(async () => {
  ctx = await createTestContext();
  const admin = await ctx.createAdmin();
  context = { actor: { type: 'user', id: admin.id }, ip: null, requestId: null };
  trap = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((done) => trap.listen(0, '127.0.0.1', done));
  trapPort = (trap.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await ctx?.close();
  await new Promise((done) => trap?.close(done));
});

function serviceWith(settings: Partial<Pick<Config, 'webhookAllowHttpLocalhost' | 'webhookAllowedNetworks'>> = {}): WebhookService {
  const repos = createRepositories(ctx.database.db);
  const now = ctx.clock.now;
  return createWebhookService({
    repos,
    audit: createAuditService({ audit: repos.audit, now }),
    email: createEmailSender({ outbox: repos.emailOutbox, transport: null, from: 'test@localhost', now }),
    config: { ...ctx.config, ...settings },
    now,
    resolve,
  });
}

async function refusal(service: WebhookService, url: string): Promise<string> {
  const error = await service.create({ url }, context).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, url).toBeInstanceOf(BadRequestError);
  expect((error as BadRequestError).errors).toEqual([{ path: 'url', message: (error as Error).message }]);
  return (error as Error).message;
}

describe('webhook URLs and where they lead', () => {
  it('refuses private, loopback, link-local and mapped addresses, names resolving to them, and localhost while it is not allowed', async () => {
    names.set('intranet.example.test', ['192.168.1.10']);
    names.set('localhost', ['127.0.0.1', '::1']);
    const service = serviceWith();
    expect(ctx.config.webhookAllowHttpLocalhost).toBe(false);
    expect(await refusal(service, 'http://example.com/hook')).toBe(M.urlHttpOnlyLocalhost);
    expect(await refusal(service, 'https://10.0.0.5/hook')).toBe(M.urlPrivateAddress('10.0.0.5', '10.0.0.5'));
    expect(await refusal(service, 'https://169.254.169.254/latest')).toBe(M.urlPrivateAddress('169.254.169.254', '169.254.169.254'));
    expect(await refusal(service, 'https://[::1]/hook')).toBe(M.urlPrivateAddress('::1', '::1'));
    expect(await refusal(service, 'https://[::ffff:127.0.0.1]/hook')).toBe(M.urlPrivateAddress('::ffff:7f00:1', '::ffff:7f00:1'));
    expect(await refusal(service, 'https://intranet.example.test/hook')).toBe(M.urlPrivateAddress('intranet.example.test', '192.168.1.10'));
    expect(await refusal(service, 'http://localhost:8080/hook')).toBe(M.urlHttpOnlyLocalhost);
    expect(await refusal(service, 'https://localhost/hook')).toBe(M.urlPrivateAddress('localhost', '127.0.0.1'));
    expect(await refusal(service, 'https://unknown.example.test/')).toBe(M.urlUnresolvable('unknown.example.test'));
    expect(await service.list()).toEqual([]);
  });

  it('lets addresses inside WEBHOOK_ALLOWED_NETWORKS through, and no others', async () => {
    names.set('build.internal.test', ['10.20.30.40']);
    const service = serviceWith({ webhookAllowedNetworks: ['10.0.0.0/8'] });
    const direct = await service.create({ url: 'https://10.0.0.5/hook' }, context);
    const named = await service.create({ url: 'https://build.internal.test/hook' }, context);
    expect(direct.endpoint.url).toBe('https://10.0.0.5/hook');
    expect(named.endpoint.url).toBe('https://build.internal.test/hook');
    expect(await refusal(service, 'https://192.168.1.10/hook')).toBe(M.urlPrivateAddress('192.168.1.10', '192.168.1.10'));
    for (const endpoint of await service.list()) await service.remove(endpoint.id, context);
  });

  it('lets http reach loopback through localhost names when WEBHOOK_ALLOW_HTTP_LOCALHOST is on', async () => {
    names.set('localhost', ['127.0.0.1', '::1']);
    const service = serviceWith({ webhookAllowHttpLocalhost: true });
    const created = await service.create({ url: 'http://localhost:9/hook' }, context);
    expect(created.endpoint.url).toBe('http://localhost:9/hook');
    expect(await refusal(service, 'http://10.0.0.5/hook')).toBe(M.urlHttpOnlyLocalhost);
    await service.remove(created.endpoint.id, context);
  });
});

describe('a name that changes where it resolves after registration', () => {
  it('fails the attempt with the refusal, without a connection, when it resolves into a private network at delivery', async () => {
    const host = 'rebind-early.example.test';
    names.set(host, ['93.184.216.34']);
    const service = serviceWith();
    const { endpoint } = await service.create({ url: `https://${host}:${trapPort}/hook` }, context);
    names.set(host, ['127.0.0.1']);
    await service.sendTest(endpoint.id, context);
    expect(await service.deliverDue()).toMatchObject({ attempted: 1, failed: 1 });
    const [delivery] = (await service.deliveries(endpoint.id, 1, 10)).deliveries;
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, responseStatus: null, error: M.urlPrivateAddress(host, '127.0.0.1') });
    expect(connections).toBe(0);
    await service.remove(endpoint.id, context);
  });

  it("refuses in the connection's own lookup when the name turns private after the attempt's check", async () => {
    const host = 'rebind-late.example.test';
    names.set(host, ['93.184.216.34']);
    const service = serviceWith();
    const { endpoint } = await service.create({ url: `https://${host}:${trapPort}/hook` }, context);
    await service.sendTest(endpoint.id, context);
    // The attempt's check sees the public address; the very next resolution (the connection's) the private one.
    const before = lookups.length;
    const realGet = names.get.bind(names);
    names.get = (key: string) => {
      if (key === host && lookups.length >= before + 2) return ['127.0.0.1'];
      return realGet(key);
    };
    try {
      expect(await service.deliverDue()).toMatchObject({ attempted: 1, failed: 1 });
    } finally {
      names.get = realGet;
    }
    expect(lookups.slice(before)).toEqual([host, host]);
    const [delivery] = (await service.deliveries(endpoint.id, 1, 10)).deliveries;
    expect(delivery!.error).toBe(M.urlPrivateAddress(host, '127.0.0.1'));
    expect(connections).toBe(0);
    await service.remove(endpoint.id, context);
  });
});

describe('the webhook settings', () => {
  it('default to no http and no allowed networks, and read both variables', () => {
    expect(parseEnv({})).toMatchObject({ webhookAllowHttpLocalhost: false, webhookAllowedNetworks: [] });
    expect(parseEnv({ WEBHOOK_ALLOW_HTTP_LOCALHOST: 'on', WEBHOOK_ALLOWED_NETWORKS: ' 10.0.0.0/8, fd00::/8 ,192.168.1.10,' })).toMatchObject({
      webhookAllowHttpLocalhost: true,
      webhookAllowedNetworks: ['10.0.0.0/8', 'fd00::/8', '192.168.1.10'],
    });
  });

  it('stop start-up on a network that is not a CIDR, naming the variable', () => {
    for (const bad of ['10.0.0.0/33', 'intranet', '10.0.0.0/8;rm']) {
      expect(() => parseEnv({ WEBHOOK_ALLOWED_NETWORKS: bad }), bad).toThrow(ConfigError);
      expect(() => parseEnv({ WEBHOOK_ALLOWED_NETWORKS: bad }), bad).toThrow(/WEBHOOK_ALLOWED_NETWORKS: must be networks like 10\.0\.0\.0\/8/);
    }
    expect(() => parseEnv({ WEBHOOK_ALLOW_HTTP_LOCALHOST: 'maybe' })).toThrow(/WEBHOOK_ALLOW_HTTP_LOCALHOST/);
  });
});
