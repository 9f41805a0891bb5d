// The persisted session (spec section 3 "Persisted session") and its parsing. Storage is outside
// input: whatever is found under the key is validated, and anything malformed counts as signed out.
import type { Profile, UserType } from './auth';

export const SESSION_STORAGE_KEY = 'auth-storage-admin';

/** Entries an older client kept for customers; removed at start so a stale token never leaks back. */
export const LEGACY_SESSION_KEYS = ['customer-token', 'customer-info', 'customerToken', 'customerInfo'] as const;

export interface PersistedSession {
  token: string | null;
  profile: Profile | null;
  userType: UserType | null;
  isAuthenticated: boolean;
}

export const SIGNED_OUT: PersistedSession = { token: null, profile: null, userType: null, isAuthenticated: false };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads what was stored under SESSION_STORAGE_KEY. Accepts the flat shape and the
 * `{ state: {...}, version }` wrapper older builds wrote. Returns null unless it is a complete
 * signed-in session (a token, a profile with a uuid, a known user type).
 */
export function parsePersistedSession(raw: string | null): PersistedSession | null {
  if (!raw) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  const state = isRecord(parsed) && isRecord(parsed.state) ? parsed.state : parsed;
  if (!isRecord(state)) return null;
  const { token, profile, userType } = state;
  if (typeof token !== 'string' || token.length === 0) return null;
  if (userType !== 'admin' && userType !== 'customer') return null;
  if (!isRecord(profile) || typeof profile.uuid !== 'string' || typeof profile.email !== 'string') return null;
  return { token, profile: profile as unknown as Profile, userType, isAuthenticated: true };
}

export function serialisePersistedSession(session: PersistedSession): string {
  return JSON.stringify({ state: session, version: 0 });
}
