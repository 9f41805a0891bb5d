// Every request the client sends is one the provider's OpenAPI document allows: a documented
// operation, documented query parameters, a request body matching its schema. The answers it read
// (from the simulator) are checked against the document too.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStarlinkClient, type StarlinkClient } from '../../server/provider';
import { startSimulator, type RunningSimulator } from '../../server/simulator';
import { expectRequestMatches, expectResponseMatches, OPENAPI_PATH, resolvePathTemplate } from './openapi-contract';

interface Exchange {
  method: string;
  url: URL;
  contentType: string | null;
  body: unknown;
  status: number;
  answer: unknown;
}

interface Parameter {
  name: string;
  in: string;
}
const document = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as {
  paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
};

let sim: RunningSimulator;
let client: StarlinkClient;
const exchanges: Exchange[] = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 'provider-contract', terminals: 300 });
  client = createStarlinkClient({
    apiUrl: sim.baseUrl,
    tokenUrl: sim.tokenUrl,
    ...sim.credentials,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      const text = await response.text();
      const url = new URL(String(input));
      if (url.pathname.includes('/public/v2/')) {
        exchanges.push({
          method: init?.method ?? 'GET',
          url,
          contentType: new Headers(init?.headers).get('content-type'),
          body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
          status: response.status,
          answer: text ? (JSON.parse(text) as unknown) : null,
        });
      }
      return new Response(text || null, { status: response.status, headers: response.headers });
    },
  });
  const line = sim.fleet.knownServiceLineNumber;
  const terminal = sim.fleet.knownUserTerminalId;
  await client.getAccount();
  await client.listProducts();
  const lines = await client.listServiceLines();
  await client.getServiceLine(line);
  await client.getAddress(lines.items[0]!.addressReferenceId!);
  await client.listUserTerminals();
  await client.listUserTerminals({ searchString: 'KIT', serviceLineNumbers: [line, lines.items[1]!.serviceLineNumber], userTerminalIds: [terminal], hasServiceLine: true });
  await client.queryDataUsage({ serviceLineNumbers: [line], previousBillingCycles: 2, activeServiceLinesOnly: false, queryStartDate: '2026-09-01T00:00:00Z' }, { limit: 100 });
  await client.queryDataUsage();
  await client.detachTerminal(line, terminal);
  await client.attachTerminal(line, terminal);
  await client.changeServiceLineProduct(line, 'SUB-METERED-1TB');
  await client.rebootTerminal(terminal);
  await expect(client.getServiceLine('AST-000000-00000-00')).rejects.toThrow();
});

afterAll(async () => {
  await sim?.close();
});

describe('provider client requests against the OpenAPI document', () => {
  it('sent every kind of call the portal makes', () => {
    const operations = new Set(exchanges.map((e) => `${e.method} ${resolvePathTemplate(e.url.pathname)}`));
    expect([...operations].sort()).toEqual(
      [
        'GET /public/v2/account',
        'GET /public/v2/products',
        'GET /public/v2/service-lines',
        'GET /public/v2/service-lines/{serviceLineNumber}',
        'GET /public/v2/addresses/{addressReferenceId}',
        'GET /public/v2/user-terminals',
        'POST /public/v2/data-usage/query',
        'DELETE /public/v2/service-lines/{serviceLineNumber}/user-terminals/{deviceId}',
        'POST /public/v2/service-lines/{serviceLineNumber}/user-terminals',
        'PUT /public/v2/service-lines/{serviceLineNumber}/product',
        'POST /public/v2/user-terminals/{deviceId}/reboot',
      ].sort(),
    );
  });

  it('sends request bodies that match the documented request schemas', () => {
    for (const exchange of exchanges) expectRequestMatches(exchange.method, exchange.url.pathname, exchange.body);
  });

  it('sends only documented query parameters', () => {
    for (const exchange of exchanges) {
      const template = resolvePathTemplate(exchange.url.pathname);
      const documented = (document.paths[template]?.[exchange.method.toLowerCase()]?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      for (const key of new Set(exchange.url.searchParams.keys())) expect(documented, `${exchange.method} ${template} ?${key}`).toContain(key);
    }
  });

  it('sends a JSON content type on every POST and PUT', () => {
    const writes = exchanges.filter((e) => e.method === 'POST' || e.method === 'PUT');
    expect(writes.length).toBeGreaterThanOrEqual(5);
    for (const write of writes) expect(write.contentType).toBe('application/json');
  });

  it('read answers that match the documented response schemas', () => {
    for (const exchange of exchanges) expectResponseMatches(exchange.method, exchange.url.pathname, exchange.status, exchange.answer);
  });
});
