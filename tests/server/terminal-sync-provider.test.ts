// What the sync needs from the provider beyond what the console uses: the addresses list
// (GET /public/v2/addresses, 100 a page, filtered by repeated addressIds) as the simulator serves
// it, checked against the provider's OpenAPI document, and as the client reads it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StarlinkClient } from '../../server/provider';
import type { RunningSimulator } from '../../server/simulator';
import { contract } from './contract/openapi-contract';
import { fastClient, startFleet } from './terminal-sync-fixtures';
import { simulatorToken } from './simulator-token';

let sim: RunningSimulator;
let client: StarlinkClient;
let token: string;

beforeAll(async () => {
  sim = await startFleet({ terminals: 250 });
  client = fastClient(sim);
  token = await simulatorToken(sim);
});
afterAll(() => sim.close());

async function get(path: string) {
  const response = await fetch(`${sim.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { content: { results: { addressReferenceId: string }[]; pageIndex: number; limit: number; isLastPage: boolean; totalCount: number } };
  contract.expectResponseMatches('GET', path.split('?')[0]!, response.status, body);
  return { status: response.status, body };
}

describe('the addresses list', () => {
  it('pages every address of the account, 100 a page, in the documented shape', async () => {
    const lines = sim.fleet.serviceLineNumbers().length;
    const pages = Math.ceil(lines / 100);
    const seen = new Set<string>();
    for (let page = 0; page < pages; page++) {
      const { status, body } = await get(`/public/v2/addresses?page=${page}`);
      expect(status).toBe(200);
      expect(body.content).toMatchObject({ pageIndex: page, limit: 100, totalCount: lines, isLastPage: page === pages - 1 });
      for (const address of body.content.results) seen.add(address.addressReferenceId);
    }
    expect(seen.size).toBe(lines);
    // Every line's address is in it.
    const line = sim.fleet.serviceLine(sim.fleet.knownServiceLineNumber)!;
    expect(seen.has(line.addressReferenceId)).toBe(true);
  });

  it('filters by addressIds given as a repeated key, ignoring ids the account does not have', async () => {
    const ids = sim.fleet.serviceLineNumbers().slice(0, 3).map((n) => sim.fleet.serviceLine(n)!.addressReferenceId);
    const query = [...ids, '00000000-0000-4000-8000-000000000000'].map((id) => `addressIds=${id}`).join('&');
    const { body } = await get(`/public/v2/addresses?${query}`);
    expect(body.content.results.map((a) => a.addressReferenceId).sort()).toEqual([...ids].sort());
    expect(body.content.totalCount).toBe(3);
  });

  it('answers 400 for an address id that is not a UUID, and nothing for a metadata filter', async () => {
    const bad = await fetch(`${sim.baseUrl}/public/v2/addresses?addressIds=nope`, { headers: { authorization: `Bearer ${token}` } });
    expect(bad.status).toBe(400);
    expect((await get('/public/v2/addresses?metadata=site-7')).body.content.totalCount).toBe(0);
  });

  it('reads through the client as one complete listing, or only the ids asked for', async () => {
    const all = await client.listAddresses();
    expect(all).toMatchObject({ accountNumber: sim.fleet.accountNumber, complete: true, totalCount: sim.fleet.serviceLineNumbers().length });
    expect(new Set(all.items.map((a) => a.addressReferenceId)).size).toBe(all.items.length);
    const one = all.items[5]!;
    const picked = await client.listAddresses({ addressIds: [one.addressReferenceId] });
    expect(picked.items).toEqual([one]);
  });
});

describe('reading a listing ahead', () => {
  it('reads the pages after the first a few at a time and gets every record once, also with shuffled pages', async () => {
    const sequential = await client.listUserTerminals({});
    sim.setFaults({ shufflePages: true });
    try {
      const ahead = await client.listUserTerminals({}, { pageConcurrency: 4 });
      expect(ahead).toMatchObject({ complete: true, totalCount: 250, pages: 3 });
      expect(ahead.items.map((t) => t.userTerminalId).sort()).toEqual(sequential.items.map((t) => t.userTerminalId).sort());
    } finally {
      sim.setFaults({ shufflePages: false });
    }
  });

  it('asks for no page past the end when the first page says how many there are', async () => {
    const before = client.usage().requests;
    const lines = await client.listServiceLines({ pageConcurrency: 8 });
    expect(lines.complete).toBe(true);
    expect(lines.pages).toBe(Math.ceil(lines.totalCount / 100));
    // The account (cached after the first call) costs nothing more.
    expect(client.usage().requests - before).toBe(lines.pages);
  });
});

