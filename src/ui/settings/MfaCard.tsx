// Settings → Security → Multi-Factor Authentication (spec sections 2 "Settings", 4 "Multi-factor
// tab", 5 "MFA code"): disabled, setting up, enabled, and the disable confirmation.
import { useId, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { MFA_MESSAGES, TOTP_DIGITS, type MfaSetupWire } from '../../domain/mfa';

export type MfaCardMode = 'disabled' | 'starting' | 'setup' | 'verifying' | 'enabled' | 'confirmingDisable' | 'disabling';

export interface MfaCardProps {
  mode: MfaCardMode;
  /** The secret being set up (setup and verifying). */
  setup: MfaSetupWire | null;
  /** The code as the parent keeps it: digits only, at most 6. */
  code: string;
  /** Exactly 6 digits: Verify & Enable may be pressed. */
  canVerify: boolean;
  /** Shown once, right after enabling; null when there are none to show. */
  backupCodes: string[] | null;
  /** What the disable confirmation was given. */
  proof: { code: string; password: string };
  /** Why the last disable attempt failed. */
  error: string | null;
  onEnable(): void;
  onCode(value: string): void;
  onVerify(): void;
  onCancel(): void;
  onCopy(text: string): void;
  onDisable(): void;
  onProof(proof: { code?: string; password?: string }): void;
  onConfirmDisable(): void;
}

export const QR_ALT = 'QR code to scan with your authenticator app';
export const ENABLED_TEXT = 'Multi-factor authentication is enabled on your account.';

function CopyButton({ text, label, onCopy }: { text: string; label: string; onCopy(text: string): void }) {
  return <Button type="button" icon="pi pi-copy" text rounded size="small" aria-label={label} onClick={() => onCopy(text)} />;
}

function Disabled({ starting, onEnable }: { starting: boolean; onEnable(): void }) {
  return (
    <>
      <Message severity="warn" text={MFA_MESSAGES.disabledWarning} className="mfa-message" />
      <div>
        <Button
          type="button"
          label={starting ? 'Starting...' : MFA_MESSAGES.enable}
          icon={starting ? 'pi pi-spin pi-spinner' : 'pi pi-shield'}
          disabled={starting}
          onClick={onEnable}
        />
      </div>
    </>
  );
}

function Setup(props: MfaCardProps) {
  const id = useId();
  const verifying = props.mode === 'verifying';
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (props.canVerify && !verifying) props.onVerify();
  };
  return (
    <form className="mfa-setup" onSubmit={submit} aria-label="Set up multi-factor authentication">
      <p>Scan the QR code with an authenticator app, then enter the 6-digit code it shows.</p>
      {props.setup && (
        <>
          <img className="mfa-qr" src={props.setup.qrCodeDataUrl} alt={QR_ALT} width={200} height={200} />
          <div className="mfa-manual">
            <span className="text-muted">{MFA_MESSAGES.manualCode}</span>
            <div className="mfa-code-row">
              <code className="mfa-secret">{props.setup.secret}</code>
              <CopyButton text={props.setup.secret} label="Copy code" onCopy={props.onCopy} />
            </div>
          </div>
        </>
      )}
      <div className="form-field">
        <label htmlFor={`${id}-code`}>Verification code</label>
        <InputText
          id={`${id}-code`}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={TOTP_DIGITS}
          placeholder="000000"
          value={props.code}
          disabled={verifying}
          onChange={(event) => props.onCode(event.target.value)}
          className="mfa-code-input"
        />
      </div>
      <div className="mfa-buttons">
        <Button type="button" label={MFA_MESSAGES.cancel} outlined disabled={verifying} onClick={props.onCancel} />
        <Button
          type="submit"
          label={verifying ? 'Verifying...' : MFA_MESSAGES.verifyAndEnable}
          icon={verifying ? 'pi pi-spin pi-spinner' : 'pi pi-check'}
          disabled={!props.canVerify || verifying}
        />
      </div>
    </form>
  );
}

function Enabled(props: MfaCardProps) {
  const codes = props.backupCodes ?? [];
  return (
    <>
      <Message severity="success" text={codes.length > 0 ? MFA_MESSAGES.enabledNote : ENABLED_TEXT} className="mfa-message" />
      {codes.length > 0 && (
        <ul className="mfa-backup-codes" aria-label="Backup recovery codes">
          {codes.map((code) => (
            <li key={code}>
              <code>{code}</code>
              <CopyButton text={code} label={`Copy ${code}`} onCopy={props.onCopy} />
            </li>
          ))}
        </ul>
      )}
      <div>
        <Button type="button" label={MFA_MESSAGES.disable} icon="pi pi-times" severity="danger" outlined onClick={props.onDisable} />
      </div>
    </>
  );
}

function ConfirmDisable(props: MfaCardProps) {
  const id = useId();
  const disabling = props.mode === 'disabling';
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!disabling) props.onConfirmDisable();
  };
  return (
    <form className="mfa-setup" onSubmit={submit} aria-label="Disable multi-factor authentication">
      <p>{MFA_MESSAGES.disableNeedsProof}.</p>
      <div className="form-field">
        <label htmlFor={`${id}-code`}>Current code</label>
        <InputText
          id={`${id}-code`}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={TOTP_DIGITS}
          value={props.proof.code}
          disabled={disabling}
          onChange={(event) => props.onProof({ code: event.target.value })}
        />
      </div>
      <div className="form-field">
        <label htmlFor={`${id}-password`}>Or your password</label>
        <InputText
          id={`${id}-password`}
          name="password"
          type="password"
          autoComplete="current-password"
          value={props.proof.password}
          disabled={disabling}
          onChange={(event) => props.onProof({ password: event.target.value })}
        />
      </div>
      {props.error && <Message severity="error" text={props.error} role="alert" />}
      <div className="mfa-buttons">
        <Button type="button" label={MFA_MESSAGES.cancel} outlined disabled={disabling} onClick={props.onCancel} />
        <Button
          type="submit"
          label={disabling ? 'Disabling...' : 'Disable MFA'}
          icon={disabling ? 'pi pi-spin pi-spinner' : 'pi pi-times'}
          severity="danger"
          disabled={disabling}
        />
      </div>
    </form>
  );
}

export function MfaCard(props: MfaCardProps) {
  const id = useId();
  const { mode } = props;
  return (
    <section className="settings-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="settings-card-title">
        {MFA_MESSAGES.title}
      </h2>
      {(mode === 'disabled' || mode === 'starting') && <Disabled starting={mode === 'starting'} onEnable={props.onEnable} />}
      {(mode === 'setup' || mode === 'verifying') && <Setup {...props} />}
      {mode === 'enabled' && <Enabled {...props} />}
      {(mode === 'confirmingDisable' || mode === 'disabling') && <ConfirmDisable {...props} />}
    </section>
  );
}
