// A secret shown this once (a new API key, a webhook signing secret): what it belongs to, the
// read-only value with Copy, the once-only warning, and the fallback words when there is no
// clipboard. Renders props and calls callbacks; the copy steps are the calling page's machine's.
import { useId, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { CustomerDialog } from '../customers/CustomerDialog';

export type CopyState = 'idle' | 'copying' | 'copied' | 'failed';

/** The words that differ between secrets: the dialog's title, the field's label and the messages. */
export interface ShownOnceSecretTexts {
  title: string;
  label: string;
  /** That the value is not shown again. */
  once: string;
  copy: string;
  copied: string;
  copyFailed: string;
}

export interface ShownOnceSecretDialogProps {
  visible: boolean;
  texts: ShownOnceSecretTexts;
  secret: string;
  copy: CopyState;
  onCopy(): void;
  onClose(): void;
  /** What the secret belongs to, shown above it. */
  children?: ReactNode;
}

export function ShownOnceSecretDialog({ visible, texts, secret, copy, onCopy, onClose, children }: ShownOnceSecretDialogProps) {
  const id = useId();
  return (
    <CustomerDialog
      header={texts.title}
      visible={visible}
      onClose={onClose}
      footer={
        <div className="dialog-footer">
          <Button type="button" label="Done" onClick={onClose} />
        </div>
      }
    >
      {children}
      <label htmlFor={`${id}-secret`}>{texts.label}</label>
      <div className="p-inputgroup">
        <InputText id={`${id}-secret`} value={secret} readOnly className="cell-mono" onFocus={(event) => event.currentTarget.select()} />
        <Button type="button" icon="pi pi-copy" label={texts.copy} loading={copy === 'copying'} disabled={copy === 'copying'} onClick={onCopy} />
      </div>
      <p className="cell-secondary">{texts.once}</p>
      <div aria-live="polite">
        {copy === 'copied' && <Message severity="success" text={texts.copied} className="dialog-message" />}
        {copy === 'failed' && <Message severity="warn" text={texts.copyFailed} className="dialog-message" />}
      </div>
    </CustomerDialog>
  );
}
