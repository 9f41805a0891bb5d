// SYNC_INTERVAL, SYNC_STALE_AFTER and USAGE_HISTORY_CYCLES: the accepted spellings, the off switch, and the start-up
// error lines for anything else.
import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv, syncDurationMs } from '../../server/config';

describe('SYNC_INTERVAL', () => {
  it('defaults to 15 minutes', () => {
    expect(parseEnv({}).syncIntervalMs).toBe(15 * 60_000);
  });

  it.each([
    ['15m', 15 * 60_000],
    ['1h', 3_600_000],
    ['900s', 900_000],
    ['30', 30 * 60_000],
    [' 2h ', 7_200_000],
    ['1d', 86_400_000],
  ])('reads %j', (value, ms) => {
    expect(parseEnv({ SYNC_INTERVAL: value }).syncIntervalMs).toBe(ms);
  });

  it.each(['off', 'OFF', '0'])('turns automatic syncs off with %j', (value) => {
    expect(parseEnv({ SYNC_INTERVAL: value }).syncIntervalMs).toBeNull();
  });

  it.each(['soon', '30s', '-5', '1w', '40d'])('stops start-up with one readable line for %j', (value) => {
    let error: unknown;
    try {
      parseEnv({ SYNC_INTERVAL: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(`  SYNC_INTERVAL: must be a duration of at least 1 minute like 15m, 1h, 900s or plain minutes, or 0/off to turn it off (got "${value}")`);
  });
});

describe('SYNC_STALE_AFTER', () => {
  it('defaults to 2 minutes and reads the same spellings', () => {
    expect(parseEnv({}).syncStaleAfterMs).toBe(120_000);
    expect(parseEnv({ SYNC_STALE_AFTER: '90s' }).syncStaleAfterMs).toBe(90_000);
    expect(parseEnv({ SYNC_STALE_AFTER: '5' }).syncStaleAfterMs).toBe(300_000);
  });

  it('refuses values a slow heartbeat would trip over, or that would leave a dead run for hours', () => {
    expect(() => parseEnv({ SYNC_STALE_AFTER: '10s' })).toThrow(/SYNC_STALE_AFTER: must be a duration from 30s to 1h/);
    expect(() => parseEnv({ SYNC_STALE_AFTER: 'off' })).toThrow(/SYNC_STALE_AFTER/);
    expect(() => parseEnv({ SYNC_STALE_AFTER: '2h' })).toThrow(/SYNC_STALE_AFTER/);
  });

  it('shares one duration reader with SYNC_INTERVAL', () => {
    expect([syncDurationMs('15m'), syncDurationMs('off'), syncDurationMs('nope')]).toEqual([900_000, null, undefined]);
  });
});

describe('USAGE_HISTORY_CYCLES', () => {
  it('defaults to the 11 cycles before the current one (a year in all) and takes 0 to 23', () => {
    expect(parseEnv({}).usageHistoryCycles).toBe(11);
    expect(parseEnv({ USAGE_HISTORY_CYCLES: '0' }).usageHistoryCycles).toBe(0);
    expect(parseEnv({ USAGE_HISTORY_CYCLES: '23' }).usageHistoryCycles).toBe(23);
  });

  it('refuses more cycles than one provider query answers, fractions and words', () => {
    for (const value of ['24', '-1', '2.5', 'a year']) {
      expect(() => parseEnv({ USAGE_HISTORY_CYCLES: value }), value).toThrow(/USAGE_HISTORY_CYCLES: must be a whole number from 0 to 23/);
    }
  });
});
