// Telemetry over time: what each sync read of a terminal is kept (raw 14 days, hourly and daily
// roll-ups 13 months), a terminal's history for a chart, its outages, the fleet's map, and the
// upkeep a minute's tick does (partitions ahead, each complete day's hours and the day rolled up,
// expired partitions dropped). The rules are src/domain/telemetry-history.ts's.
import {
  alertsOfBits,
  bucketMs,
  DEFAULT_TELEMETRY_RANGE,
  FLEET_MAP_UNLOCATED_LISTED,
  keptSince,
  RAW_KEEP_DAYS,
  rangeStart,
  resolutionFor,
  TELEMETRY_HISTORY_MESSAGES as M,
  TELEMETRY_RANGE_INFO,
  type FleetMapFilter,
  type TelemetryHistoryWire,
  type TelemetryRange,
} from '../../src/domain/telemetry-history';
import type { Clock } from '../clock';
import type { Repositories } from '../db/repositories';
import type { HistoryReading } from '../db/repositories/telemetry-history';
import { fieldError, NotFoundError } from '../errors';

/** A chart's range: one of the named ones, or from–to (ISO instants the route checked). */
export type HistoryQuery = { range?: TelemetryRange; from?: string; to?: string };

export interface TelemetryHistoryService {
  /** One sync's readings of the terminals it read, at `at` (inside the sync's transaction). */
  record: (readings: readonly HistoryReading[], at: Date, tx?: Parameters<Repositories['telemetryHistory']['record']>[2]) => Promise<void>;
  /** A terminal's history; `since` keeps out what came before (a customer sees only their own time). */
  history(userTerminalId: string, query: HistoryQuery, since?: Date | null): Promise<TelemetryHistoryWire>;
  /** The fleet map's answer; the same object while the terminals have not changed. */
  map(filter: FleetMapFilter): Promise<FleetMapAnswer>;
  /** The tick's upkeep; answers what it did, for the log. */
  maintain(): Promise<{ hours: number; days: number; dropped: string[] }>;
}

/** The fleet map's answer: a FleetMapWire as JSON text, for the route to send as it is. */
export interface FleetMapAnswer {
  readonly json: string;
  /** The terminals' version it was made from (the repository's inventoryVersion). */
  readonly version: string;
}

/** Answers kept, one per filter asked most recently: a whole fleet's is a few megabytes. */
const MAP_ANSWERS_KEPT = 8;
const mapKey = (filter: FleetMapFilter) => JSON.stringify([filter.customerId ?? null, filter.status ?? null, filter.accountId ?? null]);
const WHOLE_FLEET = mapKey({});

const DAY_MS = 86_400_000;
const round4 = (value: number) => Math.round(value * 10_000) / 10_000;
const round2 = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);

/** The range asked for, as instants, and the table it reads: 400 naming a range that cannot be read. */
export function resolveRange(query: HistoryQuery, now: Date): { range: TelemetryRange | null; from: Date; to: Date } {
  if (query.range !== undefined && (query.from !== undefined || query.to !== undefined)) throw fieldError('range', M.rangeAndDates);
  if (query.from === undefined && query.to === undefined) {
    const range = query.range ?? DEFAULT_TELEMETRY_RANGE;
    return { range, from: rangeStart(range, now), to: now };
  }
  if (query.from === undefined || query.to === undefined) throw fieldError(query.from === undefined ? 'from' : 'to', M.fromAndTo);
  const from = new Date(query.from);
  const to = new Date(query.to);
  if (!(from.getTime() < to.getTime())) throw fieldError('to', M.rangeBackwards(query.from, query.to));
  if (from.getTime() > now.getTime()) throw fieldError('from', M.rangeInFuture(query.from, query.to));
  const since = keptSince(resolutionFor(from, to), now);
  // Before what its resolution keeps, a chart would be silently cut: say so instead.
  if (from.getTime() < since.getTime()) throw fieldError('from', M.rangeOutside(query.from, query.to, since.toISOString()));
  return { range: null, from, to };
}

export function createTelemetryHistoryService(deps: { repos: Repositories; now: Clock }): TelemetryHistoryService {
  const { repos, now } = deps;
  const history = repos.telemetryHistory;
  /** The map's answers by filter, least recently asked first. */
  const mapAnswers = new Map<string, FleetMapAnswer>();

  async function map(filter: FleetMapFilter): Promise<FleetMapAnswer> {
    // The whole fleet's answer takes the database a few hundred milliseconds to write, and the
    // terminals change only when a sync or an admin writes them: while they have not, the answer
    // made before is the answer (generatedAt says when it was made).
    const key = mapKey(filter);
    // Read before the answer: a write committed between the two makes the answer newer than its
    // version, and the next request rebuilds it; never older.
    const version = await history.inventoryVersion();
    const kept = mapAnswers.get(key);
    mapAnswers.delete(key);
    if (kept && kept.version === version) {
      mapAnswers.set(key, kept);
      return kept;
    }
    const answer: FleetMapAnswer = {
      json: await history.mapJson({ customerId: filter.customerId, condition: filter.status, accountId: filter.accountId }, now(), FLEET_MAP_UNLOCATED_LISTED),
      version,
    };
    mapAnswers.set(key, answer);
    for (const oldest of mapAnswers.keys()) {
      if (mapAnswers.size <= MAP_ANSWERS_KEPT) break;
      mapAnswers.delete(oldest);
    }
    return answer;
  }

  return {
    record: (readings, at, tx) => history.record(readings, at, tx),

    async history(userTerminalId, query, since = null) {
      const at = now();
      const asked = resolveRange(query, at);
      const key = await history.keyOf(userTerminalId);
      if (key === null) throw new NotFoundError('Terminal not found');
      const resolution = asked.range ? TELEMETRY_RANGE_INFO[asked.range].resolution : resolutionFor(asked.from, asked.to);
      const kept = keptSince(resolution, at);
      const floor = Math.max(asked.from.getTime(), kept.getTime(), since?.getTime() ?? -Infinity);
      const from = new Date(Math.min(floor, asked.to.getTime()));
      const [points, outages, first] = await Promise.all([
        history.points(key, resolution, from, asked.to),
        history.outages(key, from, asked.to),
        history.firstReadingAt(key),
      ]);
      const step = bucketMs(resolution);
      return {
        userTerminalId,
        range: asked.range,
        from: from.toISOString(),
        to: asked.to.toISOString(),
        resolution,
        bucketSeconds: step === null ? null : step / 1000,
        points: points.map((p) => ({
          at: p.at,
          downlinkMbps: round2(p.downlinkMbps),
          uplinkMbps: round2(p.uplinkMbps),
          latencyMs: round2(p.latencyMs),
          pingDropRate: p.pingDropRate === null ? null : round4(p.pingDropRate),
          obstructionPercent: round2(p.obstructionPercent),
          signalQuality: p.signalQuality === null ? null : round4(p.signalQuality),
          uptimeSeconds: p.uptimeSeconds,
          onlineShare: p.samples > 0 ? round4(p.onlineSamples / p.samples) : 0,
          samples: p.samples,
          alerts: alertsOfBits(p.alerts),
        })),
        outages: outages.map((o) => {
          const end = o.endedAt === null ? asked.to.getTime() : Date.parse(o.endedAt);
          return { startedAt: o.startedAt, endedAt: o.endedAt, durationSeconds: Math.max(0, Math.round((end - Date.parse(o.startedAt)) / 1000)) };
        }),
        keptSince: kept.toISOString(),
        firstReadingAt: since && first && Date.parse(first) < since.getTime() ? since.toISOString() : first,
      };
    },

    map,

    async maintain() {
      const at = now();
      // Today's partitions and the next two days', so a write at midnight never waits on one.
      await history.ensurePartitions(at, new Date(at.getTime() + 2 * DAY_MS));
      const rawSince = new Date(at.getTime() - RAW_KEEP_DAYS * DAY_MS);
      const rollupSince = keptSince('hour', at);
      const { hours, days } = await history.rollUp(at, { rawSince, rollupSince });
      const dropped = await history.dropPartitionsBefore(rawSince, rollupSince);
      await history.deleteOutagesEndedBefore(rollupSince);
      // The whole fleet's map, once someone has opened it, is made again here when the terminals
      // changed, so the next look after a sync finds it made rather than waiting for it.
      if (mapAnswers.has(WHOLE_FLEET)) await map({});
      return { hours, days, dropped };
    },
  };
}
