import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { SatelliteLogo } from '../common/SatelliteLogo';

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
}

/** The public sign-in screen. Required fields and the email format are checked by the browser. */
export function LoginView({ busy, error, onSubmit }: LoginViewProps) {
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
      <div className="login-card">
        <div className="login-brand">
          <SatelliteLogo size={48} />
        </div>
        <h1 className="login-title">Welcome to the Enterprise Admin Portal</h1>
        <p className="login-subtitle">Login with your admin account</p>

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
              <a href="#" className="login-link" onClick={(event) => event.preventDefault()}>
                Forgot your password?
              </a>
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
