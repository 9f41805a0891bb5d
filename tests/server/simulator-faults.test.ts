// Injected faults (429s, 5xx, dropped connections, latency) and the real per-account rate limit.
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../server/simulator/index';
import { expectResponseMatches } from './openapi-contract';

const running: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()));
});

async function start(options: StartSimulatorOptions = {}) {
  const sim = await startSimulator(options);
  running.push(sim);
  const tokenAnswer = await fetch(sim.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: sim.credentials.clientId, client_secret: sim.credentials.clientSecret, grant_type: 'client_credentials' }),
  });
  const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };
  /** The status of GET /account, or 'dropped' when the connection died without an answer. */
  const account = async (): Promise<{ status: number | 'dropped'; body?: string; headers?: Headers }> => {
    try {
      const response = await fetch(`${sim.baseUrl}/public/v2/account`, { headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, body: await response.text(), headers: response.headers };
    } catch {
      return { status: 'dropped' };
    }
  };
  return { sim, account };
}

async function statuses(account: () => Promise<{ status: number | 'dropped' }>, count: number) {
  const seen: (number | 'dropped')[] = [];
  for (let i = 0; i < count; i++) seen.push((await account()).status);
  return seen;
}

const share = (items: unknown[], test: (item: unknown) => boolean) => items.filter(test).length / items.length;

describe('injected faults', () => {
  it('answers about the configured share of requests 429, with an envelope and no Retry-After', async () => {
    const { account } = await start({ faults: { rate429: 0.3 } });
    const answers = [];
    for (let i = 0; i < 300; i++) answers.push(await account());
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length / answers.length).toBeGreaterThan(0.2);
    expect(limited.length / answers.length).toBeLessThan(0.4);
    for (const answer of limited) {
      expect(answer.headers?.get('retry-after')).toBeNull();
      expectResponseMatches('GET', '/public/v2/account', 429, JSON.parse(answer.body!));
    }
    expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true);
  });

  it('answers about the configured share with 500, 502 or 503, not all of them JSON', async () => {
    const { account } = await start({ faults: { rate5xx: 0.4 } });
    const answers = [];
    for (let i = 0; i < 300; i++) answers.push(await account());
    const failed = answers.filter((a) => typeof a.status === 'number' && a.status >= 500);
    expect(failed.length / answers.length).toBeGreaterThan(0.3);
    expect(failed.length / answers.length).toBeLessThan(0.5);
    expect(new Set(failed.map((a) => a.status))).toEqual(new Set([500, 502, 503]));
    expect(failed.find((a) => a.status === 502)?.headers?.get('content-type')).toMatch(/text\/html/);
  });

  it('drops about the configured share of connections without answering', async () => {
    const { account } = await start({ faults: { dropRate: 0.25 } });
    const seen = await statuses(account, 120);
    expect(share(seen, (s) => s === 'dropped')).toBeGreaterThan(0.15);
    expect(share(seen, (s) => s === 'dropped')).toBeLessThan(0.35);
    expect(seen.filter((s) => s !== 'dropped').every((s) => s === 200)).toBe(true);
  });

  it('delays every answer by the configured latency', async () => {
    const { account } = await start({ faults: { latencyMs: 120 } });
    const t0 = performance.now();
    expect((await account()).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(115);
  });

  it('fails the same requests again with the same seed, so fault tests are repeatable', async () => {
    const faults = { rate429: 0.2, rate5xx: 0.2, dropRate: 0.1 };
    const first = await start({ seed: 'repeat', faults });
    const second = await start({ seed: 'repeat', faults });
    const other = await start({ seed: 'another', faults });
    const a = await statuses(first.account, 60);
    expect(await statuses(second.account, 60)).toEqual(a);
    expect(await statuses(other.account, 60)).not.toEqual(a);
  });

  it('changes faults at run time with setFaults, and rejects shares outside 0..1', async () => {
    const { sim, account } = await start();
    expect((await account()).status).toBe(200);
    sim.setFaults({ rate429: 1 });
    expect((await account()).status).toBe(429);
    sim.setFaults({ rate429: 0 });
    expect((await account()).status).toBe(200);
    expect(() => sim.setFaults({ rate5xx: 1.5 })).toThrow(RangeError);
    expect(() => sim.setFaults({ latencyMs: -1 })).toThrow(RangeError);
  });

  it('leaves the token endpoint out of the fault injection', async () => {
    const { sim } = await start({ faults: { rate5xx: 1, dropRate: 1 } });
    const response = await fetch(sim.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: sim.credentials.clientId, client_secret: sim.credentials.clientSecret, grant_type: 'client_credentials' }),
    });
    expect(response.status).toBe(200);
  });
});

describe('rate limits', () => {
  it('answers 429 past 250 requests a minute for the account, across tokens, and lets requests through a minute later', async () => {
    let at = Date.parse('2026-03-18T10:30:00Z');
    const { sim, account } = await start({ rateLimitPerMinute: 250, now: () => new Date(at) });
    const seen = await statuses(account, 250);
    expect(seen.every((s) => s === 200)).toBe(true);
    const over = await account();
    expect(over.status).toBe(429);
    expect(over.headers?.get('retry-after')).toBeNull();
    expectResponseMatches('GET', '/public/v2/account', 429, JSON.parse(over.body!));

    // A second token of the same account shares the same budget.
    const second = await fetch(sim.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: sim.credentials.clientId, client_secret: sim.credentials.clientSecret, grant_type: 'client_credentials' }),
    });
    const token = ((await second.json()) as { access_token: string }).access_token;
    expect((await fetch(`${sim.baseUrl}/public/v2/products`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(429);

    at += 60_000;
    expect((await account()).status).toBe(200);
  });

  it('has no rate limit by default, for the demo', async () => {
    const { account } = await start();
    expect((await statuses(account, 300)).every((s) => s === 200)).toBe(true);
  });

  it('limits token requests per address over 15 minutes', async () => {
    const { sim } = await start({ tokenRateLimitPer15Minutes: 3 });
    const ask = () =>
      fetch(sim.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: sim.credentials.clientId, client_secret: sim.credentials.clientSecret, grant_type: 'client_credentials' }),
      });
    // start() already asked once.
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(200);
    const limited = await ask();
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ error: 'too_many_requests' });
  });
});
