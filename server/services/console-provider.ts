// Adapts the Starlink client to what the provider console reads. The built-in simulator's client
// is created lazily: its URL is only known once the server listens.
import type { StarlinkClient } from '../provider';
import type { ProviderCallBudget } from './provider-call-budget';
import type { ConsoleProvider } from './provider-console';
import type { PServiceLine, PUsage } from './provider-console-map';

export interface ProviderAccess {
  kind: 'simulator' | 'starlink';
  client: () => StarlinkClient;
  /**
   * The account's call budget in the database, which the clients take every call's slot from
   * (server.ts sets it up). Absent or null: each client keeps its own in-process limit (tests).
   */
  budget?: () => ProviderCallBudget | null;
}

export function createConsoleProvider(access: ProviderAccess): ConsoleProvider {
  const client = () => access.client();
  return {
    kind: access.kind,
    getAccount: (options) => client().getAccount(options),
    // getAccount is cached by the client; the connection test wants a real round trip.
    checkConnection: (options) => client().getAccount({ ...options, fresh: true }),
    async getServiceLine(serviceLineNumber, options) {
      let raw: unknown = null;
      const record: PServiceLine = await client().getServiceLine(serviceLineNumber, { ...options, onRaw: (body) => (raw = body) });
      return { record, raw };
    },
    listServiceLines: async (options) => (await client().listServiceLines(options)).items,
    listUserTerminals: async (filters, options) => (await client().listUserTerminals(filters, options)).items,
    getAddress: (id, options) => client().getAddress(id, options),
    async queryUsage(serviceLineNumber, options) {
      let raw: unknown = null;
      const list = await client().queryDataUsage(
        { serviceLineNumbers: [serviceLineNumber], previousBillingCycles: 1, activeServiceLinesOnly: false },
        { ...options, onRaw: (body) => (raw = body) },
      );
      const record: PUsage | undefined = list.items.find((u) => u.serviceLineNumber === serviceLineNumber);
      return { record, raw };
    },
    queryTelemetry: async (ids, options) => (await client().queryTelemetry(ids, options)).userTerminals,
  };
}
