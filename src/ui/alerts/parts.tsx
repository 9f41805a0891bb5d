// Pieces every alerts screen shows (the Alerts page, the bell's panel, the customer's My Alerts):
// the severity and status tags, where the alert is, and when it opened.
import { Tag } from 'primereact/tag';
import { ALERT_SEVERITY_LABELS, ALERT_STATUS_LABELS, type AlertSeverity, type AlertStatus } from '../../domain/alerts';
import { formatDateTime } from '../common/format';
import { formatRelativeTime } from '../common/relativeTime';

const SEVERITY_TAG: Record<AlertSeverity, 'warning' | 'danger'> = { warning: 'warning', critical: 'danger' };
const STATUS_TAG: Record<AlertStatus, 'danger' | 'info' | 'success'> = { open: 'danger', acknowledged: 'info', resolved: 'success' };

export function SeverityTag({ severity }: { severity: AlertSeverity }) {
  return <Tag value={ALERT_SEVERITY_LABELS[severity]} severity={SEVERITY_TAG[severity]} />;
}

export function AlertStatusTag({ status }: { status: AlertStatus }) {
  return <Tag value={ALERT_STATUS_LABELS[status]} severity={STATUS_TAG[status]} />;
}

export { targetText } from '../../domain/alerts';

/** The relative time, with the exact one on hover. */
export function OpenedAt({ iso, now }: { iso: string; now: number }) {
  return <time dateTime={iso} title={formatDateTime(iso)}>{formatRelativeTime(iso, now, 'en-US')}</time>;
}
