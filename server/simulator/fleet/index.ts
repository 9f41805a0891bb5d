// The simulated provider account: one account, its plans, terminals, service lines, addresses,
// daily usage and telemetry, all derived from (seed, index) on demand.
//
// Terminal i starts on service line i (about 6% start on none), so a line and its first terminal
// share an index and the line's site gives the terminal its nickname. Ids are invertible
// permutations of the index (random.ts), so an id in a request decodes to its index without a
// table. What the generator cannot know — attach, detach, plan changes, reboots, and the service
// lifecycle (kits added from stock, addresses and lines created, lines ended, nicknames, public IP,
// opt-in, data blocks, top-ups) — lives in a small overlay of maps; the only per-index arrays are a
// byte of flags and the list order of the lines.
//
// Indexes: [0, size) are the account's generated terminals and lines; [size, size + stock) are
// kits the reseller holds in stock, known to the provider but not on the account until added;
// lines created through the API take the indexes after those, in order.
//
// This module puts the account together from its parts under fleet/, one per provider area:
// state.ts (options, generated facts, the overlay), ids.ts, inventory.ts (user terminals and
// addresses), lines.ts (service lines and their products), usage.ts (data usage), billing.ts
// (prices, charges, partial periods, data pools) and devices.ts (routers, telemetry, reboots).
import { hashString, hexPermutation, mix } from '../random';
import { cycleContaining, previousCycle } from '../usage';
import { createBilling } from './billing';
import { createDevices } from './devices';
import { createIds } from './ids';
import { createInventory } from './inventory';
import { createLines } from './lines';
import { createFleetState } from './state';
import type { Fleet, FleetExamples, FleetOptions, FleetStats } from './types';
import { createLineUsage } from './usage';

export { DEFAULT_SEED, DEFAULT_TERMINALS, MAX_TERMINALS } from './state';
export { MAX_TOP_UP_BLOCKS_PER_CYCLE, OPT_IN_COOL_DOWN_MS } from './types';
export type {
  AddressFilters,
  AddressInput,
  DataBlockRequest,
  DataPool,
  Fleet,
  FleetExamples,
  FleetOptions,
  FleetStats,
  IndexList,
  LineCharge,
  OptInState,
  Outcome,
  PartialPeriod,
  ProductChange,
  RecurringBlocksChange,
  ServiceLineCreation,
  ServiceLineFilters,
  UsageQuery,
  UserTerminalFilters,
} from './types';

export function createFleet(options: FleetOptions = {}): Fleet {
  const state = createFleetState(options);
  const ids = createIds(state);
  const usage = createLineUsage(state, ids);
  const devices = createDevices(state, ids, usage);
  const inventory = createInventory(state, ids, devices);
  const billing = createBilling(state, ids, usage);
  const lines = createLines(state, ids, usage, inventory, billing);
  const { size, accountNumber, clock, linesByIndex, lineOfTerminal, lineProfile, currentPlan, isActive, onAccount } = state;
  const { serviceLineNumberOf, serviceLineIndex, userTerminalIdOf } = ids;

  // ---- Summaries ----------------------------------------------------------------------------
  function stats(): FleetStats {
    const nowMs = clock().getTime();
    const previous = previousCycle(cycleContaining(nowMs));
    const terminals = inventory.accountTerminals();
    const all = state.allLines();
    const result: FleetStats = {
      terminals: terminals.length,
      serviceLines: all.length,
      unattachedTerminals: 0,
      inactiveServiceLines: 0,
      linesByProduct: {},
      overCapLastCycle: 0,
      offlineTerminals: 0,
      terminalsByModel: {},
      linesByContinent: {},
    };
    for (let k = 0; k < terminals.length; k++) {
      const t = terminals.at(k);
      if (lineOfTerminal(t) === null) result.unattachedTerminals++;
      if (!devices.isOnline(t)) result.offlineTerminals++;
      const model = state.terminalModel(t).name;
      result.terminalsByModel[model] = (result.terminalsByModel[model] ?? 0) + 1;
    }
    for (let k = 0; k < all.length; k++) {
      const l = all.at(k);
      const profile = lineProfile(l);
      const { plan } = currentPlan(l, profile);
      result.linesByProduct[plan.productReferenceId] = (result.linesByProduct[plan.productReferenceId] ?? 0) + 1;
      const continent = state.site(l).place.continent;
      result.linesByContinent[continent] = (result.linesByContinent[continent] ?? 0) + 1;
      if (!profile.active) {
        result.inactiveServiceLines++;
        continue;
      }
      const capGB = state.capOf(profile.basePlan, profile.baseBlocks);
      if (profile.startMs >= previous.endMs) continue;
      if (usage.usageFor(l, profile, previous, capGB, nowMs, profile.startMs).billableGB > capGB) result.overCapLastCycle++;
    }
    return result;
  }

  function examples(): FleetExamples {
    const firstLine = (test: (l: number) => boolean) => {
      for (const l of linesByIndex) if (test(l)) return serviceLineNumberOf(l);
      return null;
    };
    const firstTerminal = (test: (t: number) => boolean) => {
      for (let t = 0; t < size; t++) if (onAccount(t) && test(t)) return userTerminalIdOf(t);
      return null;
    };
    return {
      activeServiceLineNumber: serviceLineNumberOf(0),
      activeUserTerminalId: userTerminalIdOf(0),
      inactiveServiceLineNumber: firstLine((l) => !isActive(l)),
      unattachedUserTerminalId: firstTerminal((t) => lineOfTerminal(t) === null),
      priorityServiceLineNumber: firstLine((l) => isActive(l) && currentPlan(l, lineProfile(l)).plan.kind === 'priority'),
      offlineUserTerminalId: firstTerminal((t) => !devices.isOnline(t)),
      stockKitSerialNumber: inventory.stockKitSerials()[0] ?? null,
    };
  }

  return {
    seed: state.seed,
    size,
    accountNumber,
    currency: state.currency,
    createdAt: state.createdAt,
    knownServiceLineNumber: serviceLineNumberOf(0),
    knownUserTerminalId: userTerminalIdOf(0),
    account: () => ({ accountNumber, regionCode: state.regionCode, accountName: state.accountName, activeSuspensions: [] }),
    products: billing.products,
    plan: billing.plan,
    terminal: inventory.terminal,
    terminalModel: state.terminalModel,
    terminalIndex: ids.terminalIndex,
    userTerminalIds: inventory.userTerminalIds,
    stockKitSerials: inventory.stockKitSerials,
    userTerminals: inventory.userTerminals,
    serviceLineNumbers: () => [...Array.from(linesByIndex, serviceLineNumberOf), ...state.createdLineOrder.map(serviceLineNumberOf)],
    serviceLineIndex,
    serviceLine: (number) => {
      const l = serviceLineIndex(number);
      return l === undefined ? undefined : lines.serviceLineAt(l);
    },
    serviceLineAt: lines.serviceLineAt,
    serviceLines: lines.serviceLines,
    address: (id) => {
      const l = inventory.addressIndex(id);
      return l === undefined ? undefined : inventory.addressAt(l);
    },
    addresses: inventory.addresses,
    addressAt: inventory.addressAt,
    usageLines: usage.usageLines,
    usageRecord: usage.usageRecord,
    telemetry: (userTerminalIds) => devices.telemetry(inventory.accountTerminals, userTerminalIds),
    telemetryAt: devices.telemetryAt,
    devices: devices.hook,
    attach: inventory.attach,
    detach: inventory.detach,
    changeProduct: lines.changeProduct,
    reboot: devices.reboot,
    injectOutage: devices.injectOutage,
    surge: usage.surge,
    createAddress: inventory.createAddress,
    updateAddress: inventory.updateAddress,
    addTerminal: inventory.addTerminal,
    removeTerminal: inventory.removeTerminal,
    createServiceLine: lines.createServiceLine,
    deactivateServiceLine: lines.deactivateServiceLine,
    setNickname: lines.setNickname,
    setPublicIp: lines.setPublicIp,
    setOptIn: lines.setOptIn,
    endOptInCoolDown: lines.endOptInCoolDown,
    setRecurringBlocks: lines.setRecurringBlocks,
    topUp: lines.topUp,
    partialPeriods: billing.partialPeriods,
    dataPools: billing.dataPools,
    setPoolAutomaticTopUp: billing.setPoolAutomaticTopUp,
    setConsumeFromPool: billing.setConsumeFromPool,
    poolUsage: billing.poolUsage,
    cycleCharges: billing.cycleCharges,
    stats,
    examples,
  };
}

/** A stable, seed-keyed order over indexes: pages built from it hold the same members every time. */
export function stableOrderKey(seed: string | number): (index: number) => number {
  const permutation = hexPermutation(mix(hashString(String(seed)), 0x6f726472));
  return (index) => permutation.forward(index);
}
