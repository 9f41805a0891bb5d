// "New price" (a product's list price from a date) and the question before withdrawing a row not
// yet in effect. Renders props and calls callbacks; the steps are the price form machine's states.
import type { FieldErrors } from '../../../domain/customers';
import { ConfirmDialog } from '../../common/ConfirmDialog';
import { PriceFormDialog, SelectField, textFieldsOf, type SelectOption } from './fields';
import { PRICES_TEXTS as T } from './parts';

export type PriceField = 'productReferenceId' | 'currency' | 'monthly' | 'overagePerGb' | 'topUp' | 'effectiveFrom' | 'note';

/** The form as the dialog shows it (the price form machine's context has this shape). */
export interface PriceFormView {
  productReferenceId: string;
  currency: string;
  monthly: string;
  overagePerGb: string;
  topUp: string;
  effectiveFrom: string;
  note: string;
}

export interface PriceDialogProps {
  visible: boolean;
  form: PriceFormView;
  errors: FieldErrors<PriceField>;
  failure: string | null;
  busy: boolean;
  products: readonly SelectOption<string>[];
  onField(field: PriceField, value: string): void;
  onSubmit(): void;
  onCancel(): void;
}

export function PriceDialog(props: PriceDialogProps) {
  const { form, errors, busy } = props;
  const text = textFieldsOf<Exclude<PriceField, 'productReferenceId'>>({ form, errors, busy, onField: props.onField });
  return (
    <PriceFormDialog header={T.newPriceTitle} visible={props.visible} busy={busy} failure={props.failure} onSubmit={props.onSubmit} onCancel={props.onCancel}>
      <SelectField
        label="Product"
        value={form.productReferenceId || null}
        options={props.products}
        placeholder="Select a product"
        error={errors.productReferenceId}
        disabled={busy}
        onChange={(value) => props.onField('productReferenceId', value)}
      />
      <div className="price-dialog-grid">
        {text('currency', 'Currency', { placeholder: 'USD' })}
        {text('effectiveFrom', 'Effective from', { type: 'date' })}
      </div>
      <div className="price-dialog-grid">
        {text('monthly', 'Monthly price', { placeholder: '79.00', decimal: true })}
        {text('overagePerGb', 'Overage per GB', { placeholder: '1.00', decimal: true })}
        {text('topUp', 'Top-up price', { placeholder: '25.00', decimal: true })}
      </div>
      {text('note', 'Note')}
    </PriceFormDialog>
  );
}

export interface ConfirmPriceChangeProps {
  visible: boolean;
  title: string;
  confirmLabel: string;
  question: string;
  failure: string | null;
  busy: boolean;
  onConfirm(): void;
  onClose(): void;
}

/** Withdraw a price, end a customer price: the question, and the server's words when it refused. */
export function ConfirmPriceChange({ title, question, ...rest }: ConfirmPriceChangeProps) {
  return (
    <ConfirmDialog header={title} busyLabel={T.working} {...rest}>
      <p>{question}</p>
    </ConfirmDialog>
  );
}
