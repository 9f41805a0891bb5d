// Route guards read the session actor; they wait for the session check to settle instead of sleeping.
import { redirect, type ParsedLocation } from '@tanstack/react-router';
import { waitFor } from 'xstate';
import { DEFAULT_SIGNED_IN_PATH, safeRedirectTarget } from '../domain/login';
import type { SessionActor } from './services';

export interface RouterContext {
  session: SessionActor;
}

export function settledSession(session: SessionActor) {
  return waitFor(session, (snapshot) => !snapshot.hasTag('checking'), { timeout: Infinity });
}

/** Every path but /login: signed out → /login, remembering where the visitor was going. */
export async function requireSignedIn({ context, location }: { context: RouterContext; location: ParsedLocation }) {
  const snapshot = await settledSession(context.session);
  if (snapshot.matches('signedIn')) return;
  // After a deliberate logout the portal starts again from /login with no way back.
  const remember = snapshot.context.endedBy !== 'logout' && location.href !== '/' && location.pathname !== '/login';
  throw redirect({ to: '/login', search: remember ? { redirect: location.href } : {}, replace: true });
}

/** /login while signed in → the remembered same-origin path, else /home. */
export async function redirectIfSignedIn({ context, search }: { context: RouterContext; search: { redirect?: string } }) {
  const snapshot = await settledSession(context.session);
  if (!snapshot.matches('signedIn')) return;
  const target = safeRedirectTarget(search.redirect) ?? DEFAULT_SIGNED_IN_PATH;
  throw redirect({ href: target, replace: true });
}
