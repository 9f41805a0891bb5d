// The fleet's public shape: the options it is made from, the Fleet the routes read and write
// through, and the records and outcomes that pass between them. No behaviour lives here.
import type { z } from 'zod';
import type { addressBody } from '../../provider/operations';
import type { DataProduct, Plan, TerminalModel } from '../catalog';
import type {
  AccountResponseV2,
  AddressResponse,
  ServiceLineDataUsageForBillingCycles,
  ServiceLineResponse,
  SubscriptionProductResponse,
  TelemetryRecord,
  UserTerminalResponseV2,
  ValidationResult,
} from '../wire';

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
  /** ISO 4217 code the account is billed in (default 'USD'); prices are converted from the USD list. */
  currency?: string;
  /**
   * ISO 3166 alpha-2 code of the one country every generated site is in (a national account);
   * default: sites spread over the world, as a global reseller's are.
   */
  country?: string;
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
  /** ISO 4217 code of every price, invoice and balance of the account. */
  readonly currency: string;
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
  /** An outage (the simulator's controls): the terminal reports nothing from now for `minutes`. */
  injectOutage(deviceId: string, minutes: number): Outcome<{ from: string; to: string }>;
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
  /** A simulator control: the line's opt-in cool-down ends now. */
  endOptInCoolDown(serviceLineNumber: string): Outcome;
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
