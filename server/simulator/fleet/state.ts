// The fleet's state: its options checked, the account and the keyed permutations behind every id,
// the facts generated per index (sites, line profiles, models, nicknames), the flags and list
// order computed once, and the overlay of what the API changed. The other fleet modules read and
// write through the object createFleetState returns.
import {
  ACCOUNT_NAME_PARTS,
  BLOCK_1TB,
  BLOCK_50GB,
  DEFAULT_CURRENCY,
  MODELS,
  PLAN_1TB,
  PLAN_50GB,
  PLAN_PRIORITY,
  SITE_KINDS,
  dataProductGB,
  placesIn,
  priceIn,
  type DataProduct,
  type Place,
  type Plan,
  type TerminalModel,
} from '../catalog';
import { decimalPermutation, digits, draw, hashString, hexPermutation, mix, toUnit } from '../random';
import { DAY_MS, cycleContaining } from '../usage';
import {
  CONTINENT_LIST,
  INACTIVE_SHARE,
  OVER_CAP_SHARE,
  TAG,
  UNATTACHED_SHARE,
  concat,
  fromArray,
  weighted,
  type CreatedLine,
  type LineOverlay,
  type LineProfile,
  type Site,
} from './shared';
import type { DataPool, FleetOptions, IndexList } from './types';

export const DEFAULT_SEED = 'starlink-demo';
export const DEFAULT_TERMINALS = 156;
/** Service line numbers carry 7 digits of index, so this is the largest fleet ids can express. */
export const MAX_TERMINALS = 10_000_000;

export type FleetState = ReturnType<typeof createFleetState>;

export function createFleetState(options: FleetOptions) {
  const seed = String(options.seed ?? DEFAULT_SEED);
  const size = options.terminals ?? DEFAULT_TERMINALS;
  if (!Number.isInteger(size) || size < 1 || size > MAX_TERMINALS) {
    throw new RangeError(`terminals must be a whole number from 1 to ${MAX_TERMINALS}`);
  }
  const stock = options.stock ?? Math.min(1000, Math.max(10, Math.ceil(size / 20)), MAX_TERMINALS - size);
  if (!Number.isInteger(stock) || stock < 0 || size + stock > MAX_TERMINALS) {
    throw new RangeError(`stock must be a whole number from 0 to ${MAX_TERMINALS - size}`);
  }
  const currency = options.currency ?? DEFAULT_CURRENCY;
  if (!/^[A-Z]{3}$/.test(currency)) throw new RangeError(`currency must be an ISO 4217 code of three upper-case letters (got "${currency}")`);
  const country = options.country;
  /** The towns a national account's sites are drawn from; null: the whole world, by continent. */
  const countryPlaces = country === undefined ? null : placesIn(country);
  if (country !== undefined && !/^[A-Z]{2}$/.test(country)) {
    throw new RangeError(`country must be an ISO 3166 alpha-2 code of two upper-case letters (got "${country}")`);
  }
  if (countryPlaces !== null && countryPlaces.length === 0) throw new RangeError(`country ${country} has no towns in the simulator's catalog`);
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
    const place: Place = countryPlaces ? d.pick(countryPlaces) : d.pick(weighted(d, CONTINENT_LIST).places);
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
  /** A generated line (terminal i starts on line i), before anything the API changed. */
  const hasGeneratedLine = (i: number) => i < size && (flags[i]! & FLAG_LINE) !== 0;

  // ---- Overlay ------------------------------------------------------------------------------
  /** Terminal index → line index, or null when detached; absent = as generated. */
  const terminalLine = new Map<number, number | null>();
  const lineOverlay = new Map<number, LineOverlay>();
  const rebootedAt = new Map<number, number>();
  /** Terminal index → an outage injected through the controls: offline from fromMs until toMs. */
  const outages = new Map<number, { fromMs: number; toMs: number }>();
  /** Terminal index → on the account or not; absent = as generated (the first `size` are). */
  const accountChanges = new Map<number, boolean>();
  const onAccount = (t: number): boolean => accountChanges.get(t) ?? t < size;
  /** Lines created through the API, by index, and their indexes in creation order. */
  const createdLines = new Map<number, CreatedLine>();
  const createdLineOrder: number[] = [];
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

  const isLine = (l: number) => hasGeneratedLine(l) || createdLines.has(l);

  function currentPlan(l: number, profile: LineProfile) {
    const overlay = lineOverlay.get(l);
    return {
      plan: overlay?.plan ?? profile.basePlan,
      blocks: overlay?.blocks !== undefined ? overlay.blocks : profile.baseBlocks,
      delayed: overlay?.delayed ?? null,
    };
  }

  const overlayOf = (l: number): LineOverlay => {
    let overlay = lineOverlay.get(l);
    if (!overlay) lineOverlay.set(l, (overlay = {}));
    return overlay;
  };

  /** Every service line, generated then created, in index order. */
  const allLines = (): IndexList => concat(fromArray(linesByIndex), fromArray(createdLineOrder));

  return {
    seed,
    size,
    terminalCount,
    currency,
    /** A USD list price in the account's currency. */
    price: (usd: number) => priceIn(currency, usd),
    /** The account's country: the one its sites are in, else the reseller's own. */
    regionCode: country ?? 'US',
    clock,
    createdAt,
    createdMs,
    key,
    accountNumber,
    accountDigits,
    accountName,
    lineCodes: decimalPermutation(7, key(TAG.ids, 3)),
    kitCodes: decimalPermutation(8, key(TAG.ids, 4)),
    dishCodes: decimalPermutation(8, key(TAG.ids, 5)),
    terminalCodes: hexPermutation(key(TAG.ids, 6)),
    addressCodes: hexPermutation(key(TAG.ids, 7)),
    hasLineInitially,
    site,
    generatedProfile,
    capOf,
    terminalModel,
    lineNickname,
    terminalNickname,
    linesByIndex,
    linesNewestFirst,
    hasGeneratedLine,
    terminalLine,
    lineOverlay,
    rebootedAt,
    outages,
    accountChanges,
    onAccount,
    createdLines,
    createdLineOrder,
    pools,
    poolOfLine,
    lineProfile,
    lineOfTerminal,
    terminalsOfLine,
    isActive,
    isLine,
    currentPlan,
    overlayOf,
    allLines,
  };
}
