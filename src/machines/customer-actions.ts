/**
 * The row actions of the customers list: one dialog at a time, each step a state.
 *
 *   closed                 no dialog
 *   viewing.loading        "View Details": the row's fields at once, fresh details and activity loading (tag: loadingDetail)
 *   viewing.loaded         every field and the customer's activity
 *   viewing.failed         the row's fields and "Failed to load customer details" with Try Again
 *   editing.idle           "Edit Customer": the form; a field's error clears when it is edited
 *   editing.saving         "Saving..."; the dialog cannot be closed                          (tag: busy)
 *   settings.idle          "Account Settings": expiry, days to extend by, "Resend password link"
 *   settings.extending     "Extending..."                                                      (tag: busy)
 *   settings.resending     "Sending..."                                                        (tag: busy)
 *   blocking.reason        "Block Customer": the reason (required, at most 500 characters)
 *   blocking.confirming    "Block {name}?" with the reason, Back and Block Customer
 *   blocking.submitting    "Blocking..."                                                       (tag: busy)
 *   unblocking.confirming  "Unblock {name}?"
 *   unblocking.submitting  "Unblocking..."                                                     (tag: busy)
 *
 * Every change that succeeds tells the app (`customerChanged`), which refreshes the list and the
 * stat cards; every outcome is a toast (`notifySuccess` / `notifyFailure`).
 */
import { assign, fromPromise, setup } from 'xstate';
import type { ApiResult } from '../api/client';
import type { ActivityEntry } from '../domain/dashboard';
import {
  CUSTOMER_MESSAGES,
  DEFAULT_EXTENSION_DAYS,
  blockReasonProblem,
  customerDisplayName,
  validateEditCustomer,
  type CustomerListItem,
  type EditField,
  type EditForm,
  type FieldErrors,
  type UpdateCustomerPayload,
} from '../domain/customers';

export { blockReasonProblem, validateEditCustomer, type EditField, type EditForm };
import { failureText, hasErrors, serverFieldErrors } from './customer-forms';
import type { LoadOutcome } from './resource';

export const EDIT_FIELDS: readonly EditField[] = ['company', 'name', 'email', 'phone', 'address'];

export interface CustomerDetail {
  customer: CustomerListItem;
  /** null when the activity could not be loaded (the details still show). */
  activity: ActivityEntry[] | null;
}

export type CustomerResult = ApiResult<CustomerListItem>;
export type DoneResult = ApiResult<unknown>;

export interface CustomerActionsContext {
  /** The customer acted on: the row, replaced by each fresher answer. */
  customer: CustomerListItem | null;
  activity: ActivityEntry[] | null;
  detailError: string | null;
  form: EditForm;
  errors: FieldErrors<EditField>;
  reason: string;
  reasonError: string | null;
  /** Days the Account Settings dialog extends by. */
  days: number;
  /** The last extension made in this dialog. */
  extended: { days: number; until: string | null } | null;
  /** Why the last request of this dialog failed (shown in the dialog as well as the toast). */
  failure: string | null;
}

export type CustomerActionsEvent =
  | { type: 'user.view'; customer: CustomerListItem }
  | { type: 'user.edit'; customer: CustomerListItem }
  | { type: 'user.settings'; customer: CustomerListItem }
  | { type: 'user.block'; customer: CustomerListItem }
  | { type: 'user.unblock'; customer: CustomerListItem }
  | { type: 'user.close' }
  | { type: 'user.retry' }
  | { type: 'user.field'; field: EditField; value: string }
  | { type: 'user.submit' }
  | { type: 'user.reason'; value: string }
  | { type: 'user.confirm' }
  | { type: 'user.back' }
  | { type: 'user.days'; days: number }
  | { type: 'user.extend' }
  | { type: 'user.resendLink' };

export const CUSTOMER_ACTION_MESSAGES = {
  detailFailed: 'Failed to load customer details',
  updated: (name: string) => `${name} has been updated`,
  blocked: (name: string) => `${name} has been blocked`,
  unblocked: (name: string) => `${name} has been unblocked`,
  extended: (days: number) => `Account extended by ${days} days`,
  linkSent: (email: string) => `Password setup link sent to ${email}`,
} as const;


const formOf = (c: CustomerListItem): EditForm => ({
  name: c.name,
  email: c.email,
  company: c.company,
  phone: c.phone ?? '',
  address: c.address ?? '',
});

function updatePayload(form: EditForm): UpdateCustomerPayload {
  const optional = (value: string) => (value.trim() ? value.trim() : null);
  return {
    name: form.name.trim(),
    email: form.email.trim(),
    company: form.company.trim(),
    phone: optional(form.phone),
    address: optional(form.address),
  };
}

type Refused = Extract<DoneResult, { ok: false }>;
const editErrors = (result: Refused) => serverFieldErrors(result, EDIT_FIELDS, CUSTOMER_MESSAGES.duplicateEmail);
const messageOf = (result: DoneResult) => (result.ok ? '' : result.message);
/** The text of a refused action, from the server's answer. */
const refusal = (what: string) => ({ event }: { event: { output: DoneResult } }) => failureText(what, messageOf(event.output));
/** A failed action: the dialog says why, and so does a toast. */
const reportFailure = <P>(params: P) => [{ type: 'storeFailure', params } as const, { type: 'notifyFailure', params } as const];
const name = (context: CustomerActionsContext) => (context.customer ? customerDisplayName(context.customer) : 'Customer');

const EMPTY_FORM: EditForm = { name: '', email: '', company: '', phone: '', address: '' };

export const customerActionsMachine = setup({
  types: {
    context: {} as CustomerActionsContext,
    events: {} as CustomerActionsEvent,
  },
  actors: {
    loadDetail: fromPromise<LoadOutcome<CustomerDetail>, string>(async () => {
      throw new Error('loadDetail is provided by the app');
    }),
    updateCustomer: fromPromise<CustomerResult, { uuid: string; payload: UpdateCustomerPayload }>(async () => {
      throw new Error('updateCustomer is provided by the app');
    }),
    extendAccount: fromPromise<CustomerResult, { uuid: string; days: number }>(async () => {
      throw new Error('extendAccount is provided by the app');
    }),
    resendLink: fromPromise<DoneResult, string>(async () => {
      throw new Error('resendLink is provided by the app');
    }),
    blockCustomer: fromPromise<CustomerResult, { uuid: string; reason: string }>(async () => {
      throw new Error('blockCustomer is provided by the app');
    }),
    unblockCustomer: fromPromise<CustomerResult, string>(async () => {
      throw new Error('unblockCustomer is provided by the app');
    }),
  },
  actions: {
    takeCustomer: assign((_, customer: CustomerListItem) => ({
      customer,
      activity: null,
      detailError: null,
      form: formOf(customer),
      errors: {},
      reason: '',
      reasonError: null,
      days: DEFAULT_EXTENSION_DAYS,
      extended: null,
      failure: null,
    })),
    storeDetail: assign((_, outcome: LoadOutcome<CustomerDetail>) =>
      outcome.ok ? { customer: outcome.data.customer, activity: outcome.data.activity, detailError: null } : {},
    ),
    storeDetailError: assign({ detailError: CUSTOMER_ACTION_MESSAGES.detailFailed }),
    clearDetailError: assign({ detailError: null }),
    storeField: assign(({ context }, { field, value }: { field: EditField; value: string }) => ({
      form: { ...context.form, [field]: value },
      errors: { ...context.errors, [field]: undefined },
      failure: null,
    })),
    storeEditErrors: assign(({ context }) => ({ errors: validateEditCustomer(context.form) })),
    storeCustomer: assign((_, result: CustomerResult) => (result.ok ? { customer: result.data, failure: null } : {})),
    storeEditRefusal: assign((_, result: DoneResult) => {
      if (result.ok) return {};
      const errors = editErrors(result);
      return { errors, failure: hasErrors(errors) ? null : failureText('update customer', result.message) };
    }),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    storeReason: assign((_, value: string) => ({ reason: value, reasonError: null, failure: null })),
    storeReasonError: assign(({ context }) => ({ reasonError: blockReasonProblem(context.reason) })),
    storeDays: assign((_, days: number) => ({ days, failure: null })),
    storeExtension: assign(({ context }, result: CustomerResult) =>
      result.ok ? { extended: { days: context.days, until: result.data.accountExpiresAt } } : {},
    ),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The list and the stat cards refresh. */
    customerChanged: () => {},
  },
  guards: {
    isBlocked: (_, customer: CustomerListItem) => customer.blockedEnabled,
    isNotBlocked: (_, customer: CustomerListItem) => !customer.blockedEnabled,
    isLoaded: (_, outcome: LoadOutcome<CustomerDetail>) => outcome.ok,
    isEditValid: ({ context }) => !hasErrors(validateEditCustomer(context.form)),
    isReasonValid: ({ context }) => blockReasonProblem(context.reason) === null,
    isDone: (_, result: DoneResult) => result.ok,
  },
}).createMachine({
  id: 'customerActions',
  context: {
    customer: null,
    activity: null,
    detailError: null,
    form: EMPTY_FORM,
    errors: {},
    reason: '',
    reasonError: null,
    days: DEFAULT_EXTENSION_DAYS,
    extended: null,
    failure: null,
  },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'user.view': { target: 'viewing', actions: { type: 'takeCustomer', params: ({ event }) => event.customer } },
        'user.edit': { target: 'editing', actions: { type: 'takeCustomer', params: ({ event }) => event.customer } },
        'user.settings': { target: 'settings', actions: { type: 'takeCustomer', params: ({ event }) => event.customer } },
        // The menu offers Block or Unblock by the row's state; a stale click does nothing.
        'user.block': {
          guard: { type: 'isNotBlocked', params: ({ event }) => event.customer },
          target: 'blocking',
          actions: { type: 'takeCustomer', params: ({ event }) => event.customer },
        },
        'user.unblock': {
          guard: { type: 'isBlocked', params: ({ event }) => event.customer },
          target: 'unblocking',
          actions: { type: 'takeCustomer', params: ({ event }) => event.customer },
        },
      },
    },

    viewing: {
      initial: 'loading',
      on: { 'user.close': 'closed' },
      states: {
        loading: {
          tags: ['loadingDetail'],
          entry: 'clearDetailError',
          invoke: {
            id: 'loadDetail',
            src: 'loadDetail',
            input: ({ context }) => context.customer!.uuid,
            onDone: [
              {
                guard: { type: 'isLoaded', params: ({ event }) => event.output },
                target: 'loaded',
                actions: { type: 'storeDetail', params: ({ event }) => event.output },
              },
              { target: 'failed', actions: 'storeDetailError' },
            ],
            onError: { target: 'failed', actions: 'storeDetailError' },
          },
        },
        loaded: {},
        failed: { on: { 'user.retry': 'loading' } },
      },
    },

    editing: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'user.field': { actions: { type: 'storeField', params: ({ event }) => event } },
            'user.submit': [{ guard: 'isEditValid', target: 'saving' }, { actions: 'storeEditErrors' }],
            'user.close': '#customerActions.closed',
          },
        },
        saving: {
          tags: ['busy'],
          entry: 'clearFailure',
          invoke: {
            id: 'updateCustomer',
            src: 'updateCustomer',
            input: ({ context }) => ({ uuid: context.customer!.uuid, payload: updatePayload(context.form) }),
            onDone: [
              {
                guard: { type: 'isDone', params: ({ event }) => event.output },
                target: '#customerActions.closed',
                actions: [
                  { type: 'storeCustomer', params: ({ event }) => event.output },
                  { type: 'notifySuccess', params: ({ context }) => CUSTOMER_ACTION_MESSAGES.updated(name(context)) },
                  'customerChanged',
                ],
              },
              {
                target: 'idle',
                actions: [
                  { type: 'storeEditRefusal', params: ({ event }) => event.output },
                  { type: 'notifyFailure', params: ({ event }) => failureText('update customer', messageOf(event.output)) },
                ],
              },
            ],
            onError: {
              target: 'idle',
              actions: [
                ...reportFailure(failureText('update customer', null)),
              ],
            },
          },
        },
      },
    },

    settings: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'user.days': { actions: { type: 'storeDays', params: ({ event }) => event.days } },
            'user.extend': 'extending',
            'user.resendLink': 'resending',
            'user.close': '#customerActions.closed',
          },
        },
        extending: {
          tags: ['busy'],
          entry: 'clearFailure',
          invoke: {
            id: 'extendAccount',
            src: 'extendAccount',
            input: ({ context }) => ({ uuid: context.customer!.uuid, days: context.days }),
            onDone: [
              {
                guard: { type: 'isDone', params: ({ event }) => event.output },
                target: 'idle',
                actions: [
                  { type: 'storeExtension', params: ({ event }) => event.output },
                  { type: 'storeCustomer', params: ({ event }) => event.output },
                  { type: 'notifySuccess', params: ({ context }) => CUSTOMER_ACTION_MESSAGES.extended(context.days) },
                  'customerChanged',
                ],
              },
              {
                target: 'idle',
                actions: [
                  ...reportFailure(refusal('extend the account')),
                ],
              },
            ],
            onError: {
              target: 'idle',
              actions: [
                ...reportFailure(failureText('extend the account', null)),
              ],
            },
          },
        },
        resending: {
          tags: ['busy'],
          entry: 'clearFailure',
          invoke: {
            id: 'resendLink',
            src: 'resendLink',
            input: ({ context }) => context.customer!.uuid,
            onDone: [
              {
                guard: { type: 'isDone', params: ({ event }) => event.output },
                target: 'idle',
                actions: { type: 'notifySuccess', params: ({ context }) => CUSTOMER_ACTION_MESSAGES.linkSent(context.customer!.email) },
              },
              {
                target: 'idle',
                actions: [
                  ...reportFailure(refusal('send the password setup link')),
                ],
              },
            ],
            onError: {
              target: 'idle',
              actions: [
                ...reportFailure(failureText('send the password setup link', null)),
              ],
            },
          },
        },
      },
    },

    blocking: {
      initial: 'reason',
      states: {
        reason: {
          on: {
            'user.reason': { actions: { type: 'storeReason', params: ({ event }) => event.value } },
            'user.submit': [{ guard: 'isReasonValid', target: 'confirming' }, { actions: 'storeReasonError' }],
            'user.close': '#customerActions.closed',
          },
        },
        confirming: {
          on: {
            'user.confirm': 'submitting',
            'user.back': 'reason',
            'user.close': '#customerActions.closed',
          },
        },
        submitting: {
          tags: ['busy'],
          entry: 'clearFailure',
          invoke: {
            id: 'blockCustomer',
            src: 'blockCustomer',
            input: ({ context }) => ({ uuid: context.customer!.uuid, reason: context.reason.trim() }),
            onDone: [
              {
                guard: { type: 'isDone', params: ({ event }) => event.output },
                target: '#customerActions.closed',
                actions: [
                  { type: 'storeCustomer', params: ({ event }) => event.output },
                  { type: 'notifySuccess', params: ({ context }) => CUSTOMER_ACTION_MESSAGES.blocked(name(context)) },
                  'customerChanged',
                ],
              },
              // Back to the reason, which stays as typed, with the server's word on it.
              {
                target: 'reason',
                actions: [
                  ...reportFailure(refusal('block customer')),
                ],
              },
            ],
            onError: {
              target: 'reason',
              actions: [
                ...reportFailure(failureText('block customer', null)),
              ],
            },
          },
        },
      },
    },

    unblocking: {
      initial: 'confirming',
      states: {
        confirming: {
          on: {
            'user.confirm': 'submitting',
            'user.close': '#customerActions.closed',
          },
        },
        submitting: {
          tags: ['busy'],
          entry: 'clearFailure',
          invoke: {
            id: 'unblockCustomer',
            src: 'unblockCustomer',
            input: ({ context }) => context.customer!.uuid,
            onDone: [
              {
                guard: { type: 'isDone', params: ({ event }) => event.output },
                target: '#customerActions.closed',
                actions: [
                  { type: 'storeCustomer', params: ({ event }) => event.output },
                  { type: 'notifySuccess', params: ({ context }) => CUSTOMER_ACTION_MESSAGES.unblocked(name(context)) },
                  'customerChanged',
                ],
              },
              {
                target: 'confirming',
                actions: [
                  ...reportFailure(refusal('unblock customer')),
                ],
              },
            ],
            onError: {
              target: 'confirming',
              actions: [
                ...reportFailure(failureText('unblock customer', null)),
              ],
            },
          },
        },
      },
    },
  },
});
