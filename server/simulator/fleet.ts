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
import type { z } from 'zod';
import type { addressBody } from '../provider/operations';
import {
  ACCOUNT_NAME_PARTS,
  BLOCK_1TB,
  BLOCK_50GB,
  CONTINENT_WEIGHTS,
  CURRENCY,
  MODELS,
  PLACES,
  PLANS,
  PLAN_1TB,
  PLAN_50GB,
  PLAN_PRIORITY,
  SITE_KINDS,
  SOFTWARE_VERSIONS,
  TOP_UP_50GB,
  dataProductGB,
  type Continent,
  type DataProduct,
  type Place,
  type Plan,
  type TerminalModel,
} from './catalog';
import { decimalPermutation, digits, draw, hashString, hex, hexPermutation, mix, toUnit, type Draw } from './random';
import {
  DAY_MS,
  cycleContaining,
  cycleEndIso,
  cycleUsage,
  iso,
  lastUpdatedAt,
  nextCycle,
  previousCycle,
  round2,
  startOfDay,
  type Cycle,
  type CycleUsage,
  type UsageProfile,
} from './usage';
import {
  BUCKET_FIXED_RESTRICTED,
  BUCKET_FIXED_UNRESTRICTED,
  type AccountResponseV2,
  type AddressResponse,
  type DataBlockSummaryResponse,
  type DataUsageBillingCycleV2,
  type DataUsageOverageLine,
  type ServiceLineDataUsageForBillingCycles,
  type ServiceLineResponse,
  type SubscriptionProductResponse,
  type TelemetryRecord,
  type UserTerminalResponseV2,
  type ValidationResult,
} from './wire';

export const DEFAULT_SEED = 'starlink-demo';
export const DEFAULT_TERMINALS = 156;
/** Service line numbers carry 7 digits of index, so this is the largest fleet ids can express. */
export const MAX_TERMINALS = 10_000_000;

export interface FleetOptions {
  seed?: string | number;
  terminals?: number;
  /** Kits in the reseller's stock, not on the account until added (default: 5 % of the fleet, 10 to 1,000). */
  stock?: number;
  accountNumber?: string;
  /** The clock; the fleet's start and end dates are laid out back from its first reading. */
  now?: () => Date;
}

/** Expected failures of the write operations: data, not exceptions. */
export type Outcome<T = undefined> =
  | { ok: true; value: T; information?: string[] }
  | { ok: false; status: 404 | 422; message: string; memberNames?: string[] };

/** AddressCreateRequest / AddressUpdateRequestV2, as the route validated it (the table's body). */
export type AddressInput = z.output<typeof addressBody>;

export interface DataBlockRequest {
  productId: string;
  count: number;
}

export interface ServiceLineCreation {
  addressReferenceId: string;
  productReferenceId: string;
  dataBlockProducts?: { recurringDataBlocks?: DataBlockRequest[] | null; dataPoolId?: string | null } | null;
}

export interface RecurringBlocksChange {
  recurringDataBlocks?: DataBlockRequest[] | null;
  dataPoolId?: string | null;
  applyToCurrentMonth?: boolean | null;
}

export interface OptInState {
  productId: string;
  activatedDate: string;
  deactivatedDate: string | null;
  isInOptInCoolDown: boolean;
}

export interface PartialPeriod {
  productReferenceId: string;
  periodStart: string;
  periodEnd: string;
}

/** What the provider charges for one line in one billing cycle: one item per product. */
export interface LineCharge {
  serviceLineNumber: string;
  productReferenceId: string;
  description: string;
  /** Units billed: a share of the month for fees of a partial period, blocks, or GB. */
  quantity: number;
  unitPrice: number;
  periodStartMs: number;
  periodEndMs: number;
}

/** A shared data pool of the account: lines that consume from it draw on its blocks. */
export interface DataPool {
  dataPoolId: string;
  nickname: string;
  productId: string;
  automaticTopUpEnabled: boolean;
  /** Recurring blocks of the pool each cycle. */
  blocks: { product: DataProduct; count: number };
}

/** How long after an opt-in or opt-out the line cannot change it again. */
export const OPT_IN_COOL_DOWN_MS = 24 * 3_600_000;
/** One-time top-up blocks a line may buy in one billing cycle. */
export const MAX_TOP_UP_BLOCKS_PER_CYCLE = 10;

export interface UserTerminalFilters {
  searchString?: string;
  serviceLineNumbers?: string[];
  userTerminalIds?: string[];
  hasServiceLine?: boolean;
}

export interface AddressFilters {
  /** Address reference ids; unknown ones match nothing. */
  addressIds?: string[];
  /** Exact match on the address metadata (generated addresses carry none). */
  metadata?: string;
}

export interface ServiceLineFilters {
  addressReferenceId?: string;
  searchString?: string;
  orderByCreatedDateDescending?: boolean;
}

export interface UsageQuery {
  serviceLineNumbers?: string[] | null;
  previousBillingCycles?: number | null;
  /** Default true. */
  activeServiceLinesOnly?: boolean | null;
  queryStartDate?: string | null;
}

export interface ProductChange {
  productReferenceId: string;
  recurringDataBlocks?: { productId: string; count: number }[] | null;
  dataPoolId?: string | null;
  delayUpdate?: boolean | null;
}

/** A list the routes can page through without building it when it is the whole fleet. */
export interface IndexList {
  readonly length: number;
  at(position: number): number;
}

export interface FleetStats {
  terminals: number;
  serviceLines: number;
  unattachedTerminals: number;
  inactiveServiceLines: number;
  linesByProduct: Record<string, number>;
  /** Lines whose previous (complete) billing cycle went past the plan's data. */
  overCapLastCycle: number;
  offlineTerminals: number;
  terminalsByModel: Record<string, number>;
  linesByContinent: Record<string, number>;
}

/** Handy fixtures for tests and demos; each is the lowest index that fits. */
export interface FleetExamples {
  activeServiceLineNumber: string;
  activeUserTerminalId: string;
  inactiveServiceLineNumber: string | null;
  unattachedUserTerminalId: string | null;
  priorityServiceLineNumber: string | null;
  offlineUserTerminalId: string | null;
  /** A kit in stock (known to the provider, not yet on the account), or null when none is left. */
  stockKitSerialNumber: string | null;
}

export interface Fleet {
  readonly seed: string;
  readonly size: number;
  readonly accountNumber: string;
  /** The clock reading the fleet was laid out from. */
  readonly createdAt: Date;
  /** Service line of terminal 0, which is always attached, active, online and on the 50 GB plan. */
  readonly knownServiceLineNumber: string;
  readonly knownUserTerminalId: string;

  account(): AccountResponseV2;
  products(): SubscriptionProductResponse[];
  plan(productReferenceId: string): Plan | undefined;

  terminal(index: number): UserTerminalResponseV2;
  /** Routers and terminal configuration: the hook server/simulator/routers.ts keeps them through (see createFleet). */
  readonly devices: {
    /** The terminal on the account a router id belongs to. */
    routerTerminal(routerId: string): number | undefined;
    /** What terminal(t) reads for its routers' configs and its L2VPN circuits (until installed: none). */
    install(readers: {
      routerConfigId(routerId: string, terminalIndex: number): string | null;
      l2VpnCircuits(terminalIndex: number): UserTerminalResponseV2['l2VpnCircuits'];
    }): void;
  };
  terminalModel(index: number): TerminalModel;
  /** Index of a terminal on the account by user terminal id, kit serial or dish serial. */
  terminalIndex(deviceId: string): number | undefined;
  /** Kit serials in stock: known to the provider, not on the account. */
  stockKitSerials(): string[];
  userTerminalIds(): string[];
  userTerminals(filters?: UserTerminalFilters): IndexList;

  serviceLineNumbers(): string[];
  serviceLineIndex(serviceLineNumber: string): number | undefined;
  serviceLine(serviceLineNumber: string): ServiceLineResponse | undefined;
  serviceLineAt(index: number): ServiceLineResponse;
  serviceLines(filters?: ServiceLineFilters): IndexList;

  address(addressReferenceId: string): AddressResponse | undefined;
  /** Line indexes whose addresses match, in index order (every line has its own address). */
  addresses(filters?: AddressFilters): IndexList;
  addressAt(lineIndex: number): AddressResponse;

  /** Lines a data-usage query covers, in index order; unknown numbers come back as warnings. */
  usageLines(query: UsageQuery): { lines: IndexList; warnings: ValidationResult[] };
  usageRecord(lineIndex: number, query: UsageQuery): ServiceLineDataUsageForBillingCycles;

  telemetry(userTerminalIds?: string[]): { records: Record<string, TelemetryRecord>; warnings: ValidationResult[] };
  telemetryAt(index: number): TelemetryRecord;

  attach(serviceLineNumber: string, deviceId: string): Outcome;
  detach(serviceLineNumber: string, deviceId: string): Outcome;
  changeProduct(serviceLineNumber: string, change: ProductChange): Outcome;
  reboot(deviceId: string): Outcome;
  /**
   * A traffic surge (the simulator's controls, for demos and tests): the line uses `gb` more
   * today, reported at once. Usage otherwise only grows with the clock.
   */
  surge(serviceLineNumber: string, gb: number): Outcome;

  createAddress(input: AddressInput): Outcome<AddressResponse>;
  updateAddress(addressReferenceId: string, input: AddressInput): Outcome<AddressResponse>;
  addTerminal(deviceId: string): Outcome;
  removeTerminal(deviceId: string): Outcome;
  createServiceLine(creation: ServiceLineCreation): Outcome<ServiceLineResponse>;
  deactivateServiceLine(serviceLineNumber: string, options: { endNow: boolean; reason: string | null }): Outcome;
  setNickname(serviceLineNumber: string, nickname: string): Outcome;
  setPublicIp(serviceLineNumber: string, publicIp: boolean): Outcome;
  setOptIn(serviceLineNumber: string, optedIn: boolean): Outcome<OptInState>;
  setRecurringBlocks(serviceLineNumber: string, change: RecurringBlocksChange): Outcome;
  topUp(serviceLineNumber: string, block: DataBlockRequest): Outcome;
  partialPeriods(serviceLineNumber: string): Outcome<PartialPeriod[]>;
  dataPools(): DataPool[];
  setPoolAutomaticTopUp(dataPoolId: string, enabled: boolean): Outcome;
  setConsumeFromPool(serviceLineNumber: string, consume: boolean): Outcome;
  /** Lines consuming from a pool, with what each used of the pool in the current cycle. */
  poolUsage(dataPoolId: string): { serviceLineNumber: string; consumedGB: number }[];
  /** Every charge of a complete billing cycle, line by line in index order (the provider's invoice for it). */
  cycleCharges(cycleStartMs: number): LineCharge[];

  stats(): FleetStats;
  examples(): FleetExamples;
}

// Tags keep the draws of different facts independent of each other.
const TAG = {
  terminal: 0x7465726d,
  line: 0x6c696e65,
  start: 0x73747274,
  site: 0x73697465,
  usage: 0x75736167,
  topUp: 0x746f7075,
  telemetry: 0x74656c65,
  tick: 0x7469636b,
  ids: 0x69647321,
  address: 0x61646472,
} as const;

const UNATTACHED_SHARE = 0.06;
const INACTIVE_SHARE = 0.08;
const OVER_CAP_SHARE = 0.125;
const OFFLINE_SHARE = 0.05;
const REPORT_INTERVAL_MS = 15_000;

interface Site {
  place: Place;
  kind: { name: string; code: string };
  number: number;
  addressLine: string;
  latitude: number;
  longitude: number;
}

interface LineProfile {
  basePlan: Plan;
  baseBlocks: { product: DataProduct; count: number } | null;
  active: boolean;
  startMs: number;
  endMs: number | null;
  optedIn: boolean;
  publicIp: boolean;
  usage: UsageProfile;
}

type Blocks = { product: DataProduct; count: number } | null;

interface LineOverlay {
  plan?: Plan;
  blocks?: Blocks;
  delayed?: { plan: Plan; blocks: Blocks } | null;
  /** Recurring blocks set for the next cycle on (this cycle keeps `blocks`). */
  nextBlocks?: Blocks;
  /** When the last terminal left; usage stops from then on. */
  emptySinceMs?: number;
  nickname?: string;
  publicIp?: boolean;
  optedIn?: boolean;
  /** When the opt-in last changed through the API (the cool-down runs from there). */
  optInChangedMs?: number;
  /** One-time top-ups bought through the API. */
  topUps?: { count: number; atMs: number }[];
  /** Immediate plan changes through the API, oldest first: the product from `atMs` on. */
  planChanges?: { atMs: number; productReferenceId: string }[];
  /** A scheduled or immediate end through the API. */
  end?: { atMs: number; reason: string | null };
  /** Traffic surges set through the simulator's controls: extra billable GB by day start. */
  surgesGB?: Map<number, number>;
}

/** A line created through the API: its profile is chosen, not drawn. */
interface CreatedLine {
  profile: LineProfile;
  addressReferenceId: string;
}

interface TelemetryProfile {
  poorSignal: boolean;
  obstructionBase: number;
  offline: boolean;
  offlineAgoMs: number;
  bootAgoMs: number;
  softwareVersion: string;
  motorsStuck: boolean;
  thermalThrottle: boolean;
  mastNotVertical: boolean;
  slowEthernet: boolean;
  heating: boolean;
}

function weighted<T extends { weight: number }>(d: Draw, items: readonly T[]): T {
  const total = items.reduce((sum, item) => sum + item.weight, 0);
  let r = d.next() * total;
  for (const item of items) {
    r -= item.weight;
    if (r < 0) return item;
  }
  return items[items.length - 1] as T;
}

const CONTINENT_LIST = Object.entries(CONTINENT_WEIGHTS).map(([continent, weight]) => ({
  continent: continent as Continent,
  weight,
  places: PLACES.filter((p) => p.continent === continent),
}));

export function createFleet(options: FleetOptions = {}): Fleet {
  const seed = String(options.seed ?? DEFAULT_SEED);
  const size = options.terminals ?? DEFAULT_TERMINALS;
  if (!Number.isInteger(size) || size < 1 || size > MAX_TERMINALS) {
    throw new RangeError(`terminals must be a whole number from 1 to ${MAX_TERMINALS}`);
  }
  const stock = options.stock ?? Math.min(1000, Math.max(10, Math.ceil(size / 20)), MAX_TERMINALS - size);
  if (!Number.isInteger(stock) || stock < 0 || size + stock > MAX_TERMINALS) {
    throw new RangeError(`stock must be a whole number from 0 to ${MAX_TERMINALS - size}`);
  }
  /** Every kit the provider knows for this reseller: the account's and the stock. */
  const terminalCount = size + stock;
  const clock = options.now ?? (() => new Date());
  const createdAt = clock();
  const createdMs = createdAt.getTime();
  const seedHash = hashString(seed);
  const key = (...parts: number[]) => mix(seedHash, ...parts);

  // ---- Account and ids ----------------------------------------------------------------------
  const accountDraw = draw(key(TAG.ids, 1));
  const accountNumber =
    options.accountNumber ??
    `ACC-${accountDraw.int(100_000, 999_999)}-${digits(accountDraw.int(10_000, 99_999), 5)}-${digits(accountDraw.int(10, 99), 2)}`;
  const accountDigits = /^ACC-(\d{6})-/.exec(accountNumber)?.[1] ?? String(100_000 + (key(TAG.ids, 2) % 900_000));
  const accountName = `${accountDraw.pick(ACCOUNT_NAME_PARTS.first)} ${accountDraw.pick(ACCOUNT_NAME_PARTS.second)} ${accountDraw.pick(ACCOUNT_NAME_PARTS.suffix)}`;

  const lineCodes = decimalPermutation(7, key(TAG.ids, 3));
  const kitCodes = decimalPermutation(8, key(TAG.ids, 4));
  const dishCodes = decimalPermutation(8, key(TAG.ids, 5));
  const terminalCodes = hexPermutation(key(TAG.ids, 6));
  const addressCodes = hexPermutation(key(TAG.ids, 7));

  // Dates are laid out back from the start of the month the fleet was made in, so a fleet made
  // twice in the same month is the same fleet.
  const anchorMs = cycleContaining(createdMs).startMs;

  // ---- Per-index facts ----------------------------------------------------------------------
  const hasLineInitially = (i: number) => i === 0 || (i < size && toUnit(key(TAG.terminal, i, 1)) >= UNATTACHED_SHARE);

  function lineStartOffsetDays(i: number): number {
    if (i === 0) return 400;
    const d = draw(key(TAG.start, i));
    // A few lines are brand new; most have run for months or years.
    return d.chance(0.03) ? d.int(2, 29) : d.int(30, 1100);
  }
  const lineStartMs = (i: number) =>
    anchorMs - lineStartOffsetDays(i) * DAY_MS + Math.floor(toUnit(key(TAG.start, i, 2)) * 86_400) * 1000;

  function site(i: number): Site {
    const d = draw(key(TAG.site, i));
    const place = d.pick(weighted(d, CONTINENT_LIST).places);
    const kind = d.pick(SITE_KINDS);
    const number = d.int(1, 12);
    const street = d.pick(place.streets);
    const houseNumber = d.int(1, 480);
    return {
      place,
      kind,
      number,
      addressLine: `${houseNumber} ${street}`,
      // Scatter sites up to ~25 km around the town.
      latitude: Math.round((place.latitude + d.range(-0.22, 0.22)) * 1e6) / 1e6,
      longitude: Math.round((place.longitude + d.range(-0.22, 0.22)) * 1e6) / 1e6,
    };
  }

  function generatedProfile(i: number): LineProfile {
    const d = draw(key(TAG.line, i));
    const roll = d.next();
    const basePlan = i === 0 ? PLAN_50GB : roll < 0.45 ? PLAN_50GB : roll < 0.75 ? PLAN_1TB : PLAN_PRIORITY;
    const bigBlocks = d.chance(0.3);
    const blockCount = bigBlocks ? d.int(1, 2) : d.int(1, 10);
    const baseBlocks = basePlan.kind === 'priority' ? { product: bigBlocks ? BLOCK_1TB : BLOCK_50GB, count: blockCount } : null;
    const startOffset = lineStartOffsetDays(i);
    // Lines younger than two months are all still active; the share is taken from the rest.
    const inactiveRoll = d.next();
    const active = i === 0 || startOffset < 60 || inactiveRoll >= INACTIVE_SHARE / 0.97;
    const endOffsetDays = d.int(3, Math.max(3, Math.min(200, startOffset - 30)));
    const endMs = active ? null : anchorMs - endOffsetDays * DAY_MS + d.int(0, 86_399) * 1000;
    const optedIn = d.chance(0.4);
    const publicIp = d.chance(0.1);
    const overCapRoll = d.next();
    const overCap = i !== 0 && overCapRoll < OVER_CAP_SHARE;
    // Share of its plan a line uses in a month: a skewed spread below 1, or well past it.
    const ratio = overCap ? d.range(1.15, 1.8) : 0.03 + 0.9 * d.next() ** 1.2;
    const capGB = capOf(basePlan, baseBlocks);
    return {
      basePlan,
      baseBlocks,
      active,
      startMs: lineStartMs(i),
      endMs,
      optedIn,
      publicIp,
      usage: { key: key(TAG.usage, i), baseDailyGB: (ratio * capGB) / 30.44, zeroShare: d.range(0.01, 0.12) },
    };
  }

  function capOf(plan: Plan, blocks: { product: DataProduct; count: number } | null): number {
    if (plan.kind === 'metered') return plan.includedGB;
    return blocks ? dataProductGB(blocks.product) * blocks.count : 0;
  }

  function terminalModel(i: number): TerminalModel {
    return weighted(draw(key(TAG.terminal, i, 2)), MODELS);
  }

  // ---- Flags and list order, computed once --------------------------------------------------
  const FLAG_LINE = 1;
  const FLAG_ACTIVE = 2;
  const flags = new Uint8Array(size);
  let lineCount = 0;
  for (let i = 0; i < size; i++) {
    if (!hasLineInitially(i)) continue;
    flags[i] = FLAG_LINE | (generatedProfile(i).active ? FLAG_ACTIVE : 0);
    lineCount++;
  }
  const linesByIndex = new Uint32Array(lineCount);
  {
    let k = 0;
    for (let i = 0; i < size; i++) if (flags[i]! & FLAG_LINE) linesByIndex[k++] = i;
  }
  // The provider lists service lines newest first by default.
  const linesNewestFirst = (() => {
    const starts = new Float64Array(size);
    for (const i of linesByIndex) starts[i] = lineStartMs(i);
    return Uint32Array.from(linesByIndex).sort((a, b) => starts[b]! - starts[a]! || a - b);
  })();

  // ---- Overlay ------------------------------------------------------------------------------
  /** Terminal index → line index, or null when detached; absent = as generated. */
  const terminalLine = new Map<number, number | null>();
  const lineOverlay = new Map<number, LineOverlay>();
  const rebootedAt = new Map<number, number>();
  /** Terminal index → on the account or not; absent = as generated (the first `size` are). */
  const accountChanges = new Map<number, boolean>();
  const onAccount = (t: number): boolean => accountChanges.get(t) ?? t < size;
  /** Lines created through the API, by index, and their indexes in creation order. */
  const createdLines = new Map<number, CreatedLine>();
  const createdLineOrder: number[] = [];
  let nextLineIndex = terminalCount;
  /** One shared pool (a Land pool of 1 TB blocks); no line draws on it until told to. */
  const pools: DataPool[] = [
    {
      dataPoolId: `POOL-${accountDigits}-01`,
      nickname: 'Shared Land pool',
      productId: 'SUB-POOL-LAND',
      automaticTopUpEnabled: false,
      blocks: { product: BLOCK_1TB, count: 5 },
    },
  ];
  /** Line index → the pool it consumes from. */
  const poolOfLine = new Map<number, string>();

  function lineProfile(l: number): LineProfile {
    const base = createdLines.get(l)?.profile ?? generatedProfile(l);
    const overlay = lineOverlay.get(l);
    if (!overlay) return base;
    const profile = { ...base };
    if (overlay.optedIn !== undefined) profile.optedIn = overlay.optedIn;
    if (overlay.publicIp !== undefined) profile.publicIp = overlay.publicIp;
    if (overlay.end) {
      profile.endMs = overlay.end.atMs;
      profile.active = base.active && clock().getTime() < overlay.end.atMs;
    }
    return profile;
  }

  const lineOfTerminal = (t: number): number | null => {
    const moved = terminalLine.get(t);
    if (moved !== undefined) return moved;
    return flags[t]! & FLAG_LINE ? t : null;
  };

  function terminalsOfLine(l: number): number[] {
    const result: number[] = [];
    if (flags[l]! & FLAG_LINE && !terminalLine.has(l)) result.push(l);
    for (const [t, line] of terminalLine) if (line === l) result.push(t);
    return result.sort((a, b) => a - b);
  }

  function isActive(l: number): boolean {
    const end = lineOverlay.get(l)?.end;
    if (end && end.atMs <= clock().getTime()) return false;
    return createdLines.has(l) || (flags[l]! & FLAG_ACTIVE) !== 0;
  }

  const isLine = (l: number) => (l < size && (flags[l]! & FLAG_LINE) !== 0) || createdLines.has(l);

  function currentPlan(l: number, profile: LineProfile) {
    const overlay = lineOverlay.get(l);
    return {
      plan: overlay?.plan ?? profile.basePlan,
      blocks: overlay?.blocks !== undefined ? overlay.blocks : profile.baseBlocks,
      delayed: overlay?.delayed ?? null,
    };
  }

  // ---- Ids ----------------------------------------------------------------------------------
  function serviceLineNumberOf(l: number): string {
    const code = lineCodes.forward(l);
    return `AST-${accountDigits}-${digits(Math.floor(code / 100), 5)}-${digits(code % 100, 2)}`;
  }

  function serviceLineIndex(serviceLineNumber: string): number | undefined {
    const match = /^AST-(\d{6})-(\d{5})-(\d{2})$/.exec(serviceLineNumber.trim().toUpperCase());
    if (!match || match[1] !== accountDigits) return undefined;
    const l = lineCodes.inverse(Number(match[2]) * 100 + Number(match[3]));
    return isLine(l) ? l : undefined;
  }

  function userTerminalIdOf(t: number): string {
    const h = key(TAG.terminal, t, 3);
    return `0002${hex(h >>> 16, 4)}-00${hex(h, 6)}-${hex(terminalCodes.forward(t), 8)}`;
  }
  const kitSerialOf = (t: number) => `KIT${digits(kitCodes.forward(t), 8)}`;
  const dishSerialOf = (t: number) => `${terminalModel(t).dishPrefix}${digits(dishCodes.forward(t), 8)}`;

  /** On the account only: a kit in stock is unknown to every call but adding it. */
  function terminalIndex(deviceId: string): number | undefined {
    const t = knownTerminalIndex(deviceId);
    return t !== undefined && onAccount(t) ? t : undefined;
  }

  function knownTerminalIndex(deviceId: string): number | undefined {
    const id = deviceId.trim();
    // Each id carries the index in its last digits; the rest must match what the index generates.
    const terminalId = /^[0-9a-f]{8}-[0-9a-f]{8}-([0-9a-f]{8})$/i.exec(id);
    if (terminalId) {
      const t = terminalCodes.inverse(parseInt(terminalId[1]!, 16));
      return t < terminalCount && userTerminalIdOf(t) === id.toLowerCase() ? t : undefined;
    }
    const kit = /^KIT(\d{8})$/i.exec(id);
    if (kit) {
      const t = kitCodes.inverse(Number(kit[1]));
      return t < terminalCount ? t : undefined;
    }
    const dish = /^[0-9A-Z]{4}(\d{8})$/i.exec(id);
    if (dish) {
      const t = dishCodes.inverse(Number(dish[1]));
      return t < terminalCount && dishSerialOf(t) === id.toUpperCase() ? t : undefined;
    }
    return undefined;
  }

  function addressIdOf(l: number): string {
    const h1 = key(TAG.site, l, 1);
    const h2 = key(TAG.site, l, 2);
    const variant = '89ab'[h2 & 3];
    return `${hex(h1, 8)}-${hex(h2 >>> 16, 4)}-4${hex(h2 >>> 4, 3)}-${variant}${hex(h1 >>> 20, 3)}-${hex(addressCodes.forward(l), 8)}${hex(h1 >>> 4, 4)}`;
  }

  // Addresses created through the API sit after the generated ones, at CREATED_ADDRESS + k.
  const CREATED_ADDRESS = 0x8000_0000;
  const createdAddresses: AddressResponse[] = [];
  const createdAddressSlot = new Map<string, number>();
  /** Generated addresses replaced through the API, by line index. */
  const addressEdits = new Map<number, AddressResponse>();

  /** A created address's id: seeded and counted, so the same requests make the same ids. */
  function createdAddressId(k: number): string {
    const h1 = key(TAG.address, k, 1);
    const h2 = key(TAG.address, k, 2);
    const h3 = key(TAG.address, k, 3);
    return `${hex(h1, 8)}-${hex(h2 >>> 16, 4)}-4${hex(h2 >>> 4, 3)}-${'89ab'[h3 & 3]}${hex(h3 >>> 20, 3)}-${hex(h3, 8)}${hex(h1 >>> 8, 4)}`;
  }

  /** The address a line is at: its own generated one, or the one it was created with. */
  const lineAddressId = (l: number) => createdLines.get(l)?.addressReferenceId ?? addressIdOf(l);

  function addressIndex(addressReferenceId: string): number | undefined {
    const created = createdAddressSlot.get(addressReferenceId.trim().toLowerCase());
    if (created !== undefined) return created;
    const match = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-([0-9a-f]{8})[0-9a-f]{4}$/i.exec(addressReferenceId.trim());
    if (!match) return undefined;
    const l = addressCodes.inverse(parseInt(match[1]!, 16));
    return l < size && flags[l]! & FLAG_LINE && addressIdOf(l) === addressReferenceId.trim().toLowerCase() ? l : undefined;
  }

  function nicknameOf(l: number): string | null {
    const overlay = lineOverlay.get(l);
    if (overlay?.nickname !== undefined) return overlay.nickname;
    // A line created through the API has no name until it is given one.
    return createdLines.has(l) ? null : lineNickname(l);
  }

  // ---- Nicknames ----------------------------------------------------------------------------
  const lineNickname = (l: number) => {
    const s = site(l);
    return `${s.place.locality} ${s.kind.name}${s.number > 1 ? ` ${s.number}` : ''}`;
  };

  function terminalNickname(t: number): string | null {
    const d = draw(key(TAG.terminal, t, 4));
    const style = d.next();
    if (!hasLineInitially(t)) return style < 0.5 ? `Spare kit ${digits(d.int(1, 99), 2)}` : null;
    if (style < 0.08) return null;
    const s = site(t);
    if (style < 0.35) return `${s.place.locality.slice(0, 3).toUpperCase()}-${s.kind.code}-${digits(s.number, 2)}`;
    return `${lineNickname(t)} dish`;
  }

  // ---- Routers and terminal configuration: the hook of server/simulator/routers.ts ----------
  // The generator gives about one site in seven a Starlink router bonded to the dish. What is
  // configured on routers and terminals (a router's config, a terminal's L2VPN circuits) is kept
  // by routers.ts, which installs its readers here; terminal(t) asks them. Until then: none.
  type DeviceReaders = Parameters<Fleet['devices']['install']>[0];
  let deviceReaders: DeviceReaders = { routerConfigId: () => null, l2VpnCircuits: () => [] };
  const routerHashOf = (t: number) => key(TAG.terminal, t, 5);
  const hasRouter = (t: number) => toUnit(routerHashOf(t)) < 0.15;
  const routerIdOf = (t: number) => `Router-0100000000000000${hex(routerHashOf(t), 8).toUpperCase()}`;
  /** Router hashes in order, with their terminals (all the provider knows): made on the first lookup. */
  let routerIndex: { hashes: Uint32Array; terminals: Uint32Array } | null = null;
  function routerTerminal(routerId: string): number | undefined {
    const match = /^Router-0100000000000000([0-9A-F]{8})$/i.exec(routerId.trim());
    if (!match) return undefined;
    if (!routerIndex) {
      const found: number[] = [];
      const hashOf = new Map<number, number>();
      for (let t = 0; t < terminalCount; t++) {
        if (!hasRouter(t)) continue;
        found.push(t);
        hashOf.set(t, routerHashOf(t) >>> 0);
      }
      found.sort((a, b) => hashOf.get(a)! - hashOf.get(b)! || a - b);
      routerIndex = { hashes: Uint32Array.from(found, (t) => hashOf.get(t)!), terminals: Uint32Array.from(found) };
    }
    const { hashes, terminals } = routerIndex;
    const wanted = parseInt(match[1]!, 16) >>> 0;
    let low = 0;
    let high = hashes.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (hashes[middle]! < wanted) low = middle + 1;
      else high = middle;
    }
    // Ids are 32-bit hashes: in a fleet of millions two terminals may share one; the lowest on the account answers.
    for (let k = low; k < hashes.length && hashes[k] === wanted; k++) if (onAccount(terminals[k]!)) return terminals[k]!;
    return undefined;
  }
  const devices: Fleet['devices'] = {
    routerTerminal,
    install: (readers) => {
      deviceReaders = readers;
    },
  };

  // ---- Records ------------------------------------------------------------------------------
  function terminal(t: number): UserTerminalResponseV2 {
    if (!Number.isInteger(t) || t < 0 || t >= terminalCount) throw new RangeError(`no terminal ${t}`);
    const line = lineOfTerminal(t);
    const userTerminalId = userTerminalIdOf(t);
    const routerId = routerIdOf(t);
    const routers = hasRouter(t)
      ? [{ routerId, nickname: null, userTerminalId, configId: deviceReaders.routerConfigId(routerId, t), hardwareVersion: null, lastBonded: null }]
      : [];
    return {
      userTerminalId,
      nickname: terminalNickname(t),
      kitSerialNumber: kitSerialOf(t),
      dishSerialNumber: dishSerialOf(t),
      serviceLineNumber: line === null ? null : serviceLineNumberOf(line),
      l2VpnCircuits: deviceReaders.l2VpnCircuits(t),
      routers,
    };
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
    if (changedMs !== undefined && cycle.endMs <= changedMs) return (createdLines.get(l)?.profile ?? generatedProfile(l)).optedIn;
    return profile.optedIn;
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

  function addressAt(slot: number): AddressResponse {
    if (slot >= CREATED_ADDRESS) return createdAddresses[slot - CREATED_ADDRESS]!;
    return addressEdits.get(slot) ?? generatedAddress(slot);
  }

  function generatedAddress(l: number): AddressResponse {
    const s = site(l);
    const p = s.place;
    const postal = p.postalCode ? ` ${p.postalCode}` : '';
    return {
      addressReferenceId: addressIdOf(l),
      addressLines: [s.addressLine],
      locality: p.locality,
      administrativeArea: p.administrativeArea,
      administrativeAreaCode: p.administrativeAreaCode,
      region: p.region,
      regionCode: p.regionCode,
      postalCode: p.postalCode,
      metadata: null,
      formattedAddress: `${s.addressLine}, ${p.locality}, ${p.administrativeAreaCode}${postal}, ${p.regionCode}`,
      latitude: s.latitude,
      longitude: s.longitude,
    };
  }

  function overageLine(plan: Plan, capGB: number, usage: CycleUsage, optedIn: boolean, cycle: Cycle): DataUsageOverageLine {
    const overageAmountGB = optedIn ? usage.totalOptInPriorityGB : 0;
    return {
      restricted: BUCKET_FIXED_RESTRICTED,
      unrestricted: BUCKET_FIXED_UNRESTRICTED,
      pricePerGB: plan.overage.pricePerGB,
      usageLimitGB: capGB,
      overageAmountGB,
      consumedAmountGB: round2(Math.min(usage.totalPriorityGB, capGB)),
      overagePrice: round2(overageAmountGB * plan.overage.pricePerGB),
      productId: plan.overage.productId,
      dataOverageType: optedIn ? 1 : 3,
      activeFrom: usage.capReachedOnMs === null ? iso(cycle.startMs) : iso(usage.capReachedOnMs),
    };
  }

  const MAX_PREVIOUS_CYCLES = 24;

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
      accountNumber,
      serviceLineNumber: serviceLineNumberOf(l),
      startDate: billingCycles[0]!.startDate,
      endDate: billingCycles[billingCycles.length - 1]!.endDate,
      billingCycles,
      servicePlan: {
        isoCurrencyCode: CURRENCY,
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

  // ---- Telemetry ----------------------------------------------------------------------------
  function telemetryProfile(t: number): TelemetryProfile {
    const d = draw(key(TAG.telemetry, t));
    const model = terminalModel(t);
    const obstructed = d.chance(0.12);
    const latitude = Math.abs(site(t).latitude);
    return {
      poorSignal: t !== 0 && d.chance(0.1),
      obstructionBase: obstructed && t !== 0 ? d.range(4, 25) : d.range(0, 1.5),
      // Kits from stock are freshly installed: online once on an active line.
      offline: t !== 0 && t < size && d.chance(OFFLINE_SHARE),
      offlineAgoMs: d.range(5 * 60_000, 14 * DAY_MS),
      bootAgoMs: d.range(0.5 * DAY_MS, 40 * DAY_MS),
      softwareVersion: weighted(d, SOFTWARE_VERSIONS).version,
      motorsStuck: model.hasMotors && d.chance(0.03),
      thermalThrottle: d.chance(0.02),
      mastNotVertical: d.chance(0.015),
      slowEthernet: d.chance(0.02),
      heating: latitude > 45 && d.chance(0.2),
    };
  }

  function isOnline(t: number, profile: TelemetryProfile): boolean {
    const line = lineOfTerminal(t);
    return line !== null && isActive(line) && !profile.offline;
  }

  function telemetryAt(t: number): TelemetryRecord {
    const nowMs = clock().getTime();
    const profile = telemetryProfile(t);
    const model = terminalModel(t);
    const line = lineOfTerminal(t);
    const online = isOnline(t, profile);
    let reportMs: number;
    if (online) {
      // Every terminal reports each 15 s, each at its own offset within the window.
      reportMs = Math.floor(nowMs / REPORT_INTERVAL_MS) * REPORT_INTERVAL_MS + (t % 15) * 1000;
      if (reportMs > nowMs) reportMs -= REPORT_INTERVAL_MS;
    } else {
      const lineEnd = line === null ? null : lineProfile(line).endMs;
      reportMs = Math.min(createdMs - profile.offlineAgoMs, lineEnd ?? Infinity, nowMs - 5 * 60_000);
    }
    const tick = draw(key(TAG.tick, t, Math.floor(reportMs / REPORT_INTERVAL_MS)));
    const signal = profile.poorSignal ? tick.range(0.25, 0.75) : Math.min(1, 0.8 + 0.2 * tick.next());
    const obstruction = Math.min(100, profile.obstructionBase * tick.range(0.85, 1.15));
    const place = site(t).place;
    const latency = place.popLatencyMs * tick.range(0.9, 1.15) + (profile.poorSignal ? 25 : 0) + obstruction * 0.8;
    const troubled = profile.poorSignal || obstruction > 4;
    const dropRate = troubled ? Math.min(1, 0.01 + (obstruction / 100) * 0.8 + tick.next() * 0.05) : tick.next() * 0.008;
    const load = tick.next() ** 2;
    const bootMs = Math.max(createdMs - profile.bootAgoMs, rebootedAt.get(t) ?? -Infinity);
    let exceededQuota = false;
    if (online && line !== null) {
      const lp = lineProfile(line);
      const facts = currentCycleFacts(line, lp, nowMs);
      exceededQuota = !lp.optedIn && facts.usage.billableGB > facts.capGB;
    }
    return {
      timestamp: iso(reportMs),
      uptimeSeconds: Math.max(0, Math.floor((reportMs - bootMs) / 1000)),
      downlinkThroughputMbps: online ? round2(model.maxDownlinkMbps * signal * load) : 0,
      uplinkThroughputMbps: online ? round2(model.maxUplinkMbps * signal * load * tick.range(0.3, 1)) : 0,
      popPingDropRateAvg: Math.round(dropRate * 10_000) / 10_000,
      popPingLatencyMsAvg: Math.round(latency * 10) / 10,
      obstructionPercentTime: round2(obstruction),
      signalQuality: Math.round(signal * 1000) / 1000,
      softwareVersion: profile.softwareVersion,
      hardwareVersion: model.hardwareVersion,
      alertHighTimeObstruction: obstruction > 5,
      alertDisabledDataUsageExceededQuota: exceededQuota,
      alertMotorsStuck: profile.motorsStuck,
      alertThermalThrottle: profile.thermalThrottle,
      alertThermalShutdown: false,
      alertMastNotNearVertical: profile.mastNotVertical,
      alertSlowEthernetSpeeds: profile.slowEthernet,
      alertRoaming: false,
      alertInstallPending: false,
      alertIsHeating: profile.heating,
    };
  }

  // ---- Lists --------------------------------------------------------------------------------
  const whole = (length: number): IndexList => ({ length, at: (k) => k });
  const fromArray = (items: ArrayLike<number>): IndexList => ({ length: items.length, at: (k) => items[k]! });
  /** One list after the other, without copying either. */
  const concat = (first: IndexList, second: IndexList): IndexList => ({
    length: first.length + second.length,
    at: (k) => (k < first.length ? first.at(k) : second.at(k - first.length)),
  });

  /** The terminals on the account, in index order. */
  /** Built once per change of the account's terminals: a sync pages through it thousands of times. */
  let accountList: IndexList | null = null;
  function accountTerminals(): IndexList {
    if (accountChanges.size === 0) return whole(size);
    if (!accountList) {
      const result: number[] = [];
      for (let t = 0; t < terminalCount; t++) if (onAccount(t)) result.push(t);
      accountList = fromArray(result);
    }
    return accountList;
  }

  /** Every service line, generated then created, in index order. */
  const allLines = (): IndexList => concat(fromArray(linesByIndex), fromArray(createdLineOrder));

  function parseList<T>(values: string[] | undefined, parse: (value: string) => T | undefined) {
    const found: T[] = [];
    const unknown: string[] = [];
    for (const value of values ?? []) {
      const parsed = parse(value);
      if (parsed === undefined) unknown.push(value);
      else found.push(parsed);
    }
    return { found, unknown };
  }

  function userTerminals(filters: UserTerminalFilters = {}): IndexList {
    const { searchString, serviceLineNumbers, userTerminalIds, hasServiceLine } = filters;
    const needle = searchString?.trim().toLowerCase() || undefined;
    if (!needle && !serviceLineNumbers?.length && !userTerminalIds?.length && hasServiceLine === undefined) return accountTerminals();
    // Narrow by the cheap filters first; build strings only for the survivors.
    const wantedLines = serviceLineNumbers?.length ? new Set(parseList(serviceLineNumbers, serviceLineIndex).found) : null;
    let candidates: Iterable<number>;
    if (userTerminalIds?.length) {
      candidates = new Set(parseList(userTerminalIds, terminalIndex).found);
    } else if (wantedLines) {
      candidates = new Set([...wantedLines].flatMap(terminalsOfLine));
    } else {
      const all = accountTerminals();
      candidates = (function* () {
        for (let k = 0; k < all.length; k++) yield all.at(k);
      })();
    }
    const result: number[] = [];
    for (const t of candidates) {
      const line = lineOfTerminal(t);
      if (hasServiceLine !== undefined && (line !== null) !== hasServiceLine) continue;
      if (wantedLines && (line === null || !wantedLines.has(line))) continue;
      if (needle) {
        const haystack = [userTerminalIdOf(t), kitSerialOf(t), dishSerialOf(t), terminalNickname(t) ?? '', line === null ? '' : serviceLineNumberOf(line)];
        if (!haystack.some((value) => value.toLowerCase().includes(needle))) continue;
      }
      result.push(t);
    }
    return fromArray(result.sort((a, b) => a - b));
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

  function addresses(filters: AddressFilters = {}): IndexList {
    const created = { length: createdAddresses.length, at: (k: number) => CREATED_ADDRESS + k };
    if (filters.metadata !== undefined) {
      // Generated addresses carry no metadata: only created or replaced ones can match.
      const matches = [...addressEdits.keys()].sort((a, b) => a - b);
      for (let k = 0; k < created.length; k++) matches.push(created.at(k));
      return fromArray(matches.filter((slot) => addressAt(slot).metadata === filters.metadata));
    }
    if (!filters.addressIds?.length) return concat(fromArray(linesByIndex), created);
    const found = parseList(filters.addressIds, addressIndex).found;
    return fromArray([...new Set(found)].sort((a, b) => a - b));
  }

  function usageLines(query: UsageQuery): { lines: IndexList; warnings: ValidationResult[] } {
    const activeOnly = query.activeServiceLinesOnly ?? true;
    const warnings: ValidationResult[] = [];
    let lines: number[] | Uint32Array;
    if (query.serviceLineNumbers?.length) {
      const { found, unknown } = parseList(query.serviceLineNumbers, serviceLineIndex);
      for (const number of unknown) warnings.push({ memberNames: ['serviceLineNumbers'], errorMessage: `Service line ${number} was not found on this account` });
      lines = [...new Set(found)].sort((a, b) => a - b);
    } else {
      lines = createdLineOrder.length === 0 ? linesByIndex : [...linesByIndex, ...createdLineOrder];
    }
    if (!activeOnly) return { lines: fromArray(lines), warnings };
    return { lines: fromArray(Array.from(lines).filter(isActive)), warnings };
  }

  function telemetry(userTerminalIds?: string[]) {
    const records: Record<string, TelemetryRecord> = {};
    const warnings: ValidationResult[] = [];
    if (userTerminalIds && userTerminalIds.length > 0) {
      const { found, unknown } = parseList(userTerminalIds, terminalIndex);
      for (const id of unknown) warnings.push({ memberNames: ['userTerminalIds'], errorMessage: `User terminal ${id} was not found on this account` });
      for (const t of found) records[userTerminalIdOf(t)] = telemetryAt(t);
    } else {
      const all = accountTerminals();
      for (let k = 0; k < all.length; k++) records[userTerminalIdOf(all.at(k))] = telemetryAt(all.at(k));
    }
    return { records, warnings };
  }

  // ---- Writes -------------------------------------------------------------------------------
  const notFoundLine = (serviceLineNumber: string): Outcome<never> => ({
    ok: false,
    status: 404,
    message: `Service line ${serviceLineNumber} was not found on this account`,
    memberNames: ['serviceLineNumber'],
  });
  const notFoundTerminal = (deviceId: string): Outcome<never> => ({
    ok: false,
    status: 404,
    message: `User terminal ${deviceId} was not found on this account`,
    memberNames: ['deviceId'],
  });
  const rejected = (message: string, memberNames: string[] = []): Outcome<never> => ({ ok: false, status: 422, message, memberNames });

  function attach(serviceLineNumber: string, deviceId: string): Outcome {
    const l = serviceLineIndex(serviceLineNumber);
    if (l === undefined) return notFoundLine(serviceLineNumber);
    const t = terminalIndex(deviceId);
    if (t === undefined) return notFoundTerminal(deviceId);
    if (!isActive(l)) return rejected(`Service line ${serviceLineNumber} is not active`, ['serviceLineNumber']);
    const current = lineOfTerminal(t);
    if (current !== null) return rejected(`User terminal ${deviceId} is already on service line ${serviceLineNumberOf(current)}`, ['deviceId']);
    terminalLine.set(t, l);
    const overlay = lineOverlay.get(l);
    if (overlay) delete overlay.emptySinceMs;
    return { ok: true, value: undefined };
  }

  function detach(serviceLineNumber: string, deviceId: string): Outcome {
    const l = serviceLineIndex(serviceLineNumber);
    if (l === undefined) return notFoundLine(serviceLineNumber);
    const t = terminalIndex(deviceId);
    if (t === undefined) return notFoundTerminal(deviceId);
    if (lineOfTerminal(t) !== l) return rejected(`User terminal ${deviceId} is not on service line ${serviceLineNumber}`, ['deviceId']);
    terminalLine.set(t, null);
    if (terminalsOfLine(l).length === 0) lineOverlay.set(l, { ...lineOverlay.get(l), emptySinceMs: clock().getTime() });
    return { ok: true, value: undefined };
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

  function reboot(deviceId: string): Outcome {
    const t = terminalIndex(deviceId);
    if (t === undefined) return notFoundTerminal(deviceId);
    if (!isOnline(t, telemetryProfile(t))) return rejected(`User terminal ${deviceId} is offline and cannot be rebooted`, ['deviceId']);
    rebootedAt.set(t, clock().getTime());
    return { ok: true, value: undefined, information: ['Reboot command sent'] };
  }

  function surge(serviceLineNumber: string, gb: number): Outcome {
    const l = serviceLineIndex(serviceLineNumber);
    if (l === undefined) return notFoundLine(serviceLineNumber);
    if (!lineProfile(l).active) return rejected(`Service line ${serviceLineNumber} is not active`, ['serviceLineNumber']);
    // Counted on the day the usage feed last reported, so the next usage query already shows it.
    const day = startOfDay(lastUpdatedAt(clock().getTime()));
    const overlay = overlayOf(l);
    const surges = (overlay.surgesGB ??= new Map());
    surges.set(day, (surges.get(day) ?? 0) + gb);
    return { ok: true, value: undefined, information: [`Service line ${serviceLineNumber} used ${gb} GB more today`] };
  }

  // ---- The service lifecycle ----------------------------------------------------------------
  function stockKitSerials(): string[] {
    const serials: string[] = [];
    for (let t = size; t < terminalCount; t++) if (!onAccount(t)) serials.push(kitSerialOf(t));
    return serials;
  }

  /** The catalog place nearest a point: the provider derives region codes from coordinates. */
  function nearestPlace(latitude: number, longitude: number): Place {
    let best = PLACES[0]!;
    let bestDistance = Infinity;
    const cos = Math.cos((latitude * Math.PI) / 180);
    for (const place of PLACES) {
      const dLat = place.latitude - latitude;
      const dLon = (((place.longitude - longitude + 540) % 360) - 180) * cos;
      const distance = dLat * dLat + dLon * dLon;
      if (distance < bestDistance) {
        best = place;
        bestDistance = distance;
      }
    }
    return best;
  }

  /** The provider's check of an address: it must be somewhere a terminal can be served. */
  function addressProblem(input: AddressInput): string | null {
    if (input.latitude === 0 && input.longitude === 0) return 'The address could not be located: latitude and longitude are 0, 0';
    if (Math.abs(input.latitude) > 85) return 'Starlink service is not available at this location';
    return null;
  }

  function addressRecord(addressReferenceId: string, input: AddressInput): AddressResponse {
    const place = nearestPlace(input.latitude, input.longitude);
    const text = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);
    return {
      addressReferenceId,
      addressLines: input.addressLines.map((line) => line.trim()),
      locality: text(input.locality),
      administrativeArea: text(input.administrativeArea),
      // Deprecated in requests: the provider sets both codes from the coordinates.
      administrativeAreaCode: place.administrativeAreaCode,
      region: text(input.region),
      regionCode: place.regionCode,
      postalCode: input.postalCode?.trim() ?? '',
      metadata: text(input.metadata),
      formattedAddress: input.formattedAddress.trim(),
      latitude: input.latitude,
      longitude: input.longitude,
    };
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

  /** An active line by number, or why not. */
  function activeLine(serviceLineNumber: string): Outcome<number> {
    const l = serviceLineIndex(serviceLineNumber);
    if (l === undefined) return notFoundLine(serviceLineNumber);
    if (!isActive(l)) return rejected(`Service line ${serviceLineNumber} is not active`, ['serviceLineNumber']);
    return { ok: true, value: l };
  }

  /**
   * A line's time on each product, cycle by cycle up to now: one span per cycle, or several in a
   * cycle where it started, ended or changed plan; `partial` when a span is less than its cycle.
   */
  function productSpans(l: number): { plan: Plan; blocks: Blocks; startMs: number; endMs: number; cycle: Cycle; partial: boolean }[] {
    const profile = lineProfile(l);
    const base = createdLines.get(l)?.profile ?? generatedProfile(l);
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
    const spans: { plan: Plan; blocks: Blocks; startMs: number; endMs: number; cycle: Cycle; partial: boolean }[] = [];
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
      charges.push({ serviceLineNumber: number, productReferenceId: span.plan.productReferenceId, description: span.plan.name, quantity, unitPrice: span.plan.price, periodStartMs: span.startMs, periodEndMs: span.endMs });
      if (span.blocks) {
        const { product, count } = span.blocks;
        charges.push({
          serviceLineNumber: number,
          productReferenceId: product.productId,
          description: `Recurring data block ${product.dataAmount} ${product.dataUnit} × ${count}`,
          quantity: Math.round(quantity * count * 10_000) / 10_000,
          unitPrice: product.price,
          periodStartMs: span.startMs,
          periodEndMs: span.endMs,
        });
      }
    }
    if (charges.length === 0) return charges;
    const profile = lineProfile(l);
    const cycleEndMs = cycle.endMs;
    const topUps = topUpBlocksIn(l, profile, cycle);
    if (topUps > 0) {
      charges.push({ serviceLineNumber: number, productReferenceId: TOP_UP_50GB.productId, description: 'One-time top-up 50 GB', quantity: topUps, unitPrice: TOP_UP_50GB.price, periodStartMs: cycle.startMs, periodEndMs: cycleEndMs });
    }
    if (optedInDuring(l, profile, cycle)) {
      // What opting in bought past the limit: priority GB on metered plans, automatic 50 GB blocks on Priority.
      const last = productSpans(l).filter((span) => span.cycle.startMs === cycle.startMs).at(-1)!;
      const capGB = capOf(last.plan, last.blocks) + topUps * dataProductGB(TOP_UP_50GB);
      const usage = usageFor(l, profile, cycle, capGB, clock().getTime(), profile.startMs);
      if (last.plan.kind === 'metered' && usage.totalOptInPriorityGB > 0) {
        charges.push({ serviceLineNumber: number, productReferenceId: last.plan.overage.productId, description: last.plan.overage.name, quantity: usage.totalOptInPriorityGB, unitPrice: last.plan.overage.pricePerGB, periodStartMs: cycle.startMs, periodEndMs: cycleEndMs });
      }
      if (last.plan.kind === 'priority' && usage.billableGB > capGB) {
        const blocks = Math.ceil((usage.billableGB - capGB) / dataProductGB(TOP_UP_50GB));
        charges.push({ serviceLineNumber: number, productReferenceId: TOP_UP_50GB.productId, description: 'Automatic top-up 50 GB', quantity: blocks, unitPrice: TOP_UP_50GB.price, periodStartMs: cycle.startMs, periodEndMs: cycleEndMs });
      }
    }
    return charges;
  }

  function cycleCharges(cycleStartMs: number): LineCharge[] {
    const cycle = cycleContaining(cycleStartMs);
    const lines = allLines();
    const charges: LineCharge[] = [];
    for (let k = 0; k < lines.length; k++) {
      const l = lines.at(k);
      const profile = lineProfile(l);
      if (profile.startMs >= cycle.endMs || (profile.endMs !== null && profile.endMs < cycle.startMs)) continue;
      charges.push(...lineCharges(l, cycle));
    }
    return charges;
  }

  /** Why a line cannot go onto the pool asked for (none asked: no problem). */
  function poolProblem(dataPoolId: string | null, blocks: DataBlockRequest[]): Outcome<never> | null {
    if (!dataPoolId) return null;
    if (blocks.length > 0) return rejected('dataPoolId and recurringDataBlocks cannot be used together', ['dataPoolId']);
    if (!pools.some((pool) => pool.dataPoolId === dataPoolId)) return rejected(`Data pool ${dataPoolId} was not found on this account`, ['dataPoolId']);
    return null;
  }

  const overlayOf = (l: number): LineOverlay => {
    let overlay = lineOverlay.get(l);
    if (!overlay) lineOverlay.set(l, (overlay = {}));
    return overlay;
  };

  const lifecycle = {
    createAddress(input: AddressInput): Outcome<AddressResponse> {
      const problem = addressProblem(input);
      if (problem) return rejected(problem, ['latitude', 'longitude']);
      const k = createdAddresses.length;
      const record = addressRecord(createdAddressId(k), input);
      createdAddresses.push(record);
      createdAddressSlot.set(record.addressReferenceId, CREATED_ADDRESS + k);
      return { ok: true, value: record };
    },

    updateAddress(addressReferenceId: string, input: AddressInput): Outcome<AddressResponse> {
      const slot = addressIndex(addressReferenceId);
      if (slot === undefined) {
        return { ok: false, status: 404, message: `Address ${addressReferenceId} was not found on this account`, memberNames: ['addressReferenceId'] };
      }
      const problem = addressProblem(input);
      if (problem) return rejected(problem, ['latitude', 'longitude']);
      const record = addressRecord(addressAt(slot).addressReferenceId, input);
      if (slot >= CREATED_ADDRESS) createdAddresses[slot - CREATED_ADDRESS] = record;
      else addressEdits.set(slot, record);
      return { ok: true, value: record };
    },

    addTerminal(deviceId: string): Outcome {
      const t = knownTerminalIndex(deviceId);
      if (t === undefined) return rejected(`No user terminal matches ${deviceId}: check the kit or dish serial number`, ['deviceId']);
      if (onAccount(t)) return rejected(`User terminal ${deviceId} is already on this account`, ['deviceId']);
      accountChanges.set(t, true);
      accountList = null;
      return { ok: true, value: undefined, information: [`User terminal ${userTerminalIdOf(t)} added to the account`] };
    },

    removeTerminal(deviceId: string): Outcome {
      const t = terminalIndex(deviceId);
      if (t === undefined) return notFoundTerminal(deviceId);
      const line = lineOfTerminal(t);
      if (line !== null) {
        return rejected(`User terminal ${deviceId} is on service line ${serviceLineNumberOf(line)}: remove it from the line first`, ['deviceId']);
      }
      accountChanges.set(t, false);
      accountList = null;
      rebootedAt.delete(t);
      return { ok: true, value: undefined };
    },

    createServiceLine(creation: ServiceLineCreation): Outcome<ServiceLineResponse> {
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
    },

    deactivateServiceLine(serviceLineNumber: string, options: { endNow: boolean; reason: string | null }): Outcome {
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
    },

    setNickname(serviceLineNumber: string, nickname: string): Outcome {
      const l = serviceLineIndex(serviceLineNumber);
      if (l === undefined) return notFoundLine(serviceLineNumber);
      overlayOf(l).nickname = nickname.trim();
      return { ok: true, value: undefined };
    },

    setPublicIp(serviceLineNumber: string, publicIp: boolean): Outcome {
      const found = activeLine(serviceLineNumber);
      if (!found.ok) return found;
      overlayOf(found.value).publicIp = publicIp;
      return { ok: true, value: undefined, information: [`Public IP ${publicIp ? 'enabled' : 'disabled'} on service line ${serviceLineNumber}`] };
    },

    setOptIn(serviceLineNumber: string, optedIn: boolean): Outcome<OptInState> {
      const found = activeLine(serviceLineNumber);
      if (!found.ok) return found;
      const l = found.value;
      const nowMs = clock().getTime();
      const overlay = lineOverlay.get(l);
      const profile = lineProfile(l);
      const plan = currentPlan(l, profile).plan;
      const coolingUntil = overlay?.optInChangedMs === undefined ? null : overlay.optInChangedMs + OPT_IN_COOL_DOWN_MS;
      const state = (): OptInState => {
        const changedMs = lineOverlay.get(l)?.optInChangedMs;
        const on = lineProfile(l).optedIn;
        return {
          productId: plan.overage.productId,
          activatedDate: iso(on && changedMs !== undefined ? changedMs : profile.startMs),
          deactivatedDate: on ? null : changedMs === undefined ? null : iso(changedMs),
          isInOptInCoolDown: changedMs !== undefined && nowMs < changedMs + OPT_IN_COOL_DOWN_MS,
        };
      };
      // Asking for the state the line is in changes nothing (and is not a change for the cool-down).
      if (profile.optedIn === optedIn) return { ok: true, value: state() };
      if (coolingUntil !== null && nowMs < coolingUntil) {
        return rejected(`Service line ${serviceLineNumber} changed its priority data opt-in recently; try again after ${iso(coolingUntil)}`, ['serviceLineNumber']);
      }
      const changed = overlayOf(l);
      changed.optedIn = optedIn;
      changed.optInChangedMs = nowMs;
      return { ok: true, value: state() };
    },

    setRecurringBlocks(serviceLineNumber: string, change: RecurringBlocksChange): Outcome {
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
    },

    topUp(serviceLineNumber: string, block: DataBlockRequest): Outcome {
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
    },

    dataPools: () => pools.map((pool) => ({ ...pool })),

    setPoolAutomaticTopUp(dataPoolId: string, enabled: boolean): Outcome {
      const pool = pools.find((p) => p.dataPoolId === dataPoolId);
      if (!pool) return { ok: false, status: 404, message: `Data pool ${dataPoolId} was not found on this account`, memberNames: ['dataPoolId'] };
      pool.automaticTopUpEnabled = enabled;
      return { ok: true, value: undefined };
    },

    setConsumeFromPool(serviceLineNumber: string, consume: boolean): Outcome {
      const found = activeLine(serviceLineNumber);
      if (!found.ok) return found;
      if (!consume) {
        poolOfLine.delete(found.value);
        return { ok: true, value: undefined };
      }
      const pool = pools[0]!;
      poolOfLine.set(found.value, pool.dataPoolId);
      return { ok: true, value: undefined, information: [`Service line ${serviceLineNumber} now consumes from data pool ${pool.dataPoolId}`] };
    },

    poolUsage(dataPoolId: string) {
      const nowMs = clock().getTime();
      const members = [...poolOfLine].filter(([, id]) => id === dataPoolId).map(([l]) => l).sort((a, b) => a - b);
      return members.map((l) => ({ serviceLineNumber: serviceLineNumberOf(l), consumedGB: currentCycleFacts(l, lineProfile(l), nowMs).usage.totalPriorityGB }));
    },

    partialPeriods(serviceLineNumber: string): Outcome<PartialPeriod[]> {
      const l = serviceLineIndex(serviceLineNumber);
      if (l === undefined) return notFoundLine(serviceLineNumber);
      const spans = productSpans(l).filter((span) => span.partial);
      return {
        ok: true,
        value: spans.map((span) => ({ productReferenceId: span.plan.productReferenceId, periodStart: iso(span.startMs), periodEnd: iso(span.endMs) })),
      };
    },
  };

  // ---- Summaries ----------------------------------------------------------------------------
  function stats(): FleetStats {
    const nowMs = clock().getTime();
    const previous = previousCycle(cycleContaining(nowMs));
    const terminals = accountTerminals();
    const lines = allLines();
    const result: FleetStats = {
      terminals: terminals.length,
      serviceLines: lines.length,
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
      if (!isOnline(t, telemetryProfile(t))) result.offlineTerminals++;
      const model = terminalModel(t).name;
      result.terminalsByModel[model] = (result.terminalsByModel[model] ?? 0) + 1;
    }
    for (let k = 0; k < lines.length; k++) {
      const l = lines.at(k);
      const profile = lineProfile(l);
      const { plan } = currentPlan(l, profile);
      result.linesByProduct[plan.productReferenceId] = (result.linesByProduct[plan.productReferenceId] ?? 0) + 1;
      const continent = site(l).place.continent;
      result.linesByContinent[continent] = (result.linesByContinent[continent] ?? 0) + 1;
      if (!profile.active) {
        result.inactiveServiceLines++;
        continue;
      }
      const capGB = capOf(profile.basePlan, profile.baseBlocks);
      if (profile.startMs >= previous.endMs) continue;
      if (usageFor(l, profile, previous, capGB, nowMs, profile.startMs).billableGB > capGB) result.overCapLastCycle++;
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
      offlineUserTerminalId: firstTerminal((t) => !isOnline(t, telemetryProfile(t))),
      stockKitSerialNumber: stockKitSerials()[0] ?? null,
    };
  }

  const productResponse = (plan: Plan): SubscriptionProductResponse => ({
    productReferenceId: plan.productReferenceId,
    name: plan.name,
    price: plan.price,
    isoCurrencyCode: CURRENCY,
    isSla: plan.isSla,
    maxNumberOfUserTerminals: null,
    dataProducts: {
      topUpProduct: { ...plan.topUpProduct, isoCurrencyCode: CURRENCY },
      dataBlockProducts: plan.dataBlockProducts.map((p) => ({ ...p, isoCurrencyCode: CURRENCY })),
    },
  });

  return {
    seed,
    size,
    accountNumber,
    createdAt,
    knownServiceLineNumber: serviceLineNumberOf(0),
    knownUserTerminalId: userTerminalIdOf(0),
    account: () => ({ accountNumber, regionCode: 'US', accountName, activeSuspensions: [] }),
    products: () => PLANS.map(productResponse),
    plan: (id) => PLANS.find((p) => p.productReferenceId === id),
    terminal,
    terminalModel,
    terminalIndex,
    userTerminalIds: () => {
      const all = accountTerminals();
      return Array.from({ length: all.length }, (_, k) => userTerminalIdOf(all.at(k)));
    },
    stockKitSerials,
    userTerminals,
    serviceLineNumbers: () => [...Array.from(linesByIndex, serviceLineNumberOf), ...createdLineOrder.map(serviceLineNumberOf)],
    serviceLineIndex,
    serviceLine: (number) => {
      const l = serviceLineIndex(number);
      return l === undefined ? undefined : serviceLineAt(l);
    },
    serviceLineAt,
    serviceLines,
    address: (id) => {
      const l = addressIndex(id);
      return l === undefined ? undefined : addressAt(l);
    },
    addresses,
    addressAt,
    usageLines,
    usageRecord,
    telemetry,
    telemetryAt,
    devices,
    attach,
    detach,
    changeProduct,
    reboot,
    surge,
    ...lifecycle,
    cycleCharges,
    stats,
    examples,
  };
}

/** A stable, seed-keyed order over indexes: pages built from it hold the same members every time. */
export function stableOrderKey(seed: string | number): (index: number) => number {
  const permutation = hexPermutation(mix(hashString(String(seed)), 0x6f726472));
  return (index) => permutation.forward(index);
}
