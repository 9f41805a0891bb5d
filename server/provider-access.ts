// Which provider the portal talks to. With STARLINK_* settings: the real Starlink API. Without:
// the built-in simulator, mounted on this same server, reached through the very same client over
// HTTP — its address is only known once the server listens, hence `bind`.
import { randomBytes } from 'node:crypto';
import type { Clock } from './clock';
import type { Env } from './config';
import { createStarlinkClient, providerSettingsFromEnv, type StarlinkClient } from './provider';
import type { ProviderAccess } from './services/console-provider';
import { simulatorOptionsFromEnv, type SimulatorOptions } from './simulator';

export interface ProviderSetup {
  access: ProviderAccess;
  /** Options to mount the built-in simulator with, or null when a real provider is configured. */
  simulator: SimulatorOptions | null;
  /** Tells the built-in simulator's client where the server listens (`http://127.0.0.1:PORT/simulator/api`). */
  bind(simulatorBaseUrl: string): void;
  describe(): string;
}

export function providerSetupFromEnv(env: Env, now: Clock): ProviderSetup {
  const settings = providerSettingsFromEnv(env);
  if (settings) {
    const client = createStarlinkClient({ ...settings, now });
    return {
      access: { kind: 'starlink', client: () => client },
      simulator: null,
      bind: () => undefined,
      describe: () => `Starlink API at ${settings.apiUrl}`,
    };
  }

  const fromEnv = simulatorOptionsFromEnv(env);
  // Mounted on the portal's public port: per-process credentials unless the operator sets them.
  const credentials = fromEnv.credentials ?? { clientId: `sim-${randomBytes(6).toString('hex')}`, clientSecret: randomBytes(24).toString('base64url') };
  const simulator: SimulatorOptions = { ...fromEnv, credentials };
  let client: StarlinkClient | null = null;
  let baseUrl: string | null = null;
  return {
    access: {
      kind: 'simulator',
      client: () => {
        if (!client) throw new Error('The built-in simulator is not listening yet');
        return client;
      },
    },
    simulator,
    bind(url) {
      baseUrl = url;
      client = createStarlinkClient({ apiUrl: url, tokenUrl: `${url}/auth/connect/token`, ...credentials, now });
    },
    describe: () => `built-in provider simulator at ${baseUrl ?? '(not bound)'} (${simulator.terminals ?? 156} terminals)`,
  };
}
