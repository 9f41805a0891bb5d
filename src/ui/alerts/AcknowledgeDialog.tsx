// "Acknowledge n alerts?" before a bulk acknowledgement of more than one. Renders props and calls
// callbacks; the step is the alert acknowledge machine's `confirming` (and `submitting` after it).
import { Button } from 'primereact/button';
import { CustomerDialog } from '../customers/CustomerDialog';

export const ACKNOWLEDGE_TITLE = 'Acknowledge alerts';
export const ACKNOWLEDGING_TEXT = 'Acknowledging...';

export interface AcknowledgeDialogProps {
  visible: boolean;
  count: number;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}

export function AcknowledgeDialog({ visible, count, busy, onConfirm, onCancel }: AcknowledgeDialogProps) {
  return (
    <CustomerDialog
      header={ACKNOWLEDGE_TITLE}
      visible={visible}
      busy={busy}
      onClose={onCancel}
      footer={
        <div className="dialog-footer">
          <Button type="button" label="Cancel" outlined disabled={busy} onClick={onCancel} />
          <Button type="button" label={busy ? ACKNOWLEDGING_TEXT : 'Acknowledge'} disabled={busy} onClick={onConfirm} />
        </div>
      }
    >
      <p>Acknowledge {count} alerts? They stay listed until their condition clears.</p>
    </CustomerDialog>
  );
}
