// The Telemetry tab's view, shared by Terminal Details (admin) and the customer's own terminal page:
// props in and callbacks out. It shows one range: the range buttons, five line charts (a missing
// value is a gap in the line, never a zero), the outage timeline with its list in words, or why
// there is nothing to draw.
import { useId, useMemo } from 'react';
import { Button } from 'primereact/button';
import { Chart } from 'primereact/chart';
import {
  TELEMETRY_RANGES,
  TELEMETRY_RANGE_INFO,
  type OutageWire,
  type TelemetryHistoryView,
  type TelemetryHistoryWire,
  type TelemetryPointWire,
  type TelemetryRange,
  type TelemetryResolution,
} from '../../domain/telemetry-history';
import type { Theme } from '../../domain/theme';
import { ErrorCard } from '../common/ErrorCard';
import { formatDateTime } from '../common/format';
import { CHART_COLORS } from '../theme/chart';
import { useTheme } from '../theme/store';
import { duration } from '../terminals/format';

export const TELEMETRY_TEXTS = {
  title: 'Telemetry',
  ranges: 'Telemetry range',
  loading: 'Loading telemetry...',
  loadFailed: 'Could not load the telemetry',
  noReadings: 'No readings yet: history starts with the next sync',
  noReadingsInRange: 'No readings in this range',
  keptSince: (when: string) => `History is kept since ${when}`,
  throughput: 'Throughput (Mbps)',
  downlink: 'Downlink',
  uplink: 'Uplink',
  latency: 'Latency (ms)',
  quality: 'Ping drop and obstruction (%)',
  pingDrop: 'Ping drop',
  obstruction: 'Obstruction',
  signal: 'Signal quality (%)',
  online: 'Online (%)',
  outages: 'Outages',
  noOutages: 'No outages in this range',
  offlineFrom: (start: string, end: string, length: string) => `Offline from ${start} to ${end} (${length})`,
  offlineSince: (start: string) => `Offline since ${start} (ongoing)`,
} as const;

// ---- Formats --------------------------------------------------------------------------------

const hourCycle = { hourCycle: 'h23' } as const;
// One formatter each, in the viewer's local time: a 13-month chart formats some 400 labels.
const LABEL_FORMATS: Record<TelemetryResolution, Intl.DateTimeFormat> = {
  raw: new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', ...hourCycle }),
  hour: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', ...hourCycle }),
  day: new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' }),
};

/** A point's label on the time axis: the time of day for readings, day and hour for hourly buckets, the date for daily ones. */
export const timeLabel = (iso: string, resolution: TelemetryResolution): string => LABEL_FORMATS[resolution].format(Date.parse(iso));

/** "under a minute", "45m", "2h 5m", "3d 4h". */
export const outageLength = (seconds: number): string => (seconds < 60 ? 'under a minute' : duration(seconds));

export function outageText(outage: OutageWire): string {
  const start = formatDateTime(outage.startedAt);
  return outage.endedAt === null
    ? TELEMETRY_TEXTS.offlineSince(start)
    : TELEMETRY_TEXTS.offlineFrom(start, formatDateTime(outage.endedAt), outageLength(outage.durationSeconds));
}

const round = (value: number) => (Math.abs(value) >= 100 ? Math.round(value).toString() : (Math.round(value * 10) / 10).toString());

// ---- Charts ---------------------------------------------------------------------------------

interface Series {
  label: string;
  color: string;
  values: (number | null)[];
}

const LINE_COLORS = {
  downlink: '#3b82f6',
  uplink: '#10b981',
  latency: '#8b5cf6',
  pingDrop: '#ef4444',
  obstruction: '#f59e0b',
  signal: '#06b6d4',
  online: '#22c55e',
} as const;

/** A value scaled to a percentage; null stays null (a gap). */
const percentOf = (value: number | null) => (value === null ? null : value * 100);
const column = (points: readonly TelemetryPointWire[], read: (point: TelemetryPointWire) => number | null) => points.map(read);

/** The chart's figures in words, for those who do not see the canvas: each series' average and extremes. */
function summaryOf(title: string, series: readonly Series[], unit: string): string {
  const parts = series.map((s) => {
    const known = s.values.filter((v): v is number => v !== null);
    if (known.length === 0) return `${s.label}: no values`;
    const average = known.reduce((sum, v) => sum + v, 0) / known.length;
    const gaps = s.values.length - known.length;
    const extremes = `lowest ${round(Math.min(...known))}, highest ${round(Math.max(...known))}`;
    return `${s.label}: average ${round(average)} ${unit}, ${extremes}${gaps ? `, ${gaps} without a value` : ''}`;
  });
  return `${title}. ${parts.join('; ')}`;
}

function lineOptions(theme: Theme, legend: boolean, max: number | undefined) {
  const colors = CHART_COLORS[theme];
  return {
    maintainAspectRatio: false,
    animation: false,
    // Unknown values are gaps: a line never bridges a missing reading.
    spanGaps: false,
    interaction: { mode: 'index', intersect: false },
    plugins: { legend: { display: legend, labels: { color: colors.text } } },
    scales: {
      x: { ticks: { color: colors.text, autoSkip: true, maxTicksLimit: 8, maxRotation: 0 }, grid: { color: colors.grid } },
      y: { beginAtZero: true, ...(max === undefined ? {} : { max }), ticks: { color: colors.text }, grid: { color: colors.grid } },
    },
  };
}

function TelemetryChart(props: { title: string; unit: string; labels: string[]; series: Series[]; theme: Theme; max?: number; stepped?: boolean; small?: boolean }) {
  const { title, unit, labels, series, theme, max, stepped = false, small = false } = props;
  // Chart.js draws again whenever its data object changes: only a new answer or theme makes one.
  const data = useMemo(
    () => ({
      labels,
      datasets: series.map((s) => ({
        label: s.label,
        data: s.values,
        borderColor: s.color,
        backgroundColor: stepped ? `${s.color}33` : s.color,
        fill: stepped ? 'origin' : false,
        stepped,
        spanGaps: false,
        borderWidth: 1.5,
        pointRadius: s.values.length > 60 ? 0 : 2,
        tension: 0,
      })),
    }),
    [labels, series, stepped],
  );
  const options = useMemo(() => lineOptions(theme, series.length > 1, max), [theme, series.length, max]);
  return (
    <figure className="telemetry-chart" style={{ margin: 0 }}>
      <figcaption style={{ fontWeight: 600, marginBottom: '0.25rem' }}>{title}</figcaption>
      {/* The canvas is named through pt: PrimeReact 10.9 also spreads an ariaLabel prop onto its wrapper. */}
      <Chart type="line" data={data} options={options} pt={{ canvas: { 'aria-label': summaryOf(title, series, unit) } }} style={{ height: small ? '6rem' : '12rem' }} />
    </figure>
  );
}

function Charts({ history }: { history: TelemetryHistoryWire }) {
  const theme = useTheme();
  const { points, resolution } = history;
  const figures = useMemo(
    () => ({
      labels: points.map((p) => timeLabel(p.at, resolution)),
      throughput: [
        { label: TELEMETRY_TEXTS.downlink, color: LINE_COLORS.downlink, values: column(points, (p) => p.downlinkMbps) },
        { label: TELEMETRY_TEXTS.uplink, color: LINE_COLORS.uplink, values: column(points, (p) => p.uplinkMbps) },
      ],
      latency: [{ label: 'Latency', color: LINE_COLORS.latency, values: column(points, (p) => p.latencyMs) }],
      quality: [
        { label: TELEMETRY_TEXTS.pingDrop, color: LINE_COLORS.pingDrop, values: column(points, (p) => percentOf(p.pingDropRate)) },
        { label: TELEMETRY_TEXTS.obstruction, color: LINE_COLORS.obstruction, values: column(points, (p) => p.obstructionPercent) },
      ],
      signal: [{ label: 'Signal quality', color: LINE_COLORS.signal, values: column(points, (p) => percentOf(p.signalQuality)) }],
      online: [{ label: 'Online', color: LINE_COLORS.online, values: column(points, (p) => p.onlineShare * 100) }],
    }),
    [points, resolution],
  );
  const chart = { labels: figures.labels, theme };
  return (
    <div className="telemetry-charts" style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(18rem, 1fr))', gap: '1rem' }}>
      <TelemetryChart title={TELEMETRY_TEXTS.throughput} unit="Mbps" series={figures.throughput} {...chart} />
      <TelemetryChart title={TELEMETRY_TEXTS.latency} unit="ms" series={figures.latency} {...chart} />
      <TelemetryChart title={TELEMETRY_TEXTS.quality} unit="%" series={figures.quality} {...chart} />
      <TelemetryChart title={TELEMETRY_TEXTS.signal} unit="%" series={figures.signal} max={100} {...chart} />
      <TelemetryChart title={TELEMETRY_TEXTS.online} unit="%" series={figures.online} max={100} stepped small {...chart} />
    </div>
  );
}

// ---- Outages --------------------------------------------------------------------------------

/** Where a span sits on the range's axis, in percent, clipped to the range. */
function placeOf(outage: OutageWire, from: number, to: number) {
  const span = Math.max(1, to - from);
  const start = Math.min(to, Math.max(from, Date.parse(outage.startedAt)));
  const end = Math.min(to, Math.max(start, outage.endedAt === null ? to : Date.parse(outage.endedAt)));
  return { left: ((start - from) / span) * 100, width: ((end - start) / span) * 100 };
}

function Outages({ history, Heading }: { history: TelemetryHistoryWire; Heading: 'h3' | 'h4' }) {
  const id = useId();
  const { outages } = history;
  const from = Date.parse(history.from);
  const to = Date.parse(history.to);
  const count = `${outages.length} ${outages.length === 1 ? 'outage' : 'outages'}`;
  return (
    <section className="telemetry-outages" aria-labelledby={id}>
      <Heading id={id}>{TELEMETRY_TEXTS.outages}</Heading>
      {outages.length === 0 ? (
        <p className="text-muted">{TELEMETRY_TEXTS.noOutages}</p>
      ) : (
        <>
          <div
            className="telemetry-timeline"
            role="img"
            aria-label={`${count} from ${formatDateTime(history.from)} to ${formatDateTime(history.to)}`}
            style={{ position: 'relative', height: '1.25rem', borderRadius: '4px', background: 'var(--green-100, #dcfce7)', overflow: 'hidden' }}
          >
            {outages.map((outage, index) => {
              const { left, width } = placeOf(outage, from, to);
              return (
                <span
                  key={`${index}:${outage.startedAt}`}
                  className="telemetry-outage-bar"
                  title={outageText(outage)}
                  // A short outage still shows: a bar is never thinner than 2 px.
                  style={{ position: 'absolute', top: 0, bottom: 0, left: `${left}%`, width: `${width}%`, minWidth: '2px', background: 'var(--red-500, #ef4444)' }}
                />
              );
            })}
          </div>
          <div className="text-muted" style={{ display: 'flex', justifyContent: 'space-between', fontSize: '0.85em' }} aria-hidden="true">
            <span>{formatDateTime(history.from)}</span>
            <span>{formatDateTime(history.to)}</span>
          </div>
          <ul className="telemetry-outage-list">
            {outages.map((outage, index) => (
              <li key={`${index}:${outage.startedAt}`}>{outageText(outage)}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

// ---- The view -------------------------------------------------------------------------------

export interface TelemetryViewProps {
  view: TelemetryHistoryView;
  onRange(range: TelemetryRange): void;
  onRetry(): void;
  /** The heading level where the tab sits: 2 on a page, 3 in a dialog's tab. */
  headingLevel?: 2 | 3;
}

function EmptyHistory({ history }: { history: TelemetryHistoryWire }) {
  // With a first reading on record the terminal has history, only none in this range.
  return history.firstReadingAt === null ? (
    <p role="status">{TELEMETRY_TEXTS.noReadings}</p>
  ) : (
    <div role="status">
      <p>{TELEMETRY_TEXTS.noReadingsInRange}</p>
      <p className="text-muted">{TELEMETRY_TEXTS.keptSince(formatDateTime(history.firstReadingAt))}</p>
    </div>
  );
}

/** What sits under the range buttons: the failure, the wait, the empty history, or the charts and outages. */
function TelemetryBody({ view, onRetry, headingLevel }: Required<Pick<TelemetryViewProps, 'view' | 'onRetry' | 'headingLevel'>>) {
  const history = view.history;
  const outagesHeading = headingLevel === 2 ? 'h3' : 'h4';
  if (view.error !== null) {
    return <ErrorCard title={TELEMETRY_TEXTS.loadFailed} message={view.error} {...(view.canRetry ? { onRetry } : {})} headingLevel={headingLevel} />;
  }
  if (view.loading) {
    return (
      <p role="status">
        <i className="pi pi-spin pi-spinner" aria-hidden="true" /> {TELEMETRY_TEXTS.loading}
      </p>
    );
  }
  if (history === null) return null;
  if (view.empty) {
    return (
      <>
        <EmptyHistory history={history} />
        {history.outages.length > 0 && <Outages history={history} Heading={outagesHeading} />}
      </>
    );
  }
  // The range reaches back past the first reading: say where its lines start.
  const startsLate = history.firstReadingAt !== null && Date.parse(history.firstReadingAt) > Date.parse(history.from);
  return (
    <>
      <Charts history={history} />
      {startsLate && <p className="text-muted">{TELEMETRY_TEXTS.keptSince(formatDateTime(history.firstReadingAt))}</p>}
      <Outages history={history} Heading={outagesHeading} />
    </>
  );
}

export function TelemetryView({ view, onRange, onRetry, headingLevel = 3 }: TelemetryViewProps) {
  const id = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className="telemetry-panel" aria-labelledby={id} style={{ display: 'flex', flexDirection: 'column', gap: '1rem' }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: '0.75rem' }}>
        <Heading id={id} style={{ margin: 0 }}>
          {TELEMETRY_TEXTS.title}
        </Heading>
        <div role="group" aria-label={TELEMETRY_TEXTS.ranges} className="telemetry-ranges" style={{ display: 'flex', flexWrap: 'wrap', gap: '0.25rem' }}>
          {TELEMETRY_RANGES.map((range) => (
            <Button
              key={range}
              type="button"
              size="small"
              label={TELEMETRY_RANGE_INFO[range].label}
              outlined={range !== view.range}
              aria-pressed={range === view.range}
              onClick={() => onRange(range)}
            />
          ))}
        </div>
      </div>
      <TelemetryBody view={view} onRetry={onRetry} headingLevel={headingLevel} />
    </section>
  );
}
