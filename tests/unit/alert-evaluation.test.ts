// The alert rules' decisions, without a database: the usage boundaries (79.9 / 80 / 100 %),
// one alert for the highest level passed at once, the roll-over of a cycle, a line moving to
// another customer, a terminal's outage and its return, overrides, expiring accounts and failing
// syncs.
import { describe, expect, it } from 'vitest';
import { ALERT_RESOLVED_REASONS as R, parseUsageLevels, usageLevelReached, usageLevelsProblem, thresholdProblem, type AlertKind } from '../../src/domain/alerts';
import type { LineFacts, UnresolvedAlert } from '../../server/db/repositories/alerts';
import type { AlertOverrideRow, AlertRuleRow } from '../../server/db/schema';
import { decideExpiring, decideLine, decideSync, effectiveRules } from '../../server/services/alert-evaluation';

const TODAY = '2026-11-15';
const CUSTOMER = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

const rule = (kind: AlertKind, over: Partial<AlertRuleRow> = {}): AlertRuleRow => ({
  kind,
  enabled: true,
  usageLevels: kind === 'usage' ? [80, 90, 100] : null,
  threshold: kind === 'overage_forecast' ? 50 : kind === 'offline' ? 60 : kind === 'account_expiring' ? 14 : null,
  notifyCustomer: false,
  actions: [],
  actionsBy: null,
  updatedAt: new Date(0),
  updatedBy: null,
  ...over,
});
const RULES = new Map<AlertKind, AlertRuleRow>((['usage', 'overage_forecast', 'offline', 'sync_failed', 'account_expiring'] as const).map((k) => [k, rule(k)]));
/** Usage only: the overage forecast and outages kept out of the way unless a test wants them. */
const USAGE_ONLY = new Map(RULES);
USAGE_ONLY.set('overage_forecast', rule('overage_forecast', { enabled: false }));
USAGE_ONLY.set('offline', rule('offline', { enabled: false }));

const facts = (over: Partial<LineFacts> = {}): LineFacts => ({
  serviceLineNumber: 'SL-1',
  live: true,
  customerId: CUSTOMER,
  cycleStart: '2026-11-01',
  cycleEnd: '2026-11-30',
  usedGB: 10,
  capGB: 100,
  currency: 'USD',
  terminals: [],
  ...over,
});
const unresolved = (over: Partial<UnresolvedAlert> & Pick<UnresolvedAlert, 'kind'>): UnresolvedAlert => ({
  id: `a-${Math.random().toString(36).slice(2)}`,
  level: 0,
  targetKey: 'SL-1',
  periodKey: '2026-11-01',
  customerId: CUSTOMER,
  serviceLineNumber: 'SL-1',
  userTerminalId: null,
  ...over,
});
const decide = (f: LineFacts, open: UnresolvedAlert[] = [], rules = USAGE_ONLY, overrides: AlertOverrideRow[] = []) =>
  decideLine(f, effectiveRules(rules, overrides, f.serviceLineNumber, f.customerId), open, TODAY);

describe('usage levels', () => {
  it('opens nothing at 79.9 % and one 80 % warning at exactly 80 %', () => {
    expect(decide(facts({ usedGB: 79.9 })).open).toEqual([]);
    const at80 = decide(facts({ usedGB: 80 })).open;
    expect(at80).toHaveLength(1);
    expect(at80[0]).toMatchObject({ kind: 'usage', level: 80, severity: 'warning', targetKey: 'SL-1', periodKey: '2026-11-01', customerId: CUSTOMER });
    expect(at80[0]!.figures).toMatchObject({ usedGB: 80, capGB: 100, percent: 80, cycleEnd: '2026-11-30' });
  });

  it('is critical at 100 % and compares the figures, not a rounded percent', () => {
    expect(usageLevelReached(99.96, 100, [80, 90, 100])).toBe(90);
    const full = decide(facts({ usedGB: 100 })).open;
    expect(full).toEqual([expect.objectContaining({ level: 100, severity: 'critical' })]);
  });

  it('opens only the highest level passed in one step', () => {
    const open = decide(facts({ usedGB: 95 })).open;
    expect(open.map((a) => a.level)).toEqual([90]);
  });

  it('resolves an alert of a cycle that has ended, and opens the new cycle afresh', () => {
    const old = unresolved({ kind: 'usage', level: 80, periodKey: '2026-10-01' });
    const d = decide(facts({ cycleStart: '2026-11-01', usedGB: 85 }), [old]);
    expect(d.resolve).toEqual([{ id: old.id, reason: R.cycleEnded }]);
    expect(d.open).toEqual([expect.objectContaining({ level: 80, periodKey: '2026-11-01' })]);
  });

  it('resolves as cleared when the cap grew under the level, and keeps an alert whose level still holds', () => {
    const at90 = unresolved({ kind: 'usage', level: 90 });
    expect(decide(facts({ usedGB: 92, capGB: 200 }), [at90]).resolve).toEqual([{ id: at90.id, reason: R.cleared }]);
    expect(decide(facts({ usedGB: 92 }), [at90]).resolve).toEqual([]);
  });

  it("resolves the old customer's alert when the line moves and raises one for the new customer", () => {
    const theirs = unresolved({ kind: 'usage', level: 80, customerId: OTHER });
    const d = decide(facts({ usedGB: 85, customerId: CUSTOMER }), [theirs]);
    expect(d.resolve).toEqual([{ id: theirs.id, reason: R.moved }]);
    expect(d.open).toEqual([expect.objectContaining({ level: 80, customerId: CUSTOMER })]);
  });

  it('resolves everything of a line that left the inventory', () => {
    const a = unresolved({ kind: 'usage', level: 80 });
    expect(decide(facts({ live: false, usedGB: 90 }), [a])).toEqual({ open: [], resolve: [{ id: a.id, reason: R.removed }] });
  });

  it("takes the line's override over the customer's, and the customer's over the rule", () => {
    const overrides: AlertOverrideRow[] = [
      { kind: 'usage', scope: 'customer', scopeKey: CUSTOMER, enabled: true, usageLevels: [50], threshold: null, updatedAt: new Date(0), updatedBy: null, actions: null },
      { kind: 'usage', scope: 'line', scopeKey: 'SL-1', enabled: true, usageLevels: [70], threshold: null, updatedAt: new Date(0), updatedBy: null, actions: null },
    ];
    expect(decide(facts({ usedGB: 60 }), [], USAGE_ONLY, overrides).open).toEqual([]);
    expect(decide(facts({ usedGB: 72 }), [], USAGE_ONLY, overrides).open).toEqual([expect.objectContaining({ level: 70 })]);
    expect(decide(facts({ usedGB: 60 }), [], USAGE_ONLY, overrides.slice(0, 1)).open).toEqual([expect.objectContaining({ level: 50 })]);
  });

  it("takes the line's own actions over the customer's, the customer's over the rule's; null inherits", () => {
    const act = (level: number) => [{ level, action: 'opt_out' as const, mode: 'act' as const, productReferenceId: null }];
    const rules = new Map(USAGE_ONLY);
    rules.set('usage', rule('usage', { actions: act(80) }));
    const customer: AlertOverrideRow = { kind: 'usage', scope: 'customer', scopeKey: CUSTOMER, enabled: true, usageLevels: null, threshold: null, updatedAt: new Date(0), updatedBy: null, actions: act(90) };
    const line: AlertOverrideRow = { kind: 'usage', scope: 'line', scopeKey: 'SL-1', enabled: true, usageLevels: null, threshold: null, updatedAt: new Date(0), updatedBy: null, actions: [] };
    expect(effectiveRules(rules, [], 'SL-1', CUSTOMER)('usage').actions).toEqual(act(80));
    expect(effectiveRules(rules, [customer], 'SL-1', CUSTOMER)('usage').actions).toEqual(act(90));
    // A line's empty list is its own choice (notify only), not "inherit".
    expect(effectiveRules(rules, [customer, line], 'SL-1', CUSTOMER)('usage').actions).toEqual([]);
    expect(effectiveRules(rules, [customer, { ...line, actions: null }], 'SL-1', CUSTOMER)('usage').actions).toEqual(act(90));
  });

  it('an override cannot turn on a rule turned off for everyone, and a rule turned off resolves its alerts', () => {
    const off = new Map(USAGE_ONLY);
    off.set('usage', rule('usage', { enabled: false }));
    const a = unresolved({ kind: 'usage', level: 80 });
    const overrides: AlertOverrideRow[] = [{ kind: 'usage', scope: 'line', scopeKey: 'SL-1', enabled: true, usageLevels: [10], threshold: null, updatedAt: new Date(0), updatedBy: null, actions: null }];
    expect(decide(facts({ usedGB: 99 }), [a], off, overrides)).toEqual({ open: [], resolve: [{ id: a.id, reason: R.ruleOff }] });
  });
});

describe('projected overage', () => {
  const rules = new Map(RULES);
  rules.set('usage', rule('usage', { enabled: false }));
  rules.set('offline', rule('offline', { enabled: false }));

  it('opens when the projected charge is above the amount, with the forecast in its figures', () => {
    // 15 of 30 days, 60 GB used of 100: 120 GB projected, 20 GB over at 5 a GB = 100 > 50.
    const d = decideLine(facts({ usedGB: 60 }), effectiveRules(rules, [], 'SL-1', CUSTOMER), [], TODAY);
    expect(d.open).toEqual([expect.objectContaining({ kind: 'overage_forecast', figures: expect.objectContaining({ projectedUsedGB: 120, projectedOverageGB: 20, projectedCharge: 100 }) })]);
  });

  it('opens nothing at or under the amount, and resolves one open when it falls back', () => {
    // 55 GB by day 15 of 30: 110 projected, 10 over, 50 — not above 50.
    const a = unresolved({ kind: 'overage_forecast' });
    const d = decideLine(facts({ usedGB: 55 }), effectiveRules(rules, [], 'SL-1', CUSTOMER), [a], TODAY);
    expect(d).toEqual({ open: [], resolve: [{ id: a.id, reason: R.cleared }] });
  });
});

describe('terminals offline', () => {
  const rules = new Map(RULES);
  rules.set('usage', rule('usage', { enabled: false }));
  rules.set('overage_forecast', rule('overage_forecast', { enabled: false }));
  const readAt = new Date('2026-11-15T12:00:00Z');
  const terminal = (minutesAgo: number) => ({ userTerminalId: 'UT-1', reportedAt: new Date(readAt.getTime() - minutesAgo * 60_000), syncedAt: readAt });
  const run = (f: LineFacts, open: UnresolvedAlert[] = []) => decideLine(f, effectiveRules(rules, [], f.serviceLineNumber, f.customerId), open, TODAY);

  it('opens at the threshold, as of the last reading, one alert per outage', () => {
    expect(run(facts({ terminals: [terminal(59)] })).open).toEqual([]);
    const d = run(facts({ terminals: [terminal(60)] }));
    expect(d.open).toEqual([expect.objectContaining({ kind: 'offline', targetType: 'terminal', targetKey: 'UT-1', userTerminalId: 'UT-1', periodKey: terminal(60).reportedAt.toISOString() })]);
    expect(d.open[0]!.figures.offlineMinutes).toBe(60);
  });

  it('resolves when the terminal reports again, and a later outage is a new alert', () => {
    const outage = unresolved({ kind: 'offline', targetKey: 'UT-1', userTerminalId: 'UT-1', periodKey: terminal(120).reportedAt.toISOString() });
    expect(run(facts({ terminals: [terminal(0)] }), [outage]).resolve).toEqual([{ id: outage.id, reason: R.online }]);
    const again = run(facts({ terminals: [terminal(70)] }), [outage]);
    expect(again.resolve).toEqual([{ id: outage.id, reason: R.online }]);
    expect(again.open).toHaveLength(1);
  });
});

describe('accounts expiring', () => {
  const now = new Date('2026-11-15T12:00:00Z');
  const customer = (days: number) => ({ id: CUSTOMER, name: 'Ana', company: 'Acme', expiresAt: new Date(now.getTime() + days * 86_400_000) });

  it('opens within the days and not beyond; a customer override moves the line', () => {
    expect(decideExpiring([customer(15)], { enabled: true, threshold: 14 }, new Map(), [], now).open).toEqual([]);
    expect(decideExpiring([customer(14)], { enabled: true, threshold: 14 }, new Map(), [], now).open).toEqual([
      expect.objectContaining({ kind: 'account_expiring', targetKey: CUSTOMER, customerId: CUSTOMER, figures: expect.objectContaining({ daysLeft: 14 }) }),
    ]);
    expect(decideExpiring([customer(20)], { enabled: true, threshold: 14 }, new Map([[CUSTOMER, { enabled: true, threshold: 30 }]]), [], now).open).toHaveLength(1);
  });

  it('resolves when the account was extended past the days', () => {
    const a = unresolved({ kind: 'account_expiring', targetKey: CUSTOMER, periodKey: '2026-11-29' });
    expect(decideExpiring([], { enabled: true, threshold: 14 }, new Map(), [a], now).resolve).toEqual([{ id: a.id, reason: R.extended }]);
  });
});

describe('failed syncs', () => {
  it('opens one alert per failing streak, named by its first failed run, and resolves on success', () => {
    const failing = [
      { id: 'r3', status: 'failed', message: 'Provider unavailable' },
      { id: 'r2', status: 'failed', message: 'Provider unavailable' },
      { id: 'r1', status: 'succeeded', message: null },
    ];
    const d = decideSync('inventory', failing, true, []);
    expect(d.open).toEqual([expect.objectContaining({ kind: 'sync_failed', targetKey: 'inventory', periodKey: 'r2', severity: 'critical' })]);
    const a = unresolved({ kind: 'sync_failed', targetKey: 'inventory', periodKey: 'r2', customerId: null });
    expect(decideSync('inventory', [{ id: 'r4', status: 'succeeded', message: null }, ...failing], true, [a]).resolve).toEqual([{ id: a.id, reason: R.syncSucceeded }]);
    expect(decideSync('usage', failing, true, [a]).resolve).toEqual([]);
  });
});

describe('rule settings', () => {
  it('parses and checks usage levels', () => {
    expect(parseUsageLevels('90, 80;100%')).toEqual([80, 90, 100]);
    expect(parseUsageLevels('80, x')).toBeNull();
    expect(usageLevelsProblem([])).toMatch(/at least one/);
    expect(usageLevelsProblem([80, 80])).toMatch(/twice/);
    expect(usageLevelsProblem([0])).toMatch(/whole percent/);
    expect(usageLevelsProblem([80, 90, 100])).toBeNull();
  });

  it('checks thresholds against their bounds', () => {
    expect(thresholdProblem('offline', 4)).toMatch(/from 5/);
    expect(thresholdProblem('offline', 30.5)).toMatch(/whole/);
    expect(thresholdProblem('overage_forecast', 12.5)).toBeNull();
    expect(thresholdProblem('account_expiring', null)).toMatch(/Enter a threshold/);
  });
});
