// The terminals page's "Provider calls" panel: when the next inventory and usage syncs are due (as
// the server's schedule, sized to the provider budget, computes them), how long the last run of
// each took and how many calls it used, the budget itself, and the calls of the last hour by
// minute, syncs and people stacked. The bars are plain CSS like the daily usage chart
// (DailyUsageChart): readable without a canvas, each bar carrying its figures for the pointer and
// the chart its summary for assistive technology. Props in, nothing out.
import { useId } from 'react';
import { Skeleton } from 'primereact/skeleton';
import {
  formatRunDuration,
  SYNC_BUDGET_MESSAGES,
  type ProviderCallsMinute,
  type SyncBudget,
  type SyncScheduleEntry,
} from '../../domain/provider-budget';
import { count, DASH, relative } from './format';
import './sync-budget.css';

export interface SyncBudgetPanelProps {
  /** Null until the first answer. */
  budget: SyncBudget | null;
  loading: boolean;
  /** Why the last load failed (the figures shown, if any, are the previous ones). */
  error: string | null;
  now: number;
}

const MINUTE_MS = 60_000;

/** "10:45" in the viewer's local time. */
const clockTime = (iso: string) => new Date(iso).toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit' });

/** "every 20 min (sized to the last run)" when the budget stretches the configured interval. */
function pace(entry: SyncScheduleEntry): string {
  if (entry.effectiveIntervalMs === null) return '';
  const every = `every ${formatRunDuration(entry.effectiveIntervalMs)}`;
  return entry.configuredIntervalMs !== null && entry.effectiveIntervalMs > entry.configuredIntervalMs
    ? `${every}, longer than the ${formatRunDuration(entry.configuredIntervalMs)} set, for the last run's calls`
    : every;
}

/** When a kind runs next: "in 12 minutes (10:45), every 15 min", "Running now", … */
export function nextRunText(entry: SyncScheduleEntry, now: number): string {
  switch (entry.state) {
    case 'off':
      return entry.kind === 'usage' ? 'After each inventory sync' : 'Automatic syncs are off';
    case 'running':
      return 'Running now';
    case 'queued':
      return entry.kind === 'usage' ? 'Queued (after the inventory sync)' : 'Queued';
    case 'due':
      return `Due now, ${pace(entry)}`;
    case 'scheduled':
      return entry.nextAt ? `${relative(entry.nextAt, now)} (${clockTime(entry.nextAt)}), ${pace(entry)}` : DASH;
  }
}

/** "3 min 12 s, 312 calls", or that none ran yet. */
export function lastRunText(entry: SyncScheduleEntry): string {
  const run = entry.lastRun;
  if (!run) return 'None yet';
  const calls = `${count(run.providerCalls)} ${run.providerCalls === 1 ? 'call' : 'calls'}`;
  const took = run.durationMs === null ? calls : `${formatRunDuration(run.durationMs)}, ${calls}`;
  return run.status === 'failed' ? `${took} (failed)` : took;
}

function budgetText(budget: SyncBudget['budget']): string {
  const share = `${Math.round(budget.syncShare * 100)} %`;
  const where = budget.shared ? 'shared by every server' : 'this server only';
  return `${count(budget.requestsPerMinute)} calls a minute (${where}); syncs up to ${share} (${count(budget.syncRequestsPerMinute)})`;
}

function CallsChart({ minutes, limit }: { minutes: readonly ProviderCallsMinute[]; limit: number }) {
  const titleId = useId();
  const peak = Math.max(...minutes.map((m) => m.sync + m.person), 0);
  const sync = minutes.reduce((sum, m) => sum + m.sync, 0);
  const person = minutes.reduce((sum, m) => sum + m.person, 0);
  const height = (calls: number) => `${peak > 0 ? (calls / peak) * 100 : 0}%`;
  const label =
    `${SYNC_BUDGET_MESSAGES.chartTitle}: ${count(sync)} by syncs, ${count(person)} by people` +
    (peak > 0 ? `; the busiest minute ${count(peak)} of ${count(limit)}` : '');
  return (
    <figure className="calls-chart" aria-labelledby={titleId}>
      <figcaption id={titleId} className="calls-chart-title">
        {SYNC_BUDGET_MESSAGES.chartTitle}
      </figcaption>
      <div className="calls-chart-bars" role="img" aria-label={label}>
        {minutes.map((m) => (
          <div key={m.minute} className="calls-chart-minute" title={`${clockTime(m.minute)}: ${count(m.sync)} sync, ${count(m.person)} people`}>
            <span className="calls-chart-sync" style={{ height: height(m.sync) }} />
            <span className="calls-chart-person" style={{ height: height(m.person) }} />
          </div>
        ))}
      </div>
      <div className="calls-chart-axis" aria-hidden="true">
        <span>{minutes.length > 0 ? clockTime(minutes[0]!.minute) : ''}</span>
        <span>{minutes.length > 0 ? clockTime(new Date(Date.parse(minutes.at(-1)!.minute) + MINUTE_MS).toISOString()) : ''}</span>
      </div>
      <div className="calls-chart-legend">
        <span className="legend-sync">{SYNC_BUDGET_MESSAGES.syncLegend}</span>
        <span className="legend-person">{SYNC_BUDGET_MESSAGES.personLegend}</span>
      </div>
    </figure>
  );
}

function Fact({ label, children }: { label: string; children: string }) {
  return (
    <div className="sync-budget-fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export function SyncBudgetPanel({ budget, loading, error, now }: SyncBudgetPanelProps) {
  const titleId = useId();
  return (
    <section className="list-card sync-budget" aria-labelledby={titleId} aria-busy={loading}>
      <h2 id={titleId} className="section-title">
        {SYNC_BUDGET_MESSAGES.title}
      </h2>
      {budget ? (
        <div className="sync-budget-body">
          <dl className="sync-budget-facts">
            <Fact label="Next sync">{nextRunText(budget.inventory, now)}</Fact>
            <Fact label="Next usage sync">{nextRunText(budget.usage, now)}</Fact>
            <Fact label="Last sync">{lastRunText(budget.inventory)}</Fact>
            <Fact label="Last usage sync">{lastRunText(budget.usage)}</Fact>
            <Fact label="Budget">{budgetText(budget.budget)}</Fact>
            {budget.budget.pausedUntil && <Fact label="Paused">{`After a 429 from the provider, until ${clockTime(budget.budget.pausedUntil)}`}</Fact>}
          </dl>
          <CallsChart minutes={budget.perMinute} limit={budget.budget.requestsPerMinute} />
        </div>
      ) : loading ? (
        <Skeleton width="100%" height="8rem" />
      ) : null}
      {error && (
        <p className="sync-budget-error" role="status">
          {`${SYNC_BUDGET_MESSAGES.loadFailed}: ${error}`}
        </p>
      )}
    </section>
  );
}
