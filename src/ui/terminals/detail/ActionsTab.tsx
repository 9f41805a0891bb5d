import { useId, useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { InputTextarea } from 'primereact/inputtextarea';
import { TERMINAL_MESSAGES } from '../../../domain/terminals';

/** An issue report is 1 to 2000 characters (after trimming). */
export const REPORT_ISSUE_MAX_LENGTH = 2000;
export const REPORT_ISSUE_TEXTS = {
  label: 'Describe the issue',
  submit: 'Send Report',
  sending: 'Sending...',
  cancel: 'Cancel',
  required: 'Please describe the issue.',
  tooLong: `Keep the description to ${REPORT_ISSUE_MAX_LENGTH} characters or fewer.`,
} as const;

export interface TerminalDetailNotice {
  kind: 'success' | 'error';
  text: string;
}

function ReportIssueForm({
  reporting,
  busy,
  onSubmit,
  onCancel,
}: {
  reporting: boolean;
  /** Either action runs: a report cannot be sent now. */
  busy: boolean;
  onSubmit(note: string): void;
  onCancel(): void;
}) {
  const id = useId();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = note.trim();
    if (trimmed === '') return setError(REPORT_ISSUE_TEXTS.required);
    if (trimmed.length > REPORT_ISSUE_MAX_LENGTH) return setError(REPORT_ISSUE_TEXTS.tooLong);
    setError(null);
    onSubmit(trimmed);
  };
  return (
    <form className="report-issue-form" onSubmit={submit} noValidate aria-label={TERMINAL_MESSAGES.reportIssue}>
      <div className="form-field">
        <label htmlFor={`${id}-note`}>{REPORT_ISSUE_TEXTS.label}</label>
        <InputTextarea
          id={`${id}-note`}
          value={note}
          rows={4}
          maxLength={REPORT_ISSUE_MAX_LENGTH}
          required
          disabled={reporting}
          invalid={error !== null}
          aria-invalid={error !== null || undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          onChange={(event) => {
            setNote(event.target.value);
            setError(null);
          }}
        />
        <span id={`${id}-hint`} className="field-hint">
          {note.length}/{REPORT_ISSUE_MAX_LENGTH}
        </span>
        {error && (
          <span id={`${id}-error`} className="field-error" role="alert">
            {error}
          </span>
        )}
      </div>
      <div className="report-issue-buttons">
        <Button type="button" label={REPORT_ISSUE_TEXTS.cancel} text disabled={reporting} onClick={onCancel} />
        <Button
          type="submit"
          label={reporting ? REPORT_ISSUE_TEXTS.sending : REPORT_ISSUE_TEXTS.submit}
          icon="pi pi-send"
          loading={reporting}
          disabled={busy}
        />
      </div>
    </form>
  );
}

export const READ_ONLY_ACTIONS_NOTE = 'Your roles do not allow actions on this terminal.';

export function ActionsTab(props: {
  /** Whether the user may refresh the terminal or report an issue with it (terminals:manage). */
  canAct: boolean;
  refreshing: boolean;
  onRefresh(): void;
  reporting: boolean;
  onReportIssue(note: string): void;
  notice: TerminalDetailNotice | null;
  onDismissNotice(): void;
}) {
  const [reportOpen, setReportOpen] = useState(false);
  // The dialog runs one action at a time: while either runs, neither button starts the other.
  const busy = props.refreshing || props.reporting;
  // A report that went through closes (and so clears) the form: adjust state when the notice changes.
  const [seenNotice, setSeenNotice] = useState(props.notice);
  if (props.notice !== seenNotice) {
    setSeenNotice(props.notice);
    if (props.notice?.kind === 'success') setReportOpen(false);
  }
  return (
    <div className="terminal-tab">
      {props.notice && (
        <div className={`terminal-notice terminal-notice-${props.notice.kind}`} role={props.notice.kind === 'error' ? 'alert' : 'status'}>
          <i className={props.notice.kind === 'error' ? 'pi pi-times-circle' : 'pi pi-check-circle'} aria-hidden="true" />
          <p className="terminal-notice-text">{props.notice.text}</p>
          <Button type="button" icon="pi pi-times" text rounded size="small" aria-label="Dismiss" onClick={props.onDismissNotice} />
        </div>
      )}
      {!props.canAct && <p className="text-muted">{READ_ONLY_ACTIONS_NOTE}</p>}
      {props.canAct && <div className="terminal-actions">
        <Button
          type="button"
          label={TERMINAL_MESSAGES.refreshData}
          icon="pi pi-refresh"
          outlined
          loading={props.refreshing}
          disabled={busy}
          aria-busy={props.refreshing || undefined}
          onClick={props.onRefresh}
        />
        <Button
          type="button"
          label={TERMINAL_MESSAGES.reportIssue}
          icon="pi pi-flag"
          outlined
          severity="warning"
          aria-expanded={reportOpen}
          disabled={reportOpen || busy}
          onClick={() => setReportOpen(true)}
        />
      </div>}
      {props.canAct && reportOpen && (
        <ReportIssueForm reporting={props.reporting} busy={busy} onSubmit={props.onReportIssue} onCancel={() => setReportOpen(false)} />
      )}
    </div>
  );
}
