// A rule's automatic actions, on the data use and projected overage cards of the Alert rules page:
// per level "Notify only" or one or more actions, each proposed to an admin or taken at once, and
// for "Move to another plan" the plan; then Save actions. Renders props and calls callbacks; the
// steps are the rule actions machine's states.
import { useId } from 'react';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Message } from 'primereact/message';
import { RadioButton } from 'primereact/radiobutton';
import { ALERT_KIND_LABELS, type AlertKind } from '../../domain/alerts';
import { ACTION_MODES, ACTION_MODE_LABELS, AUTOMATION_MESSAGES as M, RULE_ACTIONS, RULE_ACTION_LABELS, type ActionMode, type RuleAction, type RuleActionWire } from '../../domain/automation';
import type { SubscriptionPlanWire } from '../../domain/subscriptions';
import { LabelledSelect } from '../requests/LabelledSelect';
import { SAVING_TEXT } from './AlertRulesView';
import './automatic-actions.css';

export const ACTIONS_TITLE = 'Automatic actions';
export const ACTIONS_INTRO = 'What the portal does to the line when the rule opens its alert, besides telling people. Each action runs once a billing cycle.';
export const NOTIFY_ONLY = 'Notify only';
export const SAVE_ACTIONS = 'Save actions';
export const PLAN_LABEL = 'Plan to move to';
export const PLANS_UNAVAILABLE = 'The plans could not be loaded: a plan already chosen is kept.';

/** The form's accessible name: "Data use actions" (not "… rule", which names the rule's own form). */
export const actionsFormName = (kind: AlertKind) => `${ALERT_KIND_LABELS[kind]} actions`;
/** A level's row: "At 90 %", or the one row of projected overage. */
export const levelName = (kind: AlertKind, level: number) => (kind === 'usage' ? `At ${level} %` : 'When overage is projected');

export interface RuleActionsEditorProps {
  kind: AlertKind;
  levels: readonly number[];
  actions: readonly RuleActionWire[];
  /** The plans a line may move to; null until they are in. */
  plans: readonly SubscriptionPlanWire[] | null;
  /** The plans could not be loaded. */
  plansFailed: boolean;
  canEdit: boolean;
  busy: boolean;
  saved: boolean;
  problem: string | null;
  failure: string | null;
  onNotifyOnly(level: number): void;
  onAction(level: number, action: RuleAction, checked: boolean): void;
  onMode(level: number, action: RuleAction, mode: ActionMode): void;
  onPlan(level: number, productReferenceId: string): void;
  onSave(): void;
}

function planOptions(plans: readonly SubscriptionPlanWire[] | null, chosen: string | null) {
  const options = (plans ?? []).map((p) => ({ label: p.name, value: p.productReferenceId }));
  // A plan saved earlier that the list does not hold (withdrawn, or the list not loaded) stays choosable.
  if (chosen && !options.some((o) => o.value === chosen)) options.unshift({ label: chosen, value: chosen });
  return options;
}

function ActionChoice(props: RuleActionsEditorProps & { level: number; action: RuleAction; disabled: boolean }) {
  const id = useId();
  const { level, action, disabled } = props;
  const chosen = props.actions.find((a) => a.level === level && a.action === action) ?? null;
  const name = `${RULE_ACTION_LABELS[action]}, ${levelName(props.kind, level)}`;
  return (
    <div className="rule-action-choice" role="group" aria-label={name}>
      <div className="rule-switch">
        <Checkbox inputId={`${id}-on`} checked={chosen !== null} disabled={disabled} onChange={(e) => props.onAction(level, action, e.checked === true)} />
        <label htmlFor={`${id}-on`}>{RULE_ACTION_LABELS[action]}</label>
      </div>
      {chosen && (
        <div className="rule-action-details">
          {ACTION_MODES.map((mode) => (
            <span key={mode} className="rule-switch">
              <RadioButton
                inputId={`${id}-${mode}`}
                name={`${id}-mode`}
                value={mode}
                checked={chosen.mode === mode}
                disabled={disabled}
                onChange={() => props.onMode(level, action, mode)}
              />
              <label htmlFor={`${id}-${mode}`}>{ACTION_MODE_LABELS[mode]}</label>
            </span>
          ))}
          {action === 'change_plan' && (
            <LabelledSelect
              label={PLAN_LABEL}
              value={chosen.productReferenceId}
              options={planOptions(props.plans, chosen.productReferenceId)}
              placeholder="Choose a plan"
              disabled={disabled}
              onChange={(value) => props.onPlan(level, value)}
            />
          )}
        </div>
      )}
    </div>
  );
}

export function RuleActionsEditor(props: RuleActionsEditorProps) {
  const id = useId();
  const disabled = !props.canEdit || props.busy;
  return (
    <form
      aria-label={actionsFormName(props.kind)}
      className="rule-actions-editor"
      onSubmit={(event) => {
        event.preventDefault();
        props.onSave();
      }}
    >
      <h3 id={`${id}-title`}>{ACTIONS_TITLE}</h3>
      <p>{ACTIONS_INTRO}</p>
      {props.levels.map((level) => {
        const none = !props.actions.some((a) => a.level === level);
        return (
          <fieldset key={level} className="rule-actions-level">
            <legend>{levelName(props.kind, level)}</legend>
            <div className="rule-switch">
              {/* Ticked while the level has no action; ticking it clears the level's actions. */}
              <Checkbox inputId={`${id}-${level}-none`} checked={none} disabled={disabled || none} onChange={() => props.onNotifyOnly(level)} />
              <label htmlFor={`${id}-${level}-none`}>{NOTIFY_ONLY}</label>
            </div>
            {RULE_ACTIONS.map((action) => (
              <ActionChoice key={action} {...props} level={level} action={action} disabled={disabled} />
            ))}
          </fieldset>
        );
      })}
      {props.plansFailed && props.actions.some((a) => a.action === 'change_plan') && <small>{PLANS_UNAVAILABLE}</small>}
      {props.problem && (
        <small className="p-error" role="alert">
          {props.problem}
        </small>
      )}
      {props.canEdit && (
        <div className="rule-actions">
          <Button type="submit" label={props.busy ? SAVING_TEXT : SAVE_ACTIONS} disabled={disabled} />
          {props.saved && <span role="status">{M.actionsSaved}</span>}
          {props.failure && <Message severity="error" text={props.failure} />}
        </div>
      )}
    </form>
  );
}
