// Alerts: the admins' list, the shell's bell, acknowledging, the rules with their
// overrides and the admin's own subscription, and the customer's own alerts. The wire is the shared
// contract of src/domain/alerts.ts; rows that cannot be read are skipped, and an answer whose shape
// cannot be read at all is a failure (mapResult's null). Refusals come back as ok:false with the
// server's words.
import { mapResult, type ApiClient, type ApiResult, type Download } from './client';
import { downloadCsv } from './csv';
import { listExportFileName } from '../domain/list-exports';
import { bool, int, isRecord, present, type Raw, text, withSignal } from './normalise';
import { listOf, num, oneOf } from './terminals';
import { rowAccount } from './account-refs';
import {
  ALERT_KINDS,
  ALERT_SEVERITIES,
  ALERT_STATUSES,
  ALERT_TARGET_TYPES,
  ALERTS_PAGE_SIZE,
  type AcknowledgeResultWire,
  type AlertBellWire,
  type AlertFigures,
  type AlertKind,
  type AlertListQuery,
  type AlertListWire,
  type AlertOverridePayload,
  type AlertOverrideWire,
  type AlertRulePayload,
  type AlertRuleWire,
  type AlertWire,
  type MyAlertsWire,
} from '../domain/alerts';
import { normalisePagination } from './customers';
import { normaliseActionSummary, normaliseRuleActions } from './automation';
import type { RuleActionWire } from '../domain/automation';

const whole = (value: unknown) => Math.max(0, int(value, 0));
const numbers = (value: unknown): number[] | null => (Array.isArray(value) ? value.map(num).filter((n): n is number => n !== null) : null);
const ids = (value: unknown) => listOf(value).filter((item): item is string => typeof item === 'string');

/** The figures are shown, never computed on: anything that is not a number or a string is dropped. */
function figures(raw: unknown): AlertFigures {
  if (!isRecord(raw)) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'string' || value === null) out[key] = value;
  }
  return out as AlertFigures;
}

/** One alert; null without an id, a known kind, severity, status and target type. */
export function normaliseAlert(raw: unknown): AlertWire | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  const kind = oneOf(ALERT_KINDS, raw.kind);
  const severity = oneOf(ALERT_SEVERITIES, raw.severity);
  const status = oneOf(ALERT_STATUSES, raw.status);
  const targetType = oneOf(ALERT_TARGET_TYPES, raw.targetType);
  if (!id || !kind || !severity || !status || !targetType) return null;
  const customer: Raw | null = isRecord(raw.customer) ? raw.customer : null;
  const customerUuid = customer ? text(customer.uuid) : null;
  return {
    id,
    kind,
    level: whole(raw.level),
    severity,
    status,
    title: text(raw.title) ?? '',
    message: text(raw.message) ?? '',
    targetType,
    targetKey: text(raw.targetKey) ?? '',
    period: text(raw.period) ?? '',
    serviceLineNumber: text(raw.serviceLineNumber),
    userTerminalId: text(raw.userTerminalId),
    customer: customer && customerUuid ? { uuid: customerUuid, name: text(customer.name) ?? 'Customer', company: text(customer.company) ?? '' } : null,
    figures: figures(raw.figures),
    openedAt: text(raw.openedAt) ?? '',
    acknowledgedAt: text(raw.acknowledgedAt),
    acknowledgedBy: text(raw.acknowledgedBy),
    resolvedAt: text(raw.resolvedAt),
    resolvedReason: text(raw.resolvedReason),
    // The Alerts list names each alert's provider account; the bell and the customer's alerts do not.
    ...('accountId' in raw || 'account_id' in raw ? rowAccount(raw) : {}),
    ...(Array.isArray(raw.automaticActions) ? { automaticActions: raw.automaticActions.map(normaliseActionSummary).filter(present) } : {}),
  };
}

export function normaliseAlertList(data: unknown, query: AlertListQuery = {}): AlertListWire | null {
  if (!isRecord(data) || !Array.isArray(data.alerts)) return null;
  const alerts = data.alerts.map(normaliseAlert).filter(present);
  const c: Raw = isRecord(data.counts) ? data.counts : {};
  return {
    alerts,
    pagination: normalisePagination(data.pagination, alerts.length, { page: query.page, limit: query.limit ?? ALERTS_PAGE_SIZE }),
    counts: { open: whole(c.open), acknowledged: whole(c.acknowledged), resolved: whole(c.resolved) },
  };
}

export function normaliseBell(data: unknown): AlertBellWire | null {
  if (!isRecord(data)) return null;
  return { unread: whole(data.unread), open: whole(data.open), latest: listOf(data.latest).map(normaliseAlert).filter(present) };
}

export function normaliseAcknowledgeResult(data: unknown): AcknowledgeResultWire | null {
  if (!isRecord(data)) return null;
  return { acknowledged: ids(data.acknowledged), unchanged: ids(data.unchanged), notFound: ids(data.notFound) };
}

export function normaliseRule(raw: unknown): AlertRuleWire | null {
  if (!isRecord(raw)) return null;
  const kind = oneOf(ALERT_KINDS, raw.kind);
  if (!kind) return null;
  return {
    kind,
    enabled: bool(raw.enabled),
    usageLevels: numbers(raw.usageLevels),
    threshold: num(raw.threshold),
    notifyCustomer: bool(raw.notifyCustomer),
    subscribed: bool(raw.subscribed),
    overrides: whole(raw.overrides),
    actions: normaliseRuleActions(raw.actions),
    updatedAt: text(raw.updatedAt) ?? '',
  };
}

export function normaliseOverride(raw: unknown): AlertOverrideWire | null {
  if (!isRecord(raw)) return null;
  const kind = oneOf(ALERT_KINDS, raw.kind);
  const scope = oneOf(['customer', 'line'] as const, raw.scope);
  const key = text(raw.key);
  if (!kind || !scope || !key) return null;
  return {
    kind,
    scope,
    key,
    label: text(raw.label),
    enabled: bool(raw.enabled),
    usageLevels: numbers(raw.usageLevels),
    threshold: num(raw.threshold),
    actions: Array.isArray(raw.actions) ? normaliseRuleActions(raw.actions) : null,
    updatedAt: text(raw.updatedAt) ?? '',
  };
}

export function normaliseMyAlerts(data: unknown): MyAlertsWire | null {
  if (!isRecord(data) || !Array.isArray(data.alerts)) return null;
  return { alerts: data.alerts.map(normaliseAlert).filter(present) };
}

/** The query string of `GET /alerts`. */
export function alertListSearchParams(query: AlertListQuery): Record<string, string | number | undefined> {
  return {
    status: query.status ?? 'active',
    kind: query.kind ?? 'all',
    severity: query.severity ?? 'all',
    customer: query.customer || undefined,
    search: query.search || undefined,
    page: query.page ?? 1,
    limit: query.limit ?? ALERTS_PAGE_SIZE,
    ...(query.accountId !== undefined ? { account_id: query.accountId } : {}),
  };
}

const rulePath = (kind: AlertKind) => `/alert-rules/${encodeURIComponent(kind)}`;

export function createAlertsApi(client: ApiClient) {
  return {
    list: async (query: AlertListQuery = {}, signal?: AbortSignal): Promise<ApiResult<AlertListWire>> =>
      mapResult(
        await client.request<unknown>('/alerts', { query: alertListSearchParams(query), ...withSignal(signal) }),
        (data) => normaliseAlertList(data, query),
      ),

    /** The CSV of the list's status, kind, severity, customer and search: every page of it. */
    exportCsv: (query: AlertListQuery = {}, signal?: AbortSignal): Promise<ApiResult<Download>> =>
      downloadCsv(client, '/alerts/export.csv', alertListSearchParams(query), listExportFileName('alerts', new Date()), signal),

    bell: async (signal?: AbortSignal): Promise<ApiResult<AlertBellWire>> => mapResult(await client.request<unknown>('/alerts/bell', withSignal(signal)), normaliseBell),

    /** The bell was opened: its unread count starts again from now. */
    seen: async (signal?: AbortSignal): Promise<ApiResult<{ seenAt: string }>> =>
      mapResult(await client.request<unknown>('/alerts/bell/seen', { method: 'POST', ...withSignal(signal) }), (data) =>
        isRecord(data) ? { seenAt: text(data.seenAt) ?? '' } : null,
      ),

    acknowledge: async (alertIds: readonly string[], signal?: AbortSignal): Promise<ApiResult<AcknowledgeResultWire>> =>
      mapResult(await client.request<unknown>('/alerts/acknowledge', { method: 'POST', body: { ids: [...alertIds] }, ...withSignal(signal) }), normaliseAcknowledgeResult),

    rules: async (signal?: AbortSignal): Promise<ApiResult<AlertRuleWire[]>> =>
      mapResult(await client.request<unknown>('/alert-rules', withSignal(signal)), (data) => (Array.isArray(data) ? data.map(normaliseRule).filter(present) : null)),

    saveRule: async (kind: AlertKind, payload: AlertRulePayload, signal?: AbortSignal): Promise<ApiResult<AlertRuleWire>> =>
      mapResult(await client.request<unknown>(rulePath(kind), { method: 'PUT', body: payload, ...withSignal(signal) }), normaliseRule),

    /** The rule's actions at its levels (an empty list: notify only). */
    saveActions: async (kind: AlertKind, actions: readonly RuleActionWire[], signal?: AbortSignal): Promise<ApiResult<AlertRuleWire>> =>
      mapResult(await client.request<unknown>(`${rulePath(kind)}/actions`, { method: 'PUT', body: { actions: [...actions] }, ...withSignal(signal) }), normaliseRule),

    subscribe: async (kind: AlertKind, subscribed: boolean, signal?: AbortSignal): Promise<ApiResult<AlertRuleWire>> =>
      mapResult(await client.request<unknown>(`${rulePath(kind)}/subscription`, { method: 'PUT', body: { subscribed }, ...withSignal(signal) }), normaliseRule),

    overrides: async (kind: AlertKind, signal?: AbortSignal): Promise<ApiResult<AlertOverrideWire[]>> =>
      mapResult(await client.request<unknown>(`${rulePath(kind)}/overrides`, withSignal(signal)), (data) =>
        Array.isArray(data) ? data.map(normaliseOverride).filter(present) : null,
      ),

    saveOverride: async (kind: AlertKind, payload: AlertOverridePayload, signal?: AbortSignal): Promise<ApiResult<AlertOverrideWire>> =>
      mapResult(await client.request<unknown>(`${rulePath(kind)}/overrides`, { method: 'PUT', body: payload, ...withSignal(signal) }), normaliseOverride),

    // The answer's data is null: mapResult would read that as an unreadable answer.
    removeOverride: (kind: AlertKind, scope: 'customer' | 'line', key: string, signal?: AbortSignal): Promise<ApiResult<null>> =>
      client.request<null>(`${rulePath(kind)}/overrides/${encodeURIComponent(scope)}/${encodeURIComponent(key)}`, { method: 'DELETE', ...withSignal(signal) }),

    /** The customer's own alerts (`/my/alerts`). */
    mine: async (signal?: AbortSignal): Promise<ApiResult<MyAlertsWire>> => mapResult(await client.request<unknown>('/my/alerts', withSignal(signal)), normaliseMyAlerts),
  };
}

export type AlertsApi = ReturnType<typeof createAlertsApi>;
