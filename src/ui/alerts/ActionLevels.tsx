// The per-level action picker of the data use and projected overage rules, shared by the rule's
// "Automatic actions" form and an override's own actions: per level "Notify only" or one or more
// actions, each proposed to an admin or taken at once, and for "Move to another plan" the plan.
// Renders props and calls callbacks; the form around it holds the title and the Save button.
import { useId } from 'react';
import { Checkbox } from 'primereact/checkbox';
import { RadioButton } from 'primereact/radiobutton';
import type { AlertKind } from '../../domain/alerts';
import { ACTION_MODES, ACTION_MODE_LABELS, RULE_ACTIONS, RULE_ACTION_LABELS, type ActionMode, type RuleAction, type RuleActionWire } from '../../domain/automation';
import type { SubscriptionPlanWire } from '../../domain/subscriptions';
import { LabelledSelect } from '../requests/LabelledSelect';
import './automatic-actions.css';

export const NOTIFY_ONLY = 'Notify only';
export const PLAN_LABEL = 'Plan to move to';
export const PLANS_UNAVAILABLE = 'The plans could not be loaded: a plan already chosen is kept.';

/** A level's row: "At 90 %", or the one row of projected overage. */
export const levelName = (kind: AlertKind, level: number) => (kind === 'usage' ? `At ${level} %` : 'When overage is projected');

/** Actions in short, for a list: "Opt out of priority data at 90 %; Move to another plan at 100 %". */
export const actionsSummary = (kind: AlertKind, actions: readonly RuleActionWire[]) =>
  actions.length === 0 ? NOTIFY_ONLY : actions.map((a) => (kind === 'usage' ? `${RULE_ACTION_LABELS[a.action]} at ${a.level} %` : RULE_ACTION_LABELS[a.action])).join('; ');

export interface ActionLevelsProps {
  kind: AlertKind;
  levels: readonly number[];
  actions: readonly RuleActionWire[];
  /** The plans a line may move to; null until they are in. */
  plans: readonly SubscriptionPlanWire[] | null;
  /** The plans could not be loaded. */
  plansFailed: boolean;
  disabled: boolean;
  onNotifyOnly(level: number): void;
  onAction(level: number, action: RuleAction, checked: boolean): void;
  onMode(level: number, action: RuleAction, mode: ActionMode): void;
  onPlan(level: number, productReferenceId: string): void;
}

function planOptions(plans: readonly SubscriptionPlanWire[] | null, chosen: string | null) {
  const options = (plans ?? []).map((p) => ({ label: p.name, value: p.productReferenceId }));
  // A plan saved earlier that the list does not hold (withdrawn, or the list not loaded) stays choosable.
  if (chosen && !options.some((o) => o.value === chosen)) options.unshift({ label: chosen, value: chosen });
  return options;
}

function ActionChoice(props: ActionLevelsProps & { level: number; action: RuleAction }) {
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

export function ActionLevels(props: ActionLevelsProps) {
  const id = useId();
  return (
    <>
      {props.levels.map((level) => {
        const none = !props.actions.some((a) => a.level === level);
        return (
          <fieldset key={level} className="rule-actions-level">
            <legend>{levelName(props.kind, level)}</legend>
            <div className="rule-switch">
              {/* Ticked while the level has no action; ticking it clears the level's actions. */}
              <Checkbox inputId={`${id}-${level}-none`} checked={none} disabled={props.disabled || none} onChange={() => props.onNotifyOnly(level)} />
              <label htmlFor={`${id}-${level}-none`}>{NOTIFY_ONLY}</label>
            </div>
            {RULE_ACTIONS.map((action) => (
              <ActionChoice key={action} {...props} level={level} action={action} />
            ))}
          </fieldset>
        );
      })}
      {props.plansFailed && props.actions.some((a) => a.action === 'change_plan') && <small>{PLANS_UNAVAILABLE}</small>}
    </>
  );
}
