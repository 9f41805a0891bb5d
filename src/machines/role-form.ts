/**
 * The roles page's changes (Users → Roles): "New role" and Edit on a custom role, one form with a
 * name, a description and an area × (none | read | manage) grid; and Delete on a custom role, a
 * confirmation. Built-in roles are never opened. Each request is the one submit shape (submit.ts).
 *
 *   closed                 no dialog (never opened, cancelled, saved or deleted)
 *   editing                the form; a level the user does not hold cannot be chosen (the server
 *                          refuses it as an escalation anyway); a field's problem sits under it once
 *                          Save was pressed and clears when it is edited; a refusal that is no
 *                          field's (an escalation) sits above the form                  (tag: open)
 *   saving                 "Saving..."; the dialog cannot be closed                 (tags: open, busy)
 *   deletion.confirming    "Delete the role {name}?"                                     (tag: open)
 *   deletion.deleting      Delete says it is working; the dialog cannot be closed   (tags: open, busy)
 *
 * A refusal goes back to the step it came from with the server's words: a 409 for a name taken
 * sits under the name; a 409 for a role still held, in the confirmation. Every success is a toast
 * and tells the page (`rolesChanged`), which reloads the matrix.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { FieldErrors } from '../domain/customers';
import { ROLE_MESSAGES, type Area, type Permission, type RoleInput, type RoleWire } from '../domain/permissions';
import {
  NO_LEVELS,
  levelsOf,
  mayGrant,
  permissionsOfLevels,
  validateRoleForm,
  type AreaLevel,
  type RoleFormField,
  type RoleFormValues,
} from '../domain/roles';
import { failureText, hasErrors } from './customer-forms';
import { fieldOf } from './price-form';
import type { LoadOutcome } from './resource';
import { submittingStates } from './submit';
import type { SaveOutcome, SaveRefusal } from './user-form';

export interface RoleFormInput {
  /** The signed-in user's permissions: the levels they may hand out. */
  held: readonly Permission[];
}

export interface RoleFormContext {
  held: readonly Permission[];
  /** The role being edited or deleted; null in New role. */
  role: RoleWire | null;
  form: RoleFormValues;
  errors: FieldErrors<RoleFormField>;
  /** Why the last request failed, when it was not a field's problem. */
  failure: string | null;
}

export type RoleFormEvent =
  | { type: 'user.create' }
  | { type: 'user.edit'; role: RoleWire }
  | { type: 'user.field'; field: 'name' | 'description'; value: string }
  | { type: 'user.level'; area: Area; level: AreaLevel }
  | { type: 'user.submit' }
  | { type: 'user.cancel' }
  | { type: 'user.delete'; role: RoleWire }
  | { type: 'user.confirm' };

/** What saving sends: the role, and its id when it is an edit. */
export interface SaveRoleInput {
  id: string | null;
  role: RoleInput;
}

export const ROLE_FORM_TEXTS = {
  saveFailed: failureText('save the role', null),
  deleteFailed: failureText('delete the role', null),
  deleteQuestion: (name: string) => `Delete the role ${name}? Nobody may hold it; this cannot be undone.`,
} as const;

export const EMPTY_ROLE_FORM: RoleFormValues = { name: '', description: '', levels: NO_LEVELS };
const FIELDS: readonly RoleFormField[] = ['name', 'description', 'permissions'];

export function roleInput(form: RoleFormValues): RoleInput {
  const description = form.description.trim();
  return { name: form.name.trim(), ...(description ? { description } : {}), permissions: permissionsOfLevels(form.levels) };
}

/**
 * Where a refusal's words go: the fields the server named; a 409 (the name is taken) under the
 * name; anything else (an escalation, a built-in role) above the form.
 */
export function roleRefusalPlacement(refusal: SaveRefusal): { errors: FieldErrors<RoleFormField>; failure: string | null } {
  const errors: FieldErrors<RoleFormField> = {};
  for (const problem of refusal.errors ?? []) {
    const field = fieldOf(problem.path, FIELDS);
    if (field && !errors[field]) errors[field] = problem.message;
  }
  if (hasErrors(errors)) return { errors, failure: null };
  const words = refusal.message.trim();
  if (refusal.status === 409) return { errors: { name: words || ROLE_MESSAGES.nameTaken }, failure: null };
  return { errors: {}, failure: words || ROLE_FORM_TEXTS.saveFailed };
}

const roleFormSetup = setup({
  types: {
    context: {} as RoleFormContext,
    events: {} as RoleFormEvent,
    input: {} as RoleFormInput,
  },
  actors: {
    saveRole: fromPromise<SaveOutcome<RoleWire>, SaveRoleInput>(async () => {
      throw new Error('saveRole is provided by the app');
    }),
    deleteRole: fromPromise<LoadOutcome<unknown>, { id: string }>(async () => {
      throw new Error('deleteRole is provided by the app');
    }),
  },
  actions: {
    openCreate: assign({ role: null, form: EMPTY_ROLE_FORM, errors: {}, failure: null }),
    openEdit: assign((_, role: RoleWire) => ({
      role,
      form: { name: role.name, description: role.description, levels: levelsOf(role.permissions) },
      errors: {},
      failure: null,
    })),
    storeField: assign(({ context }, { field, value }: { field: 'name' | 'description'; value: string }) => ({
      form: { ...context.form, [field]: value },
      errors: { ...context.errors, [field]: undefined },
      failure: null,
    })),
    storeLevel: assign(({ context }, { area, level }: { area: Area; level: AreaLevel }) => ({
      form: { ...context.form, levels: { ...context.form.levels, [area]: level } },
      errors: { ...context.errors, permissions: undefined },
      failure: null,
    })),
    storeProblems: assign(({ context }) => ({ errors: validateRoleForm(context.form) })),
    storeRefusal: assign((_, outcome: SaveOutcome<unknown>) => (outcome.ok ? {} : roleRefusalPlacement(outcome))),
    takeRole: assign((_, role: RoleWire) => ({ role, failure: null })),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The matrix reloads. */
    rolesChanged: () => {},
  },
  guards: {
    isValid: ({ context }) => !hasErrors(validateRoleForm(context.form)),
    // Built-in roles are the code's: the page offers no Edit or Delete on them, and the server refuses.
    isCustom: (_, role: RoleWire) => !role.builtIn,
    isGrantable: ({ context }, { area, level }: { area: Area; level: AreaLevel }) => mayGrant(context.held, area, level),
    isDone: (_, outcome: LoadOutcome<unknown>) => outcome.ok,
  },
});

const submitting = submittingStates(roleFormSetup);

export const roleFormMachine = roleFormSetup.createMachine({
  id: 'roleForm',
  context: ({ input }) => ({ held: input.held, role: null, form: EMPTY_ROLE_FORM, errors: {}, failure: null }),
  initial: 'closed',
  states: {
    closed: {
      on: {
        'user.create': { target: 'editing', actions: 'openCreate' },
        'user.edit': {
          guard: { type: 'isCustom', params: ({ event }) => event.role },
          target: 'editing',
          actions: { type: 'openEdit', params: ({ event }) => event.role },
        },
        'user.delete': {
          guard: { type: 'isCustom', params: ({ event }) => event.role },
          target: 'deletion',
          actions: { type: 'takeRole', params: ({ event }) => event.role },
        },
      },
    },
    editing: {
      tags: ['open'],
      on: {
        'user.field': { actions: { type: 'storeField', params: ({ event }) => event } },
        'user.level': {
          guard: { type: 'isGrantable', params: ({ event }) => event },
          actions: { type: 'storeLevel', params: ({ event }) => event },
        },
        // A form with a problem stays, each problem under its field; nothing is sent.
        'user.submit': [{ guard: 'isValid', target: 'saving' }, { actions: 'storeProblems' }],
        'user.cancel': 'closed',
      },
    },
    saving: {
      ...submitting({
        src: 'saveRole',
        input: ({ context }) => ({ id: context.role?.id ?? null, role: roleInput(context.form) }),
        success: {
          target: 'closed',
          actions: [{ type: 'notifySuccess', params: ({ context }) => (context.role ? ROLE_MESSAGES.updated : ROLE_MESSAGES.created) }, 'rolesChanged'],
        },
        back: 'editing',
        failure: (why) => why?.trim() || ROLE_FORM_TEXTS.saveFailed,
        refused: { type: 'storeRefusal', params: ({ event }) => event.output },
      }),
      tags: ['open', 'busy'],
    },
    deletion: {
      tags: ['open'],
      initial: 'confirming',
      states: {
        confirming: {
          on: {
            'user.confirm': 'deleting',
            'user.cancel': '#roleForm.closed',
          },
        },
        deleting: submitting({
          src: 'deleteRole',
          input: ({ context }) => ({ id: context.role!.id }),
          success: { target: '#roleForm.closed', actions: [{ type: 'notifySuccess', params: ROLE_MESSAGES.deleted }, 'rolesChanged'] },
          back: 'confirming',
          failure: (why) => why?.trim() || ROLE_FORM_TEXTS.deleteFailed,
        }),
      },
    },
  },
});

export type RoleFormMachine = typeof roleFormMachine;
