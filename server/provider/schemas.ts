// Zod schemas of the Starlink Public API v2 wire format (../shared/provider/*.openapi.json, NOTES.md).
// Lenient where the portal does not look: unknown fields are dropped, optional or nullable fields
// become `null` (arrays `[]`), so callers see one shape. Strict where it does: ids, the paging
// fields and every number we compute with must be there with the right type, or the answer is a
// ProviderResponseError. Dates stay ISO strings; the caller decides what a date means.
import { z } from 'zod';

/** Optional or null on the wire → `null` in our shape. */
const opt = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v): z.output<T> | null => v ?? null);
/** Optional or null list → `[]`. */
const list = <T extends z.ZodType>(item: T) => z.array(item).nullish().transform((v): z.output<T>[] => v ?? []);
const id = z.string().min(1);
const num = z.number();
const int = z.number().int();

// ---- Envelope ------------------------------------------------------------------------------

export const validationResultSchema = z.object({
  memberNames: list(z.string()),
  errorMessage: opt(z.string()),
});
export type ProviderValidationResult = z.output<typeof validationResultSchema>;

const envelopeFields = {
  errors: list(validationResultSchema),
  warnings: list(validationResultSchema),
  information: list(z.string()),
  isValid: z.boolean(),
};

/** `{ errors, warnings, information, isValid }`: ServiceResponse (answers without content). */
export const serviceResponseSchema = z.object(envelopeFields);
export type ProviderServiceResponse = z.output<typeof serviceResponseSchema>;

/** `{ errors, warnings, information, isValid, content }`. */
export const envelope = <T extends z.ZodType>(content: T) => z.object({ ...envelopeFields, content });

/** A loose reading of any error answer (4xx bodies may be anything, or nothing). */
export const errorBodySchema = z.object({
  errors: list(z.object({ memberNames: list(z.string()).catch([]), errorMessage: opt(z.string()).catch(null) })).catch([]),
  content: z.unknown().optional(),
});

/** 403 content: UserLacksRequiredPermission. */
export const userLacksPermissionSchema = z.object({
  accountId: opt(z.string()).catch(null),
  requiredPermission: opt(z.object({ featureAccess: opt(int).catch(null), permission: opt(int).catch(null) })).catch(null),
  featureAccessString: opt(z.string()).catch(null),
  permissionString: opt(z.string()).catch(null),
});

/** `{ pageIndex, limit, isLastPage, results, totalCount }`. */
export const paginated = <T extends z.ZodType>(item: T) =>
  z.object({
    pageIndex: int,
    limit: int,
    isLastPage: z.boolean(),
    results: list(item),
    totalCount: int.min(0),
  });

// ---- Token ---------------------------------------------------------------------------------

export const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: opt(z.string()),
  expires_in: z.coerce.number().positive(),
  scope: opt(z.string()),
});
export type ProviderTokenResponse = z.output<typeof tokenResponseSchema>;

/** OAuth2 error answer (RFC 6749 §5.2), read loosely. */
export const tokenErrorSchema = z.object({
  error: opt(z.string()).catch(null),
  error_description: opt(z.string()).catch(null),
});

// ---- Account -------------------------------------------------------------------------------

export const accountSchema = z.object({
  accountNumber: id,
  regionCode: opt(z.string()),
  accountName: opt(z.string()),
  activeSuspensions: list(z.string()),
});
export type ProviderAccount = z.output<typeof accountSchema>;

// ---- Products ------------------------------------------------------------------------------

export const dataProductSchema = z.object({
  productId: opt(z.string()),
  price: opt(num),
  isoCurrencyCode: opt(z.string()),
  dataAmount: opt(num),
  dataUnit: opt(z.string()),
});
export type ProviderDataProduct = z.output<typeof dataProductSchema>;

export const productSchema = z.object({
  productReferenceId: id,
  name: z.string(),
  price: opt(num),
  isoCurrencyCode: opt(z.string()),
  isSla: opt(z.boolean()),
  maxNumberOfUserTerminals: opt(int),
  dataProducts: opt(
    z.object({
      topUpProduct: opt(dataProductSchema),
      dataBlockProducts: list(dataProductSchema),
    }),
  ),
});
export type ProviderProduct = z.output<typeof productSchema>;

// ---- Addresses -----------------------------------------------------------------------------

export const addressSchema = z.object({
  addressReferenceId: id,
  addressLines: list(z.string()),
  locality: opt(z.string()),
  administrativeArea: opt(z.string()),
  administrativeAreaCode: opt(z.string()),
  region: opt(z.string()),
  regionCode: opt(z.string()),
  postalCode: opt(z.string()),
  metadata: opt(z.string()),
  formattedAddress: opt(z.string()),
  latitude: opt(num),
  longitude: opt(num),
});
export type ProviderAddress = z.output<typeof addressSchema>;

// ---- Service lines -------------------------------------------------------------------------

export const dataBlockSummarySchema = z.object({
  productId: opt(z.string()),
  startDate: opt(z.string()),
  expirationDate: opt(z.string()),
  count: int,
  dataAmount: num,
  dataUnitType: opt(z.string()),
});
export type ProviderDataBlockSummary = z.output<typeof dataBlockSummarySchema>;

export const dataBlocksSchema = z.object({
  recurringBlocksCurrentBillingCycle: list(dataBlockSummarySchema),
  recurringBlocksNextBillingCycle: list(dataBlockSummarySchema),
  delayedProductRecurringBlocksNextCycle: list(dataBlockSummarySchema),
  topUpBlocksOptInPurchase: list(dataBlockSummarySchema),
  topUpBlocksOneTimePurchase: list(dataBlockSummarySchema),
});
export type ProviderDataBlocks = z.output<typeof dataBlocksSchema>;

export const aviationMetadataSchema = z.object({
  tailNumber: opt(z.string()),
  seatCount: opt(int),
  airlineIataCode: opt(z.string()),
  aircraftIataCode: opt(z.string()),
  airlineIcaoCode: opt(z.string()),
  aircraftIcaoCode: opt(z.string()),
  stcNumber: opt(z.string()),
});

export const serviceLineSchema = z.object({
  serviceLineNumber: id,
  addressReferenceId: opt(z.string()),
  nickname: opt(z.string()),
  /** The plan. */
  productReferenceId: z.string(),
  delayedProductId: opt(z.string()),
  optInProductId: opt(z.string()),
  startDate: opt(z.string()),
  endDate: opt(z.string()),
  publicIp: opt(z.boolean()),
  active: z.boolean(),
  aviationMetadata: opt(aviationMetadataSchema),
  dataBlocks: opt(dataBlocksSchema),
});
export type ProviderServiceLine = z.output<typeof serviceLineSchema>;

// ---- User terminals ------------------------------------------------------------------------

export const l2VpnCircuitSchema = z.object({
  circuitId: opt(z.string()),
  circuitIds: list(z.string()),
  customerVlans: list(int),
  serviceVlan: opt(int),
  customerVlanRemap: opt(int),
});

export const routerSchema = z.object({
  routerId: id,
  nickname: opt(z.string()),
  userTerminalId: opt(z.string()),
  configId: opt(z.string()),
});

export const userTerminalSchema = z.object({
  userTerminalId: id,
  nickname: opt(z.string()),
  kitSerialNumber: z.string(),
  dishSerialNumber: opt(z.string()),
  /** null when the terminal is on no service line. */
  serviceLineNumber: opt(z.string()),
  l2VpnCircuits: list(l2VpnCircuitSchema),
  routers: list(routerSchema),
});
export type ProviderUserTerminal = z.output<typeof userTerminalSchema>;

// ---- Data usage ----------------------------------------------------------------------------

export const dailyUsageSchema = z.object({
  date: z.string().min(1),
  priorityGB: num,
  /** Part of priorityGB, not added to it. */
  optInPriorityGB: opt(num).transform((v) => v ?? 0),
  standardGB: num,
  nonBillableGB: opt(num).transform((v) => v ?? 0),
});
export type ProviderDailyUsage = z.output<typeof dailyUsageSchema>;

export const overageLineSchema = z.object({
  restricted: opt(int),
  unrestricted: opt(int),
  pricePerGB: opt(num),
  usageLimitGB: opt(num),
  overageAmountGB: opt(num),
  consumedAmountGB: opt(num),
  overagePrice: opt(num),
  productId: opt(z.string()),
  /** 0 None, 1 PriorityPerGb, 2 DeprioritizedPerGb, 3 LimitWithNoOverageData. */
  dataOverageType: opt(int),
  activeFrom: opt(z.string()),
});
export type ProviderOverageLine = z.output<typeof overageLineSchema>;

/** Data pool usage is kept as sent (the portal does not read it yet). */
const dataPoolUsageSchema = z.record(z.string(), z.unknown());

export const billingCycleSchema = z.object({
  startDate: z.string().min(1),
  endDate: z.string().min(1),
  /** Days without usage are omitted. */
  dailyDataUsage: list(dailyUsageSchema),
  overageLines: list(overageLineSchema),
  dataPoolUsage: list(dataPoolUsageSchema),
  totalPriorityGB: num,
  totalStandardGB: num,
  totalOptInPriorityGB: opt(num).transform((v) => v ?? 0),
  totalNonBillableGB: opt(num).transform((v) => v ?? 0),
});
export type ProviderBillingCycle = z.output<typeof billingCycleSchema>;

export const servicePlanSchema = z.object({
  productId: z.string(),
  usageLimitGB: num,
  isOptedIntoOverage: z.boolean(),
  isMobilePlan: opt(z.boolean()),
  isoCurrencyCode: opt(z.string()),
  activeFrom: opt(z.string()),
  subscriptionActiveFrom: opt(z.string()),
  subscriptionEndDate: opt(z.string()),
  overageName: opt(z.string()),
  overageDescription: opt(z.string()),
  overageLineDeactivatedDate: opt(z.string()),
  overageLine: opt(overageLineSchema),
});
export type ProviderServicePlan = z.output<typeof servicePlanSchema>;

export const dataUsageSchema = z.object({
  accountNumber: opt(z.string()),
  serviceLineNumber: id,
  startDate: opt(z.string()),
  endDate: opt(z.string()),
  /** Oldest first; the current cycle is last. */
  billingCycles: list(billingCycleSchema),
  servicePlan: opt(servicePlanSchema),
  lastUpdated: opt(z.string()),
});
export type ProviderDataUsage = z.output<typeof dataUsageSchema>;

// ---- Telemetry (not in the OpenAPI file; NOTES.md) -----------------------------------------

const telemetryRecordSchema = z
  .looseObject({
    timestamp: opt(z.union([z.string(), z.number()]).transform((v) => (typeof v === 'number' ? new Date(v).toISOString() : v))),
    uptimeSeconds: opt(num),
    downlinkThroughputMbps: opt(num),
    uplinkThroughputMbps: opt(num),
    popPingDropRateAvg: opt(num),
    popPingLatencyMsAvg: opt(num),
    obstructionPercentTime: opt(num),
    signalQuality: opt(num),
    softwareVersion: opt(z.string()),
    hardwareVersion: opt(z.string()),
  })
  .transform((record) => {
    // Every `alert…` boolean, whatever its name: new alerts appear without a client change.
    const alerts: Record<string, boolean> = {};
    for (const [key, value] of Object.entries(record)) {
      if (key.startsWith('alert') && typeof value === 'boolean') alerts[key] = value;
    }
    return {
      timestamp: record.timestamp,
      uptimeSeconds: record.uptimeSeconds,
      downlinkThroughputMbps: record.downlinkThroughputMbps,
      uplinkThroughputMbps: record.uplinkThroughputMbps,
      popPingDropRateAvg: record.popPingDropRateAvg,
      popPingLatencyMsAvg: record.popPingLatencyMsAvg,
      obstructionPercentTime: record.obstructionPercentTime,
      signalQuality: record.signalQuality,
      softwareVersion: record.softwareVersion,
      hardwareVersion: record.hardwareVersion,
      alerts,
    };
  });

export const telemetryContentSchema = z.object({
  userTerminals: z.record(z.string(), telemetryRecordSchema).nullish().transform((v) => v ?? {}),
});

export type ProviderTelemetry = z.output<typeof telemetryRecordSchema> & { userTerminalId: string };
