// The public page an invited person reaches from the emailed link: who invites them into which
// organisation and as what, then their name and password. Laid out like the set-password page.
import { useId, type FormEvent, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { Password } from 'primereact/password';
import { ProgressSpinner } from 'primereact/progressspinner';
import { MEMBER_ROLE_HELP, MEMBER_ROLE_LABELS, type InvitationInfoWire } from '../../domain/members';
import { MIN_PASSWORD_LENGTH } from '../../domain/password';
import { NavLink } from '../common/NavLink';
import { SatelliteLogo } from '../common/SatelliteLogo';
import '../set-password/set-password.css';

export type InvitationStage = 'checking' | 'checkFailed' | 'invalid' | 'gone' | 'ready' | 'submitting' | 'done';

export interface InvitationViewProps {
  stage: InvitationStage;
  invitation: InvitationInfoWire | null;
  name: string;
  password: string;
  confirmPassword: string;
  problem: string | null;
  linkMessage: string | null;
  email: string | null;
  onField(field: 'name' | 'password' | 'confirmPassword', value: string): void;
  onSubmit(): void;
  onRetry(): void;
  onNavigate(url: string): void;
}

const LOGIN_URL = '/login';

function Card({ title, icon, children }: { title: string; icon?: ReactNode; children: ReactNode }) {
  return (
    <div className="login-page">
      <main className="login-card setup-card">
        <div className="login-brand">{icon ?? <SatelliteLogo size={48} />}</div>
        <h1 className="login-title">{title}</h1>
        {children}
      </main>
    </div>
  );
}

function StateCard({ title, icon, tone, children }: { title: string; icon: string; tone: 'success' | 'danger' | 'warning'; children: ReactNode }) {
  return (
    <Card title={title} icon={<i className={`${icon} setup-state-icon health-${tone}`} aria-hidden="true" />}>
      <div className="setup-state">{children}</div>
    </Card>
  );
}

export function InvitationView(props: InvitationViewProps) {
  const id = useId();
  const problemId = `${id}-problem`;
  const loginLink = (
    <NavLink url={LOGIN_URL} onNavigate={props.onNavigate} className="p-button p-component login-link-button">
      Go to the login page
    </NavLink>
  );

  switch (props.stage) {
    case 'checking':
      return (
        <Card title="Join your team">
          <div className="setup-state" role="status">
            <ProgressSpinner style={{ width: '2.5rem', height: '2.5rem' }} strokeWidth="4" aria-hidden="true" />
            <p>Checking your invitation...</p>
          </div>
        </Card>
      );
    case 'checkFailed':
      return (
        <StateCard title="We could not check your invitation" icon="pi pi-exclamation-triangle" tone="warning">
          <p role="alert">{props.linkMessage}</p>
          <Button type="button" label="Try Again" icon="pi pi-refresh" onClick={props.onRetry} />
        </StateCard>
      );
    case 'invalid':
      return (
        <StateCard title="This invitation is not valid" icon="pi pi-times-circle" tone="danger">
          <p role="alert">{props.linkMessage}</p>
          {loginLink}
        </StateCard>
      );
    case 'gone':
      return (
        <StateCard title="This invitation can no longer be used" icon="pi pi-clock" tone="warning">
          <p role="alert">{props.linkMessage}</p>
          {loginLink}
        </StateCard>
      );
    case 'done':
      return (
        <StateCard title="Welcome to the team" icon="pi pi-check-circle" tone="success">
          <p role="status">
            You can now sign in{props.email ? ' as ' : ''}
            {props.email && <strong>{props.email}</strong>} with your new password.
          </p>
          {loginLink}
        </StateCard>
      );
    default:
      break;
  }

  const busy = props.stage === 'submitting';
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!busy) props.onSubmit();
  };
  const invitation = props.invitation;
  return (
    <Card title="Join your team">
      <p className="login-subtitle">Choose your name and the password you will sign in with.</p>
      {invitation && (
        <dl className="setup-account" aria-label="Your invitation">
          <dt>Organisation</dt>
          <dd>{invitation.company || '—'}</dd>
          <dt>Role</dt>
          <dd>
            {MEMBER_ROLE_LABELS[invitation.role]} <span className="text-muted">({MEMBER_ROLE_HELP[invitation.role]})</span>
          </dd>
          <dt>Email</dt>
          <dd>{invitation.email}</dd>
        </dl>
      )}
      <form className="login-form" onSubmit={submit} noValidate>
        {props.problem && <Message id={problemId} severity="error" text={props.problem} role="alert" className="login-error" />}
        <div className="form-field">
          <label htmlFor={`${id}-name`}>Your name</label>
          <InputText id={`${id}-name`} name="name" autoComplete="name" value={props.name} disabled={busy} onChange={(event) => props.onField('name', event.target.value)} />
        </div>
        <div className="form-field">
          <label htmlFor={`${id}-password`}>Password</label>
          <Password
            inputId={`${id}-password`}
            name="password"
            autoComplete="new-password"
            feedback={false}
            toggleMask
            value={props.password}
            disabled={busy}
            invalid={!!props.problem}
            aria-describedby={props.problem ? problemId : `${id}-rule`}
            onChange={(event) => props.onField('password', event.target.value)}
          />
          <small id={`${id}-rule`} className="field-hint">
            At least {MIN_PASSWORD_LENGTH} characters.
          </small>
        </div>
        <div className="form-field">
          <label htmlFor={`${id}-confirm`}>Confirm password</label>
          <Password
            inputId={`${id}-confirm`}
            name="confirmPassword"
            autoComplete="new-password"
            feedback={false}
            toggleMask
            value={props.confirmPassword}
            disabled={busy}
            invalid={!!props.problem}
            onChange={(event) => props.onField('confirmPassword', event.target.value)}
          />
        </div>
        <Button type="submit" label={busy ? 'Joining...' : 'Join'} icon={busy ? 'pi pi-spin pi-spinner' : undefined} disabled={busy} className="login-submit" />
      </form>
    </Card>
  );
}
