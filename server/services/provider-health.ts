import type { DashboardSummary } from '../../src/domain/dashboard';

export type ProviderHealth = DashboardSummary['providerHealth'];

/** Placeholder until the provider integration exists; that issue replaces this function. */
export async function providerHealth(): Promise<ProviderHealth> {
  return { status: 'Not connected', checkedAt: null, detail: 'No provider configured yet' };
}
