// Pieces of the Schedule page and its dialogs: a change's status tag, when it runs, and how a
// change is named in a question or a row's buttons.
import { Tag } from 'primereact/tag';
import { SCHEDULE_OPERATION_LABELS, SCHEDULE_STATUS_LABELS, type ScheduleStatus, type ScheduledChangeWire } from '../../../domain/automation';
import { formatDateTime } from '../../common/format';

const SEVERITY: Record<ScheduleStatus, 'info' | 'warning' | 'success' | 'danger' | 'secondary'> = {
  scheduled: 'info',
  running: 'warning',
  done: 'success',
  failed: 'danger',
  skipped: 'secondary',
  cancelled: 'secondary',
};

export const NEXT_CYCLE_TEXT = 'next cycle';

export function ScheduleStatusTag({ status }: { status: ScheduleStatus }) {
  return <Tag value={SCHEDULE_STATUS_LABELS[status]} severity={SEVERITY[status]} />;
}

/** "3/1/2026, 10:00 AM" in the viewer's time, and "(next cycle)" for one that waits for the line's cycle. */
export function whenText(change: Pick<ScheduledChangeWire, 'runAt' | 'atNextCycle'>): string {
  const at = formatDateTime(change.runAt);
  return change.atNextCycle ? `${at} (${NEXT_CYCLE_TEXT})` : at;
}

/** The line number or the customer's name (the line's number stays beside its nickname). */
export function targetText(change: Pick<ScheduledChangeWire, 'targetType' | 'target' | 'targetLabel'>): string {
  if (change.targetType === 'customer') return change.targetLabel ?? change.target;
  return change.targetLabel ? `${change.target} (${change.targetLabel})` : change.target;
}

/** "Change plan of SL-1 (Cabin)": how a row's buttons and the cancel question name the change. */
export const changeName = (change: ScheduledChangeWire) => `${SCHEDULE_OPERATION_LABELS[change.operation]} of ${targetText(change)}`;
