// The question before Approve, Dismiss or Undo of one automatic action (the Actions page, and
// Undo from an alert). Renders props and calls callbacks; the steps are the action review
// machine's states.
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { RULE_ACTION_LABELS, UNDOABLE_ACTIONS, type RuleAction } from '../../../domain/automation';
import { CustomerDialog } from '../../customers/CustomerDialog';

export type ReviewVerb = 'approve' | 'dismiss' | 'undo';

export const REVIEW_TITLES: Readonly<Record<ReviewVerb, string>> = {
  approve: 'Approve action',
  dismiss: 'Dismiss action',
  undo: 'Undo action',
};
export const REVIEW_BUTTONS: Readonly<Record<ReviewVerb, string>> = { approve: 'Approve', dismiss: 'Dismiss', undo: 'Undo' };
export const REVIEW_WORKING_TEXT = 'Working...';

/** The dialog's question: what is done to which line, and what undoing does. */
export function reviewQuestion(verb: ReviewVerb, action: RuleAction, line: string | null): string {
  const what = `“${RULE_ACTION_LABELS[action]}”${line ? ` on ${line}` : ''}`;
  switch (verb) {
    case 'approve':
      return `Approve ${what}? The change is made at the provider now.`;
    case 'dismiss':
      return `Dismiss ${what}? Nothing is done to the line.`;
    case 'undo':
      return `Undo ${what}? ${UNDOABLE_ACTIONS[action] ?? 'It is taken back'} now.`;
  }
}

export interface ActionReviewDialogProps {
  visible: boolean;
  verb: ReviewVerb | null;
  action: RuleAction | null;
  line: string | null;
  failure: string | null;
  busy: boolean;
  onConfirm(): void;
  onClose(): void;
}

export function ActionReviewDialog(props: ActionReviewDialogProps) {
  const verb = props.verb ?? 'approve';
  return (
    <CustomerDialog
      header={REVIEW_TITLES[verb]}
      visible={props.visible}
      busy={props.busy}
      onClose={props.onClose}
      footer={
        <div className="dialog-footer">
          <Button type="button" label="Cancel" outlined disabled={props.busy} onClick={props.onClose} />
          <Button
            type="button"
            label={props.busy ? REVIEW_WORKING_TEXT : REVIEW_BUTTONS[verb]}
            severity={verb === 'approve' ? undefined : 'danger'}
            disabled={props.busy}
            onClick={props.onConfirm}
          />
        </div>
      }
    >
      {props.action && <p>{reviewQuestion(verb, props.action, props.line)}</p>}
      {props.failure && <Message severity="error" text={props.failure} className="dialog-message" />}
    </CustomerDialog>
  );
}
