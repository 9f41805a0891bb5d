import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { NavLink } from '../common/NavLink';
import { SatelliteLogo } from '../common/SatelliteLogo';
import { MFA_MESSAGES } from '../../domain/mfa';
import { ThemeToggle } from '../theme/ThemeToggle';

export interface LoginCredentials {
  email: string;
  password: string;
}

export interface LoginViewProps {
  /** A sign-in attempt is under way. */
  busy: boolean;
  /** The failure to show inline, exactly as given. */
  error: string | null;
  onSubmit(credentials: LoginCredentials): void;
  /** The password was accepted and MFA is on: the code step replaces the form. */
  codeStep?: LoginCodeStep;
  /** In-app navigation for the "Forgot your password?" link (to /forgot-password). */
  onNavigate(url: string): void;
}

export const FORGOT_PASSWORD_PATH = '/forgot-password';

export interface LoginCodeStep {
  /** As typed: six digits or a backup code. */
  code: string;
  error: string | null;
  busy: boolean;
  onCode(value: string): void;
  onSubmit(): void;
  onBack(): void;
}

/** The longest thing the code field takes: a backup code with its dash (`XXXX-XXXX`). */
const CODE_MAX_LENGTH = 9;

function CodeStepForm({ step }: { step: LoginCodeStep }) {
  const id = useId();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!step.busy) step.onSubmit();
  };
  return (
    <form className="login-form" onSubmit={submit} noValidate aria-label="Multi-factor authentication">
      {step.error && <Message id={`${id}-error`} severity="error" text={step.error} role="alert" className="login-error" />}
      <div className="form-field">
        <label htmlFor={`${id}-code`}>{MFA_MESSAGES.codeLabel}</label>
        <InputText
          id={`${id}-code`}
          name="code"
          autoComplete="one-time-code"
          autoFocus
          maxLength={CODE_MAX_LENGTH}
          value={step.code}
          disabled={step.busy}
          invalid={!!step.error}
          aria-describedby={`${id}-hint`}
          onChange={(event) => step.onCode(event.target.value)}
        />
        <small id={`${id}-hint`} className="field-hint">
          {MFA_MESSAGES.codeHint}
        </small>
      </div>
      <Button
        type="submit"
        label={step.busy ? 'Verifying...' : 'Verify'}
        icon={step.busy ? 'pi pi-spin pi-spinner' : undefined}
        disabled={step.busy}
        className="login-submit"
      />
      <Button type="button" label="Back" link disabled={step.busy} onClick={step.onBack} />
    </form>
  );
}

/** The public sign-in screen. Required fields and the email format are checked by the browser. */
export function LoginView({ busy, error, onSubmit, codeStep, onNavigate }: LoginViewProps) {
  const id = useId();
  const emailId = `${id}-email`;
  const passwordId = `${id}-password`;
  const errorId = `${id}-error`;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    onSubmit({ email: email.trim(), password });
  };

  return (
    <div className="login-page">
      <div className="login-theme">
        <ThemeToggle />
      </div>
      <div className="login-card">
        <div className="login-brand">
          <SatelliteLogo size={48} />
        </div>
        <h1 className="login-title">Welcome to the Enterprise Admin Portal</h1>
        <p className="login-subtitle">{codeStep ? MFA_MESSAGES.codeRequired : 'Login with your admin account'}</p>

        {codeStep ? (
          <CodeStepForm step={codeStep} />
        ) : (
          <form className="login-form" onSubmit={submit}>
            {error && (
              <Message id={errorId} severity="error" text={error} role="alert" className="login-error" />
            )}

            <div className="form-field">
              <label htmlFor={emailId}>Email</label>
              <InputText
                id={emailId}
                name="email"
                type="email"
                required
                autoComplete="username"
                placeholder="admin@example.com"
                value={email}
                onChange={(event) => setEmail(event.target.value)}
                invalid={!!error}
              />
            </div>

            <div className="form-field">
              <div className="form-field-label-row">
                <label htmlFor={passwordId}>Password</label>
                <NavLink url={FORGOT_PASSWORD_PATH} onNavigate={onNavigate} className="login-link">
                  Forgot your password?
                </NavLink>
              </div>
              <div className="password-field">
                <InputText
                  id={passwordId}
                  name="password"
                  type={showPassword ? 'text' : 'password'}
                  required
                  autoComplete="current-password"
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                  invalid={!!error}
                />
                <button
                  type="button"
                  className="password-toggle"
                  aria-label="Show password"
                  aria-pressed={showPassword}
                  aria-controls={passwordId}
                  onClick={() => setShowPassword((shown) => !shown)}
                >
                  <i className={showPassword ? 'pi pi-eye-slash' : 'pi pi-eye'} aria-hidden="true" />
                </button>
              </div>
            </div>

            <Button
              type="submit"
              label={busy ? 'Signing in...' : 'Login'}
              icon={busy ? 'pi pi-spin pi-spinner' : undefined}
              disabled={busy}
              className="login-submit"
            />
          </form>
        )}

        <p className="login-footer">
          Don&apos;t have an account?{' '}
          <a href="#" className="login-link" onClick={(event) => event.preventDefault()}>
            Contact your administrator
          </a>
        </p>
      </div>
    </div>
  );
}
