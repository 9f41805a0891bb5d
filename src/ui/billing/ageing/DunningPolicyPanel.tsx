// Ageing → Dunning policy: on or off, up to three reminders, the final notice and the block, in
// days after the due date, and whether the block proposes ending the customer's lines. Those who
// manage billing change and save it, and may run the dunning at once rather than wait for the
// billing run's next quarter-hour; the others read it. Renders props and calls callbacks; the
// steps are the dunning policy form machine's and the dunning run machine's states.
import { useId } from 'react';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Message } from 'primereact/message';
import { ErrorCard } from '../../common/ErrorCard';
import { formatDateTime } from '../../common/format';
import { TextField } from '../prices/fields';
import { AGEING_TEXTS as T } from './parts';

export type PolicyDaysName = 'reminder1' | 'reminder2' | 'reminder3' | 'finalNotice' | 'block';
export type PolicyFlagName = 'enabled' | 'proposeLineEnds';

/** The policy as the panel shows it (the dunning policy form machine's form has this shape). */
export interface PolicyFormShown extends Record<PolicyDaysName, string> {
  enabled: boolean;
  proposeLineEnds: boolean;
}

export interface DunningPolicyPanelProps {
  loading: boolean;
  loadError: string | null;
  ready: boolean;
  saving: boolean;
  /** The dunning is running (Run dunning now was pressed). */
  running: boolean;
  /** The policy may be changed and the dunning run (billing:manage). */
  canManage: boolean;
  form: PolicyFormShown;
  updatedAt: string;
  errors: Partial<Record<PolicyDaysName | 'order', string>>;
  failure: string | null;
  onField(field: PolicyDaysName, value: string): void;
  onToggle(field: PolicyFlagName, value: boolean): void;
  onSubmit(): void;
  onRetry(): void;
  onRun(): void;
}

const DAYS_FIELDS: readonly { field: PolicyDaysName; label: string; hint: string }[] = [
  { field: 'reminder1', label: T.reminder(1), hint: T.daysHint },
  { field: 'reminder2', label: T.reminder(2), hint: T.noneHint },
  { field: 'reminder3', label: T.reminder(3), hint: T.noneHint },
  { field: 'finalNotice', label: T.finalNotice, hint: T.noneHint },
  { field: 'block', label: T.block, hint: T.neverHint },
];

export function DunningPolicyPanel(props: DunningPolicyPanelProps) {
  const id = useId();
  const { form, errors } = props;
  const locked = props.saving || !props.canManage;
  const flag = (field: PolicyFlagName, label: string) => (
    <div className="ageing-flag">
      <Checkbox inputId={`${id}-${field}`} checked={form[field]} disabled={locked} onChange={(event) => props.onToggle(field, event.checked === true)} />
      <label htmlFor={`${id}-${field}`}>{label}</label>
    </div>
  );
  return (
    <section className="list-card ageing-policy" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{T.policyTitle}</h2>
      {props.loadError ? (
        <ErrorCard title={T.policyFailed} message={props.loadError} onRetry={props.onRetry} headingLevel={3} />
      ) : !props.ready ? (
        <p role="status">{T.policyLoading}</p>
      ) : (
        <form
          className="dialog-form"
          noValidate
          aria-labelledby={`${id}-title`}
          onSubmit={(event) => {
            event.preventDefault();
            props.onSubmit();
          }}
        >
          {props.failure && <Message severity="error" text={props.failure} className="dialog-message" />}
          {flag('enabled', T.policyEnabled)}
          <div className="ageing-policy-days">
            {DAYS_FIELDS.map(({ field, label, hint }) => (
              <TextField key={field} label={label} value={form[field]} error={errors[field]} hint={hint} inputMode="decimal" disabled={locked} onChange={(value) => props.onField(field, value)} />
            ))}
          </div>
          {errors.order && (
            <small className="p-error" role="alert">
              {errors.order}
            </small>
          )}
          {flag('proposeLineEnds', T.proposeLineEnds)}
          <div className="ageing-policy-actions">
            {props.updatedAt && <small className="cell-secondary">{T.updatedAt(formatDateTime(props.updatedAt))}</small>}
            {props.canManage ? (
              <>
                {/* The run takes the saved policy: a save on its way lands first. */}
                <Button type="button" label={props.running ? T.running : T.runNow} severity="secondary" outlined disabled={props.running || props.saving} aria-describedby={`${id}-run-hint`} onClick={props.onRun} />
                <Button type="submit" label={props.saving ? T.saving : T.save} disabled={props.saving} />
              </>
            ) : (
              <small className="cell-secondary">{T.readOnly}</small>
            )}
          </div>
          {props.canManage && (
            <small id={`${id}-run-hint`} className="cell-secondary ageing-run-hint">
              {T.runHint}
            </small>
          )}
        </form>
      )}
    </section>
  );
}
