// The simulator's moving parts besides the fleet: access tokens, rate-limit windows and fault
// decisions. Routes ask it yes/no questions; it holds no HTTP objects.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createFleet, stableOrderKey, type Fleet } from './fleet';
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
  | { kind: 'tooManyRequests' }
  | { kind: 'serverError'; status: 500 | 502 | 503 };

export type TokenCheck = 'ok' | 'missing' | 'invalid' | 'expired';

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
  /** Counts one /public/v2 request against the account's minute; false when over the limit. */
  takeApiRequest(): boolean;
  /** Counts one token request against the caller's 15 minutes; false when over the limit. */
  takeTokenRequest(ip: string): boolean;
  rollFaults(): FaultDecision;
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
  const fleet = createFleet({ seed, terminals: options.terminals, accountNumber: options.accountNumber, now });
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
  const pageRandom = prng(mix(seedHash, 0x70616765));
  const pageOrderKey = stableOrderKey(seed);

  const tokens = new Map<string, number>();
  const apiWindow = rateLimit === null ? null : new SlidingWindow(rateLimit, 60_000);
  const tokenWindows = new Map<string, SlidingWindow>();

  return {
    fleet,
    credentials,
    now,
    faults: () => faults,
    setFaults(partial) {
      faults = { ...faults, ...validateFaults(partial) };
    },
    issueToken(clientId, clientSecret) {
      if (!sameSecret(clientId, credentials.clientId) || !sameSecret(clientSecret, credentials.clientSecret)) return null;
      const nowMs = now().getTime();
      for (const [token, expiresAt] of tokens) if (expiresAt <= nowMs) tokens.delete(token);
      const accessToken = randomBytes(32).toString('base64url');
      tokens.set(accessToken, nowMs + ttlSeconds * 1000);
      return { access_token: accessToken, token_type: 'Bearer', expires_in: ttlSeconds, scope: TOKEN_SCOPE };
    },
    checkToken(authorization) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
      if (!match) return authorization ? 'invalid' : 'missing';
      const expiresAt = tokens.get(match[1]!);
      if (expiresAt === undefined) return 'invalid';
      return expiresAt > now().getTime() ? 'ok' : 'expired';
    },
    takeApiRequest: () => (apiWindow ? apiWindow.take(now().getTime()) : true),
    takeTokenRequest(ip) {
      if (tokenRateLimit === null) return true;
      let window = tokenWindows.get(ip);
      if (!window) tokenWindows.set(ip, (window = new SlidingWindow(tokenRateLimit, 15 * 60_000)));
      return window.take(now().getTime());
    },
    rollFaults() {
      // Always four draws, so one request's dice never shift the next request's.
      const [drop, tooMany, serverError, which] = [faultRandom(), faultRandom(), faultRandom(), faultRandom()];
      if (drop < faults.dropRate) return { kind: 'drop' };
      if (tooMany < faults.rate429) return { kind: 'tooManyRequests' };
      if (serverError < faults.rate5xx) return { kind: 'serverError', status: which < 0.5 ? 500 : which < 0.8 ? 503 : 502 };
      return { kind: 'none' };
    },
    pageOrderKey,
    pageRandom: () => pageRandom(),
  };
}
