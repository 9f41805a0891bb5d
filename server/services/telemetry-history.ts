// Telemetry over time: what each sync read of a terminal is kept (raw 14 days, hourly and daily
// roll-ups 13 months), a terminal's history for a chart, its outages, the fleet's locations for the
// map, and the upkeep a minute's tick does (partitions ahead, roll-ups of complete hours and days,
// expired partitions dropped). The rules are src/domain/telemetry-history.ts's.
import {
  alertsOfBits,
  bucketMs,
  conditionIndex,
  DEFAULT_TELEMETRY_RANGE,
  FLEET_MAP_UNLOCATED_LISTED,
  isPlaceable,
  keptSince,
  RAW_KEEP_DAYS,
  rangeStart,
  resolutionFor,
  TELEMETRY_HISTORY_MESSAGES as M,
  TELEMETRY_RANGE_INFO,
  type FleetMapFilter,
  type FleetMapWire,
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
  map(filter: FleetMapFilter): Promise<FleetMapWire>;
  /** The tick's upkeep; answers what it did, for the log. */
  maintain(): Promise<{ hours: number; days: number; dropped: string[] }>;
}

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

    async map(filter) {
      const rows = await history.mapTerminals({ customerId: filter.customerId, condition: filter.status, accountId: filter.accountId });
      const located: FleetMapWire['located'] = { userTerminalIds: [], latitudes: [], longitudes: [], conditions: [] };
      const unlocated: FleetMapWire['unlocated'] = { total: 0, terminals: [] };
      for (const row of rows) {
        if (isPlaceable(row.latitude, row.longitude)) {
          located.userTerminalIds.push(row.userTerminalId);
          located.latitudes.push(round4(row.latitude!));
          located.longitudes.push(round4(row.longitude!));
          located.conditions.push(conditionIndex(row.condition));
        } else {
          unlocated.total += 1;
          if (unlocated.terminals.length < FLEET_MAP_UNLOCATED_LISTED) {
            unlocated.terminals.push({ userTerminalId: row.userTerminalId, nickname: row.nickname, serviceLineNumber: row.serviceLineNumber, condition: row.condition });
          }
        }
      }
      return { generatedAt: now().toISOString(), located, unlocated };
    },

    async maintain() {
      const at = now();
      // Today's partitions and the next two days', so a write at midnight never waits on one.
      await history.ensurePartitions(at, new Date(at.getTime() + 2 * DAY_MS));
      const rawSince = new Date(at.getTime() - RAW_KEEP_DAYS * DAY_MS);
      const rollupSince = keptSince('hour', at);
      const { hours, days } = await history.rollUp(at, { rawSince, rollupSince });
      const dropped = await history.dropPartitionsBefore(rawSince, rollupSince);
      await history.deleteOutagesEndedBefore(rollupSince);
      return { hours, days, dropped };
    },
  };
}
