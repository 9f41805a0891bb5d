/**
 * The Prices page's changes to customers' own prices: "New customer price" (a discount
 * and/or negotiated figures for one customer, on one product or every product, from a date and
 * optionally until one) and "End" on a running row, one at a time, on the one submit shape
 * (submit.ts).
 *
 *   closed              no dialog (never opened, cancelled, saved or ended)
 *   editing             the form: customer (picked from a searchable list), product or every
 *                       product, discount %, negotiated monthly / overage per GB / top-up, from,
 *                       until, note; a problem sits under its field once Save was pressed and
 *                       clears when it is edited; a refusal that is no field's sits above the form
 *                                                                                  (tag: open)
 *   saving              "Saving..."; the dialog cannot be closed                (tags: open, busy)
 *   ending.confirming   "End {customer}'s price for {product}?"                        (tag: open)
 *   ending.ending       End says it is working; the dialog cannot be closed    (tags: open, busy)
 *
 * Every success is a toast and tells the page (`customerPricesChanged`), which reloads the list.
 */
import { assign, fromPromise, setup } from 'xstate';
import { BILLING_MESSAGES as M, type CustomerPriceBody, type CustomerPriceWire } from '../domain/billing';
import type { FieldErrors } from '../domain/customers';
import { CURRENCY_PATTERN, MoneyError, decimalFraction } from '../domain/money';
import { failureText, hasErrors } from './customer-forms';
import { NOTE_MAX_LENGTH, PRICE_FORM_TEXTS, amountProblem, currencyCode, fieldOf, isIsoDate } from './price-form';
import type { LoadOutcome } from './resource';
import { submittingStates } from './submit';
import type { SaveOutcome, SaveRefusal } from './user-form';

export interface CustomerOption {
  id: string;
  name: string;
}

/** The fields typed as text; the customer and the product are picked. */
export type CustomerPriceTextField = 'currency' | 'discountPercent' | 'monthly' | 'overagePerGb' | 'topUp' | 'effectiveFrom' | 'effectiveUntil' | 'note';
/** `figures`: the form as a whole gives neither a discount nor a negotiated price. */
export type CustomerPriceField = CustomerPriceTextField | 'customer' | 'productReferenceId' | 'figures';

export interface CustomerPriceFormValues {
  customer: CustomerOption | null;
  /** null: every product. */
  productReferenceId: string | null;
  /** The negotiated figures' currency (the product's list currency). */
  currency: string;
  /** Percent as typed, e.g. "12.5"; blank for none. */
  discountPercent: string;
  monthly: string;
  overagePerGb: string;
  topUp: string;
  effectiveFrom: string;
  /** Blank: open-ended. */
  effectiveUntil: string;
  note: string;
}

export interface CustomerPriceFormContext {
  form: CustomerPriceFormValues;
  errors: FieldErrors<CustomerPriceField>;
  failure: string | null;
  /** The row End was asked for. */
  row: CustomerPriceWire | null;
}

export type CustomerPriceFormEvent =
  | { type: 'user.create'; form: CustomerPriceFormValues }
  | { type: 'user.field'; field: CustomerPriceTextField; value: string }
  | { type: 'user.customer'; customer: CustomerOption | null }
  | { type: 'user.product'; productReferenceId: string | null; currency: string | null }
  | { type: 'user.submit' }
  | { type: 'user.cancel' }
  | { type: 'user.end'; row: CustomerPriceWire }
  | { type: 'user.confirm' };

export const CUSTOMER_PRICE_TEXTS = {
  customerRequired: 'Choose a customer',
  discountInvalid: 'The discount must be a percentage above 0 and at most 100, with at most 2 decimals',
  untilBeforeFrom: 'Until must be after From',
  endQuestion: (customer: string, product: string) => `End ${customer}\u2019s price for ${product}? It stops applying from the next cycle (the first day of next month); the current cycle and statements already closed keep it.`,
  saveFailed: failureText('save the customer price', null),
  endFailed: failureText('end the customer price', null),
} as const;

export const EMPTY_CUSTOMER_PRICE_FORM: CustomerPriceFormValues = {
  customer: null,
  productReferenceId: null,
  currency: 'USD',
  discountPercent: '',
  monthly: '',
  overagePerGb: '',
  topUp: '',
  effectiveFrom: '',
  effectiveUntil: '',
  note: '',
};

const SERVER_FIELDS: readonly CustomerPriceField[] = ['currency', 'discountPercent', 'monthly', 'overagePerGb', 'topUp', 'effectiveFrom', 'effectiveUntil', 'note', 'productReferenceId'];

/** A percentage above 0 and at most 100 with at most 2 decimals (a whole number of basis points). */
export function isDiscountPercent(text: string): boolean {
  try {
    const { units, scale } = decimalFraction(text.trim());
    return scale <= 2 && units > 0n && units <= 100n * 10n ** BigInt(scale);
  } catch (error) {
    if (error instanceof MoneyError) return false;
    throw error;
  }
}

export function validateCustomerPriceForm(form: CustomerPriceFormValues): FieldErrors<CustomerPriceField> {
  const errors: FieldErrors<CustomerPriceField> = {};
  if (!form.customer) errors.customer = CUSTOMER_PRICE_TEXTS.customerRequired;
  const discount = form.discountPercent.trim();
  if (discount && !isDiscountPercent(discount)) errors.discountPercent = CUSTOMER_PRICE_TEXTS.discountInvalid;
  const amounts = [
    ['monthly', 'Monthly price'],
    ['overagePerGb', 'Overage per GB'],
    ['topUp', 'Top-up price'],
  ] as const;
  for (const [field, label] of amounts) {
    const problem = amountProblem(form[field], form.currency, label, false);
    if (problem) errors[field] = problem;
  }
  const figures = amounts.some(([field]) => form[field].trim() !== '');
  if (!discount && !figures) errors.figures = M.customerPriceEmpty;
  if (!CURRENCY_PATTERN.test(currencyCode(form.currency))) errors.currency = M.currencyInvalid;
  const from = form.effectiveFrom.trim();
  const until = form.effectiveUntil.trim();
  if (!isIsoDate(from)) errors.effectiveFrom = PRICE_FORM_TEXTS.dateInvalid('From');
  if (until && !isIsoDate(until)) errors.effectiveUntil = PRICE_FORM_TEXTS.dateInvalid('Until');
  else if (until && isIsoDate(from) && until <= from) errors.effectiveUntil = CUSTOMER_PRICE_TEXTS.untilBeforeFrom;
  if (form.note.trim().length > NOTE_MAX_LENGTH) errors.note = PRICE_FORM_TEXTS.noteTooLong;
  return errors;
}

const blankToNull = (text: string) => text.trim() || null;

export function customerPriceBody(form: CustomerPriceFormValues): CustomerPriceBody {
  return {
    customerId: form.customer?.id ?? '',
    productReferenceId: form.productReferenceId,
    effectiveFrom: form.effectiveFrom.trim(),
    effectiveUntil: blankToNull(form.effectiveUntil),
    discountPercent: blankToNull(form.discountPercent),
    monthly: blankToNull(form.monthly),
    overagePerGb: blankToNull(form.overagePerGb),
    topUp: blankToNull(form.topUp),
    currency: currencyCode(form.currency),
    note: blankToNull(form.note),
  };
}

/** Where a refusal's words go: the fields the server named (the customer's id is the customer's), else above the form. */
export function customerPriceRefusalPlacement(refusal: SaveRefusal): { errors: FieldErrors<CustomerPriceField>; failure: string | null } {
  const errors: FieldErrors<CustomerPriceField> = {};
  for (const problem of refusal.errors ?? []) {
    const field = /customerId/.test(problem.path) ? 'customer' : fieldOf(problem.path, SERVER_FIELDS);
    if (field && !errors[field]) errors[field] = problem.message;
  }
  if (hasErrors(errors)) return { errors, failure: null };
  const words = refusal.message.trim();
  if (words === M.customerNotFound) return { errors: { customer: words }, failure: null };
  if (words === M.customerPriceEmpty) return { errors: { figures: words }, failure: null };
  return { errors: {}, failure: words || CUSTOMER_PRICE_TEXTS.saveFailed };
}

const FIGURE_FIELDS: readonly CustomerPriceField[] = ['discountPercent', 'monthly', 'overagePerGb', 'topUp'];

const customerPriceFormSetup = setup({
  types: {
    context: {} as CustomerPriceFormContext,
    events: {} as CustomerPriceFormEvent,
  },
  actors: {
    saveCustomerPrice: fromPromise<SaveOutcome<CustomerPriceWire>, CustomerPriceBody>(async () => {
      throw new Error('saveCustomerPrice is provided by the app');
    }),
    endCustomerPrice: fromPromise<LoadOutcome<unknown>, { id: string }>(async () => {
      throw new Error('endCustomerPrice is provided by the app');
    }),
  },
  actions: {
    openForm: assign((_, form: CustomerPriceFormValues) => ({ form, errors: {}, failure: null, row: null })),
    storeField: assign(({ context }, { field, value }: { field: CustomerPriceTextField; value: string }) => ({
      form: { ...context.form, [field]: value },
      // A figure typed answers "give a discount or a price"; a new currency may change what the amounts say.
      errors:
        field === 'currency'
          ? { ...context.errors, currency: undefined, monthly: undefined, overagePerGb: undefined, topUp: undefined }
          : { ...context.errors, [field]: undefined, ...(FIGURE_FIELDS.includes(field) ? { figures: undefined } : {}) },
      failure: null,
    })),
    storeCustomer: assign(({ context }, customer: CustomerOption | null) => ({
      form: { ...context.form, customer },
      errors: { ...context.errors, customer: undefined },
      failure: null,
    })),
    storeProduct: assign(({ context }, { productReferenceId, currency }: { productReferenceId: string | null; currency: string | null }) => ({
      form: { ...context.form, productReferenceId, currency: currency ?? context.form.currency },
      errors: { ...context.errors, productReferenceId: undefined, ...(currency ? { currency: undefined } : {}) },
      failure: null,
    })),
    storeProblems: assign(({ context }) => ({ errors: validateCustomerPriceForm(context.form) })),
    storeRefusal: assign((_, outcome: SaveOutcome<unknown>) => (outcome.ok ? {} : customerPriceRefusalPlacement(outcome))),
    takeRow: assign((_, row: CustomerPriceWire) => ({ row, failure: null })),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The customer prices reload. */
    customerPricesChanged: () => {},
  },
  guards: {
    isValid: ({ context }) => !hasErrors(validateCustomerPriceForm(context.form)),
    isDone: (_, outcome: LoadOutcome<unknown>) => outcome.ok,
  },
});

const submitting = submittingStates(customerPriceFormSetup);

export const customerPriceFormMachine = customerPriceFormSetup.createMachine({
  id: 'customerPriceForm',
  context: { form: EMPTY_CUSTOMER_PRICE_FORM, errors: {}, failure: null, row: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'user.create': { target: 'editing', actions: { type: 'openForm', params: ({ event }) => event.form } },
        // The page offers End on running rows only (from today's point of view, which is the page's).
        'user.end': { target: 'ending', actions: { type: 'takeRow', params: ({ event }) => event.row } },
      },
    },
    editing: {
      tags: ['open'],
      on: {
        'user.field': { actions: { type: 'storeField', params: ({ event }) => event } },
        'user.customer': { actions: { type: 'storeCustomer', params: ({ event }) => event.customer } },
        'user.product': { actions: { type: 'storeProduct', params: ({ event }) => event } },
        'user.submit': [{ guard: 'isValid', target: 'saving' }, { actions: 'storeProblems' }],
        'user.cancel': 'closed',
      },
    },
    saving: {
      ...submitting({
        src: 'saveCustomerPrice',
        input: ({ context }) => customerPriceBody(context.form),
        success: { target: 'closed', actions: [{ type: 'notifySuccess', params: M.customerPriceSaved }, 'customerPricesChanged'] },
        back: 'editing',
        failure: (why) => why?.trim() || CUSTOMER_PRICE_TEXTS.saveFailed,
        refused: { type: 'storeRefusal', params: ({ event }) => event.output },
      }),
      tags: ['open', 'busy'],
    },
    ending: {
      tags: ['open'],
      initial: 'confirming',
      states: {
        confirming: {
          on: {
            'user.confirm': 'ending',
            'user.cancel': '#customerPriceForm.closed',
          },
        },
        ending: submitting({
          src: 'endCustomerPrice',
          input: ({ context }) => ({ id: context.row!.id }),
          success: { target: '#customerPriceForm.closed', actions: [{ type: 'notifySuccess', params: M.customerPriceEnded }, 'customerPricesChanged'] },
          back: 'confirming',
          failure: (why) => why?.trim() || CUSTOMER_PRICE_TEXTS.endFailed,
        }),
      },
    },
  },
});

export type CustomerPriceFormMachine = typeof customerPriceFormMachine;
