// The question before a fix that ends service (cancelling a line), and the server's words when it
// refused. Renders props and calls callbacks; the steps are the leak fix machine's states.
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { CustomerDialog } from '../../customers/CustomerDialog';
import { RECONCILIATION_TEXTS as T } from './parts';

export const KEEP_LINE = 'Keep the line';

export interface ConfirmFixDialogProps {
  visible: boolean;
  title: string;
  question: string;
  confirmLabel: string;
  failure: string | null;
  busy: boolean;
  onConfirm(): void;
  onClose(): void;
}

export function ConfirmFixDialog(props: ConfirmFixDialogProps) {
  return (
    <CustomerDialog
      header={props.title}
      visible={props.visible}
      busy={props.busy}
      onClose={props.onClose}
      footer={
        <div className="dialog-footer">
          <Button type="button" label={KEEP_LINE} outlined disabled={props.busy} onClick={props.onClose} />
          <Button type="button" label={props.busy ? T.working : props.confirmLabel} severity="danger" disabled={props.busy} onClick={props.onConfirm} />
        </div>
      }
    >
      <p>{props.question}</p>
      {props.failure && <Message severity="error" text={props.failure} className="dialog-message" />}
    </CustomerDialog>
  );
}
