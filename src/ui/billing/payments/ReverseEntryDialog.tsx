// Reverse… on a ledger entry: what is taken back (a new entry of the opposite amount; the entry
// itself never changes) and why. Renders props and calls callbacks; the steps are the ledger
// reverse machine's states.
import type { LedgerEntryWire } from '../../../domain/ledger';
import { ConfirmDialog } from '../../common/ConfirmDialog';
import { ReasonField } from './fields';
import { PAYMENTS_TEXTS as T, entryName } from './parts';

export const reverseQuestion = (entry: Pick<LedgerEntryWire, 'kind' | 'amountMinor' | 'currency' | 'customerName' | 'occurredOn'>) =>
  `Reverse the ${entryName(entry)}? A new entry of the opposite amount takes it back; the entry itself stays in the ledger.`;

export interface ReverseEntryDialogProps {
  visible: boolean;
  busy: boolean;
  entry: LedgerEntryWire | null;
  reason: string;
  reasonError: string | null;
  failure: string | null;
  onReason(value: string): void;
  onConfirm(): void;
  onClose(): void;
}

export function ReverseEntryDialog(props: ReverseEntryDialogProps) {
  return (
    <ConfirmDialog
      header={T.reverseTitle}
      visible={props.visible}
      busy={props.busy}
      confirmLabel={T.reverseButton}
      busyLabel={T.reversing}
      failure={props.failure}
      onConfirm={props.onConfirm}
      onClose={props.onClose}
    >
      {props.entry && <p>{reverseQuestion(props.entry)}</p>}
      <ReasonField value={props.reason} error={props.reasonError} disabled={props.busy} onChange={props.onReason} />
    </ConfirmDialog>
  );
}
