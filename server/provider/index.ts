// The Starlink Public API v2 client (see client.ts for how a call flows).
export {
  createStarlinkClient,
  PROVIDER_DEFAULTS,
  type AddressFilters,
  type DataUsageQuery,
  type HttpMethod,
  type ProviderCall,
  type ProviderClientOptions,
  type ProviderList,
  type ProviderMutationResult,
  type ProviderTelemetryResult,
  type ProviderUsage,
  type QueryParams,
  type RawRequest,
  type RawResponse,
  type RequestOptions,
  type StarlinkClient,
  type UserTerminalFilters,
} from './client';
export * from './errors';
export { createRateLimiter, defaultSleep, type RateLimiter, type RateLimiterOptions, type Sleep } from './limiter';
export { DEFAULT_STARLINK_API_URL, providerSettingsFromEnv, type ProviderSettings } from './config';
export type {
  ProviderAccount,
  ProviderAddress,
  ProviderBillingCycle,
  ProviderDailyUsage,
  ProviderDataBlocks,
  ProviderDataBlockSummary,
  ProviderDataUsage,
  ProviderOverageLine,
  ProviderProduct,
  ProviderServiceLine,
  ProviderServicePlan,
  ProviderTelemetry,
  ProviderUserTerminal,
} from './schemas';
