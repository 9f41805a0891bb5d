// "View as customer": the admin preview reads a customer's area through /customers/{uuid}/preview/…,
// which answers exactly what the customer's own /my routes answer. The functions have the same
// shapes as the customer's own (src/api/my-area.ts, src/api/requests.ts), so the area's pages run
// on either source unchanged.
import type { MyAlertsWire } from '../domain/alerts';
import type { CustomerListItem } from '../domain/customers';
import type { MyOverviewWire, MyTerminalDetailWire, MyTerminalWire } from '../domain/my-area';
import type { MyRequestsWire } from '../domain/requests';
import { normaliseMyAlerts } from './alerts';
import { mapResult, type ApiClient, type ApiResult } from './client';
import { normaliseCustomer } from './customers';
import { withSignal } from './normalise';
import { normaliseMyRequests } from './requests';

export function createCustomerPreviewApi(client: ApiClient) {
  return (customerUuid: string) => {
    const base = `/customers/${encodeURIComponent(customerUuid)}/preview`;
    return {
      /** Opens the preview (the server records who looked) and answers the customer shown. */
      open: async (signal?: AbortSignal): Promise<ApiResult<CustomerListItem>> =>
        mapResult(await client.request<{ customer?: unknown }>(base, { method: 'POST', ...withSignal(signal) }), (data) => normaliseCustomer(data?.customer)),
      overview: (signal?: AbortSignal): Promise<ApiResult<MyOverviewWire>> => client.request<MyOverviewWire>(`${base}/overview`, withSignal(signal)),
      terminals: (signal?: AbortSignal): Promise<ApiResult<MyTerminalWire[]>> => client.request<MyTerminalWire[]>(`${base}/terminals`, withSignal(signal)),
      terminal: (input: { terminalId: string; month?: string | undefined }, signal?: AbortSignal): Promise<ApiResult<MyTerminalDetailWire>> =>
        client.request<MyTerminalDetailWire>(`${base}/terminals/${encodeURIComponent(input.terminalId)}`, {
          ...withSignal(signal),
          ...(input.month ? { query: { month: input.month } } : {}),
        }),
      requests: async (signal?: AbortSignal): Promise<ApiResult<MyRequestsWire>> =>
        mapResult(await client.request<unknown>(`${base}/requests`, withSignal(signal)), normaliseMyRequests),
      alerts: async (signal?: AbortSignal): Promise<ApiResult<MyAlertsWire>> =>
        mapResult(await client.request<unknown>(`${base}/alerts`, withSignal(signal)), normaliseMyAlerts),
    };
  };
}

export type CustomerPreviewApi = ReturnType<ReturnType<typeof createCustomerPreviewApi>>;
