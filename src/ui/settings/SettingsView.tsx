// "Settings" at /settings (spec section 2 "Settings"): the Account tab (read-only) and the
// Security tab (change password, multi-factor authentication). Renders props, calls callbacks.
import { useId, useState } from 'react';
import { InputText } from 'primereact/inputtext';
import { TabPanel, TabView } from 'primereact/tabview';
import { Tag } from 'primereact/tag';
import { PageHeader } from '../common/PageHeader';
import { formatDateTime } from '../common/format';
import { PAGE_TITLES } from '../../domain/navigation';
import { SETTINGS_MESSAGES } from '../../domain/users';
import type { Profile } from '../../domain/auth';
import { ChangePasswordForm, type ChangePasswordFormProps } from './ChangePasswordForm';
import { MfaCard, type MfaCardProps } from './MfaCard';
import './settings.css';

export interface SettingsAccount {
  email: Profile['email'];
  name: Profile['name'];
  isActive: Profile['isActive'];
  createdAt: string | null;
  updatedAt: string | null;
}

export interface SettingsViewProps {
  /** The signed-in account (the session's profile). */
  account: SettingsAccount;
  passwordChange: ChangePasswordFormProps;
  /** The MFA card; null where the account has no MFA of its own to manage. */
  mfa: MfaCardProps | null;
  onNavigate(url: string): void;
}

function ReadOnlyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      <InputText id={id} value={value} readOnly />
    </div>
  );
}

function DateFact({ label, iso }: { label: string; iso: string | null }) {
  return (
    <div className="detail-field">
      <dt>{label}</dt>
      <dd>{formatDateTime(iso, SETTINGS_MESSAGES.notAvailable)}</dd>
    </div>
  );
}

export function SettingsView({ account, passwordChange, mfa, onNavigate }: SettingsViewProps) {
  const meta = PAGE_TITLES['/settings'];
  const [tab, setTab] = useState(0);
  return (
    <div className="page settings-page">
      <PageHeader title={meta.title} breadcrumb={meta.breadcrumb} subtitle="Your account and its security" onNavigate={onNavigate} />
      <TabView activeIndex={tab} onTabChange={(event) => setTab(event.index)} className="settings-tabs">
        <TabPanel header="Account">
          <section className="settings-card" aria-label="Account">
            <div className="settings-form">
              <ReadOnlyField label="Email" value={account.email} />
              <ReadOnlyField label="Full Name" value={account.name} />
            </div>
            <dl className="detail-fields settings-facts">
              <DateFact label="Account Created" iso={account.createdAt} />
              <DateFact label="Last Updated" iso={account.updatedAt} />
              <div className="detail-field">
                <dt>Status</dt>
                <dd>
                  <Tag value={account.isActive ? 'Active' : 'Inactive'} severity={account.isActive ? 'success' : 'secondary'} rounded />
                </dd>
              </div>
            </dl>
          </section>
        </TabPanel>
        <TabPanel header="Security">
          <div className="settings-security">
            <ChangePasswordForm {...passwordChange} />
            {mfa && <MfaCard {...mfa} />}
          </div>
        </TabPanel>
      </TabView>
    </div>
  );
}
