import { useId, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { FORGOT_PASSWORD_MESSAGES as M } from '../../domain/password-reset';
import { NavLink } from '../common/NavLink';
import { SatelliteLogo } from '../common/SatelliteLogo';

export type ForgotPasswordStage = 'editing' | 'sending' | 'sent';

export interface ForgotPasswordViewProps {
  stage: ForgotPasswordStage;
  email: string;
  /** The rule the address breaks, or the server's refusal. */
  error: string | null;
  onEmail(value: string): void;
  onSubmit(): void;
  onNavigate(url: string): void;
}

export const LOGIN_URL = '/login';

/** The public "Forgot your password?" page: an address in, the same answer out whoever it belongs to. */
export function ForgotPasswordView({ stage, email, error, onEmail, onSubmit, onNavigate }: ForgotPasswordViewProps) {
  const id = useId();
  const emailId = `${id}-email`;
  const errorId = `${id}-error`;
  const busy = stage === 'sending';
  const backLink = (
    <NavLink url={LOGIN_URL} onNavigate={onNavigate} className="login-link">
      {M.backToLogin}
    </NavLink>
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!busy) onSubmit();
  };

  return (
    <div className="login-page">
      <main className="login-card">
        <div className="login-brand">
          <SatelliteLogo size={48} />
        </div>
        <h1 className="login-title">{M.title}</h1>
        {stage === 'sent' ? (
          <>
            <Message severity="success" text={M.sent} role="status" className="login-error" />
            <p className="login-footer">{backLink}</p>
          </>
        ) : (
          <>
            <p className="login-subtitle">{M.intro}</p>
            <form className="login-form" onSubmit={submit} noValidate aria-label={M.title}>
              {error && <Message id={errorId} severity="error" text={error} role="alert" className="login-error" />}
              <div className="form-field">
                <label htmlFor={emailId}>{M.emailLabel}</label>
                <InputText
                  id={emailId}
                  name="email"
                  type="email"
                  autoComplete="username"
                  autoFocus
                  value={email}
                  disabled={busy}
                  invalid={!!error}
                  aria-describedby={error ? errorId : undefined}
                  onChange={(event) => onEmail(event.target.value)}
                />
              </div>
              <Button
                type="submit"
                label={busy ? M.sending : M.submit}
                icon={busy ? 'pi pi-spin pi-spinner' : undefined}
                disabled={busy}
                className="login-submit"
              />
            </form>
            <p className="login-footer">{backLink}</p>
          </>
        )}
      </main>
    </div>
  );
}
