// Record payment: a payment, credit note or refund for one customer, in a currency they are billed
// in, on a day not later than today, and the open statements it pays. Renders props and calls
// callbacks; the steps are the ledger entry form machine's states.
import { useId } from 'react';
import { SelectButton } from 'primereact/selectbutton';
import type { FieldErrors } from '../../../domain/customers';
import { LEDGER_KIND_LABELS, PAYMENT_METHOD_LABELS, PAYMENT_METHODS, POSTED_KINDS, type OpenStatementWire, type PaymentMethod, type PostedKind } from '../../../domain/ledger';
import { FormDialog } from '../../common/FormDialog';
import { SelectField, TextField, type SelectOption } from '../prices/fields';
import { CustomerPicker, StatementChoices } from './fields';
import { PAYMENTS_TEXTS as T } from './parts';

export type LedgerEntryTextName = 'kind' | 'currency' | 'amount' | 'occurredOn' | 'method' | 'reference' | 'note';
export type LedgerEntryFieldName = LedgerEntryTextName | 'customer' | 'statements';

/** The form as the dialog shows it (the ledger entry form machine's form has this shape). */
export interface LedgerEntryFormShown {
  customer: { id: string; name: string } | null;
  kind: PostedKind;
  currency: string;
  amount: string;
  occurredOn: string;
  method: PaymentMethod;
  reference: string;
  note: string;
  statementIds: readonly string[];
}

export const ENTRY_LABELS = {
  kind: 'Kind',
  currency: 'Currency',
  amount: 'Amount',
  occurredOn: 'Date',
  method: 'Method',
  reference: 'Reference',
  note: 'Note',
} as const;

const METHOD_OPTIONS = PAYMENT_METHODS.map((value) => ({ label: PAYMENT_METHOD_LABELS[value], value }));

export interface LedgerEntryDialogProps {
  busy: boolean;
  form: LedgerEntryFormShown;
  today: string;
  currencies: readonly string[];
  loadingAccount: boolean;
  statements: readonly OpenStatementWire[];
  errors: FieldErrors<LedgerEntryFieldName>;
  failure: string | null;
  customers: readonly SelectOption<string>[];
  customersLoading: boolean;
  customersError: string | null;
  onCustomerSearch(text: string): void;
  onCustomer(id: string): void;
  onField(field: LedgerEntryTextName, value: string): void;
  onStatement(statementId: string, checked: boolean): void;
  onSubmit(): void;
  onCancel(): void;
}

export function LedgerEntryDialog(props: LedgerEntryDialogProps) {
  const id = useId();
  const { form, errors, busy } = props;
  const field = (name: 'amount' | 'occurredOn' | 'reference' | 'note', extra: { type?: 'date'; placeholder?: string; inputMode?: 'decimal'; hint?: string } = {}) => (
    <TextField label={ENTRY_LABELS[name]} value={form[name]} error={errors[name]} disabled={busy} {...extra} onChange={(value) => props.onField(name, value)} />
  );
  const currencyOptions = props.currencies.map((currency) => ({ label: currency, value: currency }));
  return (
    <FormDialog header={T.entryTitle} visible wide busy={busy} submitLabel={T.recordButton} busyLabel={T.recording} failure={props.failure} onSubmit={props.onSubmit} onCancel={props.onCancel}>
      <CustomerPicker
        value={form.customer?.id ?? null}
        options={props.customers}
        loading={props.customersLoading}
        error={errors.customer ?? props.customersError ?? undefined}
        disabled={busy}
        onSearch={props.onCustomerSearch}
        onPick={props.onCustomer}
      />
      <div className="form-field">
        <span id={`${id}-kind`}>{ENTRY_LABELS.kind}</span>
        <SelectButton
          aria-labelledby={`${id}-kind`}
          value={form.kind}
          allowEmpty={false}
          disabled={busy}
          options={POSTED_KINDS.map((value) => ({ label: LEDGER_KIND_LABELS[value], value }))}
          onChange={(event) => {
            if (event.value) props.onField('kind', event.value as string);
          }}
        />
      </div>
      <div className="price-dialog-grid">
        <SelectField
          label={ENTRY_LABELS.currency}
          value={form.currency || null}
          options={currencyOptions}
          placeholder={props.loadingAccount ? 'Reading...' : !form.customer ? 'Pick a customer first' : currencyOptions.length > 0 ? 'Pick' : 'No statement yet'}
          error={errors.currency}
          disabled={busy || props.loadingAccount || currencyOptions.length === 0}
          onChange={(value) => props.onField('currency', value)}
        />
        {field('amount', { placeholder: '120.50', inputMode: 'decimal' })}
        {field('occurredOn', { type: 'date' })}
      </div>
      <div className="price-dialog-grid">
        {form.kind === 'payment' && <SelectField label={ENTRY_LABELS.method} value={form.method} options={METHOD_OPTIONS} error={errors.method} disabled={busy} onChange={(value) => props.onField('method', value)} />}
        {field('reference', { hint: 'A cheque number, the bank’s reference' })}
      </div>
      {field('note')}
      {form.kind !== 'refund' && form.currency && (
        <StatementChoices
          currency={form.currency}
          statements={props.statements}
          chosen={form.statementIds}
          loading={props.loadingAccount}
          error={errors.statements}
          disabled={busy}
          onToggle={props.onStatement}
        />
      )}
    </FormDialog>
  );
}
