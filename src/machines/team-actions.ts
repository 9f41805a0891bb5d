/**
 * A customer organisation's team, as its owner (the Team page) or an administrator (the customer's
 * Members tab) changes it, one dialog at a time; each dialog ends in one request through the
 * shared submitting state (submit.ts).
 *
 *   closed               the team table; Invite member, and per row Edit, Remove or Revoke
 *   inviting.editing     "Invite member": email, name, role, every line or some      (tag: open)
 *   inviting.sending     Send Invitation says it is working                     (tags: open, busy)
 *   changing.editing     "Edit member": role, every line or some                      (tag: open)
 *   changing.saving      Save says it is working                                (tags: open, busy)
 *   removing.confirming  "Remove <name>?": Remove, Cancel                            (tag: open)
 *   removing.sending     Remove says it is working                              (tags: open, busy)
 *   revoking.confirming  "Revoke the invitation to <email>?": Revoke, Cancel         (tag: open)
 *   revoking.sending     Revoke says it is working                              (tags: open, busy)
 *
 * A form with a problem stays where it is, the problem by its field. A refusal keeps the dialog
 * open with the server's words in it (and a toast); a success closes it with a toast and tells the
 * page (`teamChanged`), which loads the team again.
 */
import { assign, fromPromise, setup } from 'xstate';
import {
  MEMBER_MESSAGES as M,
  invitationProblems,
  serviceLinesProblem,
  type InviteField,
  type InvitePayload,
  type MemberPatchPayload,
  type MemberRole,
  type TeamInvitationWire,
  type TeamMemberWire,
} from '../domain/members';
import type { LoadOutcome } from './resource';
import { submittingStates } from './submit';

export interface TeamForm {
  email: string;
  name: string;
  role: MemberRole;
  /** null: every line of the organisation. */
  serviceLines: string[] | null;
}

export interface TeamActionsContext {
  form: TeamForm;
  /** The form's problems by field, shown once the user pressed the dialog's button. */
  fieldErrors: Partial<Record<InviteField, string>>;
  /** Whom the dialog is about: the member being changed or removed, the invitation being revoked. */
  member: TeamMemberWire | null;
  invitation: TeamInvitationWire | null;
  /** Why the last request of this dialog failed (shown in the dialog as well as the toast). */
  failure: string | null;
}

export type TeamActionsEvent =
  | { type: 'user.invite' }
  | { type: 'user.edit'; member: TeamMemberWire }
  | { type: 'user.remove'; member: TeamMemberWire }
  | { type: 'user.revoke'; invitation: TeamInvitationWire }
  | { type: 'user.field'; field: 'email' | 'name'; value: string }
  | { type: 'user.role'; role: MemberRole }
  | { type: 'user.lines'; lines: string[] | null }
  | { type: 'user.confirm' }
  | { type: 'user.close' };

export type TeamActionOutcome = LoadOutcome<unknown>;

export const TEAM_ACTION_MESSAGES = {
  inviteFailed: 'The invitation could not be sent. Please try again.',
  updateFailed: 'The member could not be changed. Please try again.',
  removeFailed: 'The member could not be removed. Please try again.',
  revokeFailed: 'The invitation could not be revoked. Please try again.',
} as const;

const EMPTY_FORM: TeamForm = { email: '', name: '', role: 'viewer', serviceLines: null };

const patchOf = (context: TeamActionsContext): MemberPatchPayload => ({ role: context.form.role, serviceLines: context.form.serviceLines });

const teamActionsSetup = setup({
  types: {
    context: {} as TeamActionsContext,
    events: {} as TeamActionsEvent,
  },
  actors: {
    inviteMember: fromPromise<TeamActionOutcome, InvitePayload>(async () => {
      throw new Error('inviteMember is provided by the app');
    }),
    updateMember: fromPromise<TeamActionOutcome, { id: string; patch: MemberPatchPayload }>(async () => {
      throw new Error('updateMember is provided by the app');
    }),
    removeMember: fromPromise<TeamActionOutcome, { id: string }>(async () => {
      throw new Error('removeMember is provided by the app');
    }),
    revokeInvitation: fromPromise<TeamActionOutcome, { id: string }>(async () => {
      throw new Error('revokeInvitation is provided by the app');
    }),
  },
  actions: {
    startInvite: assign({ form: EMPTY_FORM, fieldErrors: {}, member: null, invitation: null, failure: null }),
    startEdit: assign((_, member: TeamMemberWire) => ({
      form: { email: member.email, name: member.name, role: member.role, serviceLines: member.serviceLines },
      fieldErrors: {},
      member,
      invitation: null,
      failure: null,
    })),
    startRemove: assign((_, member: TeamMemberWire) => ({ member, invitation: null, failure: null })),
    startRevoke: assign((_, invitation: TeamInvitationWire) => ({ invitation, member: null, failure: null })),
    storeField: assign(({ context }, { field, value }: { field: 'email' | 'name'; value: string }) => ({
      form: { ...context.form, [field]: value },
      fieldErrors: { ...context.fieldErrors, [field]: undefined },
    })),
    storeRole: assign(({ context }, role: MemberRole) => ({ form: { ...context.form, role }, fieldErrors: { ...context.fieldErrors, role: undefined } })),
    storeLines: assign(({ context }, lines: string[] | null) => ({
      form: { ...context.form, serviceLines: lines },
      fieldErrors: { ...context.fieldErrors, serviceLines: undefined },
    })),
    storeInviteErrors: assign(({ context }) => ({ fieldErrors: invitationProblems(context.form) })),
    storeLinesError: assign(({ context }) => ({ fieldErrors: { serviceLines: serviceLinesProblem(context.form.serviceLines) ?? undefined } })),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The page loads the team again. */
    teamChanged: () => {},
  },
  guards: {
    isInviteValid: ({ context }) => Object.keys(invitationProblems(context.form)).length === 0,
    areLinesValid: ({ context }) => serviceLinesProblem(context.form.serviceLines) === null,
    isDone: (_, outcome: TeamActionOutcome) => outcome.ok,
  },
});

const submitting = submittingStates(teamActionsSetup);

/** The events every open form takes. */
const formEvents = {
  'user.role': { actions: { type: 'storeRole', params: ({ event }: { event: { role: MemberRole } }) => event.role } },
  'user.lines': { actions: { type: 'storeLines', params: ({ event }: { event: { lines: string[] | null } }) => event.lines } },
  'user.close': '#teamActions.closed',
} as const;

/**
 * A question that, confirmed, sends one request about the row it was asked of: Remove a member,
 * Revoke an invitation.
 */
const confirmThenSend = (options: {
  src: 'removeMember' | 'revokeInvitation';
  /** The row's id, from whom the dialog is about. */
  id(context: TeamActionsContext): string;
  /** The toast of a success. */
  done: string;
  /** The words of a failure without the server's. */
  failed: string;
}) =>
  ({
    tags: ['open'],
    initial: 'confirming',
    states: {
      confirming: {
        on: { 'user.confirm': 'sending', 'user.close': '#teamActions.closed' },
      },
      sending: submitting({
        src: options.src,
        input: ({ context }) => ({ id: options.id(context) }),
        success: { target: '#teamActions.closed', actions: [{ type: 'notifySuccess', params: options.done }, 'teamChanged'] },
        back: 'confirming',
        failure: (why) => why?.trim() || options.failed,
      }),
    },
  }) as const;

export const teamActionsMachine = teamActionsSetup.createMachine({
  id: 'teamActions',
  context: { form: EMPTY_FORM, fieldErrors: {}, member: null, invitation: null, failure: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'user.invite': { target: 'inviting', actions: 'startInvite' },
        'user.edit': { target: 'changing', actions: { type: 'startEdit', params: ({ event }) => event.member } },
        'user.remove': { target: 'removing', actions: { type: 'startRemove', params: ({ event }) => event.member } },
        'user.revoke': { target: 'revoking', actions: { type: 'startRevoke', params: ({ event }) => event.invitation } },
      },
    },
    inviting: {
      tags: ['open'],
      initial: 'editing',
      states: {
        editing: {
          on: {
            ...formEvents,
            'user.field': { actions: { type: 'storeField', params: ({ event }) => event } },
            'user.confirm': [{ guard: 'isInviteValid', target: 'sending' }, { actions: 'storeInviteErrors' }],
          },
        },
        sending: submitting({
          src: 'inviteMember',
          input: ({ context }) => ({
            email: context.form.email.trim(),
            name: context.form.name.trim(),
            role: context.form.role,
            serviceLines: context.form.serviceLines,
          }),
          success: {
            target: '#teamActions.closed',
            actions: [{ type: 'notifySuccess', params: ({ context }) => M.invited(context.form.email.trim()) }, 'teamChanged'],
          },
          back: 'editing',
          failure: (why) => why?.trim() || TEAM_ACTION_MESSAGES.inviteFailed,
        }),
      },
    },
    changing: {
      tags: ['open'],
      initial: 'editing',
      states: {
        editing: {
          on: {
            ...formEvents,
            'user.confirm': [{ guard: 'areLinesValid', target: 'saving' }, { actions: 'storeLinesError' }],
          },
        },
        saving: submitting({
          src: 'updateMember',
          input: ({ context }) => ({ id: context.member?.id ?? '', patch: patchOf(context) }),
          success: { target: '#teamActions.closed', actions: [{ type: 'notifySuccess', params: M.updated }, 'teamChanged'] },
          back: 'editing',
          failure: (why) => why?.trim() || TEAM_ACTION_MESSAGES.updateFailed,
        }),
      },
    },
    removing: confirmThenSend({ src: 'removeMember', id: (context) => context.member?.id ?? '', done: M.removed, failed: TEAM_ACTION_MESSAGES.removeFailed }),
    revoking: confirmThenSend({ src: 'revokeInvitation', id: (context) => context.invitation?.id ?? '', done: M.revoked, failed: TEAM_ACTION_MESSAGES.revokeFailed }),
  },
});
