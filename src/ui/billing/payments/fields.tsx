// The Payments dialogs' shared fields: the customer picker (a drop-down whose search box asks the
// page, which answers with the customers found), the open statements an amount may pay as
// checkboxes, and a reason box. Each problem sits under its field.
import { useId } from 'react';
import { Checkbox } from 'primereact/checkbox';
import { InputTextarea } from 'primereact/inputtextarea';
import { formatMoney } from '../../../domain/money';
import type { OpenStatementWire } from '../../../domain/ledger';
import { SelectField, type SelectOption } from '../prices/fields';
import { PAYMENTS_TEXTS as T } from './parts';

export interface CustomerPickerProps {
  value: string | null;
  /** The customers the search answered (the chosen one is kept among them by the page). */
  options: readonly SelectOption<string>[];
  loading: boolean;
  error: string | undefined;
  disabled: boolean;
  onSearch(text: string): void;
  onPick(id: string): void;
}

export function CustomerPicker(props: CustomerPickerProps) {
  return (
    <SelectField
      label={T.customerLabel}
      value={props.value}
      options={props.options}
      placeholder={T.customerPlaceholder}
      error={props.error}
      disabled={props.disabled}
      onChange={props.onPick}
      onSearch={props.onSearch}
      searchPlaceholder={T.customerSearch}
      emptyMessage={props.loading ? T.customerSearching : T.customerNone}
    />
  );
}

export const statementLabel = (s: OpenStatementWire) => `${s.number} \u00b7 due ${s.dueOn} \u00b7 ${formatMoney(s.openMinor, s.currency)} open`;

export interface StatementChoicesProps {
  currency: string;
  statements: readonly OpenStatementWire[];
  chosen: readonly string[];
  loading: boolean;
  error?: string | undefined;
  disabled: boolean;
  onToggle(statementId: string, checked: boolean): void;
}

export function StatementChoices(props: StatementChoicesProps) {
  const id = useId();
  return (
    <fieldset className="form-field payments-statements" disabled={props.disabled} aria-describedby={`${id}-hint`}>
      <legend>{T.statementsLegend}</legend>
      <small id={`${id}-hint`} className="cell-secondary">
        {T.statementsHint}
      </small>
      {props.loading ? (
        <p role="status">{T.statementsLoading}</p>
      ) : props.statements.length === 0 ? (
        <p>{T.noOpenStatements(props.currency)}</p>
      ) : (
        <ul className="payments-statement-list">
          {props.statements.map((statement) => (
            <li key={statement.statementId}>
              <Checkbox
                inputId={`${id}-${statement.statementId}`}
                checked={props.chosen.includes(statement.statementId)}
                disabled={props.disabled}
                onChange={(event) => props.onToggle(statement.statementId, event.checked === true)}
              />
              <label htmlFor={`${id}-${statement.statementId}`}>{statementLabel(statement)}</label>
              {statement.daysOverdue > 0 && <small className="payments-overdue">{statement.daysOverdue} days overdue</small>}
            </li>
          ))}
        </ul>
      )}
      {props.error && <small className="p-error">{props.error}</small>}
    </fieldset>
  );
}

export function ReasonField(props: { value: string; error: string | null | undefined; disabled: boolean; onChange(value: string): void }) {
  const id = useId();
  return (
    <div className="form-field">
      <label htmlFor={id}>{T.reasonLabel}</label>
      <InputTextarea
        id={id}
        value={props.value}
        rows={3}
        autoResize
        disabled={props.disabled}
        invalid={!!props.error}
        aria-invalid={!!props.error}
        aria-describedby={props.error ? `${id}-error` : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.error && (
        <small id={`${id}-error`} className="p-error">
          {props.error}
        </small>
      )}
    </div>
  );
}
