// The users page's dialogs: Add User / Edit User, and the row actions' dialogs (block reason,
// extend days, and the confirmations). Which action dialog shows, at which step, is the `step` prop.
import { useId, type FormEvent, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputTextarea } from 'primereact/inputtextarea';
import { Message } from 'primereact/message';
import { Password } from 'primereact/password';
import { CustomerDialog } from '../customers/CustomerDialog';
import { FormField, NameEmailFields, fieldA11y } from '../customers/CustomerCreateDialog';
import { formatDate } from '../customers/format';
import type { FieldErrors } from '../../domain/customers';
import { USER_EXTENSION_DAY_CHOICES, USER_FIELD_LIMITS, type PortalUser, type UserFormField } from '../../domain/users';
import '../customers/customers.css';

// ---- Add User / Edit User ---------------------------------------------------------------------

export interface UserFormDialogProps {
  visible: boolean;
  mode: 'create' | 'edit';
  /** As typed; `password` is offered in Add User only. */
  form: { name: string; email: string; roleIds: readonly string[]; password: string };
  /** The roles to choose from (GET /roles); null while they load, with why when they could not be. */
  roles: readonly UserRoleOption[] | null;
  rolesError?: string | null;
  errors: FieldErrors<UserFormField>;
  /** Why the last save failed when it was no field's fault. */
  failure: string | null;
  busy: boolean;
  onField(field: Exclude<UserFormField, 'roles'>, value: string): void;
  onRoles(roleIds: string[]): void;
  onSubmit(): void;
  onCancel(): void;
}

export interface UserRoleOption {
  id: string;
  name: string;
  description: string;
  /** The editor holds every permission it gives: they may hand it out (the server refuses the rest). */
  grantable: boolean;
}

export const USER_ROLES_TEXTS = {
  label: 'Roles',
  hint: 'What the user may do is what any of their roles allows. Roles you cannot grant are greyed out.',
  loading: 'Loading roles...',
} as const;

/** One checkbox per role, each with what it is for. */
function RolePicker(props: { id: string; roles: readonly UserRoleOption[] | null; loadError: string | null; chosen: readonly string[]; fieldError: string | undefined; busy: boolean; onRoles(roleIds: string[]): void }) {
  const { id, roles, chosen } = props;
  const describedBy = props.fieldError ? `${id}-error` : `${id}-hint`;
  return (
    <fieldset className="form-field user-roles" aria-describedby={describedBy} aria-invalid={props.fieldError ? true : undefined}>
      <legend>{USER_ROLES_TEXTS.label}</legend>
      {props.loadError ? (
        <Message severity="error" text={props.loadError} />
      ) : roles === null ? (
        <p role="status" className="field-hint">
          {USER_ROLES_TEXTS.loading}
        </p>
      ) : (
        <div className="user-roles-list">
          {roles.map((role) => {
            const checked = chosen.includes(role.id);
            return (
              <div key={role.id} className="user-role-option">
                <Checkbox
                  inputId={`${id}-${role.id}`}
                  checked={checked}
                  // A role held already stays removable; one not held is offered only when it may be granted.
                  disabled={props.busy || (!role.grantable && !checked)}
                  aria-describedby={role.description ? `${id}-${role.id}-about` : undefined}
                  onChange={(event) => props.onRoles(event.checked ? [...chosen, role.id] : chosen.filter((roleId) => roleId !== role.id))}
                />
                <span>
                  <label htmlFor={`${id}-${role.id}`}>{role.name}</label>
                  {role.description && (
                    <small id={`${id}-${role.id}-about`} className="field-hint">
                      {role.description}
                    </small>
                  )}
                </span>
              </div>
            );
          })}
        </div>
      )}
      {!props.fieldError && (
        <small id={`${id}-hint`} className="field-hint">
          {USER_ROLES_TEXTS.hint}
        </small>
      )}
      {props.fieldError && (
        <small id={`${id}-error`} className="field-error" role="alert">
          {props.fieldError}
        </small>
      )}
    </fieldset>
  );
}
export const SETUP_LINK_NOTE = 'Leave empty to email the user a link to choose their own password.';

export function UserFormDialog(props: UserFormDialogProps) {
  const id = useId();
  const { form, errors, busy } = props;
  const header = props.mode === 'create' ? 'Add User' : 'Edit User';
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!busy) props.onSubmit();
  };
  const ids = { name: `${id}-name`, email: `${id}-email`, role: `${id}-role`, password: `${id}-password` };
  return (
    <CustomerDialog
      header={header}
      visible={props.visible}
      busy={busy}
      onClose={props.onCancel}
      footer={
        <div className="dialog-footer">
          <Button type="button" label="Cancel" outlined disabled={busy} onClick={props.onCancel} />
          <Button
            type="submit"
            form={`${id}-form`}
            label={busy ? 'Saving...' : props.mode === 'create' ? 'Create User' : 'Save Changes'}
            icon={busy ? 'pi pi-spin pi-spinner' : 'pi pi-check'}
            disabled={busy}
          />
        </div>
      }
    >
      <form id={`${id}-form`} className="dialog-form" onSubmit={submit} noValidate aria-label={header}>
        {props.failure && <Message severity="error" text={props.failure} />}
        <NameEmailFields ids={ids} form={form} errors={errors} busy={busy} limits={USER_FIELD_LIMITS} onField={props.onField} />
        <RolePicker id={ids.role} roles={props.roles} loadError={props.rolesError ?? null} chosen={form.roleIds} fieldError={errors.roles} busy={busy} onRoles={props.onRoles} />
        {props.mode === 'create' && (
          <FormField id={ids.password} label="Initial Password (optional)" error={errors.password} hint={SETUP_LINK_NOTE}>
            <Password
              inputId={ids.password}
              name="password"
              autoComplete="new-password"
              feedback={false}
              toggleMask
              value={form.password}
              disabled={busy}
              onChange={(event) => props.onField('password', event.target.value)}
              invalid={!!errors.password}
              aria-invalid={errors.password ? true : undefined}
              aria-describedby={errors.password ? `${ids.password}-error` : `${ids.password}-hint`}
            />
          </FormField>
        )}
      </form>
    </CustomerDialog>
  );
}

// ---- Row action dialogs ------------------------------------------------------------------------

export type UserConfirmAction = 'unblock' | 'disableMfa' | 'resetAttempts' | 'delete' | 'hardDelete' | 'restore';

interface StepBase {
  user: PortalUser;
  /** The server's refusal of the last attempt, shown in the dialog. */
  failure: string | null;
  busy: boolean;
}

export type UserActionStep =
  | { kind: 'closed' }
  | ({ kind: 'block'; reason: string; reasonError: string | null } & StepBase)
  | ({ kind: 'extend'; days: number } & StepBase)
  | ({ kind: 'confirm'; action: UserConfirmAction } & StepBase);

export interface UserActionDialogProps {
  step: UserActionStep;
  onClose(): void;
  onReason(value: string): void;
  onDays(days: number): void;
  onConfirm(): void;
}

const CONFIRMS: Record<
  UserConfirmAction,
  { header: string; question: (name: string) => ReactNode; label: string; busyLabel: string; icon: string; danger: boolean }
> = {
  unblock: {
    header: 'Unblock User',
    question: (name) => <>Unblock <strong>{name}</strong>? They will be able to sign in again.</>,
    label: 'Unblock',
    busyLabel: 'Unblocking...',
    icon: 'pi pi-lock-open',
    danger: false,
  },
  disableMfa: {
    header: 'Disable MFA',
    question: (name) => <>Disable multi-factor authentication for <strong>{name}</strong>? They will sign in with their password alone until they set it up again.</>,
    label: 'Disable MFA',
    busyLabel: 'Disabling...',
    icon: 'pi pi-shield',
    danger: true,
  },
  resetAttempts: {
    header: 'Reset Login Attempts',
    question: (name) => <>Reset the failed login attempts of <strong>{name}</strong>? A locked account can sign in again at once.</>,
    label: 'Reset',
    busyLabel: 'Resetting...',
    icon: 'pi pi-undo',
    danger: false,
  },
  delete: {
    header: 'Delete User',
    question: (name) => <>Delete <strong>{name}</strong>? They will not be able to sign in; the account can be restored later.</>,
    label: 'Delete',
    busyLabel: 'Deleting...',
    icon: 'pi pi-trash',
    danger: true,
  },
  hardDelete: {
    header: 'Delete Permanently',
    question: (name) => <>Permanently delete <strong>{name}</strong>? This cannot be undone.</>,
    label: 'Delete permanently',
    busyLabel: 'Deleting...',
    icon: 'pi pi-times-circle',
    danger: true,
  },
  restore: {
    header: 'Restore User',
    question: (name) => <>Restore <strong>{name}</strong>? The account comes back as it was when deleted.</>,
    label: 'Restore',
    busyLabel: 'Restoring...',
    icon: 'pi pi-replay',
    danger: false,
  },
};

const DAY_OPTIONS = USER_EXTENSION_DAY_CHOICES.map((days) => ({ value: days, label: `${days} days` }));

function ActionFrame(props: {
  header: string;
  step: Exclude<UserActionStep, { kind: 'closed' }>;
  confirmLabel: string;
  busyLabel: string;
  icon: string;
  danger: boolean;
  onClose(): void;
  onConfirm(): void;
  children: ReactNode;
}) {
  const { busy, failure } = props.step;
  return (
    <CustomerDialog
      header={props.header}
      busy={busy}
      onClose={props.onClose}
      footer={
        <div className="dialog-footer">
          <Button type="button" label="Cancel" outlined disabled={busy} onClick={props.onClose} />
          <Button
            type="button"
            label={busy ? props.busyLabel : props.confirmLabel}
            icon={busy ? 'pi pi-spin pi-spinner' : props.icon}
            severity={props.danger ? 'danger' : undefined}
            disabled={busy}
            onClick={props.onConfirm}
          />
        </div>
      }
    >
      {failure && <Message severity="error" text={failure} className="dialog-message" />}
      {props.children}
    </CustomerDialog>
  );
}

export function UserActionDialog(props: UserActionDialogProps) {
  const id = useId();
  const { step } = props;
  if (step.kind === 'closed') return null;
  const name = step.user.name || step.user.email;

  if (step.kind === 'block') {
    const reasonId = `${id}-reason`;
    return (
      <ActionFrame header="Block User" step={step} confirmLabel="Block User" busyLabel="Blocking..." icon="pi pi-ban" danger onClose={props.onClose} onConfirm={props.onConfirm}>
        <div className="dialog-form">
          <p>
            Blocking <strong>{name}</strong> ({step.user.email}) stops them signing in. The reason is shown on the users list.
          </p>
          <FormField id={reasonId} label="Reason" error={step.reasonError} hint={`${step.reason.trim().length} / ${USER_FIELD_LIMITS.blockedReason} characters`}>
            <InputTextarea
              id={reasonId}
              name="reason"
              rows={3}
              autoResize
              value={step.reason}
              disabled={step.busy}
              onChange={(event) => props.onReason(event.target.value)}
              {...fieldA11y(reasonId, step.reasonError)}
            />
          </FormField>
        </div>
      </ActionFrame>
    );
  }

  if (step.kind === 'extend') {
    const daysId = `${id}-days`;
    return (
      <ActionFrame header="Extend Expiration" step={step} confirmLabel="Extend" busyLabel="Extending..." icon="pi pi-calendar-plus" danger={false} onClose={props.onClose} onConfirm={props.onConfirm}>
        <div className="dialog-form">
          <p>
            {step.user.accountExpiresAt ? (
              <>
                <strong>{name}</strong>&apos;s account expires on {formatDate(step.user.accountExpiresAt)}. The days are added to the later of today and that date.
              </>
            ) : (
              <>
                <strong>{name}</strong>&apos;s account has no expiration set. The days are counted from today.
              </>
            )}
          </p>
          <FormField id={daysId} label="Extend by" error={null}>
            <Dropdown
              inputId={daysId}
              value={step.days}
              options={DAY_OPTIONS}
              optionLabel="label"
              optionValue="value"
              disabled={step.busy}
              onChange={(event) => props.onDays(Number(event.value))}
            />
          </FormField>
        </div>
      </ActionFrame>
    );
  }

  const confirm = CONFIRMS[step.action];
  return (
    <ActionFrame
      header={confirm.header}
      step={step}
      confirmLabel={confirm.label}
      busyLabel={confirm.busyLabel}
      icon={confirm.icon}
      danger={confirm.danger}
      onClose={props.onClose}
      onConfirm={props.onConfirm}
    >
      <div className="confirm-body">
        <i className={`pi ${confirm.danger ? 'pi-exclamation-triangle' : 'pi-question-circle'} confirm-icon`} aria-hidden="true" />
        <div>
          <p>{confirm.question(name)}</p>
          {step.action === 'unblock' && step.user.blockedReason && <p className="text-muted">Blocked for: {step.user.blockedReason}</p>}
        </div>
      </div>
    </ActionFrame>
  );
}
