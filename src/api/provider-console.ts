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

/**
 * The provider console (`/starlink-simulator/*`, spec section 7 "Simulator"). Admin only. Each call
 * takes the provider account it asks (`account_id`); without one the server asks its first enabled account.
 */
export function createProviderConsoleApi(client: ApiClient) {
  const account = (accountId: number | null) => (accountId === null ? {} : { account_id: accountId });
  const slPath = (serviceLineNumber: string) => `/starlink-simulator/service-lines/${encodeURIComponent(serviceLineNumber)}`;

  return {
    /** A service line that does not exist is a success with `serviceLineFound: false`. */
    search: (serviceLineNumber: string, signal?: AbortSignal, accountId: number | null = null): Promise<ApiResult<ServiceLineSearchResponse>> =>
      client.request<ServiceLineSearchResponse>('/starlink-simulator/search', {
        method: 'POST',
        body: { serviceLineNumber },
        query: account(accountId),
        ...withSignal(signal),
      }),

    userTerminals: (signal?: AbortSignal, accountId: number | null = null): Promise<ApiResult<UserTerminalsResponse>> =>
      client.request<UserTerminalsResponse>('/starlink-simulator/user-terminals', { query: account(accountId), ...withSignal(signal) }),

    /** The connection test. */
    health: (signal?: AbortSignal, accountId: number | null = null): Promise<ApiResult<ProviderHealthResponse>> =>
      client.request<ProviderHealthResponse>('/starlink-simulator/health', { query: account(accountId), ...withSignal(signal) }),

    serviceLineDetails: (serviceLineNumber: string, signal?: AbortSignal, accountId: number | null = null): Promise<ApiResult<ServiceLineDetails>> =>
      client.request<ServiceLineDetails>(`${slPath(serviceLineNumber)}/details`, { query: account(accountId), ...withSignal(signal) }),

    serviceLineUsage: (
      serviceLineNumber: string,
      query: ConsoleUsageQuery = {},
      signal?: AbortSignal,
      accountId: number | null = null,
    ): Promise<ApiResult<ConsoleUsageRecord[]>> =>
      client.request<ConsoleUsageRecord[]>(`${slPath(serviceLineNumber)}/usage`, {
        query: { start_date: query.start_date, end_date: query.end_date, limit: query.limit, ...account(accountId) },
        ...withSignal(signal),
      }),
  };
}

export type ProviderConsoleApi = ReturnType<typeof createProviderConsoleApi>;
