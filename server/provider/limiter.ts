// Client-side request limit for one provider account, in this process only: a sliding window of
// request start times. At most `limit` requests start in any `windowMs` (60 s); the rest queue,
// people's calls ahead of background ones and each lane in arrival order, and start as the oldest
// start leaves the window. `pause(ms)` holds everyone back after a 429, since the provider counts
// per account, not per caller. Time comes from the injected clock and sleep, so tests can run a
// minute of traffic in milliseconds.
//
// The server itself uses the budget every process shares in the database
// (server/services/provider-call-budget.ts), which also keeps syncs to their share; this one is
// the client's default when it is given none (tests, the contract checks, the standalone tools).
import type { CallLane } from '../../src/domain/provider-budget';

export type { CallLane } from '../../src/domain/provider-budget';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** What the client needs of a limit: a slot before each request, and a pause after a 429. */
export interface CallLimiter {
  /**
   * Waits for a slot for a call of `lane` (default 'person'), or rejects with the signal's reason;
   * resolves with the milliseconds waited.
   */
  acquire(signal?: AbortSignal, lane?: CallLane): Promise<number>;
  /** Nobody starts a request before `ms` from now (settled once every caller will see it). */
  pause(ms: number): void | Promise<void>;
}

export interface RateLimiter extends CallLimiter {
  readonly limit: number;
  readonly windowMs: number;
  pause(ms: number): void;
  /** Requests started within the current window, and callers waiting. */
  state(): { inWindow: number; waiting: number; pausedForMs: number };
}

export interface RateLimiterOptions {
  requestsPerMinute: number;
  windowMs?: number;
  now?: () => Date;
  sleep?: Sleep;
}

/** setTimeout as a promise that rejects with the signal's reason when aborted. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });

interface Waiter {
  since: number;
  lane: CallLane;
  resolve: (waitedMs: number) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const limit = Math.floor(options.requestsPerMinute);
  if (!Number.isFinite(limit) || limit < 1) throw new RangeError('requestsPerMinute must be at least 1');
  const windowMs = options.windowMs ?? 60_000;
  const now = () => (options.now ?? (() => new Date()))().getTime();
  const sleep = options.sleep ?? defaultSleep;

  const starts: number[] = []; // ascending start times still inside the window
  const waiters: Waiter[] = [];
  let pausedUntil = 0;
  let pumping = false;
  let pumpSleep: AbortController | null = null;

  const prune = (t: number) => {
    while (starts.length > 0 && starts[0]! + windowMs <= t) starts.shift();
  };

  const take = (t: number): boolean => {
    prune(t);
    if (t < pausedUntil || starts.length >= limit) return false;
    starts.push(t);
    return true;
  };

  const freeAt = (t: number): number => {
    prune(t);
    const slot = starts.length >= limit ? starts[starts.length - limit]! + windowMs : t;
    return Math.max(slot, pausedUntil);
  };

  const settle = (waiter: Waiter) => {
    waiter.signal?.removeEventListener('abort', waiter.onAbort);
  };

  async function pump(): Promise<void> {
    if (pumping) return;
    pumping = true;
    try {
      while (waiters.length > 0) {
        const t = now();
        if (take(t)) {
          const waiter = waiters.shift()!;
          settle(waiter);
          waiter.resolve(Math.max(0, t - waiter.since));
          continue;
        }
        pumpSleep = new AbortController();
        try {
          await sleep(Math.max(1, freeAt(t) - t), pumpSleep.signal);
        } catch {
          // Every waiter left (aborted): the loop ends, or a newcomer is served.
        } finally {
          pumpSleep = null;
        }
      }
    } finally {
      pumping = false;
    }
  }

  return {
    limit,
    windowMs,
    acquire(signal, lane = 'person') {
      if (signal?.aborted) return Promise.reject(signal.reason);
      const t = now();
      if (waiters.length === 0 && take(t)) return Promise.resolve(0);
      return new Promise<number>((resolve, reject) => {
        const waiter: Waiter = {
          since: t,
          lane,
          resolve,
          reject,
          signal,
          onAbort: () => {
            const index = waiters.indexOf(waiter);
            if (index >= 0) waiters.splice(index, 1);
            reject(signal?.reason);
            if (waiters.length === 0) pumpSleep?.abort();
          },
        };
        signal?.addEventListener('abort', waiter.onAbort, { once: true });
        // People before background work; each lane in arrival order.
        const firstSync = lane === 'person' ? waiters.findIndex((w) => w.lane === 'sync') : -1;
        if (firstSync >= 0) waiters.splice(firstSync, 0, waiter);
        else waiters.push(waiter);
        void pump();
      });
    },
    pause(ms) {
      if (ms > 0) pausedUntil = Math.max(pausedUntil, now() + ms);
    },
    state() {
      const t = now();
      prune(t);
      return { inWindow: starts.length, waiting: waiters.length, pausedForMs: Math.max(0, pausedUntil - t) };
    },
  };
}
