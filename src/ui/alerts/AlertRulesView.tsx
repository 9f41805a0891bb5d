// Alert rules (alerts:read; changes with alerts:manage): one card per rule — Enabled, its usage levels or threshold, "Also
// email the customer", Save (alerts:manage only), the admin's own "Email me" switch — and under a
// line rule its overrides for one customer or line, with an add form and Remove. An override of the
// data use or projected overage rule follows the rule's actions or has its own (the ActionLevels
// picker the rule's actions use). Renders props and calls callbacks; each form's steps are the alert
// rule form machine's states.
import { useId, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { InputSwitch } from 'primereact/inputswitch';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { SelectButton } from 'primereact/selectbutton';
import { ALERT_KIND_LABELS, ALERT_MESSAGES as M, THRESHOLD_UNITS, hasThreshold, isPortalAlertKind, type AlertKind, type AlertOverrideWire } from '../../domain/alerts';
import { ACTION_ALERT_KINDS, type RuleActionWire } from '../../domain/automation';
import { ErrorCard } from '../common/ErrorCard';
import { ActionLevels, actionsSummary, type ActionLevelsProps } from './ActionLevels';
import './alerts.css';

export const RULES_LOADING_TEXT = 'Loading alert rules...';
export const RULES_LOAD_FAILED = 'Could not load the alert rules';
export const OVERRIDES_LOAD_FAILED = 'Could not load the overrides';
export const SAVING_TEXT = 'Saving...';
export const AS_THE_RULE = 'As the rule';
export const OWN_ACTIONS = 'Own actions';
export const ADMIN_ONLY_NOTE = 'Only those who manage alerts change the rules. You can still choose whether you get their emails.';

export const RULE_DESCRIPTIONS: Readonly<Record<AlertKind, string>> = {
  usage: 'A line has used these percentages of its plan this billing cycle.',
  overage_forecast: 'A line is projected to run up more than this in overage by the end of its cycle.',
  offline: 'A terminal has not reported for this long.',
  sync_failed: 'A terminal or usage sync with the provider failed.',
  account_expiring: 'A customer account expires within this many days.',
  change_failed: 'A scheduled change or an automatic action could not be made, after its retries.',
};

/** The fields one form shows: a rule's or an override's. */
export interface RuleFieldsProps {
  kind: AlertKind;
  disabled: boolean;
  enabled: boolean;
  levels: string;
  threshold: number | null;
  errors: { levels: string | null; threshold: string | null };
  onEnabled(value: boolean): void;
  onLevels(value: string): void;
  onThreshold(value: number | null): void;
}

function FieldError({ id, text }: { id: string; text: string | null }) {
  return text ? (
    <small id={id} className="p-error">
      {text}
    </small>
  ) : null;
}

function Switch({ label, checked, disabled, onChange }: { label: string; checked: boolean; disabled: boolean; onChange(value: boolean): void }) {
  const id = useId();
  return (
    <div className="rule-switch">
      <InputSwitch inputId={id} checked={checked} disabled={disabled} onChange={(e) => onChange(e.value)} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

export function RuleFields(props: RuleFieldsProps) {
  const id = useId();
  const { kind } = props;
  return (
    <>
      <Switch label="Enabled" checked={props.enabled} disabled={props.disabled} onChange={props.onEnabled} />
      {kind === 'usage' && (
        <div className="rule-field">
          <label htmlFor={`${id}-levels`}>Usage levels (% of the plan)</label>
          <InputText
            id={`${id}-levels`}
            value={props.levels}
            disabled={props.disabled}
            invalid={props.errors.levels !== null}
            aria-describedby={props.errors.levels ? `${id}-levels-error` : undefined}
            placeholder="80, 90, 100"
            onChange={(e) => props.onLevels(e.target.value)}
          />
          <FieldError id={`${id}-levels-error`} text={props.errors.levels} />
        </div>
      )}
      {hasThreshold(kind) && (
        <div className="rule-field">
          <label htmlFor={`${id}-threshold`}>Threshold ({THRESHOLD_UNITS[kind]})</label>
          <InputText
            id={`${id}-threshold`}
            type="number"
            value={props.threshold === null ? '' : String(props.threshold)}
            disabled={props.disabled}
            invalid={props.errors.threshold !== null}
            aria-describedby={props.errors.threshold ? `${id}-threshold-error` : undefined}
            onChange={(e) => props.onThreshold(e.target.value.trim() === '' ? null : Number(e.target.value))}
          />
          <FieldError id={`${id}-threshold-error`} text={props.errors.threshold} />
        </div>
      )}
    </>
  );
}

export interface RuleCardProps extends Omit<RuleFieldsProps, 'disabled'> {
  canEdit: boolean;
  notifyCustomer: boolean;
  busy: boolean;
  saved: boolean;
  failure: string | null;
  subscribed: boolean;
  switching: boolean;
  onNotifyCustomer(value: boolean): void;
  onSave(): void;
  onSubscribe(value: boolean): void;
  /** The overrides, under a line rule. */
  children?: ReactNode;
}

export function RuleCard(props: RuleCardProps) {
  const id = useId();
  const disabled = !props.canEdit || props.busy;
  return (
    <Card className="alert-rule-card">
      <section aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>{ALERT_KIND_LABELS[props.kind]}</h2>
        <p>{RULE_DESCRIPTIONS[props.kind]}</p>
        <form
          aria-label={`${ALERT_KIND_LABELS[props.kind]} rule`}
          onSubmit={(event) => {
            event.preventDefault();
            props.onSave();
          }}
        >
          <RuleFields {...props} disabled={disabled} />
          {!isPortalAlertKind(props.kind) && (
            <Switch label="Also email the customer" checked={props.notifyCustomer} disabled={disabled} onChange={props.onNotifyCustomer} />
          )}
          <div className="rule-actions">
            <Button type="submit" label={props.busy ? SAVING_TEXT : 'Save'} disabled={disabled} />
            {props.saved && <span role="status">{M.ruleSaved}</span>}
            {props.failure && <Message severity="error" text={props.failure} />}
          </div>
        </form>
        <Switch label="Email me" checked={props.subscribed} disabled={props.switching} onChange={props.onSubscribe} />
        {props.children}
      </section>
    </Card>
  );
}

export interface OverridesPanelProps {
  kind: AlertKind;
  overrides: readonly AlertOverrideWire[] | null;
  error: string | null;
  canEdit: boolean;
  /** The override being removed ("scope/key"), if one is. */
  removing: string | null;
  onRetry(): void;
  onRemove(override: AlertOverrideWire): void;
  /** The add form (RuleFields and its scope and key), when the admin may add. */
  form: OverrideFormProps | null;
}

/** An override's actions: the rule's (`actions` null), or its own on the levels it offers. */
export interface OverrideActionsProps extends Omit<ActionLevelsProps, 'kind' | 'disabled' | 'actions'> {
  actions: readonly RuleActionWire[] | null;
  problem: string | null;
  onOwn(value: boolean): void;
}

export interface OverrideFormProps extends Omit<RuleFieldsProps, 'disabled' | 'errors'> {
  scope: 'customer' | 'line';
  keyText: string;
  errors: RuleFieldsProps['errors'] & { key: string | null };
  /** The data use and projected overage rules' overrides only. */
  actions: OverrideActionsProps | null;
  busy: boolean;
  failure: string | null;
  onScope(value: 'customer' | 'line'): void;
  onKey(value: string): void;
  onSave(): void;
}

const SCOPE_OPTIONS = [
  { label: 'Service line', value: 'line' },
  { label: 'Customer', value: 'customer' },
];
const ACTIONS_OPTIONS = [
  { label: AS_THE_RULE, value: 'rule' },
  { label: OWN_ACTIONS, value: 'own' },
];

const hasActions = (kind: AlertKind) => (ACTION_ALERT_KINDS as readonly string[]).includes(kind);

/** The Actions column: "As the rule", "Notify only", or the actions with their levels. */
export const overrideActionsText = (o: Pick<AlertOverrideWire, 'kind' | 'actions'>) => (o.actions === null ? AS_THE_RULE : actionsSummary(o.kind, o.actions));

function OverrideActions({ kind, busy, ...props }: OverrideActionsProps & { kind: AlertKind; busy: boolean }) {
  return (
    <>
      <SelectButton
        aria-label="Actions"
        value={props.actions === null ? 'rule' : 'own'}
        allowEmpty={false}
        options={ACTIONS_OPTIONS}
        disabled={busy}
        onChange={(e) => e.value && props.onOwn(e.value === 'own')}
      />
      {props.actions && <ActionLevels {...props} kind={kind} actions={props.actions} disabled={busy} />}
      {props.problem && (
        <small className="p-error" role="alert">
          {props.problem}
        </small>
      )}
    </>
  );
}

const overrideSummary = (o: AlertOverrideWire) => {
  if (!o.enabled) return 'Off';
  if (o.usageLevels) return `At ${o.usageLevels.join(', ')} %`;
  return o.threshold === null ? 'On' : `Threshold ${o.threshold}`;
};

function OverrideForm(props: OverrideFormProps) {
  const id = useId();
  return (
    <form
      aria-label={`Add an override of the ${ALERT_KIND_LABELS[props.kind]} rule`}
      className="override-form"
      onSubmit={(event) => {
        event.preventDefault();
        props.onSave();
      }}
    >
      <SelectButton aria-label="For" value={props.scope} allowEmpty={false} options={SCOPE_OPTIONS} disabled={props.busy} onChange={(e) => e.value && props.onScope(e.value as 'customer' | 'line')} />
      <div className="rule-field">
        <label htmlFor={`${id}-key`}>{props.scope === 'line' ? 'Service line number' : 'Customer id'}</label>
        <InputText
          id={`${id}-key`}
          value={props.keyText}
          disabled={props.busy}
          invalid={props.errors.key !== null}
          aria-describedby={props.errors.key ? `${id}-key-error` : undefined}
          onChange={(e) => props.onKey(e.target.value)}
        />
        <FieldError id={`${id}-key-error`} text={props.errors.key} />
      </div>
      <RuleFields {...props} disabled={props.busy} />
      {props.actions && <OverrideActions {...props.actions} kind={props.kind} busy={props.busy} />}
      <div className="rule-actions">
        <Button type="submit" label={props.busy ? SAVING_TEXT : 'Add override'} disabled={props.busy} />
        {props.failure && <Message severity="error" text={props.failure} />}
      </div>
    </form>
  );
}

export function OverridesPanel(props: OverridesPanelProps) {
  const label = `Overrides of the ${ALERT_KIND_LABELS[props.kind]} rule`;
  return (
    <div className="alert-overrides">
      <h3>Overrides</h3>
      {props.error ? (
        <ErrorCard title={OVERRIDES_LOAD_FAILED} message={props.error} onRetry={props.onRetry} headingLevel={3} />
      ) : props.overrides === null ? (
        <p role="status">Loading overrides...</p>
      ) : props.overrides.length === 0 ? (
        <p>No overrides: every customer and line follows the rule.</p>
      ) : (
        <table aria-label={label} className="alert-overrides-table">
          <thead>
            <tr>
              <th scope="col">For</th>
              <th scope="col">Settings</th>
              {hasActions(props.kind) && <th scope="col">Actions</th>}
              {props.canEdit && (
                <th scope="col">
                  <span className="sr-only">Remove</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {props.overrides.map((o) => (
              <tr key={`${o.scope}/${o.key}`}>
                <td>
                  {o.scope === 'line' ? 'Line' : 'Customer'} {o.label ? `${o.label} (${o.key})` : o.key}
                </td>
                <td>{overrideSummary(o)}</td>
                {hasActions(props.kind) && <td>{overrideActionsText(o)}</td>}
                {props.canEdit && (
                  <td>
                    <Button
                      type="button"
                      label="Remove"
                      size="small"
                      text
                      severity="danger"
                      aria-label={`Remove the override for ${o.key}`}
                      disabled={props.removing !== null}
                      onClick={() => props.onRemove(o)}
                    />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {props.form && <OverrideForm {...props.form} />}
    </div>
  );
}

export interface AlertRulesViewProps {
  loading: boolean;
  error: string | null;
  canEdit: boolean;
  onRetry(): void;
  /** The cards, once the rules are in. */
  children?: ReactNode;
}

export function AlertRulesView({ loading, error, canEdit, onRetry, children }: AlertRulesViewProps) {
  return (
    <section className="page alert-rules-page" aria-labelledby="alert-rules-title">
      <header className="page-header-row">
        <h1 id="alert-rules-title">{M.rulesTitle}</h1>
      </header>
      {!canEdit && <p>{ADMIN_ONLY_NOTE}</p>}
      {error ? <ErrorCard title={RULES_LOAD_FAILED} message={error} onRetry={onRetry} /> : loading ? <p role="status">{RULES_LOADING_TEXT}</p> : children}
    </section>
  );
}
