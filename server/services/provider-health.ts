// The dashboard's provider-health card: the console's connection test, remembered for a short
// while so that every dashboard load does not spend a provider call (250 a minute per account).
import type { DashboardSummary } from '../../src/domain/dashboard';
import type { ProviderHealthResponse } from '../../src/domain/provider-console';
import type { Clock } from '../clock';

export type ProviderHealth = DashboardSummary['providerHealth'];

export const PROVIDER_HEALTH_TTL_MS = 30_000;

export function createProviderHealth(deps: { check: (() => Promise<ProviderHealthResponse>) | null; now: Clock; ttlMs?: number }) {
  const ttl = deps.ttlMs ?? PROVIDER_HEALTH_TTL_MS;
  let last: { at: number; value: ProviderHealth } | null = null;
  let inFlight: Promise<ProviderHealth> | null = null;

  const check = deps.check;
  return async function providerHealth(): Promise<ProviderHealth> {
    if (!check) return { status: 'Not connected', checkedAt: null, detail: 'No provider configured' };
    const now = deps.now().getTime();
    if (last && now - last.at < ttl) return last.value;
    inFlight ??= check()
      .then((health) => {
        const source = health.provider === 'simulator' ? 'Built-in simulator' : 'Starlink';
        const detail =
          health.status === 'Down'
            ? (health.message ?? 'Connection test failed')
            : `${source} · ${health.accountNumber ?? 'unknown account'} · ${health.latencyMs ?? '?'} ms`;
        const value: ProviderHealth = { status: health.status, checkedAt: health.checkedAt, detail };
        last = { at: deps.now().getTime(), value };
        return value;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };
}
