// The terminal page's two dialogs: Rename (the name, Save) and Reboot (a confirmation). Which is
// open, whether it is working and what went wrong come from the page's machine as props.
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { useId } from 'react';
import { MY_AREA_MESSAGES as M, TERMINAL_NAME_MAX_LENGTH } from '../../domain/my-area';

export interface TerminalActionsProps {
  dialog: 'rename' | 'reboot' | null;
  busy: boolean;
  name: string;
  nameError: string | null;
  /** The server's words when it refused (a 429 says how long to wait). */
  failure: string | null;
  onRename(): void;
  onReboot(): void;
  onName(value: string): void;
  onConfirm(): void;
  onClose(): void;
}

export function TerminalActionDialogs({ dialog, busy, name, nameError, failure, onName, onConfirm, onClose }: TerminalActionsProps) {
  const inputId = useId();
  const close = () => {
    if (!busy) onClose();
  };
  return (
    <>
      <Dialog
        header="Rename terminal"
        visible={dialog === 'rename'}
        onHide={close}
        closable={!busy}
        style={{ width: '28rem' }}
        footer={
          <>
            <Button type="button" label="Cancel" text onClick={close} disabled={busy} />
            <Button type="button" label={busy ? 'Saving...' : 'Save'} icon="pi pi-check" loading={busy} onClick={onConfirm} />
          </>
        }
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            onConfirm();
          }}
        >
          <label htmlFor={inputId}>Name</label>
          <InputText
            id={inputId}
            value={name}
            maxLength={TERMINAL_NAME_MAX_LENGTH + 20}
            onChange={(event) => onName(event.target.value)}
            disabled={busy}
            invalid={nameError !== null}
            aria-describedby={nameError ? `${inputId}-error` : undefined}
            className="w-full"
          />
          {nameError && (
            <small id={`${inputId}-error`} className="p-error">
              {nameError}
            </small>
          )}
        </form>
        {failure && <Message severity="error" text={failure} className="w-full" />}
      </Dialog>
      <Dialog
        header="Reboot terminal"
        visible={dialog === 'reboot'}
        onHide={close}
        closable={!busy}
        style={{ width: '28rem' }}
        footer={
          <>
            <Button type="button" label="Cancel" text onClick={close} disabled={busy} />
            <Button type="button" label={busy ? 'Rebooting...' : 'Reboot'} icon="pi pi-power-off" severity="danger" loading={busy} onClick={onConfirm} />
          </>
        }
      >
        <p>{M.rebootConfirm}</p>
        {failure && <Message severity="error" text={failure} className="w-full" />}
      </Dialog>
    </>
  );
}
