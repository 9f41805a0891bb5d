// The schedule dialog's target: the one it was opened for, or a service line number typed or a
// customer found by name, email or company.
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { RadioButton } from 'primereact/radiobutton';
import type { ScheduleTargetType } from '../../../domain/automation';
import { FieldError } from '../../common/FieldError';
import { FormField, fieldA11y } from '../../customers/CustomerCreateDialog';
import type { ScheduleDialogActions, ScheduleDialogState } from './types';

export const TARGET_TEXTS = {
  line: 'Service line',
  customer: 'Customer',
  lineNumber: 'Service line number',
  findCustomer: 'Find a customer',
  searching: 'Searching...',
  noMatch: 'No customer matches.',
  chosen: 'Chosen',
} as const;

const TYPES: readonly ScheduleTargetType[] = ['line', 'customer'];

export function TargetFields({ id, state, actions }: { id: string; state: ScheduleDialogState; actions: ScheduleDialogActions }) {
  const { form, errors, busy } = state;
  if (state.preset) {
    const label = form.targetType === 'line' ? (form.targetLabel ? `${form.target} (${form.targetLabel})` : form.target) : (form.targetLabel ?? form.target);
    return (
      <p className="schedule-target">
        {form.targetType === 'line' ? TARGET_TEXTS.line : TARGET_TEXTS.customer}: <strong>{label}</strong>
      </p>
    );
  }
  return (
    <>
      <fieldset className="form-field" disabled={busy}>
        <legend>Change of</legend>
        {TYPES.map((type) => (
          <div key={type} className="checkbox-row">
            <RadioButton inputId={`${id}-type-${type}`} name={`${id}-type`} value={type} checked={form.targetType === type} onChange={() => actions.onTargetType(type)} />
            <label htmlFor={`${id}-type-${type}`}>{TARGET_TEXTS[type]}</label>
          </div>
        ))}
      </fieldset>
      {form.targetType === 'line' ? (
        <FormField id={`${id}-line`} label={TARGET_TEXTS.lineNumber} error={errors.target}>
          <InputText id={`${id}-line`} value={form.target} disabled={busy} onChange={(e) => actions.onLine(e.target.value)} {...fieldA11y(`${id}-line`, errors.target)} />
        </FormField>
      ) : (
        <CustomerSearch id={id} state={state} actions={actions} />
      )}
    </>
  );
}

function CustomerSearch({ id, state, actions }: { id: string; state: ScheduleDialogState; actions: ScheduleDialogActions }) {
  const { form, errors, busy } = state;
  const typed = state.customerQuery.trim() !== '';
  return (
    <div className="form-field">
      <label htmlFor={`${id}-customer`}>{TARGET_TEXTS.findCustomer}</label>
      <InputText
        id={`${id}-customer`}
        type="search"
        value={state.customerQuery}
        disabled={busy}
        placeholder="Name, email or company"
        onChange={(e) => actions.onCustomerSearch(e.target.value)}
        {...fieldA11y(`${id}-customer`, errors.target)}
      />
      {state.searching && <small role="status">{TARGET_TEXTS.searching}</small>}
      {state.searchError && <small className="p-error">{state.searchError}</small>}
      {typed && !state.searching && !state.searchError && state.customers.length === 0 && <small>{TARGET_TEXTS.noMatch}</small>}
      {state.customers.length > 0 && (
        <ul className="schedule-customers" aria-label="Matching customers">
          {state.customers.map((c) => (
            <li key={c.uuid}>
              <Button
                type="button"
                text
                size="small"
                label={`${c.name} · ${c.email}`}
                aria-pressed={form.target === c.uuid}
                disabled={busy}
                onClick={() => actions.onCustomer(c)}
              />
            </li>
          ))}
        </ul>
      )}
      {form.target && form.targetLabel && (
        <small>
          {TARGET_TEXTS.chosen}: <strong>{form.targetLabel}</strong>
        </small>
      )}
      <FieldError id={`${id}-customer-error`} message={errors.target} />
    </div>
  );
}
