// What the account is charged, in its currency: the products on sale at its prices, a line's
// time on each product cycle by cycle (partial periods), the charges of a complete cycle that the
// provider's invoice lists, and the shared data pool lines may draw on.
import { PLANS, TOP_UP_50GB, dataProductGB, type DataProduct, type Plan } from '../catalog';
import { cycleContaining, iso, nextCycle, type Cycle } from '../usage';
import type { SubscriptionProductResponse } from '../wire';
import type { Ids } from './ids';
import { notFoundLine, rejected, type Blocks } from './shared';
import type { FleetState } from './state';
import type { DataBlockRequest, DataPool, LineCharge, Outcome, PartialPeriod } from './types';
import type { LineUsage } from './usage';

interface ProductSpan {
  plan: Plan;
  blocks: Blocks;
  startMs: number;
  endMs: number;
  cycle: Cycle;
  /** Less than its whole cycle: the line started, ended or changed plan in it. */
  partial: boolean;
}

export type Billing = ReturnType<typeof createBilling>;

export function createBilling(state: FleetState, ids: Ids, usage: LineUsage) {
  const { clock, currency, price, lineOverlay, createdLines, pools, poolOfLine, lineProfile, currentPlan, capOf } = state;
  const { serviceLineNumberOf, serviceLineIndex } = ids;

  // ---- Prices -------------------------------------------------------------------------------
  const pricedProduct = (product: DataProduct): DataProduct => ({ ...product, price: price(product.price) });
  const pricedPlans = new Map<Plan, Plan>();
  /** A plan at the account's prices; in USD, the catalog's own plan. */
  function pricedPlan(plan: Plan): Plan {
    if (price(1) === 1) return plan;
    let priced = pricedPlans.get(plan);
    if (!priced) {
      priced = {
        ...plan,
        price: price(plan.price),
        overage: { ...plan.overage, pricePerGB: price(plan.overage.pricePerGB) },
        topUpProduct: pricedProduct(plan.topUpProduct),
        dataBlockProducts: plan.dataBlockProducts.map(pricedProduct),
      };
      pricedPlans.set(plan, priced);
    }
    return priced;
  }

  function productResponse(catalogPlan: Plan): SubscriptionProductResponse {
    const plan = pricedPlan(catalogPlan);
    return {
      productReferenceId: plan.productReferenceId,
      name: plan.name,
      price: plan.price,
      isoCurrencyCode: currency,
      isSla: plan.isSla,
      maxNumberOfUserTerminals: null,
      dataProducts: {
        topUpProduct: { ...plan.topUpProduct, isoCurrencyCode: currency },
        dataBlockProducts: plan.dataBlockProducts.map((p) => ({ ...p, isoCurrencyCode: currency })),
      },
    };
  }

  const products = () => PLANS.map(productResponse);
  function plan(productReferenceId: string): Plan | undefined {
    const found = PLANS.find((p) => p.productReferenceId === productReferenceId);
    return found && pricedPlan(found);
  }

  // ---- Charges ------------------------------------------------------------------------------
  /**
   * A line's time on each product, cycle by cycle up to now: one span per cycle, or several in a
   * cycle where it started, ended or changed plan; `partial` when a span is less than its cycle.
   */
  function productSpans(l: number): ProductSpan[] {
    const profile = lineProfile(l);
    const base = createdLines.get(l)?.profile ?? state.generatedProfile(l);
    const nowMs = clock().getTime();
    // The end date is the last second of service.
    const untilMs = Math.min(nowMs, profile.endMs === null ? Infinity : profile.endMs + 1000);
    const changes = lineOverlay.get(l)?.planChanges ?? [];
    const planAt = (ms: number) => {
      let plan = base.basePlan;
      for (const change of changes) if (change.atMs <= ms) plan = PLANS.find((p) => p.productReferenceId === change.productReferenceId) ?? plan;
      return plan;
    };
    const blocksAt = (ms: number): Blocks => (changes.length > 0 && ms >= changes[changes.length - 1]!.atMs ? currentPlan(l, profile).blocks : base.baseBlocks);
    const spans: ProductSpan[] = [];
    for (let cycle = cycleContaining(profile.startMs); cycle.startMs < untilMs; cycle = nextCycle(cycle)) {
      const from = Math.max(cycle.startMs, profile.startMs);
      const until = Math.min(cycle.endMs, profile.endMs === null ? Infinity : profile.endMs + 1000);
      if (from >= until) continue;
      const cuts = [from, ...changes.map((c) => c.atMs).filter((ms) => ms > from && ms < until), until];
      for (let k = 0; k + 1 < cuts.length; k++) {
        const startMs = cuts[k]!;
        const endMs = cuts[k + 1]!;
        spans.push({ plan: planAt(startMs), blocks: blocksAt(startMs), startMs, endMs, cycle, partial: startMs > cycle.startMs || endMs < cycle.endMs });
      }
    }
    return spans;
  }

  /** The provider's charges for one line over a complete cycle (fees pro-rated by time, extras in full). */
  function lineCharges(l: number, cycle: Cycle): LineCharge[] {
    const number = serviceLineNumberOf(l);
    const charges: LineCharge[] = [];
    const length = cycle.endMs - cycle.startMs;
    const share = (span: { startMs: number; endMs: number }) => Math.round(((span.endMs - span.startMs) / length) * 10_000) / 10_000;
    for (const span of productSpans(l)) {
      if (span.cycle.startMs !== cycle.startMs) continue;
      const quantity = share(span);
      charges.push({ serviceLineNumber: number, productReferenceId: span.plan.productReferenceId, description: span.plan.name, quantity, unitPrice: price(span.plan.price), periodStartMs: span.startMs, periodEndMs: span.endMs });
      if (span.blocks) {
        const { product, count } = span.blocks;
        charges.push({
          serviceLineNumber: number,
          productReferenceId: product.productId,
          description: `Recurring data block ${product.dataAmount} ${product.dataUnit} × ${count}`,
          quantity: Math.round(quantity * count * 10_000) / 10_000,
          unitPrice: price(product.price),
          periodStartMs: span.startMs,
          periodEndMs: span.endMs,
        });
      }
    }
    if (charges.length === 0) return charges;
    const profile = lineProfile(l);
    const cycleEndMs = cycle.endMs;
    const topUps = usage.topUpBlocksIn(l, profile, cycle);
    const topUpPrice = price(TOP_UP_50GB.price);
    if (topUps > 0) {
      charges.push({ serviceLineNumber: number, productReferenceId: TOP_UP_50GB.productId, description: 'One-time top-up 50 GB', quantity: topUps, unitPrice: topUpPrice, periodStartMs: cycle.startMs, periodEndMs: cycleEndMs });
    }
    if (usage.optedInDuring(l, profile, cycle)) {
      // What opting in bought past the limit: priority GB on metered plans, automatic 50 GB blocks on Priority.
      const last = productSpans(l).filter((span) => span.cycle.startMs === cycle.startMs).at(-1)!;
      const capGB = capOf(last.plan, last.blocks) + topUps * dataProductGB(TOP_UP_50GB);
      const used = usage.usageFor(l, profile, cycle, capGB, clock().getTime(), profile.startMs);
      if (last.plan.kind === 'metered' && used.totalOptInPriorityGB > 0) {
        charges.push({ serviceLineNumber: number, productReferenceId: last.plan.overage.productId, description: last.plan.overage.name, quantity: used.totalOptInPriorityGB, unitPrice: price(last.plan.overage.pricePerGB), periodStartMs: cycle.startMs, periodEndMs: cycleEndMs });
      }
      if (last.plan.kind === 'priority' && used.billableGB > capGB) {
        const blocks = Math.ceil((used.billableGB - capGB) / dataProductGB(TOP_UP_50GB));
        charges.push({ serviceLineNumber: number, productReferenceId: TOP_UP_50GB.productId, description: 'Automatic top-up 50 GB', quantity: blocks, unitPrice: topUpPrice, periodStartMs: cycle.startMs, periodEndMs: cycleEndMs });
      }
    }
    return charges;
  }

  function cycleCharges(cycleStartMs: number): LineCharge[] {
    const cycle = cycleContaining(cycleStartMs);
    const lines = state.allLines();
    const charges: LineCharge[] = [];
    for (let k = 0; k < lines.length; k++) {
      const l = lines.at(k);
      const profile = lineProfile(l);
      if (profile.startMs >= cycle.endMs || (profile.endMs !== null && profile.endMs < cycle.startMs)) continue;
      charges.push(...lineCharges(l, cycle));
    }
    return charges;
  }

  function partialPeriods(serviceLineNumber: string): Outcome<PartialPeriod[]> {
    const l = serviceLineIndex(serviceLineNumber);
    if (l === undefined) return notFoundLine(serviceLineNumber);
    const spans = productSpans(l).filter((span) => span.partial);
    return {
      ok: true,
      value: spans.map((span) => ({ productReferenceId: span.plan.productReferenceId, periodStart: iso(span.startMs), periodEnd: iso(span.endMs) })),
    };
  }

  // ---- Data pools ---------------------------------------------------------------------------
  /** Why a line cannot go onto the pool asked for (none asked: no problem). */
  function poolProblem(dataPoolId: string | null, blocks: DataBlockRequest[]): Outcome<never> | null {
    if (!dataPoolId) return null;
    if (blocks.length > 0) return rejected('dataPoolId and recurringDataBlocks cannot be used together', ['dataPoolId']);
    if (!pools.some((pool) => pool.dataPoolId === dataPoolId)) return rejected(`Data pool ${dataPoolId} was not found on this account`, ['dataPoolId']);
    return null;
  }

  const dataPools = (): DataPool[] => pools.map((pool) => ({ ...pool, blocks: { ...pool.blocks, product: pricedProduct(pool.blocks.product) } }));

  function setPoolAutomaticTopUp(dataPoolId: string, enabled: boolean): Outcome {
    const pool = pools.find((p) => p.dataPoolId === dataPoolId);
    if (!pool) return { ok: false, status: 404, message: `Data pool ${dataPoolId} was not found on this account`, memberNames: ['dataPoolId'] };
    pool.automaticTopUpEnabled = enabled;
    return { ok: true, value: undefined };
  }

  function setConsumeFromPool(serviceLineNumber: string, consume: boolean): Outcome {
    const found = ids.activeLine(serviceLineNumber);
    if (!found.ok) return found;
    if (!consume) {
      poolOfLine.delete(found.value);
      return { ok: true, value: undefined };
    }
    const pool = pools[0]!;
    poolOfLine.set(found.value, pool.dataPoolId);
    return { ok: true, value: undefined, information: [`Service line ${serviceLineNumber} now consumes from data pool ${pool.dataPoolId}`] };
  }

  function poolUsage(dataPoolId: string) {
    const nowMs = clock().getTime();
    const members = [...poolOfLine].filter(([, id]) => id === dataPoolId).map(([l]) => l).sort((a, b) => a - b);
    return members.map((l) => ({ serviceLineNumber: serviceLineNumberOf(l), consumedGB: usage.currentCycleFacts(l, lineProfile(l), nowMs).usage.totalPriorityGB }));
  }

  return { products, plan, cycleCharges, partialPeriods, poolProblem, dataPools, setPoolAutomaticTopUp, setConsumeFromPool, poolUsage };
}
