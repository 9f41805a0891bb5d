// RFC 6238 TOTP over otplib's functional API. Times come from the caller (the injected clock), and
// digits, period and drift are parameters so the RFC's own 8-digit test vectors can check it.
import { generate, generateSecret, generateURI, verify } from 'otplib';
import { TOTP_DIGITS, TOTP_DRIFT_STEPS, TOTP_ISSUER, TOTP_PERIOD_SECONDS } from '../../src/domain/mfa';

/** A base32 secret or, for the RFC vectors, raw key bytes. */
export type TotpSecret = string | Uint8Array;

export interface TotpOptions {
  digits?: number;
  periodSeconds?: number;
}

export interface TotpCheckOptions extends TotpOptions {
  driftSteps?: number;
  /** The last step already accepted for this account: codes of it and earlier steps are refused (replay). */
  lastUsedStep?: number | null;
}

export type TotpCheck = { valid: true; step: number } | { valid: false };

const epochSeconds = (at: Date) => Math.floor(at.getTime() / 1000);

/** A new random secret (160 bits, the RFC 4226 recommendation), base32 without padding. */
export function newTotpSecret(): string {
  return generateSecret();
}

export function totpStep(at: Date, periodSeconds = TOTP_PERIOD_SECONDS): number {
  return Math.floor(epochSeconds(at) / periodSeconds);
}

export function totpCode(secret: TotpSecret, at: Date, options: TotpOptions = {}): Promise<string> {
  return generate({
    secret,
    algorithm: 'sha1',
    digits: options.digits ?? TOTP_DIGITS,
    period: options.periodSeconds ?? TOTP_PERIOD_SECONDS,
    epoch: epochSeconds(at),
  });
}

/** Whether `code` is the code of the step at `at` or within the drift, and not of a step already used. */
export async function checkTotp(secret: TotpSecret, code: string, at: Date, options: TotpCheckOptions = {}): Promise<TotpCheck> {
  const digits = options.digits ?? TOTP_DIGITS;
  const period = options.periodSeconds ?? TOTP_PERIOD_SECONDS;
  const drift = options.driftSteps ?? TOTP_DRIFT_STEPS;
  if (!new RegExp(`^\\d{${digits}}$`).test(code)) return { valid: false };
  // otplib refuses an afterTimeStep beyond the window; a step that far ahead refuses every code anyway.
  const lastAllowed = totpStep(at, period) + drift;
  const lastUsed = options.lastUsedStep ?? null;
  if (lastUsed !== null && lastUsed >= lastAllowed) return { valid: false };
  try {
    const result = await verify({
      secret,
      token: code,
      algorithm: 'sha1',
      digits,
      period,
      epoch: epochSeconds(at),
      epochTolerance: drift * period,
      ...(lastUsed !== null && lastUsed >= 0 ? { afterTimeStep: lastUsed } : {}),
    });
    // The functional API also serves HOTP, whose results carry no time step.
    return result.valid && 'timeStep' in result ? { valid: true, step: result.timeStep } : { valid: false };
  } catch {
    // A secret that is not base32 (or too short) is a failed check, not a server error.
    return { valid: false };
  }
}

/** The `otpauth://totp/…` URI authenticator apps read from the QR code. */
export function totpUri(secret: string, accountName: string): string {
  return generateURI({
    issuer: TOTP_ISSUER,
    label: accountName,
    secret,
    algorithm: 'sha1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });
}
