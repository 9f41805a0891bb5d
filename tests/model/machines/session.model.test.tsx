// The session (session machine, created by the composition root): its generated paths walked on the
// machine and through the whole client by what a user does — opening the app with or without a
// stored session (the restore and confirm answers), signing in, enabling MFA, changing the
// password, logging out, and an API call the server answers 401.
import { configure, screen, waitFor as waitForDom, within } from '@testing-library/react';
import { createMemoryHistory } from '@tanstack/react-router';
import { toast } from 'react-hot-toast';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { MFA_MESSAGES } from '../../../src/domain/mfa';
import { SESSION_STORAGE_KEY, parsePersistedSession, type PersistedSession } from '../../../src/domain/session';
import { sessionMachine, type ConfirmOutcome, type SessionEvent } from '../../../src/machines/session';
import { AppRoot } from '../../../src/routes/AppRoot';
import { createTestApp } from '../../ui/open-app';
import { summary } from '../../fixtures/dashboard';
import { adminProfile } from '../../machines/fixtures';
import { renderStrict } from '../../ui/render';
import { defineModel, done, failed, type EventOfType, type ModelSeam, type OpenedScreen } from '../framework/model';
import { fakePortalApi, type FakeAnswer } from '../framework/screen';
import { modelSuite } from '../framework/suite';

// The walk crosses lazily imported routes; on two busy CI cores a first render can take longer than
// Testing Library's default second, which every wait of the run (the framework's too) uses.
configure({ asyncUtilTimeout: 5_000 });

type Login = EventOfType<typeof sessionMachine, 'session.login'>;
type Renew = EventOfType<typeof sessionMachine, 'session.renew'>;

const stored: PersistedSession = { token: 'stored-token', profile: adminProfile, userType: 'admin', isAuthenticated: true };
const login: Login = { type: 'session.login', token: 'new-token', profile: { ...adminProfile, name: 'Ana Signed-In' }, userType: 'admin' };
const renew: Renew = { type: 'session.renew', token: 'renewed-token', profile: { ...adminProfile, name: 'Ana Renewed' } };
const confirmed: ConfirmOutcome = { status: 'valid', profile: { ...adminProfile, name: 'Ana Server' } };

const ok = (data: unknown) => ({ body: { success: true, message: 'ok', data } });

/**
 * The whole client at /home with empty storage, over a fake portal API whose sign-in and
 * password-change answers are set by the step that uses them, and which answers 401 to every call
 * with a token once the server has "revoked" it. The session's own restore and confirm are the
 * path's answers (the seam), so "a stored session" is what the restore answer says.
 */
function openApp(seam: ModelSeam) {
  localStorage.clear();
  const server = { login: null as Login | null, renew: null as Renew | null, revoked: false };
  const answers: Record<string, FakeAnswer> = {
    'POST /api/v1/auth/login': () =>
      server.login ? ok({ user: server.login.profile, token: server.login.token }) : { status: 401, body: { success: false, message: 'Invalid email or password' } },
    'GET /api/v1/dashboard/summary': ok(summary),
    'POST /api/v1/auth/mfa/setup': ok({ secret: 'JBSWY3DPEHPK3PXP', otpauthUri: 'otpauth://totp/Admin?secret=JBSWY3DPEHPK3PXP', qrCodeDataUrl: 'data:image/png;base64,iVBORw0KGgo=' }),
    'POST /api/v1/auth/mfa/verify': ok({ backupCodes: Array.from({ length: 8 }, (_, i) => `ABCD-EFG${i + 2}`) }),
    'PUT /api/v1/users/change-password': () => ok({ user: server.renew!.profile, token: server.renew!.token }),
  };
  const api = fakePortalApi(answers);
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) =>
    server.revoked && new Headers(init?.headers).has('authorization')
      ? new Response(JSON.stringify({ success: false, message: 'Invalid or expired token' }), { status: 401, headers: { 'content-type': 'application/json' } })
      : api.fetch(input, init);
  const history = createMemoryHistory({ initialEntries: ['/home'] });
  const app = createTestApp({ storage: localStorage, history, fetch: fetch as typeof globalThis.fetch, seam, inspect: seam.inspect });
  const view = renderStrict(<AppRoot app={app} />);
  return {
    ...view,
    app,
    history,
    server,
    location: () => `${history.location.pathname}${history.location.search}`,
    close() {
      view.unmount();
      app.session.stop();
      // Toasts live in a module-level store: the next path starts without this one's.
      toast.remove();
    },
  } satisfies OpenedScreen & Record<string, unknown>;
}
type AppScreen = ReturnType<typeof openApp>;

const storedSession = () => parsePersistedSession(localStorage.getItem(SESSION_STORAGE_KEY));
const userButton = (email: string) => screen.getByRole('button', { name: new RegExp(email) });

/** Clicks a field, empties it and pastes the value: one input event per field. */
async function paste({ user }: AppScreen, input: HTMLElement, value: string) {
  await user.click(input);
  await user.clear(input);
  if (value) await user.paste(value);
}

/** Settings → Security, from wherever the signed-in user is. */
async function openSecurityTab(page: AppScreen) {
  if (page.history.location.pathname !== '/settings') {
    await page.user.click(within(screen.getByRole('navigation', { name: 'Main navigation' })).getByRole('link', { name: 'Settings' }));
  }
  // The first visit imports the lazy Settings route: more than findBy's second on a busy CI core.
  await page.user.click(await screen.findByRole('tab', { name: 'Security' }, { timeout: 10_000 }));
}

function expectChecking() {
  expect(screen.getByText('Checking your session...').closest('[role="status"]')).not.toBeNull();
  expect(screen.queryByRole('button', { name: 'Login' })).toBeNull();
  expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
}

export const sessionModel = defineModel<typeof sessionMachine, AppScreen>({
  name: 'session',
  machine: sessionMachine,
  events: {
    'session.login': [login],
    // What the MFA card tells the session when MFA goes on (the only profile change the app sends).
    'profile.update': [{ type: 'profile.update', patch: { mfaEnabled: true } }],
    'session.renew': [renew],
    'session.logout': [{ type: 'session.logout' }],
    'api.unauthorized': [{ type: 'api.unauthorized' }],
  },
  actorResults: [
    done('restoreSession', stored),
    done('restoreSession', null),
    failed('restoreSession', new Error('storage unavailable')),
    done('confirmSession', confirmed),
    done('confirmSession', { status: 'rejected' } satisfies ConfirmOutcome),
    done('confirmSession', { status: 'unreachable' } satisfies ConfirmOutcome),
    failed('confirmSession', new Error('bug')),
  ],
  states: {
    restoring: (snapshot) => {
      expect(snapshot.hasTag('checking')).toBe(true);
      expect(snapshot.context).toEqual({ token: null, profile: null, userType: null, endedBy: null });
    },
    confirming: (snapshot) => {
      expect(snapshot.hasTag('checking')).toBe(true);
      expect(snapshot.context).toMatchObject({ token: stored.token, userType: stored.userType, endedBy: null });
    },
    signedOut: (snapshot) => {
      expect(snapshot.hasTag('checking')).toBe(false);
      // Nothing of the account stays behind; only why it ended.
      expect(snapshot.context).toMatchObject({ token: null, profile: null, userType: null });
      expect([null, 'logout', 'unauthorized', 'rejected']).toContain(snapshot.context.endedBy);
    },
    signedIn: (snapshot) => {
      expect(snapshot.hasTag('checking')).toBe(false);
      expect(snapshot.context.token).toBeTruthy();
      expect(snapshot.context.profile).not.toBeNull();
      expect(snapshot.context.userType).toBe('admin');
      expect(snapshot.context.endedBy).toBeNull();
    },
  },
  ui: {
    open: openApp,
    events: {
      'session.login': async (page, event) => {
        page.server.login = event;
        page.server.revoked = false;
        await paste(page, await screen.findByLabelText('Email'), event.profile.email);
        await paste(page, screen.getByLabelText('Password', { selector: 'input' }), 'correct horse');
        await page.user.click(screen.getByRole('button', { name: 'Login' }));
      },
      'profile.update': async (page, event) => {
        if (event.patch.mfaEnabled !== true) throw new Error('the walk changes the profile only by enabling MFA');
        await openSecurityTab(page);
        const card = within(screen.getByRole('region', { name: MFA_MESSAGES.title }));
        await page.user.click(card.getByRole('button', { name: MFA_MESSAGES.enable }));
        await paste(page, await card.findByLabelText('Verification code'), '123456');
        await page.user.click(card.getByRole('button', { name: MFA_MESSAGES.verifyAndEnable }));
        // The card says enabled in the same step that tells the session.
        await card.findByText(MFA_MESSAGES.enabledNote);
      },
      'session.renew': async (page, event) => {
        page.server.renew = event;
        await openSecurityTab(page);
        const form = within(screen.getByRole('form', { name: 'Change Password' }));
        await paste(page, form.getByLabelText('Current Password'), 'old password');
        await paste(page, form.getByLabelText('New Password'), 'new password 1');
        await paste(page, form.getByLabelText('Confirm New Password'), 'new password 1');
        await page.user.click(form.getByRole('button', { name: 'Change Password' }));
        // The new token reaches the session before the form empties.
        await waitForDom(() => expect(form.getByLabelText('Current Password')).toHaveProperty('value', ''));
      },
      'session.logout': async ({ user, app }) => {
        await user.click(userButton(app.session.getSnapshot().context.profile!.email));
        await user.click(await screen.findByRole('menuitem', { name: 'Log out' }));
      },
      // The server stops taking the token; the next page the user opens asks it something.
      'api.unauthorized': async ({ user, server }) => {
        server.revoked = true;
        await user.click(within(screen.getByRole('navigation', { name: 'Main navigation' })).getByRole('link', { name: 'Terminals' }));
      },
    },
    states: {
      restoring: () => expectChecking(),
      confirming: () => expectChecking(),
      signedOut: (snapshot, { location }) => {
        expect(screen.getByRole('button', { name: 'Login' })).toHaveProperty('disabled', false);
        expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
        expect(storedSession()).toBeNull();
        // A deliberate logout starts again from a plain /login; any other end keeps the way back.
        if (snapshot.context.endedBy === 'logout') expect(location()).toBe('/login');
        else expect(location()).toMatch(/^\/login\?redirect=%2F/);
      },
      signedIn: (snapshot, { location }) => {
        const { profile, token } = snapshot.context;
        expect(userButton(profile!.email).textContent).toContain(profile!.name);
        expect(screen.queryByRole('button', { name: 'Login' })).toBeNull();
        expect(location()).not.toMatch(/^\/login/);
        // Persisted as held, except a session kept unconfirmed (server unreachable) that was never rewritten.
        const persisted = storedSession();
        if (persisted) expect(persisted).toMatchObject({ token, profile: { name: profile!.name, mfaEnabled: profile!.mfaEnabled }, isAuthenticated: true });
        else expect(token).toBe(stored.token);
      },
    },
  },
});

modelSuite(sessionModel);

describe('session (pinned journeys)', () => {
  // Pinned by hand: generated expectations would move with a wrong transition, these do not.
  it('a stored session confirmed, a 401, a new sign-in, a renewed token and a logout: ends signed out by the logout', async () => {
    const persisted: Array<PersistedSession | null> = [];
    const actor = createActor(
      sessionMachine.provide({
        actors: {
          restoreSession: fromPromise(async (): Promise<PersistedSession | null> => stored),
          confirmSession: fromPromise(async (): Promise<ConfirmOutcome> => confirmed),
        },
        actions: {
          persistSession: ({ context }) => void persisted.push({ ...context, isAuthenticated: true } as PersistedSession),
          clearPersistedSession: () => void persisted.push(null),
        },
      }),
    ).start();
    expect((await waitFor(actor, (s) => s.matches('signedIn'))).context.profile?.name).toBe('Ana Server');
    actor.send({ type: 'api.unauthorized' });
    expect(actor.getSnapshot().context.endedBy).toBe('unauthorized');
    actor.send({ type: 'api.unauthorized' });
    actor.send(login);
    actor.send(renew);
    actor.send({ type: 'session.logout' } satisfies SessionEvent);
    const end = actor.getSnapshot();
    expect(end.value).toBe('signedOut');
    expect(end.context).toEqual({ token: null, profile: null, userType: null, endedBy: 'logout' });
    expect(persisted.map((p) => p?.token ?? null)).toEqual(['stored-token', null, 'new-token', 'renewed-token', null]);
  });
});
