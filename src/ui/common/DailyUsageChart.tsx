// A month of daily usage as stacked bars, priority over standard (the Terminal Details dialog and
// the customer terminal usage page). Plain CSS bars rather than a canvas chart: readable without
// JavaScript layout, and each bar carries its own figures for the pointer and for assistive
// technology.
import { calendarDay } from '../terminals/format';
import './daily-usage-chart.css';

export interface DailyUsagePoint {
  date: string;
  priorityGB: number;
  standardGB: number;
}

export interface DailyUsageChartProps {
  records: readonly DailyUsagePoint[];
  /** How a GB figure reads (the terminal pages and the customer usage table differ on TB). */
  format(gb: number): string;
}

export function DailyUsageChart({ records, format }: DailyUsageChartProps) {
  const peak = Math.max(...records.map((r) => r.priorityGB + r.standardGB), 0);
  const totalPriority = records.reduce((sum, r) => sum + r.priorityGB, 0);
  const totalStandard = records.reduce((sum, r) => sum + r.standardGB, 0);
  const height = (gb: number) => `${peak > 0 ? (gb / peak) * 100 : 0}%`;
  return (
    <figure className="usage-chart">
      <div
        className="usage-chart-bars"
        role="img"
        aria-label={`Daily usage over ${records.length} ${records.length === 1 ? 'day' : 'days'}: ${format(totalPriority)} priority, ${format(totalStandard)} standard`}
      >
        {records.map((r) => (
          <div
            key={r.date}
            className="usage-chart-day"
            title={`${calendarDay(r.date)}: ${format(r.priorityGB)} priority, ${format(r.standardGB)} standard`}
          >
            <span className="usage-chart-standard" style={{ height: height(r.standardGB) }} />
            <span className="usage-chart-priority" style={{ height: height(r.priorityGB) }} />
          </div>
        ))}
      </div>
      <figcaption className="usage-chart-legend">
        <span className="legend-priority">Priority</span>
        <span className="legend-standard">Standard</span>
      </figcaption>
    </figure>
  );
}
