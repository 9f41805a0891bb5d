// Service lines (`/service-lines/{serviceLineNumber}/…`): the settings of one line as the provider
// holds them (Terminal Details → Settings) and the changes an administrator may make to it. Every
// change answers the line's settings afresh. The wire is the shared contract of
// src/domain/service-lines.ts; an answer that does not read as one is a failure (mapResult's null).
// Refusals (400 validation, 403 not an admin, 404 unknown line, 409 the provider refused, 502/504
// provider unavailable) come back as ok:false with the server's words.
import { mapResult, type ApiClient, type ApiResult } from './client';
import { bool, int, isRecord, present, type Raw, text, withSignal } from './normalise';
import { listOf, num } from './terminals';
import type {
  DataProductWire,
  DeactivateLinePayload,
  MoveTerminalPayload,
  PartialPeriodWire,
  RecurringBlocksPayload,
  RecurringBlocksWire,
  RouterConfigPayload,
  RouterWire,
  ServiceLineSettingsWire,
  TopUpPayload,
} from '../domain/service-lines';

const whole = (value: unknown) => Math.max(0, int(value, 0));

function product(raw: unknown): DataProductWire | null {
  if (!isRecord(raw)) return null;
  const productId = text(raw.productId);
  const dataGB = num(raw.dataGB);
  const price = num(raw.price);
  if (productId === null || dataGB === null || price === null) return null;
  return { productId, dataGB, price, currency: text(raw.currency) ?? 'USD' };
}

function blocks(raw: unknown): RecurringBlocksWire | null {
  if (!isRecord(raw)) return null;
  const productId = text(raw.productId);
  if (productId === null) return null;
  return { productId, count: whole(raw.count), dataGB: Math.max(0, num(raw.dataGB) ?? 0) };
}

function period(raw: unknown): PartialPeriodWire | null {
  if (!isRecord(raw)) return null;
  const productReferenceId = text(raw.productReferenceId);
  const periodStart = text(raw.periodStart);
  const periodEnd = text(raw.periodEnd);
  return productReferenceId && periodStart && periodEnd ? { productReferenceId, periodStart, periodEnd } : null;
}

function router(raw: unknown): RouterWire | null {
  if (!isRecord(raw)) return null;
  const routerId = text(raw.routerId);
  return routerId ? { routerId, nickname: text(raw.nickname), configId: text(raw.configId) } : null;
}

/** `GET /service-lines/{sl}/settings` data (and every change's answer); null without a line number. */
export function normaliseLineSettings(data: unknown): ServiceLineSettingsWire | null {
  if (!isRecord(data)) return null;
  const serviceLineNumber = text(data.serviceLineNumber);
  if (serviceLineNumber === null) return null;
  const customer: Raw | null = isRecord(data.customer) ? data.customer : null;
  const customerUuid = customer ? text(customer.uuid) : null;
  return {
    serviceLineNumber,
    nickname: text(data.nickname),
    productReferenceId: text(data.productReferenceId) ?? '',
    planName: text(data.planName),
    planKind: data.planKind === 'blocks' ? 'blocks' : 'metered',
    active: bool(data.active),
    endDate: text(data.endDate),
    publicIp: bool(data.publicIp),
    optedIn: bool(data.optedIn),
    recurringBlocks: blocks(data.recurringBlocks),
    nextRecurringBlocks: blocks(data.nextRecurringBlocks),
    blockProducts: listOf(data.blockProducts).map(product).filter(present),
    topUpProduct: product(data.topUpProduct),
    topUpBlocksThisCycle: whole(data.topUpBlocksThisCycle),
    topUpBlocksLeft: whole(data.topUpBlocksLeft),
    partialPeriods: listOf(data.partialPeriods).map(period).filter(present),
    customer: customer && customerUuid ? { uuid: customerUuid, name: text(customer.name) ?? 'Customer' } : null,
    terminals: listOf(data.terminals)
      .filter(isRecord)
      .map((t) => ({ deviceId: text(t.deviceId) ?? '', kitSerialNumber: text(t.kitSerialNumber) ?? '', nickname: text(t.nickname), routers: listOf(t.routers).map(router).filter(present) }))
      .filter((t) => t.deviceId !== '' || t.kitSerialNumber !== ''),
    routerConfigs: listOf(data.routerConfigs)
      .filter(isRecord)
      .map((c) => ({ configId: text(c.configId) ?? '', nickname: text(c.nickname) }))
      .filter((c) => c.configId !== ''),
  };
}

export function createServiceLinesApi(client: ApiClient) {
  const path = (serviceLineNumber: string, rest: string) => `/service-lines/${encodeURIComponent(serviceLineNumber)}/${rest}`;
  const change = async (
    serviceLineNumber: string,
    rest: string,
    method: 'PUT' | 'POST' | 'DELETE',
    body: unknown,
    signal?: AbortSignal,
  ): Promise<ApiResult<ServiceLineSettingsWire>> =>
    mapResult(await client.request<unknown>(path(serviceLineNumber, rest), { method, body, ...withSignal(signal) }), normaliseLineSettings);

  return {
    /** Any portal user. */
    settings: async (serviceLineNumber: string, signal?: AbortSignal): Promise<ApiResult<ServiceLineSettingsWire>> =>
      mapResult(await client.request<unknown>(path(serviceLineNumber, 'settings'), withSignal(signal)), normaliseLineSettings),

    // The changes below are for administrators (403 otherwise).
    rename: (serviceLineNumber: string, nickname: string, signal?: AbortSignal) =>
      change(serviceLineNumber, 'nickname', 'PUT', { nickname }, signal),

    setPublicIp: (serviceLineNumber: string, publicIp: boolean, signal?: AbortSignal) =>
      change(serviceLineNumber, 'public-ip', 'PUT', { publicIp }, signal),

    setPriorityData: (serviceLineNumber: string, optedIn: boolean, signal?: AbortSignal) =>
      change(serviceLineNumber, 'priority-data', 'PUT', { optedIn }, signal),

    setRecurringBlocks: (serviceLineNumber: string, payload: RecurringBlocksPayload, signal?: AbortSignal) =>
      change(serviceLineNumber, 'recurring-blocks', 'PUT', payload, signal),

    topUp: (serviceLineNumber: string, payload: TopUpPayload, signal?: AbortSignal) =>
      change(serviceLineNumber, 'top-up', 'POST', payload, signal),

    deactivate: (serviceLineNumber: string, payload: DeactivateLinePayload, signal?: AbortSignal) =>
      change(serviceLineNumber, 'deactivate', 'POST', payload, signal),

    moveTerminal: (serviceLineNumber: string, userTerminalId: string, payload: MoveTerminalPayload, signal?: AbortSignal) =>
      change(serviceLineNumber, `terminals/${encodeURIComponent(userTerminalId)}/move`, 'POST', payload, signal),

    removeTerminal: (serviceLineNumber: string, userTerminalId: string, signal?: AbortSignal) =>
      change(serviceLineNumber, `terminals/${encodeURIComponent(userTerminalId)}`, 'DELETE', undefined, signal),

    rebootRouter: (serviceLineNumber: string, routerId: string, signal?: AbortSignal) =>
      change(serviceLineNumber, `routers/${encodeURIComponent(routerId)}/reboot`, 'POST', undefined, signal),

    setRouterConfig: (serviceLineNumber: string, routerId: string, payload: RouterConfigPayload, signal?: AbortSignal) =>
      change(serviceLineNumber, `routers/${encodeURIComponent(routerId)}/config`, 'PUT', payload, signal),
  };
}

export type ServiceLinesApi = ReturnType<typeof createServiceLinesApi>;
