// The provider call budget's arithmetic (src/domain/provider-budget.ts) on a fake clock: who may
// start a call when, how long the sync schedule waits after a costly run, and the last hour's chart.
import { describe, expect, it } from 'vitest';
import { normaliseSyncBudget } from '../../src/api/terminals';
import {
  decideCall,
  effectiveIntervalMs,
  formatRunDuration,
  isRunDue,
  lastHourByMinute,
  nextRunAt,
  syncLimitOf,
  syncSpacingMs,
  type CallWindow,
} from '../../src/domain/provider-budget';

const T0 = Date.parse('2026-06-01T12:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms);
const policy = { requestsPerMinute: 240, syncShare: 0.7 };
const empty: CallWindow = { total: 0, sync: 0, totalFullSince: null, syncFullSince: null, pausedUntil: null, peopleWaitingUntil: null };

describe('the sync share', () => {
  it('is the share of the limit rounded down, at least one call', () => {
    expect(syncLimitOf(policy)).toBe(168);
    expect(syncLimitOf({ requestsPerMinute: 250, syncShare: 0.7 })).toBe(175);
    expect(syncLimitOf({ requestsPerMinute: 10, syncShare: 1 })).toBe(10);
    expect(syncLimitOf({ requestsPerMinute: 3, syncShare: 0.1 })).toBe(1);
    // 0.7 × 10 is 6.999… in floating point: still 7.
    expect(syncLimitOf({ requestsPerMinute: 10, syncShare: 0.7 })).toBe(7);
  });
});

describe('who may start a call', () => {
  it('lets both lanes start while the window has room', () => {
    expect(decideCall('person', empty, policy, at(0))).toEqual({ granted: true });
    expect(decideCall('sync', { ...empty, total: 100, sync: 100 }, policy, at(0))).toEqual({ granted: true });
  });

  it('holds a sync call at its share while a person still gets the rest of the window', () => {
    const window = { ...empty, total: 168, sync: 168, totalFullSince: null, syncFullSince: at(-20_000) };
    expect(decideCall('sync', window, policy, at(0))).toEqual({ granted: false, retryAt: at(40_000), reason: 'syncShare' });
    expect(decideCall('person', window, policy, at(0))).toEqual({ granted: true });
  });

  it('holds everyone when the window is full, until the start that fills it leaves', () => {
    const window = { ...empty, total: 240, sync: 100, totalFullSince: at(-45_000), syncFullSince: null };
    expect(decideCall('person', window, policy, at(0))).toEqual({ granted: false, retryAt: at(15_000), reason: 'full' });
    expect(decideCall('sync', window, policy, at(0))).toMatchObject({ granted: false, retryAt: at(15_000) });
  });

  it('holds a sync call while a person waits, and only then', () => {
    const window = { ...empty, total: 10, sync: 5, peopleWaitingUntil: at(2_000) };
    expect(decideCall('sync', window, policy, at(0))).toEqual({ granted: false, retryAt: at(2_000), reason: 'peopleWaiting' });
    expect(decideCall('person', window, policy, at(0))).toEqual({ granted: true });
    expect(decideCall('sync', window, policy, at(2_000))).toEqual({ granted: true });
  });

  it('holds everyone during a pause after a 429, and gives the reason that holds longest', () => {
    const window = { ...empty, pausedUntil: at(5_000) };
    expect(decideCall('person', window, policy, at(0))).toEqual({ granted: false, retryAt: at(5_000), reason: 'paused' });
    expect(decideCall('sync', { ...window, peopleWaitingUntil: at(6_000) }, policy, at(0))).toEqual({
      granted: false,
      retryAt: at(6_000),
      reason: 'peopleWaiting',
    });
    expect(decideCall('person', window, policy, at(5_000))).toEqual({ granted: true });
  });

  it('never asks to retry in the past', () => {
    const window = { ...empty, total: 240, totalFullSince: at(-60_000) };
    expect(decideCall('person', window, policy, at(0))).toEqual({ granted: false, retryAt: at(1), reason: 'full' });
  });
});

describe('the schedule sized to the budget', () => {
  const MINUTE = 60_000;

  it('spaces runs by their calls at the sync share', () => {
    // 3,084 calls at 168 a minute: 18.36 minutes.
    expect(syncSpacingMs(3_084, policy)).toBe(Math.ceil((3_084 / 168) * MINUTE));
    expect(syncSpacingMs(168, policy)).toBe(MINUTE);
    expect(syncSpacingMs(0, policy)).toBe(0);
  });

  it('keeps the configured interval unless the last run needs longer', () => {
    expect(effectiveIntervalMs(15 * MINUTE, 312, policy)).toBe(15 * MINUTE);
    expect(effectiveIntervalMs(15 * MINUTE, 3_084, policy)).toBe(Math.ceil((3_084 / 168) * MINUTE));
    expect(effectiveIntervalMs(null, 3_084, policy)).toBeNull();
  });

  it('puts the next run at the last start plus the effective interval, none while one is under way', () => {
    const now = at(0);
    const last = (minutesAgo: number, providerCalls: number, status: 'succeeded' | 'failed' | 'queued' | 'running' = 'succeeded') => ({
      status,
      startedAt: at(-minutesAgo * MINUTE),
      providerCalls,
    });
    expect(nextRunAt(null, 15 * MINUTE, policy, now)).toEqual(now);
    expect(nextRunAt(last(10, 312), 15 * MINUTE, policy, now)).toEqual(at(5 * MINUTE));
    // 3,360 calls at 168 a minute are 20 minutes: due 20 minutes after its start, not 15.
    expect(nextRunAt(last(10, 3_360), 15 * MINUTE, policy, now)).toEqual(at(10 * MINUTE));
    expect(nextRunAt(last(10, 312, 'running'), 15 * MINUTE, policy, now)).toBeNull();
    expect(nextRunAt(last(10, 312), null, policy, now)).toBeNull();

    expect(isRunDue(last(15, 312), 15 * MINUTE, policy, now)).toBe(true);
    expect(isRunDue(last(15, 3_360), 15 * MINUTE, policy, now)).toBe(false);
    expect(isRunDue(last(20, 3_360), 15 * MINUTE, policy, now)).toBe(true);
    expect(isRunDue(last(60, 312, 'queued'), 15 * MINUTE, policy, now)).toBe(false);
    expect(isRunDue(null, 15 * MINUTE, policy, now)).toBe(true);
    expect(isRunDue(null, null, policy, now)).toBe(false);
  });

  it('halves the pace with half the share', () => {
    const half = { requestsPerMinute: 240, syncShare: 0.35 };
    expect(effectiveIntervalMs(15 * MINUTE, 3_360, half)).toBe(40 * MINUTE);
  });
});

describe('the last hour by minute', () => {
  it('gives sixty minutes, oldest first, each lane apart and empty minutes as zero', () => {
    const now = new Date('2026-06-01T12:30:40.000Z');
    const minutes = lastHourByMinute(
      [
        { minute: new Date('2026-06-01T12:30:00.000Z'), lane: 'sync', calls: 40 },
        { minute: new Date('2026-06-01T12:30:00.000Z'), lane: 'person', calls: 3 },
        { minute: new Date('2026-06-01T11:31:00.000Z'), lane: 'person', calls: 1 },
        // Older than the hour shown: left out.
        { minute: new Date('2026-06-01T11:30:00.000Z'), lane: 'sync', calls: 99 },
      ],
      now,
    );
    expect(minutes).toHaveLength(60);
    expect(minutes[0]).toEqual({ minute: '2026-06-01T11:31:00.000Z', sync: 0, person: 1 });
    expect(minutes[59]).toEqual({ minute: '2026-06-01T12:30:00.000Z', sync: 40, person: 3 });
    expect(minutes.slice(1, 59).every((m) => m.sync === 0 && m.person === 0)).toBe(true);
  });
});

describe('a run’s length', () => {
  it.each([
    [0, 'under 1 s'],
    [499, 'under 1 s'],
    [44_600, '45 s'],
    [120_000, '2 min'],
    [192_000, '3 min 12 s'],
    [3_600_000, '1 h'],
    [3_900_000, '1 h 5 min'],
  ])('reads %i ms as %j', (ms, text) => {
    expect(formatRunDuration(ms)).toBe(text);
  });
});

describe('GET /terminals/sync/budget as the page reads it', () => {
  it('keeps a well-formed answer as it is', () => {
    const wire = {
      budget: { requestsPerMinute: 240, syncShare: 0.7, syncRequestsPerMinute: 168, shared: true, pausedUntil: null },
      inventory: {
        kind: 'inventory',
        state: 'scheduled',
        configuredIntervalMs: 900_000,
        effectiveIntervalMs: 1_200_000,
        nextAt: '2026-06-01T12:20:00.000Z',
        lastRun: { id: 'r1', status: 'succeeded', startedAt: '2026-06-01T12:00:00.000Z', finishedAt: '2026-06-01T12:03:00.000Z', durationMs: 180_000, providerCalls: 3_360 },
      },
      usage: { kind: 'usage', state: 'off', configuredIntervalMs: null, effectiveIntervalMs: null, nextAt: null, lastRun: null },
      perMinute: [{ minute: '2026-06-01T12:00:00.000Z', sync: 168, person: 4 }],
    };
    expect(normaliseSyncBudget(wire)).toEqual(wire);
  });

  it('reads what it cannot as nothing known, and no budget at all as a failure', () => {
    expect(normaliseSyncBudget(null)).toBeNull();
    expect(normaliseSyncBudget({ inventory: {} })).toBeNull();
    const read = normaliseSyncBudget({ budget: { requestsPerMinute: '240', syncShare: 'x' }, inventory: { state: 'sometime', lastRun: { id: 7 } }, perMinute: [{ sync: 3 }, 'x'] });
    expect(read).toEqual({
      budget: { requestsPerMinute: 240, syncShare: 0.7, syncRequestsPerMinute: 0, shared: false, pausedUntil: null },
      inventory: { kind: 'inventory', state: 'off', configuredIntervalMs: null, effectiveIntervalMs: null, nextAt: null, lastRun: null },
      usage: { kind: 'usage', state: 'off', configuredIntervalMs: null, effectiveIntervalMs: null, nextAt: null, lastRun: null },
      perMinute: [],
    });
  });
});
