// The dialogs of the row actions: View Details, Edit Customer, Account Settings, Block and Unblock.
// Which one shows, and at which step, is the `step` prop (the route reads it from its machine).
import { useId, type FormEvent, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { Message } from 'primereact/message';
import { Skeleton } from 'primereact/skeleton';
import {
  CUSTOMER_FIELD_LIMITS,
  CUSTOMER_LINE_ENDING_MESSAGES,
  EXPIRATION_DAY_CHOICES,
  customerDisplayName,
  type CustomerListItem,
  type FieldErrors,
} from '../../domain/customers';
import type { ActivityEntry } from '../../domain/dashboard';
import { useNow } from '../common/useNow';
import { CustomerDialog } from './CustomerDialog';
import { ExpiryCell, StatusCell } from './CustomersView';
import { FormField, fieldA11y } from './CustomerCreateDialog';
import { DASH, daysLabel, expiryLabel, formatDate, formatDateTime } from './format';

export type EditField = 'name' | 'email' | 'company' | 'phone' | 'address';
export type EditForm = Record<EditField, string>;

export type CustomerActionStep =
  | { kind: 'closed' }
  | { kind: 'view'; customer: CustomerListItem; activity: ActivityEntry[] | null; loading: boolean; error: string | null }
  | { kind: 'edit'; customer: CustomerListItem; form: EditForm; errors: FieldErrors<EditField>; failure: string | null; busy: boolean }
  | {
      kind: 'settings';
      customer: CustomerListItem;
      days: number;
      extended: { days: number; until: string | null } | null;
      failure: string | null;
      busy: 'extending' | 'resending' | null;
    }
  | {
      kind: 'block';
      step: 'reason' | 'confirm';
      customer: CustomerListItem;
      reason: string;
      reasonError: string | null;
      /** Whether the option to also end their service lines is shown (lifecycle:manage only). */
      offerEndLines: boolean;
      endLines: boolean;
      failure: string | null;
      busy: boolean;
    }
  | { kind: 'unblock'; customer: CustomerListItem; failure: string | null; busy: boolean };

export interface CustomerActionDialogsProps {
  step: CustomerActionStep;
  onClose(): void;
  onRetry(): void;
  onField(field: EditField, value: string): void;
  onSubmit(): void;
  onReason(value: string): void;
  onEndLines(value: boolean): void;
  onConfirm(): void;
  onBack(): void;
  onDays(days: number): void;
  onExtend(): void;
  onResendLink(): void;
}

const DAY_OPTIONS = EXPIRATION_DAY_CHOICES.map((days) => ({ value: days, label: daysLabel(days) }));

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="detail-field">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

const text = (value: string | null | undefined) => (value == null || value.trim() === '' ? DASH : value);

function ActivityList({ activity, loading }: { activity: ActivityEntry[] | null; loading: boolean }) {
  if (loading) {
    return (
      <div aria-busy="true" aria-label="Loading activity">
        <Skeleton width="100%" height="1.25rem" className="stat-skeleton" />
        <Skeleton width="80%" height="1.25rem" />
      </div>
    );
  }
  if (activity === null) return <p className="text-muted">The activity could not be loaded.</p>;
  if (activity.length === 0) return <p className="text-muted">No activity recorded yet.</p>;
  return (
    <ul className="activity-feed" aria-label="Customer activity">
      {activity.map((entry) => (
        <li key={entry.id}>
          <span>{entry.description}</span>
          <time className="text-muted" dateTime={entry.createdAt}>
            {formatDateTime(entry.createdAt)}
          </time>
        </li>
      ))}
    </ul>
  );
}

function DetailDialog({ step, onClose, onRetry }: { step: Extract<CustomerActionStep, { kind: 'view' }>; onClose(): void; onRetry(): void }) {
  const now = useNow();
  const c = step.customer;
  return (
    <CustomerDialog
      header="Customer Details"
      onClose={onClose}
      wide
      footer={
        <div className="dialog-footer">
          <Button type="button" label="Close" outlined onClick={onClose} />
        </div>
      }
    >
      {step.error && (
        <Message
          severity="warn"
          className="dialog-message"
          content={
            <span>
              {step.error}.{' '}
              <Button type="button" label="Try Again" link size="small" onClick={onRetry} />
            </span>
          }
        />
      )}
      <section className="dialog-section" aria-label="Account">
        <dl className="detail-fields">
          <Field label="Company">{text(c.company)}</Field>
          <Field label="Name">{customerDisplayName(c)}</Field>
          <Field label="Email">{c.email}</Field>
          <Field label="Phone">{text(c.phone)}</Field>
          <Field label="Address">{text(c.address)}</Field>
          <Field label="Customer UUID">
            <span className="cell-mono">{c.uuid}</span>
          </Field>
          <Field label="Status">
            <StatusCell customer={c} />
          </Field>
          <Field label="MFA">{c.mfaEnabled ? 'Enabled' : 'Disabled'}</Field>
          <Field label="Password">{c.hasPassword ? 'Set by the customer' : 'Not set yet (setup link pending)'}</Field>
          <Field label="Account Expires">
            <ExpiryCell accountExpiresAt={c.accountExpiresAt} now={now} />
            {expiryLabel(c.accountExpiresAt, now).state === 'expiringSoon' && (
              <span className="cell-secondary"> {formatDate(c.accountExpiresAt)}</span>
            )}
          </Field>
          <Field label="Last Login">{formatDateTime(c.lastLogin, 'Never')}</Field>
          <Field label="Created">{formatDateTime(c.createdAt)}</Field>
          <Field label="Updated">{formatDateTime(c.updatedAt)}</Field>
          {c.blockedEnabled && (
            <>
              <Field label="Blocked Reason">{text(c.blockedReason)}</Field>
              <Field label="Blocked At">{formatDateTime(c.blockedAt)}</Field>
            </>
          )}
        </dl>
      </section>
      <section className="dialog-section" aria-label="Activity">
        <h3 className="dialog-section-title">Activity</h3>
        <ActivityList activity={step.activity} loading={step.loading} />
      </section>
    </CustomerDialog>
  );
}

function EditDialog({ step, ...props }: { step: Extract<CustomerActionStep, { kind: 'edit' }> } & CustomerActionDialogsProps) {
  const id = useId();
  const { form, errors, busy } = step;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!busy) props.onSubmit();
  };
  const input = (field: EditField, label: string, extra: { type?: string; autoComplete?: string } = {}) => (
    <FormField id={`${id}-${field}`} label={label} error={errors[field]}>
      <InputText
        id={`${id}-${field}`}
        name={field}
        value={form[field]}
        disabled={busy}
        onChange={(event) => props.onField(field, event.target.value)}
        {...extra}
        {...fieldA11y(`${id}-${field}`, errors[field])}
      />
    </FormField>
  );
  return (
    <CustomerDialog
      header="Edit Customer"
      busy={busy}
      onClose={props.onClose}
      footer={
        <div className="dialog-footer">
          <Button type="button" label="Cancel" outlined disabled={busy} onClick={props.onClose} />
          <Button
            type="submit"
            form={`${id}-form`}
            label={busy ? 'Saving...' : 'Save Changes'}
            icon={busy ? 'pi pi-spin pi-spinner' : 'pi pi-check'}
            disabled={busy}
          />
        </div>
      }
    >
      <form id={`${id}-form`} className="dialog-form" onSubmit={submit} noValidate aria-label="Edit Customer">
        {step.failure && <Message severity="error" text={step.failure} />}
        {input('company', 'Company Name', { autoComplete: 'organization' })}
        {input('name', 'Full Name', { autoComplete: 'name' })}
        {input('email', 'Email Address', { type: 'email', autoComplete: 'email' })}
        {input('phone', 'Phone', { type: 'tel', autoComplete: 'tel' })}
        <FormField id={`${id}-address`} label="Address" error={errors.address}>
          <InputTextarea
            id={`${id}-address`}
            name="address"
            rows={3}
            autoResize
            value={form.address}
            disabled={busy}
            onChange={(event) => props.onField('address', event.target.value)}
            {...fieldA11y(`${id}-address`, errors.address)}
          />
        </FormField>
      </form>
    </CustomerDialog>
  );
}

function SettingsDialog({ step, ...props }: { step: Extract<CustomerActionStep, { kind: 'settings' }> } & CustomerActionDialogsProps) {
  const id = useId();
  const now = useNow();
  const c = step.customer;
  const busy = step.busy !== null;
  return (
    <CustomerDialog
      header="Account Settings"
      busy={busy}
      onClose={props.onClose}
      footer={
        <div className="dialog-footer">
          <Button type="button" label="Close" outlined disabled={busy} onClick={props.onClose} />
        </div>
      }
    >
      <p className="text-muted">
        {customerDisplayName(c)} · {c.company || DASH} · {c.email}
      </p>
      {step.failure && <Message severity="error" text={step.failure} className="dialog-message" />}
      <section className="dialog-section" aria-labelledby={`${id}-expiry`}>
        <h3 id={`${id}-expiry`} className="dialog-section-title">
          Account expiry
        </h3>
        <dl className="detail-fields">
          <Field label="Expires">
            <ExpiryCell accountExpiresAt={c.accountExpiresAt} now={now} />
          </Field>
          <Field label="Expiry date">{c.accountExpiresAt ? formatDate(c.accountExpiresAt) : DASH}</Field>
        </dl>
        {step.extended && (
          <Message
            severity="success"
            className="dialog-message"
            text={`Extended by ${step.extended.days} days. The account now expires on ${formatDate(step.extended.until)}.`}
          />
        )}
        <div className="dialog-form">
          <FormField id={`${id}-days`} label="Extend by" error={null}>
            <Dropdown
              inputId={`${id}-days`}
              value={step.days}
              options={DAY_OPTIONS}
              optionLabel="label"
              optionValue="value"
              disabled={busy}
              onChange={(event) => props.onDays(Number(event.value))}
            />
          </FormField>
          <div>
            <Button
              type="button"
              label={step.busy === 'extending' ? 'Extending...' : 'Extend Account'}
              icon={step.busy === 'extending' ? 'pi pi-spin pi-spinner' : 'pi pi-calendar-plus'}
              disabled={busy}
              onClick={props.onExtend}
            />
          </div>
        </div>
      </section>
      <section className="dialog-section" aria-labelledby={`${id}-link`}>
        <h3 id={`${id}-link`} className="dialog-section-title">
          Password setup link
        </h3>
        <p className="field-hint">
          {c.hasPassword
            ? `${customerDisplayName(c)} has already chosen a password; a new link lets them choose another.`
            : `${customerDisplayName(c)} has not chosen a password yet.`}{' '}
          The link goes to {c.email}.
        </p>
        <Button
          type="button"
          label={step.busy === 'resending' ? 'Sending...' : 'Resend password link'}
          icon={step.busy === 'resending' ? 'pi pi-spin pi-spinner' : 'pi pi-envelope'}
          outlined
          disabled={busy}
          onClick={props.onResendLink}
          className="dialog-button"
        />
      </section>
    </CustomerDialog>
  );
}

function BlockDialog({ step, ...props }: { step: Extract<CustomerActionStep, { kind: 'block' }> } & CustomerActionDialogsProps) {
  const id = useId();
  const name = customerDisplayName(step.customer);
  const { busy } = step;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    props.onSubmit();
  };
  const confirming = step.step === 'confirm';
  return (
    <CustomerDialog
      header="Block Customer"
      busy={busy}
      onClose={props.onClose}
      footer={
        confirming ? (
          <div className="dialog-footer">
            <Button type="button" label="Back" outlined disabled={busy} onClick={props.onBack} />
            <Button
              type="button"
              label={busy ? 'Blocking...' : 'Block Customer'}
              icon={busy ? 'pi pi-spin pi-spinner' : 'pi pi-ban'}
              severity="danger"
              disabled={busy}
              onClick={props.onConfirm}
            />
          </div>
        ) : (
          <div className="dialog-footer">
            <Button type="button" label="Cancel" outlined onClick={props.onClose} />
            <Button type="submit" form={`${id}-form`} label="Continue" icon="pi pi-arrow-right" iconPos="right" severity="danger" />
          </div>
        )
      }
    >
      {step.failure && <Message severity="error" text={step.failure} className="dialog-message" />}
      {confirming ? (
        <div className="confirm-body">
          <i className="pi pi-exclamation-triangle confirm-icon" aria-hidden="true" />
          <div>
            <p>
              Block <strong>{name}</strong> ({step.customer.email})? They will not be able to sign in until unblocked.
            </p>
            <p className="confirm-reason" aria-label="Reason">
              {step.reason.trim()}
            </p>
            {step.offerEndLines && step.endLines && <p className="block-end-lines-note">{CUSTOMER_LINE_ENDING_MESSAGES.confirmNote}</p>}
          </div>
        </div>
      ) : (
        <form id={`${id}-form`} className="dialog-form" onSubmit={submit} noValidate aria-label="Block Customer">
          <p>
            Blocking <strong>{name}</strong> ({step.customer.email}) stops them signing in. The reason is kept with the
            account and shown on the customers list.
          </p>
          <FormField
            id={`${id}-reason`}
            label="Reason"
            error={step.reasonError}
            hint={`${step.reason.trim().length} / ${CUSTOMER_FIELD_LIMITS.blockedReason} characters`}
          >
            <InputTextarea
              id={`${id}-reason`}
              name="reason"
              rows={3}
              autoResize
              value={step.reason}
              onChange={(event) => props.onReason(event.target.value)}
              {...fieldA11y(`${id}-reason`, step.reasonError)}
            />
          </FormField>
          {step.offerEndLines && (
            <div className="block-end-lines">
              <Checkbox
                inputId={`${id}-end-lines`}
                checked={step.endLines}
                aria-describedby={`${id}-end-lines-hint`}
                onChange={(event) => props.onEndLines(event.checked === true)}
              />
              <div>
                <label htmlFor={`${id}-end-lines`}>{CUSTOMER_LINE_ENDING_MESSAGES.option}</label>
                <small id={`${id}-end-lines-hint`} className="field-hint">
                  {CUSTOMER_LINE_ENDING_MESSAGES.optionHint}
                </small>
              </div>
            </div>
          )}
        </form>
      )}
    </CustomerDialog>
  );
}

function UnblockDialog({ step, ...props }: { step: Extract<CustomerActionStep, { kind: 'unblock' }> } & CustomerActionDialogsProps) {
  const name = customerDisplayName(step.customer);
  const { busy } = step;
  return (
    <CustomerDialog
      header="Unblock Customer"
      busy={busy}
      onClose={props.onClose}
      footer={
        <div className="dialog-footer">
          <Button type="button" label="Cancel" outlined disabled={busy} onClick={props.onClose} />
          <Button
            type="button"
            label={busy ? 'Unblocking...' : 'Unblock Customer'}
            icon={busy ? 'pi pi-spin pi-spinner' : 'pi pi-lock-open'}
            disabled={busy}
            onClick={props.onConfirm}
          />
        </div>
      }
    >
      {step.failure && <Message severity="error" text={step.failure} className="dialog-message" />}
      <div className="confirm-body">
        <i className="pi pi-question-circle confirm-icon" aria-hidden="true" />
        <div>
          <p>
            Unblock <strong>{name}</strong> ({step.customer.email})? They will be able to sign in again.
          </p>
          {step.customer.blockedReason && (
            <p className="text-muted">
              Blocked for: <span>{step.customer.blockedReason}</span>
            </p>
          )}
        </div>
      </div>
    </CustomerDialog>
  );
}

export function CustomerActionDialogs(props: CustomerActionDialogsProps) {
  const { step } = props;
  switch (step.kind) {
    case 'view':
      return <DetailDialog step={step} onClose={props.onClose} onRetry={props.onRetry} />;
    case 'edit':
      return <EditDialog {...props} step={step} />;
    case 'settings':
      return <SettingsDialog {...props} step={step} />;
    case 'block':
      return <BlockDialog {...props} step={step} />;
    case 'unblock':
      return <UnblockDialog {...props} step={step} />;
    default:
      return null;
  }
}
