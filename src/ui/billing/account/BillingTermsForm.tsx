// A customer's payment terms as a form (billing:manage), inside their account section: the net
// days from a short list, the day a promise to pay holds dunning until, and its note. Renders
// props and calls callbacks; the steps are the billing terms form machine's states.
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import type { FieldErrors } from '../../../domain/customers';
import { LEDGER_NOTE_MAX_LENGTH, PAYMENT_TERMS_CHOICES } from '../../../domain/ledger';
import { SelectField, TextField, type SelectOption } from '../prices/fields';
import { termsLabel } from './parts';

export const TERMS_FORM_TEXTS = {
  title: 'Payment terms',
  days: 'Payment terms',
  daysHint: 'Statements closed from now on fall due this many days after they close.',
  promise: 'Promise to pay until',
  promiseHint: 'Optional: no reminder is sent and no block made until this day has passed.',
  note: 'Note',
  noteHint: 'What was promised, and by whom. Not shown to the customer.',
  save: 'Save terms',
  saving: 'Saving...',
  reset: 'Undo changes',
} as const;

export interface BillingTermsFormProps {
  form: { paymentTermsDays: number; promiseToPayUntil: string; promiseNote: string };
  errors: FieldErrors<'paymentTermsDays' | 'promiseToPayUntil' | 'promiseNote'>;
  failure: string | null;
  busy: boolean;
  canReset: boolean;
  onDays(days: number): void;
  onField(field: 'promiseToPayUntil' | 'promiseNote', value: string): void;
  onSubmit(): void;
  onReset(): void;
}

/** The offered terms, with the customer's own when it is not one of them (any day count from 0 to 365 is taken). */
export function termsOptions(current: number): SelectOption<string>[] {
  const days = (PAYMENT_TERMS_CHOICES as readonly number[]).includes(current) ? [...PAYMENT_TERMS_CHOICES] : [...PAYMENT_TERMS_CHOICES, current].sort((a, b) => a - b);
  return days.map((d) => ({ value: String(d), label: termsLabel(d) }));
}

export function BillingTermsForm(props: BillingTermsFormProps) {
  const T = TERMS_FORM_TEXTS;
  const { form, errors, busy } = props;
  return (
    <form
      className="account-terms-form"
      aria-label={T.title}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        props.onSubmit();
      }}
    >
      {props.failure && <Message severity="error" text={props.failure} role="alert" className="account-terms-failure" />}
      <div className="account-terms-fields">
        <SelectField
          label={T.days}
          value={String(form.paymentTermsDays)}
          options={termsOptions(form.paymentTermsDays)}
          error={errors.paymentTermsDays}
          hint={T.daysHint}
          disabled={busy}
          onChange={(value) => props.onDays(Number(value))}
        />
        <TextField
          label={T.promise}
          type="date"
          value={form.promiseToPayUntil}
          error={errors.promiseToPayUntil}
          hint={T.promiseHint}
          disabled={busy}
          onChange={(value) => props.onField('promiseToPayUntil', value)}
        />
        <TextField
          label={T.note}
          value={form.promiseNote}
          maxLength={LEDGER_NOTE_MAX_LENGTH}
          error={errors.promiseNote}
          hint={T.noteHint}
          disabled={busy}
          onChange={(value) => props.onField('promiseNote', value)}
        />
      </div>
      <div className="account-terms-actions">
        <Button type="button" label={T.reset} text disabled={busy || !props.canReset} onClick={props.onReset} />
        <Button type="submit" label={busy ? T.saving : T.save} icon="pi pi-check" loading={busy} disabled={busy} />
      </div>
    </form>
  );
}
