// Which provider the portal talks to. With STARLINK_* settings: the real Starlink API. Without:
// the built-in simulator, mounted on this same server, reached through the very same client over
// HTTP — its address is only known once the server listens, hence `bind`.
//
// Every call takes its slot from the account's budget in the database once `useBudget` has been
// called (server.ts does, after opening the database): one limit for the account across every
// server process, people before background syncs. Clients are created after that, on first use.
import { randomBytes } from 'node:crypto';
import type { Clock } from './clock';
import type { Env } from './config';
import { createStarlinkClient, PROVIDER_DEFAULTS, providerSettingsFromEnv, type StarlinkClient } from './provider';
import type { ProviderAccess } from './services/console-provider';
import { providerAccountKey, type ProviderAccountRef, type ProviderCallBudget } from './services/provider-call-budget';
import { simulatorOptionsFromEnv, type SimulatorOptions } from './simulator';

/** Set by the cluster's primary in its workers' environment: the simulator it runs for them. */
export const SHARED_SIMULATOR_URL_ENV = 'PORTAL_SHARED_SIMULATOR_URL';

const blankToNull = (value: string | undefined): string | null => (value && value.trim() !== '' ? value.trim() : null);

/** A built-in simulator's service account when the operator sets none (SIM_CLIENT_ID/SECRET). */
export function generatedSimulatorCredentials(): { clientId: string; clientSecret: string } {
  return { clientId: `sim-${randomBytes(6).toString('hex')}`, clientSecret: randomBytes(24).toString('base64url') };
}

export interface ProviderSetup {
  access: ProviderAccess;
  /** Options to mount the built-in simulator with, or null when a real provider is configured. */
  simulator: SimulatorOptions | null;
  /** The account the clients call for: the key of its budget and its limit a minute. */
  account: ProviderAccountRef;
  /** Tells the built-in simulator's client where the server listens (`http://127.0.0.1:PORT/simulator/api`). */
  bind(simulatorBaseUrl: string): void;
  /** From now on the clients take their calls' slots from this budget (call before the first request). */
  useBudget(budget: ProviderCallBudget): void;
  describe(): string;
}

export function providerSetupFromEnv(env: Env, now: Clock): ProviderSetup {
  const settings = providerSettingsFromEnv(env);
  let budget: ProviderCallBudget | null = null;
  const limiter = () => (budget ? { limiter: budget } : {});

  if (settings) {
    let client: StarlinkClient | null = null;
    return {
      access: {
        kind: 'starlink',
        client: () => (client ??= createStarlinkClient({ ...settings, now, ...limiter() })),
        budget: () => budget,
      },
      simulator: null,
      account: {
        key: providerAccountKey(settings.apiUrl, settings.clientId),
        requestsPerMinute: settings.requestsPerMinute ?? PROVIDER_DEFAULTS.requestsPerMinute,
      },
      bind: () => undefined,
      useBudget(next) {
        budget = next;
      },
      describe: () => `Starlink API at ${settings.apiUrl}`,
    };
  }

  const fromEnv = simulatorOptionsFromEnv(env);
  // Mounted on the portal's public port: per-process credentials unless the operator sets them.
  const credentials = fromEnv.credentials ?? generatedSimulatorCredentials();
  const simulator: SimulatorOptions = { ...fromEnv, credentials };
  // Under WORKERS=N the cluster's primary process runs the one simulator every worker calls
  // (server/cluster.ts): each worker mounting its own would give each its own provider.
  const shared = blankToNull(env[SHARED_SIMULATOR_URL_ENV]);
  let client: StarlinkClient | null = null;
  let baseUrl: string | null = null;
  return {
    access: {
      kind: 'simulator',
      client: () => {
        if (!client) throw new Error('The built-in simulator is not listening yet');
        return client;
      },
      budget: () => budget,
    },
    simulator: shared ? null : simulator,
    // Each process mounts its own simulator: with per-process credentials, its own account (the
    // workers of a cluster share the primary's, and so one account and one budget).
    account: { key: providerAccountKey('simulator', credentials.clientId), requestsPerMinute: PROVIDER_DEFAULTS.requestsPerMinute },
    bind(url) {
      baseUrl = shared ?? url;
      client = createStarlinkClient({ apiUrl: baseUrl, tokenUrl: `${baseUrl}/auth/connect/token`, ...credentials, now, ...limiter() });
    },
    useBudget(next) {
      budget = next;
    },
    describe: () =>
      `built-in provider simulator at ${baseUrl ?? '(not bound)'} (${simulator.terminals ?? 156} terminals${shared ? ', run by the cluster primary for every worker' : ''})`,
  };
}
