// Route guards read the session actor; they wait for the session check to settle instead of sleeping.
// Each kind of account has its own area: customers the /my tree, portal users everything else. A
// signed-in account that opens the other area's path is sent to its own home, never shown a page
// it cannot use.
import { redirect, type ParsedLocation } from '@tanstack/react-router';
import { waitFor } from 'xstate';
import { signedInTarget } from '../domain/login';
import { homeOf } from '../domain/navigation';
import type { SessionActor } from './services';

export interface RouterContext {
  session: SessionActor;
}

export function settledSession(session: SessionActor) {
  return waitFor(session, (snapshot) => !snapshot.hasTag('checking'), { timeout: Infinity });
}

type Settled = Awaited<ReturnType<typeof settledSession>>;

/** Signed out → /login, remembering where the visitor was going; answers the signed-in snapshot. */
async function signedIn({ context, location }: { context: RouterContext; location: ParsedLocation }): Promise<Settled> {
  const snapshot = await settledSession(context.session);
  if (snapshot.matches('signedIn')) return snapshot;
  // After a deliberate logout the portal starts again from /login with no way back.
  const remember = snapshot.context.endedBy !== 'logout' && location.href !== '/' && location.pathname !== '/login';
  throw redirect({ to: '/login', search: remember ? { redirect: location.href } : {}, replace: true });
}

/** The admin portal's paths: signed out → /login; a customer → the customer area. */
export async function requireSignedIn(options: { context: RouterContext; location: ParsedLocation }) {
  const snapshot = await signedIn(options);
  if (snapshot.context.userType === 'customer') throw redirect({ href: homeOf('customer'), replace: true });
}

/**
 * Pages for administrators alone (the audit log), below the admin frame whose guard already ran: a
 * portal user without the admin role goes home instead (the server refuses them the data anyway).
 */
export async function requireAdministrator({ context }: { context: RouterContext }) {
  const snapshot = await settledSession(context.session);
  const profile = snapshot.context.profile;
  if (!(profile && 'role' in profile && profile.role === 'admin')) throw redirect({ href: homeOf('admin'), replace: true });
}

/** The customer area's paths (/my/…): signed out → /login; a portal user → their home. */
export async function requireCustomer(options: { context: RouterContext; location: ParsedLocation }) {
  const snapshot = await signedIn(options);
  if (snapshot.context.userType !== 'customer') throw redirect({ href: homeOf('admin'), replace: true });
}

/** /login and /forgot-password while signed in → the remembered path of the account's own area, else its home. */
export async function redirectIfSignedIn({ context, search }: { context: RouterContext; search: { redirect?: string } }) {
  const snapshot = await settledSession(context.session);
  if (!snapshot.matches('signedIn')) return;
  throw redirect({ href: signedInTarget(snapshot.context.userType ?? 'admin', search.redirect), replace: true });
}
