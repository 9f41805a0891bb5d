// The customer area's terminals: the overview, the list, a terminal's page, rename and
// reboot. Every call is about the signed-in customer's own account; none takes a customer id.
import type { ApiClient, ApiResult } from './client';
import type { MyOverviewWire, MyTerminalDetailWire, MyTerminalWire, RebootResultWire } from '../domain/my-area';

const opts = (signal?: AbortSignal) => (signal ? { signal } : {});
const terminalPath = (terminalId: string) => `/my/terminals/${encodeURIComponent(terminalId)}`;

export function createMyAreaApi(client: ApiClient) {
  return {
    overview: (signal?: AbortSignal): Promise<ApiResult<MyOverviewWire>> => client.request<MyOverviewWire>('/my/overview', opts(signal)),
    terminals: (signal?: AbortSignal): Promise<ApiResult<MyTerminalWire[]>> => client.request<MyTerminalWire[]>('/my/terminals', opts(signal)),
    /** `month` is `YYYY-MM`; none asks for the current month. */
    terminal: (input: { terminalId: string; month?: string | undefined }, signal?: AbortSignal): Promise<ApiResult<MyTerminalDetailWire>> =>
      client.request<MyTerminalDetailWire>(terminalPath(input.terminalId), { ...opts(signal), ...(input.month ? { query: { month: input.month } } : {}) }),
    rename: (input: { terminalId: string; name: string }, signal?: AbortSignal): Promise<ApiResult<{ terminalId: string; nickname: string }>> =>
      client.request(`${terminalPath(input.terminalId)}/name`, { method: 'PUT', body: { name: input.name }, ...opts(signal) }),
    reboot: (input: { terminalId: string }, signal?: AbortSignal): Promise<ApiResult<RebootResultWire>> =>
      client.request<RebootResultWire>(`${terminalPath(input.terminalId)}/reboot`, { method: 'POST', ...opts(signal) }),
  };
}

export type MyAreaApi = ReturnType<typeof createMyAreaApi>;
