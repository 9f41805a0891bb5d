// Match… and Ignore… on a bank line waiting to be matched: the line, then the customer who paid
// and the open statements in its currency it pays, or the reason it is set aside. Renders props
// and calls callbacks; the steps are the bank line decision machine's states.
import type { BankLineWire, OpenStatementWire } from '../../../domain/ledger';
import { DASH } from '../../common/format';
import { FormDialog } from '../../common/FormDialog';
import type { SelectOption } from '../prices/fields';
import { CustomerPicker, ReasonField, StatementChoices } from './fields';
import { PAYMENTS_TEXTS as T, lineAmount } from './parts';

function LineFacts({ line }: { line: BankLineWire }) {
  return (
    <dl className="payments-line-facts">
      <dt>Booked on</dt>
      <dd>{line.bookedOn}</dd>
      <dt>Amount</dt>
      <dd>{lineAmount(line)}</dd>
      <dt>Payer</dt>
      <dd>{line.payer ?? DASH}</dd>
      <dt>Remittance</dt>
      <dd>{line.remittance ?? DASH}</dd>
    </dl>
  );
}

export interface MatchLineDialogProps {
  busy: boolean;
  line: BankLineWire | null;
  customerId: string | null;
  customers: readonly SelectOption<string>[];
  customersLoading: boolean;
  customersError: string | null;
  loadingStatements: boolean;
  statementsShown: boolean;
  statements: readonly OpenStatementWire[];
  chosen: readonly string[];
  customerError: string | undefined;
  failure: string | null;
  onCustomerSearch(text: string): void;
  onCustomer(id: string): void;
  onStatement(statementId: string, checked: boolean): void;
  onSubmit(): void;
  onCancel(): void;
}

export function MatchLineDialog(props: MatchLineDialogProps) {
  const { busy, line } = props;
  return (
    <FormDialog header={T.matchTitle} visible wide busy={busy} submitLabel={T.matchButton} busyLabel={T.matching} failure={props.failure} onSubmit={props.onSubmit} onCancel={props.onCancel}>
      {line && <LineFacts line={line} />}
      <CustomerPicker
        value={props.customerId}
        options={props.customers}
        loading={props.customersLoading}
        error={props.customerError ?? props.customersError ?? undefined}
        disabled={busy}
        onSearch={props.onCustomerSearch}
        onPick={props.onCustomer}
      />
      {(props.loadingStatements || props.statementsShown) && line && (
        <StatementChoices currency={line.currency} statements={props.statements} chosen={props.chosen} loading={props.loadingStatements} disabled={busy} onToggle={props.onStatement} />
      )}
    </FormDialog>
  );
}

export interface IgnoreLineDialogProps {
  visible: boolean;
  busy: boolean;
  line: BankLineWire | null;
  reason: string;
  reasonError: string | undefined;
  failure: string | null;
  onReason(value: string): void;
  onSubmit(): void;
  onCancel(): void;
}

export function IgnoreLineDialog(props: IgnoreLineDialogProps) {
  return (
    <FormDialog header={T.ignoreTitle} visible={props.visible} busy={props.busy} submitLabel={T.ignoreButton} busyLabel={T.ignoring} failure={props.failure} onSubmit={props.onSubmit} onCancel={props.onCancel}>
      {props.line && <LineFacts line={props.line} />}
      <ReasonField value={props.reason} error={props.reasonError} disabled={props.busy} onChange={props.onReason} />
    </FormDialog>
  );
}
