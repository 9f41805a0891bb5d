// Pure mapping from provider (Starlink v2) records to the provider console's shapes
// (src/domain/provider-console.ts). The provider wire format stays on this side of the line.
import type {
  ConsoleDataBlocks,
  ConsoleLocation,
  ConsoleProduct,
  ConsoleTerminal,
  ConsoleUsageRecord,
  ServiceLineDetails,
  UsageStats,
  UserTerminalsResponse,
} from '../../src/domain/provider-console';

// Structural subsets of the provider records we read (the client's zod types satisfy them).
export interface PServiceLine {
  serviceLineNumber: string;
  addressReferenceId?: string | null;
  nickname?: string | null;
  productReferenceId?: string | null;
  startDate?: string | null;
  endDate?: string | null;
  active?: boolean | null;
  dataBlocks?: {
    recurringBlocksCurrentBillingCycle?: PDataBlock[] | null;
    topUpBlocksOneTimePurchase?: PDataBlock[] | null;
    topUpBlocksOptInPurchase?: PDataBlock[] | null;
  } | null;
}
export interface PDataBlock {
  productId?: string | null;
  startDate?: string | null;
  expirationDate?: string | null;
  endDate?: string | null;
  count?: number | null;
  blocksCount?: number | null;
  dataAmount?: number | null;
  dataAmountGB?: number | null;
  dataUnitType?: string | null;
  type?: string | number | null;
}
export interface PUserTerminal {
  userTerminalId: string;
  nickname?: string | null;
  kitSerialNumber?: string | null;
  dishSerialNumber?: string | null;
  serviceLineNumber?: string | null;
}
export interface PAddress {
  addressReferenceId?: string | null;
  formattedAddress?: string | null;
  region?: string | null;
  regionCode?: string | null;
  administrativeArea?: string | null;
  locality?: string | null;
  latitude?: number | null;
  longitude?: number | null;
}
export interface PDailyUsage {
  date: string;
  priorityGB?: number | null;
  standardGB?: number | null;
  optInPriorityGB?: number | null;
  nonBillableGB?: number | null;
}
export interface PBillingCycle {
  startDate?: string | null;
  endDate?: string | null;
  dailyDataUsage?: PDailyUsage[] | null;
  totalPriorityGB?: number | null;
  totalStandardGB?: number | null;
}
export interface PUsage {
  serviceLineNumber: string;
  billingCycles?: PBillingCycle[] | null;
  servicePlan?: { productId?: string | null; usageLimitGB?: number | null; isOptedIntoOverage?: boolean | null; isoCurrencyCode?: string | null } | null;
  lastUpdated?: string | null;
}
export interface PTelemetry {
  timestamp?: string | null;
  signalQuality?: number | null;
  softwareVersion?: string | null;
  hardwareVersion?: string | null;
  uptimeSeconds?: number | null;
}
export interface PAccount {
  accountNumber: string;
  accountName?: string | null;
  regionCode?: string | null;
}

/** Terminals report every 15 s; a record older than this means offline (provider notes). */
export const TELEMETRY_ONLINE_WINDOW_MS = 60_000;

const round2 = (value: number) => Math.round(value * 100) / 100;
const dayOf = (iso: string) => iso.slice(0, 10);

/** The plan's allowance as people say it: "50 GB", "1 TB" (1 TB = 1,000 GB), "Unlimited". */
export function dataAllowanceLabel(usageLimitGB: number | null | undefined): string | null {
  if (usageLimitGB === null || usageLimitGB === undefined) return null;
  if (usageLimitGB <= 0) return 'Unlimited';
  return usageLimitGB >= 1000 ? `${round2(usageLimitGB / 1000)} TB` : `${round2(usageLimitGB)} GB`;
}

export function dataCap(usageLimitGB: number | null | undefined): ServiceLineDetails['dataCap'] {
  if (!usageLimitGB || usageLimitGB <= 0) return null;
  return usageLimitGB >= 1000 ? { amount: round2(usageLimitGB / 1000), unit: 'TB' } : { amount: round2(usageLimitGB), unit: 'GB' };
}

/** Model name from the telemetry hardware version ("rev4_prod2" style strings or plain names). */
export function modelFromHardware(hardwareVersion: string | null | undefined): string | null {
  if (!hardwareVersion) return null;
  const v = hardwareVersion.toLowerCase();
  if (v.includes('mini')) return 'Mini';
  if (v.includes('hp') || v.includes('high')) return 'Flat High Performance';
  if (v.includes('enterprise')) return 'Enterprise';
  if (v.includes('actuated') || v.includes('rev3')) return 'Standard Actuated';
  if (v.includes('standard') || v.includes('rev4')) return 'Standard';
  return hardwareVersion;
}

export function isOnline(telemetry: PTelemetry | undefined, now: Date): boolean {
  if (!telemetry?.timestamp) return false;
  const at = Date.parse(telemetry.timestamp);
  return Number.isFinite(at) && now.getTime() - at <= TELEMETRY_ONLINE_WINDOW_MS;
}

function blockAmountGB(block: PDataBlock): number {
  const count = block.count ?? block.blocksCount ?? 1;
  const each = block.dataAmountGB ?? block.dataAmount ?? 0;
  const unit = (block.dataUnitType ?? 'GB').toUpperCase();
  const gb = unit === 'TB' ? each * 1000 : unit === 'MB' ? each / 1000 : each;
  return round2(gb * count);
}

export function mapDataBlocks(line: PServiceLine, usedGB: number, now: Date): ConsoleDataBlocks | null {
  const blocks = line.dataBlocks;
  if (!blocks) return null;
  const recurringRaw = blocks.recurringBlocksCurrentBillingCycle ?? [];
  const oneTimeRaw = [...(blocks.topUpBlocksOneTimePurchase ?? []), ...(blocks.topUpBlocksOptInPurchase ?? [])];
  if (recurringRaw.length === 0 && oneTimeRaw.length === 0) return null;
  const active = (b: PDataBlock) => {
    const end = b.expirationDate ?? b.endDate;
    return !end || Date.parse(end) >= now.getTime();
  };
  const recurring = recurringRaw.map((b) => ({
    productId: b.productId ?? null,
    amount: blockAmountGB(b),
    unit: 'GB',
    type: typeof b.type === 'string' ? b.type : 'RecurringPerBillingCycle',
    active: active(b),
    startDate: b.startDate ?? null,
    expirationDate: b.expirationDate ?? b.endDate ?? null,
  }));
  const totalGB = round2(recurring.filter((b) => b.active).reduce((sum, b) => sum + b.amount, 0));
  // One-time blocks are drawn down after the recurring allowance, oldest first.
  let overflow = Math.max(0, usedGB - totalGB);
  const oneTime = oneTimeRaw.map((b) => {
    const amount = blockAmountGB(b);
    const used = overflow >= amount;
    overflow = Math.max(0, overflow - amount);
    return {
      productId: b.productId ?? null,
      amount,
      unit: 'GB',
      type: typeof b.type === 'string' ? b.type : 'OneTimePurchase',
      active: active(b),
      startDate: b.startDate ?? null,
      expirationDate: b.expirationDate ?? b.endDate ?? null,
      used,
      purchaseDate: b.startDate ?? null,
    };
  });
  const cycleTotal = round2(totalGB + oneTime.filter((b) => b.active).reduce((sum, b) => sum + b.amount, 0));
  return {
    currentCycle: {
      totalGB: cycleTotal,
      usedGB: round2(usedGB),
      remainingGB: round2(Math.max(0, cycleTotal - usedGB)),
      utilizationPercent: cycleTotal > 0 ? Math.round((usedGB / cycleTotal) * 100) : 0,
    },
    recurring,
    oneTime,
  };
}

export function mapProduct(line: PServiceLine, usage: PUsage | undefined, price: number | null): ConsoleProduct | null {
  const id = line.productReferenceId ?? usage?.servicePlan?.productId ?? null;
  if (!id) return null;
  const limit = usage?.servicePlan?.usageLimitGB ?? null;
  const hasBlocks = (line.dataBlocks?.recurringBlocksCurrentBillingCycle ?? []).length > 0;
  const type = hasBlocks ? 'Priority' : limit && limit > 0 ? 'Metered' : 'Standard';
  const allowance = dataAllowanceLabel(limit);
  return {
    productReferenceId: id,
    type,
    name: allowance ? `${type} ${allowance}` : id,
    category: 'Data plan',
    billingType: 'Monthly',
    description: hasBlocks
      ? 'Priority data in recurring blocks each billing cycle, with top-ups available'
      : allowance && allowance !== 'Unlimited'
        ? `${allowance} of priority data each billing cycle`
        : 'Standard data each billing cycle',
    price,
    currency: usage?.servicePlan?.isoCurrencyCode ?? null,
  };
}

export function mapLocation(address: PAddress | undefined, addressReferenceId: string | null): ConsoleLocation | null {
  if (!address && !addressReferenceId) return null;
  const hasCoordinates = typeof address?.latitude === 'number' && typeof address?.longitude === 'number';
  return {
    addressReferenceId: address?.addressReferenceId ?? addressReferenceId,
    formattedAddress: address?.formattedAddress ?? null,
    region: address?.region ?? address?.administrativeArea ?? null,
    country: address?.regionCode ?? null,
    timezone: null,
    coordinates: hasCoordinates ? { latitude: address!.latitude!, longitude: address!.longitude! } : null,
  };
}

/** The billing cycle containing `now`, else the newest one (cycles come oldest first). */
export function currentCycle(usage: PUsage | undefined, now: Date): PBillingCycle | undefined {
  const cycles = usage?.billingCycles ?? [];
  const today = now.toISOString().slice(0, 10);
  return (
    cycles.find((c) => c.startDate && c.endDate && dayOf(c.startDate) <= today && today <= dayOf(c.endDate)) ?? cycles.at(-1)
  );
}

export function cycleUsedGB(cycle: PBillingCycle | undefined): number {
  if (!cycle) return 0;
  if (typeof cycle.totalPriorityGB === 'number' || typeof cycle.totalStandardGB === 'number') {
    return round2((cycle.totalPriorityGB ?? 0) + (cycle.totalStandardGB ?? 0));
  }
  return round2((cycle.dailyDataUsage ?? []).reduce((sum, d) => sum + (d.priorityGB ?? 0) + (d.standardGB ?? 0), 0));
}

/**
 * Usage records in the portal's older shape. The provider reports daily totals, so each day is one
 * record in the bucket that starts at 0:00; `optInPriorityGB` is part of `priorityGB`, not added.
 */
export function mapUsageRecords(
  usage: PUsage | undefined,
  range: { start?: string | null; end?: string | null; limit?: number | null } = {},
): ConsoleUsageRecord[] {
  if (!usage) return [];
  const syncedAt = usage.lastUpdated ?? new Date(0).toISOString();
  const records: ConsoleUsageRecord[] = [];
  for (const cycle of usage.billingCycles ?? []) {
    for (const day of cycle.dailyDataUsage ?? []) {
      const date = dayOf(day.date);
      if (range.start && date < range.start) continue;
      if (range.end && date > range.end) continue;
      const total = round2((day.priorityGB ?? 0) + (day.standardGB ?? 0));
      records.push({ id: `${usage.serviceLineNumber}:${date}`, usage_date: date, data_bucket: 0, total_gb: total, synced_at: syncedAt });
    }
  }
  // Newest first, as a usage table reads.
  records.sort((a, b) => (a.usage_date < b.usage_date ? 1 : a.usage_date > b.usage_date ? -1 : 0));
  return range.limit ? records.slice(0, range.limit) : records;
}

export function usageStats(records: ConsoleUsageRecord[]): UsageStats {
  const dates = records.map((r) => r.usage_date).sort();
  return {
    totalUsageGB: round2(records.reduce((sum, r) => sum + r.total_gb, 0)),
    totalRecords: records.length,
    dateRange: { start: dates[0] ?? null, end: dates.at(-1) ?? null },
  };
}

export function mapConsoleTerminal(
  terminal: PUserTerminal,
  line: PServiceLine | undefined,
  address: PAddress | undefined,
  telemetry: PTelemetry | undefined,
): ConsoleTerminal {
  const active = Boolean(terminal.serviceLineNumber && line?.active);
  return {
    id: terminal.userTerminalId,
    userTerminalId: terminal.userTerminalId,
    kitSerialNumber: terminal.kitSerialNumber ?? 'Unknown',
    active,
    status: active ? 'Active' : 'Inactive',
    serviceLineNumber: terminal.serviceLineNumber ?? null,
    addressReference: line?.addressReferenceId ?? null,
    region: address?.region ?? address?.administrativeArea ?? null,
    model: modelFromHardware(telemetry?.hardwareVersion),
  };
}

export function terminalStats(terminals: ConsoleTerminal[], connected: number): UserTerminalsResponse['stats'] {
  const regions: Record<string, number> = {};
  const models: Record<string, number> = {};
  for (const t of terminals) {
    const region = t.region ?? 'Unknown';
    const model = t.model ?? 'Unknown';
    regions[region] = (regions[region] ?? 0) + 1;
    models[model] = (models[model] ?? 0) + 1;
  }
  const activeTerminals = terminals.filter((t) => t.active).length;
  return {
    totalTerminals: terminals.length,
    activeTerminals,
    inactiveTerminals: terminals.length - activeTerminals,
    connectedTerminals: connected,
    regions,
    models,
  };
}
