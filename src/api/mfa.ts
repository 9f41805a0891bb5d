// The signed-in admin's own multi-factor authentication (`/auth/mfa/*`, issue 7): a new secret
// with its QR code, the first code that turns it on (answering the backup codes), and turning it off.
import { mapResult, type ApiClient, type ApiResult } from './client';
import { isRecord, pick, str } from './normalise';
import type { MfaDisablePayload, MfaSetupWire, MfaVerifyWire } from '../domain/mfa';

export function normaliseMfaSetup(data: unknown): MfaSetupWire | null {
  if (!isRecord(data)) return null;
  const secret = str(data.secret);
  const otpauthUri = str(pick(data, 'otpauthUri', 'otpauth_uri'));
  const qrCodeDataUrl = str(pick(data, 'qrCodeDataUrl', 'qr_code_data_url'));
  if (!secret || !otpauthUri || !qrCodeDataUrl) return null;
  return { secret, otpauthUri, qrCodeDataUrl };
}

export function normaliseMfaVerify(data: unknown): MfaVerifyWire | null {
  const codes = isRecord(data) ? pick(data, 'backupCodes', 'backup_codes') : null;
  return Array.isArray(codes) ? { backupCodes: codes.filter((code): code is string => typeof code === 'string') } : null;
}

export function createMfaApi(client: ApiClient) {
  const post = (path: string, body: unknown, signal?: AbortSignal) =>
    client.request<unknown>(path, { method: 'POST', body, ...(signal ? { signal } : {}) });
  return {
    /** A new secret, not in force until `verify` accepts a code from it. */
    setup: async (signal?: AbortSignal): Promise<ApiResult<MfaSetupWire>> => mapResult(await post('/auth/mfa/setup', {}, signal), normaliseMfaSetup),
    verify: async (code: string, signal?: AbortSignal): Promise<ApiResult<MfaVerifyWire>> =>
      mapResult(await post('/auth/mfa/verify', { code }, signal), normaliseMfaVerify),
    /** Needs a current code or the account password. */
    disable: async (proof: MfaDisablePayload, signal?: AbortSignal): Promise<ApiResult<unknown>> => post('/auth/mfa/disable', proof, signal),
  };
}

export type MfaApi = ReturnType<typeof createMfaApi>;
