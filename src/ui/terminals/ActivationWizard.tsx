// "Add Terminal": the activation wizard's dialog. A steps indicator, then one step's form (kit or
// dish serial, customer, service address, plan, nickname, review), the running spinner, and the
// outcome: every provider step with its state, the new service line or the error and Resume.
// Renders props and calls callbacks; which buttons show is what the route says the chart takes.
import { useId, type FormEvent, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { ProgressSpinner } from 'primereact/progressspinner';
import { RadioButton } from 'primereact/radiobutton';
import { Steps } from 'primereact/steps';
import { ACTIVATION_NICKNAME_MAX_LENGTH, type ActivationWire } from '../../domain/activations';
import type { ProviderAccountRef } from '../../domain/provider-accounts';
import { AccountPicker } from '../common/AccountPicker';
import { CustomerDialog } from '../customers/CustomerDialog';
import '../customers/customers.css';
import './terminals.css';

export const ACTIVATION_WIZARD_TEXTS = {
  header: 'Add Terminal',
  device: 'Kit or dish serial',
  customerSearch: 'Search customers',
  noCustomer: 'No customer (keep it in the inventory)',
  addressSearch: 'Search addresses',
  useExisting: 'Use an existing address',
  enterNew: 'Enter a new address',
  nickname: 'Nickname (optional)',
  next: 'Next',
  back: 'Back',
  activate: 'Activate',
  resume: 'Resume',
  close: 'Close',
  retry: 'Try Again',
  running: 'Activating the terminal…',
  loadingCustomers: 'Loading customers…',
  loadingAddresses: 'Loading addresses…',
  loadingPlans: 'Loading plans…',
  noAddresses: 'No addresses match.',
  noCustomers: 'No customers match.',
  doneTitle: 'Terminal activated',
  stoppedTitle: 'The activation stopped',
  stepsLabel: 'Activation steps',
} as const;

export const ADDRESS_FIELD_LABELS = {
  addressLine1: 'Address line 1',
  addressLine2: 'Address line 2',
  locality: 'Locality',
  region: 'Region',
  postalCode: 'Postal code',
  formattedAddress: 'Formatted address',
  latitude: 'Latitude',
  longitude: 'Longitude',
} as const;
export type WizardAddressField = keyof typeof ADDRESS_FIELD_LABELS;

export interface WizardCustomer {
  uuid: string;
  name: string;
}
export interface WizardAddress {
  addressReferenceId: string;
  formattedAddress: string;
  locality: string | null;
  region: string | null;
}
export interface WizardProduct {
  productReferenceId: string;
  name: string;
  monthlyDataGB: number;
  price: number | null;
  currency: string;
}

export type WizardStepName = 'device' | 'customer' | 'address' | 'product' | 'nickname' | 'review' | 'running' | 'done' | 'stopped';

export interface ActivationWizardProps {
  step: WizardStepName;
  /** The customer was chosen by the page: no customer step. */
  customerPreset: boolean;
  deviceId: string;
  deviceError: string | null;
  /** The provider accounts to activate under (absent: the portal has one, and nothing to choose). */
  accounts?: readonly ProviderAccountRef[];
  accountId: number | null;
  customerSearch: string;
  customers: readonly WizardCustomer[];
  customer: WizardCustomer | null;
  /** A list being loaded (customers, addresses or plans). */
  loading: boolean;
  /** Why the step's list could not be loaded. */
  loadError: string | null;
  /** The address the review shows: an existing one or the new form. */
  addressMode: 'existing' | 'new';
  /** Where the address step is. */
  addressStep: 'loading' | 'failed' | 'existing' | 'new' | null;
  addressSearch: string;
  addresses: readonly WizardAddress[];
  addressReferenceId: string | null;
  addressError: string | null;
  addressForm: Record<WizardAddressField, string>;
  addressErrors: Partial<Record<WizardAddressField, string>>;
  plans: readonly WizardProduct[];
  productReferenceId: string | null;
  productError: string | null;
  nickname: string;
  nicknameError: string | null;
  activation: ActivationWire | null;
  /** A refused start or resume, in the server's words. */
  failure: string | null;
  /** What the chart takes from here. */
  offered: { back: boolean; next: boolean; confirm: boolean; resume: boolean; close: boolean; newAddress: boolean; existingAddress: boolean; retry: boolean };
  onDeviceId(value: string): void;
  onAccount(id: number): void;
  onCustomerSearch(value: string): void;
  onCustomer(customer: WizardCustomer | null): void;
  onAddressSearch(value: string): void;
  onAddress(addressReferenceId: string): void;
  onNewAddress(): void;
  onExistingAddress(): void;
  onAddressField(field: WizardAddressField, value: string): void;
  onProduct(productReferenceId: string): void;
  onNickname(value: string): void;
  onRetry(): void;
  onNext(): void;
  onBack(): void;
  onConfirm(): void;
  onResume(): void;
  onClose(): void;
}

export const priceText = (price: number | null, currency: string) =>
  price === null ? 'price on request' : `${new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(price)} a month`;
export const productLabel = (p: WizardProduct) => `${p.name} · ${priceText(p.price, p.currency)}`;
export const addressLabel = (a: WizardAddress) => a.formattedAddress;

function Field({ id, label, error, children }: { id: string; label: string; error?: string | null | undefined; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {error && (
        <small id={`${id}-error`} className="p-error">
          {error}
        </small>
      )}
    </div>
  );
}

function TextField(props: { label: string; value: string; error?: string | null | undefined; onChange(value: string): void; maxLength?: number; autoFocus?: boolean }) {
  const id = useId();
  return (
    <Field id={id} label={props.label} error={props.error}>
      <InputText
        id={id}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        {...(props.maxLength ? { maxLength: props.maxLength } : {})}
        {...(props.autoFocus ? { autoFocus: true } : {})}
      />
    </Field>
  );
}

function Choices<T>(props: { label: string; items: readonly T[]; keyOf(item: T): string; labelOf(item: T): string; selected: string | null; onPick(item: T): void; error?: string | null }) {
  const name = useId();
  return (
    <fieldset className="wizard-choices" aria-invalid={props.error ? true : undefined}>
      <legend className="sr-only">{props.label}</legend>
      {props.items.map((item) => {
        const key = props.keyOf(item);
        const id = `${name}-${key}`;
        return (
          <div key={key} className="wizard-choice">
            <RadioButton inputId={id} name={name} value={key} checked={props.selected === key} onChange={() => props.onPick(item)} />
            <label htmlFor={id}>{props.labelOf(item)}</label>
          </div>
        );
      })}
      {props.error && (
        <Message severity="error" text={props.error} />
      )}
    </fieldset>
  );
}

function Loading({ text }: { text: string }) {
  return (
    <p className="field-hint" role="status">
      <i className="pi pi-spin pi-spinner" aria-hidden="true" /> {text}
    </p>
  );
}

function LoadFailed({ message, onRetry }: { message: string; onRetry(): void }) {
  return (
    <div role="alert" className="wizard-load-failed">
      <p>{message}</p>
      <Button type="button" label={ACTIVATION_WIZARD_TEXTS.retry} size="small" outlined onClick={onRetry} />
    </div>
  );
}

/** Every provider step with its state: done, skipped, or not done. */
function StepList({ activation }: { activation: ActivationWire }) {
  return (
    <ol className="wizard-step-list" aria-label={ACTIVATION_WIZARD_TEXTS.stepsLabel}>
      {activation.steps.map((s) => {
        const state = s.skipped ? 'skipped' : s.doneAt ? 'done' : 'not done';
        return (
          <li key={s.step} className={`wizard-step wizard-step-${state.replace(' ', '-')}`}>
            <i className={`pi ${state === 'done' ? 'pi-check-circle' : state === 'skipped' ? 'pi-minus-circle' : 'pi-circle'}`} aria-hidden="true" />{' '}
            {s.label}: <span>{state}</span>
          </li>
        );
      })}
    </ol>
  );
}

const FORM_STEPS: { name: WizardStepName; label: string }[] = [
  { name: 'device', label: 'Terminal' },
  { name: 'customer', label: 'Customer' },
  { name: 'address', label: 'Address' },
  { name: 'product', label: 'Plan' },
  { name: 'nickname', label: 'Nickname' },
  { name: 'review', label: 'Review' },
];

export function ActivationWizard(props: ActivationWizardProps) {
  const T = ACTIVATION_WIZARD_TEXTS;
  const busy = props.step === 'running';
  const steps = FORM_STEPS.filter((s) => !(props.customerPreset && s.name === 'customer'));
  const active = steps.findIndex((s) => s.name === props.step);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (props.step === 'review') props.onConfirm();
    else if (props.offered.next) props.onNext();
  };
  const { offered } = props;
  const primary = offered.confirm ? T.activate : offered.next ? T.next : null;

  const footer = (
    <div className="dialog-footer">
      {offered.back && <Button type="button" label={T.back} outlined onClick={props.onBack} />}
      {offered.close && <Button type="button" label={T.close} outlined={primary !== null || offered.resume} onClick={props.onClose} />}
      {offered.resume && <Button type="button" label={T.resume} icon="pi pi-replay" onClick={props.onResume} />}
      {primary && <Button type="button" label={primary} onClick={offered.confirm ? props.onConfirm : props.onNext} />}
    </div>
  );

  return (
    <CustomerDialog header={T.header} busy={busy} onClose={props.onClose} footer={footer} wide>
      {active >= 0 && <Steps model={steps.map((s) => ({ label: s.label }))} activeIndex={active} readOnly aria-label="Wizard steps" />}
      <form id="activation-wizard-form" onSubmit={submit} noValidate>
        <Body {...props} />
      </form>
    </CustomerDialog>
  );
}

function Body(props: ActivationWizardProps) {
  const T = ACTIVATION_WIZARD_TEXTS;
  switch (props.step) {
    case 'device':
      return (
        <>
          {props.accounts && (
            <div className="account-picker">
              <AccountPicker
                accounts={props.accounts}
                value={props.accountId}
                onChange={(id) => id !== null && props.onAccount(id)}
                label="Provider account"
              />
            </div>
          )}
          <TextField label={T.device} value={props.deviceId} error={props.deviceError} onChange={props.onDeviceId} autoFocus />
        </>
      );
    case 'customer':
      return (
        <>
          <TextField label={T.customerSearch} value={props.customerSearch} onChange={props.onCustomerSearch} />
          {props.loading ? (
            <Loading text={T.loadingCustomers} />
          ) : props.loadError ? (
            <LoadFailed message={props.loadError} onRetry={props.onRetry} />
          ) : (
            <>
              <Choices
                label="Customer"
                items={[null, ...props.customers]}
                keyOf={(c) => c?.uuid ?? ''}
                labelOf={(c) => c?.name ?? T.noCustomer}
                selected={props.customer?.uuid ?? ''}
                onPick={(c) => props.onCustomer(c)}
              />
              {props.customers.length === 0 && <p className="field-hint">{T.noCustomers}</p>}
            </>
          )}
        </>
      );
    case 'address':
      return <AddressStep {...props} />;
    case 'product':
      return props.loading ? (
        <Loading text={T.loadingPlans} />
      ) : props.loadError ? (
        <LoadFailed message={props.loadError} onRetry={props.onRetry} />
      ) : (
        <Choices
          label="Plan"
          items={props.plans}
          keyOf={(p) => p.productReferenceId}
          labelOf={productLabel}
          selected={props.productReferenceId}
          onPick={(p) => props.onProduct(p.productReferenceId)}
          error={props.productError}
        />
      );
    case 'nickname':
      return (
        <TextField label={T.nickname} value={props.nickname} error={props.nicknameError} onChange={props.onNickname} maxLength={ACTIVATION_NICKNAME_MAX_LENGTH + 20} autoFocus />
      );
    case 'review':
      return <Review {...props} />;
    case 'running':
      return (
        <div className="wizard-running" role="status">
          <ProgressSpinner style={{ width: '2.5rem', height: '2.5rem' }} aria-hidden="true" />
          <p>{T.running}</p>
        </div>
      );
    case 'done':
      return (
        <section aria-label={T.doneTitle}>
          <Message severity="success" text={`${T.doneTitle} on service line ${props.activation?.serviceLineNumber ?? ''}`} />
          {props.activation && <StepList activation={props.activation} />}
        </section>
      );
    case 'stopped':
      return (
        <section aria-label={T.stoppedTitle}>
          <div role="alert" className="wizard-stopped">
            <p>{T.stoppedTitle}: {props.activation?.error ?? 'no reason given'}</p>
            {props.failure && <p>{props.failure}</p>}
          </div>
          {props.activation && <StepList activation={props.activation} />}
        </section>
      );
  }
}

function AddressStep(props: ActivationWizardProps) {
  const T = ACTIVATION_WIZARD_TEXTS;
  const newMode = props.addressStep === 'new';
  return (
    <>
      <div className="wizard-address-mode">
        {props.offered.newAddress && <Button type="button" label={T.enterNew} icon="pi pi-plus" size="small" outlined onClick={props.onNewAddress} />}
        {props.offered.existingAddress && <Button type="button" label={T.useExisting} icon="pi pi-list" size="small" outlined onClick={props.onExistingAddress} />}
      </div>
      {newMode ? (
        <div className="wizard-address-form">
          {(Object.keys(ADDRESS_FIELD_LABELS) as WizardAddressField[]).map((field) => (
            <TextField
              key={field}
              label={ADDRESS_FIELD_LABELS[field]}
              value={props.addressForm[field]}
              error={props.addressErrors[field]}
              onChange={(value) => props.onAddressField(field, value)}
            />
          ))}
        </div>
      ) : (
        <>
          {(props.loading || props.loadError === null) && (
            <TextField label={T.addressSearch} value={props.addressSearch} onChange={props.onAddressSearch} />
          )}
          {props.loading ? (
            <Loading text={T.loadingAddresses} />
          ) : props.loadError ? (
            <LoadFailed message={props.loadError} onRetry={props.onRetry} />
          ) : (
            <>
              <Choices
                label="Address"
                items={props.addresses}
                keyOf={(a) => a.addressReferenceId}
                labelOf={addressLabel}
                selected={props.addressReferenceId}
                onPick={(a) => props.onAddress(a.addressReferenceId)}
                error={props.addressError}
              />
              {props.addresses.length === 0 && <p className="field-hint">{T.noAddresses}</p>}
            </>
          )}
        </>
      )}
    </>
  );
}

function Review(props: ActivationWizardProps) {
  const address =
    props.addressMode === 'new'
      ? props.addressForm.formattedAddress
      : (props.addresses.find((a) => a.addressReferenceId === props.addressReferenceId)?.formattedAddress ?? '');
  const plan = props.plans.find((p) => p.productReferenceId === props.productReferenceId);
  const facts: [string, string][] = [
    ['Terminal', props.deviceId.trim()],
    ['Customer', props.customer?.name ?? 'None'],
    ['Address', props.addressMode === 'new' ? `${address} (new)` : address],
    ['Plan', plan ? productLabel(plan) : ''],
    ['Nickname', props.nickname.trim() || 'None'],
  ];
  return (
    <>
      <dl className="detail-fields" aria-label="Review">
        {facts.map(([label, value]) => (
          <div key={label} className="detail-field">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {props.failure && <Message severity="error" text={props.failure} role="alert" />}
    </>
  );
}
