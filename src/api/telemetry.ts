// A terminal's telemetry history: the admin's read of any terminal
// (`GET /terminals/{userTerminalId}/telemetry`), the customer's of their own
// (`GET /my/terminals/{terminalId}/telemetry`) and the admin preview's of a customer's, each
// `?range=24h|7d|30d|13m`, with the Telemetry tab's actor beside them. Answers are read
// defensively: a value a chart cannot draw is null (a gap), never zero, and an answer without its
// range's bounds is not an answer.
import { fromPromise } from 'xstate';
import {
  TELEMETRY_METRICS,
  TELEMETRY_RANGES,
  TELEMETRY_RANGE_INFO,
  bucketMs,
  keptValue,
  resolutionFor,
  type OutageWire,
  type TelemetryHistoryWire,
  type TelemetryMetric,
  type TelemetryPointWire,
  type TelemetryResolution,
} from '../domain/telemetry-history';
import type { TelemetryHistoryOutcome, TelemetryHistoryRequest } from '../machines/telemetry-history';
import { mapResult, type ApiClient, type ApiResult } from './client';
import { isRecord, str, withSignal } from './normalise';
import { outcome } from './outcomes';
import { listOf, num, oneOf, strings } from './terminals';

const RESOLUTIONS: readonly TelemetryResolution[] = ['raw', 'hour', 'day'];

/** An ISO instant a Date can read; null otherwise. */
function instant(value: unknown): string | null {
  const text = str(value);
  return text !== null && !Number.isNaN(Date.parse(text)) ? text : null;
}

const clampShare = (value: number | null) => (value === null ? 0 : Math.min(1, Math.max(0, value)));

/** One point; null (skipped) when its time cannot be read. */
export function normaliseTelemetryPoint(raw: unknown): TelemetryPointWire | null {
  if (!isRecord(raw)) return null;
  const at = instant(raw.at);
  if (at === null) return null;
  const values = Object.fromEntries(TELEMETRY_METRICS.map((metric) => [metric, keptValue(metric, raw[metric])])) as Record<TelemetryMetric, number | null>;
  const samples = num(raw.samples);
  return {
    at,
    ...values,
    onlineShare: clampShare(num(raw.onlineShare)),
    samples: samples === null ? 1 : Math.max(0, Math.round(samples)),
    alerts: strings(raw.alerts),
  };
}

/** One outage; null (skipped) when its start cannot be read. A missing duration runs to its end or to `to`. */
export function normaliseOutage(raw: unknown, to: string): OutageWire | null {
  if (!isRecord(raw)) return null;
  const startedAt = instant(raw.startedAt);
  if (startedAt === null) return null;
  const endedAt = instant(raw.endedAt);
  const duration = num(raw.durationSeconds);
  const computed = Math.max(0, Math.round((Date.parse(endedAt ?? to) - Date.parse(startedAt)) / 1000));
  return { startedAt, endedAt, durationSeconds: duration !== null && duration >= 0 ? duration : computed };
}

/** The whole answer; null when its range's bounds cannot be read. */
export function normaliseTelemetryHistory(raw: unknown): TelemetryHistoryWire | null {
  if (!isRecord(raw)) return null;
  const from = instant(raw.from);
  const to = instant(raw.to);
  if (from === null || to === null) return null;
  const range = oneOf(TELEMETRY_RANGES, raw.range);
  const resolution = oneOf(RESOLUTIONS, raw.resolution) ?? (range ? TELEMETRY_RANGE_INFO[range].resolution : resolutionFor(new Date(from), new Date(to)));
  const bucket = bucketMs(resolution);
  const bucketSeconds = num(raw.bucketSeconds);
  return {
    userTerminalId: str(raw.userTerminalId) ?? '',
    range,
    from,
    to,
    resolution,
    bucketSeconds: resolution === 'raw' ? null : (bucketSeconds ?? (bucket === null ? null : bucket / 1000)),
    points: listOf(raw.points)
      .map(normaliseTelemetryPoint)
      .filter((point): point is TelemetryPointWire => point !== null),
    outages: listOf(raw.outages)
      .map((outage) => normaliseOutage(outage, to))
      .filter((outage): outage is OutageWire => outage !== null),
    keptSince: instant(raw.keptSince) ?? from,
    firstReadingAt: instant(raw.firstReadingAt),
  };
}

/** How a page reads one range of a terminal's history. */
export type TelemetryHistoryLoad = (request: TelemetryHistoryRequest, signal?: AbortSignal) => Promise<ApiResult<TelemetryHistoryWire>>;

export function createTelemetryApi(client: ApiClient) {
  const history =
    (base: string): TelemetryHistoryLoad =>
    async ({ terminalId, range }, signal) =>
      mapResult(
        await client.request<unknown>(`${base}/${encodeURIComponent(terminalId)}/telemetry`, { query: { range }, ...withSignal(signal) }),
        normaliseTelemetryHistory,
      );
  return {
    /** Any terminal, by its userTerminalId (terminals:read). */
    terminalHistory: history('/terminals'),
    /** One of the signed-in customer's own terminals. */
    myTerminalHistory: history('/my/terminals'),
    /** A customer's terminal as the admin's "View as customer" preview reads it (what the customer's own read answers). */
    previewTerminalHistory: (customerUuid: string): TelemetryHistoryLoad => history(`/customers/${encodeURIComponent(customerUuid)}/preview/terminals`),
  };
}

export type TelemetryApi = ReturnType<typeof createTelemetryApi>;

/** The Telemetry tab's actors over one of the reads above: the page only provides them. */
export function createTelemetryActors(load: TelemetryHistoryLoad) {
  return {
    loadHistory: fromPromise<TelemetryHistoryOutcome, TelemetryHistoryRequest>(({ input, signal }) => outcome(() => load(input, signal))),
  };
}
