// Provider writes that change money or service, exactly once across lost answers and crashes.
// Each is recorded as an intent before it is sent (provider_intents, migration 0026). An attempt
// whose answer never came leaves it pending: the write may have been made. Before anything is
// sent again for it (the same key: an approval taken again once its claim expired), the line is
// read from the provider and compared with what it showed before the first attempt; the minute's
// tick does the same for every intent left pending longer than one call can take (a server that
// died mid-call), so the record says what happened. A lookup never guesses towards sending: where
// it cannot tell (the line's cycle turned over, someone else changed it too), the intent is
// uncertain and a person checks the line.
import { randomUUID } from 'node:crypto';
import type { ServiceLineSettingsWire } from '../../src/domain/service-lines';
import type { Clock } from '../clock';
import type { Repositories } from '../db/repositories';
import type { IntentOperation, NewIntent } from '../db/repositories/provider-intents';
import type { ProviderIntentRow } from '../db/schema';
import { ConflictError } from '../errors';
import { isProviderError } from '../provider/errors';

/** What each operation sends (the intent's payload). */
export interface IntentPayloads {
  top_up: { productId: string; count: number };
  plan_change: { productReferenceId: string };
  priority_data: { optedIn: boolean };
  recurring_blocks: { productId: string; count: number; applyToCurrentCycle: boolean };
  deactivate: { endNow: boolean };
}

/** What the line showed before the first attempt (the intent's evidence). */
export interface IntentEvidence {
  top_up: { topUpBlocksBefore: number };
  plan_change: { productBefore: string | null };
  priority_data: Record<string, never>;
  recurring_blocks: Record<string, never>;
  deactivate: Record<string, never>;
}

export type IntentSpec = {
  [K in IntentOperation]: { key: string; operation: K; serviceLineNumber: string; payload: IntentPayloads[K]; evidence: IntentEvidence[K] };
}[IntentOperation];

/** One person's click is its own intent: nothing sends it again but its own lost answer. */
export const clickIntentKey = () => `click:${randomUUID()}`;
/** A customer request's approval: taken again once its claim expired, it is the same write. */
export const requestIntentKey = (requestId: string) => `customer_request:${requestId}`;

/** What a lookup at the provider found of an intent's write. */
export type FoundAtProvider = 'done' | 'not_done' | 'uncertain';

/**
 * Whether the line as the provider shows it now carries the intent's write. A top-up is found by
 * its count of blocks this cycle (bought on top of what the line had before); fewer than before
 * means a new cycle began since, and a count between is someone else's purchase too: neither can
 * tell, and neither may lead to buying again. A plan change is found by the line's plan, the
 * other writes by the state they set.
 */
export function foundAtProvider(intent: Pick<ProviderIntentRow, 'operation' | 'payload' | 'evidence'>, line: ServiceLineSettingsWire): FoundAtProvider {
  switch (intent.operation) {
    case 'top_up': {
      const { count } = intent.payload as IntentPayloads['top_up'];
      const { topUpBlocksBefore: before } = intent.evidence as IntentEvidence['top_up'];
      const now = line.topUpBlocksThisCycle;
      if (now === before) return 'not_done';
      return now >= before + count ? 'done' : 'uncertain';
    }
    case 'plan_change': {
      const { productReferenceId } = intent.payload as IntentPayloads['plan_change'];
      if (line.productReferenceId === productReferenceId) return 'done';
      return line.productReferenceId === (intent.evidence as IntentEvidence['plan_change']).productBefore ? 'not_done' : 'uncertain';
    }
    case 'priority_data':
      return line.optedIn === (intent.payload as IntentPayloads['priority_data']).optedIn ? 'done' : 'not_done';
    case 'recurring_blocks': {
      const { productId, count, applyToCurrentCycle } = intent.payload as IntentPayloads['recurring_blocks'];
      // From the next cycle unless applied to this one: the line shows it as the next cycle's.
      const blocks = applyToCurrentCycle ? line.recurringBlocks : (line.nextRecurringBlocks ?? line.recurringBlocks);
      return blocks?.productId === productId && blocks.count === count ? 'done' : 'not_done';
    }
    case 'deactivate':
      return !line.active || line.endDate !== null ? 'done' : 'not_done';
  }
}

/**
 * How long one call may still be under way in some process: past the provider client's worst
 * case (15 s attempts, up to 10 retries with back-off capped at 30 s). An intent pending longer
 * was left by a process that stopped.
 */
export const INTENT_IN_FLIGHT_MS = 10 * 60_000;
/** Intents one tick looks up (a lookup is a few provider calls); the next tick takes the rest. */
const RECOVERED_PER_TICK = 50;

export const INTENT_MESSAGES = {
  uncertain:
    'The provider may already have made this change: an earlier attempt lost its answer and the line no longer tells. Check the line at the provider before trying again.',
  inFlight: 'This change is being sent by another request; try again in a moment.',
  foundDone: 'Done by an earlier attempt whose answer was lost',
  sent: 'Made by the provider',
  notDone: 'Not made: the provider does not show it',
  refused: (message: string) => `Refused by the provider: ${message}`,
} as const;

/** Provider failures that say the write was not made (refused, or never taken in). */
function refusedOutright(error: unknown): boolean {
  return isProviderError(error) && ['auth', 'permission', 'not-found', 'validation', 'rate-limit'].includes(error.kind);
}

export interface RecoveryReport {
  found: number;
  notDone: number;
  uncertain: number;
  /** Lookups that failed (the provider unavailable): left pending for the next tick. */
  unreadable: number;
}

export interface ProviderIntents {
  /**
   * Sends `send` once for `spec.key`: recorded first; an earlier attempt's pending intent is looked
   * up before anything is sent. Answers whether this call sent it (false: an earlier attempt had
   * made it). Throws the provider's failure as `send` threw it, or a conflict when it cannot tell.
   */
  run(spec: IntentSpec, send: () => Promise<unknown>): Promise<{ sent: boolean }>;
  /**
   * Whether an earlier attempt recorded the write of `key` (none without a key). A check of the
   * line made before sending (the same plan, no top-up blocks left) may then be that attempt's own
   * doing: `run` looks it up instead of the check refusing it.
   */
  attempted(key: string | undefined): Promise<boolean>;
  /** Looks up every intent left pending past INTENT_IN_FLIGHT_MS and records what became of it. */
  recover(): Promise<RecoveryReport>;
}

export function createProviderIntents(deps: {
  repos: Pick<Repositories, 'providerIntents'>;
  now: Clock;
  /** The line as the provider shows it now. */
  lineNow: (serviceLineNumber: string) => Promise<ServiceLineSettingsWire>;
}): ProviderIntents {
  const store = deps.repos.providerIntents;

  async function lookUp(intent: ProviderIntentRow): Promise<FoundAtProvider> {
    const found = foundAtProvider(intent, await deps.lineNow(intent.serviceLineNumber));
    if (found === 'done') await store.settle(intent.id, 'succeeded', INTENT_MESSAGES.foundDone, deps.now());
    else if (found === 'uncertain') await store.settle(intent.id, 'uncertain', INTENT_MESSAGES.uncertain, deps.now());
    return found;
  }

  return {
    async run(spec, send) {
      const { intent, recorded } = await store.record(spec as NewIntent, deps.now());
      if (intent.status === 'succeeded') return { sent: false };
      if (intent.status === 'uncertain') throw new ConflictError(INTENT_MESSAGES.uncertain);
      if (intent.status === 'pending' && intent.attempts > 0) {
        const found = await lookUp(intent);
        if (found === 'done') return { sent: false };
        if (found === 'uncertain') throw new ConflictError(INTENT_MESSAGES.uncertain);
      }
      if (!(await store.markSending(intent.id, intent.attempts, deps.now()))) throw new ConflictError(INTENT_MESSAGES.inFlight);
      try {
        await send();
      } catch (error) {
        // Refused: not made, and the next attempt may send; a refusal of the first attempt leaves
        // nothing behind, as any refused request does. Otherwise the answer is lost and the intent
        // stays pending: the next attempt looks it up first.
        if (refusedOutright(error)) {
          if (recorded) await store.forget(intent.id);
          else await store.settle(intent.id, 'failed', INTENT_MESSAGES.refused(error instanceof Error ? error.message : String(error)), deps.now());
        }
        throw error;
      }
      await store.settle(intent.id, 'succeeded', INTENT_MESSAGES.sent, deps.now());
      return { sent: true };
    },

    async attempted(key) {
      return key !== undefined && (await store.byKey(key)) !== undefined;
    },

    async recover() {
      const report: RecoveryReport = { found: 0, notDone: 0, uncertain: 0, unreadable: 0 };
      for (const intent of await store.pendingSince(new Date(deps.now().getTime() - INTENT_IN_FLIGHT_MS), RECOVERED_PER_TICK)) {
        try {
          const found = await lookUp(intent);
          if (found === 'done') report.found += 1;
          else if (found === 'uncertain') report.uncertain += 1;
          else {
            await store.settle(intent.id, 'failed', INTENT_MESSAGES.notDone, deps.now());
            report.notDone += 1;
          }
        } catch (error) {
          // A line the provider no longer knows cannot show the write either way.
          if (isProviderError(error) && error.kind === 'not-found') {
            await store.settle(intent.id, 'uncertain', INTENT_MESSAGES.uncertain, deps.now());
            report.uncertain += 1;
          } else report.unreadable += 1;
        }
      }
      return report;
    },
  };
}
