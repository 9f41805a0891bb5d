// The parts shared by the pages reached from an emailed link that ends in choosing a password
// (set-password and reset, the team invitation): the centred card, the cards for each state of
// the link, and the "choose a password" form. Each page supplies its own words.
import { useId, type FormEvent, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { Password } from 'primereact/password';
import { ProgressSpinner } from 'primereact/progressspinner';
import { MIN_PASSWORD_LENGTH } from '../../domain/password';
import { NavLink } from '../common/NavLink';
import { SatelliteLogo } from '../common/SatelliteLogo';
import './set-password.css';

export type PasswordLinkStage = 'checking' | 'checkFailed' | 'invalid' | 'gone' | 'ready' | 'submitting' | 'done';

export const LOGIN_URL = '/login';

export function LinkCard({ title, icon, children }: { title: string; icon?: ReactNode; children: ReactNode }) {
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
    <LinkCard title={title} icon={<i className={`${icon} setup-state-icon health-${tone}`} aria-hidden="true" />}>
      <div className="setup-state">{children}</div>
    </LinkCard>
  );
}

/** The titles of the cards a link's states show, in the page's own words. */
export interface LinkStateWording {
  /** The page's title, shown while the link is checked. */
  title: string;
  checking: string;
  checkFailed: string;
  invalid: string;
  /** A line under the reason on the invalid card, if any. */
  invalidHint?: string;
  gone: string;
  done: string;
}

export interface LinkStateCardProps {
  stage: PasswordLinkStage;
  words: LinkStateWording;
  linkMessage: string | null;
  email: string | null;
  onRetry(): void;
  onNavigate(url: string): void;
}

/** The card for every state of the link but the form (`ready`, `submitting`), which gives null. */
export function LinkStateCard({ stage, words, linkMessage, email, onRetry, onNavigate }: LinkStateCardProps) {
  const loginLink = (
    <NavLink url={LOGIN_URL} onNavigate={onNavigate} className="p-button p-component login-link-button">
      Go to the login page
    </NavLink>
  );
  switch (stage) {
    case 'checking':
      return (
        <LinkCard title={words.title}>
          <div className="setup-state" role="status">
            <ProgressSpinner style={{ width: '2.5rem', height: '2.5rem' }} strokeWidth="4" aria-hidden="true" />
            <p>{words.checking}</p>
          </div>
        </LinkCard>
      );
    case 'checkFailed':
      return (
        <StateCard title={words.checkFailed} icon="pi pi-exclamation-triangle" tone="warning">
          <p role="alert">{linkMessage}</p>
          <Button type="button" label="Try Again" icon="pi pi-refresh" onClick={onRetry} />
        </StateCard>
      );
    case 'invalid':
      return (
        <StateCard title={words.invalid} icon="pi pi-times-circle" tone="danger">
          <p role="alert">{linkMessage}</p>
          {words.invalidHint && <p className="text-muted">{words.invalidHint}</p>}
          {loginLink}
        </StateCard>
      );
    case 'gone':
      return (
        <StateCard title={words.gone} icon="pi pi-clock" tone="warning">
          <p role="alert">{linkMessage}</p>
          {loginLink}
        </StateCard>
      );
    case 'done':
      return (
        <StateCard title={words.done} icon="pi pi-check-circle" tone="success">
          <p role="status">
            You can now sign in{email ? ' as ' : ''}
            {email && <strong>{email}</strong>} with your new password.
          </p>
          {loginLink}
        </StateCard>
      );
    default:
      return null;
  }
}

export interface NewPasswordFormProps {
  password: string;
  confirmPassword: string;
  /** The rule the form breaks, or why the server refused it. */
  problem: string | null;
  busy: boolean;
  passwordLabel: string;
  submitLabel: string;
  submittingLabel: string;
  onField(field: 'password' | 'confirmPassword', value: string): void;
  onSubmit(): void;
  /** Fields that come before the passwords (the invitation's name). */
  children?: ReactNode;
}

/** "Choose a password": the new password with its rule, its confirmation, the problem and the submit button. */
export function NewPasswordForm(props: NewPasswordFormProps) {
  const id = useId();
  const passwordId = `${id}-password`;
  const confirmId = `${id}-confirm`;
  const problemId = `${id}-problem`;
  const { busy } = props;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!busy) props.onSubmit();
  };
  return (
    <form className="login-form" onSubmit={submit} noValidate>
      {props.problem && <Message id={problemId} severity="error" text={props.problem} role="alert" className="login-error" />}
      {props.children}
      <div className="form-field">
        <label htmlFor={passwordId}>{props.passwordLabel}</label>
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
        label={busy ? props.submittingLabel : props.submitLabel}
        icon={busy ? 'pi pi-spin pi-spinner' : undefined}
        disabled={busy}
        className="login-submit"
      />
    </form>
  );
}
