import type { ApiClient, ApiResult } from './client';
import { withSignal } from './normalise';
import type {
  ProviderHealthResponse,
  ServiceLineDetails,
  ServiceLineSearchResponse,
  UserTerminalsResponse,
  ConsoleUsageRecord,
} from '../domain/provider-console';

/** Query of `GET /starlink-simulator/service-lines/{sl}/usage` (spec section 3 "Usage query parameters"). */
export interface ConsoleUsageQuery {
  start_date?: string;
  end_date?: string;
  limit?: number;
}

/** The provider console (`/starlink-simulator/*`, spec section 7 "Simulator"). Admin only. */
export function createProviderConsoleApi(client: ApiClient) {
  const slPath = (serviceLineNumber: string) => `/starlink-simulator/service-lines/${encodeURIComponent(serviceLineNumber)}`;

  return {
    /** A service line that does not exist is a success with `serviceLineFound: false`. */
    search: (serviceLineNumber: string, signal?: AbortSignal): Promise<ApiResult<ServiceLineSearchResponse>> =>
      client.request<ServiceLineSearchResponse>('/starlink-simulator/search', {
        method: 'POST',
        body: { serviceLineNumber },
        ...withSignal(signal),
      }),

    userTerminals: (signal?: AbortSignal): Promise<ApiResult<UserTerminalsResponse>> =>
      client.request<UserTerminalsResponse>('/starlink-simulator/user-terminals', withSignal(signal)),

    /** The connection test. */
    health: (signal?: AbortSignal): Promise<ApiResult<ProviderHealthResponse>> =>
      client.request<ProviderHealthResponse>('/starlink-simulator/health', withSignal(signal)),

    serviceLineDetails: (serviceLineNumber: string, signal?: AbortSignal): Promise<ApiResult<ServiceLineDetails>> =>
      client.request<ServiceLineDetails>(`${slPath(serviceLineNumber)}/details`, withSignal(signal)),

    serviceLineUsage: (
      serviceLineNumber: string,
      query: ConsoleUsageQuery = {},
      signal?: AbortSignal,
    ): Promise<ApiResult<ConsoleUsageRecord[]>> =>
      client.request<ConsoleUsageRecord[]>(`${slPath(serviceLineNumber)}/usage`, {
        query: { start_date: query.start_date, end_date: query.end_date, limit: query.limit },
        ...withSignal(signal),
      }),
  };
}

export type ProviderConsoleApi = ReturnType<typeof createProviderConsoleApi>;
