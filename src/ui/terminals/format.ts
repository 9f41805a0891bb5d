// How the terminal pages write grades, counts, dates and durations (spec 4 "Signal-quality grade",
// 9 number formats: usage one decimal, percentages whole, TB from 1024 GB through formatTerminalData).
import type { SyncJob, UsageLevel } from '../../domain/terminals';
import { DASH, count, formatDateTime } from '../common/format';
import { formatRelativeTime } from '../common/relativeTime';

export { DASH, count } from '../common/format';

/** "42%": percentages are whole. */
export const percent = (value: number) => `${Math.round(value)}%`;

/** Text, or a dash when nothing is known. */
export const text = (value: string | null | undefined) => (value == null || value.trim() === '' ? DASH : value);

// ---- Signal quality ------------------------------------------------------------------------

/** Spec 9: 90, 80, 70. */
export const SIGNAL_GRADE_THRESHOLDS = { excellent: 90, good: 80, warning: 70 } as const;
export type SignalGrade = 'excellent' | 'good' | 'warning' | 'critical';

/** 90 or more excellent (green); 80 to below 90 good (blue); 70 to below 80 warning (yellow); below 70 critical (red). */
export function signalGrade(quality: number): SignalGrade {
  if (quality >= SIGNAL_GRADE_THRESHOLDS.excellent) return 'excellent';
  if (quality >= SIGNAL_GRADE_THRESHOLDS.good) return 'good';
  if (quality >= SIGNAL_GRADE_THRESHOLDS.warning) return 'warning';
  return 'critical';
}

export const SIGNAL_GRADE_LABEL: Record<SignalGrade, string> = {
  excellent: 'Excellent',
  good: 'Good',
  warning: 'Warning',
  critical: 'Critical',
};

/** CSS class colouring a signal figure by its grade (green, blue, yellow, red). */
export const signalClass = (quality: number) => `signal-${signalGrade(quality)}`;

/** CSS class colouring a usage bar by its level (green, yellow, reddish, red). */
export const usageClass = (level: UsageLevel) => `usage-${level}`;

// ---- Sync status ---------------------------------------------------------------------------

export { SYNC_STATUS_LABEL } from '../../domain/terminals';

/** The last sync run in the list caption: its counts when it finished, else that it is under way. */
export function lastSyncSummary(job: SyncJob, now: number): string {
  if (job.status === 'queued' || job.status === 'running') {
    return job.phase ? `Sync in progress: ${job.phase}` : 'Sync in progress';
  }
  const c = job.counts;
  const parts = [`${count(c.added)} added`, `${count(c.updated)} updated`, `${count(c.unchanged)} unchanged`, `${count(c.removed)} removed`];
  if (c.failed > 0) parts.push(`${count(c.failed)} failed`);
  const lead = job.status === 'failed' ? `Last sync failed${job.message ? ` (${job.message})` : ''}` : 'Last sync';
  const when = job.finishedAt ? `, finished ${relative(job.finishedAt, now)}` : '';
  return `${lead}: ${parts.join(', ')}${when}`;
}

// ---- Dates and durations -------------------------------------------------------------------

/** "5 minutes ago", or the local date and time when older than a week; a dash when unreadable. */
export function relative(iso: string | null | undefined, now: number): string {
  if (!iso) return DASH;
  return formatRelativeTime(iso, now, 'en-US') || DASH;
}

/** A timestamp in local time; a dash when missing. */
export const dateTime = formatDateTime;

// One formatter for every call: `toLocaleDateString` builds a new one each time, and a table calls
// this twice a row at every render.
const CALENDAR_DAY = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A calendar day ("2026-03-01") as "Mar 1, 2026", read in UTC so it never shifts a day. */
export function calendarDay(value: string | null | undefined): string {
  if (!value) return DASH;
  const at = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(at)) return value;
  return CALENDAR_DAY.format(at);
}

/** "3d 4h", "2h 5m", "45m": how long a terminal has been up. */
export function duration(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds / 60));
  const days = Math.floor(total / 1440);
  const hours = Math.floor((total % 1440) / 60);
  const minutes = total % 60;
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  return `${minutes}m`;
}
