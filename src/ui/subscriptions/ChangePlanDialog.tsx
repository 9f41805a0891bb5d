// "Change Plan": the terminal and its current plan, the plans the provider offers (the
// current one marked and not choosable), then a confirmation of the new monthly data and price.
// Renders props and calls callbacks; the steps are the subscription plan machine's states.
import { useId } from 'react';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { RadioButton } from 'primereact/radiobutton';
import { planLabel, SUBSCRIPTION_MESSAGES, type SubscriptionPlanWire, type SubscriptionWire } from '../../domain/subscriptions';
import { DASH } from '../common/format';
import { CustomerDialog } from '../customers/CustomerDialog';
import { money } from './format';
import './subscriptions.css';

export const PLANS_LOADING_TEXT = 'Loading plans...';
export const CHANGING_TEXT = 'Changing...';

/** `loading`: the plans are on their way; `choose`: the radio list; `confirm`: the summary of the change. */
export type ChangePlanStep = 'loading' | 'choose' | 'confirm';

export interface ChangePlanDialogProps {
  visible: boolean;
  subscription: SubscriptionWire | null;
  step: ChangePlanStep;
  plans: readonly SubscriptionPlanWire[];
  /** The chosen plan's productReferenceId. */
  chosen: string | null;
  error: string | null;
  /** The change runs: nothing can be changed or cancelled. */
  busy: boolean;
  onChoose(productReferenceId: string): void;
  onNext(): void;
  onBack(): void;
  onConfirm(): void;
  onCancel(): void;
}

const priceText = (plan: SubscriptionPlanWire) => (plan.price === null ? DASH : money(plan.price, plan.currency));

function PlanList(props: ChangePlanDialogProps) {
  const id = useId();
  const currentId = props.subscription?.productReferenceId ?? null;
  return (
    <fieldset className="dialog-section">
      <legend className="dialog-section-title">Available plans</legend>
      <ul className="plan-options">
        {props.plans.map((plan) => {
          const current = plan.productReferenceId === currentId;
          const inputId = `${id}-${plan.productReferenceId}`;
          return (
            <li key={plan.productReferenceId} className={current ? 'plan-option plan-option-current' : 'plan-option'}>
              <RadioButton
                inputId={inputId}
                name="plan"
                value={plan.productReferenceId}
                checked={props.chosen === plan.productReferenceId}
                disabled={current}
                onChange={() => props.onChoose(plan.productReferenceId)}
              />
              <label htmlFor={inputId}>
                {plan.name} · {planLabel(plan.monthlyDataGB)} per month · {priceText(plan)}
                {current && ' (current plan)'}
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

function Confirmation({ subscription, plan }: { subscription: SubscriptionWire; plan: SubscriptionPlanWire }) {
  return (
    <p className="dialog-section">
      Change {subscription.serviceLineNumber} from {subscription.plan} to {plan.name}: monthly data {planLabel(plan.monthlyDataGB)}, price{' '}
      {priceText(plan)}.
    </p>
  );
}

export function ChangePlanDialog(props: ChangePlanDialogProps) {
  const { busy, subscription, step } = props;
  const chosen = props.plans.find((p) => p.productReferenceId === props.chosen) ?? null;
  const confirming = step === 'confirm' && subscription !== null && chosen !== null;
  return (
    <CustomerDialog
      header={SUBSCRIPTION_MESSAGES.changePlan}
      visible={props.visible}
      busy={busy}
      onClose={props.onCancel}
      footer={
        <div className="dialog-footer">
          <Button type="button" label="Cancel" outlined disabled={busy} onClick={props.onCancel} />
          {confirming ? (
            <>
              <Button type="button" label="Back" outlined disabled={busy} onClick={props.onBack} />
              <Button
                type="button"
                label={busy ? CHANGING_TEXT : 'Confirm'}
                icon={busy ? 'pi pi-spin pi-spinner' : 'pi pi-check'}
                disabled={busy}
                onClick={props.onConfirm}
              />
            </>
          ) : (
            <Button type="button" label="Next" disabled={step !== 'choose' || chosen === null} onClick={props.onNext} />
          )}
        </div>
      }
    >
      {subscription && (
        <dl className="detail-fields">
          <div className="detail-field">
            <dt>Terminal</dt>
            <dd>
              {subscription.terminalId} · {subscription.serviceLineNumber}
            </dd>
          </div>
          <div className="detail-field">
            <dt>Current plan</dt>
            <dd>{subscription.plan}</dd>
          </div>
        </dl>
      )}
      {step === 'loading' && (
        <p role="status">
          <i className="pi pi-spin pi-spinner" aria-hidden="true" /> {PLANS_LOADING_TEXT}
        </p>
      )}
      {step === 'choose' && <PlanList {...props} />}
      {confirming && <Confirmation subscription={subscription} plan={chosen} />}
      {props.error && <Message severity="error" text={props.error} className="dialog-message" />}
    </CustomerDialog>
  );
}
