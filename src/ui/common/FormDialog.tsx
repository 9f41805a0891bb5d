// A dialog that is one form: the failure of its last submit above the fields, and Cancel and the
// submit button in the footer, the latter saying it is working while the request runs. Renders
// props and calls callbacks; the steps are the calling page's machine's.
import { useId, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { CustomerDialog } from '../customers/CustomerDialog';

export interface FormDialogProps {
  header: string;
  visible: boolean;
  busy: boolean;
  wide?: boolean;
  /** The submit button's words, idle and while the request runs. */
  submitLabel: string;
  busyLabel: string;
  /** The submit button is off for another reason than the running request. */
  submitDisabled?: boolean;
  failure: string | null;
  onSubmit(): void;
  onCancel(): void;
  children: ReactNode;
}

export function FormDialog(props: FormDialogProps) {
  const id = useId();
  const { busy } = props;
  return (
    <CustomerDialog
      header={props.header}
      visible={props.visible}
      busy={busy}
      wide={props.wide}
      onClose={props.onCancel}
      footer={
        <div className="dialog-footer">
          <Button type="button" label="Cancel" outlined disabled={busy} onClick={props.onCancel} />
          <Button type="submit" form={`${id}-form`} label={busy ? props.busyLabel : props.submitLabel} disabled={busy || props.submitDisabled === true} />
        </div>
      }
    >
      <form
        id={`${id}-form`}
        className="dialog-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          props.onSubmit();
        }}
      >
        {props.failure && <Message severity="error" text={props.failure} className="dialog-message" />}
        {props.children}
      </form>
    </CustomerDialog>
  );
}
