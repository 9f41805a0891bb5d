// The provider accounts page's two dialogs: the account form (Add account and Edit: name, kind, the
// Starlink credentials or the simulated account, calls per minute, sync interval) and Delete's
// question. They render props and call callbacks; the steps are the provider accounts machine's states.
import { useId, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { RadioButton } from 'primereact/radiobutton';
import type { FieldErrors } from '../../domain/customers';
import {
  PROVIDER_ACCOUNT_LIMITS as L,
  type ProviderAccountFormField,
  type ProviderAccountFormValues,
  type ProviderAccountTextField,
  type ProviderAccountKind,
  type ProviderAccountWire,
  type SimulatedAccountWire,
} from '../../domain/provider-accounts';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { FieldError } from '../common/FieldError';
import { FormDialog } from '../common/FormDialog';
import { PROVIDER_ACCOUNT_TEXTS as T } from './parts';
import './provider-accounts.css';


export interface ProviderAccountFormDialogProps {
  visible: boolean;
  mode: 'create' | 'edit';
  form: ProviderAccountFormValues;
  errors: FieldErrors<ProviderAccountFormField>;
  failure: string | null;
  /** The simulator's accounts; the simulator kind is offered only when there are some (or the account edited is one). */
  simulated: readonly SimulatedAccountWire[];
  /** The account edited: whether it keeps a secret, and which simulated account is its own. */
  target: ProviderAccountWire | null;
  /** Names a portal account by its id ("Used by Brazil"). */
  accountName(id: number): string;
  choicesLoading: boolean;
  choicesFailed: boolean;
  busy: boolean;
  onField(field: ProviderAccountTextField, value: string): void;
  onKind(kind: ProviderAccountKind): void;
  onSimulated(slug: string): void;
  onRetry(): void;
  onSubmit(): void;
  onCancel(): void;
}

/** A labelled field, its help under it, and its problem under that; the input names both. */
function Field(props: { id: string; label: string; hint?: ReactNode; error: string | undefined; children: (a11y: FieldA11y) => ReactNode }) {
  const { id, hint, error } = props;
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="form-field">
      <label htmlFor={id}>{props.label}</label>
      {props.children({ id, invalid: error !== undefined, 'aria-invalid': error !== undefined, 'aria-describedby': describedBy || undefined })}
      {hint && (
        <small id={`${id}-hint`} className="cell-secondary">
          {hint}
        </small>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

interface FieldA11y {
  id: string;
  invalid: boolean;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

function TextField(props: {
  id: string;
  label: string;
  field: ProviderAccountTextField;
  value: string;
  error: string | undefined;
  hint?: ReactNode;
  maxLength?: number;
  type?: 'text' | 'password' | 'url';
  inputMode?: 'numeric';
  placeholder?: string;
  autoComplete?: string;
  busy: boolean;
  onField(field: ProviderAccountTextField, value: string): void;
}) {
  return (
    <Field id={props.id} label={props.label} hint={props.hint} error={props.error}>
      {(a11y) => (
        <InputText
          {...a11y}
          type={props.type ?? 'text'}
          value={props.value}
          maxLength={props.maxLength}
          inputMode={props.inputMode}
          placeholder={props.placeholder}
          autoComplete={props.autoComplete ?? 'off'}
          disabled={props.busy}
          onChange={(e) => props.onField(props.field, e.target.value)}
        />
      )}
    </Field>
  );
}

function SimulatedChoice(props: ProviderAccountFormDialogProps & { id: string }) {
  const { id, form, errors } = props;
  const options = props.simulated.map((s) => {
    const usedByOther = s.usedBy !== null && s.usedBy !== props.target?.id;
    const label = T.simulatedOption(s.name, s.currency, s.terminals);
    return { value: s.slug, label: usedByOther ? `${label}: ${T.usedBy(props.accountName(s.usedBy!))}` : label, disabled: usedByOther };
  });
  return (
    <Field id={`${id}-simulated`} label={T.simulatedAccount} error={errors.simulatorAccount}>
      {(a11y) => (
        <Dropdown
          inputId={a11y.id}
          value={form.simulatorAccount || null}
          options={options}
          optionLabel="label"
          optionValue="value"
          optionDisabled="disabled"
          placeholder={T.chooseSimulated}
          disabled={props.busy}
          invalid={a11y.invalid}
          aria-invalid={a11y['aria-invalid']}
          aria-describedby={a11y['aria-describedby']}
          onChange={(event) => props.onSimulated(String(event.value))}
        />
      )}
    </Field>
  );
}

function StarlinkFields(props: ProviderAccountFormDialogProps & { id: string }) {
  const { id, form, errors, busy } = props;
  const editing = props.mode === 'edit';
  const stored = props.target?.kind === 'starlink' && props.target.hasSecret;
  const secretHint = editing ? `${stored ? T.secretStored : T.noSecretStored} ${T.secretHintEdit}` : T.secretHintNew;
  const common = { busy, onField: props.onField };
  return (
    <>
      <TextField {...common} id={`${id}-api-url`} label="API URL" field="apiUrl" type="url" value={form.apiUrl} error={errors.apiUrl} maxLength={L.url} placeholder="https://web-api.starlink.com" />
      <TextField
        {...common}
        id={`${id}-token-url`}
        label="Token URL"
        field="tokenUrl"
        type="url"
        value={form.tokenUrl}
        error={errors.tokenUrl}
        maxLength={L.url}
        hint={T.tokenUrlHint(form.apiUrl)}
      />
      <TextField {...common} id={`${id}-client-id`} label="Client ID" field="clientId" value={form.clientId} error={errors.clientId} maxLength={L.clientId} />
      <TextField
        {...common}
        id={`${id}-client-secret`}
        label="Client secret"
        field="clientSecret"
        type="password"
        autoComplete="new-password"
        value={form.clientSecret}
        error={errors.clientSecret}
        maxLength={L.clientSecret}
        hint={secretHint}
      />
    </>
  );
}

function KindChoice(props: ProviderAccountFormDialogProps & { id: string }) {
  const { id, form, busy } = props;
  // The simulator is a choice only where it serves accounts (none once a real provider is set up).
  const kinds: ProviderAccountKind[] = props.simulated.length > 0 || form.kind === 'simulator' ? ['starlink', 'simulator'] : ['starlink'];
  if (kinds.length === 1) return null;
  return (
    <fieldset className="form-field provider-account-kinds" disabled={busy}>
      <legend>{T.kind}</legend>
      {kinds.map((kind) => (
        <div key={kind} className="checkbox-row">
          <RadioButton inputId={`${id}-kind-${kind}`} name={`${id}-kind`} value={kind} checked={form.kind === kind} disabled={busy} onChange={() => props.onKind(kind)} />
          <label htmlFor={`${id}-kind-${kind}`}>{T.kindLabels[kind]}</label>
        </div>
      ))}
    </fieldset>
  );
}

export function ProviderAccountFormDialog(props: ProviderAccountFormDialogProps) {
  const id = useId();
  const { form, errors, busy } = props;
  const ready = !props.choicesLoading && !props.choicesFailed;
  const editing = props.mode === 'edit';
  const common = { busy, onField: props.onField };
  return (
    <FormDialog
      header={editing ? T.editTitle : T.addTitle}
      visible={props.visible}
      busy={busy}
      wide
      submitLabel={editing ? T.save : T.add}
      busyLabel={editing ? T.saving : T.adding}
      submitDisabled={!ready}
      failure={props.failure}
      onSubmit={props.onSubmit}
      onCancel={props.onCancel}
    >
      {props.choicesLoading ? (
        <p role="status">{T.choicesLoading}</p>
      ) : props.choicesFailed ? (
        <div className="form-field">
          <Button type="button" label={T.retry} icon="pi pi-refresh" outlined onClick={props.onRetry} />
        </div>
      ) : (
        <>
          <TextField {...common} id={`${id}-name`} label="Name" field="name" value={form.name} error={errors.name} maxLength={L.name} placeholder="Brazil (BRL)" />
          <KindChoice {...props} id={id} />
          {form.kind === 'simulator' ? <SimulatedChoice {...props} id={id} /> : <StarlinkFields {...props} id={id} />}
          <TextField
            {...common}
            id={`${id}-rpm`}
            label="Calls per minute"
            field="requestsPerMinute"
            inputMode="numeric"
            value={form.requestsPerMinute}
            error={errors.requestsPerMinute}
            hint={T.requestsHint(L.requestsPerMinute.max)}
          />
          <TextField
            {...common}
            id={`${id}-sync`}
            label="Sync every N minutes"
            field="syncIntervalMinutes"
            inputMode="numeric"
            value={form.syncIntervalMinutes}
            error={errors.syncIntervalMinutes}
            hint={T.syncHint}
          />
        </>
      )}
    </FormDialog>
  );
}

export interface DeleteProviderAccountDialogProps {
  visible: boolean;
  account: ProviderAccountWire | null;
  failure: string | null;
  busy: boolean;
  onConfirm(): void;
  onClose(): void;
}

export function DeleteProviderAccountDialog(props: DeleteProviderAccountDialogProps) {
  return (
    <ConfirmDialog
      header={T.deleteTitle}
      visible={props.visible}
      busy={props.busy}
      confirmLabel={T.delete}
      busyLabel={T.deleting}
      failure={props.failure}
      onConfirm={props.onConfirm}
      onClose={props.onClose}
    >
      <p>{props.account ? T.deleteQuestion(props.account.name) : ''}</p>
    </ConfirmDialog>
  );
}
