// Add or edit one webhook endpoint: URL, description, event types (none chosen: every event).
// Renders props and calls callbacks; the steps are the webhook endpoint machine's states.
import { useId } from 'react';
import { Checkbox } from 'primereact/checkbox';
import { InputText } from 'primereact/inputtext';
import {
  SUBSCRIBABLE_EVENT_TYPES,
  WEBHOOK_DESCRIPTION_MAX_LENGTH,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_URL_MAX_LENGTH,
  type WebhookEventType,
} from '../../domain/webhooks';
import type { FieldErrors } from '../../domain/customers';
import { FieldError } from '../common/FieldError';
import { FormDialog } from '../common/FormDialog';
import { WEBHOOK_TEXTS as T } from './parts';

/** The form as the dialog shows it (the webhook endpoint machine's context has this shape). */
export interface EndpointFormValues {
  url: string;
  description: string;
  /** None chosen: every event type. */
  eventTypes: WebhookEventType[];
}

export interface EndpointDialogProps {
  visible: boolean;
  mode: 'create' | 'edit';
  form: EndpointFormValues;
  errors: FieldErrors<'url' | 'description' | 'eventTypes'>;
  failure: string | null;
  busy: boolean;
  onField(field: 'url' | 'description', value: string): void;
  onEventTypes(eventTypes: WebhookEventType[]): void;
  onSubmit(): void;
  onCancel(): void;
}

export function EndpointDialog(props: EndpointDialogProps) {
  const id = useId();
  const { form, errors, busy } = props;
  return (
    <FormDialog
      header={props.mode === 'create' ? T.addTitle : T.editTitle}
      visible={props.visible}
      busy={busy}
      submitLabel="Save"
      busyLabel={T.saving}
      failure={props.failure}
      onSubmit={props.onSubmit}
      onCancel={props.onCancel}
    >
      <div className="form-field">
        <label htmlFor={`${id}-url`}>URL</label>
        <InputText
          id={`${id}-url`}
          value={form.url}
          placeholder="https://example.com/hooks"
          maxLength={WEBHOOK_URL_MAX_LENGTH}
          disabled={busy}
          invalid={errors.url !== undefined}
          aria-invalid={errors.url !== undefined}
          aria-describedby={errors.url ? `${id}-url-error` : undefined}
          onChange={(e) => props.onField('url', e.target.value)}
        />
        <FieldError id={`${id}-url-error`} message={errors.url} />
      </div>
      <div className="form-field">
        <label htmlFor={`${id}-description`}>Description</label>
        <InputText
          id={`${id}-description`}
          value={form.description}
          maxLength={WEBHOOK_DESCRIPTION_MAX_LENGTH}
          disabled={busy}
          invalid={errors.description !== undefined}
          aria-describedby={errors.description ? `${id}-description-error` : undefined}
          onChange={(e) => props.onField('description', e.target.value)}
        />
        <FieldError id={`${id}-description-error`} message={errors.description} />
      </div>
      {/* A checkbox per event type: three choices read better than a drop-down, and none chosen is "every event". */}
      <fieldset className="form-field webhook-event-types" disabled={busy}>
        <legend>Event types</legend>
        {SUBSCRIBABLE_EVENT_TYPES.map((type) => (
          <div key={type} className="checkbox-row">
            <Checkbox
              inputId={`${id}-event-${type}`}
              checked={form.eventTypes.includes(type)}
              disabled={busy}
              onChange={(e) => props.onEventTypes(SUBSCRIBABLE_EVENT_TYPES.filter((t) => (t === type ? e.checked === true : form.eventTypes.includes(t))))}
            />
            <label htmlFor={`${id}-event-${type}`}>{WEBHOOK_EVENT_LABELS[type]}</label>
          </div>
        ))}
        <small className="cell-secondary">{T.eventTypesHint}</small>
        <FieldError id={`${id}-events-error`} message={errors.eventTypes} />
      </fieldset>
    </FormDialog>
  );
}
