// The signed-in account's own multi-factor authentication: a new secret with its QR code, the
// first code that turns it on (answering the backup codes), and turning it off. Portal users use
// `/auth/mfa/*`, customers `/customers/mfa/*`: same bodies, same answers.
import { mapResult, type ApiClient, type ApiResult } from './client';
import { isRecord, pick, str } from './normalise';
import type { UserType } from '../domain/auth';
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
  const forAccount = (userType: UserType) => {
    const base = userType === 'admin' ? '/auth/mfa' : '/customers/mfa';
    return {
      /** A new secret, not in force until `verify` accepts a code from it. */
      setup: async (signal?: AbortSignal): Promise<ApiResult<MfaSetupWire>> => mapResult(await post(`${base}/setup`, {}, signal), normaliseMfaSetup),
      verify: async (code: string, signal?: AbortSignal): Promise<ApiResult<MfaVerifyWire>> =>
        mapResult(await post(`${base}/verify`, { code }, signal), normaliseMfaVerify),
      /** Needs a current code or the account password. */
      disable: async (proof: MfaDisablePayload, signal?: AbortSignal): Promise<ApiResult<unknown>> => post(`${base}/disable`, proof, signal),
    };
  };
  return {
    // The portal user's own, as before customers had MFA.
    ...forAccount('admin'),
    /** The routes of the signed-in account's kind. */
    for: forAccount,
  };
}

export type MfaApi = ReturnType<typeof createMfaApi>;
