// "Add credit or charge" on a statement: credit or charge, the amount in the statement's currency,
// and the reason the customer will read. Renders props and calls callbacks; the steps are the
// adjustment form machine's states.
import { useId } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { Message } from 'primereact/message';
import { RadioButton } from 'primereact/radiobutton';
import type { FieldErrors } from '../../../domain/customers';
import { CustomerDialog } from '../../customers/CustomerDialog';
import '../../customers/customers.css';
import './statements.css';

export const ADJUSTMENT_DIALOG_TEXTS = {
  title: 'Add credit or charge',
  credit: 'Credit: take it off their next statement',
  charge: 'Charge: add it to their next statement',
  reason: 'Reason',
  reasonHint: 'Shown to the customer on their statement.',
  save: 'Save',
  saving: 'Saving...',
  against: (statement: string) => `Recorded against ${statement}; it goes on the customer\u2019s next statement.`,
} as const;

export const amountLabel = (currency: string) => `Amount (${currency})`;

export interface AdjustmentDialogProps {
  visible: boolean;
  busy: boolean;
  /** The statement's currency: the amount is typed in it. */
  currency: string;
  /** "ST-2026-03-000042" or "the March 2026 draft". */
  statement: string;
  form: { direction: 'credit' | 'charge'; amount: string; reason: string };
  errors: FieldErrors<'direction' | 'amount' | 'reason'>;
  failure: string | null;
  reasonMaxLength: number;
  onDirection(direction: 'credit' | 'charge'): void;
  onField(field: 'amount' | 'reason', value: string): void;
  onSubmit(): void;
  onCancel(): void;
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <small id={id} className="p-error">
      {message}
    </small>
  ) : null;
}

export function AdjustmentDialog(props: AdjustmentDialogProps) {
  const id = useId();
  const T = ADJUSTMENT_DIALOG_TEXTS;
  const { form, errors, busy } = props;
  return (
    <CustomerDialog
      header={T.title}
      visible={props.visible}
      busy={busy}
      onClose={props.onCancel}
      footer={
        <div className="dialog-footer">
          <Button type="button" label="Cancel" outlined disabled={busy} onClick={props.onCancel} />
          <Button type="submit" form={`${id}-form`} label={busy ? T.saving : T.save} disabled={busy} />
        </div>
      }
    >
      <form
        id={`${id}-form`}
        className="dialog-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          props.onSubmit();
        }}
      >
        <p className="text-muted">{T.against(props.statement)}</p>
        {props.failure && <Message severity="error" text={props.failure} className="dialog-message" />}
        <fieldset className="form-field adjustment-direction" disabled={busy}>
          <legend className="sr-only">Credit or charge</legend>
          {(['credit', 'charge'] as const).map((direction) => (
            <div key={direction} className="checkbox-row">
              <RadioButton
                inputId={`${id}-${direction}`}
                name={`${id}-direction`}
                value={direction}
                checked={form.direction === direction}
                disabled={busy}
                onChange={() => props.onDirection(direction)}
              />
              <label htmlFor={`${id}-${direction}`}>{T[direction]}</label>
            </div>
          ))}
          <FieldError id={`${id}-direction-error`} message={errors.direction} />
        </fieldset>
        <div className="form-field">
          <label htmlFor={`${id}-amount`}>{amountLabel(props.currency)}</label>
          <InputText
            id={`${id}-amount`}
            value={form.amount}
            inputMode="decimal"
            autoComplete="off"
            disabled={busy}
            invalid={errors.amount !== undefined}
            aria-invalid={errors.amount !== undefined}
            aria-describedby={errors.amount ? `${id}-amount-error` : undefined}
            onChange={(e) => props.onField('amount', e.target.value)}
          />
          <FieldError id={`${id}-amount-error`} message={errors.amount} />
        </div>
        <div className="form-field">
          <label htmlFor={`${id}-reason`}>{T.reason}</label>
          <InputTextarea
            id={`${id}-reason`}
            value={form.reason}
            rows={3}
            maxLength={props.reasonMaxLength}
            disabled={busy}
            invalid={errors.reason !== undefined}
            aria-invalid={errors.reason !== undefined}
            aria-describedby={errors.reason ? `${id}-reason-error` : `${id}-reason-hint`}
            onChange={(e) => props.onField('reason', e.target.value)}
          />
          <small id={`${id}-reason-hint`} className="cell-secondary">
            {T.reasonHint}
          </small>
          <FieldError id={`${id}-reason-error`} message={errors.reason} />
        </div>
      </form>
    </CustomerDialog>
  );
}
