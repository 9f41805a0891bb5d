// Approve (a confirmation) or Decline (a reason the customer reads) one customer request. Renders
// props and calls callbacks; the steps are the request review machine's states.
import { useId } from 'react';
import { Button } from 'primereact/button';
import { InputTextarea } from 'primereact/inputtextarea';
import { Message } from 'primereact/message';
import { DECLINE_REASON_MAX_LENGTH, REQUEST_MESSAGES as M, describeAsked, type QueuedRequestWire } from '../../domain/requests';
import { CustomerDialog } from '../customers/CustomerDialog';

export const APPROVE_TITLE = 'Approve request';
export const DECLINE_TITLE = 'Decline request';
export const DECIDING_TEXT = 'Working...';

export interface ReviewDialogProps {
  visible: boolean;
  action: 'approve' | 'decline' | null;
  request: QueuedRequestWire | null;
  reason: string;
  reasonError: string | null;
  failure: string | null;
  busy: boolean;
  onReason(value: string): void;
  onConfirm(): void;
  onClose(): void;
}

export function ReviewDialog(props: ReviewDialogProps) {
  const id = useId();
  const { request, busy } = props;
  const declining = props.action === 'decline';
  return (
    <CustomerDialog
      header={declining ? DECLINE_TITLE : APPROVE_TITLE}
      visible={props.visible}
      busy={busy}
      onClose={props.onClose}
      footer={
        <div className="dialog-footer">
          <Button type="button" label="Cancel" outlined disabled={busy} onClick={props.onClose} />
          <Button
            type="button"
            label={busy ? DECIDING_TEXT : declining ? 'Decline' : 'Approve'}
            severity={declining ? 'danger' : undefined}
            disabled={busy}
            onClick={props.onConfirm}
          />
        </div>
      }
    >
      {request && (declining ? <p>Decline {describeAsked(request)} for {request.customer.name} on {request.serviceLineNumber}?</p> : <p>{M.approveConfirm(describeAsked(request), request.customer.name)}</p>)}
      {declining && (
        <>
          <label htmlFor={`${id}-reason`}>Reason (the customer reads it)</label>
          <InputTextarea
            id={`${id}-reason`}
            value={props.reason}
            rows={3}
            maxLength={DECLINE_REASON_MAX_LENGTH}
            disabled={busy}
            invalid={props.reasonError !== null}
            aria-describedby={props.reasonError ? `${id}-reason-error` : undefined}
            onChange={(e) => props.onReason(e.target.value)}
          />
          {props.reasonError && (
            <small id={`${id}-reason-error`} className="p-error">
              {props.reasonError}
            </small>
          )}
        </>
      )}
      {props.failure && <Message severity="error" text={props.failure} className="dialog-message" />}
    </CustomerDialog>
  );
}
