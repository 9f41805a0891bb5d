// What the rule did about an alert (its automatic actions), under the alert's message: each in a
// sentence, with its status and Undo for the portal's users who may, and the sentence alone for
// the customer, who sees why their line changed.
import { Button } from 'primereact/button';
import type { AlertActionSummaryWire } from '../../domain/alerts';
import { RULE_ACTION_LABELS } from '../../domain/automation';
import { ActionStatusTag } from '../automation/actions/parts';
import './automatic-actions.css';

export interface AutomaticActionsNoteProps {
  actions: readonly AlertActionSummaryWire[] | undefined;
  /** The portal's view: the status beside each sentence. */
  showStatus?: boolean;
  /** Offers Undo where the action can be undone (lifecycle:manage); absent: no button. */
  onUndo?: (action: AlertActionSummaryWire) => void;
  /** Where the alert is, for Undo's accessible name. */
  subject?: string;
  disabled?: boolean;
}

export function AutomaticActionsNote({ actions, showStatus = false, onUndo, subject, disabled = false }: AutomaticActionsNoteProps) {
  if (!actions || actions.length === 0) return null;
  return (
    <ul className="alert-automatic-actions" aria-label="Automatic actions">
      {actions.map((a) => (
        <li key={a.id}>
          <span>{a.text || RULE_ACTION_LABELS[a.action]}</span>
          {showStatus && <ActionStatusTag status={a.status} />}
          {onUndo && a.undoable && (
            <Button
              type="button"
              label="Undo"
              size="small"
              text
              aria-label={`Undo ${RULE_ACTION_LABELS[a.action]}${subject ? ` on ${subject}` : ''}`}
              disabled={disabled}
              onClick={() => onUndo(a)}
            />
          )}
        </li>
      ))}
    </ul>
  );
}
