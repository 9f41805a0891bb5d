// The provider client against the built-in simulator over real HTTP: whole listings, token expiry,
// rate limits, injected faults, writes. Each test starts its own simulator (faults are global to one).
import { afterEach, describe, expect, it } from 'vitest';
import {
  createStarlinkClient,
  ProviderAuthError,
  ProviderNotFoundError,
  ProviderTimeoutError,
  ProviderValidationError,
  type ProviderClientOptions,
} from '../../server/provider';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../server/simulator';

const running: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()));
});

async function simulator(options: StartSimulatorOptions = {}): Promise<RunningSimulator> {
  const sim = await startSimulator({ port: 0, seed: 'provider-client-tests', ...options });
  running.push(sim);
  return sim;
}

interface SentRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: string | undefined;
}

/** fetch that records what the client sends; hooks run as a request leaves and as its answer arrives. */
function recordingFetch(hooks: { before?: (request: SentRequest, sent: SentRequest[]) => void; after?: (request: SentRequest, sent: SentRequest[]) => void } = {}) {
  const sent: SentRequest[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const request: SentRequest = {
      method: init?.method ?? 'GET',
      url: new URL(String(input)),
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? init.body : undefined,
    };
    sent.push(request);
    hooks.before?.(request, sent);
    inFlight += 1;
    try {
      const response = await fetch(input, init);
      // The whole body, so "answered" means answered.
      const body = await response.arrayBuffer();
      hooks.after?.(request, sent);
      return new Response(body.byteLength === 0 ? null : body, { status: response.status, headers: response.headers });
    } finally {
      inFlight -= 1;
    }
  };
  let inFlight = 0;
  const api = () => sent.filter((r) => r.url.pathname.includes('/public/v2/'));
  /** Resolves once nothing has been in flight for a few turns of the event loop. */
  const settled = async () => {
    for (let quiet = 0; quiet < 3; ) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      quiet = inFlight === 0 ? quiet + 1 : 0;
    }
  };
  return { fetch: fetchImpl, sent, api, settled };
}

function clientFor(sim: RunningSimulator, extra: Partial<ProviderClientOptions> = {}) {
  return createStarlinkClient({
    apiUrl: sim.baseUrl,
    tokenUrl: sim.tokenUrl,
    ...sim.credentials,
    // Real back-off shape, small numbers: the suite stays fast.
    backoffBaseMs: 5,
    backoffMaxMs: 50,
    ...extra,
  });
}

/** A clock the simulator and the client share; sleeping moves it at once. */
function sharedClock(start = Date.parse('2026-11-15T12:00:00Z')) {
  let t = start;
  return {
    now: () => new Date(t),
    advance: (ms: number) => {
      t += ms;
    },
    elapsed: () => t - start,
    sleep: async (ms: number, signal?: AbortSignal) => {
      signal?.throwIfAborted();
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
      t += ms;
    },
  };
}

const sorted = (values: Iterable<string>) => [...values].sort();

describe('provider client against the simulator: listings', () => {
  it('lists all 156 terminals in two pages, each once, tagged with the account number', async () => {
    const sim = await simulator();
    const client = clientFor(sim);
    const result = await client.listUserTerminals();
    expect(result).toMatchObject({ accountNumber: sim.fleet.accountNumber, totalCount: 156, pages: 2, complete: true });
    expect(sorted(result.items.map((t) => t.userTerminalId))).toEqual(sorted(sim.fleet.userTerminalIds()));
    expect(client.usage()).toMatchObject({ requests: 3, retries: 0, tokenRequests: 1 });
  });

  it('finds nothing missing and nothing twice across 156 terminals when page order shuffles', async () => {
    const sim = await simulator({ faults: { shufflePages: true } });
    const client = clientFor(sim);
    const first = await client.listUserTerminals();
    const second = await client.listUserTerminals();
    for (const result of [first, second]) {
      expect(result.items).toHaveLength(156);
      expect(new Set(result.items.map((t) => t.userTerminalId)).size).toBe(156);
      expect(sorted(result.items.map((t) => t.userTerminalId))).toEqual(sorted(sim.fleet.userTerminalIds()));
    }
  });

  it('reads every service line, the products, and data usage 250 lines a page', async () => {
    const sim = await simulator({ terminals: 600 });
    const client = clientFor(sim);
    const lines = await client.listServiceLines();
    expect(sorted(lines.items.map((l) => l.serviceLineNumber))).toEqual(sorted(sim.fleet.serviceLineNumbers()));
    const products = await client.listProducts();
    expect(products.items.map((p) => p.productReferenceId)).toEqual(sim.fleet.products().map((p) => p.productReferenceId));
    const usage = await client.queryDataUsage({ activeServiceLinesOnly: false, previousBillingCycles: 1 });
    expect(usage.totalCount).toBe(lines.items.length);
    expect(usage.items).toHaveLength(lines.items.length);
    expect(usage.pages).toBe(Math.ceil(lines.items.length / 250));
    const record = usage.items[0]!;
    expect(record.accountNumber).toBe(sim.fleet.accountNumber);
    expect(record.billingCycles.length).toBeGreaterThanOrEqual(1);
    expect(record.servicePlan?.productId).toBeTruthy();
  });

  it('narrows terminals by service line numbers sent as a repeated key', async () => {
    const sim = await simulator();
    const client = clientFor(sim);
    const { items } = await client.listUserTerminals({ hasServiceLine: true });
    const wanted = [items[0]!.serviceLineNumber!, items[1]!.serviceLineNumber!];
    const narrowed = await client.listUserTerminals({ serviceLineNumbers: wanted });
    expect(narrowed.items.length).toBeGreaterThanOrEqual(2);
    expect(narrowed.items.every((t) => wanted.includes(t.serviceLineNumber!))).toBe(true);
  });

  it('looks up a service line, its address and the telemetry of chosen terminals', async () => {
    const sim = await simulator();
    const client = clientFor(sim);
    const line = await client.getServiceLine(sim.fleet.knownServiceLineNumber);
    expect(line).toMatchObject({ serviceLineNumber: sim.fleet.knownServiceLineNumber, active: true });
    const address = await client.getAddress(line.addressReferenceId!);
    expect(address.formattedAddress).toBeTruthy();
    expect(typeof address.latitude).toBe('number');
    const telemetry = await client.queryTelemetry([sim.fleet.knownUserTerminalId]);
    const record = telemetry.userTerminals[sim.fleet.knownUserTerminalId]!;
    expect(record).toMatchObject({ userTerminalId: sim.fleet.knownUserTerminalId });
    expect(record.signalQuality).toBeGreaterThanOrEqual(0);
    expect(Object.keys(record.alerts)).toContain('alertHighTimeObstruction');
  });
});

describe('provider client against the simulator: tokens', () => {
  it('renews the token when it expires mid-run and carries on without a 401', async () => {
    const clock = sharedClock();
    const sim = await simulator({ terminals: 350, now: clock.now });
    const pages = (sent: SentRequest[]) => sent.filter((r) => r.url.pathname.endsWith('/user-terminals')).length;
    const recorder = recordingFetch({
      // Sixteen minutes pass after the first page: the 900 s token is past its renewal time.
      after: (request, sent) => {
        if (request.url.pathname.endsWith('/user-terminals') && pages(sent) === 1) clock.advance(16 * 60_000);
      },
    });
    const client = clientFor(sim, { now: clock.now, sleep: clock.sleep, fetch: recorder.fetch });
    const result = await client.listUserTerminals();
    expect(result.items).toHaveLength(350);
    expect(client.usage()).toMatchObject({ tokenRequests: 2, retries: 0 });
    const tokens = recorder.api().filter((r) => r.url.pathname.endsWith('/user-terminals')).map((r) => r.headers.get('authorization'));
    expect(tokens[0]).not.toBe(tokens[1]);
    expect(tokens[1]).toBe(tokens[3]);
  });

  it('gets a new token after a 401 when the provider expired it early, and finishes the listing', async () => {
    let providerSkewMs = 0;
    const sim = await simulator({ terminals: 350, now: () => new Date(Date.now() + providerSkewMs) });
    const recorder = recordingFetch({
      // The provider's clock jumps twenty minutes as the second page leaves: our token is stale there.
      before: (_request, sent) => {
        if (sent.filter((r) => r.url.pathname.endsWith('/user-terminals')).length === 2) providerSkewMs = 20 * 60_000;
      },
    });
    const client = clientFor(sim, { fetch: recorder.fetch });
    const result = await client.listUserTerminals();
    expect(result.items).toHaveLength(350);
    expect(client.usage()).toMatchObject({ tokenRequests: 2, retries: 1 });
    const authorizations = recorder.api().map((r) => r.headers.get('authorization'));
    expect(new Set(authorizations).size).toBe(2);
  });

  it('reports wrong credentials as ProviderAuthError with the provider description', async () => {
    const sim = await simulator();
    const client = createStarlinkClient({ apiUrl: sim.baseUrl, tokenUrl: sim.tokenUrl, clientId: sim.credentials.clientId, clientSecret: 'wrong' });
    await expect(client.listUserTerminals()).rejects.toSatisfy(
      (error) => error instanceof ProviderAuthError && error.status === 401 && error.messages[0] === 'Unknown client or wrong secret',
    );
  });
});

describe('provider client against the simulator: limits and faults', () => {
  it('keeps a burst of 100 calls under a provider limit of 30 a minute without a single 429', async () => {
    const clock = sharedClock();
    const sim = await simulator({ now: clock.now, rateLimitPerMinute: 30 });
    const starts: number[] = [];
    const recorder = recordingFetch({
      before: (request) => {
        if (request.url.pathname.includes('/public/v2/')) starts.push(clock.elapsed());
      },
    });
    // Simulated minutes pass only once the requests already sent have arrived (latency ≪ a minute).
    const sleep = async (ms: number, signal?: AbortSignal) => {
      await recorder.settled();
      await clock.sleep(ms, signal);
    };
    const client = clientFor(sim, { requestsPerMinute: 30, now: clock.now, sleep, fetch: recorder.fetch });
    const lines = await Promise.all(Array.from({ length: 100 }, () => client.getServiceLine(sim.fleet.knownServiceLineNumber)));
    expect(lines).toHaveLength(100);
    expect(client.usage()).toMatchObject({ requests: 100, retries: 0 });
    for (const start of starts) expect(starts.filter((s) => s >= start && s < start + 60_000).length).toBeLessThanOrEqual(30);
    // 100 at 30 a minute: the last batch starts three minutes in.
    expect(Math.max(...starts)).toBe(180_000);
  });

  it('slows down on 429s when the provider allows fewer requests than configured, and still gets every terminal', async () => {
    const clock = sharedClock();
    const sim = await simulator({ terminals: 2_000, now: clock.now, rateLimitPerMinute: 8 });
    const client = clientFor(sim, {
      requestsPerMinute: 240,
      backoffBaseMs: 500,
      backoffMaxMs: 30_000,
      maxRetries: 10,
      random: () => 1,
      now: clock.now,
      sleep: clock.sleep,
    });
    const result = await client.listUserTerminals();
    expect(result.items).toHaveLength(2_000);
    const usage = client.usage();
    expect(usage.retries).toBeGreaterThan(0);
    expect(usage.throttledMs).toBeGreaterThan(60_000);
    // 21 calls at 8 a minute need at least two minutes of (simulated) time.
    expect(clock.elapsed()).toBeGreaterThanOrEqual(120_000);
  });

  it('rides out a 429 storm (half of all answers) and finishes with every terminal', async () => {
    const sim = await simulator({ terminals: 1_000, faults: { rate429: 0.5 } });
    const client = clientFor(sim, { maxRetries: 12 });
    const result = await client.listUserTerminals();
    expect(result.items).toHaveLength(1_000);
    expect(new Set(result.items.map((t) => t.userTerminalId)).size).toBe(1_000);
    expect(client.usage().retries).toBeGreaterThan(3);
  });

  it('retries 5xx answers and dropped connections, then succeeds', async () => {
    const sim = await simulator({ terminals: 1_000, faults: { rate5xx: 0.3, dropRate: 0.2 } });
    const client = clientFor(sim, { maxRetries: 12 });
    const result = await client.listUserTerminals();
    expect(result.items).toHaveLength(1_000);
    const usage = client.usage();
    expect(usage.retries).toBeGreaterThan(3);
    expect(usage.requests).toBe(11 + usage.retries);
  });

  it('fails a call slower than the timeout with ProviderTimeoutError instead of hanging', async () => {
    const sim = await simulator({ faults: { latencyMs: 1_000 } });
    const client = clientFor(sim, { timeoutMs: 100 });
    const started = performance.now();
    await expect(client.getAccount()).rejects.toBeInstanceOf(ProviderTimeoutError);
    expect(performance.now() - started).toBeLessThan(700);
  });

  it('rejects promptly when the caller aborts a slow call', async () => {
    const sim = await simulator({ faults: { latencyMs: 2_000 } });
    const client = clientFor(sim);
    const started = performance.now();
    await expect(client.listUserTerminals({}, { signal: AbortSignal.timeout(50) })).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('provider client against the simulator: errors and writes', () => {
  it('maps an unknown service line to ProviderNotFoundError with the provider message', async () => {
    const sim = await simulator();
    const client = clientFor(sim);
    await expect(client.getServiceLine('AST-000000-00000-00')).rejects.toSatisfy(
      (error) => error instanceof ProviderNotFoundError && error.status === 404 && /was not found/.test(error.messages[0] ?? ''),
    );
  });

  it('maps a refused attach (422) and a malformed id (400) to ProviderValidationError with messages', async () => {
    const sim = await simulator();
    const client = clientFor(sim);
    const { activeServiceLineNumber, activeUserTerminalId } = sim.fleet.examples();
    const other = (await client.listServiceLines()).items.find((l) => l.active && l.serviceLineNumber !== activeServiceLineNumber)!;
    await expect(client.attachTerminal(other.serviceLineNumber, activeUserTerminalId)).rejects.toSatisfy(
      (error) => error instanceof ProviderValidationError && error.status === 422 && /already on service line/.test(error.messages[0] ?? '') && error.fields[0] === 'deviceId',
    );
    await expect(client.getAddress('not-a-uuid')).rejects.toMatchObject({ name: 'ProviderValidationError', status: 400, fields: ['addressReferenceId'] });
  });

  it('detaches, re-attaches, changes the plan and reboots, sending JSON on every POST and PUT', async () => {
    const sim = await simulator();
    const recorder = recordingFetch();
    const client = clientFor(sim, { fetch: recorder.fetch });
    const line = sim.fleet.knownServiceLineNumber;
    const terminal = sim.fleet.knownUserTerminalId;
    await client.detachTerminal(line, terminal);
    const unattached = await client.listUserTerminals({ hasServiceLine: false });
    expect(unattached.items.map((t) => t.userTerminalId)).toContain(terminal);
    await client.attachTerminal(line, terminal);
    const changed = await client.changeServiceLineProduct(line, 'SUB-METERED-1TB');
    expect(changed.information.join(' ')).toMatch(/SUB-METERED-1TB/);
    expect(await client.rebootTerminal(terminal)).toEqual({ status: 200, information: ['Reboot command sent'], warnings: [] });
    expect((await client.getServiceLine(line)).productReferenceId).toBe('SUB-METERED-1TB');
    const writes = recorder.api().filter((r) => r.method === 'POST' || r.method === 'PUT');
    expect(writes.length).toBe(3);
    for (const write of writes) expect(write.headers.get('content-type')).toBe('application/json');
  });

  it('raw() shows the provider answer and its duration, errors included', async () => {
    const sim = await simulator();
    const client = clientFor(sim);
    const found = await client.raw('GET', `/public/v2/service-lines/${sim.fleet.knownServiceLineNumber}`);
    expect(found).toMatchObject({ status: 200, body: { isValid: true, content: { serviceLineNumber: sim.fleet.knownServiceLineNumber } } });
    const missing = await client.raw('GET', '/public/v2/service-lines/AST-000000-00000-00');
    expect(missing).toMatchObject({ status: 404, body: { isValid: false } });
    expect(missing.durationMs).toBeGreaterThan(0);
  });
});
