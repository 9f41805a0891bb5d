// The schedule dialog's parameters of the chosen operation: the plan, the recurring block and how
// many, a reason, or the days to extend by. Operations without parameters show nothing.
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { SCHEDULE_BLOCKS_MAX, SCHEDULE_EXTEND_MAX_DAYS, SCHEDULE_REASON_MAX_LENGTH } from '../../../domain/automation';
import { FieldError } from '../../common/FieldError';
import { FormField, fieldA11y } from '../../customers/CustomerCreateDialog';
import { LabelledSelect } from '../../requests/LabelledSelect';
import type { ScheduleDialogActions, ScheduleDialogState } from './types';

export const PARAMETER_TEXTS = {
  plan: 'Plan',
  plansLoading: 'Loading plans...',
  retryPlans: 'Try again',
  blockProduct: 'Recurring block',
  blockCount: 'Number of blocks',
  reason: 'Reason',
  days: 'Days to extend by',
} as const;

export function ParameterFields({ id, state, actions }: { id: string; state: ScheduleDialogState; actions: ScheduleDialogActions }) {
  const { form, errors, busy } = state;
  switch (form.operation) {
    case 'change_plan':
      if (state.plansLoading) return <p role="status">{PARAMETER_TEXTS.plansLoading}</p>;
      if (state.plans === null) {
        return (
          <div className="form-field">
            <small className="p-error">{state.plansError}</small>
            <Button type="button" label={PARAMETER_TEXTS.retryPlans} size="small" outlined onClick={actions.onRetryPlans} />
          </div>
        );
      }
      return (
        <div className="form-field">
          <LabelledSelect
            label={PARAMETER_TEXTS.plan}
            value={form.productReferenceId || null}
            options={state.plans.map((p) => ({ label: p.name, value: p.productReferenceId }))}
            placeholder="Choose a plan"
            disabled={busy}
            onChange={(value) => actions.onParameter('productReferenceId', value)}
          />
          <FieldError id={`${id}-plan-error`} message={errors.productReferenceId} />
        </div>
      );
    case 'recurring_blocks':
      return (
        <>
          {state.blockProducts.length > 0 ? (
            <div className="form-field">
              <LabelledSelect
                label={PARAMETER_TEXTS.blockProduct}
                value={form.productId || null}
                options={state.blockProducts.map((p) => ({ label: p, value: p }))}
                disabled={busy}
                onChange={(value) => actions.onParameter('productId', value)}
              />
              <FieldError id={`${id}-block-error`} message={errors.productId} />
            </div>
          ) : (
            <FormField id={`${id}-block`} label={PARAMETER_TEXTS.blockProduct} error={errors.productId} hint="The block's product id, e.g. DATA-BLOCK-PRIORITY-50GB">
              <InputText id={`${id}-block`} value={form.productId} disabled={busy} onChange={(e) => actions.onParameter('productId', e.target.value)} {...fieldA11y(`${id}-block`, errors.productId)} />
            </FormField>
          )}
          <FormField id={`${id}-count`} label={PARAMETER_TEXTS.blockCount} error={errors.count} hint={`0 to ${SCHEDULE_BLOCKS_MAX}; 0 stops them`}>
            <InputText id={`${id}-count`} inputMode="numeric" value={form.count} disabled={busy} onChange={(e) => actions.onParameter('count', e.target.value)} {...fieldA11y(`${id}-count`, errors.count)} />
          </FormField>
        </>
      );
    case 'deactivate':
    case 'block':
      return (
        <FormField id={`${id}-reason`} label={PARAMETER_TEXTS.reason} error={errors.reason}>
          <InputTextarea
            id={`${id}-reason`}
            value={form.reason}
            rows={3}
            maxLength={SCHEDULE_REASON_MAX_LENGTH}
            disabled={busy}
            onChange={(e) => actions.onParameter('reason', e.target.value)}
            {...fieldA11y(`${id}-reason`, errors.reason)}
          />
        </FormField>
      );
    case 'extend':
      return (
        <FormField id={`${id}-days`} label={PARAMETER_TEXTS.days} error={errors.days} hint={`1 to ${SCHEDULE_EXTEND_MAX_DAYS}`}>
          <InputText id={`${id}-days`} inputMode="numeric" value={form.days} disabled={busy} onChange={(e) => actions.onParameter('days', e.target.value)} {...fieldA11y(`${id}-days`, errors.days)} />
        </FormField>
      );
    default:
      return null;
  }
}
