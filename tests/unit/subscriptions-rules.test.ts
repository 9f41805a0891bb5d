import { describe, expect, it } from 'vitest';
import { forecastCycle, overageCharge, overageGB, planLabel, remainingGB } from '../../src/domain/subscriptions';

describe('planLabel', () => {
  it.each([
    [50, '50 GB'],
    [1000, '1 TB'],
    [2000, '2 TB'],
    [1500, '1500 GB'],
    [12.34, '12.3 GB'],
  ])('%s GB reads "%s"', (gb, label) => {
    expect(planLabel(gb)).toBe(label);
  });
});

describe('overage and remaining data', () => {
  it('counts only the GB beyond the plan, to one decimal', () => {
    expect(overageGB(57.3, 50)).toBe(7.3);
    expect(overageGB(42, 50)).toBe(0);
    expect(overageGB(50, 50)).toBe(0);
  });

  it('a 1 TB plan counts as 1,000 GB', () => {
    expect(overageGB(1012.5, 1000)).toBe(12.5);
    expect(remainingGB(750, 1000)).toBe(250);
  });

  it('remaining is what is left of the plan and never negative', () => {
    expect(remainingGB(12.34, 50)).toBe(37.7);
    expect(remainingGB(57.3, 50)).toBe(0);
  });

  it('spec 9: 7.3 GB of overage is charged 36.5, to the cent', () => {
    expect(overageCharge(7.3)).toBe(36.5);
    expect(overageCharge(0)).toBe(0);
    expect(overageCharge(1.11, 3)).toBe(3.33);
  });
});

describe('forecastCycle', () => {
  const november = { startDate: '2026-11-01', endDate: '2026-11-30' };

  it('mid-cycle projects the daily rate so far over the whole cycle', () => {
    // 10 days in, 20 GB used: 2 GB a day over 30 days is 60 GB, 10 GB over a 50 GB plan.
    expect(forecastCycle(20, 50, november, '2026-11-10')).toEqual({ projectedUsedGB: 60, projectedOverageGB: 10, projectedCharges: 50 });
  });

  it('on the first day the day counts whole', () => {
    expect(forecastCycle(1.5, 50, november, '2026-11-01')).toEqual({ projectedUsedGB: 45, projectedOverageGB: 0, projectedCharges: 0 });
  });

  it('on the last day the projection is the use so far', () => {
    expect(forecastCycle(57.3, 50, november, '2026-11-30')).toEqual({ projectedUsedGB: 57.3, projectedOverageGB: 7.3, projectedCharges: 36.5 });
  });

  it('is null when today is outside the cycle', () => {
    expect(forecastCycle(20, 50, november, '2026-10-31')).toBeNull();
    expect(forecastCycle(20, 50, november, '2026-12-01')).toBeNull();
  });

  it('is null without a cycle', () => {
    expect(forecastCycle(20, 50, null, '2026-11-10')).toBeNull();
  });
});
