// The API keys page's three dialogs: New API key (name, role, expiry, allow-list), the new key shown
// once with Copy (the shared shown-once dialog), and Revoke's question. They render props and call callbacks; the steps are the
// API keys machine's states.
import { useId } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { RadioButton } from 'primereact/radiobutton';
import { API_KEY_LIMITS, type ApiKeyWire } from '../../domain/api-keys';
import type { FieldErrors } from '../../domain/customers';
import type { RoleWire } from '../../domain/permissions';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { FieldError } from '../common/FieldError';
import { FormDialog } from '../common/FormDialog';
import { ShownOnceSecretDialog, type CopyState, type ShownOnceSecretTexts } from '../common/ShownOnceSecretDialog';
import { API_KEY_TEXTS as T } from './parts';

export type ApiKeyFormField = 'name' | 'roleId' | 'expiresOn' | 'allowList';

/** The form as the dialog shows it (the API keys machine's context has this shape). */
export interface ApiKeyFormValues {
  name: string;
  roleId: string;
  expiresOn: string;
  allowList: string;
}

export interface ApiKeyFormDialogProps {
  visible: boolean;
  form: ApiKeyFormValues;
  errors: FieldErrors<ApiKeyFormField>;
  failure: string | null;
  roles: readonly RoleWire[];
  /** Whether the signed-in user may give a role: every permission it grants is theirs. */
  canGrant(role: RoleWire): boolean;
  rolesLoading: boolean;
  rolesFailed: boolean;
  busy: boolean;
  /** The earliest expiry day the date field offers (today). */
  today: string;
  onField(field: 'name' | 'expiresOn' | 'allowList', value: string): void;
  onRole(roleId: string): void;
  onRetry(): void;
  onSubmit(): void;
  onCancel(): void;
}

function RoleChoices(props: ApiKeyFormDialogProps & { id: string }) {
  const { id, errors } = props;
  if (props.rolesLoading) return <p role="status">{T.rolesLoading}</p>;
  if (props.rolesFailed) {
    return (
      <div className="form-field">
        <Button type="button" label={T.retry} icon="pi pi-refresh" outlined onClick={props.onRetry} />
      </div>
    );
  }
  return (
    <fieldset className="form-field api-key-roles" disabled={props.busy} aria-describedby={errors.roleId ? `${id}-role-error` : undefined}>
      <legend>Role</legend>
      {props.roles.map((role) => {
        const allowed = props.canGrant(role);
        return (
          <div key={role.id} className="checkbox-row">
            <RadioButton
              inputId={`${id}-role-${role.id}`}
              name={`${id}-role`}
              value={role.id}
              checked={props.form.roleId === role.id}
              disabled={props.busy || !allowed}
              aria-describedby={`${id}-role-${role.id}-help`}
              onChange={() => props.onRole(role.id)}
            />
            <label htmlFor={`${id}-role-${role.id}`}>{role.name}</label>
            <small id={`${id}-role-${role.id}-help`} className="cell-secondary">
              {allowed ? role.description : T.beyondYou}
            </small>
          </div>
        );
      })}
      <FieldError id={`${id}-role-error`} message={errors.roleId} />
    </fieldset>
  );
}

export function ApiKeyFormDialog(props: ApiKeyFormDialogProps) {
  const id = useId();
  const { form, errors, busy } = props;
  const ready = !props.rolesLoading && !props.rolesFailed;
  return (
    <FormDialog
      header={T.formTitle}
      visible={props.visible}
      busy={busy}
      wide
      submitLabel={T.create}
      busyLabel={T.creating}
      submitDisabled={!ready}
      failure={props.failure}
      onSubmit={props.onSubmit}
      onCancel={props.onCancel}
    >
      <div className="form-field">
        <label htmlFor={`${id}-name`}>Name</label>
        <InputText
          id={`${id}-name`}
          value={form.name}
          placeholder="ERP integration"
          maxLength={API_KEY_LIMITS.name}
          disabled={busy}
          invalid={errors.name !== undefined}
          aria-invalid={errors.name !== undefined}
          aria-describedby={errors.name ? `${id}-name-error` : undefined}
          onChange={(e) => props.onField('name', e.target.value)}
        />
        <FieldError id={`${id}-name-error`} message={errors.name} />
      </div>
      <RoleChoices {...props} id={id} />
      <div className="form-field">
        <label htmlFor={`${id}-expires`}>Expires on</label>
        <InputText
          id={`${id}-expires`}
          type="date"
          value={form.expiresOn}
          min={props.today}
          disabled={busy}
          invalid={errors.expiresOn !== undefined}
          aria-invalid={errors.expiresOn !== undefined}
          aria-describedby={`${id}-expires-hint${errors.expiresOn ? ` ${id}-expires-error` : ''}`}
          onChange={(e) => props.onField('expiresOn', e.target.value)}
        />
        <small id={`${id}-expires-hint`} className="cell-secondary">
          {T.expiryHint}
        </small>
        <FieldError id={`${id}-expires-error`} message={errors.expiresOn} />
      </div>
      <div className="form-field">
        <label htmlFor={`${id}-ips`}>Allowed addresses</label>
        <InputTextarea
          id={`${id}-ips`}
          value={form.allowList}
          rows={3}
          placeholder={'203.0.113.7\n198.51.100.0/24\n2001:db8::/32'}
          className="cell-mono"
          disabled={busy}
          invalid={errors.allowList !== undefined}
          aria-invalid={errors.allowList !== undefined}
          aria-describedby={`${id}-ips-hint${errors.allowList ? ` ${id}-ips-error` : ''}`}
          onChange={(e) => props.onField('allowList', e.target.value)}
        />
        <small id={`${id}-ips-hint`} className="cell-secondary">
          {T.allowListHint}
        </small>
        <FieldError id={`${id}-ips-error`} message={errors.allowList} />
      </div>
    </FormDialog>
  );
}

const SECRET_TEXTS: ShownOnceSecretTexts = {
  title: T.secretTitle,
  label: T.secretLabel,
  once: T.secretOnce,
  copy: T.copy,
  copied: T.copied,
  copyFailed: T.copyFailed,
};

export interface ApiKeySecretDialogProps {
  visible: boolean;
  created: ApiKeyWire | null;
  secret: string;
  copy: CopyState;
  onCopy(): void;
  onClose(): void;
}

export function ApiKeySecretDialog({ created, ...rest }: ApiKeySecretDialogProps) {
  return (
    <ShownOnceSecretDialog texts={SECRET_TEXTS} {...rest}>
      {created && (
        <p>
          <strong>{created.name}</strong> ({created.role.name})
        </p>
      )}
    </ShownOnceSecretDialog>
  );
}

export interface RevokeApiKeyDialogProps {
  visible: boolean;
  apiKey: ApiKeyWire | null;
  failure: string | null;
  busy: boolean;
  onConfirm(): void;
  onClose(): void;
}

export function RevokeApiKeyDialog(props: RevokeApiKeyDialogProps) {
  return (
    <ConfirmDialog
      header={T.revokeTitle}
      visible={props.visible}
      busy={props.busy}
      confirmLabel={T.revoke}
      busyLabel={T.revoking}
      failure={props.failure}
      onConfirm={props.onConfirm}
      onClose={props.onClose}
    >
      <p>{props.apiKey ? T.revokeQuestion(props.apiKey.name) : ''}</p>
      {props.apiKey && <p className="cell-mono cell-secondary">{props.apiKey.prefix}…</p>}
    </ConfirmDialog>
  );
}
