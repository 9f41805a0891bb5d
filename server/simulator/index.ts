// The built-in Starlink Public API v2 simulator. The portal mounts `simulatorPlugin` under
// /simulator/api; `startSimulator` runs it on its own port (tests of the provider client, the
// CLI), under /api so that its base URL mirrors https://starlink.com/api.
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Fleet } from './fleet/index';
import type { Faults, SimulatorCredentials, SimulatorOptions } from './options';
import { simulatorPlugin } from './plugin';
import { createSimulator, type Simulator } from './runtime';

export { createFleet, DEFAULT_SEED, DEFAULT_TERMINALS, type Fleet, type FleetExamples, type FleetStats } from './fleet/index';
export { DEFAULT_CURRENCY, modelOf, MODELS, PLANS, priceIn, USD_RATES, type Plan, type TerminalModel } from './catalog';
export {
  DEMO_CREDENTIALS,
  NO_FAULTS,
  ACCOUNT_PRESETS,
  DEFAULT_SIM_ACCOUNTS,
  PROVIDER_RATE_LIMIT_PER_MINUTE,
  simulatedAccountsFromEnv,
  simulatorOptionsFromEnv,
  type Faults,
  type SimulatedAccount,
  type SimulatorCredentials,
  type SimulatorOptions,
} from './options';
export { PAGE_SIZE, USAGE_DEFAULT_LIMIT, USAGE_MAX_LIMIT, simulatorPlugin, type SimulatorPluginOptions } from './plugin';
export { createSimulator, type Simulator, type SimulatorStats } from './runtime';
export type * from './wire';

export const DEFAULT_PREFIX = '/api';

export interface StartSimulatorOptions extends SimulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default '/api', so baseUrl mirrors https://starlink.com/api. */
  prefix?: string;
}

export interface RunningSimulator {
  /** e.g. http://127.0.0.1:41234/api */
  baseUrl: string;
  /** `${baseUrl}/auth/connect/token` */
  tokenUrl: string;
  credentials: SimulatorCredentials;
  fleet: Fleet;
  setFaults(faults: Partial<Faults>): void;
  /** Expires every token issued so far (see Simulator.expireTokens). */
  expireTokens(): number;
  close(): Promise<void>;
  simulator: Simulator;
  app: FastifyInstance;
}

export async function startSimulator(options: StartSimulatorOptions = {}): Promise<RunningSimulator> {
  const { port = 0, host = '127.0.0.1', prefix: rawPrefix = DEFAULT_PREFIX, ...simulatorOptions } = options;
  const prefix = rawPrefix === '' || rawPrefix === '/' ? '' : `/${rawPrefix.replace(/^\/+|\/+$/g, '')}`;
  const simulator = createSimulator(simulatorOptions);
  // Close drops open keep-alive sockets at once, so test teardown never waits on a client.
  const app = Fastify({ logger: false, forceCloseConnections: true });
  await app.register(simulatorPlugin, { prefix, simulator, controls: simulatorOptions.controls ?? false });
  await app.listen({ port, host });
  const address = app.server.address() as AddressInfo;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const baseUrl = `http://${urlHost}:${address.port}${prefix}`;
  return {
    baseUrl,
    tokenUrl: `${baseUrl}/auth/connect/token`,
    credentials: { ...simulator.credentials },
    fleet: simulator.fleet,
    setFaults: (faults) => simulator.setFaults(faults),
    expireTokens: () => simulator.expireTokens(),
    close: () => app.close(),
    simulator,
    app,
  };
}
