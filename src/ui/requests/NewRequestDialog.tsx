// "New request" and "Cancel request" on My Requests: the line, plan change or top-up,
// the plan or the blocks with their price, a note; or the question before cancelling. Renders
// props and calls callbacks; the steps are the customer request machine's states.
import { useId } from 'react';
import { Button } from 'primereact/button';
import { InputTextarea } from 'primereact/inputtextarea';
import { Message } from 'primereact/message';
import { RadioButton } from 'primereact/radiobutton';
import { REQUEST_MESSAGES as M, REQUEST_NOTE_MAX_LENGTH, topUpPrice, type RequestKind, type RequestLineWire, type RequestOptionsWire } from '../../domain/requests';
import { CustomerDialog } from '../customers/CustomerDialog';
import { LabelledSelect } from './LabelledSelect';

export const OPTIONS_LOADING_TEXT = 'Loading what this line may ask for...';
export const SENDING_TEXT = 'Sending...';
export const CANCELLING_TEXT = 'Cancelling...';
export const CANCEL_REQUEST_TITLE = 'Cancel request';

/** `line`: choose the line; `loading`: its options load; `edit`: the form; `cancel`: the question. */
export type NewRequestStep = 'line' | 'loading' | 'edit' | 'cancel';

export interface NewRequestDialogProps {
  visible: boolean;
  step: NewRequestStep;
  lines: readonly RequestLineWire[];
  serviceLineNumber: string | null;
  options: RequestOptionsWire | null;
  kind: RequestKind;
  planId: string | null;
  count: number;
  note: string;
  /** The form is complete (the chart lets it be sent). */
  canSubmit: boolean;
  /** Why the options could not be loaded, or why the server refused. */
  error: string | null;
  busy: boolean;
  onLine(serviceLineNumber: string): void;
  onKind(kind: RequestKind): void;
  onPlan(productId: string): void;
  onCount(count: number): void;
  onNote(value: string): void;
  onSubmit(): void;
  onConfirmCancel(): void;
  onClose(): void;
}

const money = (amount: number | null, currency: string | null) => (amount === null ? '—' : `${currency ?? ''} ${amount.toFixed(2)}`.trim());
const lineLabel = (line: RequestLineWire) => (line.nickname ? `${line.serviceLineNumber} (${line.nickname})` : line.serviceLineNumber);

function Form(props: NewRequestDialogProps) {
  const id = useId();
  const { options, busy } = props;
  if (!options) return null;
  const topUp = options.topUp;
  return (
    <>
      <p>Current plan: {options.currentPlan.name ?? options.currentPlan.productReferenceId}</p>
      <fieldset className="dialog-section">
        <legend className="dialog-section-title">What to ask for</legend>
        <div className="plan-option">
          <RadioButton inputId={`${id}-plan`} name="kind" value="plan_change" checked={props.kind === 'plan_change'} disabled={busy} onChange={() => props.onKind('plan_change')} />
          <label htmlFor={`${id}-plan`}>Plan change</label>
        </div>
        <div className="plan-option">
          <RadioButton inputId={`${id}-topup`} name="kind" value="top_up" checked={props.kind === 'top_up'} disabled={busy || !topUp} onChange={() => props.onKind('top_up')} />
          <label htmlFor={`${id}-topup`}>{topUp ? 'Top-up' : 'Top-up (not sold on this plan)'}</label>
        </div>
      </fieldset>
      {props.kind === 'plan_change' ? (
        <fieldset className="dialog-section">
          <legend className="dialog-section-title">New plan</legend>
          {options.plans.length === 0 && <p>No other plan is offered.</p>}
          <ul className="plan-options">
            {options.plans.map((plan) => (
              <li key={plan.productReferenceId} className="plan-option">
                <RadioButton
                  inputId={`${id}-${plan.productReferenceId}`}
                  name="plan"
                  value={plan.productReferenceId}
                  checked={props.planId === plan.productReferenceId}
                  disabled={busy}
                  onChange={() => props.onPlan(plan.productReferenceId)}
                />
                <label htmlFor={`${id}-${plan.productReferenceId}`}>
                  {plan.name} · {money(plan.price, plan.currency)} a month
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      ) : (
        topUp && (
          <fieldset className="dialog-section">
            <legend className="dialog-section-title">Top-up blocks</legend>
            {topUp.blocksLeft === 0 ? (
              <p>{M.topUpLimit(0)}</p>
            ) : (
              <>
                <LabelledSelect
                  label={`Blocks of ${topUp.product.dataGB} GB at ${money(topUp.product.price, topUp.product.currency)} each (${topUp.blocksLeft} left this cycle)`}
                  value={props.count}
                  options={Array.from({ length: topUp.blocksLeft }, (_, i) => ({ label: String(i + 1), value: i + 1 }))}
                  disabled={busy}
                  onChange={props.onCount}
                />
                <p>
                  Total: {props.count * topUp.product.dataGB} GB for {money(topUpPrice(topUp.product, props.count), topUp.product.currency)}
                </p>
              </>
            )}
          </fieldset>
        )
      )}
      <label htmlFor={`${id}-note`}>Note for the administrators (optional)</label>
      <InputTextarea id={`${id}-note`} value={props.note} maxLength={REQUEST_NOTE_MAX_LENGTH} rows={2} disabled={busy} onChange={(e) => props.onNote(e.target.value)} />
    </>
  );
}

export function NewRequestDialog(props: NewRequestDialogProps) {
  const { busy, step } = props;
  const cancelling = step === 'cancel';
  return (
    <CustomerDialog
      header={cancelling ? CANCEL_REQUEST_TITLE : M.newRequest}
      visible={props.visible}
      busy={busy}
      onClose={props.onClose}
      footer={
        <div className="dialog-footer">
          <Button type="button" label={cancelling ? 'Keep it' : 'Not now'} outlined disabled={busy} onClick={props.onClose} />
          {cancelling ? (
            <Button type="button" label={busy ? CANCELLING_TEXT : 'Cancel request'} severity="danger" disabled={busy} onClick={props.onConfirmCancel} />
          ) : (
            <Button type="button" label={busy ? SENDING_TEXT : 'Send request'} icon="pi pi-send" disabled={busy || step !== 'edit' || !props.canSubmit} onClick={props.onSubmit} />
          )}
        </div>
      }
    >
      {cancelling ? (
        <p>{M.cancelConfirm}</p>
      ) : (
        <>
          <LabelledSelect
            label="Service line"
            value={props.serviceLineNumber}
            options={props.lines.map((line) => ({ label: lineLabel(line), value: line.serviceLineNumber }))}
            placeholder="Choose a line"
            disabled={busy || step === 'loading'}
            onChange={props.onLine}
          />
          {step === 'loading' && <p role="status">{OPTIONS_LOADING_TEXT}</p>}
          {step === 'edit' && <Form {...props} />}
        </>
      )}
      {props.error && <Message severity="error" text={props.error} className="dialog-message" />}
    </CustomerDialog>
  );
}
