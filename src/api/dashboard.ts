import type { ApiClient, ApiResult } from './client';
import type { DashboardSummary } from '../domain/dashboard';

export function createDashboardApi(client: ApiClient) {
  return {
    summary: (signal?: AbortSignal): Promise<ApiResult<DashboardSummary>> =>
      client.request<DashboardSummary>('/dashboard/summary', signal ? { signal } : {}),
  };
}

export type DashboardApi = ReturnType<typeof createDashboardApi>;
