// The account's service lines: their records and list, and every change the API makes to one —
// creation and end, product changes, recurring data blocks, top-ups, nickname, public IP and the
// priority data opt-in.
import { BLOCK_50GB, PLANS, TOP_UP_50GB, dataProductGB, type DataProduct, type Plan } from '../catalog';
import { draw } from '../random';
import { cycleContaining, cycleEndIso, iso, nextCycle, type Cycle } from '../usage';
import type { DataBlockSummaryResponse, ServiceLineResponse } from '../wire';
import type { Billing } from './billing';
import type { Ids } from './ids';
import type { Inventory } from './inventory';
import { TAG, concat, fromArray, notFoundLine, rejected, type Blocks } from './shared';
import { MAX_TERMINALS, type FleetState } from './state';
import {
  MAX_TOP_UP_BLOCKS_PER_CYCLE,
  OPT_IN_COOL_DOWN_MS,
  type DataBlockRequest,
  type IndexList,
  type OptInState,
  type Outcome,
  type ProductChange,
  type RecurringBlocksChange,
  type ServiceLineCreation,
  type ServiceLineFilters,
} from './types';
import type { LineUsage } from './usage';

export type Lines = ReturnType<typeof createLines>;

export function createLines(state: FleetState, ids: Ids, usage: LineUsage, inventory: Inventory, billing: Billing) {
  const { key, clock, lineOverlay, createdLines, createdLineOrder, linesNewestFirst, poolOfLine, lineProfile, currentPlan, overlayOf, capOf, isActive, terminalsOfLine, terminalNickname } = state;
  const { serviceLineNumberOf, serviceLineIndex, terminalIndex, activeLine } = ids;
  const { poolProblem } = billing;
  const { currentCycleFacts } = usage;
  const { addressIndex, addressAt, lineAddressId } = inventory;
  /** Lines created through the API take the indexes after every kit the provider knows, in order. */
  let nextLineIndex = state.terminalCount;

  function nicknameOf(l: number): string | null {
    const overlay = lineOverlay.get(l);
    if (overlay?.nickname !== undefined) return overlay.nickname;
    // A line created through the API has no name until it is given one.
    return createdLines.has(l) ? null : state.lineNickname(l);
  }

  function blockSummary(product: DataProduct, count: number, startMs: number, cycle: Cycle): DataBlockSummaryResponse {
    return {
      productId: product.productId,
      startDate: iso(startMs),
      expirationDate: cycleEndIso(cycle),
      count,
      dataAmount: product.dataAmount,
      dataUnitType: product.dataUnit,
    };
  }

  function serviceLineAt(l: number): ServiceLineResponse {
    const profile = lineProfile(l);
    const nowMs = clock().getTime();
    const facts = currentCycleFacts(l, profile, nowMs);
    const next = nextCycle(facts.cycle);
    const { delayed } = currentPlan(l, profile);
    const nextBlocks = lineOverlay.get(l)?.nextBlocks;
    const recurring = (cycle: Cycle, blocks: { product: DataProduct; count: number } | null) =>
      blocks ? [blockSummary(blocks.product, blocks.count, cycle.startMs, cycle)] : [];
    // Opted-in Priority lines buy 50 GB top-ups automatically once their blocks run out.
    const autoTopUps =
      facts.plan.kind === 'priority' && profile.optedIn && facts.usage.capReachedOnMs !== null
        ? [
            blockSummary(
              TOP_UP_50GB,
              Math.ceil((facts.usage.billableGB - facts.capGB) / dataProductGB(TOP_UP_50GB)),
              facts.usage.capReachedOnMs,
              facts.cycle,
            ),
          ]
        : [];
    const oneTime = [
      ...(facts.topUps ? [blockSummary(TOP_UP_50GB, facts.topUps.count, facts.topUps.startMs, facts.cycle)] : []),
      ...facts.bought.map((b) => blockSummary(TOP_UP_50GB, b.count, b.atMs, facts.cycle)),
    ];
    return {
      addressReferenceId: lineAddressId(l),
      serviceLineNumber: serviceLineNumberOf(l),
      nickname: nicknameOf(l),
      productReferenceId: facts.plan.productReferenceId,
      delayedProductId: delayed?.plan.productReferenceId ?? null,
      optInProductId: profile.optedIn ? facts.plan.overage.productId : null,
      startDate: iso(profile.startMs),
      endDate: profile.endMs === null ? null : iso(profile.endMs),
      publicIp: profile.publicIp,
      active: profile.active,
      dataBlocks: {
        recurringBlocksCurrentBillingCycle: profile.active ? recurring(facts.cycle, facts.blocks) : [],
        recurringBlocksNextBillingCycle: profile.active && (profile.endMs === null || profile.endMs >= next.startMs) ? recurring(next, nextBlocks !== undefined ? nextBlocks : facts.blocks) : [],
        delayedProductRecurringBlocksNextCycle: delayed ? recurring(next, delayed.blocks) : [],
        topUpBlocksOptInPurchase: autoTopUps,
        topUpBlocksOneTimePurchase: oneTime,
      },
    };
  }

  function serviceLines(filters: ServiceLineFilters = {}): IndexList {
    // Created lines are the newest: first by default, last when asked oldest first.
    const order =
      filters.orderByCreatedDateDescending === false
        ? concat(fromArray(Uint32Array.from(linesNewestFirst).reverse()), fromArray(createdLineOrder))
        : concat(fromArray([...createdLineOrder].reverse()), fromArray(linesNewestFirst));
    const needle = filters.searchString?.trim().toLowerCase() || undefined;
    if (!needle && !filters.addressReferenceId) return order;
    const address = filters.addressReferenceId?.trim().toLowerCase();
    // Exact matches on a terminal's ids or a line number; a fuzzy (substring) match on nicknames.
    const exactTerminal = needle ? terminalIndex(needle) : undefined;
    const exactLine = needle ? serviceLineIndex(needle) : undefined;
    const result: number[] = [];
    for (let k = 0; k < order.length; k++) {
      const l = order.at(k);
      if (address !== undefined && lineAddressId(l) !== address) continue;
      if (needle) {
        const terminals = terminalsOfLine(l);
        const matches =
          l === exactLine ||
          (exactTerminal !== undefined && terminals.includes(exactTerminal)) ||
          (nicknameOf(l) ?? '').toLowerCase().includes(needle) ||
          terminals.some((t) => terminalNickname(t)?.toLowerCase() === needle);
        if (!matches) continue;
      }
      result.push(l);
    }
    return fromArray(result);
  }

  function changeProduct(serviceLineNumber: string, change: ProductChange): Outcome {
    const l = serviceLineIndex(serviceLineNumber);
    if (l === undefined) return notFoundLine(serviceLineNumber);
    if (!isActive(l)) return rejected(`Service line ${serviceLineNumber} is not active`, ['serviceLineNumber']);
    const plan = PLANS.find((p) => p.productReferenceId === change.productReferenceId);
    if (!plan) return rejected(`Product ${change.productReferenceId} is not available on this account`, ['productReferenceId']);
    const pool = poolProblem(change.dataPoolId ?? null, change.recurringDataBlocks ?? []);
    if (pool) return pool;
    if (change.dataPoolId) poolOfLine.set(l, change.dataPoolId);
    const requested = change.recurringDataBlocks ?? [];
    if (plan.kind === 'metered' && requested.length > 0) {
      return rejected(`Product ${plan.productReferenceId} does not take recurring data blocks`, ['recurringDataBlocks']);
    }
    const profile = lineProfile(l);
    const now = currentPlan(l, profile);
    let blocks: { product: DataProduct; count: number } | null = null;
    if (plan.kind === 'priority') {
      if (requested.length > 1) return rejected('Choose one kind of recurring data block', ['recurringDataBlocks']);
      const wanted = requested[0];
      if (wanted) {
        const product = plan.dataBlockProducts.find((p) => p.productId === wanted.productId);
        if (!product) return rejected(`Data block ${wanted.productId} is not available on ${plan.productReferenceId}`, ['recurringDataBlocks']);
        if (!Number.isInteger(wanted.count) || wanted.count < 1 || wanted.count > 100) {
          return rejected('Recurring data block count must be from 1 to 100', ['recurringDataBlocks']);
        }
        blocks = { product, count: wanted.count };
      } else {
        // Keep the line's blocks when it already has some; a Priority plan needs at least one.
        blocks = now.plan.kind === 'priority' && now.blocks ? now.blocks : { product: BLOCK_50GB, count: 1 };
      }
    }
    const monthly = (p: Plan, b: typeof blocks) => p.price + (b ? b.product.price * b.count : 0);
    // The provider's "legacy" rule when delayUpdate is null: upgrades now, downgrades next cycle.
    const delay = change.delayUpdate ?? monthly(plan, blocks) < monthly(now.plan, now.blocks);
    const overlay = lineOverlay.get(l) ?? {};
    if (delay) {
      overlay.delayed = { plan, blocks };
      lineOverlay.set(l, overlay);
      const startsOn = iso(nextCycle(cycleContaining(clock().getTime())).startMs).slice(0, 10);
      return { ok: true, value: undefined, information: [`Product change to ${plan.productReferenceId} scheduled for ${startsOn}`] };
    }
    overlay.plan = plan;
    overlay.blocks = blocks;
    overlay.delayed = null;
    if (plan.productReferenceId !== now.plan.productReferenceId) {
      (overlay.planChanges ??= []).push({ atMs: clock().getTime(), productReferenceId: plan.productReferenceId });
    }
    lineOverlay.set(l, overlay);
    return { ok: true, value: undefined, information: [`Service line ${serviceLineNumber} is now on ${plan.productReferenceId}`] };
  }

  /** Recurring blocks asked for a plan: one kind, 1 to 100 of it; a Priority plan needs some. */
  function blocksFor(plan: Plan, requested: DataBlockRequest[], current: Blocks): Outcome<Blocks> {
    if (plan.kind === 'metered') {
      return requested.length > 0 ? rejected(`Product ${plan.productReferenceId} does not take recurring data blocks`, ['recurringDataBlocks']) : { ok: true, value: null };
    }
    if (requested.length > 1) return rejected('Choose one kind of recurring data block', ['recurringDataBlocks']);
    const wanted = requested[0];
    if (!wanted) return { ok: true, value: current ?? { product: BLOCK_50GB, count: 1 } };
    const product = plan.dataBlockProducts.find((p) => p.productId === wanted.productId);
    if (!product) return rejected(`Data block ${wanted.productId} is not available on ${plan.productReferenceId}`, ['recurringDataBlocks']);
    if (!Number.isInteger(wanted.count) || wanted.count < 1 || wanted.count > 100) {
      return rejected('Recurring data block count must be from 1 to 100', ['recurringDataBlocks']);
    }
    return { ok: true, value: { product, count: wanted.count } };
  }

  function createServiceLine(creation: ServiceLineCreation): Outcome<ServiceLineResponse> {
    const slot = addressIndex(creation.addressReferenceId);
    if (slot === undefined) return rejected(`Address ${creation.addressReferenceId} was not found on this account`, ['addressReferenceId']);
    const plan = PLANS.find((p) => p.productReferenceId === creation.productReferenceId);
    if (!plan) return rejected(`Product ${creation.productReferenceId} is not available on this account`, ['productReferenceId']);
    const poolId = creation.dataBlockProducts?.dataPoolId ?? null;
    const pool = poolProblem(poolId, creation.dataBlockProducts?.recurringDataBlocks ?? []);
    if (pool) return pool;
    // A line on a pool draws on the pool's blocks instead of its own.
    const blocks = poolId ? ({ ok: true, value: null } as const) : blocksFor(plan, creation.dataBlockProducts?.recurringDataBlocks ?? [], null);
    if (!blocks.ok) return blocks;
    if (nextLineIndex >= MAX_TERMINALS) return rejected('This account cannot hold more service lines', ['productReferenceId']);
    const l = nextLineIndex++;
    const d = draw(key(TAG.line, l));
    const ratio = 0.03 + 0.9 * d.next() ** 1.2;
    const capGB = capOf(plan, blocks.value) || dataProductGB(BLOCK_50GB);
    createdLines.set(l, {
      addressReferenceId: addressAt(slot).addressReferenceId,
      profile: {
        basePlan: plan,
        baseBlocks: blocks.value,
        active: true,
        startMs: clock().getTime(),
        endMs: null,
        optedIn: false,
        publicIp: false,
        usage: { key: key(TAG.usage, l), baseDailyGB: (ratio * capGB) / 30.44, zeroShare: d.range(0.01, 0.12) },
      },
    });
    createdLineOrder.push(l);
    if (poolId) poolOfLine.set(l, poolId);
    return { ok: true, value: serviceLineAt(l) };
  }

  function deactivateServiceLine(serviceLineNumber: string, options: { endNow: boolean; reason: string | null }): Outcome {
    const found = activeLine(serviceLineNumber);
    if (!found.ok) return found;
    const l = found.value;
    const overlay = overlayOf(l);
    if (overlay.end) {
      return rejected(`Service line ${serviceLineNumber} is already set to end on ${iso(overlay.end.atMs).slice(0, 10)}`, ['serviceLineNumber']);
    }
    const nowMs = clock().getTime();
    // At the end of the cycle: the last second of it, as the cycle's end date reads.
    const atMs = options.endNow ? nowMs : cycleContaining(nowMs).endMs - 1000;
    overlay.end = { atMs, reason: options.reason };
    overlay.delayed = null;
    return {
      ok: true,
      value: undefined,
      information: [options.endNow ? `Service line ${serviceLineNumber} deactivated` : `Service line ${serviceLineNumber} will be deactivated on ${iso(atMs).slice(0, 10)}`],
    };
  }

  function setNickname(serviceLineNumber: string, nickname: string): Outcome {
    const l = serviceLineIndex(serviceLineNumber);
    if (l === undefined) return notFoundLine(serviceLineNumber);
    overlayOf(l).nickname = nickname.trim();
    return { ok: true, value: undefined };
  }

  function setPublicIp(serviceLineNumber: string, publicIp: boolean): Outcome {
    const found = activeLine(serviceLineNumber);
    if (!found.ok) return found;
    overlayOf(found.value).publicIp = publicIp;
    return { ok: true, value: undefined, information: [`Public IP ${publicIp ? 'enabled' : 'disabled'} on service line ${serviceLineNumber}`] };
  }

  function setOptIn(serviceLineNumber: string, optedIn: boolean): Outcome<OptInState> {
    const found = activeLine(serviceLineNumber);
    if (!found.ok) return found;
    const l = found.value;
    const nowMs = clock().getTime();
    const overlay = lineOverlay.get(l);
    const profile = lineProfile(l);
    const plan = currentPlan(l, profile).plan;
    const coolingUntil = overlay?.optInChangedMs === undefined || overlay.coolDownEndedFor === overlay.optInChangedMs ? null : overlay.optInChangedMs + OPT_IN_COOL_DOWN_MS;
    const optInState = (): OptInState => {
      const changedMs = lineOverlay.get(l)?.optInChangedMs;
      const on = lineProfile(l).optedIn;
      return {
        productId: plan.overage.productId,
        activatedDate: iso(on && changedMs !== undefined ? changedMs : profile.startMs),
        deactivatedDate: on ? null : changedMs === undefined ? null : iso(changedMs),
        isInOptInCoolDown: changedMs !== undefined && lineOverlay.get(l)?.coolDownEndedFor !== changedMs && nowMs < changedMs + OPT_IN_COOL_DOWN_MS,
      };
    };
    // Asking for the state the line is in changes nothing (and is not a change for the cool-down).
    if (profile.optedIn === optedIn) return { ok: true, value: optInState() };
    if (coolingUntil !== null && nowMs < coolingUntil) {
      return rejected(`Service line ${serviceLineNumber} changed its priority data opt-in recently; try again after ${iso(coolingUntil)}`, ['serviceLineNumber']);
    }
    const changed = overlayOf(l);
    changed.optedIn = optedIn;
    changed.optInChangedMs = nowMs;
    return { ok: true, value: optInState() };
  }

  function setRecurringBlocks(serviceLineNumber: string, change: RecurringBlocksChange): Outcome {
    const found = activeLine(serviceLineNumber);
    if (!found.ok) return found;
    const l = found.value;
    const pool = poolProblem(change.dataPoolId ?? null, change.recurringDataBlocks ?? []);
    if (pool) return pool;
    if (change.dataPoolId) {
      poolOfLine.set(l, change.dataPoolId);
      return { ok: true, value: undefined, information: [`Service line ${serviceLineNumber} now consumes from data pool ${change.dataPoolId}`] };
    }
    const { plan, blocks: current } = currentPlan(l, lineProfile(l));
    if (plan.kind !== 'priority') return rejected(`Product ${plan.productReferenceId} does not take recurring data blocks`, ['recurringDataBlocks']);
    const requested = change.recurringDataBlocks ?? [];
    if (requested.length === 0) return rejected('A Priority line needs at least one recurring data block', ['recurringDataBlocks']);
    const blocks = blocksFor(plan, requested, current);
    if (!blocks.ok) return blocks;
    const overlay = overlayOf(l);
    overlay.nextBlocks = blocks.value;
    // "Apply to the current month" adds blocks to this cycle; it never takes any away.
    const gb = (b: Blocks) => (b ? dataProductGB(b.product) * b.count : 0);
    if (change.applyToCurrentMonth && gb(blocks.value) > gb(current)) overlay.blocks = blocks.value;
    return { ok: true, value: undefined };
  }

  function topUp(serviceLineNumber: string, block: DataBlockRequest): Outcome {
    const found = activeLine(serviceLineNumber);
    if (!found.ok) return found;
    const l = found.value;
    const nowMs = clock().getTime();
    const facts = currentCycleFacts(l, lineProfile(l), nowMs);
    if (block.productId !== facts.plan.topUpProduct.productId) {
      return rejected(`Data block ${block.productId} is not a top-up of ${facts.plan.productReferenceId}`, ['productId']);
    }
    if (!Number.isInteger(block.count) || block.count < 1) return rejected('Top-up count must be at least 1', ['count']);
    if (facts.topUpBlocks + block.count > MAX_TOP_UP_BLOCKS_PER_CYCLE) {
      const left = MAX_TOP_UP_BLOCKS_PER_CYCLE - facts.topUpBlocks;
      return rejected(`At most ${MAX_TOP_UP_BLOCKS_PER_CYCLE} top-up blocks can be bought in one billing cycle (${left} left)`, ['count']);
    }
    const overlay = overlayOf(l);
    (overlay.topUps ??= []).push({ count: block.count, atMs: nowMs });
    return { ok: true, value: undefined, information: [`${block.count} × ${block.productId} added to service line ${serviceLineNumber}`] };
  }

  /**
   * Ends the line's opt-in cool-down now, as if its day had passed (a simulator control: a demo or
   * a test can then take an opt-out back without waiting a day). What the line used stays as it was.
   */
  function endOptInCoolDown(serviceLineNumber: string): Outcome {
    const found = activeLine(serviceLineNumber);
    if (!found.ok) return found;
    const overlay = lineOverlay.get(found.value);
    if (overlay?.optInChangedMs !== undefined) overlay.coolDownEndedFor = overlay.optInChangedMs;
    return { ok: true, value: undefined, information: [`Service line ${serviceLineNumber} may change its priority data opt-in again`] };
  }

  return {
    endOptInCoolDown,
    serviceLineAt,
    serviceLines,
    changeProduct,
    createServiceLine,
    deactivateServiceLine,
    setNickname,
    setPublicIp,
    setOptIn,
    setRecurringBlocks,
    topUp,
  };
}
