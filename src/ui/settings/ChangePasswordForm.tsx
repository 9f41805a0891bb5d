// Settings → Security → Change Password (spec sections 2 "Settings", 5 "Change password").
import { useId, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';

export type PasswordField = 'currentPassword' | 'newPassword' | 'confirmPassword';

export interface ChangePasswordFormProps {
  form: Record<PasswordField, string>;
  /** The rule broken or the server's refusal, shown under the fields. */
  error: string | null;
  busy: boolean;
  onField(field: PasswordField, value: string): void;
  onSubmit(): void;
}

const FIELDS: ReadonlyArray<{ field: PasswordField; label: string; autoComplete: string }> = [
  { field: 'currentPassword', label: 'Current Password', autoComplete: 'current-password' },
  { field: 'newPassword', label: 'New Password', autoComplete: 'new-password' },
  { field: 'confirmPassword', label: 'Confirm New Password', autoComplete: 'new-password' },
];

export function ChangePasswordForm({ form, error, busy, onField, onSubmit }: ChangePasswordFormProps) {
  const id = useId();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!busy) onSubmit();
  };
  return (
    <section className="settings-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="settings-card-title">
        Change Password
      </h2>
      {/* The rules are the machine's (spec 5); the browser's own checks would pre-empt its messages. */}
      <form className="settings-form" onSubmit={submit} noValidate aria-label="Change Password">
        {FIELDS.map(({ field, label, autoComplete }) => (
          <div className="form-field" key={field}>
            <label htmlFor={`${id}-${field}`}>{label}</label>
            <InputText
              id={`${id}-${field}`}
              name={field}
              type="password"
              autoComplete={autoComplete}
              value={form[field]}
              disabled={busy}
              invalid={!!error}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(event) => onField(field, event.target.value)}
            />
          </div>
        ))}
        {error && <Message id={`${id}-error`} severity="error" text={error} role="alert" />}
        <div>
          <Button
            type="submit"
            label={busy ? 'Changing...' : 'Change Password'}
            icon={busy ? 'pi pi-spin pi-spinner' : 'pi pi-key'}
            disabled={busy}
          />
        </div>
      </form>
    </section>
  );
}
