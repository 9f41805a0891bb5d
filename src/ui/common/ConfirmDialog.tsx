// A question before a change that cannot be undone (revoke, withdraw, end): what it does, the
// server's words when it refused, and Cancel beside the red button that says it is working while
// the request runs. Renders props and calls callbacks; the steps are the calling page's machine's.
import type { ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { CustomerDialog } from '../customers/CustomerDialog';

export interface ConfirmDialogProps {
  header: string;
  visible: boolean;
  busy: boolean;
  /** The red button's words, idle and while the request runs. */
  confirmLabel: string;
  busyLabel: string;
  failure: string | null;
  onConfirm(): void;
  onClose(): void;
  /** The question and what it is about. */
  children: ReactNode;
}

export function ConfirmDialog(props: ConfirmDialogProps) {
  return (
    <CustomerDialog
      header={props.header}
      visible={props.visible}
      busy={props.busy}
      onClose={props.onClose}
      footer={
        <div className="dialog-footer">
          <Button type="button" label="Cancel" outlined disabled={props.busy} onClick={props.onClose} />
          <Button type="button" label={props.busy ? props.busyLabel : props.confirmLabel} severity="danger" disabled={props.busy} onClick={props.onConfirm} />
        </div>
      }
    >
      {props.children}
      {props.failure && <Message severity="error" text={props.failure} className="dialog-message" />}
    </CustomerDialog>
  );
}
