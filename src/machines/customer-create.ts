/**
 * The "Add New Customer" dialog (spec sections 2, 5 "Create customer", 8 "Customers").
 *
 *   closed       no dialog (never opened, or cancelled)
 *   editing      the form; a field's error clears when that field is edited          (tag: open)
 *   validating   the client rules of validateCreateCustomer (passes straight through) (tag: open)
 *   submitting   "Creating Account..."; Cancel and the close icon are disabled        (tags: open, busy)
 *   failed       the form again, with the reason above it (and the failure toast)   (tag: open)
 *   done         no dialog: the 5-second success toast, the list and stats refresh
 */
import { assign, fromPromise, setup } from 'xstate';
import type { ApiResult } from '../api/client';
import {
  CUSTOMER_MESSAGES,
  DEFAULT_EXPIRATION_DAYS,
  validateCreateCustomer,
  type CreateCustomerField,
  type CreateCustomerPayload,
  type CustomerListItem,
  type FieldErrors,
} from '../domain/customers';
import { hasErrors, serverFieldErrors } from './customer-forms';

export type CreateCustomerForm = CreateCustomerPayload;
export type CreateResult = ApiResult<CustomerListItem>;
export type TextField = Exclude<CreateCustomerField, 'expirationDays'>;

export interface CustomerCreateContext {
  form: CreateCustomerForm;
  errors: FieldErrors<CreateCustomerField>;
  /** Why the last attempt failed, when it was not a field problem. */
  failure: string | null;
  /** The customer the last successful attempt created. */
  created: CustomerListItem | null;
}

export type CustomerCreateEvent =
  | { type: 'user.open' }
  | { type: 'user.field'; field: TextField; value: string }
  | { type: 'user.expiration'; days: number }
  | { type: 'user.submit' }
  | { type: 'user.cancel' };

/** What the success toast says. */
export interface CreatedNotice {
  email: string;
  name: string;
  company: string;
}

const FIELDS: readonly CreateCustomerField[] = ['company', 'name', 'email', 'expirationDays'];
export const EMPTY_CREATE_FORM: CreateCustomerForm = { company: '', name: '', email: '', expirationDays: DEFAULT_EXPIRATION_DAYS };

const payloadOf = (form: CreateCustomerForm): CreateCustomerPayload => ({
  email: form.email.trim(),
  name: form.name.trim(),
  company: form.company.trim(),
  expirationDays: form.expirationDays,
});

type Refused = Extract<CreateResult, { ok: false }>;
const refusalErrors = (result: Refused) => serverFieldErrors(result, FIELDS, CUSTOMER_MESSAGES.duplicateEmail);
const refusalText = (result: Refused) =>
  result.message.trim() ? CUSTOMER_MESSAGES.createFailed(result.message.trim()) : CUSTOMER_MESSAGES.createFailedGeneric;

export const customerCreateMachine = setup({
  types: {
    context: {} as CustomerCreateContext,
    events: {} as CustomerCreateEvent,
  },
  actors: {
    createCustomer: fromPromise<CreateResult, CreateCustomerPayload>(async () => {
      throw new Error('createCustomer is provided by the app');
    }),
  },
  actions: {
    resetForm: assign({ form: EMPTY_CREATE_FORM, errors: {}, failure: null }),
    storeField: assign(({ context }, { field, value }: { field: TextField; value: string }) => ({
      form: { ...context.form, [field]: value },
      errors: { ...context.errors, [field]: undefined },
      failure: null,
    })),
    storeExpiration: assign(({ context }, days: number) => ({
      form: { ...context.form, expirationDays: days },
      errors: { ...context.errors, expirationDays: undefined },
      failure: null,
    })),
    storeClientErrors: assign(({ context }) => ({ errors: validateCreateCustomer(context.form) })),
    storeCreated: assign((_, result: CreateResult) => (result.ok ? { created: result.data, errors: {}, failure: null } : {})),
    storeRefusal: assign((_, result: CreateResult) =>
      result.ok ? {} : { errors: refusalErrors(result), failure: hasErrors(refusalErrors(result)) ? null : refusalText(result) },
    ),
    storeUnexpectedFailure: assign({ failure: CUSTOMER_MESSAGES.createFailedGeneric }),
    /** The 5-second success toast. */
    notifyCreated: (_, _notice: CreatedNotice) => {},
    /** The failure toast. */
    notifyFailure: (_, _message: string) => {},
    /** The list and the stat cards refresh. */
    customerCreated: (_, _customer: CustomerListItem) => {},
  },
  guards: {
    isValid: ({ context }) => !hasErrors(validateCreateCustomer(context.form)),
    isCreated: (_, result: CreateResult) => result.ok,
    isFieldRefusal: (_, result: CreateResult) => !result.ok && hasErrors(refusalErrors(result)),
  },
}).createMachine({
  id: 'customerCreate',
  context: { form: EMPTY_CREATE_FORM, errors: {}, failure: null, created: null },
  initial: 'closed',
  states: {
    closed: {
      on: { 'user.open': { target: 'editing', actions: 'resetForm' } },
    },
    editing: {
      tags: ['open'],
      on: {
        'user.field': { actions: { type: 'storeField', params: ({ event }) => event } },
        'user.expiration': { actions: { type: 'storeExpiration', params: ({ event }) => event.days } },
        'user.submit': 'validating',
        'user.cancel': 'closed',
      },
    },
    validating: {
      tags: ['open'],
      always: [{ guard: 'isValid', target: 'submitting' }, { target: 'editing', actions: 'storeClientErrors' }],
    },
    submitting: {
      tags: ['open', 'busy'],
      invoke: {
        id: 'createCustomer',
        src: 'createCustomer',
        input: ({ context }) => payloadOf(context.form),
        onDone: [
          {
            guard: { type: 'isCreated', params: ({ event }) => event.output },
            target: 'done',
            actions: [
              { type: 'storeCreated', params: ({ event }) => event.output },
              {
                type: 'notifyCreated',
                params: ({ context }) => ({
                  email: context.created?.email || context.form.email.trim(),
                  name: context.created?.name || context.form.name.trim(),
                  company: context.created?.company || context.form.company.trim(),
                }),
              },
              { type: 'customerCreated', params: ({ context }) => context.created! },
            ],
          },
          // 400 with field errors, or 409 for the email: the problems sit on their fields.
          {
            guard: { type: 'isFieldRefusal', params: ({ event }) => event.output },
            target: 'editing',
            actions: [
              { type: 'storeRefusal', params: ({ event }) => event.output },
              { type: 'notifyFailure', params: ({ event }) => (event.output.ok ? '' : refusalText(event.output)) },
            ],
          },
          {
            target: 'failed',
            actions: [
              { type: 'storeRefusal', params: ({ event }) => event.output },
              { type: 'notifyFailure', params: ({ event }) => (event.output.ok ? '' : refusalText(event.output)) },
            ],
          },
        ],
        // No answer at all, or a bug: the generic message.
        onError: {
          target: 'failed',
          actions: ['storeUnexpectedFailure', { type: 'notifyFailure', params: CUSTOMER_MESSAGES.createFailedGeneric }],
        },
      },
    },
    failed: {
      tags: ['open'],
      on: {
        'user.field': { target: 'editing', actions: { type: 'storeField', params: ({ event }) => event } },
        'user.expiration': { target: 'editing', actions: { type: 'storeExpiration', params: ({ event }) => event.days } },
        'user.submit': 'validating',
        'user.cancel': 'closed',
      },
    },
    done: {
      on: { 'user.open': { target: 'editing', actions: 'resetForm' } },
    },
  },
});
