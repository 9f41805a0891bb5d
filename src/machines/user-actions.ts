/**
 * The per-row actions of the users table (spec sections 2 "Users", 4 "User status", 8 "Users"):
 * one dialog at a time, each step a state.
 *
 *   closed             no dialog
 *   toggling           Suspend/Activate runs at once, no dialog; the row's button is busy  (tag: busy)
 *   dialog.reason      "Block {name}": the reason (required, at most 500 characters)     (tag: open)
 *   dialog.days        "Extend {name}'s account": the days to add (30, 90, 180, 365)     (tag: open)
 *   dialog.confirming  "Unblock / Disable MFA for / Reset login attempts of / Delete /
 *                      Permanently delete / Restore {name}?"                               (tag: open)
 *   dialog.running     the dialog's button says it is working; it cannot be closed  (tags: open, busy)
 *
 * `context.kind` names the action the dialog is for. A refusal keeps the dialog on the step the
 * user confirmed from, with the server's words in it; every outcome is a toast too, and every
 * success tells the page (`userChanged`), which reloads the list.
 */
import { assign, fromPromise, setup } from 'xstate';
import { CUSTOMER_MESSAGES } from '../domain/customers';
import {
  DEFAULT_USER_EXTENSION_DAYS,
  MAX_USER_EXTENSION_DAYS,
  MIN_USER_EXTENSION_DAYS,
  USER_FIELD_LIMITS,
  USER_MESSAGES,
  canToggleActive,
  type PortalUser,
} from '../domain/users';
import type { LoadOutcome } from './resource';
import { submittingStates } from './submit';
import type { SaveOutcome, UpdateUserInput } from './user-form';

/** The actions behind a dialog, as the one `runAction` actor takes them. */
export type UserActionKind = 'block' | 'unblock' | 'extend' | 'disableMfa' | 'resetAttempts' | 'delete' | 'hardDelete' | 'restore';

export interface UserActionInput {
  kind: UserActionKind;
  uuid: string;
  /** block only. */
  reason?: string;
  /** extend only. */
  days?: number;
}

export interface UserActionsContext {
  user: PortalUser | null;
  kind: UserActionKind | null;
  reason: string;
  reasonError: string | null;
  days: number;
  /** Why the last request of this dialog failed (shown in the dialog as well as the toast). */
  failure: string | null;
}

type WithUser<T extends string> = { type: T; user: PortalUser };

export type UserActionsEvent =
  | WithUser<'user.toggleActive'>
  | WithUser<'user.block'>
  | WithUser<'user.extend'>
  | WithUser<'user.unblock'>
  | WithUser<'user.disableMfa'>
  | WithUser<'user.resetAttempts'>
  | WithUser<'user.delete'>
  | WithUser<'user.hardDelete'>
  | WithUser<'user.restore'>
  | { type: 'user.reason'; value: string }
  | { type: 'user.days'; days: number }
  | { type: 'user.confirm' }
  | { type: 'user.close' };

/** The block dialog's reason: required, at most 500 characters. */
export function userBlockReasonProblem(reason: string): string | null {
  const trimmed = reason.trim();
  if (!trimmed) return USER_MESSAGES.blockReasonRequired;
  if (trimmed.length > USER_FIELD_LIMITS.blockedReason) return CUSTOMER_MESSAGES.tooLong('Block reason', USER_FIELD_LIMITS.blockedReason);
  return null;
}

const isAllowedDays = (days: number) => Number.isInteger(days) && days >= MIN_USER_EXTENSION_DAYS && days <= MAX_USER_EXTENSION_DAYS;

/** The success toast of each action. */
function successText(kind: UserActionKind, user: PortalUser, days: number): string {
  const texts: Record<UserActionKind, string> = {
    block: USER_MESSAGES.blocked(user.name),
    unblock: USER_MESSAGES.unblocked(user.name),
    extend: USER_MESSAGES.extended(user.name, days),
    disableMfa: USER_MESSAGES.mfaDisabled(user.name),
    resetAttempts: USER_MESSAGES.attemptsReset(user.name),
    delete: USER_MESSAGES.deleted(user.name),
    hardDelete: USER_MESSAGES.hardDeleted(user.name),
    restore: USER_MESSAGES.restored(user.name),
  };
  return texts[kind];
}

function actionInput(context: UserActionsContext): UserActionInput {
  const input: UserActionInput = { kind: context.kind!, uuid: context.user!.uuid };
  if (context.kind === 'block') input.reason = context.reason.trim();
  if (context.kind === 'extend') input.days = context.days;
  return input;
}

const messageOr = (outcome: LoadOutcome<unknown>, fallback: string) => (!outcome.ok && outcome.message.trim()) || fallback;

const openDialog = (kind: UserActionKind) => ({ type: 'takeUser', params: ({ event }: { event: { user: PortalUser } }) => ({ user: event.user, kind }) }) as const;

const userActionsSetup = setup({
  types: {
    context: {} as UserActionsContext,
    events: {} as UserActionsEvent,
  },
  actors: {
    updateUser: fromPromise<SaveOutcome<PortalUser>, UpdateUserInput>(async () => {
      throw new Error('updateUser is provided by the app');
    }),
    runAction: fromPromise<LoadOutcome<PortalUser | null>, UserActionInput>(async () => {
      throw new Error('runAction is provided by the app');
    }),
  },
  actions: {
    takeUser: assign((_, { user, kind }: { user: PortalUser; kind: UserActionKind | null }) => ({
      user,
      kind,
      reason: '',
      reasonError: null,
      days: DEFAULT_USER_EXTENSION_DAYS,
      failure: null,
    })),
    storeReason: assign((_, value: string) => ({ reason: value, reasonError: null, failure: null })),
    storeReasonError: assign(({ context }) => ({ reasonError: userBlockReasonProblem(context.reason) })),
    storeDays: assign((_, days: number) => ({ days, failure: null })),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The list and the stat cards reload. */
    userChanged: () => {},
  },
  guards: {
    canToggle: (_, user: PortalUser) => canToggleActive(user),
    isBlocked: (_, user: PortalUser) => user.blockedEnabled,
    isNotBlocked: (_, user: PortalUser) => !user.blockedEnabled,
    hasMfa: (_, user: PortalUser) => user.mfaEnabled,
    isDeleted: (_, user: PortalUser) => user.deletedAt !== null,
    isNotDeleted: (_, user: PortalUser) => user.deletedAt === null,
    isAllowedDays: (_, days: number) => isAllowedDays(days),
    isReasonValid: ({ context }) => userBlockReasonProblem(context.reason) === null,
    isBlocking: ({ context }) => context.kind === 'block',
    isExtending: ({ context }) => context.kind === 'extend',
    isDone: (_, outcome: LoadOutcome<unknown>) => outcome.ok,
  },
});

const submitting = submittingStates(userActionsSetup);

export const userActionsMachine = userActionsSetup.createMachine({
  id: 'userActions',
  context: { user: null, kind: null, reason: '', reasonError: null, days: DEFAULT_USER_EXTENSION_DAYS, failure: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        // Admin rows have the button disabled (spec 4) and the server refuses too: a stale click does nothing.
        'user.toggleActive': {
          guard: { type: 'canToggle', params: ({ event }) => event.user },
          target: 'toggling',
          actions: { type: 'takeUser', params: ({ event }) => ({ user: event.user, kind: null }) },
        },
        // The menu offers each action by the row's state; a stale click does nothing.
        'user.block': { guard: { type: 'isNotBlocked', params: ({ event }) => event.user }, target: 'dialog.reason', actions: openDialog('block') },
        'user.unblock': { guard: { type: 'isBlocked', params: ({ event }) => event.user }, target: 'dialog.confirming', actions: openDialog('unblock') },
        'user.extend': { target: 'dialog.days', actions: openDialog('extend') },
        'user.disableMfa': { guard: { type: 'hasMfa', params: ({ event }) => event.user }, target: 'dialog.confirming', actions: openDialog('disableMfa') },
        'user.resetAttempts': { target: 'dialog.confirming', actions: openDialog('resetAttempts') },
        'user.delete': { guard: { type: 'isNotDeleted', params: ({ event }) => event.user }, target: 'dialog.confirming', actions: openDialog('delete') },
        'user.hardDelete': { target: 'dialog.confirming', actions: openDialog('hardDelete') },
        'user.restore': { guard: { type: 'isDeleted', params: ({ event }) => event.user }, target: 'dialog.confirming', actions: openDialog('restore') },
      },
    },

    toggling: {
      tags: ['busy'],
      invoke: {
        id: 'updateUser',
        src: 'updateUser',
        input: ({ context }) => ({ uuid: context.user!.uuid, payload: { is_active: !context.user!.isActive } }),
        onDone: [
          {
            guard: { type: 'isDone', params: ({ event }) => event.output },
            target: 'closed',
            actions: [
              {
                type: 'notifySuccess',
                params: ({ context }) => (context.user!.isActive ? USER_MESSAGES.suspended : USER_MESSAGES.activated)(context.user!.name),
              },
              'userChanged',
            ],
          },
          { target: 'closed', actions: { type: 'notifyFailure', params: ({ event }) => messageOr(event.output, USER_MESSAGES.statusFailed) } },
        ],
        onError: { target: 'closed', actions: { type: 'notifyFailure', params: USER_MESSAGES.statusFailed } },
      },
    },

    dialog: {
      tags: ['open'],
      initial: 'confirming',
      states: {
        reason: {
          on: {
            'user.reason': { actions: { type: 'storeReason', params: ({ event }) => event.value } },
            'user.confirm': [{ guard: 'isReasonValid', target: 'running' }, { actions: 'storeReasonError' }],
            'user.close': '#userActions.closed',
          },
        },
        days: {
          on: {
            'user.days': { guard: { type: 'isAllowedDays', params: ({ event }) => event.days }, actions: { type: 'storeDays', params: ({ event }) => event.days } },
            'user.confirm': 'running',
            'user.close': '#userActions.closed',
          },
        },
        confirming: {
          on: {
            'user.confirm': 'running',
            'user.close': '#userActions.closed',
          },
        },
        running: submitting({
          src: 'runAction',
          input: ({ context }) => actionInput(context),
          success: {
            target: '#userActions.closed',
            actions: [
              { type: 'notifySuccess', params: ({ context }) => successText(context.kind!, context.user!, context.days) },
              'userChanged',
            ],
          },
          // To the step confirmed from, where the reason or the days are still as entered.
          back: [
            { guard: 'isBlocking', target: 'reason' },
            { guard: 'isExtending', target: 'days' },
            { target: 'confirming' },
          ],
          failure: (why) => why?.trim() || USER_MESSAGES.unexpected,
        }),
      },
    },
  },
});
