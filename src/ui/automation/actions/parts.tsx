// Pieces the automatic actions show wherever they appear (the Actions page, an alert, the
// question before a decision): the status tag, the action in words and the projected saving.
import { Tag } from 'primereact/tag';
import { AUTOMATIC_ACTION_STATUS_LABELS, RULE_ACTION_LABELS, type AutomaticActionStatus, type AutomaticActionWire } from '../../../domain/automation';
import { DASH } from '../../common/format';

const SEVERITY: Readonly<Record<AutomaticActionStatus, 'warning' | 'info' | 'success' | 'danger' | 'secondary'>> = {
  proposed: 'warning',
  queued: 'info',
  running: 'info',
  executed: 'success',
  failed: 'danger',
  dismissed: 'secondary',
  undone: 'secondary',
  skipped: 'secondary',
};

export function ActionStatusTag({ status }: { status: AutomaticActionStatus }) {
  return <Tag value={AUTOMATIC_ACTION_STATUS_LABELS[status]} severity={SEVERITY[status]} />;
}

/** "Move to another plan: Local Priority 1 TB"; the plan's id where its name is not known. */
export const actionText = (row: Pick<AutomaticActionWire, 'action' | 'planName' | 'productReferenceId'>) => {
  const plan = row.planName ?? row.productReferenceId;
  return row.action === 'change_plan' && plan ? `${RULE_ACTION_LABELS[row.action]}: ${plan}` : RULE_ACTION_LABELS[row.action];
};

/** The saving in the line's currency (overage avoided, in whole units as the forecast gives it). */
export function savingText(amount: number | null, currency: string | null): string {
  if (amount === null) return DASH;
  if (!currency) return amount.toFixed(2);
  try {
    return amount.toLocaleString('en-US', { style: 'currency', currency });
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}
