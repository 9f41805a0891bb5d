// The roles page's dialogs: New role / Edit role (name, description, and none | read | manage on
// each area, the levels the user may not give greyed out) and the confirmation of Delete.
import { useId, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { Message } from 'primereact/message';
import { RadioButton } from 'primereact/radiobutton';
import { AREAS, AREA_HELP, AREA_LABELS, ROLE_LIMITS, type Area } from '../../domain/permissions';
import { AREA_LEVELS, AREA_LEVEL_LABELS, type AreaLevel, type RoleFormField, type RoleFormValues } from '../../domain/roles';
import type { FieldErrors } from '../../domain/customers';
import { CustomerDialog } from '../customers/CustomerDialog';
import { FormField } from '../customers/CustomerCreateDialog';
import { ROLES_TEXTS as T } from './parts';
import '../customers/customers.css';
import './roles.css';

export interface RoleFormDialogProps {
  visible: boolean;
  mode: 'create' | 'edit';
  form: RoleFormValues;
  errors: FieldErrors<RoleFormField>;
  /** Why the last save failed when it was no field's fault (an escalation the server refused). */
  failure: string | null;
  busy: boolean;
  /** Which level of each area the user may give (what they hold themselves). */
  grantable: Readonly<Record<Area, Readonly<Record<AreaLevel, boolean>>>>;
  onField(field: 'name' | 'description', value: string): void;
  onLevel(area: Area, level: AreaLevel): void;
  onSubmit(): void;
  onCancel(): void;
}

export function RoleFormDialog(props: RoleFormDialogProps) {
  const id = useId();
  const { form, errors, busy } = props;
  const header = props.mode === 'create' ? T.createHeader : T.editHeader;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!busy) props.onSubmit();
  };
  const ids = { name: `${id}-name`, description: `${id}-description`, grid: `${id}-grid` };
  return (
    <CustomerDialog
      header={header}
      visible={props.visible}
      busy={busy}
      wide
      onClose={props.onCancel}
      footer={
        <div className="dialog-footer">
          <Button type="button" label={T.cancel} outlined disabled={busy} onClick={props.onCancel} />
          <Button type="submit" form={`${id}-form`} label={busy ? T.saving : T.save} icon={busy ? 'pi pi-spin pi-spinner' : 'pi pi-check'} disabled={busy} />
        </div>
      }
    >
      <form id={`${id}-form`} className="dialog-form" onSubmit={submit} noValidate aria-label={header}>
        {props.failure && <Message severity="error" text={props.failure} />}
        <FormField id={ids.name} label={T.nameLabel} error={errors.name}>
          <InputText
            id={ids.name}
            value={form.name}
            maxLength={ROLE_LIMITS.name}
            disabled={busy}
            invalid={!!errors.name}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? `${ids.name}-error` : undefined}
            onChange={(event) => props.onField('name', event.target.value)}
          />
        </FormField>
        <FormField id={ids.description} label={T.descriptionLabel} error={errors.description}>
          <InputTextarea
            id={ids.description}
            value={form.description}
            rows={2}
            maxLength={ROLE_LIMITS.description}
            disabled={busy}
            invalid={!!errors.description}
            aria-describedby={errors.description ? `${ids.description}-error` : undefined}
            onChange={(event) => props.onField('description', event.target.value)}
          />
        </FormField>
        <fieldset className="role-grid" aria-describedby={errors.permissions ? `${ids.grid}-error` : `${ids.grid}-hint`}>
          <legend>{T.gridLabel}</legend>
          <small id={`${ids.grid}-hint`} className="field-hint">
            {T.gridHint}
          </small>
          {AREAS.map((area) => (
            <fieldset key={area} className="role-grid-row" aria-label={AREA_LABELS[area]}>
              <span>
                <span className="role-name">{AREA_LABELS[area]}</span>
                <small className="role-description">{AREA_HELP[area]}</small>
              </span>
              <span className="role-grid-levels">
                {AREA_LEVELS.map((level) => {
                  const inputId = `${id}-${area}-${level}`;
                  // Audit has nothing to manage: its manage is not offered at all.
                  if (level === 'manage' && area === 'audit') return null;
                  return (
                    <span key={level} className="role-grid-level">
                      <RadioButton
                        inputId={inputId}
                        name={`${id}-${area}`}
                        value={level}
                        checked={form.levels[area] === level}
                        disabled={busy || !props.grantable[area][level]}
                        onChange={() => props.onLevel(area, level)}
                      />
                      <label htmlFor={inputId}>{AREA_LEVEL_LABELS[level]}</label>
                    </span>
                  );
                })}
              </span>
            </fieldset>
          ))}
          {errors.permissions && (
            <small id={`${ids.grid}-error`} className="field-error" role="alert">
              {errors.permissions}
            </small>
          )}
        </fieldset>
      </form>
    </CustomerDialog>
  );
}

export interface ConfirmDeleteRoleProps {
  visible: boolean;
  question: string;
  /** The server's refusal (a role still held), shown in the dialog. */
  failure: string | null;
  busy: boolean;
  onConfirm(): void;
  onClose(): void;
}

export function ConfirmDeleteRole(props: ConfirmDeleteRoleProps) {
  return (
    <CustomerDialog
      header={T.deleteHeader}
      visible={props.visible}
      busy={props.busy}
      onClose={props.onClose}
      footer={
        <div className="dialog-footer">
          <Button type="button" label={T.cancel} outlined disabled={props.busy} onClick={props.onClose} />
          <Button type="button" label={props.busy ? T.deleting : T.delete} severity="danger" disabled={props.busy} onClick={props.onConfirm} />
        </div>
      }
    >
      <p>{props.question}</p>
      {props.failure && <Message severity="error" text={props.failure} className="dialog-message" />}
    </CustomerDialog>
  );
}
