// One provider call budget per provider account, kept in the database and shared by every caller
// in every server process: the limiter the provider client takes each request's slot from.
//
// acquire(signal, lane) queues the call in this process (people ahead of background syncs, each
// lane in arrival order). One pump per process serves the queue's head with one short transaction
// (repository: provider-call-budget.ts): the account's advisory lock, the start recorded with the
// window read in one statement, and, when the call may not start yet, the start taken back and,
// for a person, a mark that holds background calls back until the person's slot is due. The rules are src/domain/provider-budget.ts (decideCall):
// - every lane together: at most `requestsPerMinute` starts in any minute;
// - background syncs: at most `syncShare` of them, and none while a person waits;
// - after a 429 (pause), nobody until the stored pause ends, in any process.
// A call that may not start sleeps until the earliest instant it might (a person arriving wakes a
// pump that waits on a background call), so an idle budget costs nothing and a full one one
// transaction per slot.
import { createHash } from 'node:crypto';
import {
  BUDGET_HISTORY_MS,
  BUDGET_WINDOW_MS,
  decideCall,
  syncLimitOf,
  type CallBudgetPolicy,
  type CallDecision,
  type CallLane,
} from '../../src/domain/provider-budget';
import { systemClock, type Clock } from '../clock';
import type { Db } from '../db/client';
import type { ProviderCallBudgetRepository } from '../db/repositories/provider-call-budget';
import { defaultSleep, type CallLimiter, type Sleep } from '../provider';

/** The provider account a budget counts for. */
export interface ProviderAccountRef {
  /** Stable across processes that use the same account (providerAccountKey). */
  key: string;
  /** STARLINK_REQUESTS_PER_MINUTE (default 240), for the whole account. */
  requestsPerMinute: number;
}

/**
 * The key of an account's budget: a hash of the API address and the service account's client id,
 * so every process configured with the same credentials shares one budget, and the id itself is
 * not stored.
 */
export function providerAccountKey(apiUrl: string, clientId: string): string {
  return createHash('sha256').update(`${apiUrl.replace(/\/+$/, '')}\n${clientId}`).digest('hex').slice(0, 32);
}

export interface ProviderCallBudget extends CallLimiter {
  readonly accountKey: string;
  readonly requestsPerMinute: number;
  readonly syncShare: number;
  /** Sync calls allowed in a window. */
  readonly syncLimit: number;
  readonly windowMs: number;
  acquire(signal?: AbortSignal, lane?: CallLane): Promise<number>;
  pause(ms: number): Promise<void>;
  /** Callers of this process waiting for a slot, by lane. */
  waiting(): Record<CallLane, number>;
}

export interface ProviderCallBudgetOptions {
  db: Db;
  repo: ProviderCallBudgetRepository;
  accountKey: string;
  requestsPerMinute: number;
  syncShare: number;
  /** Default 60 s. */
  windowMs?: number;
  /** Background calls keep holding back this long past a waiting person's expected slot; default 1 s. */
  peopleGraceMs?: number;
  /** Starts older than this are pruned (about once a minute); default one hour. */
  historyMs?: number;
  now?: Clock;
  sleep?: Sleep;
}

interface Waiter {
  lane: CallLane;
  since: number;
  resolve: (waitedMs: number) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export function createProviderCallBudget(options: ProviderCallBudgetOptions): ProviderCallBudget {
  const { db, repo, accountKey } = options;
  const now = options.now ?? systemClock;
  const sleep = options.sleep ?? defaultSleep;
  const requestsPerMinute = Math.floor(options.requestsPerMinute);
  if (!Number.isFinite(requestsPerMinute) || requestsPerMinute < 1) throw new RangeError('requestsPerMinute must be at least 1');
  if (!(options.syncShare > 0 && options.syncShare <= 1)) throw new RangeError('syncShare must be above 0 and at most 1');
  const windowMs = options.windowMs ?? BUDGET_WINDOW_MS;
  const policy: CallBudgetPolicy = { requestsPerMinute, syncShare: options.syncShare, windowMs };
  const syncLimit = syncLimitOf(policy);
  const graceMs = options.peopleGraceMs ?? 1_000;
  const historyMs = options.historyMs ?? BUDGET_HISTORY_MS;

  const waiters: Waiter[] = [];
  let pumping = false;
  let pumpSleep: AbortController | null = null;
  let lastPrune = 0;

  /**
   * One transaction: the lock, the start recorded with the window read, and the start taken back
   * when the call may not start yet (a waiting person leaves a mark instead).
   */
  function take(lane: CallLane): Promise<CallDecision> {
    return db.transaction(async (tx) => {
      const at = now();
      const { startId, window } = await repo.recordStartAndRead(accountKey, lane, at, { total: requestsPerMinute, sync: syncLimit, windowMs }, tx);
      const decision = decideCall(lane, window, policy, at);
      if (!decision.granted) {
        await repo.dropStart(startId, tx);
        if (lane === 'person') await repo.markPeopleWaiting(accountKey, new Date(decision.retryAt.getTime() + graceMs), at, tx);
      }
      return decision;
    });
  }
  async function pruneNow(t: number): Promise<void> {
    if (t - lastPrune < BUDGET_WINDOW_MS) return;
    lastPrune = t;
    // Bookkeeping only: a failed prune is retried a minute later.
    await repo.prune(accountKey, new Date(t - historyMs)).catch(() => undefined);
  }

  const settle = (waiter: Waiter) => {
    waiter.signal?.removeEventListener('abort', waiter.onAbort);
    const index = waiters.indexOf(waiter);
    if (index >= 0) waiters.splice(index, 1);
  };

  async function pump(): Promise<void> {
    if (pumping) return;
    pumping = true;
    try {
      while (waiters.length > 0) {
        const head = waiters[0]!;
        let decision: CallDecision;
        try {
          decision = await take(head.lane);
        } catch (error) {
          // The database failed: this caller's call fails with it; the next one tries again.
          if (waiters.includes(head)) {
            settle(head);
            head.reject(error);
          }
          continue;
        }
        if (decision.granted) {
          // A caller that gave up meanwhile leaves its slot unused (counted, never exceeded).
          if (waiters.includes(head)) {
            settle(head);
            head.resolve(Math.max(0, now().getTime() - head.since));
          }
          await pruneNow(now().getTime());
          continue;
        }
        // A person arrived ahead of a background call while it was being decided: serve them now.
        if (waiters[0] !== head) continue;
        pumpSleep = new AbortController();
        try {
          await sleep(Math.max(1, decision.retryAt.getTime() - now().getTime()), pumpSleep.signal);
        } catch {
          // Woken: a person arrived ahead of a background call, or every waiter left.
        } finally {
          pumpSleep = null;
        }
      }
    } finally {
      pumping = false;
    }
  }

  return {
    accountKey,
    requestsPerMinute,
    syncShare: options.syncShare,
    syncLimit,
    windowMs,

    acquire(signal, lane = 'person') {
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<number>((resolve, reject) => {
        const waiter: Waiter = {
          lane,
          since: now().getTime(),
          resolve,
          reject,
          signal,
          onAbort: () => {
            settle(waiter);
            reject(signal?.reason);
            if (waiters.length === 0) pumpSleep?.abort();
          },
        };
        signal?.addEventListener('abort', waiter.onAbort, { once: true });
        if (lane === 'person') {
          const firstSync = waiters.findIndex((w) => w.lane === 'sync');
          // The pump may be sleeping on a background call that must now wait behind this one.
          if (firstSync === 0) pumpSleep?.abort();
          if (firstSync >= 0) waiters.splice(firstSync, 0, waiter);
          else waiters.push(waiter);
        } else {
          waiters.push(waiter);
        }
        void pump();
      });
    },

    async pause(ms) {
      if (!(ms > 0)) return;
      const at = now();
      await repo.pause(accountKey, new Date(at.getTime() + ms), at);
    },

    waiting() {
      return {
        person: waiters.filter((w) => w.lane === 'person').length,
        sync: waiters.filter((w) => w.lane === 'sync').length,
      };
    },
  };
}
