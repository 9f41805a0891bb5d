// The whole client (composition root, router, session, pages) signed in as an administrator at a
// path, over a fake portal API at the fetch seam: what the route tests start from.
import { createMemoryHistory } from '@tanstack/react-router';
import { createApp, type CreateAppOptions } from '../../src/routes/create-app';
import { AppRoot } from '../../src/routes/AppRoot';
import type { AdminUser } from '../../src/domain/auth';
import { SESSION_STORAGE_KEY, serialisePersistedSession } from '../../src/domain/session';
import { adminProfile } from '../machines/fixtures';
import { renderStrict } from './render';

/** The fake API must accept the bearer token `admin-token`. */
export function openSignedInAt(
  path: string,
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>,
  /** The model-based UI runs pass their actor seam and inspection observer here, and may sign in someone else. */
  extra: Pick<CreateAppOptions, 'seam' | 'inspect'> & { profile?: AdminUser } = {},
) {
  const { profile = adminProfile, ...options } = extra;
  localStorage.clear();
  localStorage.setItem(
    SESSION_STORAGE_KEY,
    serialisePersistedSession({ token: 'admin-token', profile, userType: 'admin', isAuthenticated: true }),
  );
  const history = createMemoryHistory({ initialEntries: [path] });
  const app = createApp({ storage: localStorage, history, fetch: fetch as typeof globalThis.fetch, ...options });
  const view = renderStrict(<AppRoot app={app} />);
  const location = () => `${history.location.pathname}${history.location.search}`;
  return { ...view, app, history, location };
}
