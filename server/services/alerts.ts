// Alerts: the evaluation run, the Alerts page, the bell, the rules and their
// overrides, and the customer's own alerts.
//
// A run: the fleet-wide rules first (cycles that ended, accounts about to expire, failed syncs),
// then the marked lines in batches. Each batch is one transaction under an advisory lock (a second
// run, in this process or another, waits for it), and the unique index on alerts drops an alert
// already raised for the same rule, target, period and level: running twice opens nothing twice.
// The emails and webhook events of the alerts a batch opened are written in the same
// transaction, so an alert never exists without its notices nor a notice without its alert; they
// leave after the commit.
import { scopeOf, type CustomerRef } from './customer-scope';
import {
  ALERT_BELL_LATEST,
  ALERT_EMAIL_DIGEST_AFTER,
  ALERT_KINDS,
  ALERT_MESSAGES as M,
  ALERT_RESOLVED_REASONS as R,
  ALERTS_ACKNOWLEDGE_MAX,
  CUSTOMER_ALERT_KINDS,
  LINE_ALERT_KINDS,
  SEVERITY_OF,
  alertMessage,
  alertTitle,
  thresholdProblem,
  usageLevelsProblem,
  type AcknowledgeResultWire,
  type AlertBellWire,
  type AlertEvaluationReport,
  type AlertFigures,
  type AlertKind,
  type AlertListWire,
  type AlertOverridePayload,
  type AlertOverrideWire,
  type AlertRulePayload,
  type AlertRuleWire,
  type AlertStatus,
  type AlertStatusFilter,
  type AlertWire,
  type MyAlertsWire,
} from '../../src/domain/alerts';
import { paginationOf } from '../../src/domain/customers';
import { isoOrNull, type Clock } from '../clock';
import type { Db } from '../db/client';
import type { Repositories } from '../db/repositories';
import type { AlertListRow, EffectiveRule, InsertedAlert, UnresolvedAlert } from '../db/repositories/alerts';
import type { AlertRuleRow } from '../db/schema';
import { alertsEmail } from '../email/templates';
import { NotFoundError, fieldError } from '../errors';
import { decideExpiring, decideLine, decideSync, effectiveRules, type Decision } from './alert-evaluation';
import type { AuditService, RequestContext } from './audit';
import type { EmailLogger, EmailSender, RecordedEmail } from './email';
import { dayOf } from './terminals';
import type { AutomaticActionsService, OpenedLineAlert } from './automatic-actions';
import type { PublishedEventType } from './webhooks';
import type { RuleActionWire } from '../../src/domain/automation';

/** What a customer's alert shows of its actions: what was done to the line, or is under way. */
const CUSTOMER_SEES: readonly string[] = ['queued', 'running', 'executed', 'undone'];

/** Lines read per transaction: small enough that requests get the embedded database between batches. */
export const EVALUATION_BATCH = 2_000;
/** The customer area lists this many alerts (unresolved ones first). */
export const MY_ALERTS_LIMIT = 100;

/** What the alerts hand to the webhooks: events written in the alert change's transaction. */
export interface AlertEventPublisher {
  publish(events: { type: PublishedEventType; data: unknown }[], tx?: Db): Promise<{ events: number; deliveries: number }>;
  wake(): void;
}

/** A scheduled change or automatic action that could not be made, after its retries. */
export interface ChangeFailure {
  serviceLineNumber?: string | null;
  customerId: string | null;
  changeId: string;
  /** "Scheduled change: Change plan" */
  change: string;
  failure: string;
}

export interface AlertListQuery {
  status: AlertStatusFilter;
  kind: AlertKind | 'all';
  severity: 'warning' | 'critical' | 'all';
  customer: string | null;
  search: string | null;
  /** Only the alerts on this provider account's lines and terminals (the counts too). */
  account_id?: number | undefined;
  page: number;
  limit: number;
}

export interface AlertsService {
  evaluate(): Promise<AlertEvaluationReport>;
  list(query: AlertListQuery): Promise<AlertListWire>;
  bell(userId: string): Promise<AlertBellWire>;
  markSeen(userId: string): Promise<{ seenAt: string }>;
  acknowledge(ids: string[], context: RequestContext & { userId: string }): Promise<AcknowledgeResultWire>;
  rules(userId: string): Promise<AlertRuleWire[]>;
  updateRule(kind: AlertKind, payload: AlertRulePayload, context: RequestContext & { userId: string }): Promise<AlertRuleWire>;
  subscribe(kind: AlertKind, subscribed: boolean, userId: string): Promise<AlertRuleWire>;
  /** A rule's actions at its levels (an empty list: notify only); checked against the lines they cover. */
  saveActions(kind: AlertKind, actions: RuleActionWire[], context: RequestContext & { userId: string }): Promise<AlertRuleWire>;
  /** The alert of a scheduled change or automatic action that failed for good. */
  raiseChangeFailed(failure: ChangeFailure): Promise<void>;
  overrides(kind: AlertKind): Promise<AlertOverrideWire[]>;
  putOverride(kind: AlertKind, payload: AlertOverridePayload, context: RequestContext & { userId: string }): Promise<AlertOverrideWire>;
  deleteOverride(kind: AlertKind, scope: 'customer' | 'line', key: string, context: RequestContext): Promise<void>;
  ofCustomer(customer: CustomerRef): Promise<MyAlertsWire>;
  /** The job that runs the evaluation (attached by the app once the queue exists). */
  attachEvaluationRequester(request: () => void): void;
}

export function toAlertWire(row: AlertListRow): AlertWire {
  return {
    id: row.id,
    kind: row.kind,
    level: row.level,
    severity: row.severity,
    status: row.status,
    title: alertTitle(row.kind, row.level),
    message: row.message,
    targetType: row.targetType,
    targetKey: row.targetKey,
    period: row.periodKey,
    serviceLineNumber: row.serviceLineNumber,
    userTerminalId: row.userTerminalId,
    customer: row.customerId ? { uuid: row.customerId, name: row.customerName ?? '', company: row.customerCompany ?? '' } : null,
    figures: (row.figures ?? {}) as AlertFigures,
    openedAt: row.openedAt.toISOString(),
    acknowledgedAt: isoOrNull(row.acknowledgedAt),
    acknowledgedBy: row.acknowledgedByName,
    resolvedAt: isoOrNull(row.resolvedAt),
    resolvedReason: row.resolvedReason,
    // The Alerts page's rows only: the customer's own alerts and the webhooks name no account.
    ...(row.accountId !== undefined ? { accountId: row.accountId, accountName: row.accountName ?? null } : {}),
  };
}

const STATUSES_OF: Record<AlertStatusFilter, AlertStatus[] | null> = {
  active: ['open', 'acknowledged'],
  open: ['open'],
  acknowledged: ['acknowledged'],
  resolved: ['resolved'],
  all: null,
};

export function createAlertsService(deps: {
  repos: Repositories;
  audit: AuditService;
  email: EmailSender;
  now: Clock;
  /** Where links in the emails lead (PUBLIC_URL, else the server's own address). */
  portalUrl: string | null;
  webhooks: () => AlertEventPublisher | null;
  log: EmailLogger;
  /** The rules' actions: checked when saved, proposed when an alert opens (bound once they exist). */
  actions: () => AutomaticActionsService | null;
}): AlertsService {
  const { repos, audit, email, now } = deps;
  const store = repos.alerts;
  let requestEvaluation: () => void = () => undefined;

  async function ruleMap(tx?: Db): Promise<Map<AlertKind, AlertRuleRow>> {
    return new Map((await store.rules(tx)).map((r) => [r.kind, r]));
  }

  /**
   * The alerts with what their rules did about them. A customer sees what was done, or is under
   * way, on their line; proposals an admin has not decided, and dismissed ones, are the admins' own.
   */
  async function withActions(wires: AlertWire[], options: { forCustomer?: boolean } = {}): Promise<AlertWire[]> {
    const automation = deps.actions();
    const lineAlerts = wires.filter((w) => w.kind === 'usage' || w.kind === 'overage_forecast').map((w) => w.id);
    if (!automation || lineAlerts.length === 0) return wires;
    const summaries = await automation.summariesOf(lineAlerts);
    return wires.map((w) => {
      const all = summaries.get(w.id) ?? [];
      const shown = options.forCustomer ? all.filter((a) => CUSTOMER_SEES.includes(a.status)).map((a) => ({ ...a, undoable: false })) : all;
      return shown.length > 0 ? { ...w, automaticActions: shown } : w;
    });
  }

  async function checkActions(kind: AlertKind, actions: readonly RuleActionWire[], levels: readonly number[], scope: { scope: 'rule' } | { scope: 'customer' | 'line'; key: string }) {
    const automation = deps.actions();
    if (automation) await automation.check(kind, actions, levels, scope);
  }

  /** The notices of what a transaction opened and resolved: emails recorded, webhook events written. */
  async function notify(opened: readonly string[], resolved: readonly string[], rules: ReadonlyMap<AlertKind, AlertRuleRow>, tx: Db, counter: { queries: number }) {
    const recorded: RecordedEmail[] = [];
    let events = 0;
    if (opened.length + resolved.length === 0) return { recorded, events };
    const openedRows = await store.byIds(opened, tx);
    const resolvedRows = resolved.length > 0 ? await store.byIds(resolved, tx) : [];
    counter.queries += resolved.length > 0 ? 2 : 1;
    const publisher = deps.webhooks();
    if (publisher) {
      const published = await publisher.publish(
        [
          ...openedRows.map((r) => ({ type: 'alert.opened' as const, data: { alert: toAlertWire(r) } })),
          ...resolvedRows.map((r) => ({ type: 'alert.resolved' as const, data: { alert: toAlertWire(r) } })),
        ],
        tx,
      );
      counter.queries += 1;
      events = published.events;
    }
    if (openedRows.length === 0) return { recorded, events };
    // Who reads what: subscribed admins get the kinds they chose; a customer gets their own when the rule says so.
    const inbox = new Map<string, { name: string; alerts: AlertWire[] }>();
    const add = (to: string, name: string, alert: AlertWire) => {
      const key = to.toLowerCase();
      const entry = inbox.get(key) ?? { name, alerts: [] };
      entry.alerts.push(alert);
      inbox.set(key, entry);
    };
    const kinds = [...new Set(openedRows.map((r) => r.kind))];
    const subscribers = await store.subscribers(kinds, tx);
    counter.queries += 1;
    const wires = openedRows.map(toAlertWire);
    for (const s of subscribers) for (const w of wires) if (w.kind === s.kind) add(s.email, s.name, w);
    const toCustomers = wires.filter((w) => w.customer && rules.get(w.kind)?.notifyCustomer);
    if (toCustomers.length > 0) {
      const contacts = await store.customerContacts([...new Set(toCustomers.map((w) => w.customer!.uuid))], tx);
      counter.queries += 1;
      for (const w of toCustomers) {
        const contact = contacts.get(w.customer!.uuid);
        if (contact) add(contact.email, contact.name, w);
      }
    }
    for (const [to, { name, alerts }] of inbox) {
      const batches = alerts.length <= ALERT_EMAIL_DIGEST_AFTER ? alerts.map((a) => [a]) : [alerts];
      for (const batch of batches) {
        recorded.push(await email.record({ to, ...alertsEmail({ name, alerts: batch, link: deps.portalUrl ? `${deps.portalUrl}/alerts` : null }) }, tx));
        counter.queries += 1;
      }
    }
    return { recorded, events };
  }

  /** Writes one decision set: inserts, supersedes lower usage levels, resolves, notifies. */
  async function apply(decision: Decision, unresolved: readonly UnresolvedAlert[], rules: ReadonlyMap<AlertKind, AlertRuleRow>, at: Date, tx: Db, counter: { queries: number }) {
    const inserted: InsertedAlert[] = await store.insertAlerts(decision.open, at, tx);
    counter.queries += decision.open.length > 0 ? 1 : 0;
    const reasons = new Map<string, string>();
    for (const r of decision.resolve) if (!reasons.has(r.id)) reasons.set(r.id, r.reason);
    for (const n of inserted) {
      if (n.kind !== 'usage') continue;
      for (const a of unresolved) {
        if (a.kind === 'usage' && a.targetKey === n.targetKey && a.periodKey === n.periodKey && a.customerId === n.customerId && a.level < n.level && !reasons.has(a.id)) {
          reasons.set(a.id, R.superseded);
        }
      }
    }
    const resolved = await store.resolve(
      [...reasons].map(([id, reason]) => ({ id, reason })),
      at,
      tx,
    );
    counter.queries += reasons.size > 0 ? 1 : 0;
    const notices = await notify(
      inserted.map((n) => n.id),
      resolved,
      rules,
      tx,
      counter,
    );
    return { opened: inserted.length, resolved: resolved.length, inserted, ...notices };
  }

  function deliver(recorded: readonly RecordedEmail[], anyEvents: boolean) {
    for (const message of recorded) void email.deliver(message, { log: deps.log });
    if (anyEvents) deps.webhooks()?.wake();
  }

  const service: AlertsService = {
    async evaluate() {
      const started = performance.now();
      const counter = { queries: 0 };
      const report: AlertEvaluationReport = { linesRead: 0, opened: 0, actions: 0, resolved: 0, emails: 0, webhookEvents: 0, queries: 0, ms: 0 };
      const tally = (done: { opened: number; resolved: number; recorded: RecordedEmail[]; events: number }) => {
        report.opened += done.opened;
        report.resolved += done.resolved;
        report.emails += done.recorded.length;
        report.webhookEvents += done.events;
        deliver(done.recorded, done.events > 0);
      };

      // Fleet-wide rules: cycles that ended, accounts about to expire, failed syncs.
      const fleetWide = await store.transaction(async (tx) => {
        await store.lockEvaluation(tx);
        const at = now();
        const today = dayOf(at);
        const rules = await ruleMap(tx);
        counter.queries += 2;
        const ended = await store.resolveEndedCycles(today, at, R.cycleEnded, tx);
        const expiringRule = rules.get('account_expiring');
        const customerOverrides = await store.customerOverrides('account_expiring', tx);
        const widest = Math.max(Number(expiringRule?.threshold ?? 0), ...[...customerOverrides.values()].map((o) => Number(o.threshold ?? 0)));
        const expiring = expiringRule?.enabled ? await store.expiringCustomers(at, widest, tx) : [];
        const unresolvedExpiring = await store.unresolvedOfKind('account_expiring', tx);
        const unresolvedSync = await store.unresolvedOfKind('sync_failed', tx);
        counter.queries += 6;
        const syncEnabled = rules.get('sync_failed')?.enabled ?? false;
        const decisions: Decision[] = [decideExpiring(expiring, { enabled: expiringRule?.enabled ?? false, threshold: expiringRule?.threshold ?? null }, customerOverrides, unresolvedExpiring, at)];
        for (const kind of ['inventory', 'usage'] as const) {
          const recent = await store.recentSyncRuns(kind, 50, tx);
          counter.queries += 1;
          decisions.push(decideSync(kind, recent, syncEnabled, unresolvedSync));
        }
        const merged: Decision = { open: decisions.flatMap((d) => d.open), resolve: decisions.flatMap((d) => d.resolve) };
        const done = await apply(merged, [...unresolvedExpiring, ...unresolvedSync], rules, at, tx, counter);
        // The ended cycles' alerts were resolved by one UPDATE: their events go out too.
        const endedNotices = ended.length > 0 ? await notify([], ended, rules, tx, counter) : { recorded: [], events: 0 };
        return { ...done, resolved: done.resolved + ended.length, recorded: [...done.recorded, ...endedNotices.recorded], events: done.events + endedNotices.events };
      });
      tally(fleetWide);

      // The marked lines, a batch per transaction, until none is left.
      for (;;) {
        const batch = await store.transaction(async (tx) => {
          await store.lockEvaluation(tx);
          const lines = await store.takeDirtyLines(EVALUATION_BATCH, tx);
          counter.queries += 2;
          if (lines.length === 0) return null;
          const at = now();
          const today = dayOf(at);
          const rules = await ruleMap(tx);
          const facts = await store.lineFacts(lines, today, tx);
          const customerIds = [...new Set(facts.map((f) => f.customerId).filter((c): c is string => c !== null))];
          const overrides = await store.overridesFor(lines, customerIds, tx);
          const unresolved = await store.unresolvedOfLines(lines, tx);
          counter.queries += 4;
          const byLine = new Map<string, UnresolvedAlert[]>();
          for (const a of unresolved) {
            const list = byLine.get(a.serviceLineNumber ?? '') ?? [];
            list.push(a);
            byLine.set(a.serviceLineNumber ?? '', list);
          }
          const merged: Decision = { open: [], resolve: [] };
          const ruleOfLine = new Map<string, (kind: AlertKind) => EffectiveRule>();
          for (const f of facts) {
            const rule = effectiveRules(rules, overrides, f.serviceLineNumber, f.customerId);
            ruleOfLine.set(f.serviceLineNumber, rule);
            const d = decideLine(f, rule, byLine.get(f.serviceLineNumber) ?? [], today);
            merged.open.push(...d.open);
            merged.resolve.push(...d.resolve);
          }
          const done = await apply(merged, unresolved, rules, at, tx, counter);
          // The alerts opened now bring their level's actions, in the same transaction: an action
          // never exists without its alert, and a second evaluation proposes nothing twice.
          const automation = deps.actions();
          let actions = 0;
          let actionEvents = 0;
          if (automation && done.inserted.length > 0) {
            const openedByKey = new Map(merged.open.map((o) => [`${o.kind}|${o.targetKey}|${o.periodKey}|${o.level}`, o]));
            const opened: OpenedLineAlert[] = [];
            for (const n of done.inserted) {
              const alert = openedByKey.get(`${n.kind}|${n.targetKey}|${n.periodKey}|${n.level}`);
              const line = alert?.serviceLineNumber;
              const rule = line ? ruleOfLine.get(line) : undefined;
              if (!alert || !line || !rule) continue;
              const own = rule(n.kind).actions;
              if (own.length === 0) continue;
              opened.push({
                alertId: n.id,
                kind: n.kind,
                level: n.level,
                serviceLineNumber: line,
                customerId: n.customerId,
                cycleStart: n.periodKey,
                actions: own,
                projectedCharge: alert.figures.projectedCharge ?? null,
                currency: alert.figures.currency ?? null,
                setUpBy: rules.get(n.kind)?.actionsBy ?? null,
              });
            }
            const proposed = await automation.propose(opened, at, tx);
            actions = proposed.proposed + proposed.queued;
            actionEvents = proposed.events;
            counter.queries += opened.length > 0 ? 2 : 0;
          }
          return { ...done, events: done.events + actionEvents, actions, lines: lines.length };
        });
        if (!batch) break;
        report.linesRead += batch.lines;
        report.actions += batch.actions;
        tally(batch);
      }
      report.queries = counter.queries;
      report.ms = Math.round(performance.now() - started);
      return report;
    },

    async list(query) {
      const filter = {
        statuses: STATUSES_OF[query.status],
        kind: query.kind === 'all' ? null : query.kind,
        severity: query.severity === 'all' ? null : query.severity,
        customerId: query.customer,
        search: query.search?.trim() || null,
        accountId: query.account_id ?? null,
      };
      const { rows, total } = await store.list(filter, { offset: (query.page - 1) * query.limit, limit: query.limit });
      const counts = await store.counts(filter);
      return { alerts: await withActions(rows.map(toAlertWire)), pagination: paginationOf(total, query.page, query.limit), counts };
    },

    async bell(userId) {
      const { unread, open, rows } = await store.bell(userId, ALERT_BELL_LATEST);
      return { unread, open, latest: rows.map(toAlertWire) };
    },

    async markSeen(userId) {
      const at = now();
      await store.markSeen(userId, at);
      return { seenAt: at.toISOString() };
    },

    async acknowledge(ids, context) {
      const unique = [...new Set(ids)];
      if (unique.length === 0) throw fieldError('ids', M.acknowledgeEmpty);
      if (unique.length > ALERTS_ACKNOWLEDGE_MAX) throw fieldError('ids', M.acknowledgeTooMany);
      const at = now();
      const result = await store.transaction(async (tx) => {
        const known = new Set((await store.byIds(unique, tx)).map((r) => r.id));
        const acknowledged = await store.acknowledge([...known], context.userId, at, tx);
        if (acknowledged.length > 0) {
          await audit.recordMany(
            acknowledged.map((id) => ({ actor: context.actor, action: 'alert.acknowledge', targetType: 'alert', targetId: id, ip: context.ip, requestId: context.requestId })),
            tx,
          );
          const rows = await store.byIds(acknowledged, tx);
          await deps.webhooks()?.publish(
            rows.map((r) => ({ type: 'alert.acknowledged' as const, data: { alert: toAlertWire(r) } })),
            tx,
          );
        }
        const done = new Set(acknowledged);
        return {
          acknowledged,
          unchanged: unique.filter((id) => known.has(id) && !done.has(id)),
          notFound: unique.filter((id) => !known.has(id)),
        };
      });
      if (result.acknowledged.length > 0) deps.webhooks()?.wake();
      return result;
    },

    async rules(userId) {
      const [rules, counts, subscribed] = [await store.rules(), await store.overrideCounts(), await store.subscribedKinds(userId)];
      // In the order the domain lists them (data use first), not the table's alphabetical one.
      const order = (kind: AlertKind) => ALERT_KINDS.indexOf(kind);
      return [...rules].sort((a, b) => order(a.kind) - order(b.kind)).map((r) => toRuleWire(r, subscribed.has(r.kind), counts.get(r.kind) ?? 0));
    },

    async updateRule(kind, payload, context) {
      const usageLevels = kind === 'usage' ? checkLevels(payload.usageLevels) : refuseLevels(payload.usageLevels);
      const threshold = kind === 'usage' || kind === 'sync_failed' ? refuseThreshold(payload.threshold) : checkThreshold(kind, payload.threshold);
      const at = now();
      const row = await store.transaction(async (tx) => {
        const before = (await store.rules(tx)).find((r) => r.kind === kind);
        if (!before) throw new NotFoundError(M.ruleNotFound);
        const saved = await store.updateRule(kind, { enabled: payload.enabled, usageLevels, threshold, notifyCustomer: payload.notifyCustomer, by: context.userId, at }, tx);
        if (!saved) throw new NotFoundError(M.ruleNotFound);
        // Every line is read again by the next run: the new threshold applies to the whole fleet.
        if ((LINE_ALERT_KINDS as readonly string[]).includes(kind)) await store.markLines('all', null, tx);
        await audit.record(
          { actor: context.actor, action: 'alert_rule.update', targetType: 'alert_rule', targetId: kind, before: ruleFields(before), after: ruleFields(saved), ip: context.ip, requestId: context.requestId },
          tx,
        );
        return saved;
      });
      requestEvaluation();
      const subscribed = await store.subscribedKinds(context.userId);
      return toRuleWire(row, subscribed.has(kind), (await store.overrideCounts()).get(kind) ?? 0);
    },

    async subscribe(kind, subscribed, userId) {
      if (!(ALERT_KINDS as readonly string[]).includes(kind)) throw new NotFoundError(M.ruleNotFound);
      await store.setSubscription(userId, kind, subscribed);
      const rule = (await store.rules()).find((r) => r.kind === kind);
      if (!rule) throw new NotFoundError(M.ruleNotFound);
      return toRuleWire(rule, subscribed, (await store.overrideCounts()).get(kind) ?? 0);
    },

    async saveActions(kind, actions, context) {
      const before = (await store.rules()).find((r) => r.kind === kind);
      if (!before) throw new NotFoundError(M.ruleNotFound);
      await checkActions(kind, actions, before.usageLevels ?? [], { scope: 'rule' });
      const at = now();
      const saved = await store.transaction(async (tx) => {
        const row = await store.updateRuleActions(kind, actions, context.userId, at, tx);
        if (!row) throw new NotFoundError(M.ruleNotFound);
        await audit.record(
          { actor: context.actor, action: 'alert_rule.actions_update', targetType: 'alert_rule', targetId: kind, before: { actions: before.actions }, after: { actions }, ip: context.ip, requestId: context.requestId },
          tx,
        );
        return row;
      });
      const subscribed = await store.subscribedKinds(context.userId);
      return toRuleWire(saved, subscribed.has(kind), (await store.overrideCounts()).get(kind) ?? 0);
    },

    async raiseChangeFailed(failure) {
      const at = now();
      const rules = await ruleMap();
      if (!rules.get('change_failed')?.enabled) return;
      const target = failure.serviceLineNumber ?? failure.customerId ?? failure.changeId;
      const figures: AlertFigures = { change: failure.change, changeId: failure.changeId, failure: failure.failure };
      const counter = { queries: 0 };
      const notices = await store.transaction(async (tx) => {
        const inserted = await store.insertAlerts(
          [
            {
              kind: 'change_failed',
              level: 0,
              severity: SEVERITY_OF.change_failed,
              targetType: failure.serviceLineNumber ? 'line' : 'customer',
              targetKey: target,
              periodKey: failure.changeId,
              serviceLineNumber: failure.serviceLineNumber ?? null,
              userTerminalId: null,
              customerId: failure.customerId,
              message: alertMessage('change_failed', failure.serviceLineNumber ? `line ${failure.serviceLineNumber}` : 'the customer', figures),
              figures,
            },
          ],
          at,
          tx,
        );
        return notify(
          inserted.map((n) => n.id),
          [],
          rules,
          tx,
          counter,
        );
      });
      deliver(notices.recorded, notices.events > 0);
    },

    async overrides(kind) {
      return (await store.overrides(kind)).map(toOverrideWire);
    },

    async putOverride(kind, payload, context) {
      const allowed: readonly string[] = payload.scope === 'line' ? LINE_ALERT_KINDS : CUSTOMER_ALERT_KINDS;
      if (!allowed.includes(kind)) throw fieldError('scope', M.overrideScopeNotAllowed);
      const key = payload.key.trim();
      const exists = payload.scope === 'line' ? await store.lineExists(key) : (await repos.customers.findLiveById(key)) !== null;
      if (!exists) throw fieldError('key', M.overrideTargetNotFound);
      const usageLevels = kind === 'usage' ? (payload.usageLevels == null ? null : checkLevels(payload.usageLevels)) : refuseLevels(payload.usageLevels);
      const threshold = kind === 'usage' ? refuseThreshold(payload.threshold) : payload.threshold == null ? null : checkThreshold(kind, payload.threshold);
      const actions = payload.actions ?? null;
      if (actions !== null) {
        const rule = (await store.rules()).find((r) => r.kind === kind);
        await checkActions(kind, actions, usageLevels ?? rule?.usageLevels ?? [], { scope: payload.scope, key });
      }
      const at = now();
      await store.transaction(async (tx) => {
        await store.upsertOverride({ kind, scope: payload.scope, scopeKey: key, enabled: payload.enabled, usageLevels, threshold, actions, by: context.userId, at }, tx);
        await store.markLines(payload.scope, key, tx);
        await audit.record(
          { actor: context.actor, action: 'alert_override.save', targetType: `alert_override:${payload.scope}`, targetId: `${kind}:${key}`, after: { enabled: payload.enabled, usageLevels, threshold }, ip: context.ip, requestId: context.requestId },
          tx,
        );
      });
      requestEvaluation();
      const saved = (await store.overrides(kind)).find((o) => o.scope === payload.scope && o.scopeKey === key);
      if (!saved) throw new NotFoundError(M.overrideTargetNotFound);
      return toOverrideWire(saved);
    },

    async deleteOverride(kind, scope, key, context) {
      const removed = await store.transaction(async (tx) => {
        const gone = await store.deleteOverride(kind, scope, key, tx);
        if (gone) {
          await store.markLines(scope, key, tx);
          await audit.record({ actor: context.actor, action: 'alert_override.delete', targetType: `alert_override:${scope}`, targetId: `${kind}:${key}`, ip: context.ip, requestId: context.requestId }, tx);
        }
        return gone;
      });
      if (!removed) throw new NotFoundError(M.overrideTargetNotFound);
      requestEvaluation();
    },

    async ofCustomer(customer) {
      // A member limited to some lines sees those lines' alerts only.
      const { customerId, serviceLines } = scopeOf(customer);
      return { alerts: await withActions((await store.ofCustomer(customerId, MY_ALERTS_LIMIT, undefined, serviceLines)).map(toAlertWire), { forCustomer: true }) };
    },

    attachEvaluationRequester(request) {
      requestEvaluation = request;
    },
  };
  return service;
}

function toRuleWire(row: AlertRuleRow, subscribed: boolean, overrides: number): AlertRuleWire {
  return {
    actions: row.actions ?? [],
    kind: row.kind,
    enabled: row.enabled,
    usageLevels: row.kind === 'usage' ? (row.usageLevels ?? []) : null,
    threshold: row.kind === 'usage' || row.kind === 'sync_failed' ? null : row.threshold,
    notifyCustomer: row.notifyCustomer,
    subscribed,
    overrides,
    updatedAt: row.updatedAt.toISOString(),
  };
}

const ruleFields = (r: AlertRuleRow) => ({ enabled: r.enabled, usageLevels: r.usageLevels, threshold: r.threshold, notifyCustomer: r.notifyCustomer });

function toOverrideWire(o: {
  kind: AlertKind;
  scope: 'customer' | 'line';
  scopeKey: string;
  enabled: boolean;
  usageLevels: number[] | null;
  threshold: number | null;
  actions: RuleActionWire[] | null;
  updatedAt: Date;
  label?: string | null;
}): AlertOverrideWire {
  return { kind: o.kind, scope: o.scope, key: o.scopeKey, label: o.label ?? null, enabled: o.enabled, usageLevels: o.usageLevels, threshold: o.threshold, actions: o.actions, updatedAt: o.updatedAt.toISOString() };
}

function checkLevels(levels: number[] | null | undefined): number[] {
  const problem = usageLevelsProblem(levels ?? []);
  if (problem) throw fieldError('usageLevels', problem);
  return [...(levels ?? [])].sort((a, b) => a - b);
}

function refuseLevels(levels: number[] | null | undefined): null {
  if (levels != null) throw fieldError('usageLevels', M.levelsNotOfKind);
  return null;
}

function checkThreshold(kind: AlertKind, threshold: number | null | undefined): number {
  const problem = thresholdProblem(kind, threshold);
  if (problem) throw fieldError('threshold', problem);
  return threshold as number;
}

function refuseThreshold(threshold: number | null | undefined): null {
  if (threshold != null) throw fieldError('threshold', M.thresholdNotOfKind);
  return null;
}
