/**
 * The public page an invited person reaches from the emailed link (`/invitation/<token>`): they
 * see who invites them into which organisation, and choose their name and password.
 *
 *   start         no token in the link: straight to invalid
 *   checking      "Checking your invitation..."                                 (tag: busy)
 *   checkFailed   the invitation could not be checked (no answer): Try Again
 *   invalid       "This invitation is not valid" card (unknown token)
 *   gone          "This invitation can no longer be used" card: accepted, expired or revoked,
 *                 in the server's words, which say which
 *   ready         the organisation, the role, the email; name and the two password fields
 *   submitting    "Joining..."                                                 (tag: busy)
 *   done          "Welcome" with a link to the login page
 */
import { assign, fromPromise, setup } from 'xstate';
import type { ApiResult } from '../api/client';
import { MEMBER_MESSAGES, memberNameProblem, type AcceptInvitationPayload, type InvitationInfoWire } from '../domain/members';
import { newPasswordProblem } from '../domain/password';
import { linkGuards, linkRestingStates, messageOr } from './password-link';

export type InvitationCheckResult = ApiResult<InvitationInfoWire>;
export type InvitationAcceptResult = ApiResult<{ email: string }>;

export type InvitationField = 'name' | 'password' | 'confirmPassword';

export interface InvitationAcceptContext {
  token: string;
  invitation: InvitationInfoWire | null;
  name: string;
  password: string;
  confirmPassword: string;
  /** The rule the form breaks, or why the server refused it. */
  problem: string | null;
  /** Why the invitation cannot be used, or could not be checked. */
  linkMessage: string | null;
  /** The address that can now sign in. */
  email: string | null;
}

export type InvitationAcceptEvent =
  | { type: 'user.field'; field: InvitationField; value: string }
  | { type: 'user.submit' }
  | { type: 'user.retry' };

export const INVITATION_ACCEPT_MESSAGES = {
  checkFailed: 'We could not check this invitation. Check your connection and try again.',
  submitFailed: 'Your account could not be created. Please try again.',
} as const;

const formProblem = (c: Pick<InvitationAcceptContext, 'name' | 'password' | 'confirmPassword'>) =>
  memberNameProblem(c.name) ?? newPasswordProblem(c.password, c.confirmPassword);

export const invitationAcceptMachine = setup({
  types: {
    context: {} as InvitationAcceptContext,
    events: {} as InvitationAcceptEvent,
    input: {} as { token: string | null | undefined } | undefined,
  },
  actors: {
    checkInvitation: fromPromise<InvitationCheckResult, string>(async () => {
      throw new Error('checkInvitation is provided by the app');
    }),
    acceptInvitation: fromPromise<InvitationAcceptResult, AcceptInvitationPayload & { token: string }>(async () => {
      throw new Error('acceptInvitation is provided by the app');
    }),
  },
  actions: {
    storeInvitation: assign((_, result: InvitationCheckResult) => (result.ok ? { invitation: result.data, name: result.data.name, linkMessage: null } : {})),
    storeLinkMessage: assign((_, message: string) => ({ linkMessage: message })),
    storeField: assign((_, { field, value }: { field: InvitationField; value: string }) => ({ [field]: value, problem: null })),
    storeProblem: assign(({ context }) => ({ problem: formProblem(context) })),
    storeRefusal: assign((_, message: string) => ({ problem: message })),
    storeDone: assign(({ context }, result: InvitationAcceptResult) => ({
      email: (result.ok && result.data.email) || context.invitation?.email || null,
      password: '',
      confirmPassword: '',
      problem: null,
    })),
    forgetPasswords: assign({ password: '', confirmPassword: '' }),
  },
  guards: {
    ...linkGuards,
    isInvitation: (_, result: InvitationCheckResult) => result.ok,
    isFormValid: ({ context }) => formProblem(context) === null,
    isAccepted: (_, result: InvitationAcceptResult) => result.ok,
  },
}).createMachine({
  id: 'invitationAccept',
  context: ({ input }) => ({
    token: input?.token?.trim() ?? '',
    invitation: null,
    name: '',
    password: '',
    confirmPassword: '',
    problem: null,
    linkMessage: null,
    email: null,
  }),
  initial: 'start',
  states: {
    start: {
      always: [{ guard: 'hasToken', target: 'checking' }, { target: 'invalid', actions: { type: 'storeLinkMessage', params: MEMBER_MESSAGES.invitationInvalid } }],
    },
    checking: {
      tags: ['busy'],
      invoke: {
        id: 'checkInvitation',
        src: 'checkInvitation',
        input: ({ context }) => context.token,
        onDone: [
          { guard: { type: 'isInvitation', params: ({ event }) => event.output }, target: 'ready', actions: { type: 'storeInvitation', params: ({ event }) => event.output } },
          {
            guard: { type: 'isUnknownLink', params: ({ event }) => ({ result: event.output, malformedToo: false }) },
            target: 'invalid',
            actions: { type: 'storeLinkMessage', params: ({ event }) => messageOr(event.output, MEMBER_MESSAGES.invitationInvalid) },
          },
          {
            guard: { type: 'isGoneLink', params: ({ event }) => event.output },
            target: 'gone',
            actions: { type: 'storeLinkMessage', params: ({ event }) => messageOr(event.output, MEMBER_MESSAGES.invitationExpired) },
          },
          // Any other refusal (a 5xx, a 429) says nothing about the invitation: let them try again.
          { target: 'checkFailed', actions: { type: 'storeLinkMessage', params: ({ event }) => messageOr(event.output, INVITATION_ACCEPT_MESSAGES.checkFailed) } },
        ],
        onError: { target: 'checkFailed', actions: { type: 'storeLinkMessage', params: INVITATION_ACCEPT_MESSAGES.checkFailed } },
      },
    },
    ...linkRestingStates,
    ready: {
      on: {
        'user.field': { actions: { type: 'storeField', params: ({ event }) => event } },
        'user.submit': [{ guard: 'isFormValid', target: 'submitting' }, { actions: 'storeProblem' }],
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'acceptInvitation',
        src: 'acceptInvitation',
        input: ({ context }) => ({ token: context.token, name: context.name.trim(), password: context.password, confirmPassword: context.confirmPassword }),
        onDone: [
          { guard: { type: 'isAccepted', params: ({ event }) => event.output }, target: 'done', actions: { type: 'storeDone', params: ({ event }) => event.output } },
          // Accepted elsewhere, revoked or expired while the form was open.
          {
            guard: { type: 'isGoneLink', params: ({ event }) => event.output },
            target: 'gone',
            actions: { type: 'storeLinkMessage', params: ({ event }) => messageOr(event.output, MEMBER_MESSAGES.invitationExpired) },
          },
          {
            guard: { type: 'isUnknownLink', params: ({ event }) => ({ result: event.output, malformedToo: false }) },
            target: 'invalid',
            actions: { type: 'storeLinkMessage', params: ({ event }) => messageOr(event.output, MEMBER_MESSAGES.invitationInvalid) },
          },
          { target: 'ready', actions: { type: 'storeRefusal', params: ({ event }) => messageOr(event.output, INVITATION_ACCEPT_MESSAGES.submitFailed) } },
        ],
        onError: { target: 'ready', actions: { type: 'storeRefusal', params: INVITATION_ACCEPT_MESSAGES.submitFailed } },
      },
    },
    done: {
      type: 'final',
    },
  },
});
