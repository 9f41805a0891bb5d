// Route guards read the session actor; they wait for the session check to settle instead of sleeping.
// Each kind of account has its own area: customers the /my tree, portal users everything else. A
// signed-in account that opens the other area's path is sent to its own home, never shown a page
// it cannot use.
import { redirect, type ParsedLocation } from '@tanstack/react-router';
import { waitFor } from 'xstate';
import { signedInTarget } from '../domain/login';
import { homeOf, pagePermission } from '../domain/navigation';
import { allows, type Permission } from '../domain/permissions';
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
 * Whether the user may open the admin page at a path: a page they may not read renders "You do not
 * have permission to view this page" in the frame (app-layout.tsx) rather than a redirect, so that
 * a shared link says why it shows nothing. The server refuses the page's data anyway.
 */
export function mayOpenPage(permissions: readonly Permission[], path: string): boolean {
  const needed = pagePermission(path);
  return needed === null || allows(permissions, needed);
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
