// Small pieces the customer area's views share: the line status tag, the usage bar against the
// plan, and the readable forms of uptime, signal and money.
import { ProgressBar } from 'primereact/progressbar';
import { Tag } from 'primereact/tag';
import type { MyLineStatus, MyUsageFigures } from '../../domain/my-area';
import { barPercent, formatTerminalData } from '../../domain/terminals';
import { DASH } from '../common/format';

const STATUS_SEVERITY: Record<MyLineStatus, 'success' | 'warning' | 'danger'> = { Active: 'success', Ending: 'warning', Inactive: 'danger' };

export function LineStatusTag({ status }: { status: MyLineStatus }) {
  return <Tag value={status} severity={STATUS_SEVERITY[status]} />;
}

export function OnlineTag({ online }: { online: boolean }) {
  return <Tag value={online ? 'Online' : 'Offline'} severity={online ? 'success' : 'danger'} />;
}

/** "3 d 4 h", "5 h 12 min", "40 min". */
export function formatUptime(seconds: number | null): string {
  if (seconds === null) return DASH;
  const minutes = Math.floor(seconds / 60);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes % 60} min`;
  return `${minutes} min`;
}

export const formatSignal = (percent: number | null) => (percent === null ? DASH : `${percent.toFixed(1)}%`);

export const formatMoney = (amount: number, currency: string) => {
  try {
    return amount.toLocaleString('en-US', { style: 'currency', currency });
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
};

/** Used against the plan: the bar (never past 100 %) and the figures in words. */
export function UsageBar({ usage, label }: { usage: MyUsageFigures; label: string }) {
  const over = usage.planGB > 0 && usage.usedGB > usage.planGB;
  return (
    <div className="my-usage">
      <ProgressBar value={barPercent(usage.percentage)} showValue={false} className={`usage-bar ${over ? 'usage-danger' : ''}`.trim()} aria-label={label} />
      <span className="text-muted">
        {usage.planGB > 0
          ? `${formatTerminalData(usage.usedGB)} of ${formatTerminalData(usage.planGB)} (${usage.percentage}%)${over ? `, ${formatTerminalData(usage.overageGB)} over` : ''}`
          : `${formatTerminalData(usage.usedGB)} used, no plan data known`}
      </span>
    </div>
  );
}
