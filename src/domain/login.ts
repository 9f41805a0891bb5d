// Login rules shared by the login flow and the login route (spec sections 4 and 8).
import { INVALID_CREDENTIALS_MESSAGE } from './auth';
import { homeOf, isOwnArea } from './navigation';

/**
 * Message shown when both the admin and the customer attempt failed: the admin message, else
 * the customer message, else the generic one. Blank messages count as none.
 */
export function pickLoginError(adminMessage: string | null | undefined, customerMessage: string | null | undefined): string {
  const admin = adminMessage?.trim();
  if (admin) return admin;
  const customer = customerMessage?.trim();
  if (customer) return customer;
  return INVALID_CREDENTIALS_MESSAGE;
}

export const NETWORK_ERROR_MESSAGE = 'Unable to reach the server. Check your connection and try again.';

export const DEFAULT_SIGNED_IN_PATH = '/home';

/**
 * Where /login sends a signed-in account: the remembered path when it is safe and in the
 * account's own area (a customer's /my/…, an admin's anything else), else that area's home.
 */
export function signedInTarget(userType: 'admin' | 'customer', remembered: unknown): string {
  const target = safeRedirectTarget(remembered);
  return target && isOwnArea(userType, target) && target !== '/' ? target : homeOf(userType);
}

/**
 * A redirect-back target is honoured only when it is a path on this origin: it starts with one
 * slash (not `//host`, not a backslash trick), has no scheme, and is not the login page itself.
 */
export function safeRedirectTarget(target: unknown): string | null {
  if (typeof target !== 'string') return null;
  const value = target.trim();
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  // Control characters and backslashes have no business in a path and are how browsers get tricked.
  if ([...value].some((ch) => ch.charCodeAt(0) < 0x20 || ch === '\\')) return null;
  let url: URL;
  try {
    url = new URL(value, 'http://portal.invalid');
  } catch {
    return null;
  }
  if (url.origin !== 'http://portal.invalid') return null;
  if (url.pathname === '/login') return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
