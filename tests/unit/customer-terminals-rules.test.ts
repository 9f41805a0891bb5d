// The month list of the usage page is `lastTwelveMonths`, covered in terminals-rules.test.ts
// (twelve entries newest first, `2025-3` values, "March 2025" labels, across a year boundary).
import { describe, expect, it } from 'vitest';
import {
  ASSIGN_MAX_LINES,
  ASSIGN_MESSAGES,
  USAGE_BAR_COLOURS,
  checkServiceLineList,
  formatCustomerUsage,
  isServiceLineNumber,
  matchesUsageSearch,
  monthLabel,
  monthUsageQuery,
  parseServiceLineInput,
  recordOverage,
  recordPercentage,
  recordRemaining,
  summariseUsage,
  usageBarColour,
  validateAssignInput,
  visibleUsageRecords,
  type CustomerUsageSort,
  type CustomerUsageStatusFilter,
  type TerminalUsageRecord,
} from '../../src/domain/customer-terminals';
import { lastTwelveMonths } from '../../src/domain/terminals';
import { usageRecord } from '../fixtures/customer-terminals-client';

const lines = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `AST-${String(from + i).padStart(6, '0')}-01`);

describe('parsing the service line textarea (spec 5 "Assign terminals")', () => {
  it('splits on commas, spaces, tabs and new lines alike', () => {
    expect(parseServiceLineInput('AST-1,AST-2 AST-3\tAST-4\nAST-5\r\nAST-6')).toEqual(['AST-1', 'AST-2', 'AST-3', 'AST-4', 'AST-5', 'AST-6']);
  });

  it('treats a run of separators as one and drops the empties at either end', () => {
    expect(parseServiceLineInput(' ,, AST-1 ,\n\n  AST-2\t\t,,\n ')).toEqual(['AST-1', 'AST-2']);
  });

  it('keeps a repeated line once, where it first appeared', () => {
    expect(parseServiceLineInput('AST-2, AST-1\nAST-2 AST-3, AST-1')).toEqual(['AST-2', 'AST-1', 'AST-3']);
  });

  it('finds nothing in an empty or separator-only text', () => {
    expect(parseServiceLineInput('')).toEqual([]);
    expect(parseServiceLineInput(' , \n\t,')).toEqual([]);
  });
});

describe('the client checks before assigning', () => {
  it('an empty or blank box says "Please enter at least one service line number"', () => {
    for (const text of ['', '   ', '\n\t ']) {
      expect(validateAssignInput(text)).toEqual({ ok: false, message: 'Please enter at least one service line number' });
    }
  });

  it('a box of separators only says "Please enter valid service line numbers"', () => {
    expect(validateAssignInput(', ,\n,')).toEqual({ ok: false, message: 'Please enter valid service line numbers' });
  });

  it('passes the distinct lines on, in order', () => {
    expect(validateAssignInput(' AST-9, AST-8 AST-9 ')).toEqual({ ok: true, lines: ['AST-9', 'AST-8'] });
  });

  it(`accepts ${ASSIGN_MAX_LINES} distinct lines and refuses one more, saying how many were entered`, () => {
    expect(ASSIGN_MAX_LINES).toBe(500);
    const atLimit = validateAssignInput(lines(500).join('\n'));
    expect(atLimit.ok && atLimit.lines.length).toBe(500);
    expect(validateAssignInput(lines(501).join(', '))).toEqual({
      ok: false,
      message: 'At most 500 service line numbers can be assigned at once (501 entered)',
    });
  });

  it('counts the limit after repeats are dropped', () => {
    const check = validateAssignInput([...lines(500), ...lines(20)].join(' '));
    expect(check.ok && check.lines.length).toBe(500);
  });

  it('the server-side list check refuses an empty list, blank entries only, and more than the limit', () => {
    expect(checkServiceLineList([])).toEqual({ ok: false, message: ASSIGN_MESSAGES.empty });
    expect(checkServiceLineList(['  ', ''])).toEqual({ ok: false, message: ASSIGN_MESSAGES.noneValid });
    expect(checkServiceLineList([' AST-1 ', 'AST-1', 'AST-2'])).toEqual({ ok: true, lines: ['AST-1', 'AST-2'] });
    expect(checkServiceLineList(lines(501))).toEqual({ ok: false, message: ASSIGN_MESSAGES.tooMany(501) });
  });

  it('a well-formed service line is letters, digits and dashes, 2 to 64 long, not starting with a dash', () => {
    expect(['AST-511274-31364-54', 'sl1', 'A1', `A${'-'.repeat(63)}`].map(isServiceLineNumber)).toEqual([true, true, true, true]);
    expect(['A', '-AST-1', 'AST 1', 'AST_1', 'AST-1;', `A${'1'.repeat(64)}`].map(isServiceLineNumber)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('month of usage', () => {
  it('asks for the first and last UTC day of the month', () => {
    expect(monthUsageQuery(2025, 3)).toEqual({ billing_cycle_start: '2025-03-01', billing_cycle_end: '2025-03-31' });
    expect(monthUsageQuery(2025, 4)).toEqual({ billing_cycle_start: '2025-04-01', billing_cycle_end: '2025-04-30' });
  });

  it('February ends on the 29th in leap years only (2000 is one, 2100 is not)', () => {
    expect(monthUsageQuery(2024, 2).billing_cycle_end).toBe('2024-02-29');
    expect(monthUsageQuery(2025, 2).billing_cycle_end).toBe('2025-02-28');
    expect(monthUsageQuery(2000, 2).billing_cycle_end).toBe('2000-02-29');
    expect(monthUsageQuery(2100, 2).billing_cycle_end).toBe('2100-02-28');
  });

  it('December stays in its own year', () => {
    expect(monthUsageQuery(2024, 12)).toEqual({ billing_cycle_start: '2024-12-01', billing_cycle_end: '2024-12-31' });
  });

  it('labels a month with its long name and year, as the month selector does', () => {
    expect(monthLabel(2025, 3)).toBe('March 2025');
    expect(monthLabel(2024, 12)).toBe('December 2024');
    expect(monthLabel(2026, 1)).toBe('January 2026');
    for (const option of lastTwelveMonths(new Date('2026-02-10T00:00:00Z'))) {
      expect(monthLabel(option.year, option.month)).toBe(option.label);
    }
  });
});

describe('a record’s priority data', () => {
  it('within the allowance: the remainder, no overage', () => {
    const r = usageRecord({ used: 300, total: 1000 });
    expect([recordRemaining(r), recordOverage(r), recordPercentage(r)]).toEqual([700, 0, 30]);
  });

  it('beyond the allowance: the overage, nothing remaining', () => {
    const r = usageRecord({ used: 1100.5, total: 1000 });
    expect([recordRemaining(r), recordOverage(r), recordPercentage(r)]).toEqual([0, 100.5, 110]);
  });

  it('exactly at the allowance: neither', () => {
    const r = usageRecord({ used: 1000, total: 1000 });
    expect([recordRemaining(r), recordOverage(r), recordPercentage(r)]).toEqual([0, 0, 100]);
  });

  it('no usage stored for the month, or no allowance: all zero', () => {
    for (const r of [usageRecord(null), usageRecord({ used: 25, total: 0 })]) {
      expect([recordRemaining(r), recordOverage(r), recordPercentage(r)]).toEqual([0, 0, 0]);
    }
  });
});

describe('usage bar colour (spec 4: over 100 red, over 90 reddish, over 75 yellow, else green)', () => {
  it.each([
    [0, 'normal'],
    [75, 'normal'],
    [75.1, 'warning'],
    [90, 'warning'],
    [90.1, 'danger'],
    [100, 'danger'],
    [100.1, 'exceeded'],
    [240, 'exceeded'],
  ] as const)('%s %% is the %s colour', (percentage, level) => {
    expect(usageBarColour(percentage)).toBe(USAGE_BAR_COLOURS[level]);
  });

  it('the four colours are told apart', () => {
    expect(new Set(Object.values(USAGE_BAR_COLOURS)).size).toBe(4);
  });
});

describe('usage figures on the customer page (spec 9: TB from 1000 GB, one decimal)', () => {
  it.each([
    [0, '0.0 GB'],
    [512.25, '512.3 GB'],
    [999.94, '999.9 GB'],
    // Regression guard: 999.96 GB would read "1000.0 GB" if compared before rounding.
    [999.96, '1.0 TB'],
    [1000, '1.0 TB'],
    [1024, '1.0 TB'],
    [1500, '1.5 TB'],
    [12345, '12.3 TB'],
  ] as const)('%s GB reads %s', (gb, shown) => {
    expect(formatCustomerUsage(gb)).toBe(shown);
  });
});

describe('summary cards', () => {
  const cycle = (totalUsed: number, percentage: number): TerminalUsageRecord['currentBillingCycle'] => ({
    startDate: '2026-11-01',
    endDate: '2026-11-30',
    totalUsed,
    priorityData: { used: totalUsed, total: 100, unit: 'GB', percentage },
    standardUsed: 0,
  });

  it('counts terminals, the active ones, the data used and those above 100 %', () => {
    const records = [
      usageRecord({ used: 300, total: 1000 }, { serviceLineNumber: 'AST-1' }),
      usageRecord({ used: 1200, total: 1000 }, { serviceLineNumber: 'AST-2', status: 'Suspended' }),
      usageRecord({ used: 1000, total: 1000 }, { serviceLineNumber: 'AST-3', status: 'Maintenance' }),
      usageRecord(null, { serviceLineNumber: 'AST-4', status: 'Pending' }),
      usageRecord({ used: 10, total: 1000 }, { serviceLineNumber: 'AST-5' }),
    ];
    expect(summariseUsage(records)).toEqual({
      totalTerminals: 5,
      activeTerminals: 2,
      // Priority plus the fixture's 40 GB standard, for the four records with a cycle.
      totalDataUsed: 340 + 1240 + 1040 + 50,
      overLimit: 1,
    });
  });

  it('rounds the data used to two decimals, so sums do not show float noise', () => {
    const records = [usageRecord(null, { currentBillingCycle: cycle(0.1, 0) }), usageRecord(null, { currentBillingCycle: cycle(0.2, 0) })];
    expect(summariseUsage(records).totalDataUsed).toBe(0.3);
  });

  it('an empty month is all zeros', () => {
    expect(summariseUsage([])).toEqual({ totalTerminals: 0, activeTerminals: 0, totalDataUsed: 0, overLimit: 0 });
  });
});

const rec = (serviceLineNumber: string, used: number | null, overrides: Partial<TerminalUsageRecord> = {}) =>
  usageRecord(used === null ? null : { used, total: 1000 }, { serviceLineNumber, terminalId: `UT-${serviceLineNumber}`, ...overrides });

describe('table search', () => {
  const r = usageRecord(undefined, {
    serviceLineNumber: 'AST-511274-31364-54',
    terminalId: 'UT-0001A2B3',
    location: 'Rotterdam, NL',
    plan: 'Priority 1 TB',
    terminalType: 'Flat High Performance',
  });

  it('matches service line, terminal id, location, plan and type, ignoring case and surrounding spaces', () => {
    for (const term of ['31364', 'ut-0001a', 'rotterdam', 'PRIORITY 1', 'flat high', '  Rotterdam  ']) {
      expect(matchesUsageSearch(r, term)).toBe(true);
    }
  });

  it('does not match other fields or absent text', () => {
    expect(matchesUsageSearch(r, 'Active')).toBe(false);
    expect(matchesUsageSearch(r, 'Lisbon')).toBe(false);
  });

  it('a blank search matches everything, and missing location, plan or type never match', () => {
    const bare = { ...r, location: null, plan: null, terminalType: null };
    expect(matchesUsageSearch(bare, '   ')).toBe(true);
    expect(matchesUsageSearch(bare, 'rotterdam')).toBe(false);
    expect(matchesUsageSearch(bare, 'AST-511274')).toBe(true);
  });
});

describe('visible rows: filter, search, sort', () => {
  const records = [
    rec('AST-C', 500, { status: 'Active', location: 'Lisbon' }),
    rec('AST-A', 1200, { status: 'Suspended', location: 'Rotterdam' }),
    rec('AST-D', null, { status: 'Pending', location: 'Rotterdam' }),
    rec('AST-B', 900, { status: 'Active', location: 'Porto' }),
  ];
  const view = (over: { search?: string; status?: CustomerUsageStatusFilter; sort?: CustomerUsageSort | null } = {}) => ({
    search: '',
    status: 'all' as CustomerUsageStatusFilter,
    sort: null,
    ...over,
  });
  const order = (over: Parameters<typeof view>[0]) => visibleUsageRecords(records, view(over)).map((r) => r.serviceLineNumber);

  it('without filter, search or sort, shows every row in the order received', () => {
    expect(order({})).toEqual(['AST-C', 'AST-A', 'AST-D', 'AST-B']);
  });

  it('filters by status, and searches within the filter', () => {
    expect(order({ status: 'Active' })).toEqual(['AST-C', 'AST-B']);
    expect(order({ status: 'Maintenance' })).toEqual([]);
    expect(order({ search: 'rotterdam' })).toEqual(['AST-A', 'AST-D']);
    expect(order({ search: 'rotterdam', status: 'Pending' })).toEqual(['AST-D']);
  });

  it.each([
    ['serviceLine', ['AST-A', 'AST-B', 'AST-C', 'AST-D']],
    // A record without usage stored counts below any usage.
    ['usage', ['AST-D', 'AST-C', 'AST-B', 'AST-A']],
    // Remaining: D has no allowance (0), A is exceeded (0); ties by service line.
    ['remaining', ['AST-A', 'AST-D', 'AST-B', 'AST-C']],
    ['overage', ['AST-B', 'AST-C', 'AST-D', 'AST-A']],
  ] as const)('sorts by %s ascending', (field, ascending) => {
    expect(order({ sort: { field, order: 1 } })).toEqual(ascending);
  });

  it.each([
    ['serviceLine', ['AST-D', 'AST-C', 'AST-B', 'AST-A']],
    ['usage', ['AST-A', 'AST-B', 'AST-C', 'AST-D']],
    ['remaining', ['AST-C', 'AST-B', 'AST-A', 'AST-D']],
    ['overage', ['AST-A', 'AST-B', 'AST-C', 'AST-D']],
  ] as const)('sorts by %s descending, ties still by service line ascending', (field, descending) => {
    expect(order({ sort: { field, order: -1 } })).toEqual(descending);
  });

  it('breaks ties by service line whatever order the rows arrive in', () => {
    const tied = [rec('AST-Z', 400), rec('AST-M', 400), rec('AST-B', 400)];
    for (const sortOrder of [1, -1] as const) {
      expect(visibleUsageRecords(tied, view({ sort: { field: 'usage', order: sortOrder } })).map((r) => r.serviceLineNumber)).toEqual([
        'AST-B',
        'AST-M',
        'AST-Z',
      ]);
    }
  });

  it('leaves the loaded records as they were', () => {
    const before = records.map((r) => r.serviceLineNumber);
    visibleUsageRecords(records, view({ sort: { field: 'usage', order: -1 } }));
    expect(records.map((r) => r.serviceLineNumber)).toEqual(before);
  });
});
