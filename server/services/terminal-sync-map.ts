// Provider records → the rows the inventory sync writes. Pure: no I/O, the sync time passed in,
// so the rules (what a terminal's plan, cap, type, location and condition are, and when its
// record cannot be applied) are tested on their own (tests/unit/terminal-sync-map.test.ts).
import { createHash } from 'node:crypto';
import { alertBits, keptValue, TELEMETRY_METRICS, type TelemetryMetric, type TelemetryValues } from '../../src/domain/telemetry-history';
import { TELEMETRY_OFFLINE_AFTER_MS, terminalCondition, type DataCap, type TelemetrySnapshot } from '../../src/domain/terminals';
import type { HistoryReading } from '../db/repositories/telemetry-history';
import type {
  AddressUpsert,
  ProductUpsert,
  ServiceLineUpsert,
  TelemetryUpsert,
  TerminalFailure,
  TerminalUpsert,
  UsageCycleUpsert,
  UsageDailyUpsert,
} from '../db/repositories/terminal-inventory';
import { terminalModelOf } from '../provider/hardware';
import type {
  ProviderAddress,
  ProviderDataBlockSummary,
  ProviderDataUsage,
  ProviderProduct,
  ProviderServiceLine,
  ProviderTelemetry,
  ProviderUserTerminal,
} from '../provider';

/** 1 TB = 1,000 GB, as the provider counts data blocks. */
export const GB_PER_TB = 1000;

export function productRow(product: ProviderProduct, accountNumber: string, accountId: number): ProductUpsert {
  return {
    productReferenceId: product.productReferenceId,
    accountId,
    accountNumber,
    name: product.name,
    price: product.price,
    isoCurrencyCode: product.isoCurrencyCode,
    isSla: product.isSla ?? false,
    raw: product,
  };
}

export function addressRow(address: ProviderAddress, accountNumber: string, accountId: number): AddressUpsert {
  return {
    addressReferenceId: address.addressReferenceId,
    accountId,
    accountNumber,
    formattedAddress: address.formattedAddress,
    locality: address.locality,
    region: address.region,
    regionCode: address.regionCode,
    latitude: address.latitude,
    longitude: address.longitude,
  };
}

export function serviceLineRow(line: ProviderServiceLine, accountNumber: string, accountId: number): ServiceLineUpsert {
  return {
    serviceLineNumber: line.serviceLineNumber,
    accountId,
    accountNumber,
    nickname: line.nickname,
    productReferenceId: line.productReferenceId || null,
    addressReferenceId: line.addressReferenceId,
    active: line.active,
    startDate: line.startDate,
    endDate: line.endDate,
    publicIp: line.publicIp,
    dataBlocks: line.dataBlocks,
  };
}

const ALERT_PREFIX = 'alert';

/** The alerts that are on, by their provider names (alertMotorsStuck, …), sorted. */
export function activeAlerts(telemetry: ProviderTelemetry): string[] {
  return Object.entries(telemetry.alerts)
    .filter(([name, on]) => on && name.startsWith(ALERT_PREFIX))
    .map(([name]) => name)
    .sort();
}

/** Provider signal quality is 0–1; the portal speaks percent (src/domain/terminals.ts). */
const percent = (value: number | null) => (value === null ? null : Math.round(value * 1000) / 10);

/**
 * A reading's values as kept: each in its range (src/domain/telemetry-history.ts), else null, and
 * the names of those that were not, for the run's warning. A negative latency or a signal quality
 * above 1 never reaches a chart or the terminal's page.
 */
export function keptValues(telemetry: ProviderTelemetry): { values: TelemetryValues; outOfRange: TelemetryMetric[] } {
  const sent: TelemetryValues = {
    downlinkMbps: telemetry.downlinkThroughputMbps,
    uplinkMbps: telemetry.uplinkThroughputMbps,
    latencyMs: telemetry.popPingLatencyMsAvg,
    pingDropRate: telemetry.popPingDropRateAvg,
    obstructionPercent: telemetry.obstructionPercentTime,
    // Stored as the provider sends it (0–1); readers turn it into percent.
    signalQuality: telemetry.signalQuality,
    uptimeSeconds: telemetry.uptimeSeconds,
  };
  const values = { ...sent };
  const outOfRange: TelemetryMetric[] = [];
  for (const metric of TELEMETRY_METRICS) {
    values[metric] = keptValue(metric, sent[metric]);
    if (sent[metric] !== null && values[metric] === null) outOfRange.push(metric);
  }
  return { values, outOfRange };
}

export function telemetryRow(telemetry: ProviderTelemetry): TelemetryUpsert {
  const { values } = keptValues(telemetry);
  return {
    userTerminalId: telemetry.userTerminalId,
    reportedAt: telemetry.timestamp,
    uptimeSeconds: values.uptimeSeconds,
    signalQuality: values.signalQuality,
    downlinkMbps: values.downlinkMbps,
    uplinkMbps: values.uplinkMbps,
    latencyMs: values.latencyMs,
    pingDropRate: values.pingDropRate,
    obstructionPercent: values.obstructionPercent,
    softwareVersion: telemetry.softwareVersion,
    hardwareVersion: telemetry.hardwareVersion,
    alerts: activeAlerts(telemetry),
  };
}

/**
 * The history's row of a reading the sync took at `at`: online when the terminal's last report is
 * at most TELEMETRY_OFFLINE_AFTER_MS old; an offline reading keeps no values (they are the last
 * report's, already kept when it was read). `active`: the terminal is on an active line.
 */
export function historyReading(telemetry: ProviderTelemetry, at: Date, active: boolean): { reading: HistoryReading; outOfRange: TelemetryMetric[] } {
  const { values, outOfRange } = keptValues(telemetry);
  const reported = telemetry.timestamp === null ? Number.NaN : Date.parse(telemetry.timestamp);
  const online = at.getTime() - reported <= TELEMETRY_OFFLINE_AFTER_MS;
  const shown = (value: number | null) => (online ? value : null);
  return {
    reading: {
      userTerminalId: telemetry.userTerminalId,
      reportedAt: Number.isNaN(reported) ? null : new Date(reported).toISOString(),
      online,
      active,
      downlinkMbps: shown(values.downlinkMbps),
      uplinkMbps: shown(values.uplinkMbps),
      latencyMs: shown(values.latencyMs),
      pingDropRate: shown(values.pingDropRate),
      obstructionPercent: shown(values.obstructionPercent),
      signalQuality: shown(values.signalQuality),
      uptimeSeconds: shown(values.uptimeSeconds === null ? null : Math.min(2_147_483_647, Math.floor(values.uptimeSeconds))),
      alerts: online ? alertBits(activeAlerts(telemetry)) : 0,
    },
    outOfRange,
  };
}

export function telemetrySnapshot(telemetry: ProviderTelemetry | undefined): TelemetrySnapshot | null {
  if (!telemetry) return null;
  return { reportedAt: telemetry.timestamp, signalQuality: percent(telemetry.signalQuality), alerts: activeAlerts(telemetry) };
}

const isTB = (block: ProviderDataBlockSummary) => (block.dataUnitType ?? 'GB').trim().toUpperCase() === 'TB';

/**
 * The line's data cap from its recurring blocks of the current billing cycle: in TB when every
 * block is counted in TB (2 × 1 TB → 2 TB), otherwise in GB (5 × 50 GB → 250 GB; TB blocks count
 * 1,000 GB). Null when the line has no recurring blocks (metered plans: the usage sync sets
 * their cap from the plan's allowance).
 */
export function dataCapOf(line: ProviderServiceLine): DataCap | null {
  const blocks = (line.dataBlocks?.recurringBlocksCurrentBillingCycle ?? []).filter((b) => b.count > 0 && b.dataAmount > 0);
  if (blocks.length === 0) return null;
  const round = (n: number) => Math.round(n * 100) / 100;
  if (blocks.every(isTB)) return { amount: round(blocks.reduce((sum, b) => sum + b.count * b.dataAmount, 0)), unit: 'TB' };
  const gb = blocks.reduce((sum, b) => sum + b.count * b.dataAmount * (isTB(b) ? GB_PER_TB : 1), 0);
  return { amount: round(gb), unit: 'GB' };
}

/** Everything a terminal's row is built from; undefined where the provider told us nothing. */
export interface TerminalSources {
  terminal: ProviderUserTerminal;
  accountNumber: string;
  /** The terminal's service line, when it has one and the listing holds it. */
  line: ProviderServiceLine | undefined;
  product: ProviderProduct | undefined;
  address: ProviderAddress | undefined;
  telemetry: ProviderTelemetry | undefined;
  /** The time the sync counts as now (condition's telemetry age). */
  at: Date;
}

export type TerminalRecord = { ok: true; row: TerminalUpsert } | { ok: false; failure: TerminalFailure };

/** The fields the hash covers: what the provider said, as stored, without any timestamp. */
function hashOf(row: Omit<TerminalUpsert, 'contentHash'>): string {
  const fields = [
    row.accountNumber, row.kitSerialNumber, row.dishSerialNumber, row.serviceLineNumber, row.nickname, row.active, row.condition,
    row.isPriority, row.dataCapAmount, row.dataCapUnit, row.plan, row.productReferenceId, row.terminalType, row.model,
    row.location, row.region, row.latitude, row.longitude,
  ];
  return createHash('sha1').update(JSON.stringify(fields)).digest('base64url');
}

/**
 * A terminal's row, denormalised: plan and priority from its line's product, data cap from the
 * line's blocks, type and model from the hardware table, location from the line's address,
 * active from the line, condition from the line and the latest telemetry. A terminal on a line
 * the listing does not hold cannot be applied: it is reported as a failure with the reason.
 */
export function terminalRecord(sources: TerminalSources): TerminalRecord {
  const { terminal, line, product, address, telemetry, accountNumber } = sources;
  const ids = {
    userTerminalId: terminal.userTerminalId,
    accountNumber,
    kitSerialNumber: terminal.kitSerialNumber,
    dishSerialNumber: terminal.dishSerialNumber,
    serviceLineNumber: terminal.serviceLineNumber,
    nickname: terminal.nickname,
  };
  if (terminal.serviceLineNumber && !line) {
    return {
      ok: false,
      failure: { ...ids, error: `Service line ${terminal.serviceLineNumber} is not in the provider's service line listing` },
    };
  }
  const active = line?.active ?? false;
  const model = terminalModelOf({ hardwareVersion: telemetry?.hardwareVersion, dishSerialNumber: terminal.dishSerialNumber });
  const cap = line ? dataCapOf(line) : null;
  const row: Omit<TerminalUpsert, 'contentHash'> = {
    ...ids,
    active,
    condition: terminalCondition(active, telemetrySnapshot(telemetry), sources.at),
    isPriority: product?.isSla ?? false,
    dataCapAmount: cap?.amount ?? null,
    dataCapUnit: cap?.unit ?? null,
    plan: product?.name ?? null,
    productReferenceId: line?.productReferenceId || null,
    terminalType: model?.name ?? null,
    model: telemetry?.hardwareVersion ?? model?.hardwareVersion ?? null,
    location: address ? (address.formattedAddress ?? address.locality) : null,
    region: address ? (address.region ?? address.regionCode) : null,
    latitude: address?.latitude ?? null,
    longitude: address?.longitude ?? null,
  };
  return { ok: true, row: { ...row, contentHash: hashOf(row) } };
}

// ---- Usage ---------------------------------------------------------------------------------

const dateOnly = (iso: string) => iso.slice(0, 10);
const round2 = (n: number) => Math.round(n * 100) / 100;

export interface UsageRows {
  cycles: UsageCycleUpsert[];
  daily: UsageDailyUpsert[];
  /** The plan's allowance this cycle, for the line's terminals; null when the provider sent no plan. */
  usageLimitGb: number | null;
}

/**
 * One line's data-usage record as rows: a row per billing cycle (the current one's limit from
 * the service plan, earlier ones from their overage line when they have one) and a row per day.
 */
export function usageRows(record: ProviderDataUsage): UsageRows {
  const plan = record.servicePlan;
  const cycles = record.billingCycles;
  const rows: UsageCycleUpsert[] = cycles.map((cycle, k) => {
    const isCurrent = k === cycles.length - 1;
    const overage = cycle.overageLines;
    const overageGb = overage.length > 0 ? round2(overage.reduce((sum, o) => sum + (o.overageAmountGB ?? 0), 0)) : null;
    const limitFromOverage = overage.find((o) => o.usageLimitGB !== null)?.usageLimitGB ?? null;
    return {
      serviceLineNumber: record.serviceLineNumber,
      cycleStart: dateOnly(cycle.startDate),
      cycleEnd: dateOnly(cycle.endDate),
      priorityGb: cycle.totalPriorityGB,
      standardGb: cycle.totalStandardGB,
      optInPriorityGb: cycle.totalOptInPriorityGB,
      nonBillableGb: cycle.totalNonBillableGB,
      usageLimitGb: isCurrent ? (plan?.usageLimitGB ?? limitFromOverage) : (limitFromOverage ?? plan?.usageLimitGB ?? null),
      overageGb,
      productId: plan?.productId ?? null,
      lastUpdated: record.lastUpdated,
    };
  });
  // A day appears in one cycle only; should the provider repeat one, the later cycle wins.
  const days = new Map<string, UsageDailyUpsert>();
  for (const cycle of cycles) {
    for (const day of cycle.dailyDataUsage) {
      const usageDate = dateOnly(day.date);
      days.set(usageDate, {
        serviceLineNumber: record.serviceLineNumber,
        usageDate,
        priorityGb: day.priorityGB,
        standardGb: day.standardGB,
        optInPriorityGb: day.optInPriorityGB,
        nonBillableGb: day.nonBillableGB,
      });
    }
  }
  return { cycles: rows, daily: [...days.values()], usageLimitGb: plan?.usageLimitGB ?? null };
}
