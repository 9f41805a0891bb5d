// Provider intents without a database: what a lookup at the provider concludes from the line, and
// when an intent's write is sent, looked up, or refused, over an in-memory store.
import { describe, expect, it } from 'vitest';
import type { NewIntent } from '../../server/db/repositories/provider-intents';
import type { ProviderIntentRow } from '../../server/db/schema';
import { ConflictError } from '../../server/errors';
import { ProviderTimeoutError, ProviderValidationError } from '../../server/provider/errors';
import { INTENT_IN_FLIGHT_MS, INTENT_MESSAGES, createProviderIntents, foundAtProvider, type IntentSpec } from '../../server/services/provider-intents';
import type { ServiceLineSettingsWire } from '../../src/domain/service-lines';

const line = (changes: Partial<ServiceLineSettingsWire> = {}): ServiceLineSettingsWire => ({
  serviceLineNumber: 'AST-1',
  nickname: null,
  productReferenceId: 'SUB-METERED-50GB',
  planName: 'Local Priority 50 GB',
  planKind: 'blocks',
  active: true,
  endDate: null,
  publicIp: false,
  optedIn: false,
  recurringBlocks: null,
  nextRecurringBlocks: null,
  blockProducts: [],
  topUpProduct: null,
  topUpBlocksThisCycle: 2,
  topUpBlocksLeft: 8,
  partialPeriods: [],
  customer: null,
  terminals: [],
  routerConfigs: [],
  ...changes,
});

const intentOf = (spec: IntentSpec) => ({ operation: spec.operation, payload: spec.payload, evidence: spec.evidence }) as Pick<ProviderIntentRow, 'operation' | 'payload' | 'evidence'>;
const topUp: IntentSpec = { key: 'k', operation: 'top_up', serviceLineNumber: 'AST-1', payload: { productId: 'TOPUP', count: 2 }, evidence: { topUpBlocksBefore: 2 } };

describe('what a lookup at the provider finds', () => {
  it('finds a top-up by the blocks bought on top of those before, and cannot tell a new cycle or another purchase from it', () => {
    expect(foundAtProvider(intentOf(topUp), line({ topUpBlocksThisCycle: 2 }))).toBe('not_done');
    expect(foundAtProvider(intentOf(topUp), line({ topUpBlocksThisCycle: 4 }))).toBe('done');
    expect(foundAtProvider(intentOf(topUp), line({ topUpBlocksThisCycle: 3 }))).toBe('uncertain');
    expect(foundAtProvider(intentOf(topUp), line({ topUpBlocksThisCycle: 0 }))).toBe('uncertain');
  });

  it('finds a plan change by the line’s plan, and cannot tell a third plan', () => {
    const change: IntentSpec = { key: 'k', operation: 'plan_change', serviceLineNumber: 'AST-1', payload: { productReferenceId: 'SUB-1TB' }, evidence: { productBefore: 'SUB-METERED-50GB' } };
    expect(foundAtProvider(intentOf(change), line({ productReferenceId: 'SUB-1TB' }))).toBe('done');
    expect(foundAtProvider(intentOf(change), line())).toBe('not_done');
    expect(foundAtProvider(intentOf(change), line({ productReferenceId: 'SUB-OTHER' }))).toBe('uncertain');
  });

  it('finds priority data, recurring blocks and a deactivation by the state they set', () => {
    const optOut: IntentSpec = { key: 'k', operation: 'priority_data', serviceLineNumber: 'AST-1', payload: { optedIn: false }, evidence: {} };
    expect(foundAtProvider(intentOf(optOut), line({ optedIn: false }))).toBe('done');
    expect(foundAtProvider(intentOf(optOut), line({ optedIn: true }))).toBe('not_done');
    const blocks: IntentSpec = { key: 'k', operation: 'recurring_blocks', serviceLineNumber: 'AST-1', payload: { productId: 'B1', count: 3, applyToCurrentCycle: false }, evidence: {} };
    expect(foundAtProvider(intentOf(blocks), line({ nextRecurringBlocks: { productId: 'B1', count: 3, dataGB: 150 } }))).toBe('done');
    expect(foundAtProvider(intentOf(blocks), line({ recurringBlocks: { productId: 'B1', count: 1, dataGB: 50 } }))).toBe('not_done');
    const end: IntentSpec = { key: 'k', operation: 'deactivate', serviceLineNumber: 'AST-1', payload: { endNow: false }, evidence: {} };
    expect(foundAtProvider(intentOf(end), line({ endDate: '2026-12-01T00:00:00Z' }))).toBe('done');
    expect(foundAtProvider(intentOf(end), line({ active: false }))).toBe('done');
    expect(foundAtProvider(intentOf(end), line())).toBe('not_done');
  });
});

/** The repository's five calls over a map, as the database would answer them. */
function memoryStore() {
  const rows = new Map<string, ProviderIntentRow>();
  let n = 0;
  return {
    rows,
    store: {
      async record(intent: NewIntent, at: Date) {
        const found = [...rows.values()].find((row) => row.key === intent.key);
        if (found) return { intent: { ...found }, recorded: false };
        const row: ProviderIntentRow = { id: `i${++n}`, ...intent, status: 'pending', attempts: 0, outcome: null, createdAt: at, sentAt: null, settledAt: null };
        rows.set(row.id, row);
        return { intent: { ...row }, recorded: true };
      },
      async forget(id: string) {
        rows.delete(id);
      },
      async markSending(id: string, attempts: number, at: Date) {
        const row = rows.get(id)!;
        if (row.attempts !== attempts || !['pending', 'failed'].includes(row.status)) return false;
        Object.assign(row, { status: 'pending', attempts: attempts + 1, sentAt: at, settledAt: null, outcome: null });
        return true;
      },
      async settle(id: string, status: ProviderIntentRow['status'], outcome: string, at: Date) {
        Object.assign(rows.get(id)!, { status, outcome, settledAt: at });
      },
      async pendingSince(at: Date, limit: number) {
        return [...rows.values()].filter((row) => row.status === 'pending' && (row.sentAt ?? row.createdAt) < at).slice(0, limit);
      },
      async byKey(key: string) {
        return [...rows.values()].find((row) => row.key === key);
      },
    },
  };
}

describe('running an intent', () => {
  const start = new Date('2026-11-29T12:00:00Z');
  function setUp(shown: () => ServiceLineSettingsWire) {
    const memory = memoryStore();
    let clock = start;
    const intents = createProviderIntents({ repos: { providerIntents: memory.store }, now: () => clock, lineNow: async () => shown() });
    return { memory, intents, later: (ms: number) => (clock = new Date(clock.getTime() + ms)) };
  }

  it('sends once and records it; the same key again sends nothing', async () => {
    const { memory, intents } = setUp(() => line());
    let sent = 0;
    expect(await intents.run(topUp, async () => sent++)).toEqual({ sent: true });
    expect(await intents.run(topUp, async () => sent++)).toEqual({ sent: false });
    expect(sent).toBe(1);
    expect([...memory.rows.values()]).toMatchObject([{ status: 'succeeded', attempts: 1, outcome: INTENT_MESSAGES.sent }]);
    expect([await intents.attempted('k'), await intents.attempted('other'), await intents.attempted(undefined)]).toEqual([true, false, false]);
  });

  it('after a lost answer looks the line up first: found, nothing is sent; not found, it is sent again', async () => {
    let blocks = 2;
    const { memory, intents } = setUp(() => line({ topUpBlocksThisCycle: blocks }));
    const lost = async () => {
      throw new ProviderTimeoutError('no answer', { timeoutMs: 15_000 });
    };
    await expect(intents.run(topUp, lost)).rejects.toBeInstanceOf(ProviderTimeoutError);
    expect([...memory.rows.values()]).toMatchObject([{ status: 'pending', attempts: 1 }]);
    // Not made: sent again.
    let sent = 0;
    expect(await intents.run(topUp, async () => ((blocks += 2), sent++))).toEqual({ sent: true });
    expect(sent).toBe(1);
    // Made by the lost attempt: found, not sent.
    const second: IntentSpec = { ...topUp, key: 'k2', evidence: { topUpBlocksBefore: 4 } };
    await expect(intents.run(second, async () => ((blocks += 2), lost()))).rejects.toBeInstanceOf(ProviderTimeoutError);
    expect(await intents.run(second, async () => sent++)).toEqual({ sent: false });
    expect(sent).toBe(1);
    expect(memory.rows.get('i2')).toMatchObject({ status: 'succeeded', outcome: INTENT_MESSAGES.foundDone });
  });

  it('refuses to send again what the line cannot tell, and lets a refused write be sent again', async () => {
    let blocks = 2;
    const { memory, intents } = setUp(() => line({ topUpBlocksThisCycle: blocks }));
    await expect(intents.run(topUp, async () => ((blocks = 3), Promise.reject(new ProviderTimeoutError('no answer', { timeoutMs: 1 }))))).rejects.toThrow();
    await expect(intents.run(topUp, async () => undefined)).rejects.toEqual(new ConflictError(INTENT_MESSAGES.uncertain));
    await expect(intents.run(topUp, async () => undefined)).rejects.toEqual(new ConflictError(INTENT_MESSAGES.uncertain));

    // Refused at once: nothing is kept, as for any refused request.
    const refusedOnce: IntentSpec = { ...topUp, key: 'k3' };
    const refused = () => Promise.reject(new ProviderValidationError('no', { status: 400 }));
    await expect(intents.run(refusedOnce, refused)).rejects.toBeInstanceOf(ProviderValidationError);
    expect([...memory.rows.values()].map((row) => row.key)).toEqual(['k']);
    // Refused after a lost answer: recorded as refused, and it may be sent again.
    blocks = 2;
    const lostThenRefused: IntentSpec = { ...topUp, key: 'k4' };
    await expect(intents.run(lostThenRefused, () => Promise.reject(new ProviderTimeoutError('no answer', { timeoutMs: 1 })))).rejects.toThrow();
    await expect(intents.run(lostThenRefused, refused)).rejects.toBeInstanceOf(ProviderValidationError);
    expect([...memory.rows.values()].find((row) => row.key === 'k4')).toMatchObject({ status: 'failed', attempts: 2 });
    expect(await intents.run(lostThenRefused, async () => undefined)).toEqual({ sent: true });
  });

  it('records on the tick what became of writes a stopped process left, once they are past one call’s time', async () => {
    const { memory, intents, later } = setUp(() => line({ topUpBlocksThisCycle: 4 }));
    const lost = () => Promise.reject(new ProviderTimeoutError('no answer', { timeoutMs: 1 }));
    await expect(intents.run(topUp, lost)).rejects.toThrow();
    await expect(intents.run({ ...topUp, key: 'k2', evidence: { topUpBlocksBefore: 4 } }, lost)).rejects.toThrow();
    // Still within one call's time: another process may be waiting for its answer.
    expect(await intents.recover()).toEqual({ found: 0, notDone: 0, uncertain: 0, unreadable: 0 });
    later(INTENT_IN_FLIGHT_MS + 1);
    expect(await intents.recover()).toEqual({ found: 1, notDone: 1, uncertain: 0, unreadable: 0 });
    expect([...memory.rows.values()].map((row) => [row.key, row.status])).toEqual([
      ['k', 'succeeded'],
      ['k2', 'failed'],
    ]);
  });
});
