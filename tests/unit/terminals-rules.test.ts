import { describe, expect, it } from 'vitest';
import {
  MAINTENANCE_ALERTS,
  TELEMETRY_OFFLINE_AFTER_MS,
  barPercent,
  bytesToGB,
  formatTerminalData,
  isNearLimit,
  isOverLimit,
  lastTwelveMonths,
  matchesTerminalSearch,
  monthRange,
  ownerLabel,
  parseMonthValue,
  terminalCondition,
  usageBalance,
  usageLevel,
  usagePercentage,
  type TelemetrySnapshot,
} from '../../src/domain/terminals';
import { terminalFixture } from '../fixtures/terminals-client';

describe('usage colours and limits (spec 4, thresholds 75 / 90 / 100)', () => {
  it.each([
    [0, 'normal'],
    [75, 'normal'],
    [75.1, 'warning'],
    [90, 'warning'],
    [90.5, 'danger'],
    [100, 'danger'],
    [100.01, 'exceeded'],
    [250, 'exceeded'],
  ] as const)('%s %% is %s', (percentage, level) => {
    expect(usageLevel(percentage)).toBe(level);
  });

  it('over limit is above 100; near limit is 90 to 100 inclusive', () => {
    expect([89.9, 90, 100, 100.1].map(isNearLimit)).toEqual([false, true, true, false]);
    expect([100, 100.1].map(isOverLimit)).toEqual([false, true]);
  });

  it('the progress bar is capped at 100 % and never negative or NaN', () => {
    expect([-5, 0, 42, 100, 180, Number.NaN].map(barPercent)).toEqual([0, 0, 42, 100, 100, 0]);
  });
});

describe('usage arithmetic', () => {
  it('percentage is rounded whole, and 0 without an allowance', () => {
    expect(usagePercentage(512, 1024)).toBe(50);
    expect(usagePercentage(1, 3)).toBe(33);
    expect(usagePercentage(1100, 1000)).toBe(110);
    expect(usagePercentage(5, 0)).toBe(0);
  });

  it('the balance is the overage above 100 % and the remainder otherwise, one decimal', () => {
    expect(usageBalance(57.3, 50)).toEqual({ exceeded: true, amount: 7.3 });
    expect(usageBalance(12.25, 50)).toEqual({ exceeded: false, amount: 37.8 });
    expect(usageBalance(50, 50)).toEqual({ exceeded: false, amount: 0 });
  });

  // Regression: with no priority allowance the remainder read as the usage itself ("5 GB remaining").
  it('without an allowance nothing remains and nothing is exceeded', () => {
    expect(usageBalance(5, 0)).toEqual({ exceeded: false, amount: 0 });
  });

  it('bytes become GB by dividing by 1048576', () => {
    expect(bytesToGB(1_048_576 * 3)).toBe(3);
  });

  it('terminal pages show TB from 1024 GB, one decimal', () => {
    expect(formatTerminalData(512.25)).toBe('512.3 GB');
    expect(formatTerminalData(1023.9)).toBe('1023.9 GB');
    expect(formatTerminalData(1024)).toBe('1.0 TB');
    expect(formatTerminalData(1536)).toBe('1.5 TB');
    expect(formatTerminalData(2048, 'MB')).toBe('2048.0 MB');
  });

  // Regression: 1023.96 GB read "1024.0 GB" instead of switching to TB as shown.
  it('a figure that rounds to 1024 GB shows as TB', () => {
    expect(formatTerminalData(1023.96)).toBe('1.0 TB');
  });
});

describe('month selector (spec 9: 12 months, newest first)', () => {
  it('lists the last twelve months from the current one, values like 2025-3 and labels like March 2025', () => {
    const months = lastTwelveMonths(new Date('2025-03-15T12:00:00Z'));
    expect(months).toHaveLength(12);
    expect(months[0]).toEqual({ value: '2025-3', label: 'March 2025', year: 2025, month: 3 });
    expect(months[2]).toEqual({ value: '2025-1', label: 'January 2025', year: 2025, month: 1 });
    expect(months[3]).toEqual({ value: '2024-12', label: 'December 2024', year: 2024, month: 12 });
    expect(months[11]).toEqual({ value: '2024-4', label: 'April 2024', year: 2024, month: 4 });
  });

  it('counts months in UTC (the first instant of a month is that month everywhere)', () => {
    expect(lastTwelveMonths(new Date('2025-04-01T00:00:00Z'))[0]?.value).toBe('2025-4');
    expect(lastTwelveMonths(new Date('2025-03-31T23:59:59Z'))[0]?.value).toBe('2025-3');
  });

  it('parses month values and refuses anything else', () => {
    expect(parseMonthValue('2025-3')).toEqual({ year: 2025, month: 3 });
    expect(parseMonthValue('2024-12')).toEqual({ year: 2024, month: 12 });
    expect(['2025-13', '2025-0', '25-3', 'March', ''].map(parseMonthValue)).toEqual([null, null, null, null, null]);
  });

  it('a month range is its first and last UTC day, leap years included', () => {
    expect(monthRange(2025, 3)).toEqual({ start: '2025-03-01', end: '2025-03-31' });
    expect(monthRange(2024, 2)).toEqual({ start: '2024-02-01', end: '2024-02-29' });
    expect(monthRange(2025, 2)).toEqual({ start: '2025-02-01', end: '2025-02-28' });
    expect(monthRange(2024, 12)).toEqual({ start: '2024-12-01', end: '2024-12-31' });
  });
});

describe('owner cell and search (spec 2, 5)', () => {
  it('shows the customer name over its id, "Customer" with only an id, else "Unassigned"', () => {
    expect(ownerLabel({ assignedTo: 'c-1', assignedToCustomer: 'Northwind' })).toEqual({ name: 'Northwind', id: 'c-1' });
    expect(ownerLabel({ assignedTo: 'c-1' })).toEqual({ name: 'Customer', id: 'c-1' });
    expect(ownerLabel({})).toEqual({ name: 'Unassigned', id: null });
  });

  const terminal = terminalFixture();
  it.each([
    ['user terminal id', 'ut-0001'],
    ['kit serial', 'KIT-3005'],
    ['dish serial', 'dsh-884'],
    ['service line', '31364'],
    ['customer name', 'northwind'],
    ['customer id', '5b2c-4d8e'],
    ['a blank search', '   '],
  ])('matches by %s, case-insensitively', (_field, term) => {
    expect(matchesTerminalSearch(terminal, term)).toBe(true);
  });

  it('does not match other fields (location, plan) or absent text', () => {
    expect(matchesTerminalSearch(terminal, 'rotterdam')).toBe(false);
    expect(matchesTerminalSearch(terminal, 'priority')).toBe(false);
    expect(matchesTerminalSearch(terminalFixture({ assignedTo: undefined, assignedToCustomer: undefined }), 'northwind')).toBe(false);
  });
});

describe('terminal condition (the Terminal Status card)', () => {
  const at = new Date('2026-11-20T10:00:00.000Z');
  const reading = (overrides: Partial<TelemetrySnapshot> = {}): TelemetrySnapshot => ({
    reportedAt: '2026-11-20T09:59:45.000Z',
    signalQuality: 92,
    alerts: [],
    ...overrides,
  });

  it('an inactive service line is inactive whatever the telemetry says', () => {
    expect(terminalCondition(false, reading(), at)).toBe('inactive');
    expect(terminalCondition(false, null, at)).toBe('inactive');
  });

  it('an active terminal reporting recently with a good signal and no alerts is active', () => {
    expect(terminalCondition(true, reading(), at)).toBe('active');
    expect(terminalCondition(true, reading({ signalQuality: null }), at)).toBe('active');
  });

  it('a hardware alert means maintenance, even when the report is old', () => {
    for (const alert of MAINTENANCE_ALERTS) {
      expect(terminalCondition(true, reading({ alerts: [alert], reportedAt: '2026-11-19T00:00:00.000Z' }), at)).toBe('maintenance');
    }
  });

  it('no telemetry, an old or unreadable report, a critical signal or another alert is a warning', () => {
    const old = new Date(at.getTime() - TELEMETRY_OFFLINE_AFTER_MS - 1).toISOString();
    const justInTime = new Date(at.getTime() - TELEMETRY_OFFLINE_AFTER_MS).toISOString();
    expect(terminalCondition(true, null, at)).toBe('warning');
    expect(terminalCondition(true, reading({ reportedAt: null }), at)).toBe('warning');
    expect(terminalCondition(true, reading({ reportedAt: old }), at)).toBe('warning');
    expect(terminalCondition(true, reading({ reportedAt: justInTime }), at)).toBe('active');
    expect(terminalCondition(true, reading({ reportedAt: 'yesterday' }), at)).toBe('warning');
    expect(terminalCondition(true, reading({ signalQuality: 69 }), at)).toBe('warning');
    expect(terminalCondition(true, reading({ signalQuality: 70 }), at)).toBe('active');
    expect(terminalCondition(true, reading({ alerts: ['alertSlowEthernetSpeeds'] }), at)).toBe('warning');
  });
});
