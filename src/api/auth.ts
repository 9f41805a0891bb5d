import { mapResult, UNEXPECTED_RESPONSE, type ApiClient, type ApiResult } from './client';
import { isRecord, normaliseAdminUser, normaliseCustomerProfile, withSignal } from './normalise';
import type { Profile, UserType } from '../domain/auth';
import type { MfaLoginPayload } from '../domain/mfa';
import type { ForgotPasswordPayload } from '../domain/password-reset';
import type { ChangePasswordPayload, CustomerProfilePayload, ProfilePayload } from '../domain/users';

export interface Credentials {
  email: string;
  password: string;
}

/** Expected failures are data: a wrong password is `{ ok: false, message }`, not an exception. */
export type LoginOutcome =
  | { ok: true; token: string; profile: Profile; userType: UserType }
  | { ok: false; status: number; message: string | null };

/** The password was right but MFA is on: no token yet, a challenge to answer with a code. */
export interface MfaRequiredOutcome {
  ok: true;
  mfaRequired: true;
  challenge: string;
}

/** What a sign-in answers: signed in, refused, or a code is needed (`loginMfa`). */
export type SignInOutcome = LoginOutcome | MfaRequiredOutcome;
/** What `loginAdmin` answers (the name from before customers had MFA too). */
export type AdminLoginOutcome = SignInOutcome;

export const isMfaRequiredOutcome = (outcome: SignInOutcome): outcome is MfaRequiredOutcome => 'mfaRequired' in outcome;

export type MeOutcome = { ok: true; profile: Profile } | { ok: false; status: number; message: string };

/** A password change answers the account and a fresh token (tokens issued before it stop working). */
export interface PasswordChanged {
  profile: Profile;
  token: string | null;
}

const profileOf = (userType: UserType, data: unknown) => {
  const raw = isRecord(data) ? data : {};
  return userType === 'admin' ? normaliseAdminUser(raw.user) : normaliseCustomerProfile(raw.customer);
};

/** A sign-in answer (`{ user | customer, token }`) as a LoginOutcome. */
function signInOutcome(userType: UserType, result: ApiResult<unknown>): LoginOutcome {
  if (!result.ok) return { ok: false, status: result.status, message: result.message || null };
  const profile = profileOf(userType, result.data);
  const token = isRecord(result.data) && typeof result.data.token === 'string' ? result.data.token : null;
  if (!profile || !token) return { ok: false, status: result.status, message: UNEXPECTED_RESPONSE };
  return { ok: true, token, profile, userType };
}

export function createAuthApi(client: ApiClient) {
  const ownPath = (userType: UserType, leaf: 'profile' | 'change-password') => (userType === 'admin' ? `/users/${leaf}` : `/customers/${leaf}`);

  async function login(userType: UserType, credentials: Credentials, signal?: AbortSignal): Promise<SignInOutcome> {
    const path = userType === 'admin' ? '/auth/login' : '/customers/auth/login';
    const result = await client.request<unknown>(path, { method: 'POST', body: credentials, token: null, ...withSignal(signal) });
    if (result.ok && isRecord(result.data) && result.data.mfaRequired === true) {
      const challenge = typeof result.data.challenge === 'string' ? result.data.challenge : '';
      return challenge ? { ok: true, mfaRequired: true, challenge } : { ok: false, status: result.status, message: UNEXPECTED_RESPONSE };
    }
    return signInOutcome(userType, result);
  }

  return {
    /** Signed in, refused, or (MFA on) `{ ok: true, mfaRequired: true, challenge }`. */
    loginAdmin: (credentials: Credentials, signal?: AbortSignal): Promise<SignInOutcome> => login('admin', credentials, signal),
    /** The same for customers (customers may have MFA on too). */
    loginCustomer: (credentials: Credentials, signal?: AbortSignal): Promise<SignInOutcome> => login('customer', credentials, signal),

    /**
     * The code step: the challenge of `loginAdmin` or `loginCustomer` and a TOTP or backup code,
     * sent to that kind's endpoint; answers like a sign-in.
     */
    async loginMfa(userType: UserType, payload: MfaLoginPayload, signal?: AbortSignal): Promise<LoginOutcome> {
      const path = userType === 'admin' ? '/auth/login/mfa' : '/customers/auth/login/mfa';
      const result = await client.request<unknown>(path, { method: 'POST', body: payload, token: null, ...withSignal(signal) });
      return signInOutcome(userType, result);
    },

    /** `POST /auth/forgot-password`: the same answer whether or not the address has an account. */
    forgotPassword: (payload: ForgotPasswordPayload, signal?: AbortSignal): Promise<ApiResult<unknown>> =>
      client.request<unknown>('/auth/forgot-password', { method: 'POST', body: payload, token: null, ...withSignal(signal) }),

    /** Confirms a token and answers the current profile (`/auth/me` or `/customers/auth/me`). */
    async me(userType: UserType, token: string, signal?: AbortSignal): Promise<MeOutcome> {
      const path = userType === 'admin' ? '/auth/me' : '/customers/auth/me';
      const result = await client.request<unknown>(path, { token, ...withSignal(signal) });
      if (!result.ok) return { ok: false, status: result.status, message: result.message };
      const profile = profileOf(userType, result.data);
      return profile ? { ok: true, profile } : { ok: false, status: result.status, message: UNEXPECTED_RESPONSE };
    },

    /** The signed-in account's own fields (`PUT /users/profile` or `PUT /customers/profile`). */
    updateProfile: async (userType: UserType, payload: ProfilePayload | CustomerProfilePayload, signal?: AbortSignal): Promise<ApiResult<Profile>> =>
      mapResult(
        await client.request<unknown>(ownPath(userType, 'profile'), { method: 'PUT', body: payload, ...withSignal(signal) }),
        (data) => profileOf(userType, data),
      ),

    /** `PUT /users/change-password` or `PUT /customers/change-password`; a wrong current password is a refusal. */
    changePassword: async (userType: UserType, payload: ChangePasswordPayload, signal?: AbortSignal): Promise<ApiResult<PasswordChanged>> =>
      mapResult(
        await client.request<unknown>(ownPath(userType, 'change-password'), { method: 'PUT', body: payload, ...withSignal(signal) }),
        (data) => {
          const profile = profileOf(userType, data);
          if (!profile) return null;
          return { profile, token: isRecord(data) && typeof data.token === 'string' ? data.token : null };
        },
      ),
  };
}

export type AuthApi = ReturnType<typeof createAuthApi>;
