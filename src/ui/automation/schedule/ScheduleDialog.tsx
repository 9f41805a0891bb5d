// "Schedule a change": the target (given, or chosen here), what to do and its parameters, and when
// (a date and time, or a line's next billing cycle). Renders props and calls callbacks; the steps
// are the schedule change machine's states.
import { useId } from 'react';
import { Calendar } from 'primereact/calendar';
import { RadioButton } from 'primereact/radiobutton';
import { SCHEDULE_OPERATION_LABELS, latestScheduleTime } from '../../../domain/automation';
import { FieldError } from '../../common/FieldError';
import { FormDialog } from '../../common/FormDialog';
import { LabelledSelect } from '../../requests/LabelledSelect';
import { ParameterFields } from './ParameterFields';
import { TargetFields } from './TargetFields';
import type { ScheduleDialogActions, ScheduleDialogState, ScheduleTiming } from './types';

export const SCHEDULE_DIALOG_TEXTS = {
  title: 'Schedule a change',
  submit: 'Schedule',
  busy: 'Scheduling...',
  operation: 'What to do',
  when: 'When',
  at: 'At a date and time',
  nextCycle: 'At the start of the next billing cycle',
  dateTime: 'Date and time',
} as const;

export interface ScheduleDialogProps {
  state: ScheduleDialogState;
  actions: ScheduleDialogActions;
  /** Now, for the picker's earliest and latest days. */
  now: number;
}

export function ScheduleDialog({ state, actions, now }: ScheduleDialogProps) {
  const id = useId();
  const { form, errors, busy } = state;
  const timings: ScheduleTiming[] = state.nextCycleOffered ? ['at', 'nextCycle'] : ['at'];
  return (
    <FormDialog
      header={SCHEDULE_DIALOG_TEXTS.title}
      visible={state.open}
      busy={busy}
      submitLabel={SCHEDULE_DIALOG_TEXTS.submit}
      busyLabel={SCHEDULE_DIALOG_TEXTS.busy}
      failure={state.failure}
      onSubmit={actions.onSubmit}
      onCancel={actions.onClose}
    >
      <TargetFields id={id} state={state} actions={actions} />
      <div className="form-field">
        <LabelledSelect
          label={SCHEDULE_DIALOG_TEXTS.operation}
          value={form.operation || null}
          options={state.operations.map((value) => ({ label: SCHEDULE_OPERATION_LABELS[value], value }))}
          placeholder="Choose an operation"
          disabled={busy}
          onChange={actions.onOperation}
        />
        <FieldError id={`${id}-operation-error`} message={errors.operation} />
      </div>
      <ParameterFields id={id} state={state} actions={actions} />
      <fieldset className="form-field" disabled={busy}>
        <legend>{SCHEDULE_DIALOG_TEXTS.when}</legend>
        {timings.length > 1 &&
          timings.map((timing) => (
            <div key={timing} className="checkbox-row">
              <RadioButton inputId={`${id}-timing-${timing}`} name={`${id}-timing`} value={timing} checked={form.timing === timing} onChange={() => actions.onTiming(timing)} />
              <label htmlFor={`${id}-timing-${timing}`}>{SCHEDULE_DIALOG_TEXTS[timing]}</label>
            </div>
          ))}
        {form.timing === 'at' && (
          <>
            <label htmlFor={`${id}-at`}>{SCHEDULE_DIALOG_TEXTS.dateTime}</label>
            <Calendar
              inputId={`${id}-at`}
              value={form.at ? new Date(form.at) : null}
              showTime
              hourFormat="24"
              dateFormat="yy-mm-dd"
              showIcon
              minDate={new Date(now)}
              maxDate={latestScheduleTime(new Date(now))}
              disabled={busy}
              invalid={!!errors.at}
              aria-describedby={errors.at ? `${id}-at-error` : undefined}
              onChange={(e) => actions.onAt(e.value instanceof Date ? e.value.toISOString() : '')}
            />
          </>
        )}
        <FieldError id={`${id}-at-error`} message={errors.at} />
      </fieldset>
    </FormDialog>
  );
}
