import type { ApiClient } from './client';
import { normaliseAdminUser, normaliseCustomerProfile } from './normalise';
import type { Profile, UserType } from '../domain/auth';

export interface Credentials {
  email: string;
  password: string;
}

/** Expected failures are data: a wrong password is `{ ok: false, message }`, not an exception. */
export type LoginOutcome =
  | { ok: true; token: string; profile: Profile; userType: UserType }
  | { ok: false; status: number; message: string | null };

export type MeOutcome = { ok: true; profile: Profile } | { ok: false; status: number; message: string };

export function createAuthApi(client: ApiClient) {
  async function login(userType: UserType, credentials: Credentials, signal?: AbortSignal): Promise<LoginOutcome> {
    const path = userType === 'admin' ? '/auth/login' : '/customers/auth/login';
    const result = await client.request<Record<string, unknown>>(path, {
      method: 'POST',
      body: credentials,
      token: null,
      ...(signal ? { signal } : {}),
    });
    if (!result.ok) return { ok: false, status: result.status, message: result.message || null };
    const data = result.data ?? {};
    const profile = userType === 'admin' ? normaliseAdminUser(data.user) : normaliseCustomerProfile(data.customer);
    const token = typeof data.token === 'string' ? data.token : null;
    if (!profile || !token) return { ok: false, status: result.status, message: 'Unexpected response from the server' };
    return { ok: true, token, profile, userType };
  }

  return {
    loginAdmin: (credentials: Credentials, signal?: AbortSignal) => login('admin', credentials, signal),
    loginCustomer: (credentials: Credentials, signal?: AbortSignal) => login('customer', credentials, signal),

    /** Confirms a token and answers the current profile (`/auth/me` or `/customers/auth/me`). */
    async me(userType: UserType, token: string, signal?: AbortSignal): Promise<MeOutcome> {
      const path = userType === 'admin' ? '/auth/me' : '/customers/auth/me';
      const result = await client.request<Record<string, unknown>>(path, { token, ...(signal ? { signal } : {}) });
      if (!result.ok) return { ok: false, status: result.status, message: result.message };
      const data = result.data ?? {};
      const profile = userType === 'admin' ? normaliseAdminUser(data.user) : normaliseCustomerProfile(data.customer);
      return profile ? { ok: true, profile } : { ok: false, status: result.status, message: 'Unexpected response from the server' };
    },
  };
}

export type AuthApi = ReturnType<typeof createAuthApi>;
