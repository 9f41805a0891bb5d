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
 *   blocking.reason        "Block Customer": the reason (required, at most 500 characters), and for
 *                          lifecycle:manage (input `canEndLines`) the option to also end their lines
 *   blocking.confirming    "Block {name}?" with the reason (and the option, if taken), Back and Block Customer
 *   blocking.submitting    "Blocking..."                                                       (tag: busy)
 *   unblocking.confirming  "Unblock {name}?"
 *   unblocking.submitting  "Unblocking..."                                                     (tag: busy)
 *
 * Every change that succeeds tells the app (`customerChanged`), which refreshes the list and the
 * stat cards; every outcome is a toast (`notifySuccess` / `notifyFailure`). A block that ended
 * the customer's lines says how many will end; the lines that could not be set to end are one
 * failure toast besides (the block itself stands: the server commits it first).
 */
import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import type { ApiResult } from '../api/client';
import type { ActivityEntry } from '../domain/dashboard';
import {
  CUSTOMER_MESSAGES,
  DEFAULT_EXTENSION_DAYS,
  blockReasonProblem,
  blockedLinesNotices,
  customerDisplayName,
  validateEditCustomer,
  type CustomerListItem,
  type CustomerUpdateData,
  type EditField,
  type EditForm,
  type FieldErrors,
  type UpdateCustomerPayload,
} from '../domain/customers';

export { blockReasonProblem, validateEditCustomer, type EditField, type EditForm };
import { failureText, hasErrors, serverFieldErrors } from './customer-forms';
import type { LoadOutcome } from './resource';
import { submittingStates } from './submit';

export const EDIT_FIELDS: readonly EditField[] = ['company', 'name', 'email', 'phone', 'address'];

export interface CustomerDetail {
  customer: CustomerListItem;
  /** null when the activity could not be loaded (the details still show). */
  activity: ActivityEntry[] | null;
}

export type CustomerResult = ApiResult<CustomerListItem>;
export type DoneResult = ApiResult<unknown>;
/** A block's answer: the customer, and what became of each line it asked to end. */
export type BlockResult = ApiResult<CustomerUpdateData>;

export interface BlockRequest {
  uuid: string;
  reason: string;
  /** Also set the customer's active lines to end at the end of the billing cycle. */
  endLines: boolean;
}

export interface CustomerActionsInput {
  /**
   * Whether the block dialog offers to end the customer's lines: lifecycle:manage only, as the
   * server refuses the option to anyone else (ending a line is theirs alone).
   */
  canEndLines: boolean;
}

export interface CustomerActionsContext {
  /** The customer acted on: the row, replaced by each fresher answer. */
  customer: CustomerListItem | null;
  activity: ActivityEntry[] | null;
  detailError: string | null;
  form: EditForm;
  errors: FieldErrors<EditField>;
  reason: string;
  reasonError: string | null;
  canEndLines: boolean;
  /** The block dialog's "also end their service lines" (never true unless `canEndLines`). */
  endLines: boolean;
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
  | { type: 'user.endLines'; value: boolean }
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
const name = (context: CustomerActionsContext) => (context.customer ? customerDisplayName(context.customer) : 'Customer');

/** The toasts, as an action that picks which to show enqueues them. */
type Toast = { type: 'notifySuccess'; params: string } | { type: 'notifyFailure'; params: string };

const EMPTY_FORM: EditForm = { name: '', email: '', company: '', phone: '', address: '' };

const customerActionsSetup = setup({
  types: {
    context: {} as CustomerActionsContext,
    events: {} as CustomerActionsEvent,
    input: {} as CustomerActionsInput,
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
    blockCustomer: fromPromise<BlockResult, BlockRequest>(async () => {
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
      endLines: false,
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
    storeEndLines: assign((_, value: boolean) => ({ endLines: value, failure: null })),
    storeBlocked: assign((_, result: BlockResult) => (result.ok ? { customer: result.data.customer, failure: null } : {})),
    /**
     * The block's toasts: the plain one, or what became of the lines it asked to end. Its types are
     * given by hand: inferred, the toasts it enqueues would refer back to this very actions object.
     */
    notifyBlocked: enqueueActions<CustomerActionsContext, CustomerActionsEvent, BlockResult, CustomerActionsEvent, never, Toast, never, never, never>(({ context, enqueue }, result) => {
      if (!context.endLines) {
        enqueue({ type: 'notifySuccess', params: CUSTOMER_ACTION_MESSAGES.blocked(name(context)) });
        return;
      }
      const notices = blockedLinesNotices(name(context), result.ok ? result.data.lineEndings : []);
      enqueue({ type: 'notifySuccess', params: notices.success });
      if (notices.failure) enqueue({ type: 'notifyFailure', params: notices.failure });
    }),
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
    canEndLines: ({ context }) => context.canEndLines,
    isDone: (_, result: DoneResult) => result.ok,
  },
});

const submitting = submittingStates(customerActionsSetup);

export const customerActionsMachine = customerActionsSetup.createMachine({
  id: 'customerActions',
  context: ({ input }) => ({
    customer: null,
    activity: null,
    detailError: null,
    form: EMPTY_FORM,
    errors: {},
    reason: '',
    reasonError: null,
    canEndLines: input.canEndLines,
    endLines: false,
    days: DEFAULT_EXTENSION_DAYS,
    extended: null,
    failure: null,
  }),
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
        saving: submitting({
          src: 'updateCustomer',
          input: ({ context }) => ({ uuid: context.customer!.uuid, payload: updatePayload(context.form) }),
          success: {
            target: '#customerActions.closed',
            actions: [
              { type: 'storeCustomer', params: ({ event }) => event.output },
              { type: 'notifySuccess', params: ({ context }) => CUSTOMER_ACTION_MESSAGES.updated(name(context)) },
              'customerChanged',
            ],
          },
          back: 'idle',
          failure: (why) => failureText('update customer', why),
          // A refusal may name fields: their errors go beside them, and only one naming none is the dialog's failure.
          refused: { type: 'storeEditRefusal', params: ({ event }) => event.output },
        }),
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
        extending: submitting({
          src: 'extendAccount',
          input: ({ context }) => ({ uuid: context.customer!.uuid, days: context.days }),
          success: {
            target: 'idle',
            actions: [
              { type: 'storeExtension', params: ({ event }) => event.output },
              { type: 'storeCustomer', params: ({ event }) => event.output },
              { type: 'notifySuccess', params: ({ context }) => CUSTOMER_ACTION_MESSAGES.extended(context.days) },
              'customerChanged',
            ],
          },
          back: 'idle',
          failure: (why) => failureText('extend the account', why),
        }),
        resending: submitting({
          src: 'resendLink',
          input: ({ context }) => context.customer!.uuid,
          success: {
            target: 'idle',
            actions: { type: 'notifySuccess', params: ({ context }) => CUSTOMER_ACTION_MESSAGES.linkSent(context.customer!.email) },
          },
          back: 'idle',
          failure: (why) => failureText('send the password setup link', why),
        }),
      },
    },

    blocking: {
      initial: 'reason',
      states: {
        reason: {
          on: {
            'user.reason': { actions: { type: 'storeReason', params: ({ event }) => event.value } },
            // Offered with lifecycle:manage only: for anyone else the option does not exist.
            'user.endLines': { guard: 'canEndLines', actions: { type: 'storeEndLines', params: ({ event }) => event.value } },
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
        submitting: submitting({
          src: 'blockCustomer',
          input: ({ context }) => ({ uuid: context.customer!.uuid, reason: context.reason.trim(), endLines: context.endLines }),
          success: {
            target: '#customerActions.closed',
            actions: [
              { type: 'storeBlocked', params: ({ event }) => event.output },
              { type: 'notifyBlocked', params: ({ event }) => event.output },
              'customerChanged',
            ],
          },
          // Back to the reason, which stays as typed, with the server's word on it.
          back: 'reason',
          failure: (why) => failureText('block customer', why),
        }),
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
        submitting: submitting({
          src: 'unblockCustomer',
          input: ({ context }) => context.customer!.uuid,
          success: {
            target: '#customerActions.closed',
            actions: [
              { type: 'storeCustomer', params: ({ event }) => event.output },
              { type: 'notifySuccess', params: ({ context }) => CUSTOMER_ACTION_MESSAGES.unblocked(name(context)) },
              'customerChanged',
            ],
          },
          back: 'confirming',
          failure: (why) => failureText('unblock customer', why),
        }),
      },
    },
  },
});
