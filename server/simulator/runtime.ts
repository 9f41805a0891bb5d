// The simulator's moving parts besides the fleet: access tokens, rate-limit windows and fault
// decisions, and counts of what it did (for tests to see that a fault really happened). Routes
// ask it yes/no questions; it holds no HTTP objects.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createFleet, stableOrderKey, type Fleet } from './fleet/index';
import { hashString, mix, prng } from './random';
import {
  DEFAULT_TOKEN_TTL_SECONDS,
  DEMO_CREDENTIALS,
  NO_FAULTS,
  PROVIDER_TOKEN_RATE_LIMIT_PER_15_MINUTES,
  validateFaults,
  type Faults,
  type SimulatorCredentials,
  type SimulatorOptions,
} from './options';

/** What the fault dice say about one request. */
export type FaultDecision =
  | { kind: 'none' }
  | { kind: 'drop' }
  /** `burst`: part of a 429 burst, answered like the account's own rate limit. */
  | { kind: 'tooManyRequests'; burst: boolean }
  | { kind: 'serverError'; status: 500 | 502 | 503 };

export type TokenCheck = 'ok' | 'missing' | 'invalid' | 'expired';

/** Running totals since the simulator started; `stats()` hands out a copy. */
export interface SimulatorStats {
  /** Requests that reached /public/v2 (faulted ones included). */
  apiRequests: number;
  /** Tokens handed out by the token endpoint. */
  tokensIssued: number;
  /** 401s answered to a token that had expired (naturally or through `expireTokens`). */
  expiredTokenRefusals: number;
  /** Requests held back by a latency spike. */
  spikes: number;
  /** Connections destroyed without an answer. */
  drops: number;
  /** Stand-alone injected 429s (`rate429`). */
  random429s: number;
  /** 429 bursts started, and the 429s answered inside them. */
  bursts: number;
  burst429s: number;
  /** Injected 500, 502 and 503 answers. */
  serverErrors: number;
}

export interface IssuedToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

export interface Simulator {
  readonly fleet: Fleet;
  readonly credentials: Readonly<SimulatorCredentials>;
  readonly now: () => Date;
  faults(): Readonly<Faults>;
  setFaults(faults: Partial<Faults>): void;
  /** null when the client id or secret is wrong. */
  issueToken(clientId: string, clientSecret: string): IssuedToken | null;
  checkToken(authorization: string | undefined): TokenCheck;
  /**
   * Every token issued so far expires now, as if the clock had passed their lifetime: the next
   * /public/v2 call with one gets the provider's 401 "The access token has expired". Answers how
   * many live tokens it expired. Tokens issued afterwards are not affected.
   */
  expireTokens(): number;
  /** Counts one /public/v2 request against the account's minute; false when over the limit. */
  takeApiRequest(): boolean;
  /** Counts one token request against the caller's 15 minutes; false when over the limit. */
  takeTokenRequest(ip: string): boolean;
  /** Once per /public/v2 request, first (it counts them): how long to hold it back, `latencyMs` plus `spikeMs` when it spikes. */
  rollDelay(): number;
  rollFaults(): FaultDecision;
  stats(): SimulatorStats;
  /** Where each index sits in shuffled page order (stable for the simulator's life). */
  pageOrderKey(index: number): number;
  /** Randomness for the order within a page (seeded; a new draw per request). */
  pageRandom(): number;
}

export const TOKEN_SCOPE = 'public_api';

/** Sliding window: at most `limit` hits in any `windowMs`. */
export class SlidingWindow {
  private hits: number[] = [];
  private head = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  take(nowMs: number): boolean {
    while (this.head < this.hits.length && this.hits[this.head]! <= nowMs - this.windowMs) this.head++;
    // Compact now and then so the array does not grow for ever.
    if (this.head > 1024 && this.head * 2 > this.hits.length) {
      this.hits = this.hits.slice(this.head);
      this.head = 0;
    }
    if (this.hits.length - this.head >= this.limit) return false;
    this.hits.push(nowMs);
    return true;
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const now = options.now ?? (() => new Date());
  const seed = String(options.seed ?? 'starlink-demo');
  const fleet = createFleet({ seed, terminals: options.terminals, accountNumber: options.accountNumber, currency: options.currency, country: options.country, now });
  const credentials = Object.freeze({ ...(options.credentials ?? DEMO_CREDENTIALS) });
  const ttlSeconds = options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1) throw new RangeError('tokenTtlSeconds must be a positive whole number');
  const rateLimit = options.rateLimitPerMinute ?? null;
  const tokenRateLimit =
    options.tokenRateLimitPer15Minutes !== undefined ? options.tokenRateLimitPer15Minutes : rateLimit === null ? null : PROVIDER_TOKEN_RATE_LIMIT_PER_15_MINUTES;

  let faults: Faults = { ...NO_FAULTS, ...validateFaults(options.faults ?? {}) };
  // Separate streams, so turning page shuffles on does not change which requests fail.
  const seedHash = hashString(seed);
  const faultRandom = prng(mix(seedHash, 0x6661756c));
  const spikeRandom = prng(mix(seedHash, 0x7370696b));
  const burstRandom = prng(mix(seedHash, 0x62757273));
  const pageRandom = prng(mix(seedHash, 0x70616765));
  const pageOrderKey = stableOrderKey(seed);

  const tokens = new Map<string, number>();
  const apiWindow = rateLimit === null ? null : new SlidingWindow(rateLimit, 60_000);
  const tokenWindows = new Map<string, SlidingWindow>();
  /** Requests still owed 429 in the current burst. */
  let burstLeft = 0;
  const counts: SimulatorStats = {
    apiRequests: 0,
    tokensIssued: 0,
    expiredTokenRefusals: 0,
    spikes: 0,
    drops: 0,
    random429s: 0,
    bursts: 0,
    burst429s: 0,
    serverErrors: 0,
  };

  return {
    fleet,
    credentials,
    now,
    faults: () => faults,
    setFaults(partial) {
      faults = { ...faults, ...validateFaults(partial) };
      // Turning bursts off ends the one under way too: "no more 429s" should mean it at once.
      if (faults.burst429Rate === 0) burstLeft = 0;
      burstLeft = Math.min(burstLeft, faults.burst429Length);
    },
    issueToken(clientId, clientSecret) {
      if (!sameSecret(clientId, credentials.clientId) || !sameSecret(clientSecret, credentials.clientSecret)) return null;
      const nowMs = now().getTime();
      // Kept for a lifetime after expiry, so a late caller still hears "expired", not "invalid".
      for (const [token, expiresAt] of tokens) if (expiresAt + ttlSeconds * 1000 <= nowMs) tokens.delete(token);
      const accessToken = randomBytes(32).toString('base64url');
      tokens.set(accessToken, nowMs + ttlSeconds * 1000);
      counts.tokensIssued += 1;
      return { access_token: accessToken, token_type: 'Bearer', expires_in: ttlSeconds, scope: TOKEN_SCOPE };
    },
    checkToken(authorization) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
      if (!match) return authorization ? 'invalid' : 'missing';
      const expiresAt = tokens.get(match[1]!);
      if (expiresAt === undefined) return 'invalid';
      if (expiresAt > now().getTime()) return 'ok';
      counts.expiredTokenRefusals += 1;
      return 'expired';
    },
    expireTokens() {
      const nowMs = now().getTime();
      let expired = 0;
      for (const [token, expiresAt] of tokens) {
        if (expiresAt > nowMs) {
          tokens.set(token, nowMs);
          expired += 1;
        }
      }
      return expired;
    },
    takeApiRequest: () => (apiWindow ? apiWindow.take(now().getTime()) : true),
    takeTokenRequest(ip) {
      if (tokenRateLimit === null) return true;
      let window = tokenWindows.get(ip);
      if (!window) tokenWindows.set(ip, (window = new SlidingWindow(tokenRateLimit, 15 * 60_000)));
      return window.take(now().getTime());
    },
    rollDelay() {
      counts.apiRequests += 1;
      // One draw a request from a stream of its own, so spikes never change which requests fail.
      const spike = spikeRandom() < faults.spikeRate && faults.spikeMs > 0;
      if (spike) counts.spikes += 1;
      return faults.latencyMs + (spike ? faults.spikeMs : 0);
    },
    rollFaults() {
      // Always four draws (and one for bursts, on its own stream), so one request's dice never
      // shift the next request's, and turning bursts on leaves the other faults where they were.
      const [drop, tooMany, serverError, which] = [faultRandom(), faultRandom(), faultRandom(), faultRandom()];
      const burstStart = burstRandom();
      if (drop < faults.dropRate) {
        counts.drops += 1;
        return { kind: 'drop' };
      }
      if (burstLeft === 0 && burstStart < faults.burst429Rate) {
        burstLeft = faults.burst429Length;
        counts.bursts += 1;
      }
      if (burstLeft > 0) {
        burstLeft -= 1;
        counts.burst429s += 1;
        return { kind: 'tooManyRequests', burst: true };
      }
      if (tooMany < faults.rate429) {
        counts.random429s += 1;
        return { kind: 'tooManyRequests', burst: false };
      }
      if (serverError < faults.rate5xx) {
        counts.serverErrors += 1;
        return { kind: 'serverError', status: which < 0.5 ? 500 : which < 0.8 ? 503 : 502 };
      }
      return { kind: 'none' };
    },
    stats: () => ({ ...counts }),
    pageOrderKey,
    pageRandom: () => pageRandom(),
  };
}
