// "Assign Terminals" (spec sections 2 "Assign Terminals dialog", 4 "Assign dialog", 5 "Assign
// terminals"): the customer, the terminals already theirs, a box of service line numbers, and
// what the last request assigned and refused. Renders props and calls callbacks.
import { useId, type FormEvent, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputTextarea } from 'primereact/inputtextarea';
import { Message } from 'primereact/message';
import { customerDisplayName } from '../../domain/customers';
import { ASSIGN_MESSAGES, type AssignedTerminal, type AssignTerminalsResult } from '../../domain/customer-terminals';
import { DASH } from '../common/format';
import '../customers/customers.css';
import './customer-terminals.css';

export const ASSIGNED_LOADING_TEXT = 'Loading assigned terminals...';

export interface AssignDialogCustomer {
  uuid: string;
  name: string;
  email: string;
  company?: string | null;
}

export interface AssignTerminalsDialogProps {
  visible: boolean;
  customer: AssignDialogCustomer | null;
  /** The first of the customer's terminals, before (and, once re-fetched, after) this request. */
  assigned: readonly AssignedTerminal[];
  /** How many the customer holds. */
  assignedTotal: number;
  assignedLoading: boolean;
  /** The service line box as typed. */
  text: string;
  /** A client check or a failed request, shown in an alert. */
  error: string | null;
  /** What the last request assigned and refused. */
  result: AssignTerminalsResult | null;
  /** The request runs: nothing can be changed or closed. */
  busy: boolean;
  onText(text: string): void;
  onSubmit(): void;
  onClose(): void;
}

function CustomerSection({ customer }: { customer: AssignDialogCustomer }) {
  const facts: [label: string, value: ReactNode][] = [
    ['Customer', customerDisplayName(customer)],
    ['Company', customer.company?.trim() ? customer.company : DASH],
    ['Email', customer.email || DASH],
    ['Customer UUID', <span className="cell-mono">{customer.uuid}</span>],
  ];
  return (
    <section className="dialog-section" aria-label="Customer">
      <dl className="detail-fields">
        {facts.map(([label, value]) => (
          <div key={label} className="detail-field">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function AssignedSection({ assigned, total, loading }: { assigned: readonly AssignedTerminal[]; total: number; loading: boolean }) {
  const titleId = useId();
  return (
    <section className="dialog-section" aria-labelledby={titleId} aria-busy={loading || undefined}>
      {loading ? (
        <p id={titleId} className="field-hint" role="status">
          <i className="pi pi-spin pi-spinner" aria-hidden="true" /> {ASSIGNED_LOADING_TEXT}
        </p>
      ) : (
        <>
          <h3 id={titleId} className="dialog-section-title">
            {ASSIGN_MESSAGES.assignedCount(total)}
          </h3>
          {assigned.length > 0 && (
            <ul className="assign-assigned-list" aria-labelledby={titleId}>
              {assigned.map((t) => (
                <li key={`${t.serviceLine}:${t.deviceId}`}>
                  <span className="assign-line">{t.serviceLine}</span>
                  <span className="cell-secondary cell-mono">{t.deviceId}</span>
                </li>
              ))}
            </ul>
          )}
          {total > assigned.length && <p className="field-hint">{ASSIGN_MESSAGES.assignedMore(total - assigned.length)}</p>}
        </>
      )}
    </section>
  );
}

function ResultPanel({ kind, title, children }: { kind: 'success' | 'failure'; title: string; children: ReactNode }) {
  const titleId = useId();
  return (
    <section className={`assign-result assign-result-${kind}`} aria-labelledby={titleId}>
      <h3 id={titleId} className="assign-result-title">
        <i className={kind === 'success' ? 'pi pi-check-circle' : 'pi pi-times-circle'} aria-hidden="true" /> {title}
      </h3>
      <ul className="assign-result-list" aria-labelledby={titleId}>
        {children}
      </ul>
    </section>
  );
}

function Results({ result }: { result: AssignTerminalsResult }) {
  const showSuccess = result.assigned.length > 0 || result.failed.length === 0;
  return (
    <div className="assign-results" role="status">
      {showSuccess && (
        <ResultPanel kind="success" title={ASSIGN_MESSAGES.successTitle(result.assigned.length)}>
          {result.assigned.map((line) => (
            <li key={line}>
              <span className="assign-line">{line}</span>
            </li>
          ))}
        </ResultPanel>
      )}
      {result.failed.length > 0 && (
        <ResultPanel kind="failure" title={ASSIGN_MESSAGES.failureTitle(result.failed.length)}>
          {result.failed.map((f) => (
            <li key={f.serviceLineNumber}>
              <span className="assign-line">{f.serviceLineNumber}</span>
              <span className="assign-result-reason">{f.reason}</span>
            </li>
          ))}
        </ResultPanel>
      )}
    </div>
  );
}

export function AssignTerminalsDialog(props: AssignTerminalsDialogProps) {
  const id = useId();
  const formId = `${id}-form`;
  const inputId = `${id}-lines`;
  const { busy } = props;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!busy) props.onSubmit();
  };
  return (
    // No close icon in the header: the footer's Close is the one way out, held while a request
    // runs so it is never abandoned.
    <Dialog
      header={ASSIGN_MESSAGES.title}
      visible={props.visible}
      onHide={() => {
        if (!busy) props.onClose();
      }}
      closable={false}
      className="customer-dialog customer-dialog-wide"
      modal
      blockScroll
      footer={
        <div className="dialog-footer">
          <Button type="button" label={ASSIGN_MESSAGES.close} outlined disabled={busy} onClick={props.onClose} />
          <Button
            type="submit"
            form={formId}
            label={busy ? ASSIGN_MESSAGES.busy : ASSIGN_MESSAGES.button}
            icon={busy ? 'pi pi-spin pi-spinner' : 'pi pi-check'}
            disabled={busy}
          />
        </div>
      }
    >
      {props.customer && <CustomerSection customer={props.customer} />}
      <AssignedSection assigned={props.assigned} total={props.assignedTotal} loading={props.assignedLoading} />
      <section className="dialog-section">
        <form id={formId} className="dialog-form" onSubmit={submit} noValidate aria-label={ASSIGN_MESSAGES.title}>
          <div className="form-field">
            <label htmlFor={inputId}>{ASSIGN_MESSAGES.inputLabel}</label>
            <InputTextarea
              id={inputId}
              name="serviceLineNumbers"
              rows={4}
              value={props.text}
              placeholder={ASSIGN_MESSAGES.placeholder}
              disabled={busy}
              invalid={!!props.error}
              aria-invalid={props.error ? true : undefined}
              aria-describedby={`${id}-instructions`}
              onChange={(event) => props.onText(event.target.value)}
            />
            <small id={`${id}-instructions`} className="field-hint">
              {ASSIGN_MESSAGES.instructions}
            </small>
          </div>
          {props.error && <Message severity="error" text={props.error} className="dialog-message" />}
        </form>
        {props.result && <Results result={props.result} />}
      </section>
    </Dialog>
  );
}
