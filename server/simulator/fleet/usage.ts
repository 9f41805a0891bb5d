// Data usage of the account's lines: the cap and usage of a billing cycle (plan, recurring blocks
// and top-ups, generated and bought), the usage records the data-usage query answers, and traffic
// surges set through the simulator's controls.
import { TOP_UP_50GB, dataProductGB, type Plan } from '../catalog';
import { draw } from '../random';
import {
  DAY_MS,
  cycleContaining,
  cycleEndIso,
  cycleUsage,
  iso,
  lastUpdatedAt,
  previousCycle,
  round2,
  startOfDay,
  type Cycle,
  type CycleUsage,
} from '../usage';
import {
  BUCKET_FIXED_RESTRICTED,
  BUCKET_FIXED_UNRESTRICTED,
  type DataUsageBillingCycleV2,
  type DataUsageOverageLine,
  type ServiceLineDataUsageForBillingCycles,
  type ValidationResult,
} from '../wire';
import type { Ids } from './ids';
import { TAG, fromArray, notFoundLine, parseList, rejected, type LineProfile } from './shared';
import type { FleetState } from './state';
import type { IndexList, Outcome, UsageQuery } from './types';

/** Billing cycles before the current one a usage query can reach. */
const MAX_PREVIOUS_CYCLES = 24;

export type LineUsage = ReturnType<typeof createLineUsage>;

export function createLineUsage(state: FleetState, ids: Ids) {
  const { key, clock, lineOverlay, createdLines, capOf, currentPlan, lineProfile } = state;

  /** One-time top-ups bought this cycle (about 8% of active lines), with the day bought. */
  function oneTimeTopUps(l: number, profile: LineProfile, cycle: Cycle, nowMs: number): { count: number; startMs: number } | null {
    if (!profile.active || createdLines.has(l)) return null;
    const month = new Date(cycle.startMs).getUTCMonth() + new Date(cycle.startMs).getUTCFullYear() * 12;
    const d = draw(key(TAG.topUp, l, month));
    if (!d.chance(0.08)) return null;
    const count = d.int(1, 2);
    const dayInCycle = Math.min(d.int(0, 20), Math.floor((nowMs - cycle.startMs) / DAY_MS));
    const boughtMs = cycle.startMs + dayInCycle * DAY_MS + d.int(8, 20) * 3_600_000;
    // Never in the future: a purchase "later today" is moved to a minute ago.
    return { count, startMs: Math.max(cycle.startMs, Math.min(boughtMs, nowMs - 60_000)) };
  }

  /** The cap and usage of the cycle containing `nowMs`, with everything that moves the cap. */
  function currentCycleFacts(l: number, profile: LineProfile, nowMs: number) {
    const cycle = cycleContaining(nowMs);
    const { plan, blocks } = currentPlan(l, profile);
    const topUps = oneTimeTopUps(l, profile, cycle, nowMs);
    const bought = boughtTopUps(l, cycle);
    const topUpBlocks = (topUps?.count ?? 0) + bought.reduce((sum, b) => sum + b.count, 0);
    const capGB = capOf(plan, blocks) + topUpBlocks * dataProductGB(TOP_UP_50GB);
    const usage = usageFor(l, profile, cycle, capGB, nowMs, profile.startMs);
    return { cycle, plan, blocks, topUps, bought, topUpBlocks, capGB, usage };
  }

  /** One-time top-up blocks of a complete cycle: the generated ones and those bought through the API. */
  const topUpBlocksIn = (l: number, profile: LineProfile, cycle: Cycle) =>
    (oneTimeTopUps(l, profile, cycle, cycle.endMs - 1)?.count ?? 0) + boughtTopUps(l, cycle).reduce((sum, b) => sum + b.count, 0);

  /** Top-ups bought through the API in a cycle. */
  const boughtTopUps = (l: number, cycle: Cycle) =>
    (lineOverlay.get(l)?.topUps ?? []).filter((b) => b.atMs >= cycle.startMs && b.atMs < cycle.endMs);

  function usageFor(l: number, profile: LineProfile, cycle: Cycle, capGB: number, nowMs: number, fromMs: number): CycleUsage {
    const overlay = lineOverlay.get(l);
    const until = Math.min(
      lastUpdatedAt(nowMs),
      profile.endMs ?? Infinity,
      overlay?.emptySinceMs ?? Infinity,
    );
    return cycleUsage({
      profile: profile.usage,
      cycle,
      fromMs: Math.max(fromMs, profile.startMs),
      untilMs: until,
      capGB,
      optedIn: optedInDuring(l, profile, cycle),
      ...(overlay?.surgesGB ? { surgesGB: overlay.surgesGB } : {}),
    });
  }

  /** An opt-in changed through the API counts from the cycle it changed in; earlier cycles stay as they were. */
  function optedInDuring(l: number, profile: LineProfile, cycle: Cycle): boolean {
    const changedMs = lineOverlay.get(l)?.optInChangedMs;
    if (changedMs !== undefined && cycle.endMs <= changedMs) return (createdLines.get(l)?.profile ?? state.generatedProfile(l)).optedIn;
    return profile.optedIn;
  }

  function overageLine(plan: Plan, capGB: number, usage: CycleUsage, optedIn: boolean, cycle: Cycle): DataUsageOverageLine {
    const overageAmountGB = optedIn ? usage.totalOptInPriorityGB : 0;
    const pricePerGB = state.price(plan.overage.pricePerGB);
    return {
      restricted: BUCKET_FIXED_RESTRICTED,
      unrestricted: BUCKET_FIXED_UNRESTRICTED,
      pricePerGB,
      usageLimitGB: capGB,
      overageAmountGB,
      consumedAmountGB: round2(Math.min(usage.totalPriorityGB, capGB)),
      overagePrice: round2(overageAmountGB * pricePerGB),
      productId: plan.overage.productId,
      dataOverageType: optedIn ? 1 : 3,
      activeFrom: usage.capReachedOnMs === null ? iso(cycle.startMs) : iso(usage.capReachedOnMs),
    };
  }

  function usageRecord(l: number, query: UsageQuery): ServiceLineDataUsageForBillingCycles {
    const profile = lineProfile(l);
    const nowMs = clock().getTime();
    const current = currentCycleFacts(l, profile, nowMs);
    const queryStartMs = query.queryStartDate ? Date.parse(query.queryStartDate) : null;
    const cycles: Cycle[] = [current.cycle];
    if (queryStartMs !== null) {
      while (cycles[0]!.startMs > queryStartMs && cycles.length <= MAX_PREVIOUS_CYCLES) cycles.unshift(previousCycle(cycles[0]!));
    } else {
      const previous = Math.min(query.previousBillingCycles ?? 1, MAX_PREVIOUS_CYCLES);
      for (let k = 0; k < previous; k++) cycles.unshift(previousCycle(cycles[0]!));
    }
    const basePlanCap = capOf(profile.basePlan, profile.baseBlocks);
    const billingCycles: DataUsageBillingCycleV2[] = cycles.map((cycle, k) => {
      const isCurrent = k === cycles.length - 1;
      // Earlier cycles ran on the line's original plan; the current one on today's.
      const plan = isCurrent ? current.plan : profile.basePlan;
      // A past cycle's limit counts the top-ups bought in it, as its invoice does.
      const capGB = isCurrent ? current.capGB : basePlanCap + topUpBlocksIn(l, profile, cycle) * dataProductGB(TOP_UP_50GB);
      const fromMs = k === 0 && queryStartMs !== null ? Math.max(queryStartMs, cycle.startMs) : cycle.startMs;
      const usage = isCurrent && fromMs === cycle.startMs ? current.usage : usageFor(l, profile, cycle, capGB, nowMs, fromMs);
      const over = usage.billableGB > capGB;
      return {
        startDate: iso(k === 0 && queryStartMs !== null ? startOfDay(fromMs) : cycle.startMs),
        endDate: cycleEndIso(cycle),
        dailyDataUsage: usage.daily,
        overageLines: over ? [overageLine(plan, capGB, usage, profile.optedIn, cycle)] : [],
        dataPoolUsage: [],
        totalPriorityGB: usage.totalPriorityGB,
        totalStandardGB: usage.totalStandardGB,
        totalOptInPriorityGB: usage.totalOptInPriorityGB,
        totalNonBillableGB: usage.totalNonBillableGB,
      } as DataUsageBillingCycleV2;
    });
    const plan = current.plan;
    return {
      accountNumber: state.accountNumber,
      serviceLineNumber: ids.serviceLineNumberOf(l),
      startDate: billingCycles[0]!.startDate,
      endDate: billingCycles[billingCycles.length - 1]!.endDate,
      billingCycles,
      servicePlan: {
        isoCurrencyCode: state.currency,
        isMobilePlan: false,
        activeFrom: iso(profile.startMs),
        subscriptionActiveFrom: iso(profile.startMs),
        subscriptionEndDate: profile.endMs === null ? null : iso(profile.endMs),
        overageName: plan.overage.name,
        overageDescription: plan.overage.description,
        isOptedIntoOverage: profile.optedIn,
        overageLineDeactivatedDate: null,
        overageLine: overageLine(plan, current.capGB, current.usage, profile.optedIn, current.cycle),
        productId: plan.productReferenceId,
        usageLimitGB: current.capGB,
        dataCategoryMapping: {},
      },
      lastUpdated: iso(lastUpdatedAt(nowMs)),
    };
  }

  function usageLines(query: UsageQuery): { lines: IndexList; warnings: ValidationResult[] } {
    const activeOnly = query.activeServiceLinesOnly ?? true;
    const warnings: ValidationResult[] = [];
    let lines: number[] | Uint32Array;
    if (query.serviceLineNumbers?.length) {
      const { found, unknown } = parseList(query.serviceLineNumbers, ids.serviceLineIndex);
      for (const number of unknown) warnings.push({ memberNames: ['serviceLineNumbers'], errorMessage: `Service line ${number} was not found on this account` });
      lines = [...new Set(found)].sort((a, b) => a - b);
    } else {
      lines = state.createdLineOrder.length === 0 ? state.linesByIndex : [...state.linesByIndex, ...state.createdLineOrder];
    }
    if (!activeOnly) return { lines: fromArray(lines), warnings };
    return { lines: fromArray(Array.from(lines).filter(state.isActive)), warnings };
  }

  function surge(serviceLineNumber: string, gb: number): Outcome {
    const l = ids.serviceLineIndex(serviceLineNumber);
    if (l === undefined) return notFoundLine(serviceLineNumber);
    if (!lineProfile(l).active) return rejected(`Service line ${serviceLineNumber} is not active`, ['serviceLineNumber']);
    // Counted on the day the usage feed last reported, so the next usage query already shows it.
    const day = startOfDay(lastUpdatedAt(clock().getTime()));
    const overlay = state.overlayOf(l);
    const surges = (overlay.surgesGB ??= new Map());
    surges.set(day, (surges.get(day) ?? 0) + gb);
    return { ok: true, value: undefined, information: [`Service line ${serviceLineNumber} used ${gb} GB more today`] };
  }

  return { oneTimeTopUps, currentCycleFacts, topUpBlocksIn, boughtTopUps, usageFor, optedInDuring, usageRecord, usageLines, surge };
}
