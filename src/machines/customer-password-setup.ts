/**
 * The public password-setup page a new customer reaches from the emailed link (`/set-password?token=…`).
 *
 *   checking      "Checking your link..."                                        (tag: busy)
 *   checkFailed   the link could not be checked (no answer): Try Again
 *   invalid       "This link is not valid" card (unknown token, or none in the link)
 *   gone          "This link can no longer be used" card (already used, or expired)
 *   ready         whose account it is (name, company, email) and the two password fields
 *   submitting    "Setting Password..."                                          (tag: busy)
 *   done          "Password set" with a link to the login page
 */
import { assign, fromPromise, setup } from 'xstate';
import type { ApiResult } from '../api/client';
import type { PasswordSetupInfo, PasswordSetupPayload } from '../api/customers';
import { CUSTOMER_MESSAGES } from '../domain/customers';
import { newPasswordProblem } from '../domain/password';
import { linkGuards, linkRestingStates, messageOr } from './password-link';

export type CheckResult = ApiResult<PasswordSetupInfo>;
export type CompleteResult = ApiResult<{ email: string }>;

export interface PasswordSetupContext {
  token: string;
  account: PasswordSetupInfo | null;
  password: string;
  confirmPassword: string;
  /** The rule the passwords break, or why the server refused them. */
  problem: string | null;
  /** Why the link cannot be used (invalid / gone), or why it could not be checked. */
  linkMessage: string | null;
  /** The address whose password was set. */
  email: string | null;
}

export type PasswordSetupEvent =
  | { type: 'user.field'; field: 'password' | 'confirmPassword'; value: string }
  | { type: 'user.submit' }
  | { type: 'user.retry' };

export const PASSWORD_SETUP_MESSAGES = {
  checkFailed: 'We could not check this link. Check your connection and try again.',
  submitFailed: 'Your password could not be set. Please try again.',
} as const;

export const passwordSetupMachine = setup({
  types: {
    context: {} as PasswordSetupContext,
    events: {} as PasswordSetupEvent,
    input: {} as { token: string | null | undefined } | undefined,
  },
  actors: {
    checkToken: fromPromise<CheckResult, string>(async () => {
      throw new Error('checkToken is provided by the app');
    }),
    setPassword: fromPromise<CompleteResult, PasswordSetupPayload>(async () => {
      throw new Error('setPassword is provided by the app');
    }),
  },
  actions: {
    storeAccount: assign((_, result: CheckResult) => (result.ok ? { account: result.data, linkMessage: null } : {})),
    storeInvalid: assign((_, message: string) => ({ linkMessage: message })),
    storeField: assign((_, { field, value }: { field: 'password' | 'confirmPassword'; value: string }) =>
      field === 'password' ? { password: value, problem: null } : { confirmPassword: value, problem: null },
    ),
    storeProblem: assign(({ context }) => ({ problem: newPasswordProblem(context.password, context.confirmPassword) })),
    storeRefusal: assign((_, message: string) => ({ problem: message })),
    storeDone: assign(({ context }, result: CompleteResult) => ({
      email: (result.ok && result.data.email) || context.account?.email || null,
      password: '',
      confirmPassword: '',
      problem: null,
    })),
    forgetPasswords: assign({ password: '', confirmPassword: '' }),
  },
  guards: {
    ...linkGuards,
    isAccount: (_, result: CheckResult) => result.ok,
    arePasswordsValid: ({ context }) => newPasswordProblem(context.password, context.confirmPassword) === null,
    isSet: (_, result: CompleteResult) => result.ok,
  },
}).createMachine({
  id: 'passwordSetup',
  context: ({ input }) => ({
    token: input?.token?.trim() ?? '',
    account: null,
    password: '',
    confirmPassword: '',
    problem: null,
    linkMessage: null,
    email: null,
  }),
  initial: 'start',
  states: {
    start: {
      always: [
        { guard: 'hasToken', target: 'checking' },
        { target: 'invalid', actions: { type: 'storeInvalid', params: CUSTOMER_MESSAGES.setupTokenInvalid } },
      ],
    },
    checking: {
      tags: ['busy'],
      invoke: {
        id: 'checkToken',
        src: 'checkToken',
        input: ({ context }) => context.token,
        onDone: [
          {
            guard: { type: 'isAccount', params: ({ event }) => event.output },
            target: 'ready',
            actions: { type: 'storeAccount', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isUnknownLink', params: ({ event }) => ({ result: event.output, malformedToo: true }) },
            target: 'invalid',
            actions: { type: 'storeInvalid', params: ({ event }) => messageOr(event.output, CUSTOMER_MESSAGES.setupTokenInvalid) },
          },
          {
            guard: { type: 'isGoneLink', params: ({ event }) => event.output },
            target: 'gone',
            actions: { type: 'storeInvalid', params: ({ event }) => messageOr(event.output, CUSTOMER_MESSAGES.setupTokenExpired) },
          },
          // Any other refusal (a 5xx) says nothing about the link: let the visitor try again.
          {
            target: 'checkFailed',
            actions: { type: 'storeInvalid', params: ({ event }) => messageOr(event.output, PASSWORD_SETUP_MESSAGES.checkFailed) },
          },
        ],
        onError: { target: 'checkFailed', actions: { type: 'storeInvalid', params: PASSWORD_SETUP_MESSAGES.checkFailed } },
      },
    },
    ...linkRestingStates,
    ready: {
      on: {
        'user.field': { actions: { type: 'storeField', params: ({ event }) => event } },
        'user.submit': [{ guard: 'arePasswordsValid', target: 'submitting' }, { actions: 'storeProblem' }],
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'setPassword',
        src: 'setPassword',
        input: ({ context }) => ({ token: context.token, password: context.password, confirmPassword: context.confirmPassword }),
        onDone: [
          {
            guard: { type: 'isSet', params: ({ event }) => event.output },
            target: 'done',
            actions: { type: 'storeDone', params: ({ event }) => event.output },
          },
          // The link was used or ran out while the form was open.
          {
            guard: { type: 'isGoneLink', params: ({ event }) => event.output },
            target: 'gone',
            actions: { type: 'storeInvalid', params: ({ event }) => messageOr(event.output, CUSTOMER_MESSAGES.setupTokenExpired) },
          },
          {
            guard: { type: 'isUnknownLink', params: ({ event }) => ({ result: event.output, malformedToo: false }) },
            target: 'invalid',
            actions: { type: 'storeInvalid', params: ({ event }) => messageOr(event.output, CUSTOMER_MESSAGES.setupTokenInvalid) },
          },
          {
            target: 'ready',
            actions: { type: 'storeRefusal', params: ({ event }) => messageOr(event.output, PASSWORD_SETUP_MESSAGES.submitFailed) },
          },
        ],
        onError: { target: 'ready', actions: { type: 'storeRefusal', params: PASSWORD_SETUP_MESSAGES.submitFailed } },
      },
    },
    done: {
      type: 'final',
    },
  },
});
