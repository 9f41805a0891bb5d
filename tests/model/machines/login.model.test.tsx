// The login screen (login machine, /login): its generated paths walked on the machine and through
// the page a signed-out visitor opens, with the code step of an admin or a customer who has MFA on,
// plus journeys pinned by hand.
import { configure, screen, within } from '@testing-library/react';
import { createMemoryHistory } from '@tanstack/react-router';
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { LoginOutcome } from '../../../src/api/auth';
import { INVALID_CREDENTIALS_MESSAGE } from '../../../src/domain/auth';
import { MFA_MESSAGES, isMfaCodeOrBackupCode, type MfaLoginPayload } from '../../../src/domain/mfa';
import { loginMachine, type AdminLoginOutcome, type MfaRequiredOutcome } from '../../../src/machines/login';
import { AppRoot } from '../../../src/routes/AppRoot';
import { createTestApp } from '../../ui/open-app';
import { adminProfile, customerProfile } from '../../machines/fixtures';
import { renderStrict } from '../../ui/render';
import { defineModel, done, failed, type ModelSeam, type OpenedScreen } from '../framework/model';
import { fakePortalApi } from '../framework/screen';
import { modelSuite } from '../framework/suite';

// The walk crosses lazily imported routes; on two busy CI cores a first render can take longer than
// Testing Library's default second, which every wait of the run (the framework's too) uses.
configure({ asyncUtilTimeout: 5_000 });

const adminOk: LoginOutcome = { ok: true, token: 'admin-token', profile: adminProfile, userType: 'admin' };
const customerOk: LoginOutcome = { ok: true, token: 'customer-token', profile: customerProfile, userType: 'customer' };
const refused = (message: string | null, status = 401): LoginOutcome => ({ ok: false, status, message });
const mfaRequired: MfaRequiredOutcome = { ok: true, mfaRequired: true, challenge: 'challenge-1' };

/** The whole client at `path` with nobody signed in (empty storage), over a fake portal API. */
function openSignedOutAt(path: string, seam: ModelSeam) {
  localStorage.clear();
  const api = fakePortalApi();
  const history = createMemoryHistory({ initialEntries: [path] });
  const app = createTestApp({ storage: localStorage, history, fetch: api.fetch as typeof globalThis.fetch, seam, inspect: seam.inspect });
  const view = renderStrict(<AppRoot app={app} />);
  return {
    ...view,
    app,
    history,
    close() {
      view.unmount();
      app.session.stop();
    },
  } satisfies OpenedScreen & Record<string, unknown>;
}
type LoginScreen = ReturnType<typeof openSignedOutAt>;

const credentialsForm = () => screen.getByRole('button', { name: /^(Login|Signing in\.\.\.)$/ }).closest('form')!;
const codeForm = () => within(screen.getByRole('form', { name: 'Multi-factor authentication' }));

/** Clicks a field, empties it and pastes the value: one input event per field. */
async function paste({ user }: LoginScreen, input: HTMLElement, value: string) {
  await user.click(input);
  await user.clear(input);
  if (value) await user.paste(value);
}

/** Until the flow ends signed in, the session has heard nothing. */
const expectSignedOut = ({ app, history }: LoginScreen) => {
  expect(app.session.getSnapshot().value).toBe('signedOut');
  expect(history.location.pathname).toBe('/login');
};

export const loginModel = defineModel<typeof loginMachine, LoginScreen>({
  name: 'login',
  machine: loginMachine,
  events: {
    'user.submit': [{ type: 'user.submit', email: adminProfile.email, password: 'correct horse' }],
    // A six-digit code and a malformed one.
    'user.code': [{ type: 'user.code', value: '123456' }, { type: 'user.code', value: '12ab' }],
    'user.submitCode': [{ type: 'user.submitCode' }],
    'user.back': [{ type: 'user.back' }],
  },
  actorResults: [
    done<AdminLoginOutcome>('adminLogin', adminOk),
    done<AdminLoginOutcome>('adminLogin', mfaRequired),
    done<AdminLoginOutcome>('adminLogin', refused('Admin message')),
    failed('adminLogin', new TypeError('fetch failed')),
    done('customerLogin', customerOk),
    done<AdminLoginOutcome>('customerLogin', mfaRequired),
    done('customerLogin', refused('Customer message')),
    failed('customerLogin', new TypeError('fetch failed')),
    done('verifyLoginCode', adminOk),
    done('verifyLoginCode', customerOk),
    done('verifyLoginCode', refused(MFA_MESSAGES.challengeExpired)),
    done('verifyLoginCode', refused(MFA_MESSAGES.wrongCode)),
    failed('verifyLoginCode', new TypeError('fetch failed')),
  ],
  states: {
    idle: (snapshot) => {
      expect(snapshot.hasTag('busy')).toBe(false);
      expect(snapshot.context).toMatchObject({ credentials: null, error: null, challenge: null, code: '' });
    },
    adminAttempt: (snapshot) => {
      expect(snapshot.hasTag('busy')).toBe(true);
      expect(snapshot.context.credentials).toEqual({ email: adminProfile.email, password: 'correct horse' });
      expect(snapshot.context.error).toBeNull();
    },
    customerAttempt: (snapshot) => {
      expect(snapshot.hasTag('busy')).toBe(true);
      // The admin attempt never hands over to the customer login without the credentials.
      expect(snapshot.context.credentials).not.toBeNull();
    },
    'code.entering': (snapshot) => {
      expect(snapshot.hasTag('codeStep')).toBe(true);
      expect(snapshot.hasTag('busy')).toBe(false);
      // The password never outlives the attempt that proved it; the step knows whose challenge it holds.
      expect(snapshot.context).toMatchObject({ credentials: null, challenge: 'challenge-1' });
      expect(['admin', 'customer']).toContain(snapshot.context.challengeFor);
    },
    'code.verifying': (snapshot) => {
      expect(snapshot.hasTag('codeStep')).toBe(true);
      expect(snapshot.hasTag('busy')).toBe(true);
      expect(isMfaCodeOrBackupCode(snapshot.context.code)).toBe(true);
    },
    failed: (snapshot) => {
      expect(snapshot.hasTag('busy')).toBe(false);
      expect(snapshot.context.error).toBeTruthy();
      expect(snapshot.context).toMatchObject({ credentials: null, challenge: null, challengeFor: null });
    },
    signedIn: (snapshot) => {
      expect(snapshot.status).toBe('done');
      expect(snapshot.context).toMatchObject({ credentials: null, challenge: null, code: '' });
    },
  },
  ui: {
    open: (seam) => openSignedOutAt('/login', seam),
    events: {
      'user.submit': async (page, event) => {
        await paste(page, await screen.findByLabelText('Email'), event.email);
        await paste(page, screen.getByLabelText('Password', { selector: 'input' }), event.password);
        await page.user.click(screen.getByRole('button', { name: 'Login' }));
      },
      'user.code': async (page, event) => paste(page, codeForm().getByLabelText(MFA_MESSAGES.codeLabel), event.value),
      'user.submitCode': async ({ user }) => user.click(codeForm().getByRole('button', { name: 'Verify' })),
      'user.back': async ({ user }) => user.click(codeForm().getByRole('button', { name: 'Back' })),
    },
    states: {
      idle: (_snapshot, page) => {
        expect(screen.getByText('Login with your admin account')).toBeTruthy();
        expect(screen.getByRole('button', { name: 'Login' })).toHaveProperty('disabled', false);
        expect(screen.queryByRole('alert')).toBeNull();
        expectSignedOut(page);
      },
      adminAttempt: (_snapshot, page) => {
        expect(within(credentialsForm()).getByRole('button', { name: 'Signing in...' })).toHaveProperty('disabled', true);
        expect(screen.queryByRole('alert')).toBeNull();
        expectSignedOut(page);
      },
      customerAttempt: (_snapshot, page) => {
        expect(within(credentialsForm()).getByRole('button', { name: 'Signing in...' })).toHaveProperty('disabled', true);
        expectSignedOut(page);
      },
      'code.entering': (snapshot, page) => {
        expect(screen.getByText(MFA_MESSAGES.codeRequired)).toBeTruthy();
        expect(screen.queryByLabelText('Email')).toBeNull();
        expect(codeForm().getByLabelText(MFA_MESSAGES.codeLabel)).toHaveProperty('value', snapshot.context.code);
        expect(codeForm().getByRole('button', { name: 'Verify' })).toHaveProperty('disabled', false);
        expect(codeForm().getByRole('button', { name: 'Back' })).toHaveProperty('disabled', false);
        if (snapshot.context.error) expect(codeForm().getByRole('alert').textContent).toBe(snapshot.context.error);
        else expect(codeForm().queryByRole('alert')).toBeNull();
        expectSignedOut(page);
      },
      'code.verifying': (_snapshot, page) => {
        expect(codeForm().getByRole('button', { name: 'Verifying...' })).toHaveProperty('disabled', true);
        expect(codeForm().getByLabelText(MFA_MESSAGES.codeLabel)).toHaveProperty('disabled', true);
        expect(codeForm().getByRole('button', { name: 'Back' })).toHaveProperty('disabled', true);
        expectSignedOut(page);
      },
      failed: (snapshot, page) => {
        expect(screen.getByRole('alert').textContent).toBe(snapshot.context.error);
        expect(screen.getByRole('button', { name: 'Login' })).toHaveProperty('disabled', false);
        expect(screen.getByLabelText('Email')).toBeTruthy();
        expectSignedOut(page);
      },
      // The session took the token and the router left /login for the portal.
      signedIn: (_snapshot, { app, history }) => {
        expect(app.session.getSnapshot().value).toBe('signedIn');
        // A customer lands in their own area, an admin in the portal.
        const { userType } = app.session.getSnapshot().context;
        expect(history.location.pathname).toBe(userType === 'customer' ? '/my' : '/home');
        const { name } = app.session.getSnapshot().context.profile!;
        expect(screen.getByRole('button', { name: new RegExp(name) })).toBeTruthy();
        expect(screen.queryByLabelText('Email')).toBeNull();
      },
    },
  },
});

modelSuite(loginModel);

function startLogin(
  admin: () => Promise<AdminLoginOutcome>,
  customer: () => Promise<AdminLoginOutcome>,
  verify: (input: MfaLoginPayload) => Promise<LoginOutcome> = async () => adminOk,
) {
  const completeSignIn = vi.fn();
  const adminCalls = vi.fn();
  const customerCalls = vi.fn();
  const actor = createActor(
    loginMachine.provide({
      actors: {
        adminLogin: fromPromise(async ({ input }) => (adminCalls(input), admin())),
        customerLogin: fromPromise(async ({ input }) => (customerCalls(input), customer())),
        verifyLoginCode: fromPromise(async ({ input }) => verify(input)),
      },
      actions: { completeSignIn: (_, outcome) => completeSignIn(outcome) },
    }),
  ).start();
  return { actor, completeSignIn, adminCalls, customerCalls };
}

const submit = { type: 'user.submit', email: ' ana.lima@example.com ', password: 'correct horse' } as const;

describe('login (pinned journeys)', () => {
  // Pinned by hand: generated expectations would move with a wrong transition, these do not.
  it('admin refused, customer refused, then admin accepted on the second submit ends signed in as admin', async () => {
    const admin = vi.fn<() => Promise<LoginOutcome>>().mockResolvedValueOnce(refused(INVALID_CREDENTIALS_MESSAGE)).mockResolvedValueOnce(adminOk);
    const { actor, completeSignIn } = startLogin(admin, async () => refused(INVALID_CREDENTIALS_MESSAGE));
    actor.send(submit);
    expect((await waitFor(actor, (s) => s.matches('failed'))).context.error).toBe(INVALID_CREDENTIALS_MESSAGE);
    actor.send(submit);
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().value).toBe('signedIn');
    expect(completeSignIn).toHaveBeenCalledExactlyOnceWith(adminOk);
  });

  it('MFA on: a malformed code, a wrong code, Back, the password again, then the right code ends signed in', async () => {
    const verify = vi.fn<() => Promise<LoginOutcome>>().mockResolvedValueOnce(refused(MFA_MESSAGES.wrongCode)).mockResolvedValueOnce(adminOk);
    const { actor, completeSignIn, adminCalls, customerCalls } = startLogin(async () => mfaRequired, async () => customerOk, verify);
    actor.send(submit);
    await waitFor(actor, (s) => s.hasTag('codeStep'));
    actor.send({ type: 'user.code', value: '12 34' });
    actor.send({ type: 'user.submitCode' });
    expect(actor.getSnapshot().context.error).toBe(MFA_MESSAGES.invalidCode);
    actor.send({ type: 'user.code', value: '111111' });
    actor.send({ type: 'user.submitCode' });
    expect((await waitFor(actor, (s) => s.context.error !== null)).context.error).toBe(MFA_MESSAGES.wrongCode);
    actor.send({ type: 'user.back' });
    actor.send(submit);
    await waitFor(actor, (s) => s.hasTag('codeStep'));
    actor.send({ type: 'user.code', value: '222222' });
    actor.send({ type: 'user.submitCode' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().value).toBe('signedIn');
    expect(adminCalls).toHaveBeenCalledTimes(2);
    expect(customerCalls).not.toHaveBeenCalled();
    expect(verify).toHaveBeenCalledTimes(2);
    expect(completeSignIn).toHaveBeenCalledExactlyOnceWith(adminOk);
  });

  it('a customer with MFA on: the admin attempt fails, the customer password asks for a code, which goes to the customer step', async () => {
    const verify = vi.fn<(input: MfaLoginPayload) => Promise<LoginOutcome>>().mockResolvedValue(customerOk);
    const { actor, completeSignIn, customerCalls } = startLogin(async () => refused(INVALID_CREDENTIALS_MESSAGE), async () => mfaRequired, verify);
    actor.send(submit);
    await waitFor(actor, (s) => s.hasTag('codeStep'));
    expect(customerCalls).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.challengeFor).toBe('customer');
    actor.send({ type: 'user.code', value: 'ABCD-EFGH' });
    actor.send({ type: 'user.submitCode' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().value).toBe('signedIn');
    expect(verify).toHaveBeenCalledExactlyOnceWith({ challenge: 'challenge-1', code: 'ABCD-EFGH', userType: 'customer' });
    expect(completeSignIn).toHaveBeenCalledExactlyOnceWith(customerOk);
  });
});
