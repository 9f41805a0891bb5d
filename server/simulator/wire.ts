// The provider's v2 wire shapes, as the simulator sends them (field names and nullability from the
// provider's published OpenAPI document; the telemetry record from the provider's notes), and the
// envelope every answer travels in. The default tests hold them to the project's own contract
// (server/provider/contract.openapi.json); `npm run test:provider-contract` to the published one.

export interface ValidationResult {
  memberNames: string[] | null;
  errorMessage: string | null;
}

/** `ServiceResponse`: the envelope without content (its schema allows no `content` key). */
export interface ServiceResponse {
  errors: ValidationResult[] | null;
  warnings: ValidationResult[] | null;
  information: string[] | null;
  isValid: boolean;
}

export interface Envelope<T> extends ServiceResponse {
  content: T;
}

export interface Paginated<T> {
  pageIndex: number;
  limit: number;
  isLastPage: boolean;
  results: T[];
  totalCount: number;
}

export function ok<T>(content: T, warnings: ValidationResult[] = []): Envelope<T> {
  return { errors: null, warnings: warnings.length > 0 ? warnings : null, information: null, isValid: true, content };
}

/** A success without content (reboot, attach, detach, plan change). */
export function done(information: string[] = []): ServiceResponse {
  return { errors: null, warnings: null, information: information.length > 0 ? information : null, isValid: true };
}

export function failure(message: string, memberNames: string[] = []): ServiceResponse {
  return { errors: [{ memberNames, errorMessage: message }], warnings: null, information: null, isValid: false };
}

export interface AccountResponseV2 {
  accountNumber: string;
  regionCode: string;
  accountName: string | null;
  activeSuspensions: string[] | null;
}

export interface DataProductResponse {
  productId: string | null;
  price: number;
  isoCurrencyCode: string | null;
  dataAmount: number;
  dataUnit: string | null;
}

export interface SubscriptionProductResponse {
  productReferenceId: string;
  name: string;
  price: number;
  isoCurrencyCode: string;
  isSla: boolean;
  maxNumberOfUserTerminals: number | null;
  dataProducts: { topUpProduct: DataProductResponse; dataBlockProducts: DataProductResponse[] | null };
}

export interface AddressResponse {
  addressReferenceId: string;
  addressLines: string[];
  locality: string | null;
  administrativeArea: string | null;
  administrativeAreaCode: string;
  region: string | null;
  regionCode: string;
  postalCode: string;
  metadata: string | null;
  formattedAddress: string;
  latitude: number;
  longitude: number;
}

export interface DataBlockSummaryResponse {
  productId: string | null;
  startDate: string;
  expirationDate: string;
  count: number;
  dataAmount: number;
  dataUnitType: string | null;
}

export interface ServiceLineDataBlocksSummaryResponse {
  recurringBlocksCurrentBillingCycle: DataBlockSummaryResponse[] | null;
  recurringBlocksNextBillingCycle: DataBlockSummaryResponse[] | null;
  delayedProductRecurringBlocksNextCycle: DataBlockSummaryResponse[] | null;
  topUpBlocksOptInPurchase: DataBlockSummaryResponse[] | null;
  topUpBlocksOneTimePurchase: DataBlockSummaryResponse[] | null;
}

export interface ServiceLineResponse {
  addressReferenceId: string;
  serviceLineNumber: string;
  nickname: string | null;
  productReferenceId: string;
  delayedProductId: string | null;
  optInProductId: string | null;
  startDate: string | null;
  endDate: string | null;
  publicIp: boolean;
  active: boolean;
  dataBlocks: ServiceLineDataBlocksSummaryResponse;
}

export interface RouterResponseV2 {
  routerId: string;
  nickname: string | null;
  userTerminalId: string;
  configId: string | null;
  hardwareVersion: null;
  lastBonded: null;
}

/** A terminal's L2VPN circuit group and its VLANs (L2VpnCircuitDefinition). */
export interface L2VpnCircuitDefinition {
  /** Deprecated by the provider: the first of `circuitIds`. */
  circuitId: string | null;
  circuitIds: string[] | null;
  customerVlans: number[];
  serviceVlan: number | null;
  customerVlanRemap: number | null;
}

export interface UserTerminalResponseV2 {
  userTerminalId: string;
  nickname: string | null;
  kitSerialNumber: string;
  dishSerialNumber: string;
  serviceLineNumber: string | null;
  l2VpnCircuits: L2VpnCircuitDefinition[];
  routers: RouterResponseV2[];
}

export interface DataUsageDailyV2 {
  date: string;
  priorityGB: number;
  optInPriorityGB: number;
  standardGB: number;
  nonBillableGB: number;
}

/** DataBucketType codes the overage lines use (FixedRestricted, FixedUnrestricted). */
export const BUCKET_FIXED_RESTRICTED = 3;
export const BUCKET_FIXED_UNRESTRICTED = 4;

/** DataOverageType: 0 None, 1 PriorityPerGb, 2 DeprioritizedPerGb, 3 LimitWithNoOverageData. */
export type DataOverageType = 0 | 1 | 2 | 3;

export interface DataUsageOverageLine {
  restricted: number;
  unrestricted: number;
  pricePerGB: number;
  usageLimitGB: number;
  overageAmountGB: number;
  consumedAmountGB: number;
  overagePrice: number;
  productId: string;
  dataOverageType: DataOverageType;
  activeFrom: string | null;
}

export interface DataUsageBillingCycleV2 {
  startDate: string;
  endDate: string;
  dailyDataUsage: DataUsageDailyV2[];
  overageLines: DataUsageOverageLine[];
  dataPoolUsage: never[];
  totalPriorityGB: number;
  totalStandardGB: number;
  totalOptInPriorityGB: number;
  totalNonBillableGB: number;
}

export interface DataServicePlan {
  isoCurrencyCode: string | null;
  isMobilePlan: boolean;
  activeFrom: string | null;
  subscriptionActiveFrom: string | null;
  subscriptionEndDate: string | null;
  overageName: string;
  overageDescription: string;
  isOptedIntoOverage: boolean;
  overageLineDeactivatedDate: string | null;
  overageLine?: DataUsageOverageLine;
  productId: string;
  usageLimitGB: number;
  dataCategoryMapping: Record<string, number>;
}

export interface ServiceLineDataUsageForBillingCycles {
  accountNumber: string;
  serviceLineNumber: string;
  startDate: string;
  endDate: string;
  billingCycles: DataUsageBillingCycleV2[];
  servicePlan: DataServicePlan;
  lastUpdated: string | null;
}

/** One terminal's latest telemetry (`POST /public/v2/telemetry/query`, not in the OpenAPI file). */
export interface TelemetryRecord {
  /** When the terminal last reported; it reports every 15 s, so older than 60 s means offline. */
  timestamp: string;
  uptimeSeconds: number;
  downlinkThroughputMbps: number;
  uplinkThroughputMbps: number;
  popPingDropRateAvg: number;
  popPingLatencyMsAvg: number;
  obstructionPercentTime: number;
  /** 0–1. */
  signalQuality: number;
  softwareVersion: string;
  hardwareVersion: string;
  alertHighTimeObstruction: boolean;
  alertDisabledDataUsageExceededQuota: boolean;
  alertMotorsStuck: boolean;
  alertThermalThrottle: boolean;
  alertThermalShutdown: boolean;
  alertMastNotNearVertical: boolean;
  alertSlowEthernetSpeeds: boolean;
  alertRoaming: boolean;
  alertInstallPending: boolean;
  alertIsHeating: boolean;
}
