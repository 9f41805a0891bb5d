// The alert evaluation: what each rule decides about the lines whose figures changed,
// the customers whose accounts are about to expire and the syncs that failed. The deciding is
// pure (decideLine, decideExpiring, decideSync: figures in, alerts to open and to resolve out), so
// rule boundaries are tested without a database; the run around it reads and writes in bulk.
import {
  ALERT_RESOLVED_REASONS as R,
  SEVERITY_OF,
  alertMessage,
  usageLevelReached,
  usageSeverity,
  type AlertFigures,
  type AlertKind,
} from '../../src/domain/alerts';
import { DEFAULT_CURRENCY, OVERAGE_RATE_PER_GB, forecastCycle } from '../../src/domain/subscriptions';
import type { EffectiveRule, LineFacts, NewAlert, UnresolvedAlert } from '../db/repositories/alerts';
import type { AlertOverrideRow, AlertRuleRow } from '../db/schema';

const DAY_MS = 86_400_000;
const round1 = (n: number) => Math.round(n * 10) / 10;

export interface Decision {
  open: NewAlert[];
  resolve: { id: string; reason: string }[];
}

const none = (): Decision => ({ open: [], resolve: [] });

/** The rules with the overrides of one line and its customer applied: the line's win over the customer's. */
export function effectiveRules(
  rules: ReadonlyMap<AlertKind, AlertRuleRow>,
  overrides: readonly AlertOverrideRow[],
  line: string,
  customerId: string | null,
): (kind: AlertKind) => EffectiveRule {
  const lineOf = new Map<string, AlertOverrideRow>();
  const customerOf = new Map<string, AlertOverrideRow>();
  for (const o of overrides) {
    if (o.scope === 'line' && o.scopeKey === line) lineOf.set(o.kind, o);
    if (o.scope === 'customer' && customerId !== null && o.scopeKey === customerId) customerOf.set(o.kind, o);
  }
  return (kind) => {
    const rule = rules.get(kind);
    const own = lineOf.get(kind);
    const customer = customerOf.get(kind);
    return {
      // A rule turned off for everyone stays off; an override only narrows or tunes it.
      enabled: (rule?.enabled ?? false) && (own?.enabled ?? customer?.enabled ?? true),
      usageLevels: own?.usageLevels ?? customer?.usageLevels ?? rule?.usageLevels ?? null,
      threshold: own?.threshold ?? customer?.threshold ?? rule?.threshold ?? null,
      actions: own?.actions ?? customer?.actions ?? rule?.actions ?? [],
    };
  };
}

/**
 * One line: its usage level this cycle, its projected overage, its terminals' outages. `open`
 * names the alerts that should exist (the unique index drops those already raised this period);
 * `resolve` the unresolved ones whose condition no longer holds. Usage levels passed in one step
 * open only the highest (a line found at 95 % is warned at 90, not at 80 and 90).
 */
export function decideLine(facts: LineFacts, rule: (kind: AlertKind) => EffectiveRule, unresolved: readonly UnresolvedAlert[], today: string): Decision {
  const decision = none();
  const line = facts.serviceLineNumber;
  const resolveAll = (list: readonly UnresolvedAlert[], reason: string) => list.forEach((a) => decision.resolve.push({ id: a.id, reason }));

  if (!facts.live) {
    resolveAll(unresolved, R.removed);
    return decision;
  }
  // An alert raised for a customer who no longer holds the line is theirs no more.
  const moved = unresolved.filter((a) => a.customerId !== facts.customerId);
  resolveAll(moved, R.moved);
  const current = unresolved.filter((a) => a.customerId === facts.customerId);
  const base = { serviceLineNumber: line, customerId: facts.customerId };
  const cycle = facts.cycleStart !== null && facts.cycleEnd !== null ? { startDate: facts.cycleStart, endDate: facts.cycleEnd } : null;
  const used = facts.usedGB;
  const cap = facts.capGB;
  const cycleFigures = cycle ? { cycleStart: cycle.startDate, cycleEnd: cycle.endDate } : {};

  // ---- Usage levels
  const usage = rule('usage');
  const usageAlerts = current.filter((a) => a.kind === 'usage');
  const reached = usage.enabled && cycle && used !== null && cap !== null ? usageLevelReached(used, cap, usage.usageLevels ?? []) : null;
  if (!usage.enabled) resolveAll(usageAlerts, R.ruleOff);
  else {
    for (const a of usageAlerts) {
      if (!cycle || a.periodKey !== cycle.startDate) decision.resolve.push({ id: a.id, reason: R.cycleEnded });
      else if (reached === null || a.level > reached) decision.resolve.push({ id: a.id, reason: R.cleared });
      // Lower levels of this cycle give way once the higher one is raised (supersede, after insert).
    }
    if (reached !== null && cycle && used !== null && cap !== null) {
      const figures: AlertFigures = { usedGB: round1(used), capGB: round1(cap), percent: Math.floor((used / cap) * 1000) / 10, threshold: reached, ...cycleFigures };
      decision.open.push({
        ...base,
        kind: 'usage',
        level: reached,
        severity: usageSeverity(reached),
        targetType: 'line',
        targetKey: line,
        periodKey: cycle.startDate,
        userTerminalId: null,
        message: alertMessage('usage', line, figures),
        figures,
      });
    }
  }

  // ---- Projected overage
  const overage = rule('overage_forecast');
  const overageAlerts = current.filter((a) => a.kind === 'overage_forecast');
  if (!overage.enabled) resolveAll(overageAlerts, R.ruleOff);
  else {
    const forecast = cycle && used !== null && cap !== null && cap > 0 ? forecastCycle(used, cap, cycle, today, OVERAGE_RATE_PER_GB) : null;
    const over = forecast !== null && forecast.projectedCharges > (overage.threshold ?? 0);
    for (const a of overageAlerts) {
      if (!cycle || a.periodKey !== cycle.startDate) decision.resolve.push({ id: a.id, reason: R.cycleEnded });
      else if (!over) decision.resolve.push({ id: a.id, reason: R.cleared });
    }
    if (over && forecast && cycle) {
      const figures: AlertFigures = {
        usedGB: round1(used ?? 0),
        capGB: round1(cap ?? 0),
        projectedUsedGB: forecast.projectedUsedGB,
        projectedOverageGB: forecast.projectedOverageGB,
        projectedCharge: forecast.projectedCharges,
        currency: facts.currency ?? DEFAULT_CURRENCY,
        threshold: overage.threshold ?? 0,
        ...cycleFigures,
      };
      decision.open.push({
        ...base,
        kind: 'overage_forecast',
        level: 0,
        severity: SEVERITY_OF.overage_forecast,
        targetType: 'line',
        targetKey: line,
        periodKey: cycle.startDate,
        userTerminalId: null,
        message: alertMessage('overage_forecast', line, figures),
        figures,
      });
    }
  }

  // ---- Terminals offline, as of the last reading (the report's age when the sync read it)
  const offline = rule('offline');
  const offlineAlerts = current.filter((a) => a.kind === 'offline');
  if (!offline.enabled) resolveAll(offlineAlerts, R.ruleOff);
  else {
    const minutes = offline.threshold ?? Number.POSITIVE_INFINITY;
    const outages = new Map<string, { periodKey: string; minutesOff: number; lastReportAt: string }>();
    for (const t of facts.terminals) {
      if (!t.reportedAt || !t.syncedAt) continue;
      const minutesOff = Math.floor((t.syncedAt.getTime() - t.reportedAt.getTime()) / 60_000);
      if (minutesOff >= minutes) outages.set(t.userTerminalId, { periodKey: t.reportedAt.toISOString(), minutesOff, lastReportAt: t.reportedAt.toISOString() });
    }
    const onLine = new Set(facts.terminals.map((t) => t.userTerminalId));
    for (const a of offlineAlerts) {
      const outage = a.userTerminalId ? outages.get(a.userTerminalId) : undefined;
      if (!a.userTerminalId || !onLine.has(a.userTerminalId)) decision.resolve.push({ id: a.id, reason: R.removed });
      else if (!outage) {
        const t = facts.terminals.find((x) => x.userTerminalId === a.userTerminalId);
        // Reported since the outage began: back online. Same report, threshold raised: cleared.
        decision.resolve.push({ id: a.id, reason: t?.reportedAt && t.reportedAt.toISOString() !== a.periodKey ? R.online : R.cleared });
      } else if (outage.periodKey !== a.periodKey) decision.resolve.push({ id: a.id, reason: R.online });
    }
    for (const [terminal, outage] of outages) {
      const figures: AlertFigures = { offlineMinutes: outage.minutesOff, lastReportAt: outage.lastReportAt, threshold: minutes };
      decision.open.push({
        ...base,
        kind: 'offline',
        level: 0,
        severity: SEVERITY_OF.offline,
        targetType: 'terminal',
        targetKey: terminal,
        periodKey: outage.periodKey,
        userTerminalId: terminal,
        message: alertMessage('offline', terminal, figures),
        figures,
      });
    }
  }
  return decision;
}

/** Customers whose account expires within their rule's days (the caller read those within the widest). */
export function decideExpiring(
  expiring: readonly { id: string; name: string; company: string; expiresAt: Date }[],
  rule: { enabled: boolean; threshold: number | null },
  overrides: ReadonlyMap<string, { enabled: boolean; threshold: number | null }>,
  unresolved: readonly UnresolvedAlert[],
  now: Date,
): Decision {
  const decision = none();
  const due = new Map<string, NewAlert>();
  if (rule.enabled) {
    for (const c of expiring) {
      const own = overrides.get(c.id);
      if (own && !own.enabled) continue;
      const days = own?.threshold ?? rule.threshold ?? 0;
      const daysLeft = Math.ceil((c.expiresAt.getTime() - now.getTime()) / DAY_MS);
      if (daysLeft > days) continue;
      const expiresAt = c.expiresAt.toISOString();
      const figures: AlertFigures = { expiresAt, daysLeft, threshold: days };
      const label = c.company ? `${c.name} (${c.company})` : c.name;
      due.set(c.id, {
        kind: 'account_expiring',
        level: 0,
        severity: SEVERITY_OF.account_expiring,
        targetType: 'customer',
        targetKey: c.id,
        periodKey: expiresAt.slice(0, 10),
        serviceLineNumber: null,
        userTerminalId: null,
        customerId: c.id,
        message: alertMessage('account_expiring', label, figures),
        figures,
      });
    }
  }
  for (const a of unresolved) {
    const still = due.get(a.targetKey);
    if (!rule.enabled) decision.resolve.push({ id: a.id, reason: R.ruleOff });
    else if (!still || still.periodKey !== a.periodKey) decision.resolve.push({ id: a.id, reason: R.extended });
  }
  decision.open.push(...due.values());
  return decision;
}

/**
 * One kind of sync: an alert while its latest run failed (one per failing streak, named by the
 * streak's first failed run), resolved by the next success.
 */
export function decideSync(
  kind: 'inventory' | 'usage',
  recent: readonly { id: string; status: string; message: string | null }[],
  enabled: boolean,
  unresolved: readonly UnresolvedAlert[],
): Decision {
  const decision = none();
  const mine = unresolved.filter((a) => a.targetKey === kind);
  const latest = recent[0];
  if (!enabled) {
    mine.forEach((a) => decision.resolve.push({ id: a.id, reason: R.ruleOff }));
    return decision;
  }
  if (!latest || latest.status !== 'failed') {
    mine.forEach((a) => decision.resolve.push({ id: a.id, reason: R.syncSucceeded }));
    return decision;
  }
  let first = latest;
  for (const run of recent) {
    if (run.status !== 'failed') break;
    first = run;
  }
  for (const a of mine) if (a.periodKey !== first.id) decision.resolve.push({ id: a.id, reason: R.syncSucceeded });
  const figures: AlertFigures = { syncKind: kind, runId: latest.id, failure: latest.message };
  decision.open.push({
    kind: 'sync_failed',
    level: 0,
    severity: SEVERITY_OF.sync_failed,
    targetType: 'sync',
    targetKey: kind,
    periodKey: first.id,
    serviceLineNumber: null,
    userTerminalId: null,
    customerId: null,
    message: alertMessage('sync_failed', kind, figures),
    figures,
  });
  return decision;
}
