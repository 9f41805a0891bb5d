// Daily data usage, computed on demand. A day's volume is a pure function of (line key, day), so
// a billing cycle is rebuilt from scratch on every query: nothing per day is ever stored, and a
// fleet of 100,000 lines costs no more memory than a fleet of ten.
import { mix, toUnit } from './random';
import type { DataUsageDailyV2 } from './wire';

export const DAY_MS = 86_400_000;

/** Usage reaches the API 15–30 minutes late; the simulator reports up to 20 minutes ago. */
export const USAGE_LAG_MS = 20 * 60_000;

/** A billing cycle: a calendar month in UTC, [startMs, endMs). */
export interface Cycle {
  startMs: number;
  endMs: number;
}

export function cycleContaining(ms: number): Cycle {
  const d = new Date(ms);
  const startMs = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  return { startMs, endMs: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) };
}

export const previousCycle = (cycle: Cycle): Cycle => cycleContaining(cycle.startMs - 1);
export const nextCycle = (cycle: Cycle): Cycle => cycleContaining(cycle.endMs);

/** The cycle's last second, as the provider writes period ends ("…-31T23:59:59"). */
export const cycleEndIso = (cycle: Cycle) => new Date(cycle.endMs - 1000).toISOString();
export const iso = (ms: number) => new Date(ms).toISOString();
export const startOfDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/** When the usage feed was last refreshed: 20 minutes ago, on a 5-minute tick. */
export const lastUpdatedAt = (nowMs: number) => Math.floor((nowMs - USAGE_LAG_MS) / 300_000) * 300_000;

export const round2 = (value: number) => Math.round(value * 100) / 100;

/** What shapes one line's traffic. */
export interface UsageProfile {
  /** Seeds every per-day draw of this line. */
  key: number;
  /** Average GB a day the line moves. */
  baseDailyGB: number;
  /** Share of days with no traffic at all (site closed, vessel in port, power cut). */
  zeroShare: number;
}

const WEEKEND_FACTOR = 0.8;
/** Mean of the weekday/weekend mix, so the monthly average stays at baseDailyGB. */
const WEEK_MEAN = (5 + 2 * WEEKEND_FACTOR) / 7;

/** Full-day volume of a line on one day (GB), before the cap splits it. */
export function dayVolumeGB(profile: UsageProfile, dayStartMs: number): { billable: number; nonBillable: number } {
  const day = Math.floor(dayStartMs / DAY_MS);
  const h = mix(profile.key, day);
  if (toUnit(h) < profile.zeroShare) return { billable: 0, nonBillable: 0 };
  const date = new Date(dayStartMs);
  const month = date.getUTCFullYear() * 12 + date.getUTCMonth();
  // Busy and quiet months, then busy and quiet days within them.
  const monthFactor = 0.88 + 0.24 * toUnit(mix(profile.key, 0x6d6f6e74, month));
  const dayFactor = 0.4 + 1.2 * toUnit(mix(h, 1));
  const weekday = date.getUTCDay();
  const weekFactor = weekday === 0 || weekday === 6 ? WEEKEND_FACTOR : 1;
  const total = (profile.baseDailyGB * monthFactor * dayFactor * weekFactor) / (WEEK_MEAN * (1 - profile.zeroShare));
  // Firmware updates and the like: a sliver the provider does not bill.
  const nonBillable = total * (0.002 + 0.006 * toUnit(mix(h, 2)));
  return { billable: total - nonBillable, nonBillable };
}

export interface CycleUsageInput {
  profile: UsageProfile;
  cycle: Cycle;
  /** Nothing before this instant's day (service start, or the query's start date). */
  fromMs: number;
  /** Nothing from this instant on (the feed's lastUpdated, service end, or the last terminal leaving). */
  untilMs: number;
  /** Priority GB the cycle includes. */
  capGB: number;
  /** Past the cap: opted-in lines keep Priority data (billed as overage); others drop to Standard. */
  optedIn: boolean;
  /** Extra billable GB on some days (traffic surges set through the simulator's controls), by day start. */
  surgesGB?: ReadonlyMap<number, number>;
}

export interface CycleUsage {
  /** Days with usage only, oldest first, each rounded to 2 decimals. */
  daily: DataUsageDailyV2[];
  totalPriorityGB: number;
  totalOptInPriorityGB: number;
  totalStandardGB: number;
  totalNonBillableGB: number;
  /** Priority + Standard, unrounded. */
  billableGB: number;
  /** The day the cap ran out, if it did. */
  capReachedOnMs: number | null;
}

export function cycleUsage(input: CycleUsageInput): CycleUsage {
  const { profile, cycle, capGB, optedIn } = input;
  const daily: DataUsageDailyV2[] = [];
  let used = 0;
  let capReachedOnMs: number | null = null;
  const totals = { priority: 0, optIn: 0, standard: 0, nonBillable: 0 };
  const end = Math.min(cycle.endMs, input.untilMs);
  for (let day = Math.max(cycle.startMs, startOfDay(input.fromMs)); day < end; day += DAY_MS) {
    // The last day counts only the hours before `untilMs`.
    const share = Math.min(1, (end - day) / DAY_MS);
    const volume = dayVolumeGB(profile, day);
    // A surge is reported in full on its day: it already happened when it was set.
    const billable = volume.billable * share + (input.surgesGB?.get(day) ?? 0);
    const nonBillable = volume.nonBillable * share;
    const left = Math.max(0, capGB - used);
    let priority: number;
    let optIn = 0;
    let standard = 0;
    if (optedIn) {
      priority = billable;
      optIn = Math.max(0, billable - left);
    } else {
      priority = Math.min(billable, left);
      standard = billable - priority;
    }
    if (capReachedOnMs === null && billable > 0 && used + billable > capGB) capReachedOnMs = day;
    used += billable;
    const record: DataUsageDailyV2 = {
      date: iso(day),
      priorityGB: round2(priority),
      optInPriorityGB: round2(optIn),
      standardGB: round2(standard),
      nonBillableGB: round2(nonBillable),
    };
    if (record.priorityGB + record.standardGB + record.nonBillableGB === 0) continue;
    daily.push(record);
    totals.priority += record.priorityGB;
    totals.optIn += record.optInPriorityGB;
    totals.standard += record.standardGB;
    totals.nonBillable += record.nonBillableGB;
  }
  return {
    daily,
    totalPriorityGB: round2(totals.priority),
    totalOptInPriorityGB: round2(totals.optIn),
    totalStandardGB: round2(totals.standard),
    totalNonBillableGB: round2(totals.nonBillable),
    billableGB: used,
    capReachedOnMs,
  };
}
