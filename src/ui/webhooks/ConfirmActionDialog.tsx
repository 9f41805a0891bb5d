// Rotate secret / Delete: the question, and the server's words when it refused. Renders props and
// calls callbacks; the steps are the webhook actions machine's states.
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { CustomerDialog } from '../customers/CustomerDialog';
import { WEBHOOK_TEXTS as T } from './parts';

export const ROTATE_TITLE = 'Rotate secret';
export const DELETE_TITLE = 'Delete webhook endpoint';

export interface ConfirmActionDialogProps {
  visible: boolean;
  action: 'rotate' | 'delete';
  question: string;
  failure: string | null;
  busy: boolean;
  onConfirm(): void;
  onClose(): void;
}

export function ConfirmActionDialog(props: ConfirmActionDialogProps) {
  const rotating = props.action === 'rotate';
  return (
    <CustomerDialog
      header={rotating ? ROTATE_TITLE : DELETE_TITLE}
      visible={props.visible}
      busy={props.busy}
      onClose={props.onClose}
      footer={
        <div className="dialog-footer">
          <Button type="button" label="Cancel" outlined disabled={props.busy} onClick={props.onClose} />
          <Button
            type="button"
            label={props.busy ? T.working : rotating ? 'Rotate' : 'Delete'}
            severity={rotating ? undefined : 'danger'}
            disabled={props.busy}
            onClick={props.onConfirm}
          />
        </div>
      }
    >
      <p>{props.question}</p>
      {props.failure && <Message severity="error" text={props.failure} className="dialog-message" />}
    </CustomerDialog>
  );
}
