// A new endpoint's secret, or a rotated one, shown this once: read-only, with Copy, and the fallback
// words when there is no clipboard. Renders props and calls callbacks; the copy is the machine's.
import { useId } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { CustomerDialog } from '../customers/CustomerDialog';
import { WEBHOOK_TEXTS as T } from './parts';

export type CopyState = 'idle' | 'copying' | 'copied' | 'failed';

export interface SecretDialogProps {
  visible: boolean;
  /** What was done ("Webhook endpoint added…", "New secret made…"). */
  notice: string;
  url: string | null;
  secret: string;
  copy: CopyState;
  onCopy(): void;
  onClose(): void;
}

export function SecretDialog(props: SecretDialogProps) {
  const id = useId();
  return (
    <CustomerDialog
      header={T.secretTitle}
      visible={props.visible}
      onClose={props.onClose}
      footer={
        <div className="dialog-footer">
          <Button type="button" label="Done" onClick={props.onClose} />
        </div>
      }
    >
      <p>{props.notice}</p>
      {props.url && <p className="cell-mono">{props.url}</p>}
      <label htmlFor={`${id}-secret`}>Signing secret</label>
      <div className="p-inputgroup">
        <InputText
          id={`${id}-secret`}
          value={props.secret}
          readOnly
          className="cell-mono"
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button type="button" icon="pi pi-copy" label={T.copy} loading={props.copy === 'copying'} disabled={props.copy === 'copying'} onClick={props.onCopy} />
      </div>
      <p className="cell-secondary">{T.secretOnce}</p>
      <div aria-live="polite">
        {props.copy === 'copied' && <Message severity="success" text={T.copied} className="dialog-message" />}
        {props.copy === 'failed' && <Message severity="warn" text={T.copyFailed} className="dialog-message" />}
      </div>
    </CustomerDialog>
  );
}
