import { useId, type FormEvent, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { CustomerDialog } from './CustomerDialog';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import {
  EXPIRATION_DAY_CHOICES,
  PASSWORD_SETUP_VALID_DAYS,
  type CreateCustomerField,
  type CreateCustomerPayload,
  type FieldErrors,
} from '../../domain/customers';
import { daysLabel } from './format';

export type CreateTextField = Exclude<CreateCustomerField, 'expirationDays'>;

export interface CustomerCreateDialogProps {
  visible: boolean;
  /** The request is under way: "Creating Account...", Cancel and closing are disabled. */
  busy: boolean;
  form: CreateCustomerPayload;
  errors: FieldErrors<CreateCustomerField>;
  /** Why the last attempt failed, when it was not a field problem. */
  failure: string | null;
  onField(field: CreateTextField, value: string): void;
  onExpiration(days: number): void;
  onSubmit(): void;
  onCancel(): void;
}

export const EXPIRATION_OPTIONS = EXPIRATION_DAY_CHOICES.map((days) => ({ value: days, label: daysLabel(days) }));

/** A labelled field with its error beneath, wired for assistive technology. */
export function FormField({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error: string | undefined | null;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && !error && (
        <small id={`${id}-hint`} className="field-hint">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} className="field-error" role="alert">
          {error}
        </small>
      )}
    </div>
  );
}

/** Accessibility props of an input under FormField. */
export const fieldA11y = (id: string, error: string | undefined | null) => ({
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? `${id}-error` : undefined,
  invalid: !!error,
});

/** "Add New Customer" (spec sections 2 and 5). */
/** The Full Name and Email Address fields every account form starts with (customers, portal users). */
export function NameEmailFields(props: {
  ids: { name: string; email: string };
  form: { name: string; email: string };
  errors: { name?: string | undefined; email?: string | undefined };
  busy: boolean;
  limits?: { name: number; email: number };
  onField(field: 'name' | 'email', value: string): void;
}) {
  const { ids, form, errors, busy } = props;
  return (
    <>
      <FormField id={ids.name} label="Full Name" error={errors.name}>
        <InputText
          id={ids.name}
          name="name"
          autoComplete="name"
          {...(props.limits ? { maxLength: props.limits.name } : {})}
          value={form.name}
          disabled={busy}
          onChange={(event) => props.onField('name', event.target.value)}
          {...fieldA11y(ids.name, errors.name)}
        />
      </FormField>
      <FormField id={ids.email} label="Email Address" error={errors.email}>
        <InputText
          id={ids.email}
          name="email"
          type="email"
          autoComplete="email"
          {...(props.limits ? { maxLength: props.limits.email } : {})}
          value={form.email}
          disabled={busy}
          onChange={(event) => props.onField('email', event.target.value)}
          {...fieldA11y(ids.email, errors.email)}
        />
      </FormField>
    </>
  );
}

export function CustomerCreateDialog(props: CustomerCreateDialogProps) {
  const id = useId();
  const ids = { company: `${id}-company`, name: `${id}-name`, email: `${id}-email`, days: `${id}-days` };
  const { form, errors, busy } = props;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!busy) props.onSubmit();
  };

  const footer = (
    <div className="dialog-footer">
      <Button type="button" label="Cancel" outlined disabled={busy} onClick={props.onCancel} />
      <Button
        type="submit"
        form={`${id}-form`}
        label={busy ? 'Creating Account...' : 'Create Customer Account'}
        icon={busy ? 'pi pi-spin pi-spinner' : 'pi pi-user-plus'}
        disabled={busy}
      />
    </div>
  );

  return (
    <CustomerDialog header="Add New Customer" visible={props.visible} busy={busy} onClose={props.onCancel} footer={footer}>
      <form id={`${id}-form`} className="dialog-form" onSubmit={submit} noValidate aria-label="Add New Customer">
        {props.failure && <Message severity="error" text={props.failure} />}
        <FormField id={ids.company} label="Company Name" error={errors.company}>
          <InputText
            id={ids.company}
            name="company"
            autoComplete="organization"
            value={form.company}
            disabled={busy}
            onChange={(event) => props.onField('company', event.target.value)}
            {...fieldA11y(ids.company, errors.company)}
          />
        </FormField>
        <NameEmailFields ids={ids} form={form} errors={errors} busy={busy} onField={props.onField} />
        <FormField id={ids.days} label="Account Expiration (Days)" error={errors.expirationDays}>
          <Dropdown
            inputId={ids.days}
            value={form.expirationDays}
            options={EXPIRATION_OPTIONS}
            optionLabel="label"
            optionValue="value"
            disabled={busy}
            onChange={(event) => props.onExpiration(Number(event.value))}
            invalid={!!errors.expirationDays}
          />
        </FormField>
        <p className="dialog-note">
          <i className="pi pi-envelope" aria-hidden="true" />
          <span>
            A secure password setup link will be sent to the customer&apos;s email address. It is valid for{' '}
            {PASSWORD_SETUP_VALID_DAYS} days; the customer chooses their own password and then signs in.
          </span>
        </p>
      </form>
    </CustomerDialog>
  );
}
