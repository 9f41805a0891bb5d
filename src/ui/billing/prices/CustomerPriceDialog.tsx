// "New customer price": one customer (picked from a searchable list the page fills from the
// customers API), one product or every product, a discount and/or negotiated figures, from a date
// and until one (or open-ended). Renders props and calls callbacks; the steps are the customer
// price form machine's states.
import type { FieldErrors } from '../../../domain/customers';
import { PriceFormDialog, SelectField, textFieldsOf, type SelectOption } from './fields';
import { PRICES_TEXTS as T } from './parts';

export type CustomerPriceTextField = 'currency' | 'discountPercent' | 'monthly' | 'overagePerGb' | 'topUp' | 'effectiveFrom' | 'effectiveUntil' | 'note';
export type CustomerPriceFieldName = CustomerPriceTextField | 'customer' | 'productReferenceId' | 'figures';

/** The form as the dialog shows it (the customer price form machine's context has this shape). */
export interface CustomerPriceFormView {
  customer: { id: string; name: string } | null;
  productReferenceId: string | null;
  currency: string;
  discountPercent: string;
  monthly: string;
  overagePerGb: string;
  topUp: string;
  effectiveFrom: string;
  effectiveUntil: string;
  note: string;
}

/** The product drop-down's value for "every product" (ids have no spaces). */
export const EVERY_PRODUCT = 'every product';

export const CUSTOMER_SEARCH_TEXTS = {
  search: 'Search customers',
  searching: 'Searching...',
  none: 'No customer matches',
  failed: 'The customers could not be loaded',
} as const;

export interface CustomerPriceDialogProps {
  visible: boolean;
  form: CustomerPriceFormView;
  errors: FieldErrors<CustomerPriceFieldName>;
  failure: string | null;
  busy: boolean;
  /** The customers the search answered (the chosen one is kept among them by the page). */
  customers: readonly SelectOption<string>[];
  customersLoading: boolean;
  customersError: string | null;
  products: readonly SelectOption<string>[];
  onCustomerSearch(text: string): void;
  onCustomer(id: string): void;
  onProduct(id: string | null): void;
  onField(field: CustomerPriceTextField, value: string): void;
  onSubmit(): void;
  onCancel(): void;
}

export function CustomerPriceDialog(props: CustomerPriceDialogProps) {
  const { form, errors, busy } = props;
  const text = textFieldsOf<CustomerPriceTextField>({ form, errors, busy, onField: props.onField });
  const productOptions: SelectOption<string>[] = [{ label: T.everyProduct, value: EVERY_PRODUCT }, ...props.products];
  return (
    <PriceFormDialog header={T.newCustomerPriceTitle} visible={props.visible} busy={busy} failure={props.failure} onSubmit={props.onSubmit} onCancel={props.onCancel}>
      <SelectField
        label="Customer"
        value={form.customer?.id ?? null}
        options={props.customers}
        placeholder="Select a customer"
        error={errors.customer ?? props.customersError ?? undefined}
        disabled={busy}
        onChange={props.onCustomer}
        onSearch={props.onCustomerSearch}
        searchPlaceholder={CUSTOMER_SEARCH_TEXTS.search}
        emptyMessage={props.customersLoading ? CUSTOMER_SEARCH_TEXTS.searching : CUSTOMER_SEARCH_TEXTS.none}
      />
      <div className="price-dialog-grid">
        <SelectField
          label="Product"
          value={form.productReferenceId ?? EVERY_PRODUCT}
          options={productOptions}
          error={errors.productReferenceId}
          disabled={busy}
          onChange={(value) => props.onProduct(value === EVERY_PRODUCT ? null : value)}
        />
        {text('currency', 'Currency', { placeholder: 'USD' })}
        {text('discountPercent', 'Discount %', { placeholder: '10', decimal: true })}
      </div>
      <fieldset className="form-field" disabled={busy}>
        <legend>Negotiated prices</legend>
        <small className="cell-secondary">{T.figuresHint}</small>
        <div className="price-dialog-grid">
          {text('monthly', 'Monthly price', { decimal: true })}
          {text('overagePerGb', 'Overage per GB', { decimal: true })}
          {text('topUp', 'Top-up price', { decimal: true })}
        </div>
        {errors.figures && (
          <small className="p-error" role="alert">
            {errors.figures}
          </small>
        )}
      </fieldset>
      <div className="price-dialog-grid">
        {text('effectiveFrom', 'From', { type: 'date' })}
        {text('effectiveUntil', 'Until', { type: 'date', hint: 'Blank: open-ended' })}
      </div>
      {text('note', 'Note')}
    </PriceFormDialog>
  );
}
