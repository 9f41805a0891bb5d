// The customer area's pure rules: the reboot pace, the alerts computed from the data,
// the months offered, the name rule, and which area a path belongs to.
import { describe, expect, it } from 'vitest';
import { hardwareAlerts, rebootWaitMinutes, selectableMonths, terminalNameProblem, MY_AREA_MESSAGES as M, type MyTerminalWire } from '../../src/domain/my-area';
import { signedInTarget } from '../../src/domain/login';
import { documentTitle, isMyAreaPath } from '../../src/domain/navigation';

const at = new Date('2026-03-18T10:30:00.000Z');
const minutesAgo = (m: number) => new Date(at.getTime() - m * 60_000);

describe('rebootWaitMinutes', () => {
  it('allows a reboot when the terminal has none in 10 minutes and the customer fewer than 10 in the hour', () => {
    expect(rebootWaitMinutes({ terminalLast: minutesAgo(10), customerLastHour: Array.from({ length: 9 }, (_, i) => minutesAgo(i + 1)), at })).toEqual({ minutes: 0, reason: null });
  });

  it('holds a terminal back until 10 minutes after its last reboot, rounding up', () => {
    expect(rebootWaitMinutes({ terminalLast: new Date(at.getTime() - 4.5 * 60_000), customerLastHour: [], at })).toEqual({ minutes: 6, reason: 'terminal' });
  });

  it('holds a customer back until the oldest of 10 reboots in the hour is an hour old', () => {
    const ten = Array.from({ length: 10 }, (_, i) => minutesAgo(50 - i * 5));
    expect(rebootWaitMinutes({ terminalLast: null, customerLastHour: ten, at })).toEqual({ minutes: 10, reason: 'customer' });
    // Reboots older than an hour do not count.
    expect(rebootWaitMinutes({ terminalLast: null, customerLastHour: [...ten.slice(1), minutesAgo(61)], at })).toEqual({ minutes: 0, reason: null });
  });
});

const terminal = (over: Partial<MyTerminalWire>): MyTerminalWire => ({
  terminalId: 'UT1',
  nickname: 'Barn',
  serviceLineNumber: 'SL-1',
  kitSerialNumber: 'KIT1',
  dishSerialNumber: null,
  status: 'Active',
  lineEndDate: null,
  online: true,
  signalQuality: 90,
  uptimeSeconds: 100,
  telemetryAt: minutesAgo(0.5).toISOString(),
  alerts: [],
  planName: 'Local Priority 50 GB',
  usage: { usedGB: 10, planGB: 50, remainingGB: 40, overageGB: 0, percentage: 20 },
  billingCycle: null,
  ...over,
});

describe('hardwareAlerts', () => {
  it('raises nothing for a healthy terminal, even one over its plan (usage is a stored alert now)', () => {
    expect(hardwareAlerts([terminal({}), terminal({ terminalId: 'UT2', usage: { usedGB: 55, planGB: 50, remainingGB: 0, overageGB: 5, percentage: 110 } })])).toEqual([]);
  });

  it("raises a terminal's hardware alerts and leaves its other flags out", () => {
    const alerts = hardwareAlerts([terminal({ terminalId: 'UT3', online: false, telemetryAt: minutesAgo(2).toISOString(), alerts: ['alertThermalShutdown', 'alertRoaming'] })]);
    expect(alerts.map((a) => `${a.kind}:${a.terminalId}:${a.severity}`)).toEqual(['hardware:UT3:critical']);
    expect(alerts[0]!.message).toBe(M.alertHardware('Barn', ['thermal shutdown']));
  });
});

describe('the months, the name and the areas', () => {
  it('offers the current month and the 11 before it, newest first', () => {
    const months = selectableMonths(at);
    expect(months).toHaveLength(12);
    expect([months[0], months[2], months[11]]).toEqual(['2026-03', '2026-01', '2025-04']);
  });

  it.each([
    ['', M.nameRequired],
    [' '.repeat(3), M.nameRequired],
    ['x'.repeat(101), M.nameTooLong],
    ['tab\there', M.nameControl],
    [`  ${'x'.repeat(100)}  `, null],
  ])('judges the name %j', (name, problem) => {
    expect(terminalNameProblem(name)).toBe(problem);
  });

  it('sends each account to its own area after sign-in, whatever was remembered', () => {
    expect(signedInTarget('customer', '/my/terminals/UT1?month=2026-02')).toBe('/my/terminals/UT1?month=2026-02');
    expect(signedInTarget('customer', '/customers')).toBe('/my');
    expect(signedInTarget('customer', 'https://evil.example/my')).toBe('/my');
    expect(signedInTarget('admin', '/my/terminals')).toBe('/home');
    expect(signedInTarget('admin', '/customers?page=2')).toBe('/customers?page=2');
    expect(signedInTarget('admin', undefined)).toBe('/home');
    expect(isMyAreaPath('/myself')).toBe(false);
  });

  it("titles the customer area's pages for the Customer Portal", () => {
    expect(documentTitle('/my/terminals/UT1')).toBe('Terminal · Customer Portal');
    expect(documentTitle('/requests')).toBe('Customer Requests · Admin Portal');
  });
});
