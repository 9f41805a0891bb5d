// Telemetry over time and the fleet on the map: what is kept, for how long, the ranges a chart
// reads, the wire shapes of a terminal's history and of the fleet map, and the ranges a provider
// value must fall in to be kept. Shared by the server (storage, answers) and the client (charts,
// map, machines).
//
// Each sync's reading of a terminal is kept raw for 14 days; hourly and daily roll-ups of them for
// 13 months. A chart reads the table that fits its range: 24 hours the raw readings, 7 and 30 days
// the hourly roll-up, 13 months the daily one. An outage is a span of readings that found the
// terminal offline (its last report older than TELEMETRY_OFFLINE_AFTER_MS): it opens at the last
// report before it and closes at the first reading that finds the terminal online again.
import { TERMINAL_CONDITIONS, type TerminalCondition } from './terminals';

export const RAW_KEEP_DAYS = 14;
export const ROLLUP_KEEP_MONTHS = 13;

export const TELEMETRY_RANGES = ['24h', '7d', '30d', '13m'] as const;
export type TelemetryRange = (typeof TELEMETRY_RANGES)[number];
export const DEFAULT_TELEMETRY_RANGE: TelemetryRange = '24h';

/** raw: each reading; hour and day: the roll-ups' averages. */
export type TelemetryResolution = 'raw' | 'hour' | 'day';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export const TELEMETRY_RANGE_INFO: Readonly<Record<TelemetryRange, { label: string; resolution: TelemetryResolution }>> = {
  '24h': { label: '24 hours', resolution: 'raw' },
  '7d': { label: '7 days', resolution: 'hour' },
  '30d': { label: '30 days', resolution: 'hour' },
  '13m': { label: '13 months', resolution: 'day' },
};

/** The first instant of a range ending at `now`: 13 months is calendar months, in UTC. */
export function rangeStart(range: TelemetryRange, now: Date): Date {
  switch (range) {
    case '24h':
      return new Date(now.getTime() - DAY_MS);
    case '7d':
      return new Date(now.getTime() - 7 * DAY_MS);
    case '30d':
      return new Date(now.getTime() - 30 * DAY_MS);
    case '13m': {
      const start = new Date(now);
      start.setUTCMonth(start.getUTCMonth() - ROLLUP_KEEP_MONTHS);
      return start;
    }
  }
}

/** The oldest instant each resolution still holds at `now`. */
export function keptSince(resolution: TelemetryResolution, now: Date): Date {
  if (resolution === 'raw') return new Date(now.getTime() - RAW_KEEP_DAYS * DAY_MS);
  const since = new Date(now);
  since.setUTCMonth(since.getUTCMonth() - ROLLUP_KEEP_MONTHS);
  return since;
}

/** The resolution for an explicit from–to: raw up to 2 days, hourly up to 35, daily beyond. */
export function resolutionFor(from: Date, to: Date): TelemetryResolution {
  const span = to.getTime() - from.getTime();
  if (span <= 2 * DAY_MS) return 'raw';
  if (span <= 35 * DAY_MS) return 'hour';
  return 'day';
}

export const bucketMs = (resolution: TelemetryResolution): number | null => (resolution === 'hour' ? HOUR_MS : resolution === 'day' ? DAY_MS : null);

export const TELEMETRY_HISTORY_MESSAGES = {
  rangeUnknown: `range must be one of ${TELEMETRY_RANGES.join(', ')}`,
  rangeAndDates: 'Give either range or from and to, not both',
  fromAndTo: 'Give both from and to',
  rangeBackwards: (from: string, to: string) => `The range ${from} to ${to} ends before it starts`,
  rangeOutside: (from: string, to: string, since: string) => `The range ${from} to ${to} is outside the kept history, which starts ${since}`,
  rangeInFuture: (from: string, to: string) => `The range ${from} to ${to} lies in the future`,
} as const;

// ---- Provider values ----------------------------------------------------------------------------

/**
 * The range each kept value must fall in. A value outside it (a negative latency, a signal quality
 * above 1) is stored as null and logged as a warning: a chart never draws it, and never breaks on it.
 * obstructionPercent is the provider's obstructionPercentTime, a percentage of time (0–100).
 */
export const TELEMETRY_VALUE_RANGES = {
  downlinkMbps: { min: 0, max: 100_000 },
  uplinkMbps: { min: 0, max: 100_000 },
  latencyMs: { min: 0, max: 60_000 },
  pingDropRate: { min: 0, max: 1 },
  obstructionPercent: { min: 0, max: 100 },
  signalQuality: { min: 0, max: 1 },
  uptimeSeconds: { min: 0, max: 100 * 365 * 86_400 },
} as const;
export type TelemetryMetric = keyof typeof TELEMETRY_VALUE_RANGES;
export const TELEMETRY_METRICS = Object.keys(TELEMETRY_VALUE_RANGES) as TelemetryMetric[];

/** The value when it is a finite number in its range; null otherwise. */
export function keptValue(metric: TelemetryMetric, value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  const { min, max } = TELEMETRY_VALUE_RANGES[metric];
  return value >= min && value <= max ? value : null;
}

// ---- Alerts --------------------------------------------------------------------------------------

/**
 * The alerts history keeps, a bit each (bit i: TELEMETRY_ALERTS[i]). An alert the provider adds
 * later is shown on the terminal's latest reading but not kept in its history until it is listed.
 */
export const TELEMETRY_ALERTS = [
  'alertHighTimeObstruction',
  'alertDisabledDataUsageExceededQuota',
  'alertMotorsStuck',
  'alertThermalThrottle',
  'alertThermalShutdown',
  'alertMastNotNearVertical',
  'alertSlowEthernetSpeeds',
  'alertRoaming',
  'alertInstallPending',
  'alertIsHeating',
] as const;

export function alertBits(alerts: readonly string[]): number {
  let bits = 0;
  for (const alert of alerts) {
    const bit = (TELEMETRY_ALERTS as readonly string[]).indexOf(alert);
    if (bit >= 0) bits |= 1 << bit;
  }
  return bits;
}

export const alertsOfBits = (bits: number): string[] => TELEMETRY_ALERTS.filter((_, bit) => (bits & (1 << bit)) !== 0);

// ---- A terminal's history (GET /api/v1/terminals/{id}/telemetry, /api/v1/my/terminals/{id}/telemetry)

/** A reading's values, or a bucket's averages: each null when not known or out of its range. */
export type TelemetryValues = Record<TelemetryMetric, number | null>;

/**
 * One point of a chart: a reading (raw), or a bucket's averages (hour, day). Null: not known.
 * signalQuality is 0–1; uptimeSeconds only on raw readings (a bucket has no single uptime).
 */
export interface TelemetryPointWire extends TelemetryValues {
  /** ISO: the reading's time, or the bucket's start. */
  at: string;
  /** The share of the readings (0–1) that found the terminal online; a raw reading: 1 or 0. */
  onlineShare: number;
  /** Readings in the bucket (1 for raw). */
  samples: number;
  /** Alerts on at the reading, or at any reading of the bucket (e.g. alertMotorsStuck). */
  alerts: string[];
}

export interface OutageWire {
  /** ISO: the terminal's last report before it went offline. */
  startedAt: string;
  /** ISO: the first reading that found it online again; null while it lasts. */
  endedAt: string | null;
  /** Up to `endedAt`, or to the answer's `to` while it lasts. */
  durationSeconds: number;
}

export interface TelemetryHistoryWire {
  userTerminalId: string;
  range: TelemetryRange | null;
  from: string;
  to: string;
  resolution: TelemetryResolution;
  /** Seconds per bucket: null for raw readings. */
  bucketSeconds: number | null;
  points: TelemetryPointWire[];
  /** Outages that overlap the range, oldest first. */
  outages: OutageWire[];
  /** The oldest instant this resolution still holds. */
  keptSince: string;
  /** The terminal's first kept reading, null when none. */
  firstReadingAt: string | null;
}

/** What a Telemetry tab shows of one range (the telemetry-history machine's view derives it). */
export interface TelemetryHistoryView {
  range: TelemetryRange;
  loading: boolean;
  /** The range's answer, once it came. */
  history: TelemetryHistoryWire | null;
  /** The answer holds no reading in the range. */
  empty: boolean;
  /** Why the range could not be loaded; null unless it failed. */
  error: string | null;
  canRetry: boolean;
}

// ---- The fleet map (GET /api/v1/fleet/map) ---------------------------------------------------------

/** The map's filter: every field optional. */
export interface FleetMapFilter {
  customerId?: string;
  status?: TerminalCondition;
  accountId?: number;
}

/**
 * Every live terminal the filter matches. Those with a location come as parallel columns (one
 * index per terminal: a 100,000-terminal fleet stays within 2 MB compressed), their coordinates in
 * whole ten-thousandths of a degree (about 11 m: 123457 is 12.3457°), which the database writes
 * several times faster than decimals. Those without one are counted and the first of them listed,
 * never placed at 0,0.
 */
export interface FleetMapWire {
  generatedAt: string;
  located: {
    userTerminalIds: string[];
    /** Ten-thousandths of a degree (FLEET_MAP_COORDINATE_UNITS to the degree). */
    latitudesE4: number[];
    longitudesE4: number[];
    /** An index into TERMINAL_CONDITIONS. */
    conditions: number[];
  };
  unlocated: {
    total: number;
    /** The first FLEET_MAP_UNLOCATED_LISTED, by service line. */
    terminals: { userTerminalId: string; nickname: string | null; serviceLineNumber: string | null; condition: TerminalCondition }[];
  };
}

/** The map as the client holds it: the answer read, coordinates in degrees. */
export interface FleetMap extends Omit<FleetMapWire, 'located'> {
  located: { userTerminalIds: string[]; latitudes: number[]; longitudes: number[]; conditions: number[] };
}

/** The wire's coordinate units to the degree. */
export const FLEET_MAP_COORDINATE_UNITS = 10_000;

export const FLEET_MAP_UNLOCATED_LISTED = 200;
export const conditionIndex = (condition: TerminalCondition): number => TERMINAL_CONDITIONS.indexOf(condition);
export const conditionAt = (index: number): TerminalCondition => TERMINAL_CONDITIONS[index] ?? 'inactive';

/** A coordinate a map can place: finite, in range, and not the 0,0 a missing location often becomes. */
export function isPlaceable(latitude: number | null, longitude: number | null): boolean {
  if (latitude === null || longitude === null || !Number.isFinite(latitude) || !Number.isFinite(longitude)) return false;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return false;
  return !(latitude === 0 && longitude === 0);
}
