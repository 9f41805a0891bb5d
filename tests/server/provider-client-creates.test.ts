// Writes are never blindly retried: when the provider did a create but its answer was lost — a
// 5xx from a gateway after the work was done, a connection dropped after sending, a timeout — the
// client looks for what it made before sending again. Each create of the table is run against the
// simulator through a network that loses its first answers in each of those ways, and the
// provider ends with exactly one of what was asked for.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStarlinkClient, ProviderTimeoutError, ProviderUnavailableError, type StarlinkClient } from '../../server/provider';
import { startSimulator, type RunningSimulator } from '../../server/simulator';

type Loss = 'gateway 502' | 'dropped connection' | 'timeout';
const LOSSES: Loss[] = ['gateway 502', 'dropped connection', 'timeout'];
const TIMEOUT_MS = 150;

let sim: RunningSimulator;

beforeEach(async () => {
  sim = await startSimulator({ port: 0, seed: 'lost-answers', terminals: 60 });
});
afterEach(() => sim.close());

/**
 * A client whose network delivers every request, but loses the answers of the first `lost`
 * requests matching `method path` (the provider has done them by then).
 */
function clientLosing(method: string, path: RegExp, loss: Loss, lost: number): { client: StarlinkClient; sent: () => number } {
  let sent = 0;
  const client = createStarlinkClient({
    apiUrl: sim.baseUrl,
    tokenUrl: sim.tokenUrl,
    ...sim.credentials,
    timeoutMs: TIMEOUT_MS,
    sleep: async () => undefined,
    fetch: async (input, init) => {
      const url = new URL(String(input));
      const matches = (init?.method ?? 'GET') === method && path.test(url.pathname);
      const response = await fetch(input, init);
      if (!matches) return response;
      sent += 1;
      if (sent > lost) return response;
      await response.arrayBuffer();
      if (loss === 'gateway 502') return new Response('<html>502 Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } });
      if (loss === 'dropped connection') {
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
      }
      // The answer never comes: the client's own timeout ends the wait.
      return new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error)));
    },
  });
  return { client, sent: () => sent };
}

const SITE = {
  addressLines: ['9 Quarry Lane'],
  locality: 'Moab',
  administrativeArea: 'Utah',
  region: 'United States',
  postalCode: '84532',
  formattedAddress: '9 Quarry Lane, Moab, UT 84532, US',
  latitude: 38.57,
  longitude: -109.55,
};

describe.each(LOSSES)('after a lost answer (%s)', (loss) => {
  it('creates an address once: the second try finds it by its key', async () => {
    const { client, sent } = clientLosing('POST', /\/public\/v2\/addresses$/, loss, 1);
    const address = await client.createAddress(SITE, { key: `activation-${loss}` });
    expect(sent()).toBe(1);
    const all = await client.listAddresses({ metadata: `activation-${loss}` });
    expect(all.items.map((a) => a.addressReferenceId)).toEqual([address.addressReferenceId]);
  });

  it('creates a service line once: the address is read again for the line the lost attempt made', async () => {
    const plain = clientLosing('GET', /^$/, loss, 0).client;
    const address = await plain.createAddress(SITE);
    const { client, sent } = clientLosing('POST', /\/public\/v2\/service-lines$/, loss, 1);
    const line = await client.createServiceLine({ addressReferenceId: address.addressReferenceId, productReferenceId: 'SUB-METERED-1TB' });
    expect(sent()).toBe(1);
    const atAddress = await plain.listServiceLines({ addressReferenceId: address.addressReferenceId });
    expect(atAddress.items.map((l) => l.serviceLineNumber)).toEqual([line.serviceLineNumber]);
    expect(line).toMatchObject({ productReferenceId: 'SUB-METERED-1TB', active: true });
  });

  it('adds a kit to the account once: the account is searched for it', async () => {
    const kit = sim.fleet.examples().stockKitSerialNumber!;
    const { client, sent } = clientLosing('POST', /\/public\/v2\/user-terminals$/, loss, 1);
    const result = await client.addUserTerminal(kit);
    expect(result.information).toEqual(['Done by an earlier attempt whose answer was lost']);
    expect(sent()).toBe(1);
    expect((await client.listUserTerminals({ searchString: kit })).items).toHaveLength(1);
  });

  it('buys a top-up once: the line’s top-ups are counted before buying again', async () => {
    const number = sim.fleet.knownServiceLineNumber;
    const plain = clientLosing('GET', /^$/, loss, 0).client;
    const count = async () => (await plain.getServiceLine(number)).dataBlocks!.topUpBlocksOneTimePurchase.reduce((sum, b) => sum + b.count, 0);
    const before = await count();
    const { client, sent } = clientLosing('POST', /\/data\/top-up$/, loss, 1);
    await client.topUpServiceLine(number, { productId: 'DATA-TOPUP-50GB', count: 1 });
    expect(sent()).toBe(1);
    expect(await count()).toBe(before + 1);
  });
});

describe('when the lost attempt did nothing', () => {
  it('sends the create again and makes exactly one, after the lookup finds nothing', async () => {
    // The network fails before the provider sees the request: a 502 from a gateway in front.
    let refused = 0;
    const client = createStarlinkClient({
      apiUrl: sim.baseUrl,
      tokenUrl: sim.tokenUrl,
      ...sim.credentials,
      sleep: async () => undefined,
      fetch: async (input, init) => {
        if (init?.method === 'POST' && new URL(String(input)).pathname.endsWith('/public/v2/addresses') && refused < 2) {
          refused += 1;
          return new Response('', { status: 503 });
        }
        return fetch(input, init);
      },
    });
    const address = await client.createAddress(SITE, { key: 'never-arrived' });
    expect(refused).toBe(2);
    expect((await client.listAddresses({ metadata: 'never-arrived' })).items.map((a) => a.addressReferenceId)).toEqual([address.addressReferenceId]);
  });

  it('gives up with the provider’s failure when every answer is lost and the lookup never finds it', async () => {
    const client = createStarlinkClient({
      apiUrl: sim.baseUrl,
      tokenUrl: sim.tokenUrl,
      ...sim.credentials,
      maxRetries: 2,
      sleep: async () => undefined,
      fetch: async (input, init) =>
        init?.method === 'POST' && new URL(String(input)).pathname.endsWith('/public/v2/addresses') ? new Response('', { status: 503 }) : fetch(input, init),
    });
    await expect(client.createAddress(SITE)).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('does not retry a create the provider refused: a 422 is an answer, not a lost one', async () => {
    const { client, sent } = clientLosing('POST', /\/public\/v2\/addresses$/, 'timeout', 0);
    await expect(client.createAddress({ ...SITE, latitude: 0, longitude: 0 })).rejects.toThrow(/could not be located/);
    expect(sent()).toBe(1);
  });

  it('reports a timeout as such when the lookup cannot reach the provider either', async () => {
    let posts = 0;
    const client = createStarlinkClient({
      apiUrl: sim.baseUrl,
      tokenUrl: sim.tokenUrl,
      ...sim.credentials,
      timeoutMs: TIMEOUT_MS,
      maxRetries: 1,
      sleep: async () => undefined,
      fetch: async (input, init) => {
        const path = new URL(String(input)).pathname;
        if (!path.includes('/public/v2/')) return fetch(input, init);
        if (init?.method === 'POST') posts += 1;
        // Nothing of the API answers: neither the create nor its lookup.
        return new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error)));
      },
    });
    await expect(client.createAddress(SITE)).rejects.toBeInstanceOf(ProviderTimeoutError);
    expect(posts).toBe(1);
  });
});
