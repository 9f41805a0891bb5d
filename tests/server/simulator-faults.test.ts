// Injected faults (429s and 429 bursts, 5xx, dropped connections, latency and latency spikes),
// expiring the issued tokens at run time, the SIM_* variables for them, and the real per-account
// rate limit.
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../server/config';
import { simulatorOptionsFromEnv, startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../server/simulator/index';
import { contract } from './contract/openapi-contract';
import { thrownMessage } from './helpers';
import { requestSimulatorToken, simulatorToken } from './simulator-token';

const running: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()));
});

async function start(options: StartSimulatorOptions = {}) {
  const sim = await startSimulator(options);
  running.push(sim);
  const token = await simulatorToken(sim);
  /** The status of GET /account, or 'dropped' when the connection died without an answer. */
  const account = async (bearer = token): Promise<{ status: number | 'dropped'; body?: string; headers?: Headers }> => {
    try {
      const response = await fetch(`${sim.baseUrl}/public/v2/account`, { headers: { authorization: `Bearer ${bearer}` } });
      return { status: response.status, body: await response.text(), headers: response.headers };
    } catch {
      return { status: 'dropped' };
    }
  };
  return { sim, account, token };
}

async function newToken(sim: RunningSimulator): Promise<string> {
  return simulatorToken(sim);
}

/** Lengths of the runs of consecutive 429s, in order. */
function runsOf429(seen: (number | 'dropped')[]): number[] {
  const runs: number[] = [];
  let current = 0;
  for (const status of [...seen, 0]) {
    if (status === 429) current += 1;
    else if (current > 0) {
      runs.push(current);
      current = 0;
    }
  }
  return runs;
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
      contract.expectResponseMatches('GET', '/public/v2/account', 429, JSON.parse(answer.body!));
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

  it('holds about the configured share of requests back by the spike on top of the latency', async () => {
    const { sim, account } = await start({ faults: { latencyMs: 20, spikeRate: 0.3, spikeMs: 400 } });
    // At once, so the file waits for one spike, not for every one of them.
    const timings = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const t0 = performance.now();
        const { status } = await account();
        return { status, ms: performance.now() - t0 };
      }),
    );
    expect(timings.every((t) => t.status === 200 && t.ms >= 15)).toBe(true);
    const { spikes } = sim.simulator.stats();
    expect(spikes / timings.length).toBeGreaterThan(0.1);
    expect(spikes / timings.length).toBeLessThan(0.5);
    // Each spike the simulator rolled was a real wait on the wire…
    expect(timings.filter((t) => t.ms >= 415).length).toBeGreaterThanOrEqual(spikes);
    // …and the exception: most answers came with the plain latency.
    const sorted = timings.map((t) => t.ms).sort((x, y) => x - y);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(400);
  });

  it('spikes on its own dice: the same seed fails the same requests with or without spikes', async () => {
    const faults = { rate429: 0.2, rate5xx: 0.2 };
    const plain = await start({ seed: 'spike-dice', faults });
    const spiky = await start({ seed: 'spike-dice', faults: { ...faults, spikeRate: 0.5, spikeMs: 1 } });
    expect(await statuses(spiky.account, 40)).toEqual(await statuses(plain.account, 40));
    expect(spiky.sim.simulator.stats().spikes).toBeGreaterThan(0);
  });

  it('answers 429 in bursts of the configured length, like a tripped rate limit, then lets requests through', async () => {
    const { sim, account } = await start({ seed: 'bursts', faults: { burst429Rate: 0.05, burst429Length: 6 } });
    const answers: { status: number | 'dropped'; body?: string; headers?: Headers }[] = [];
    for (let i = 0; i < 240; i++) answers.push(await account());
    const seen = answers.map((a) => a.status);
    const runs = runsOf429(seen);
    const stats = sim.simulator.stats();
    expect(stats.bursts).toBeGreaterThanOrEqual(3);
    expect(stats.burst429s).toBe(seen.filter((s) => s === 429).length);
    // A burst that ends just as the next starts makes one longer run; one still under way at the
    // end is cut short.
    const whole = seen.at(-1) === 429 ? runs.slice(0, -1) : runs;
    expect(whole.length).toBeGreaterThanOrEqual(3);
    for (const run of whole) expect(run % 6).toBe(0);
    expect(seen.every((s) => s === 200 || s === 429)).toBe(true);
    for (const answer of answers.filter((a) => a.status === 429)) {
      expect(answer.headers?.get('retry-after')).toBeNull();
      const body = JSON.parse(answer.body!) as { errors: { errorMessage: string }[] };
      contract.expectResponseMatches('GET', '/public/v2/account', 429, body);
      expect(body.errors[0]!.errorMessage).toBe('Rate limit exceeded for this account.');
    }
  });

  it('hits every caller of the account with a burst, and turning bursts off ends the one under way', async () => {
    const { sim, account } = await start({ faults: { burst429Rate: 1, burst429Length: 50 } });
    const other = await newToken(sim);
    expect((await account()).status).toBe(429);
    expect((await account(other)).status).toBe(429);
    expect(sim.simulator.stats()).toMatchObject({ bursts: 1, burst429s: 2 });
    sim.setFaults({ burst429Rate: 0 });
    expect((await account()).status).toBe(200);
    expect((await account(other)).status).toBe(200);
  });

  it('expires every issued token at run time: the provider\'s 401 "expired", until a new token is asked for', async () => {
    const { sim, account, token } = await start();
    expect((await account()).status).toBe(200);
    expect(sim.expireTokens()).toBe(1);
    const refused = await account();
    expect(refused.status).toBe(401);
    expect(refused.headers?.get('www-authenticate')).toBe('Bearer error="invalid_token", error_description="The access token has expired"');
    const body = JSON.parse(refused.body!) as { errors: { errorMessage: string }[] };
    contract.expectResponseMatches('GET', '/public/v2/account', 401, body);
    expect(body.errors[0]!.errorMessage).toBe('The access token has expired');

    const fresh = await newToken(sim);
    expect((await account(fresh)).status).toBe(200);
    // Still "expired" (not "invalid") after a new token was issued, for callers that were slower.
    expect(JSON.parse((await account(token)).body!).errors[0].errorMessage).toBe('The access token has expired');
    expect(sim.simulator.stats()).toMatchObject({ tokensIssued: 2, expiredTokenRefusals: 2 });
    // Nothing live left to expire but the new one.
    expect(sim.expireTokens()).toBe(1);
    expect(sim.expireTokens()).toBe(0);
  });

  it('fails the same requests again with the same seed, so fault tests are repeatable', async () => {
    const faults = { rate429: 0.2, rate5xx: 0.2, dropRate: 0.1, burst429Rate: 0.05, burst429Length: 3 };
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

  it('rejects a bad spike or burst naming the field, and leaves the faults as they were', async () => {
    const { sim } = await start();
    expect(() => sim.setFaults({ spikeRate: 1.2 })).toThrow(/faults\.spikeRate must be a number from 0 to 1/);
    expect(() => sim.setFaults({ spikeMs: -5 })).toThrow(/faults\.spikeMs must be from 0 to 600000/);
    expect(() => sim.setFaults({ burst429Rate: Number.NaN })).toThrow(/faults\.burst429Rate must be a number from 0 to 1/);
    for (const length of [0, 2.5, 200_000]) {
      expect(() => sim.setFaults({ burst429Length: length })).toThrow(RangeError);
      expect(() => sim.setFaults({ burst429Length: length })).toThrow(/faults\.burst429Length/);
    }
    await expect(startSimulator({ faults: { spikeRate: -0.1 } })).rejects.toThrow(/faults\.spikeRate/);
    expect(sim.simulator.faults()).toMatchObject({ spikeRate: 0, spikeMs: 2_000, burst429Rate: 0, burst429Length: 10 });
  });

  it('reads spikes and bursts from SIM_* variables, and names a bad one', () => {
    expect(
      simulatorOptionsFromEnv({ SIM_SPIKE_RATE: '0.1', SIM_SPIKE_MS: '2000', SIM_429_BURST_RATE: '0.02', SIM_429_BURST_LENGTH: '12' }),
    ).toEqual({ faults: { spikeRate: 0.1, spikeMs: 2000, burst429Rate: 0.02, burst429Length: 12 } });
    const attempt = () => simulatorOptionsFromEnv({ SIM_SPIKE_RATE: '2', SIM_SPIKE_MS: 'long', SIM_429_BURST_RATE: '-1', SIM_429_BURST_LENGTH: '0' });
    expect(attempt).toThrow(ConfigError);
    const message = thrownMessage(attempt);
    expect(message).toContain('SIM_SPIKE_RATE: must be a number from 0 to 1 (got "2")');
    expect(message).toContain('SIM_SPIKE_MS: must be a whole number from 0 to 60000 (got "long")');
    expect(message).toContain('SIM_429_BURST_RATE: must be a number from 0 to 1 (got "-1")');
    expect(message).toContain('SIM_429_BURST_LENGTH: must be a whole number from 1 to 100000 (got "0")');
  });

  it('leaves the token endpoint out of the fault injection', async () => {
    const { sim } = await start({ faults: { rate5xx: 1, dropRate: 1 } });
    const response = await requestSimulatorToken(sim);
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
    contract.expectResponseMatches('GET', '/public/v2/account', 429, JSON.parse(over.body!));

    // A second token of the same account shares the same budget.
    const token = await simulatorToken(sim);
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
      requestSimulatorToken(sim);
    // start() already asked once.
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(200);
    const limited = await ask();
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ error: 'too_many_requests' });
  });
});
