// The ledger's rules as pure functions: a payment pays the chosen statements, else the oldest
// first, and keeps the rest as credit; ageing buckets by days past the due date; a statement is
// due its terms after it closes; dunning takes the furthest step that has fallen due, once, and a
// promise to pay holds every step until its day; a policy's days must come in order.
import { describe, expect, it } from 'vitest';
import { addDays, ageOf, allocate, bucketOf, daysOverdue, DEFAULT_DUNNING_POLICY, dueDateOf, LEDGER_MESSAGES, policyProblem, stepDue, type OpenItem } from '../../src/domain/ledger';

const open: OpenItem[] = [
  { statementId: 'march', dueOn: '2026-04-30', number: 'ST-2026-03-000002', openMinor: 12_000 },
  { statementId: 'feb', dueOn: '2026-03-31', number: 'ST-2026-02-000001', openMinor: 10_000 },
  { statementId: 'feb-b', dueOn: '2026-03-31', number: 'ST-2026-02-000003', openMinor: 500 },
];

describe('allocate', () => {
  it('pays the oldest first (by due date, then number), each at most what is open, and keeps the rest as credit', () => {
    expect(allocate(10_200, open)).toEqual({
      allocations: [
        { statementId: 'feb', amountMinor: 10_000 },
        { statementId: 'feb-b', amountMinor: 200 },
      ],
      creditMinor: 0,
    });
    expect(allocate(30_000, open).creditMinor).toBe(7_500);
  });

  it('pays only the statements chosen, keeping the rest as credit rather than paying others', () => {
    expect(allocate(15_000, open, ['march'])).toEqual({ allocations: [{ statementId: 'march', amountMinor: 12_000 }], creditMinor: 3_000 });
    expect(allocate(100, [], null)).toEqual({ allocations: [], creditMinor: 100 });
  });
});

describe('due dates and ageing', () => {
  it('makes a statement due its terms after it closes, and counts overdue days from the day after', () => {
    expect(dueDateOf('2026-03-01', 30)).toBe('2026-03-31');
    expect(dueDateOf('2026-12-15', 30)).toBe('2027-01-14');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(daysOverdue('2026-03-31', '2026-03-31')).toBe(0);
    expect(daysOverdue('2026-03-31', '2026-04-01')).toBe(1);
  });

  it('buckets by days past due: current, 1–30, 31–60, 61–90, 90+', () => {
    expect([0, 1, 30, 31, 60, 61, 90, 91, -5].map(bucketOf)).toEqual(['current', 'days1to30', 'days1to30', 'days31to60', 'days31to60', 'days61to90', 'days61to90', 'days90plus', 'current']);
    expect(ageOf(open, '2026-05-15')).toEqual({ current: 0, days1to30: 12_000, days31to60: 10_500, days61to90: 0, days90plus: 0 });
  });
});

describe('dunning', () => {
  const policy = DEFAULT_DUNNING_POLICY;
  it('takes the furthest step that has fallen due, once, and never goes back', () => {
    expect(stepDue(policy, 6, [], null, '2026-05-01')).toBeNull();
    expect(stepDue(policy, 7, [], null, '2026-05-01')).toBe('reminder_1');
    expect(stepDue(policy, 8, ['reminder_1'], null, '2026-05-01')).toBeNull();
    expect(stepDue(policy, 21, ['reminder_1'], null, '2026-05-01')).toBe('final_notice');
    // Found 40 days overdue: the block, not three letters at once.
    expect(stepDue(policy, 40, [], null, '2026-05-01')).toBe('block');
    expect(stepDue(policy, 90, ['block'], null, '2026-05-01')).toBeNull();
    expect(stepDue({ ...policy, enabled: false }, 40, [], null, '2026-05-01')).toBeNull();
    expect(stepDue({ ...policy, blockDays: null }, 40, ['final_notice'], null, '2026-05-01')).toBeNull();
  });

  it('holds every step while a promise to pay runs, through its last day', () => {
    expect(stepDue(policy, 40, [], '2026-05-01', '2026-05-01')).toBeNull();
    expect(stepDue(policy, 40, [], '2026-04-30', '2026-05-01')).toBe('block');
  });

  it('wants the policy days in order: reminders, then the final notice, then the block', () => {
    expect(policyProblem(policy)).toBeNull();
    expect(policyProblem({ ...policy, reminderDays: [7, 14, 28] })).toBe(LEDGER_MESSAGES.policyOrder);
    expect(policyProblem({ ...policy, reminderDays: [7, 7] })).toBe(LEDGER_MESSAGES.policyOrder);
    expect(policyProblem({ ...policy, finalNoticeDays: null, blockDays: 10 })).toBeNull();
  });
});
