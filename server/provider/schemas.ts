// Zod schemas of the Starlink Public API v2 wire format (the provider's published OpenAPI document,
// and its notes for telemetry). The project's own contract (contract.openapi.json) is generated
// from these through the table in operations.ts, with objects closed: a field the provider sends
// is named here, even when the portal does not read it.
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

/** A service line's billing partial period: part of a cycle on one product (line started, ended or changed plan mid-cycle). */
export const partialPeriodSchema = z.object({
  productReferenceId: z.string(),
  periodStart: z.string().min(1),
  periodEnd: z.string().min(1),
});
export type ProviderPartialPeriod = z.output<typeof partialPeriodSchema>;

/** The answer to opting a line in to (or out of) priority data. */
export const optInSchema = z.object({
  productId: z.string(),
  /** When priority data was last turned on (the line's start when it never was). */
  activatedDate: z.string(),
  deactivatedDate: opt(z.string()),
  /** Opting in or out again is refused for a while after a change. */
  isInOptInCoolDown: z.boolean(),
});
export type ProviderOptIn = z.output<typeof optInSchema>;


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
  /** Deprecated by the provider: always null. */
  hardwareVersion: opt(z.string()),
  /** Deprecated by the provider: always null. */
  lastBonded: opt(z.string()),
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

// ---- Billing, contacts, managed accounts, data pools ---------------------------------------

export const invoiceSummarySchema = z.object({
  invoiceId: id,
  description: opt(z.string()),
  currency: opt(z.string()),
  amount: num,
  dueAmount: num,
  invoiceDate: z.string().min(1),
  dueDate: opt(z.string()),
  /** Unknown, Paid, Cancelled, Overdue, DueSoon or Outstanding; kept as text so a new status reads. */
  status: opt(z.string()),
});
export type ProviderInvoiceSummary = z.output<typeof invoiceSummarySchema>;

export const invoiceLineSchema = z.object({
  productReferenceId: opt(z.string()),
  productDescription: opt(z.string()),
  serviceName: opt(z.string()),
  serviceLineNumbers: list(z.string()),
  quantity: num,
  unitPrice: num,
  taxAmount: num,
  subTotal: num,
  servicePeriodStartDate: opt(z.string()),
  servicePeriodEndDate: opt(z.string()),
});
export type ProviderInvoiceLine = z.output<typeof invoiceLineSchema>;

export const invoiceDetailSchema = z.object({
  invoiceId: id,
  orderReferenceId: opt(z.string()),
  currency: opt(z.string()),
  dueAmount: num,
  paidAmount: num,
  invoiceDate: z.string().min(1),
  dueDate: opt(z.string()),
  invoiceLines: list(invoiceLineSchema),
});
export type ProviderInvoiceDetail = z.output<typeof invoiceDetailSchema>;

export const accountBalanceSchema = z.object({
  /** One per currency owed; a single zero balance in the account's currency when nothing is. */
  balances: list(z.object({ currency: z.string(), dueAmount: num })),
});
export type ProviderAccountBalance = z.output<typeof accountBalanceSchema>;

export const contactSchema = z.object({
  subjectId: id,
  email: z.string(),
  roles: list(z.string()),
});
export type ProviderContact = z.output<typeof contactSchema>;

export const managedCustomerSchema = z.object({
  accountNumber: opt(z.string()),
  serviceAccountClientId: opt(z.string()),
  serviceAccountSecret: opt(z.string()),
});
export type ProviderManagedCustomer = z.output<typeof managedCustomerSchema>;

export const managedAccountNodeSchema = z.object({
  accountNumber: z.string(),
  accountName: opt(z.string()),
  managerAccountNumber: opt(z.string()),
  children: list(z.string()),
});

export const managedAccountTreeSchema = z.object({
  rootAccountNumber: z.string(),
  tree: z.record(z.string(), managedAccountNodeSchema),
});
export type ProviderManagedAccountTree = z.output<typeof managedAccountTreeSchema>;

export const managedAccountSchema = z.object({
  accountNumber: z.string(),
  regionCode: opt(z.string()),
  accountName: opt(z.string()),
});
export type ProviderManagedAccount = z.output<typeof managedAccountSchema>;

/** Managed accounts page by key: `nextKey` goes back as `cursor`, null on the last page. */
export const managedAccountsPageSchema = z.object({
  nextKey: opt(z.string()),
  results: list(managedAccountSchema),
});

export const dataPoolBlockSchema = z.object({
  productId: opt(z.string()),
  startDate: opt(z.string()),
  endDate: opt(z.string()),
  isPrepaid: opt(z.boolean()),
  blocksCount: int,
  /** IncludedWithBaseSubscription, RecurringPerBillingCycle, Overage or OneTimePurchase. */
  type: opt(z.string()),
  dataAmountGB: num,
});

export const dataPoolSchema = z.object({
  dataPoolId: id,
  nickname: opt(z.string()),
  automaticTopUpEnabled: z.boolean(),
  restricted: z.boolean(),
  /** Ocean, Land or Aviation. */
  dataProductType: opt(z.string()),
  dataBlocks: list(dataPoolBlockSchema),
  productId: opt(z.string()),
});
export type ProviderDataPool = z.output<typeof dataPoolSchema>;

const poolLineUsageSchema = z.object({ serviceLineNumber: z.string(), consumedAmountGB: num });

export const dataPoolUsageSchema = z.object({
  dataPoolId: id,
  dataBlocks: list(
    z.object({
      startDate: opt(z.string()),
      endDate: opt(z.string()),
      totalAmountGB: num,
      consumedAmountGB: num,
      perBlockAmountGB: num,
      dataBlockType: opt(z.string()),
      productId: opt(z.string()),
      blocksCount: int,
      serviceLineUsage: list(poolLineUsageSchema),
      monthlyUsage: list(z.object({ startDate: opt(z.string()), endDate: opt(z.string()), serviceLineUsage: list(poolLineUsageSchema) })),
    }),
  ),
});
export type ProviderDataPoolUsage = z.output<typeof dataPoolUsageSchema>;

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

/** A cycle's data pool usage is kept as sent (the portal does not read it yet). */
const cycleDataPoolUsageSchema = z.record(z.string(), z.unknown());

export const billingCycleSchema = z.object({
  startDate: z.string().min(1),
  endDate: z.string().min(1),
  /** Days without usage are omitted. */
  dailyDataUsage: list(dailyUsageSchema),
  overageLines: list(overageLineSchema),
  dataPoolUsage: list(cycleDataPoolUsageSchema),
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
  /** Deprecated by the provider: always an empty object. */
  dataCategoryMapping: opt(z.record(z.string(), z.number())),
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

// ---- Routers and terminal configuration ----------------------------------------------------
// One router is `routerSchema` above (GET /routers/{routerId} answers the same record).
export type ProviderRouter = z.output<typeof routerSchema>;

/** A router config: its JSON is the provider's router configuration document, kept as text. */
export const routerConfigSchema = z.object({
  configId: id,
  nickname: opt(z.string()),
  routerConfigJson: z.string(),
});
export type ProviderRouterConfig = z.output<typeof routerConfigSchema>;

/** DefaultRouterConfigResponse: the account's default router config (null: none); also the answer to a TLS config create. */
export const configRefSchema = z.object({ configId: opt(z.string()) });
export type ProviderConfigRef = z.output<typeof configRefSchema>;

/** A TLS certificate (its key stays with the provider) that router configs may name. */
export const tlsConfigSchema = z.object({
  certificateBase64Pem: z.string().min(1),
  notBefore: opt(z.string()),
  notAfter: opt(z.string()),
});
export type ProviderTlsConfig = z.output<typeof tlsConfigSchema>;

/** An uploaded local content file (an HTML page routers' HTTPS server hosts). */
export const localContentSchema = z.object({
  nickname: opt(z.string()),
  uploadDate: opt(z.string()),
  fileContentId: id,
  fileContentHash: z.string(),
});
export type ProviderLocalContent = z.output<typeof localContentSchema>;

/** The answer to an upload: what goes in a router config's HTTPS server. */
export const addedLocalContentSchema = z.object({
  nickname: z.string().min(1),
  fileContentId: id,
  fileContentHash: z.string().min(1),
});
export type ProviderAddedLocalContent = z.output<typeof addedLocalContentSchema>;

/** A client let out of its router sandbox until `expiry`. */
export const sandboxClientSchema = z.object({
  clientId: opt(z.string()),
  sandboxId: int,
  expiry: z.string(),
});
export type ProviderSandboxClient = z.output<typeof sandboxClientSchema>;

/** An L2VPN circuit group the account may give its terminals (L2VpnCircuitResponse). */
export const availableL2VpnCircuitSchema = z.object({
  /** Deprecated by the provider: the first of `circuitIds`. */
  circuitId: opt(z.string()),
  /** Several ids: a redundant group, used only whole. */
  circuitIds: list(z.string()),
  popName: opt(z.string()),
});
export type ProviderAvailableL2VpnCircuit = z.output<typeof availableL2VpnCircuitSchema>;

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
