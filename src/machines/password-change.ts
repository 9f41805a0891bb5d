/**
 * Settings → Security → Change Password (spec sections 2 "Settings", 5 "Change password", 8).
 *
 *   editing     the three password fields, the inline problem under them, Change Password
 *   submitting  "Changing..."; the fields and the button are disabled                  (tag: busy)
 *
 * A change that succeeds clears the form; a refusal (the current password is wrong, the new one
 * is the old one) keeps what was typed and says why inline; both are toasts too.
 */
import { assign, fromPromise, setup } from 'xstate';
import { newPasswordProblem } from '../domain/password';
import { SETTINGS_MESSAGES, type ChangePasswordPayload } from '../domain/users';
import type { LoadOutcome } from './resource';

export type PasswordChangeField = 'currentPassword' | 'newPassword' | 'confirmPassword';
export type PasswordChangeForm = Record<PasswordChangeField, string>;

export interface PasswordChangeContext {
  form: PasswordChangeForm;
  /** The client rule broken, or the server's refusal. */
  error: string | null;
}

export type PasswordChangeEvent = { type: 'user.field'; field: PasswordChangeField; value: string } | { type: 'user.submit' };

export const EMPTY_PASSWORD_CHANGE_FORM: PasswordChangeForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

const problemOf = (form: PasswordChangeForm) =>
  newPasswordProblem(form.newPassword, form.confirmPassword, [form.currentPassword, form.newPassword, form.confirmPassword]);

export const passwordChangeMachine = setup({
  types: {
    context: {} as PasswordChangeContext,
    events: {} as PasswordChangeEvent,
  },
  actors: {
    changePassword: fromPromise<LoadOutcome<unknown>, ChangePasswordPayload>(async () => {
      throw new Error('changePassword is provided by the app');
    }),
  },
  actions: {
    storeField: assign(({ context }, { field, value }: { field: PasswordChangeField; value: string }) => ({
      form: { ...context.form, [field]: value },
      error: null,
    })),
    storeProblem: assign(({ context }) => ({ error: problemOf(context.form) })),
    storeRefusal: assign((_, outcome: LoadOutcome<unknown>) => ({
      error: (!outcome.ok && outcome.message.trim()) || SETTINGS_MESSAGES.passwordFailed,
    })),
    clearForm: assign({ form: EMPTY_PASSWORD_CHANGE_FORM, error: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
  },
  guards: {
    isFormValid: ({ context }) => problemOf(context.form) === null,
    isChanged: (_, outcome: LoadOutcome<unknown>) => outcome.ok,
  },
}).createMachine({
  id: 'passwordChange',
  context: { form: EMPTY_PASSWORD_CHANGE_FORM, error: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'user.field': { actions: { type: 'storeField', params: ({ event }) => event } },
        'user.submit': [{ guard: 'isFormValid', target: 'submitting' }, { actions: 'storeProblem' }],
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'changePassword',
        src: 'changePassword',
        input: ({ context }) => ({ currentPassword: context.form.currentPassword, newPassword: context.form.newPassword }),
        onDone: [
          {
            guard: { type: 'isChanged', params: ({ event }) => event.output },
            target: 'editing',
            actions: ['clearForm', { type: 'notifySuccess', params: SETTINGS_MESSAGES.passwordChanged }],
          },
          {
            target: 'editing',
            actions: [
              { type: 'storeRefusal', params: ({ event }) => event.output },
              { type: 'notifyFailure', params: SETTINGS_MESSAGES.passwordFailed },
            ],
          },
        ],
        onError: { target: 'editing', actions: { type: 'notifyFailure', params: SETTINGS_MESSAGES.passwordFailed } },
      },
    },
  },
});
