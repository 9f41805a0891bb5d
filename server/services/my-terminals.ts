// The customer area's terminals: the overview, the list, one terminal's page with its
// month of daily usage, and the two actions a customer may take on a terminal — rename (the line's
// nickname at the provider, through the service-lines service) and reboot (paced, audited).
//
// Every function takes the customer id or the signed-in person's scope; the routes pass the
// token's own, and the admin "View as customer" preview may pass the customer it shows. A member
// limited to some of the organisation's lines sees only terminals on those; a viewer reads only. A terminal is the customer's when it is a live
// terminal assigned to them in the inventory; any other id — another customer's, an unassigned
// one, an unknown one — is the same 404, so an answer never tells which.
import {
  isOnline,
  lineStatus,
  monthOf,
  MY_AREA_MESSAGES as M,
  hardwareAlerts,
  type MyAlertWire,
  rebootWaitMinutes,
  selectableMonths,
  type MyDailyUsage,
  type MyOverviewWire,
  type MyTerminalDetailWire,
  type MyTerminalWire,
  type MyUsageFigures,
  type RebootResultWire,
} from '../../src/domain/my-area';
import { DEFAULT_CURRENCY, forecastCycle, overageCharge, overageGB, remainingGB, type SubscriptionForecast } from '../../src/domain/subscriptions';
import { alertTitle } from '../../src/domain/alerts';
import { monthRange, round1, usagePercentage } from '../../src/domain/terminals';
import { isoOrNull, type Clock } from '../clock';
import type { Repositories } from '../db/repositories';
import type { OwnTerminalRow } from '../db/repositories/my-terminals';
import { ConflictError, NotFoundError, ServiceUnavailableError, TooManyRequestsError, fieldError } from '../errors';
import { auditSource, type AuditService, type RequestContext } from './audit';
import { requireLineWriter, scopeOf, type CustomerRef, type CustomerScope } from './customer-scope';
import type { ProviderDirectory } from '../provider-access';
import { providerRefusal } from './provider-failures';
import type { ServiceLinesService } from './service-lines';
import { capInGB, dataCapOf, dayOf, round2 } from './terminals';
import type { HistoryQuery, TelemetryHistoryService } from './telemetry-history';
import type { TelemetryHistoryWire } from '../../src/domain/telemetry-history';

/** The Overview lists at most this many stored alerts (the Alerts page has them all). */
const MY_OVERVIEW_ALERTS = 20;

export interface MyTerminalsService {
  overview(customer: CustomerRef): Promise<MyOverviewWire>;
  list(customer: CustomerRef): Promise<MyTerminalWire[]>;
  /** `month` is `YYYY-MM` (the route checked the form); null is the current month. */
  detail(customer: CustomerRef, terminalId: string, month: string | null): Promise<MyTerminalDetailWire>;
  rename(customer: CustomerRef, terminalId: string, name: string, context: RequestContext): Promise<{ terminalId: string; nickname: string }>;
  reboot(customer: CustomerRef, terminalId: string, context: RequestContext): Promise<RebootResultWire>;
  /** The terminal's telemetry history, from the day it was assigned to the customer: another holder's time is never shown. */
  telemetry(customer: CustomerRef, terminalId: string, query: HistoryQuery): Promise<TelemetryHistoryWire>;
}

function usageOf(row: OwnTerminalRow): MyUsageFigures {
  // The same rule as the Subscriptions page: the cycle's own limit, else the terminal's cap.
  const planGB = row.usageLimitGb ?? capInGB(dataCapOf(row.dataCapAmount, row.dataCapUnit)) ?? 0;
  const usedGB = row.priorityGb ?? 0;
  return { usedGB, planGB, remainingGB: remainingGB(usedGB, planGB), overageGB: overageGB(usedGB, planGB), percentage: usagePercentage(usedGB, planGB) };
}

const cycleOf = (row: OwnTerminalRow) => (row.cycleStart !== null && row.cycleEnd !== null ? { startDate: row.cycleStart, endDate: row.cycleEnd } : null);

export function toMyTerminal(row: OwnTerminalRow): MyTerminalWire {
  const endDate = isoOrNull(row.lineEndDate);
  // No stored line: the terminal's own flag is all there is.
  const active = row.lineActive ?? row.active;
  return {
    terminalId: row.userTerminalId,
    nickname: row.lineNickname ?? row.terminalNickname,
    serviceLineNumber: row.serviceLineNumber,
    kitSerialNumber: row.kitSerialNumber,
    dishSerialNumber: row.dishSerialNumber,
    status: lineStatus(active, endDate),
    lineEndDate: active ? endDate : null,
    online: false,
    // The provider reports 0–1; the portal speaks percent (one decimal).
    signalQuality: row.signalQuality === null ? null : round1(row.signalQuality * 100),
    uptimeSeconds: row.uptimeSeconds,
    telemetryAt: isoOrNull(row.reportedAt),
    alerts: row.alerts ?? [],
    planName: row.productName ?? row.plan,
    usage: usageOf(row),
    billingCycle: cycleOf(row),
  };
}

/** The lines' forecasts added up: each line's overage is its own (one line's spare data does not cover another's). */
function sumForecasts(forecasts: (SubscriptionForecast | null)[]): SubscriptionForecast | null {
  const known = forecasts.filter((f): f is SubscriptionForecast => f !== null);
  if (known.length === 0) return null;
  const projectedUsedGB = round1(known.reduce((sum, f) => sum + f.projectedUsedGB, 0));
  const projectedOverageGB = round1(known.reduce((sum, f) => sum + f.projectedOverageGB, 0));
  return { projectedUsedGB, projectedOverageGB, projectedCharges: overageCharge(projectedOverageGB) };
}

/** Every day of [start, end], the stored figures or zeros. */
function everyDay(start: string, end: string, rows: { usageDate: string; priorityGb: number; standardGb: number }[]): MyDailyUsage[] {
  const byDay = new Map(rows.map((r) => [r.usageDate, r]));
  const days: MyDailyUsage[] = [];
  for (let at = Date.parse(`${start}T00:00:00Z`); at <= Date.parse(`${end}T00:00:00Z`); at += 86_400_000) {
    const date = new Date(at).toISOString().slice(0, 10);
    const row = byDay.get(date);
    days.push({ date, priorityGB: row?.priorityGb ?? 0, standardGB: row?.standardGb ?? 0 });
  }
  return days;
}

export function createMyTerminalsService(deps: {
  repos: Repositories;
  audit: AuditService;
  now: Clock;
  provider: ProviderDirectory | null;
  noProvider: string;
  serviceLines: Pick<ServiceLinesService, 'rename'>;
  telemetryHistory: Pick<TelemetryHistoryService, 'history'>;
}): MyTerminalsService {
  const { repos, audit, now } = deps;

  /** The client of the account that holds the terminal: it is acted on there. */
  const client = async (userTerminalId: string) => {
    if (!deps.provider) throw new ServiceUnavailableError(deps.noProvider);
    const stored = await repos.terminalInventory.findTerminal(userTerminalId);
    return (await deps.provider.access(stored?.accountId ?? (await deps.provider.defaultAccount()))).client();
  };

  // Online as of the last reading, as the admin side counts it: a report at most a minute older than
  // the moment the sync read it. Measured against now instead, every terminal would turn offline a
  // minute after each sync (every 15 minutes by default), and reboots would be refused for it.
  const withOnline = (row: OwnTerminalRow): MyTerminalWire => {
    const terminal = toMyTerminal(row);
    return { ...terminal, online: row.telemetryReadAt !== null && isOnline(terminal.telemetryAt, row.telemetryReadAt) };
  };

  async function owned({ customerId, serviceLines }: CustomerScope, terminalId: string, at: Date): Promise<OwnTerminalRow> {
    const row = await repos.myTerminals.ownedBy(customerId, terminalId, dayOf(at), undefined, serviceLines);
    if (!row) throw new NotFoundError(M.notFound);
    return row;
  }

  /**
   * The customer's stored alerts not yet resolved, in the Overview's shape: a line's
   * alert points at the customer's terminal on that line.
   */
  async function storedAlerts({ customerId, serviceLines }: CustomerScope, list: readonly MyTerminalWire[]): Promise<MyAlertWire[]> {
    const rows = await repos.alerts.ofCustomer(customerId, MY_OVERVIEW_ALERTS, undefined, serviceLines);
    return rows
      .filter((row) => row.status !== 'resolved')
      .map((row) => ({
        id: row.id,
        kind: row.kind,
        severity: row.severity,
        title: alertTitle(row.kind, row.level),
        terminalId: row.userTerminalId ?? list.find((t) => t.serviceLineNumber !== null && t.serviceLineNumber === row.serviceLineNumber)?.terminalId ?? null,
        serviceLineNumber: row.serviceLineNumber,
        message: row.message,
        since: row.openedAt.toISOString(),
      }));
  }

  return {
    async overview(customer) {
      const scope = scopeOf(customer);
      const at = now();
      const today = dayOf(at);
      const rows = await repos.myTerminals.ofCustomer(scope.customerId, today, undefined, scope.serviceLines);
      const list = rows.map((row) => withOnline(row));
      const usedGB = round2(list.reduce((sum, t) => sum + t.usage.usedGB, 0));
      const planGB = round2(list.reduce((sum, t) => sum + t.usage.planGB, 0));
      const alerts = [...(await storedAlerts(scope, list)), ...hardwareAlerts(list)].sort(
        (a, b) => (a.severity === b.severity ? 0 : a.severity === 'critical' ? -1 : 1),
      );
      return {
        terminals: list.length,
        onlineNow: list.filter((t) => t.online).length,
        usage: {
          usedGB,
          planGB,
          remainingGB: round1(list.reduce((sum, t) => sum + t.usage.remainingGB, 0)),
          overageGB: round1(list.reduce((sum, t) => sum + t.usage.overageGB, 0)),
          percentage: usagePercentage(usedGB, planGB),
        },
        forecast: sumForecasts(list.map((t) => forecastCycle(t.usage.usedGB, t.usage.planGB, t.billingCycle, today))),
        currency: rows.find((r) => r.currency)?.currency ?? DEFAULT_CURRENCY,
        alerts: { count: alerts.length, items: alerts },
      };
    },

    async list(customer) {
      const { customerId, serviceLines } = scopeOf(customer);
      const at = now();
      const rows = await repos.myTerminals.ofCustomer(customerId, dayOf(at), undefined, serviceLines);
      return rows.map((row) => withOnline(row));
    },

    async detail(customer, terminalId, month) {
      const at = now();
      const today = dayOf(at);
      const months = selectableMonths(at);
      const shown = month ?? monthOf(at);
      if (!months.includes(shown)) {
        const message = M.monthOutOfRange(months.at(-1)!, months[0]!);
        throw fieldError('month', message);
      }
      const row = await owned(scopeOf(customer), terminalId, at);
      const terminal = withOnline(row);
      const [year, m] = shown.split('-').map(Number) as [number, number];
      const range = monthRange(year, m);
      const end = range.end < today ? range.end : today;
      const stored = row.serviceLineNumber ? await repos.terminals.dailyUsage(row.serviceLineNumber, range.start, end) : [];
      const daily = everyDay(range.start, end, stored);
      return {
        terminal,
        month: shown,
        months,
        daily,
        totals: {
          priorityGB: round2(daily.reduce((sum, d) => sum + d.priorityGB, 0)),
          standardGB: round2(daily.reduce((sum, d) => sum + d.standardGB, 0)),
        },
        forecast: forecastCycle(terminal.usage.usedGB, terminal.usage.planGB, terminal.billingCycle, today),
        currency: row.currency ?? DEFAULT_CURRENCY,
      };
    },

    async rename(customer, terminalId, name, context) {
      const scope = scopeOf(customer);
      requireLineWriter(scope);
      const row = await owned(scope, terminalId, now());
      if (!row.serviceLineNumber) throw new ConflictError(M.noLine);
      // The service-lines service goes to the provider, stores the fresh line and audits the
      // change as `service_line.renamed`, with the customer as the actor.
      const settings = await deps.serviceLines.rename(row.serviceLineNumber, name, auditSource(context));
      return { terminalId, nickname: settings.nickname ?? name.trim() };
    },

    async telemetry(customer, terminalId, query) {
      const row = await owned(scopeOf(customer), terminalId, now());
      return deps.telemetryHistory.history(terminalId, query, row.assignedAt);
    },

    async reboot(customer, terminalId, context) {
      const scope = scopeOf(customer);
      requireLineWriter(scope);
      const { customerId } = scope;
      const at = now();
      const terminal = withOnline(await owned(scope, terminalId, at));
      if (terminal.status !== 'Active') throw new ConflictError(M.rebootInactive);
      if (!terminal.online) throw new ConflictError(M.rebootOffline);
      const provider = await client(terminalId);
      const reservation = await repos.terminalReboots.reserve({ userTerminalId: terminalId, customerId, at, since: new Date(at.getTime() - 3_600_000) }, (history) => {
        const wait = rebootWaitMinutes({ terminalLast: history.terminalLast, customerLastHour: history.customerRecent, at });
        if (wait.minutes > 0) {
          const message = wait.reason === 'terminal' ? M.rebootTooSoonTerminal(wait.minutes) : M.rebootTooSoonCustomer(wait.minutes);
          throw new TooManyRequestsError(message, { headers: { 'Retry-After': String(wait.minutes * 60) } });
        }
      });
      try {
        await provider.rebootTerminal(terminalId);
      } catch (error) {
        await repos.terminalReboots.release(reservation);
        // The provider's refusal (offline, unknown to it) in its own words; the rest as 502/504.
        throw providerRefusal(error, M.rebootFailed);
      }
      await audit.record({
        ...auditSource(context),
        action: 'terminal.rebooted',
        targetType: 'terminal',
        targetId: terminalId,
        after: { terminalId, serviceLineNumber: terminal.serviceLineNumber },
      });
      return { terminalId, requestedAt: at.toISOString() };
    },
  };
}
