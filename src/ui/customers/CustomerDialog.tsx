// The frame every customer dialog shares: modal, and not closable while its request runs.
import type { ReactNode } from 'react';
import { Dialog } from 'primereact/dialog';

export interface CustomerDialogProps {
  header: string;
  busy?: boolean;
  visible?: boolean;
  onClose(): void;
  footer: ReactNode;
  wide?: boolean;
  children: ReactNode;
}

export function CustomerDialog({ header, busy = false, visible = true, onClose, footer, wide = false, children }: CustomerDialogProps) {
  return (
    <Dialog
      header={header}
      visible={visible}
      onHide={() => {
        if (!busy) onClose();
      }}
      closable={!busy}
      closeOnEscape={!busy}
      className={wide ? 'customer-dialog customer-dialog-wide' : 'customer-dialog'}
      modal
      blockScroll
      footer={footer}
    >
      {children}
    </Dialog>
  );
}
