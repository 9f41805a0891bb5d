// The provider console (spec "Starlink-style API simulator" page): looks a service line or the
// whole terminal inventory up at the provider, through the same client the sync uses, and answers
// the portal's console shapes with measured call durations and the raw provider answers.
import {
  CONSOLE_MESSAGES,
  PROVIDER_API_VERSION,
  type ProviderHealthResponse,
  type ServiceLineDetails,
  type ServiceLineSearchResponse,
  type UserTerminalsResponse,
} from '../../src/domain/provider-console';
import type { Clock } from '../clock';
import { NotFoundError } from '../errors';
import { ProviderNotFoundError } from '../provider/errors';
import { providerFailure } from './provider-failures';
import {
  currentCycle,
  cycleUsedGB,
  dataAllowanceLabel,
  dataCap,
  isOnline,
  mapConsoleTerminal,
  mapDataBlocks,
  mapLocation,
  mapProduct,
  mapUsageRecords,
  modelFromHardware,
  terminalStats,
  usageStats,
  type PAccount,
  type PAddress,
  type PServiceLine,
  type PTelemetry,
  type PUsage,
  type PUserTerminal,
} from './provider-console-map';

/** What the console needs from the provider client (server/provider satisfies it). */
export interface ConsoleProvider {
  kind: 'simulator' | 'starlink';
  getAccount(options?: { signal?: AbortSignal }): Promise<PAccount>;
  /** One fresh authenticated call (no cache), for the connection test. */
  checkConnection(options?: { signal?: AbortSignal }): Promise<PAccount>;
  getServiceLine(serviceLineNumber: string, options?: { signal?: AbortSignal }): Promise<{ record: PServiceLine; raw: unknown }>;
  listServiceLines(options?: { signal?: AbortSignal }): Promise<PServiceLine[]>;
  listUserTerminals(filters: { serviceLineNumbers?: string[] }, options?: { signal?: AbortSignal }): Promise<PUserTerminal[]>;
  getAddress(addressReferenceId: string, options?: { signal?: AbortSignal }): Promise<PAddress>;
  queryUsage(serviceLineNumber: string, options?: { signal?: AbortSignal }): Promise<{ record: PUsage | undefined; raw: unknown }>;
  queryTelemetry(userTerminalIds: string[] | undefined, options?: { signal?: AbortSignal }): Promise<Record<string, PTelemetry>>;
}

const isNotFound = (error: unknown) => error instanceof ProviderNotFoundError;

/** Addresses rarely change: the terminal list looks each up once, a bounded number per call. */
const ADDRESS_LOOKUPS_PER_CALL = 100;
const ADDRESS_LOOKUP_CONCURRENCY = 8;
const SLOW_PROVIDER_MS = 2_000;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  });
  await Promise.all(workers);
  return results;
}

export function createProviderConsoleService(deps: { provider: (accountId?: number) => Promise<ConsoleProvider>; now: Clock }) {
  const addressCache = new Map<string, PAddress>();

  async function address(provider: ConsoleProvider, id: string | null | undefined): Promise<PAddress | undefined> {
    if (!id) return undefined;
    const cached = addressCache.get(id);
    if (cached) return cached;
    try {
      const found = await provider.getAddress(id);
      addressCache.set(id, found);
      return found;
    } catch (error) {
      // A missing address leaves the location empty; it does not fail the lookup.
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async function details(provider: ConsoleProvider, line: PServiceLine, usage: PUsage | undefined): Promise<ServiceLineDetails> {
    const now = deps.now();
    const [account, terminals, place] = await Promise.all([
      provider.getAccount(),
      provider.listUserTerminals({ serviceLineNumbers: [line.serviceLineNumber] }),
      address(provider, line.addressReferenceId),
    ]);
    const terminal = terminals[0];
    const telemetry = terminal ? (await provider.queryTelemetry([terminal.userTerminalId]))[terminal.userTerminalId] : undefined;
    const cycle = currentCycle(usage, now);
    const used = cycleUsedGB(cycle);
    const product = mapProduct(line, usage, null);
    const active = Boolean(line.active);
    return {
      serviceLineNumber: line.serviceLineNumber,
      active,
      status: active ? 'Active' : 'Inactive',
      nickname: line.nickname ?? null,
      productType: product?.type ?? null,
      dataAllowance: dataAllowanceLabel(usage?.servicePlan?.usageLimitGB),
      userTerminalId: terminal?.userTerminalId ?? null,
      kitSerialNumber: terminal?.kitSerialNumber ?? null,
      dishSerialNumber: terminal?.dishSerialNumber ?? null,
      addressReference: line.addressReferenceId ?? null,
      dataCap: dataCap(usage?.servicePlan?.usageLimitGB),
      billingCycle: { start: cycle?.startDate ?? null, end: cycle?.endDate ?? null },
      product,
      location: mapLocation(place, line.addressReferenceId ?? null),
      dataBlocks: mapDataBlocks(line, used, now),
      terminal: terminal
        ? {
            model: modelFromHardware(telemetry?.hardwareVersion),
            hardwareVersion: telemetry?.hardwareVersion ?? null,
            softwareVersion: telemetry?.softwareVersion ?? null,
            // The provider reports one software build; the dish firmware is that build.
            firmwareVersion: telemetry?.softwareVersion ?? null,
            installationDate: line.startDate ?? null,
            lastSeen: telemetry?.timestamp ?? null,
          }
        : null,
      serviceHistory: [
        ...(line.startDate ? [{ type: 'Activation', description: 'Service line activated', status: 'Completed', date: line.startDate }] : []),
        ...(line.endDate ? [{ type: 'Deactivation', description: 'Service line ended', status: 'Completed', date: line.endDate }] : []),
        ...(terminal
          ? [{ type: 'Terminal', description: `Terminal ${terminal.userTerminalId} attached`, status: isOnline(telemetry, now) ? 'Online' : 'Offline', date: line.startDate ?? now.toISOString() }]
          : []),
      ],
      account: {
        accountNumber: account.accountNumber,
        accountType: 'Enterprise',
        customerType: 'Reseller',
        organization: account.accountName ?? account.accountNumber,
      },
    };
  }

  function emptySearch(timestamp: string, started: number, error: string | null, accountNumber: string | null): ServiceLineSearchResponse {
    return {
      success: error === null,
      serviceLineFound: false,
      error,
      timestamp,
      apiCallDuration: Math.round(performance.now() - started),
      serviceLineDetails: null,
      usageData: [],
      usageStats: { totalUsageGB: 0, totalRecords: 0, dateRange: { start: null, end: null } },
      metadata: {
        apiVersion: PROVIDER_API_VERSION,
        accountNumber,
        timestamp,
        dataFreshness: { serviceLineDetails: null, usageData: null },
      },
      rawApiResponses: { serviceLineDetails: null, usageData: null },
    };
  }

  return {
    /** Service line details plus its usage; a line the provider does not know is `serviceLineFound: false`. */
    async search(serviceLineNumber: string, accountId?: number): Promise<ServiceLineSearchResponse> {
      const provider = await deps.provider(accountId);
      const started = performance.now();
      const timestamp = deps.now().toISOString();
      try {
        let line;
        try {
          line = await provider.getServiceLine(serviceLineNumber);
        } catch (error) {
          if (!isNotFound(error)) throw error;
          const account = await provider.getAccount();
          return emptySearch(timestamp, started, null, account.accountNumber);
        }
        const usage = await provider.queryUsage(serviceLineNumber);
        const [serviceLineDetails, account] = await Promise.all([details(provider, line.record, usage.record), provider.getAccount()]);
        const usageData = mapUsageRecords(usage.record);
        return {
          success: true,
          serviceLineFound: true,
          error: null,
          timestamp,
          apiCallDuration: Math.round(performance.now() - started),
          serviceLineDetails,
          usageData,
          usageStats: usageStats(usageData),
          metadata: {
            apiVersion: PROVIDER_API_VERSION,
            accountNumber: account.accountNumber,
            timestamp,
            dataFreshness: { serviceLineDetails: timestamp, usageData: usage.record?.lastUpdated ?? null },
          },
          rawApiResponses: { serviceLineDetails: line.raw, usageData: usage.raw },
        };
      } catch (error) {
        throw providerFailure(error, CONSOLE_MESSAGES.apiFailed);
      }
    },

    async serviceLineDetails(serviceLineNumber: string, accountId?: number): Promise<ServiceLineDetails> {
      const provider = await deps.provider(accountId);
      try {
        const line = await provider.getServiceLine(serviceLineNumber);
        const usage = await provider.queryUsage(serviceLineNumber);
        return await details(provider, line.record, usage.record);
      } catch (error) {
        if (isNotFound(error)) throw new NotFoundError('Service line not found');
        throw providerFailure(error, CONSOLE_MESSAGES.detailsFailed);
      }
    },

    async serviceLineUsage(serviceLineNumber: string, query: { start_date?: string; end_date?: string; limit?: number }, accountId?: number) {
      const provider = await deps.provider(accountId);
      try {
        await provider.getServiceLine(serviceLineNumber);
        const usage = await provider.queryUsage(serviceLineNumber);
        const usageData = mapUsageRecords(usage.record, { start: query.start_date ?? null, end: query.end_date ?? null, limit: query.limit ?? null });
        return { serviceLineNumber, usageData, usageStats: usageStats(usageData), lastUpdated: usage.record?.lastUpdated ?? null };
      } catch (error) {
        if (isNotFound(error)) throw new NotFoundError('Service line not found');
        throw providerFailure(error, CONSOLE_MESSAGES.usageFailed);
      }
    },

    /** Every user terminal of the provider account with its line's status, region, model and connectivity. */
    async userTerminals(accountId?: number): Promise<UserTerminalsResponse> {
      const provider = await deps.provider(accountId);
      const started = performance.now();
      const now = deps.now();
      try {
        const [account, terminals, lines, telemetry] = await Promise.all([
          provider.getAccount(),
          provider.listUserTerminals({}),
          provider.listServiceLines(),
          provider.queryTelemetry(undefined),
        ]);
        const byLine = new Map(lines.map((line) => [line.serviceLineNumber, line]));
        const unknownAddresses = [...new Set(lines.map((l) => l.addressReferenceId).filter((id): id is string => Boolean(id) && !addressCache.has(id!)))];
        await mapLimit(unknownAddresses.slice(0, ADDRESS_LOOKUPS_PER_CALL), ADDRESS_LOOKUP_CONCURRENCY, (id) => address(provider, id));
        const mapped = terminals.map((t) => {
          const line = t.serviceLineNumber ? byLine.get(t.serviceLineNumber) : undefined;
          const place = line?.addressReferenceId ? addressCache.get(line.addressReferenceId) : undefined;
          return mapConsoleTerminal(t, line, place, telemetry[t.userTerminalId]);
        });
        const connected = terminals.filter((t) => isOnline(telemetry[t.userTerminalId], now)).length;
        return {
          success: true,
          terminals: mapped,
          stats: terminalStats(mapped, connected),
          totalCount: mapped.length,
          error: null,
          timestamp: now.toISOString(),
          metadata: {
            accountNumber: account.accountNumber,
            apiVersion: PROVIDER_API_VERSION,
            apiCallDuration: Math.round(performance.now() - started),
            dataFreshness: now.toISOString(),
          },
        };
      } catch (error) {
        throw providerFailure(error, CONSOLE_MESSAGES.apiFailed);
      }
    },

    /** Connection test: one authenticated call, timed. Never throws: a failure is `Down`. */
    async health(accountId?: number): Promise<ProviderHealthResponse> {
      const checkedAt = deps.now().toISOString();
      let provider: ConsoleProvider;
      try {
        provider = await deps.provider(accountId);
      } catch (error) {
        // No such account, a disabled one, or none enabled: the provider is not reachable from here.
        const message = error instanceof Error ? error.message : CONSOLE_MESSAGES.connectionFailed;
        return { status: 'Down', provider: 'starlink', accountNumber: null, apiVersion: PROVIDER_API_VERSION, latencyMs: null, checkedAt, message };
      }
      const started = performance.now();
      try {
        const account = await provider.checkConnection();
        const latencyMs = Math.round(performance.now() - started);
        return {
          status: latencyMs > SLOW_PROVIDER_MS ? 'Degraded' : 'Healthy',
          provider: provider.kind,
          accountNumber: account.accountNumber,
          apiVersion: PROVIDER_API_VERSION,
          latencyMs,
          checkedAt,
          message: null,
        };
      } catch (error) {
        return {
          status: 'Down',
          provider: provider.kind,
          accountNumber: null,
          apiVersion: PROVIDER_API_VERSION,
          latencyMs: null,
          checkedAt,
          message: messageOf(providerFailure(error, CONSOLE_MESSAGES.connectionFailed)),
        };
      }
    },
  };
}

export type ProviderConsoleService = ReturnType<typeof createProviderConsoleService>;
