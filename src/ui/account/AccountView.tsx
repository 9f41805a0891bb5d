// The customer's own account (/my/account): the profile they may edit (name, company,
// phone, address; the email is the administrator's), Change Password and the MFA card — the same
// form and card as Settings. With `readOnly` (the admin's "View as customer" preview) it shows the
// same facts with every action hidden.
import { useId, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { Message } from 'primereact/message';
import { Tag } from 'primereact/tag';
import { PAGE_TITLES } from '../../domain/navigation';
import { PageHeader } from '../common/PageHeader';
import { ChangePasswordForm, type ChangePasswordFormProps } from '../settings/ChangePasswordForm';
import { MfaCard, type MfaCardProps } from '../settings/MfaCard';
import '../settings/settings.css';

export type AccountProfileField = 'name' | 'company' | 'phone' | 'address';

/** What the page shows of the account, as the session (or the preview) has it. */
export interface AccountSummary {
  email: string;
  name: string;
  company: string;
  phone: string | null;
  address: string | null;
  mfaEnabled: boolean;
}

export interface AccountProfileFormProps {
  form: Record<AccountProfileField, string>;
  errors: Partial<Record<AccountProfileField, string>>;
  /** A failure that is no field's. */
  failure: string | null;
  busy: boolean;
  /** The fields offered: a member of an organisation has only their own name (the company is its owner's). */
  fields?: readonly AccountProfileField[];
  onField(field: AccountProfileField, value: string): void;
  onSubmit(): void;
}

interface CommonProps {
  account: AccountSummary;
  onNavigate(url: string): void;
}

export type AccountViewProps =
  | (CommonProps & { readOnly: true })
  | (CommonProps & { readOnly?: false; profile: AccountProfileFormProps; passwordChange: ChangePasswordFormProps; mfa: MfaCardProps });

const LABELS: Record<AccountProfileField, string> = { name: 'Full Name', company: 'Company', phone: 'Phone', address: 'Address' };
const FIELDS: readonly AccountProfileField[] = ['name', 'company', 'phone', 'address'];

export const MFA_ON_TEXT = 'Multi-factor authentication is on.';
export const MFA_OFF_TEXT = 'Multi-factor authentication is off.';

function ProfileForm({ email, profile }: { email: string; profile: AccountProfileFormProps }) {
  const id = useId();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!profile.busy) profile.onSubmit();
  };
  return (
    <form className="settings-form" onSubmit={submit} noValidate aria-label="Profile">
      {profile.failure && <Message severity="error" text={profile.failure} role="alert" />}
      <div className="form-field">
        <label htmlFor={`${id}-email`}>Email</label>
        <InputText id={`${id}-email`} value={email} readOnly aria-describedby={`${id}-email-hint`} />
        <small id={`${id}-email-hint`} className="field-hint">
          Ask your administrator to change your email address.
        </small>
      </div>
      {(profile.fields ?? FIELDS).map((field) => {
        const inputId = `${id}-${field}`;
        const error = profile.errors[field];
        const common = {
          id: inputId,
          name: field,
          value: profile.form[field],
          disabled: profile.busy,
          invalid: !!error,
          'aria-describedby': error ? `${inputId}-error` : undefined,
        };
        return (
          <div className="form-field" key={field}>
            <label htmlFor={inputId}>{LABELS[field]}</label>
            {field === 'address' ? (
              <InputTextarea {...common} rows={3} autoResize onChange={(event) => profile.onField(field, event.target.value)} />
            ) : (
              <InputText {...common} onChange={(event) => profile.onField(field, event.target.value)} />
            )}
            {error && (
              <small id={`${inputId}-error`} className="p-error">
                {error}
              </small>
            )}
          </div>
        );
      })}
      <Button
        type="submit"
        label={profile.busy ? 'Saving...' : 'Save Changes'}
        icon={profile.busy ? 'pi pi-spin pi-spinner' : undefined}
        disabled={profile.busy}
      />
    </form>
  );
}

function ProfileFacts({ account }: { account: AccountSummary }) {
  const facts: Array<[string, string]> = [
    ['Email', account.email],
    ['Full Name', account.name],
    ['Company', account.company],
    ['Phone', account.phone || '—'],
    ['Address', account.address || '—'],
  ];
  return (
    <dl className="detail-fields" aria-label="Profile">
      {facts.map(([label, value]) => (
        <div className="detail-field" key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function AccountView(props: AccountViewProps) {
  const meta = PAGE_TITLES['/my/account'];
  const { account } = props;
  return (
    <div className="page settings-page">
      <PageHeader title={meta.title} breadcrumb={meta.breadcrumb} subtitle="Your details and the security of your account" onNavigate={props.onNavigate} />
      <div className="settings-security">
        <section className="settings-card" aria-labelledby="account-profile-title">
          <h2 id="account-profile-title" className="settings-card-title">
            Profile
          </h2>
          {props.readOnly ? <ProfileFacts account={account} /> : <ProfileForm email={account.email} profile={props.profile} />}
        </section>
        {props.readOnly ? (
          <section className="settings-card" aria-labelledby="account-security-title">
            <h2 id="account-security-title" className="settings-card-title">
              Security
            </h2>
            <p>
              <Tag value={account.mfaEnabled ? 'MFA on' : 'MFA off'} severity={account.mfaEnabled ? 'success' : 'secondary'} rounded />{' '}
              {account.mfaEnabled ? MFA_ON_TEXT : MFA_OFF_TEXT}
            </p>
          </section>
        ) : (
          <>
            <ChangePasswordForm {...props.passwordChange} />
            <MfaCard {...props.mfa} />
          </>
        )}
      </div>
    </div>
  );
}
