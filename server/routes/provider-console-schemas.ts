// Response schemas of the provider console endpoints, checked against the domain types.
import { z } from 'zod';
import { inputText, exact, type Exact } from './schemas';
import type {
  ProviderHealthResponse,
  ServiceLineDetails,
  ServiceLineSearchResponse,
  UserTerminalsResponse,
  ConsoleUsageRecord,
  UsageStats,
} from '../../src/domain/provider-console';

const str = z.string();
const nstr = z.string().nullable();
const num = z.number();

const dataBlock = z.object({
  productId: nstr,
  amount: num,
  unit: str,
  type: str,
  active: z.boolean(),
  startDate: nstr,
  expirationDate: nstr,
});

export const serviceLineDetailsSchema = z.object({
  serviceLineNumber: str,
  active: z.boolean(),
  status: z.enum(['Active', 'Inactive']),
  nickname: nstr,
  productType: nstr,
  dataAllowance: nstr,
  userTerminalId: nstr,
  kitSerialNumber: nstr,
  dishSerialNumber: nstr,
  addressReference: nstr,
  dataCap: z.object({ amount: num, unit: z.enum(['GB', 'TB', 'MB']) }).nullable(),
  billingCycle: z.object({ start: nstr, end: nstr }),
  product: z
    .object({
      productReferenceId: str,
      type: str,
      name: str,
      category: str,
      billingType: str,
      description: str,
      price: num.nullable(),
      currency: nstr,
    })
    .nullable(),
  location: z
    .object({
      addressReferenceId: nstr,
      formattedAddress: nstr,
      region: nstr,
      country: nstr,
      timezone: nstr,
      coordinates: z.object({ latitude: num, longitude: num }).nullable(),
    })
    .nullable(),
  dataBlocks: z
    .object({
      currentCycle: z.object({ totalGB: num, usedGB: num, remainingGB: num, utilizationPercent: num }),
      recurring: z.array(dataBlock),
      oneTime: z.array(dataBlock.extend({ used: z.boolean(), purchaseDate: nstr })),
    })
    .nullable(),
  terminal: z
    .object({
      model: nstr,
      hardwareVersion: nstr,
      softwareVersion: nstr,
      firmwareVersion: nstr,
      installationDate: nstr,
      lastSeen: nstr,
    })
    .nullable(),
  serviceHistory: z.array(z.object({ type: str, description: str, status: str, date: str })),
  account: z.object({ accountNumber: str, accountType: str, customerType: str, organization: str }).nullable(),
});

export const usageRecordSchema = z.object({ id: str, usage_date: str, data_bucket: z.number().int(), total_gb: num, synced_at: str });
export const usageStatsSchema = z.object({
  totalUsageGB: num,
  totalRecords: z.number().int(),
  dateRange: z.object({ start: nstr, end: nstr }),
});

const metadataSchema = z.object({
  apiVersion: str,
  accountNumber: nstr,
  timestamp: str,
  dataFreshness: z.object({ serviceLineDetails: nstr, usageData: nstr }),
});

export const searchResponseSchema = z.object({
  success: z.boolean(),
  serviceLineFound: z.boolean(),
  error: nstr,
  timestamp: str,
  apiCallDuration: num,
  serviceLineDetails: serviceLineDetailsSchema.nullable(),
  usageData: z.array(usageRecordSchema),
  usageStats: usageStatsSchema,
  metadata: metadataSchema,
  rawApiResponses: z.object({ serviceLineDetails: z.unknown(), usageData: z.unknown() }),
});

export const userTerminalsResponseSchema = z.object({
  success: z.boolean(),
  terminals: z.array(
    z.object({
      id: str,
      userTerminalId: str,
      kitSerialNumber: str,
      active: z.boolean(),
      status: z.enum(['Active', 'Inactive']),
      serviceLineNumber: nstr,
      addressReference: nstr,
      region: nstr,
      model: nstr,
    }),
  ),
  stats: z.object({
    totalTerminals: z.number().int(),
    activeTerminals: z.number().int(),
    inactiveTerminals: z.number().int(),
    connectedTerminals: z.number().int(),
    regions: z.record(z.string(), z.number().int()),
    models: z.record(z.string(), z.number().int()),
  }),
  totalCount: z.number().int(),
  error: nstr,
  timestamp: str,
  metadata: z.object({ accountNumber: nstr, apiVersion: str, apiCallDuration: num, dataFreshness: nstr }),
});

export const providerHealthSchema = z.object({
  status: z.enum(['Healthy', 'Degraded', 'Down']),
  provider: z.enum(['simulator', 'starlink']),
  accountNumber: nstr,
  apiVersion: str,
  latencyMs: num.nullable(),
  checkedAt: str,
  message: nstr,
});

exact<Exact<z.output<typeof serviceLineDetailsSchema>, ServiceLineDetails>>();
exact<Exact<z.output<typeof usageRecordSchema>, ConsoleUsageRecord>>();
exact<Exact<z.output<typeof usageStatsSchema>, UsageStats>>();
exact<Exact<z.output<typeof searchResponseSchema>, ServiceLineSearchResponse>>();
exact<Exact<z.output<typeof userTerminalsResponseSchema>, UserTerminalsResponse>>();
exact<Exact<z.output<typeof providerHealthSchema>, ProviderHealthResponse>>();

/** A service line number as people type it: trimmed, non-empty, a sane length and alphabet. */
export const serviceLineNumberSchema = inputText({ error: 'Service line number is required' })
  .trim()
  .min(1, 'Service line number is required')
  // Piped, so a blank value reports only that it is required.
  .pipe(
    z
      .string()
      .max(64, 'Service line number is too long')
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'Service line number may contain only letters, digits, dots, dashes and underscores'),
  );
