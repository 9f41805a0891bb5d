// What the fleet's parts share besides its state: the tags that keep seeded draws apart, the
// generator's shares, the internal records of a line, and small helpers for lists and outcomes.
import { CONTINENT_WEIGHTS, PLACES, type Continent, type DataProduct, type Place, type Plan } from '../catalog';
import type { Draw } from '../random';
import type { UsageProfile } from '../usage';
import type { IndexList, Outcome } from './types';

// Tags keep the draws of different facts independent of each other.
export const TAG = {
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

export const UNATTACHED_SHARE = 0.06;
export const INACTIVE_SHARE = 0.08;
export const OVER_CAP_SHARE = 0.125;
export const OFFLINE_SHARE = 0.05;
export const REPORT_INTERVAL_MS = 15_000;

export interface Site {
  place: Place;
  kind: { name: string; code: string };
  number: number;
  addressLine: string;
  latitude: number;
  longitude: number;
}

export interface LineProfile {
  basePlan: Plan;
  baseBlocks: { product: DataProduct; count: number } | null;
  active: boolean;
  startMs: number;
  endMs: number | null;
  optedIn: boolean;
  publicIp: boolean;
  usage: UsageProfile;
}

export type Blocks = { product: DataProduct; count: number } | null;

export interface LineOverlay {
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
  /** The change (its optInChangedMs) whose cool-down a simulator control ended early. */
  coolDownEndedFor?: number;
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
export interface CreatedLine {
  profile: LineProfile;
  addressReferenceId: string;
}

export function weighted<T extends { weight: number }>(d: Draw, items: readonly T[]): T {
  const total = items.reduce((sum, item) => sum + item.weight, 0);
  let r = d.next() * total;
  for (const item of items) {
    r -= item.weight;
    if (r < 0) return item;
  }
  return items[items.length - 1] as T;
}

export const CONTINENT_LIST = Object.entries(CONTINENT_WEIGHTS).map(([continent, weight]) => ({
  continent: continent as Continent,
  weight,
  places: PLACES.filter((p) => p.continent === continent),
}));

// ---- Lists --------------------------------------------------------------------------------
export const whole = (length: number): IndexList => ({ length, at: (k) => k });
export const fromArray = (items: ArrayLike<number>): IndexList => ({ length: items.length, at: (k) => items[k]! });
/** One list after the other, without copying either. */
export const concat = (first: IndexList, second: IndexList): IndexList => ({
  length: first.length + second.length,
  at: (k) => (k < first.length ? first.at(k) : second.at(k - first.length)),
});

/** Values a request named, parsed: those found, and those that name nothing. */
export function parseList<T>(values: string[] | undefined, parse: (value: string) => T | undefined) {
  const found: T[] = [];
  const unknown: string[] = [];
  for (const value of values ?? []) {
    const parsed = parse(value);
    if (parsed === undefined) unknown.push(value);
    else found.push(parsed);
  }
  return { found, unknown };
}

// ---- Outcomes -----------------------------------------------------------------------------
export const notFoundLine = (serviceLineNumber: string): Outcome<never> => ({
  ok: false,
  status: 404,
  message: `Service line ${serviceLineNumber} was not found on this account`,
  memberNames: ['serviceLineNumber'],
});
export const notFoundTerminal = (deviceId: string): Outcome<never> => ({
  ok: false,
  status: 404,
  message: `User terminal ${deviceId} was not found on this account`,
  memberNames: ['deviceId'],
});
export const rejected = (message: string, memberNames: string[] = []): Outcome<never> => ({ ok: false, status: 422, message, memberNames });
