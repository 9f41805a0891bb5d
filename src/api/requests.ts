// Customer requests: the customer's own (`/my/requests`: list, what a line may be asked
// for, a new request, cancel) and the admins' queue (`/requests`: list by status, approve,
// decline). The wire is the shared contract of src/domain/requests.ts; rows that cannot be read
// are skipped, and an answer whose shape cannot be read at all is a failure (mapResult's null).
// Refusals (400, 403, 404, 409, 502…) come back as ok:false with the server's words.
import { mapResult, type ApiClient, type ApiResult } from './client';
import { int, isRecord, present, type Raw, text, withSignal } from './normalise';
import { rowAccount } from './account-refs';
import { normalisePlan } from './subscriptions';
import { listOf, num, oneOf } from './terminals';
import {
  REQUEST_KINDS,
  REQUEST_STATUSES,
  REQUESTS_PAGE_SIZE,
  type CustomerRequestWire,
  type MyRequestsWire,
  type NewRequestPayload,
  type QueuedRequestWire,
  type RequestOptionsWire,
  type RequestQueueWire,
  type RequestStatusFilter,
} from '../domain/requests';
import { normalisePagination } from './customers';
import type { DataProductWire } from '../domain/service-lines';

export interface RequestQueueQuery {
  status?: RequestStatusFilter;
  page?: number;
  limit?: number;
  /** Only the requests about this provider account's lines; every account's when missing. */
  accountId?: number;
}

const whole = (value: unknown) => Math.max(0, int(value, 0));

/** One request; null without an id, a known kind and status, or a line. */
export function normaliseRequest(raw: unknown): CustomerRequestWire | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  const kind = oneOf(REQUEST_KINDS, raw.kind);
  const status = oneOf(REQUEST_STATUSES, raw.status);
  const serviceLineNumber = text(raw.serviceLineNumber);
  if (!id || !kind || !status || !serviceLineNumber) return null;
  const plan: Raw | null = isRecord(raw.plan) ? raw.plan : null;
  const topUp: Raw | null = isRecord(raw.topUp) ? raw.topUp : null;
  return {
    id,
    kind,
    serviceLineNumber,
    terminalNickname: text(raw.terminalNickname),
    plan: plan
      ? { productReferenceId: text(plan.productReferenceId) ?? '', name: text(plan.name), monthlyDataGB: num(plan.monthlyDataGB), price: num(plan.price), currency: text(plan.currency) }
      : null,
    topUp: topUp
      ? { productId: text(topUp.productId) ?? '', count: Math.max(1, int(topUp.count, 1)), dataGB: num(topUp.dataGB), price: num(topUp.price), currency: text(topUp.currency) }
      : null,
    note: text(raw.note),
    status,
    reason: text(raw.reason),
    createdAt: text(raw.createdAt) ?? '',
    decidedAt: text(raw.decidedAt),
  };
}

export function normaliseQueuedRequest(raw: unknown): QueuedRequestWire | null {
  const request = normaliseRequest(raw);
  if (!request || !isRecord(raw) || !isRecord(raw.customer)) return null;
  const customer = raw.customer;
  return {
    ...request,
    customer: { uuid: text(customer.uuid) ?? '', name: text(customer.name) ?? 'Customer', company: text(customer.company) ?? '' },
    decidedBy: text(raw.decidedBy),
    ...rowAccount(raw),
  };
}

export function normaliseMyRequests(data: unknown): MyRequestsWire | null {
  if (!isRecord(data) || !Array.isArray(data.requests)) return null;
  return {
    requests: data.requests.map(normaliseRequest).filter(present),
    lines: listOf(data.lines)
      .map((raw) => {
        if (!isRecord(raw)) return null;
        const serviceLineNumber = text(raw.serviceLineNumber);
        return serviceLineNumber ? { serviceLineNumber, nickname: text(raw.nickname) } : null;
      })
      .filter(present),
  };
}

function product(raw: unknown): DataProductWire | null {
  if (!isRecord(raw)) return null;
  const productId = text(raw.productId);
  const dataGB = num(raw.dataGB);
  const price = num(raw.price);
  return productId && dataGB !== null && price !== null ? { productId, dataGB, price, currency: text(raw.currency) ?? 'USD' } : null;
}

export function normaliseRequestOptions(data: unknown): RequestOptionsWire | null {
  if (!isRecord(data)) return null;
  const serviceLineNumber = text(data.serviceLineNumber);
  if (!serviceLineNumber) return null;
  const current: Raw = isRecord(data.currentPlan) ? data.currentPlan : {};
  const topUp: Raw | null = isRecord(data.topUp) ? data.topUp : null;
  const topUpProduct = topUp ? product(topUp.product) : null;
  return {
    serviceLineNumber,
    currentPlan: { productReferenceId: text(current.productReferenceId) ?? '', name: text(current.name) },
    plans: listOf(data.plans).map(normalisePlan).filter(present),
    topUp: topUp && topUpProduct ? { product: topUpProduct, blocksLeft: whole(topUp.blocksLeft) } : null,
  };
}

export function normaliseRequestQueue(data: unknown, query: RequestQueueQuery = {}): RequestQueueWire | null {
  if (!isRecord(data) || !Array.isArray(data.requests)) return null;
  const requests = data.requests.map(normaliseQueuedRequest).filter(present);
  const c: Raw = isRecord(data.counts) ? data.counts : {};
  return {
    requests,
    pagination: normalisePagination(data.pagination, requests.length, { page: query.page, limit: query.limit ?? REQUESTS_PAGE_SIZE }),
    counts: { pending: whole(c.pending), approved: whole(c.approved), declined: whole(c.declined), cancelled: whole(c.cancelled) },
  };
}

export function createRequestsApi(client: ApiClient) {
  return {
    mine: async (signal?: AbortSignal): Promise<ApiResult<MyRequestsWire>> =>
      mapResult(await client.request<unknown>('/my/requests', withSignal(signal)), normaliseMyRequests),

    options: async (serviceLineNumber: string, signal?: AbortSignal): Promise<ApiResult<RequestOptionsWire>> =>
      mapResult(await client.request<unknown>('/my/requests/options', { query: { serviceLineNumber }, ...withSignal(signal) }), normaliseRequestOptions),

    create: async (payload: NewRequestPayload, signal?: AbortSignal): Promise<ApiResult<CustomerRequestWire>> =>
      mapResult(await client.request<unknown>('/my/requests', { method: 'POST', body: payload, ...withSignal(signal) }), normaliseRequest),

    cancel: async (id: string, signal?: AbortSignal): Promise<ApiResult<CustomerRequestWire>> =>
      mapResult(await client.request<unknown>(`/my/requests/${encodeURIComponent(id)}/cancel`, { method: 'POST', ...withSignal(signal) }), normaliseRequest),

    queue: async (query: RequestQueueQuery = {}, signal?: AbortSignal): Promise<ApiResult<RequestQueueWire>> =>
      mapResult(
        await client.request<unknown>('/requests', {
          query: {
            status: query.status ?? 'pending',
            page: query.page ?? 1,
            limit: query.limit ?? REQUESTS_PAGE_SIZE,
            ...(query.accountId !== undefined ? { account_id: query.accountId } : {}),
          },
          ...withSignal(signal),
        }),
        (data) => normaliseRequestQueue(data, query),
      ),

    approve: async (id: string, signal?: AbortSignal): Promise<ApiResult<QueuedRequestWire>> =>
      mapResult(await client.request<unknown>(`/requests/${encodeURIComponent(id)}/approve`, { method: 'POST', ...withSignal(signal) }), normaliseQueuedRequest),

    decline: async (id: string, reason: string, signal?: AbortSignal): Promise<ApiResult<QueuedRequestWire>> =>
      mapResult(
        await client.request<unknown>(`/requests/${encodeURIComponent(id)}/decline`, { method: 'POST', body: { reason }, ...withSignal(signal) }),
        normaliseQueuedRequest,
      ),
  };
}

export type RequestsApi = ReturnType<typeof createRequestsApi>;
