// Multi-factor authentication: TOTP (RFC 6238: SHA-1, 6 digits, 30 s steps, one step of drift
// either way) with 8 single-use backup codes. The wire shapes of setup, verify, disable and the
// sign-in code step, the code rules of spec section 5 "MFA code", and the texts of spec 8.

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Codes of the step before and after the current one are accepted too (clock drift). */
export const TOTP_DRIFT_STEPS = 1;
export const BACKUP_CODE_COUNT = 8;
/** Backup codes read `XXXX-XXXX` (letters and digits without look-alikes); case and dash are ignored. */
export const BACKUP_CODE_PATTERN = /^[A-Z2-9]{4}-?[A-Z2-9]{4}$/i;
/** The issuer shown in authenticator apps. */
export const TOTP_ISSUER = 'Admin Portal';
/** How long the sign-in challenge (password accepted, code awaited) stays valid. */
export const MFA_CHALLENGE_SECONDS = 300;

/** Spec 5: digits only, at most 6: what the code input keeps of what was typed. */
export const sanitiseMfaCode = (typed: string) => typed.replace(/\D/g, '').slice(0, TOTP_DIGITS);
/** Spec 5: Verify is enabled only at exactly 6 digits. */
export const isCompleteMfaCode = (code: string) => /^\d{6}$/.test(code);
/** What the sign-in code step accepts: a 6-digit code or a backup code. */
export const isMfaCodeOrBackupCode = (code: string) => isCompleteMfaCode(code.trim()) || BACKUP_CODE_PATTERN.test(code.trim());

/** `POST /auth/mfa/setup` data: a new secret, not yet in force until verified. */
export interface MfaSetupWire {
  /** Base32, for typing into an authenticator by hand. */
  secret: string;
  otpauthUri: string;
  /** A PNG of the otpauth URI as a `data:image/png;base64,…` URL. */
  qrCodeDataUrl: string;
}

/** `POST /auth/mfa/verify` body and data: the first code turns MFA on and yields the backup codes (shown once). */
export interface MfaVerifyPayload {
  code: string;
}
export interface MfaVerifyWire {
  backupCodes: string[];
}

/** `POST /auth/mfa/disable` body: a current code or the account password. */
export interface MfaDisablePayload {
  code?: string;
  password?: string;
}

/**
 * `POST /auth/login` data when the account has MFA on: no token yet. The client sends the
 * challenge back with a code to `POST /auth/login/mfa`, which answers like `POST /auth/login`
 * (`{ user, token }`).
 */
export interface MfaRequiredWire {
  mfaRequired: true;
  challenge: string;
}
export interface MfaLoginPayload {
  challenge: string;
  /** A current TOTP code or an unused backup code. */
  code: string;
}

export const MFA_MESSAGES = {
  title: 'Multi-Factor Authentication',
  disabledWarning: 'Multi-factor authentication is not enabled. Enable it to protect your account with a code from an authenticator app.',
  enable: 'Enable',
  verifyAndEnable: 'Verify & Enable',
  cancel: 'Cancel',
  disable: 'Disable',
  manualCode: 'Or enter this code manually',
  enabledNote: 'Multi-factor authentication is enabled. Keep these backup recovery codes somewhere safe: each works once.',
  codeRequired: 'Multi-factor authentication code required',
  codeLabel: 'Authentication code',
  codeHint: 'Enter the 6-digit code from your authenticator app, or a backup code.',
  invalidCode: 'Please enter a valid 6-digit code',
  wrongCode: 'Invalid verification code. Please try again.',
  usedBackupCode: 'This backup code has already been used',
  challengeExpired: 'The sign-in took too long. Please sign in again.',
  enabled: 'Multi-Factor Authentication enabled successfully!',
  disabled: 'Multi-Factor Authentication disabled',
  disableFailed: 'Failed to disable MFA. Please try again.',
  disableNeedsProof: 'Enter a current code or your password to disable multi-factor authentication',
  alreadyEnabled: 'Multi-factor authentication is already enabled',
  notEnabled: 'Multi-factor authentication is not enabled',
  setupFirst: 'Start the set-up first',
  copied: 'Copied to clipboard',
} as const;
