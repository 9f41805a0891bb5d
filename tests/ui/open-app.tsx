// The whole client (composition root, router, session, pages) signed in as an administrator at a
// path, over a fake portal API at the fetch seam: what the route tests start from.
import { createMemoryHistory } from '@tanstack/react-router';
import { createApp, type CreateAppOptions } from '../../src/routes/create-app';
import { AppRoot } from '../../src/routes/AppRoot';
import type { AdminUser, CustomerProfile } from '../../src/domain/auth';
import { SESSION_STORAGE_KEY, serialisePersistedSession } from '../../src/domain/session';
import { adminProfile } from '../machines/fixtures';
import { renderStrict } from './render';
import { trackRouter } from './open-routers';

/** A customer's profile (they carry a company), as opposed to a portal user's. */
export const isCustomerProfile = (profile: AdminUser | CustomerProfile): profile is CustomerProfile => 'company' in profile;

/** `createApp`, with its router handed to the teardown (open-routers.ts): every test app is made here. */
export function createTestApp(options: CreateAppOptions): ReturnType<typeof createApp> {
  const app = createApp(options);
  trackRouter(app.router);
  return app;
}

/** The fake API must accept the bearer token `admin-token` (`customer-token` when `profile` is a customer's). */
export function openSignedInAt(
  path: string,
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>,
  /** The model-based UI runs pass their actor seam and inspection observer here, and may sign in someone else. */
  extra: Pick<CreateAppOptions, 'seam' | 'inspect'> & { profile?: AdminUser | CustomerProfile } = {},
) {
  const { profile = adminProfile, ...options } = extra;
  const userType = isCustomerProfile(profile) ? 'customer' : 'admin';
  localStorage.clear();
  localStorage.setItem(
    SESSION_STORAGE_KEY,
    serialisePersistedSession({ token: `${userType}-token`, profile, userType, isAuthenticated: true }),
  );
  const history = createMemoryHistory({ initialEntries: [path] });
  const app = createTestApp({ storage: localStorage, history, fetch: fetch as typeof globalThis.fetch, ...options });
  const view = renderStrict(<AppRoot app={app} />);
  const location = () => `${history.location.pathname}${history.location.search}`;
  return { ...view, app, history, location };
}
