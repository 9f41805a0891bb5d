// Subscriptions (`/subscriptions`, spec sections 2 "Subscriptions" and 9): every terminal's plan
// for its current billing cycle, the plans the provider offers, and a plan change. Incoming
// fields may be snake_case or camelCase; rows that cannot be read are skipped, and an answer whose
// shape cannot be read at all is a failure (mapResult's null), never an empty page.
import { mapResult, type ApiClient, type ApiResult, type Download } from './client';
import { downloadCsv } from './csv';
import { listExportFileName } from '../domain/list-exports';
import { int, isRecord, pick, type Raw, text, withSignal } from './normalise';
import { rowAccount } from './account-refs';
import { listOf, num, oneOf } from './terminals';
import {
  DEFAULT_CURRENCY,
  SUBSCRIPTION_STATUSES,
  SUBSCRIPTIONS_PAGE_SIZE,
  TERMINAL_TYPES,
  planLabel,
  type SubscriptionForecast,
  type SubscriptionListWire,
  type SubscriptionPlanFilter,
  type SubscriptionPlanWire,
  type SubscriptionSummary,
  type SubscriptionWire,
} from '../domain/subscriptions';

export interface SubscriptionListQuery {
  page?: number;
  limit?: number;
  search?: string;
  plan?: SubscriptionPlanFilter;
  overPlan?: boolean;
  /** Only the terminals of this provider account; every account's when missing. */
  accountId?: number;
}

const gb = (value: unknown) => Math.max(0, num(value) ?? 0);
function normaliseCycle(raw: unknown): SubscriptionWire['billingCycle'] {
  if (!isRecord(raw)) return null;
  const startDate = text(pick(raw, 'startDate', 'start_date'));
  const endDate = text(pick(raw, 'endDate', 'end_date'));
  return startDate && endDate ? { startDate, endDate } : null;
}

function normaliseForecast(raw: unknown): SubscriptionForecast | null {
  if (!isRecord(raw)) return null;
  const projectedUsedGB = num(pick(raw, 'projectedUsedGB', 'projected_used_gb'));
  if (projectedUsedGB === null) return null;
  return {
    projectedUsedGB,
    projectedOverageGB: gb(pick(raw, 'projectedOverageGB', 'projected_overage_gb')),
    projectedCharges: gb(pick(raw, 'projectedCharges', 'projected_charges')),
  };
}

/** One row; null when it names neither a terminal nor a service line, or no plan size. */
export function normaliseSubscription(raw: unknown): SubscriptionWire | null {
  if (!isRecord(raw)) return null;
  const terminalId = text(pick(raw, 'terminalId', 'terminal_id'));
  const serviceLineNumber = text(pick(raw, 'serviceLineNumber', 'service_line_number'));
  const monthlyDataGB = num(pick(raw, 'monthlyDataGB', 'monthly_data_gb'));
  if ((terminalId === null && serviceLineNumber === null) || monthlyDataGB === null || monthlyDataGB < 0) return null;
  return {
    terminalId: terminalId ?? '',
    serviceLineNumber: serviceLineNumber ?? '',
    location: text(raw.location),
    terminalType: oneOf(TERMINAL_TYPES, pick(raw, 'terminalType', 'terminal_type')),
    plan: text(raw.plan) ?? planLabel(monthlyDataGB),
    productReferenceId: text(pick(raw, 'productReferenceId', 'product_reference_id')),
    monthlyDataGB,
    usedGB: gb(pick(raw, 'usedGB', 'used_gb')),
    remainingGB: gb(pick(raw, 'remainingGB', 'remaining_gb')),
    overageGB: gb(pick(raw, 'overageGB', 'overage_gb')),
    overageCharges: gb(pick(raw, 'overageCharges', 'overage_charges')),
    currency: text(raw.currency) ?? DEFAULT_CURRENCY,
    // Not known to be within its plan is not shown as Active.
    status: oneOf(SUBSCRIPTION_STATUSES, raw.status) ?? 'Suspended',
    billingCycle: normaliseCycle(pick(raw, 'billingCycle', 'billing_cycle')),
    forecast: normaliseForecast(raw.forecast),
    customerName: text(pick(raw, 'customerName', 'customer_name')),
    ...rowAccount(raw),
  };
}


function normaliseSummary(raw: unknown, fallbackTotal: number): SubscriptionSummary {
  const r: Raw = isRecord(raw) ? raw : {};
  const whole = (value: unknown) => Math.max(0, int(value, 0));
  return {
    totalTerminals: Math.max(0, int(pick(r, 'totalTerminals', 'total_terminals'), fallbackTotal)),
    plans50GB: whole(pick(r, 'plans50GB', 'plans_50gb')),
    plans1TB: whole(pick(r, 'plans1TB', 'plans_1tb')),
    overageTerminals: whole(pick(r, 'overageTerminals', 'overage_terminals')),
    totalOverageGB: gb(pick(r, 'totalOverageGB', 'total_overage_gb')),
  };
}

/** `GET /subscriptions` data; null when it holds no `subscriptions` list. */
export function normaliseSubscriptionPage(data: unknown, query: Pick<SubscriptionListQuery, 'page' | 'limit'> = {}): SubscriptionListWire | null {
  if (!isRecord(data) || !Array.isArray(data.subscriptions)) return null;
  const subscriptions = data.subscriptions.map(normaliseSubscription).filter((s): s is SubscriptionWire => s !== null);
  const p: Raw = isRecord(data.pagination) ? data.pagination : {};
  const limit = Math.max(1, int(p.limit, query.limit ?? SUBSCRIPTIONS_PAGE_SIZE));
  const total = Math.max(0, int(p.total, subscriptions.length));
  return {
    subscriptions,
    pagination: { total, page: Math.max(1, int(p.page, query.page ?? 1)), limit, pages: Math.max(0, int(p.pages, Math.ceil(total / limit))) },
    summary: normaliseSummary(data.summary, total),
  };
}

/** One offered plan; null without an id or a data size. */
export function normalisePlan(raw: unknown): SubscriptionPlanWire | null {
  if (!isRecord(raw)) return null;
  const productReferenceId = text(pick(raw, 'productReferenceId', 'product_reference_id'));
  const monthlyDataGB = num(pick(raw, 'monthlyDataGB', 'monthly_data_gb'));
  if (productReferenceId === null || monthlyDataGB === null || monthlyDataGB < 0) return null;
  return {
    productReferenceId,
    name: text(raw.name) ?? planLabel(monthlyDataGB),
    monthlyDataGB,
    price: num(raw.price),
    currency: text(raw.currency) ?? DEFAULT_CURRENCY,
  };
}

/** The query string of `GET /subscriptions`; parts not chosen are not sent. */
export function subscriptionListSearchParams(query: SubscriptionListQuery): Record<string, string | number | boolean | undefined> {
  const search = query.search?.trim();
  return {
    page: query.page ?? 1,
    limit: query.limit ?? SUBSCRIPTIONS_PAGE_SIZE,
    search: search ? search : undefined,
    plan: query.plan && query.plan !== 'all' ? query.plan : undefined,
    over_plan: query.overPlan ? true : undefined,
    account_id: query.accountId,
  };
}

export function createSubscriptionsApi(client: ApiClient) {
  /** One provider account's plans (a line may only move to a plan of its own account); the first account's for null. */
  const plansOf = async (accountId: number | null, signal?: AbortSignal): Promise<ApiResult<SubscriptionPlanWire[]>> =>
    mapResult(await client.request<unknown>('/subscriptions/plans', { query: { account_id: accountId ?? undefined }, ...withSignal(signal) }), (data) => {
      const list = Array.isArray(data) ? data : isRecord(data) && Array.isArray(data.plans) ? data.plans : null;
      return list && listOf(list).map(normalisePlan).filter((p): p is SubscriptionPlanWire => p !== null);
    });

  return {
    list: async (query: SubscriptionListQuery = {}, signal?: AbortSignal): Promise<ApiResult<SubscriptionListWire>> =>
      mapResult(
        await client.request<unknown>('/subscriptions', { query: subscriptionListSearchParams(query), ...withSignal(signal) }),
        (data) => normaliseSubscriptionPage(data, query),
      ),

    /** The CSV of the list's search and filters: every page of it. */
    exportCsv: (query: SubscriptionListQuery = {}, signal?: AbortSignal): Promise<ApiResult<Download>> =>
      downloadCsv(client, '/subscriptions/export.csv', subscriptionListSearchParams(query), listExportFileName('subscriptions', new Date()), signal),

    /** The first provider account's plans (as with one account); `plansOf` names the account. */
    plans: (signal?: AbortSignal): Promise<ApiResult<SubscriptionPlanWire[]>> => plansOf(null, signal),

    plansOf,

    /** The provider's refusal (422, 502, 504) comes back as ok:false with its message. */
    changePlan: async (serviceLineNumber: string, productReferenceId: string, signal?: AbortSignal): Promise<ApiResult<SubscriptionWire>> =>
      mapResult(
        await client.request<unknown>(`/subscriptions/${encodeURIComponent(serviceLineNumber)}/plan`, {
          method: 'PUT',
          body: { productReferenceId },
          ...withSignal(signal),
        }),
        (data) => (isRecord(data) ? normaliseSubscription(data.subscription) : null),
      ),
  };
}

export type SubscriptionsApi = ReturnType<typeof createSubscriptionsApi>;
