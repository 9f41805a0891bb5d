// A rule's automatic actions, on the data use and projected overage cards of the Alert rules page:
// per level "Notify only" or one or more actions, each proposed to an admin or taken at once, and
// for "Move to another plan" the plan (the shared ActionLevels picker); then Save actions. Renders
// props and calls callbacks; the steps are the rule actions machine's states.
import { useId } from 'react';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { ALERT_KIND_LABELS, type AlertKind } from '../../domain/alerts';
import { AUTOMATION_MESSAGES as M } from '../../domain/automation';
import { ActionLevels, type ActionLevelsProps } from './ActionLevels';
import { SAVING_TEXT } from './AlertRulesView';

export { NOTIFY_ONLY, PLAN_LABEL, PLANS_UNAVAILABLE, levelName } from './ActionLevels';

export const ACTIONS_TITLE = 'Automatic actions';
export const ACTIONS_INTRO = 'What the portal does to the line when the rule opens its alert, besides telling people. Each action runs once a billing cycle.';
export const SAVE_ACTIONS = 'Save actions';

/** The form's accessible name: "Data use actions" (not "… rule", which names the rule's own form). */
export const actionsFormName = (kind: AlertKind) => `${ALERT_KIND_LABELS[kind]} actions`;

export interface RuleActionsEditorProps extends Omit<ActionLevelsProps, 'disabled'> {
  canEdit: boolean;
  busy: boolean;
  saved: boolean;
  problem: string | null;
  failure: string | null;
  onSave(): void;
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
      <ActionLevels {...props} disabled={disabled} />
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
