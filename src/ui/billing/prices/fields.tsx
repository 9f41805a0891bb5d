// The Prices dialogs' parts: their frame (the shared form dialog), a text box and a drop-down, each with its problem
// under it (announced through aria-describedby) and an optional hint.
import { useId, type ReactNode } from 'react';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { FormDialog } from '../../common/FormDialog';
import { PRICES_TEXTS as T } from './parts';

interface FieldProps {
  label: string;
  error: string | undefined;
  hint?: string;
  disabled: boolean;
}

function Describe({ id, error, hint }: { id: string; error: string | undefined; hint: string | undefined }) {
  return (
    <>
      {hint && (
        <small id={`${id}-hint`} className="cell-secondary">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} className="p-error">
          {error}
        </small>
      )}
    </>
  );
}

const describedBy = (id: string, error: string | undefined, hint: string | undefined) =>
  [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;

export function TextField(props: FieldProps & { value: string; type?: 'text' | 'date'; placeholder?: string; maxLength?: number; inputMode?: 'decimal' | 'text'; onChange(value: string): void }) {
  const id = useId();
  return (
    <div className="form-field">
      <label htmlFor={id}>{props.label}</label>
      <InputText
        id={id}
        type={props.type ?? 'text'}
        value={props.value}
        placeholder={props.placeholder}
        maxLength={props.maxLength}
        inputMode={props.inputMode}
        disabled={props.disabled}
        invalid={props.error !== undefined}
        aria-invalid={props.error !== undefined}
        aria-describedby={describedBy(id, props.error, props.hint)}
        onChange={(event) => props.onChange(event.target.value)}
      />
      <Describe id={id} error={props.error} hint={props.hint} />
    </div>
  );
}

export interface SelectOption<T extends string> {
  label: string;
  value: T;
}

/**
 * A labelled drop-down found by role (PrimeReact 10.9 gives no element the combobox role: the
 * visible box takes it with the label, as LabelledSelect does). With `onSearch`, the list has a
 * search box whose text goes to the page, which answers with the options.
 */
export function SelectField<T extends string>(
  props: FieldProps & {
    value: T | null;
    options: readonly SelectOption<T>[];
    placeholder?: string;
    onChange(value: T): void;
    onSearch?: (text: string) => void;
    searchPlaceholder?: string;
    emptyMessage?: string;
  },
) {
  const id = useId();
  const labelId = `${id}-label`;
  return (
    <div className="form-field">
      <label id={labelId} htmlFor={id}>
        {props.label}
      </label>
      <Dropdown
        role="combobox"
        pt={{
          root: ({ state }: { state: { overlayVisible: boolean } }) => ({
            'aria-labelledby': labelId,
            'aria-expanded': state.overlayVisible,
            'aria-invalid': props.error !== undefined,
            'aria-describedby': describedBy(id, props.error, props.hint),
          }),
        }}
        inputId={id}
        value={props.value}
        options={[...props.options]}
        optionLabel="label"
        optionValue="value"
        placeholder={props.placeholder}
        disabled={props.disabled}
        invalid={props.error !== undefined}
        onChange={(event) => props.onChange(event.value as T)}
        {...(props.onSearch
          ? {
              filter: true,
              filterPlaceholder: props.searchPlaceholder,
              // The page asks the server; the drop-down shows what it answers as it is.
              filterMatchMode: 'contains' as const,
              onFilter: (event: { filter: string }) => props.onSearch?.(event.filter),
              emptyFilterMessage: props.emptyMessage,
              emptyMessage: props.emptyMessage,
            }
          : {})}
      />
      <Describe id={id} error={props.error} hint={props.hint} />
    </div>
  );
}

export interface TextFieldOptions {
  type?: 'date';
  placeholder?: string;
  hint?: string;
  decimal?: boolean;
}

/** A dialog's text fields, each bound to its form's value, its error and its change. */
export function textFieldsOf<F extends string>(bound: { form: Record<F, string>; errors: Partial<Record<F, string>>; busy: boolean; onField(field: F, value: string): void }) {
  return (field: F, label: string, extra: TextFieldOptions = {}) => (
    <TextField
      label={label}
      value={bound.form[field]}
      error={bound.errors[field]}
      disabled={bound.busy}
      {...(extra.type ? { type: extra.type } : {})}
      {...(extra.placeholder ? { placeholder: extra.placeholder } : {})}
      {...(extra.hint ? { hint: extra.hint } : {})}
      {...(extra.decimal ? { inputMode: 'decimal' as const } : {})}
      onChange={(value) => bound.onField(field, value)}
    />
  );
}

/** The Prices dialogs' frame: the form, its failure above the fields, Cancel and Save. */
export function PriceFormDialog(props: { header: string; visible: boolean; busy: boolean; failure: string | null; onSubmit(): void; onCancel(): void; children: ReactNode }) {
  return <FormDialog {...props} wide submitLabel="Save" busyLabel={T.saving} />;
}
