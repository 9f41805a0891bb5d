/**
 * The users page's "Add User" and "Edit User" dialogs (spec sections 2 "Users", 5, 8 "Users").
 *
 *   closed      no dialog (never opened, cancelled, or saved: the list reloads)
 *   editing     the form: name, email, the roles held (one or more, from GET /roles), and in Add
 *               User an optional password (left empty, the user is emailed a setup link); a
 *               field's error clears when it is edited, a failure that is no field's (granting
 *               what the editor does not hold) sits above the form                   (tag: open)
 *   submitting  "Saving..."; Cancel and the close icon are disabled                 (tags: open, busy)
 */
import { assign, fromPromise, setup } from 'xstate';
import type { FieldErrors } from '../domain/customers';
import {
  USER_MESSAGES,
  validateUserForm,
  type CreateUserPayload,
  type PortalUser,
  type UpdateUserPayload,
  type UserFormField,
} from '../domain/users';
import type { FailureEnvelope } from '../domain/envelope';
import { failureText, hasErrors, serverFieldErrors } from './customer-forms';
import type { LoadOutcome } from './resource';

/** A save's answer: a refusal may name its HTTP status and the fields at fault (400, 409). */
export interface SaveRefusal {
  ok: false;
  message: string;
  status?: number;
  errors?: FailureEnvelope['errors'];
}
export type SaveOutcome<T> = Extract<LoadOutcome<T>, { ok: true }> | SaveRefusal;

export interface UserFormValues {
  name: string;
  email: string;
  /** The ids of the roles to hold, as picked; at least one. */
  roleIds: readonly string[];
  /** Add User only: empty means "email a password setup link". */
  password: string;
}

export type UserFormMode = 'create' | 'edit';

export interface UserFormContext {
  mode: UserFormMode;
  /** The user being edited (null in Add User). */
  uuid: string | null;
  form: UserFormValues;
  errors: FieldErrors<UserFormField>;
  /** Why the last attempt failed, when it was not a field problem. */
  failure: string | null;
  /** The user the last successful save answered. */
  saved: PortalUser | null;
}

export type UserFormEvent =
  | { type: 'user.create' }
  | { type: 'user.edit'; user: PortalUser }
  | { type: 'user.field'; field: Exclude<UserFormField, 'roles'>; value: string }
  | { type: 'user.roles'; roleIds: readonly string[] }
  | { type: 'user.submit' }
  | { type: 'user.cancel' };

export interface UpdateUserInput {
  uuid: string;
  payload: UpdateUserPayload;
}

export const EMPTY_USER_FORM: UserFormValues = { name: '', email: '', roleIds: [], password: '' };
// The server names the roles field `role_ids` (read as roleIds): its problems sit under Roles.
const FIELDS = ['name', 'email', 'roleIds', 'password'] as const;

function createPayload(form: UserFormValues): CreateUserPayload {
  const payload: CreateUserPayload = { name: form.name.trim(), email: form.email.trim(), role_ids: [...form.roleIds] };
  return form.password ? { ...payload, password: form.password } : payload;
}

const updatePayload = (form: UserFormValues): UpdateUserPayload => ({ name: form.name.trim(), email: form.email.trim(), role_ids: [...form.roleIds] });

function refusalErrors(result: SaveRefusal): FieldErrors<UserFormField> {
  const { roleIds, ...errors } = serverFieldErrors({ ...result, status: result.status ?? 0 }, FIELDS, USER_MESSAGES.duplicateEmail);
  return roleIds ? { ...errors, roles: roleIds } : errors;
}
const refusalText = (mode: UserFormMode, message: string | null) => failureText(mode === 'create' ? 'create user' : 'update user', message);

function savedText(context: UserFormContext, user: PortalUser): string {
  if (context.mode === 'edit') return USER_MESSAGES.updated;
  return context.form.password ? USER_MESSAGES.created(user.email) : USER_MESSAGES.createdWithLink(user.email);
}

type SaveDone = { context: UserFormContext; event: { output: SaveOutcome<PortalUser> } };
const outputOf = ({ event }: SaveDone) => event.output;
const refusalNotice = ({ context, event }: SaveDone) => refusalText(context.mode, event.output.ok ? null : event.output.message);
const savedNotice = ({ context }: { context: UserFormContext }) => savedText(context, context.saved!);
const savedUser = ({ context }: { context: UserFormContext }) => context.saved!;
const unexpectedNotice = ({ context }: { context: UserFormContext }) => refusalText(context.mode, null);

/** Add User and Edit answer alike. */
const saveAnswers = {
  onDone: [
    {
      guard: { type: 'isSaved', params: outputOf },
      target: '#userForm.closed',
      actions: [
        { type: 'storeSaved', params: outputOf },
        { type: 'notifySuccess', params: savedNotice },
        { type: 'userSaved', params: savedUser },
      ],
    },
    // 400 with field errors, or 409 for the email: the problems sit on their fields.
    {
      target: '#userForm.editing',
      actions: [
        { type: 'storeRefusal', params: outputOf },
        { type: 'notifyFailure', params: refusalNotice },
      ],
    },
  ],
  onError: {
    target: '#userForm.editing',
    actions: ['storeUnexpectedFailure', { type: 'notifyFailure', params: unexpectedNotice }],
  },
} as const;

export const userFormMachine = setup({
  types: {
    context: {} as UserFormContext,
    events: {} as UserFormEvent,
  },
  actors: {
    createUser: fromPromise<SaveOutcome<PortalUser>, CreateUserPayload>(async () => {
      throw new Error('createUser is provided by the app');
    }),
    updateUser: fromPromise<SaveOutcome<PortalUser>, UpdateUserInput>(async () => {
      throw new Error('updateUser is provided by the app');
    }),
  },
  actions: {
    openCreate: assign({ mode: 'create', uuid: null, form: EMPTY_USER_FORM, errors: {}, failure: null }),
    openEdit: assign((_, user: PortalUser) => ({
      mode: 'edit' as const,
      uuid: user.uuid,
      form: { name: user.name, email: user.email, roleIds: user.roles.map((role) => role.id), password: '' },
      errors: {},
      failure: null,
    })),
    storeField: assign(({ context }, { field, value }: { field: Exclude<UserFormField, 'roles'>; value: string }) => ({
      form: { ...context.form, [field]: value },
      errors: { ...context.errors, [field]: undefined },
      failure: null,
    })),
    storeRoles: assign(({ context }, roleIds: readonly string[]) => ({
      form: { ...context.form, roleIds },
      errors: { ...context.errors, roles: undefined },
      failure: null,
    })),
    storeClientErrors: assign(({ context }) => ({ errors: validateUserForm(context.form, context.mode) })),
    storeSaved: assign((_, outcome: SaveOutcome<PortalUser>) => (outcome.ok ? { saved: outcome.data, errors: {}, failure: null } : {})),
    storeRefusal: assign(({ context }, outcome: SaveOutcome<PortalUser>) => {
      if (outcome.ok) return {};
      const errors = refusalErrors(outcome);
      return { errors, failure: hasErrors(errors) ? null : refusalText(context.mode, outcome.message) };
    }),
    storeUnexpectedFailure: assign(({ context }) => ({ failure: refusalText(context.mode, null) })),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The list and the stat cards reload. */
    userSaved: (_, _user: PortalUser) => {},
  },
  guards: {
    isValid: ({ context }) => !hasErrors(validateUserForm(context.form, context.mode)),
    isCreating: ({ context }) => context.mode === 'create',
    isSaved: (_, outcome: SaveOutcome<PortalUser>) => outcome.ok,
  },
}).createMachine({
  id: 'userForm',
  context: { mode: 'create', uuid: null, form: EMPTY_USER_FORM, errors: {}, failure: null, saved: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'user.create': { target: 'editing', actions: 'openCreate' },
        'user.edit': { target: 'editing', actions: { type: 'openEdit', params: ({ event }) => event.user } },
      },
    },
    editing: {
      tags: ['open'],
      on: {
        'user.field': { actions: { type: 'storeField', params: ({ event }) => event } },
        'user.roles': { actions: { type: 'storeRoles', params: ({ event }) => event.roleIds } },
        'user.submit': [{ guard: 'isValid', target: 'submitting' }, { actions: 'storeClientErrors' }],
        'user.cancel': 'closed',
      },
    },
    submitting: {
      tags: ['open', 'busy'],
      initial: 'choosing',
      states: {
        choosing: {
          always: [{ guard: 'isCreating', target: 'creating' }, { target: 'updating' }],
        },
        creating: {
          invoke: { id: 'createUser', src: 'createUser', input: ({ context }) => createPayload(context.form), ...saveAnswers },
        },
        updating: {
          invoke: {
            id: 'updateUser',
            src: 'updateUser',
            input: ({ context }) => ({ uuid: context.uuid!, payload: updatePayload(context.form) }),
            ...saveAnswers,
          },
        },
      },
    },
  },
});
