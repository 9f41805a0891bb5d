import { useId, type FormEvent, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { Password } from 'primereact/password';
import { ProgressSpinner } from 'primereact/progressspinner';
import { MIN_PASSWORD_LENGTH } from '../../domain/password';
import { NavLink } from '../common/NavLink';
import { SatelliteLogo } from '../common/SatelliteLogo';
import './set-password.css';

export type SetPasswordStage = 'checking' | 'checkFailed' | 'invalid' | 'gone' | 'ready' | 'submitting' | 'done';

export interface SetupAccount {
  name: string;
  company: string;
  email: string;
}

export interface SetPasswordViewProps {
  stage: SetPasswordStage;
  /** Whose account the link is for (once checked). */
  account: SetupAccount | null;
  password: string;
  confirmPassword: string;
  /** The rule the passwords break, or why the server refused them. */
  problem: string | null;
  /** Why the link cannot be used, or could not be checked. */
  linkMessage: string | null;
  /** The address whose password was set. */
  email: string | null;
  onField(field: 'password' | 'confirmPassword', value: string): void;
  onSubmit(): void;
  onRetry(): void;
  onNavigate(url: string): void;
  /** 'reset': a forgot-password link (issue 19), worded "Reset your password"; a set-up link otherwise. */
  purpose?: 'setup' | 'reset';
}

export const LOGIN_URL = '/login';

/** The words that differ between a first password and a reset. */
const WORDING = {
  setup: {
    title: 'Set your password',
    intro: 'Choose the password you will use to sign in to the portal.',
    submit: 'Set Password',
    submitting: 'Setting Password...',
    done: 'Your password is set',
  },
  reset: {
    title: 'Reset your password',
    intro: 'Choose a new password. Your old password stops working, and any other signed-in sessions end.',
    submit: 'Reset Password',
    submitting: 'Resetting Password...',
    done: 'Your password has been reset',
  },
} as const;

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

function StateCard({
  title,
  icon,
  tone,
  children,
}: {
  title: string;
  icon: string;
  tone: 'success' | 'danger' | 'warning';
  children: ReactNode;
}) {
  return (
    <Card title={title} icon={<i className={`${icon} setup-state-icon health-${tone}`} aria-hidden="true" />}>
      <div className="setup-state">{children}</div>
    </Card>
  );
}

/** The public page a new customer reaches from the emailed password-setup link. */
export function SetPasswordView(props: SetPasswordViewProps) {
  const id = useId();
  const passwordId = `${id}-password`;
  const confirmId = `${id}-confirm`;
  const problemId = `${id}-problem`;
  const words = WORDING[props.purpose ?? 'setup'];
  const loginLink = (
    <NavLink url={LOGIN_URL} onNavigate={props.onNavigate} className="p-button p-component login-link-button">
      Go to the login page
    </NavLink>
  );

  switch (props.stage) {
    case 'checking':
      return (
        <Card title="Set your password">
          <div className="setup-state" role="status">
            <ProgressSpinner style={{ width: '2.5rem', height: '2.5rem' }} strokeWidth="4" aria-hidden="true" />
            <p>Checking your link...</p>
          </div>
        </Card>
      );
    case 'checkFailed':
      return (
        <StateCard title="We could not check your link" icon="pi pi-exclamation-triangle" tone="warning">
          <p role="alert">{props.linkMessage}</p>
          <Button type="button" label="Try Again" icon="pi pi-refresh" onClick={props.onRetry} />
        </StateCard>
      );
    case 'invalid':
      return (
        <StateCard title="This link is not valid" icon="pi pi-times-circle" tone="danger">
          <p role="alert">{props.linkMessage}</p>
          <p className="text-muted">Already set your password? You can sign in.</p>
          {loginLink}
        </StateCard>
      );
    case 'gone':
      return (
        <StateCard title="This link can no longer be used" icon="pi pi-clock" tone="warning">
          <p role="alert">{props.linkMessage}</p>
          {loginLink}
        </StateCard>
      );
    case 'done':
      return (
        <StateCard title={words.done} icon="pi pi-check-circle" tone="success">
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
  const account = props.account;

  return (
    <Card title={words.title}>
      <p className="login-subtitle">{words.intro}</p>
      {account && (
        <dl className="setup-account" aria-label="Your account">
          <dt>Name</dt>
          <dd>{account.name || '—'}</dd>
          <dt>Company</dt>
          <dd>{account.company || '—'}</dd>
          <dt>Email</dt>
          <dd>{account.email}</dd>
        </dl>
      )}
      <form className="login-form" onSubmit={submit} noValidate>
        {props.problem && <Message id={problemId} severity="error" text={props.problem} role="alert" className="login-error" />}
        <div className="form-field">
          <label htmlFor={passwordId}>New password</label>
          <Password
            inputId={passwordId}
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
          <label htmlFor={confirmId}>Confirm password</label>
          <Password
            inputId={confirmId}
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
        <Button
          type="submit"
          label={busy ? words.submitting : words.submit}
          icon={busy ? 'pi pi-spin pi-spinner' : undefined}
          disabled={busy}
          className="login-submit"
        />
      </form>
    </Card>
  );
}
