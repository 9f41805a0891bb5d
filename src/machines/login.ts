/**
 * Signing in from the login screen (spec section 4 "Login attempt order", section 8; the
 * code step for accounts with multi-factor authentication on, portal users' and customers': the
 * step remembers whose challenge it holds, so the code goes to that kind's endpoint).
 *
 *   idle             the empty form
 *   adminAttempt     "Signing in..." — tried as an admin-portal user first            (tag: busy)
 *   customerAttempt  "Signing in..." — the admin attempt failed, try the customer login (tag: busy)
 *   code.entering    the password (admin's or customer's) was right and MFA is on: the code field ("Multi-factor
 *                    authentication code required"), its inline error, Back          (tag: codeStep)
 *   code.verifying   "Verifying..."                                         (tags: codeStep, busy)
 *   failed           the form with the inline error
 *   signedIn         done: the session has the token (the router leaves /login)
 */
import { assign, fromPromise, setup } from 'xstate';
import type { AdminLoginOutcome, Credentials, LoginOutcome, MfaRequiredOutcome, SignInOutcome } from '../api/auth';
import type { UserType } from '../domain/auth';
import { pickLoginError, NETWORK_ERROR_MESSAGE } from '../domain/login';
import { MFA_MESSAGES, isMfaCodeOrBackupCode, type MfaLoginPayload } from '../domain/mfa';

export type { AdminLoginOutcome, MfaRequiredOutcome, SignInOutcome };

/** The code step's request: the challenge, the code, and whose sign-in it finishes. */
export interface LoginCodeInput extends MfaLoginPayload {
  userType: UserType;
}

// Machines take only types from src/api: the one-line test is repeated here rather than imported.
const isMfaRequired = (outcome: SignInOutcome): outcome is MfaRequiredOutcome => 'mfaRequired' in outcome;
export interface LoginContext {
  credentials: Credentials | null;
  adminMessage: string | null;
  error: string | null;
  /** The sign-in challenge of the code step (null outside it). */
  challenge: string | null;
  /** Whose password the challenge follows: an admin's challenge is refused at the customer step and back. */
  challengeFor: UserType | null;
  /** The code as typed: six digits or a backup code. */
  code: string;
}

export type LoginEvent =
  | { type: 'user.submit'; email: string; password: string }
  | { type: 'user.code'; value: string }
  | { type: 'user.submitCode' }
  | { type: 'user.back' };

type SignedIn = Extract<LoginOutcome, { ok: true }>;

const refusalMessage = (outcome: LoginOutcome) => (outcome.ok ? '' : outcome.message?.trim() ?? '');

export const loginMachine = setup({
  types: {
    context: {} as LoginContext,
    events: {} as LoginEvent,
  },
  actors: {
    adminLogin: fromPromise<AdminLoginOutcome, Credentials>(async () => {
      throw new Error('adminLogin is provided by the app');
    }),
    customerLogin: fromPromise<SignInOutcome, Credentials>(async () => {
      throw new Error('customerLogin is provided by the app');
    }),
    verifyLoginCode: fromPromise<LoginOutcome, LoginCodeInput>(async () => {
      throw new Error('verifyLoginCode is provided by the app');
    }),
  },
  actions: {
    takeCredentials: assign((_, { email, password }: Credentials) => ({
      credentials: { email: email.trim(), password },
      adminMessage: null,
      error: null,
    })),
    showNetworkError: assign({ error: NETWORK_ERROR_MESSAGE }),
    startCodeStep: assign((_, { challenge, userType }: { challenge: string; userType: UserType }) => ({
      challenge,
      challengeFor: userType,
      code: '',
      error: null,
      credentials: null,
    })),
    storeCode: assign((_, value: string) => ({ code: value, error: null })),
    storeError: assign((_, message: string) => ({ error: message })),
    forgetChallenge: assign({ challenge: null, challengeFor: null, code: '', error: null }),
    /** Hands the token and profile to the session actor. */
    completeSignIn: (_, _outcome: SignedIn) => {},
  },
  guards: {
    isSignedIn: (_, outcome: SignInOutcome) => outcome.ok && !isMfaRequired(outcome),
    isMfaRequired: (_, outcome: SignInOutcome) => isMfaRequired(outcome),
    isCodeWellFormed: ({ context }) => isMfaCodeOrBackupCode(context.code),
    isChallengeExpired: (_, outcome: LoginOutcome) => refusalMessage(outcome) === MFA_MESSAGES.challengeExpired,
  },
}).createMachine({
  id: 'login',
  context: { credentials: null, adminMessage: null, error: null, challenge: null, challengeFor: null, code: '' },
  initial: 'idle',
  states: {
    idle: {
      on: { 'user.submit': { target: 'adminAttempt', actions: { type: 'takeCredentials', params: ({ event }) => event } } },
    },
    adminAttempt: {
      tags: ['busy'],
      invoke: {
        id: 'adminLogin',
        src: 'adminLogin',
        input: ({ context }) => context.credentials!,
        onDone: [
          {
            guard: { type: 'isSignedIn', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: { type: 'completeSignIn', params: ({ event }) => event.output as SignedIn },
          },
          // An admin whose password is right but who has MFA on: never fall through to the customer login.
          {
            guard: { type: 'isMfaRequired', params: ({ event }) => event.output },
            target: 'code',
            actions: { type: 'startCodeStep', params: ({ event }) => ({ challenge: (event.output as MfaRequiredOutcome).challenge, userType: 'admin' }) },
          },
          {
            target: 'customerAttempt',
            actions: assign({ adminMessage: ({ event }) => (event.output.ok ? null : event.output.message) }),
          },
        ],
        onError: { target: 'failed', actions: 'showNetworkError' },
      },
    },
    customerAttempt: {
      tags: ['busy'],
      invoke: {
        id: 'customerLogin',
        src: 'customerLogin',
        input: ({ context }) => context.credentials!,
        onDone: [
          {
            guard: { type: 'isSignedIn', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: { type: 'completeSignIn', params: ({ event }) => event.output as SignedIn },
          },
          // A customer whose password is right but who has MFA on: the same code step, for the customer endpoint.
          {
            guard: { type: 'isMfaRequired', params: ({ event }) => event.output },
            target: 'code',
            actions: { type: 'startCodeStep', params: ({ event }) => ({ challenge: (event.output as MfaRequiredOutcome).challenge, userType: 'customer' }) },
          },
          {
            target: 'failed',
            actions: assign({
              error: ({ context, event }) => pickLoginError(context.adminMessage, event.output.ok ? null : (event.output as LoginOutcome & { ok: false }).message),
            }),
          },
        ],
        onError: { target: 'failed', actions: 'showNetworkError' },
      },
    },
    code: {
      tags: ['codeStep'],
      initial: 'entering',
      states: {
        entering: {
          on: {
            'user.code': { actions: { type: 'storeCode', params: ({ event }) => event.value } },
            'user.submitCode': [
              { guard: 'isCodeWellFormed', target: 'verifying' },
              { actions: { type: 'storeError', params: MFA_MESSAGES.invalidCode } },
            ],
            'user.back': { target: '#login.idle', actions: 'forgetChallenge' },
          },
        },
        verifying: {
          tags: ['busy'],
          invoke: {
            id: 'verifyLoginCode',
            src: 'verifyLoginCode',
            input: ({ context }) => ({ challenge: context.challenge!, code: context.code.trim(), userType: context.challengeFor! }),
            onDone: [
              {
                guard: { type: 'isSignedIn', params: ({ event }) => event.output },
                target: '#login.signedIn',
                actions: { type: 'completeSignIn', params: ({ event }) => event.output as SignedIn },
              },
              // The challenge outlived its minutes: the password has to be given again.
              {
                guard: { type: 'isChallengeExpired', params: ({ event }) => event.output },
                target: '#login.failed',
                actions: ['forgetChallenge', { type: 'storeError', params: MFA_MESSAGES.challengeExpired }],
              },
              // Wrong or replayed code, used backup code, locked account: the server's words, stay on the step.
              {
                target: 'entering',
                actions: { type: 'storeError', params: ({ event }) => refusalMessage(event.output) || MFA_MESSAGES.wrongCode },
              },
            ],
            onError: { target: 'entering', actions: 'showNetworkError' },
          },
        },
      },
    },
    failed: {
      // The password never outlives the attempt that used it.
      entry: assign({ credentials: null }),
      on: { 'user.submit': { target: 'adminAttempt', actions: { type: 'takeCredentials', params: ({ event }) => event } } },
    },
    signedIn: {
      entry: assign({ credentials: null, challenge: null, challengeFor: null, code: '' }),
      type: 'final',
    },
  },
});
