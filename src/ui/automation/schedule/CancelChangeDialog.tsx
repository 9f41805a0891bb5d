// "Cancel scheduled change": the question before a change that has not run yet is dropped.
// Renders props and calls callbacks; the steps are the schedule cancel machine's states.
import type { ScheduledChangeWire } from '../../../domain/automation';
import { ConfirmDialog } from '../../common/ConfirmDialog';
import { changeName, whenText } from './parts';

export const CANCEL_CHANGE_TEXTS = {
  title: 'Cancel scheduled change',
  confirm: 'Cancel change',
  busy: 'Cancelling...',
} as const;

export interface CancelChangeDialogProps {
  visible: boolean;
  change: ScheduledChangeWire | null;
  busy: boolean;
  failure: string | null;
  onConfirm(): void;
  onClose(): void;
}

export function CancelChangeDialog(props: CancelChangeDialogProps) {
  const { change } = props;
  return (
    <ConfirmDialog
      header={CANCEL_CHANGE_TEXTS.title}
      visible={props.visible}
      busy={props.busy}
      confirmLabel={CANCEL_CHANGE_TEXTS.confirm}
      busyLabel={CANCEL_CHANGE_TEXTS.busy}
      failure={props.failure}
      onConfirm={props.onConfirm}
      onClose={props.onClose}
    >
      {change && (
        <p>
          Cancel <strong>{changeName(change)}</strong>, set for {whenText(change)}? It will not run.
        </p>
      )}
    </ConfirmDialog>
  );
}
