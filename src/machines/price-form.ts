/**
 * The Prices page's changes to the price list: "New price" (a product's list price
 * from a date) and "Withdraw" on a row not yet in effect, one at a time, each on the one submit
 * shape (submit.ts).
 *
 *   closed                  no dialog (never opened, cancelled, saved or withdrawn)
 *   editing                 the form: product, currency, monthly, overage per GB, top-up (typed as
 *                           decimals, read exactly for the currency), effective from, note; a
 *                           field's problem sits under it once Save was pressed and clears when it
 *                           is edited; a refusal that is no field's sits above the form  (tag: open)
 *   saving                  "Saving..."; the dialog cannot be closed               (tags: open, busy)
 *   withdrawal.confirming   "Withdraw the price of {product} from {date}?"              (tag: open)
 *   withdrawal.withdrawing  Withdraw says it is working; the dialog cannot be closed (tags: open, busy)
 *
 * A refusal goes back to the step it came from with the server's words: a 409 for a date the
 * product already has a price from sits under the date. Every success is a toast and tells the
 * page (`pricesChanged`), which reloads the list.
 */
import { assign, fromPromise, setup } from 'xstate';
import { BILLING_MESSAGES as M, type PriceBody, type PriceWire } from '../domain/billing';
import type { FieldErrors } from '../domain/customers';
import { CURRENCY_PATTERN, MoneyError, parseMoney } from '../domain/money';
import { failureText, hasErrors } from './customer-forms';
import type { LoadOutcome } from './resource';
import { submittingStates } from './submit';
import type { SaveOutcome, SaveRefusal } from './user-form';

export type PriceFormField = 'productReferenceId' | 'currency' | 'monthly' | 'overagePerGb' | 'topUp' | 'effectiveFrom' | 'note';

export interface PriceFormValues {
  productReferenceId: string;
  currency: string;
  /** Major units as typed, e.g. "79.00". */
  monthly: string;
  overagePerGb: string;
  topUp: string;
  /** 'YYYY-MM-DD' */
  effectiveFrom: string;
  note: string;
}

export interface PriceFormContext {
  form: PriceFormValues;
  errors: FieldErrors<PriceFormField>;
  /** Why the last request failed, when it was not a field's problem. */
  failure: string | null;
  /** The row Withdraw was asked for. */
  price: PriceWire | null;
}

export type PriceFormEvent =
  | { type: 'user.create'; form: PriceFormValues }
  | { type: 'user.field'; field: PriceFormField; value: string }
  | { type: 'user.submit' }
  | { type: 'user.cancel' }
  | { type: 'user.withdraw'; price: PriceWire }
  | { type: 'user.confirm' };

export const NOTE_MAX_LENGTH = 500;

export const PRICE_FORM_TEXTS = {
  productRequired: 'Choose a product',
  amountRequired: (label: string) => `${label} is required`,
  amountInvalid: (label: string) => `${label} must be an amount such as 79.00`,
  amountNegative: (label: string) => `${label} cannot be negative`,
  dateInvalid: (label: string) => `${label} must be a date`,
  noteTooLong: `The note can be at most ${NOTE_MAX_LENGTH} characters`,
  withdrawQuestion: (product: string, from: string) => `Withdraw the price of ${product} from ${from}? The price before it stays in effect.`,
  saveFailed: failureText('save the price', null),
  withdrawFailed: failureText('withdraw the price', null),
} as const;

export const EMPTY_PRICE_FORM: PriceFormValues = { productReferenceId: '', currency: 'USD', monthly: '', overagePerGb: '', topUp: '', effectiveFrom: '', note: '' };
const FIELDS: readonly PriceFormField[] = ['productReferenceId', 'currency', 'monthly', 'overagePerGb', 'topUp', 'effectiveFrom', 'note'];

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day written YYYY-MM-DD that exists (no 31 June). */
export function isIsoDate(text: string): boolean {
  if (!DATE_PATTERN.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** The currency as the server takes it: three letters, upper case. */
export const currencyCode = (text: string) => text.trim().toUpperCase();

/**
 * What is wrong with a typed amount, or null: it must be a plain decimal of zero or more with no
 * more decimals than the currency has (parseMoney's rule, so the server reads the same figure).
 */
export function amountProblem(text: string, currency: string, label: string, required = true): string | null {
  const typed = text.trim();
  if (!typed) return required ? PRICE_FORM_TEXTS.amountRequired(label) : null;
  let minor: number;
  try {
    minor = parseMoney(typed, currencyCode(currency) || 'USD');
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
    // "USD amounts have at most 2 decimals" says what to change; "Not a decimal number" does not.
    return /decimals/.test(error.message) ? `${label}: ${error.message}` : PRICE_FORM_TEXTS.amountInvalid(label);
  }
  return minor < 0 ? PRICE_FORM_TEXTS.amountNegative(label) : null;
}

export function validatePriceForm(form: PriceFormValues): FieldErrors<PriceFormField> {
  const errors: FieldErrors<PriceFormField> = {};
  if (!form.productReferenceId.trim()) errors.productReferenceId = PRICE_FORM_TEXTS.productRequired;
  if (!CURRENCY_PATTERN.test(currencyCode(form.currency))) errors.currency = M.currencyInvalid;
  const amounts = [
    ['monthly', 'Monthly price'],
    ['overagePerGb', 'Overage per GB'],
    ['topUp', 'Top-up price'],
  ] as const;
  for (const [field, label] of amounts) {
    const problem = amountProblem(form[field], form.currency, label);
    if (problem) errors[field] = problem;
  }
  if (!isIsoDate(form.effectiveFrom.trim())) errors.effectiveFrom = PRICE_FORM_TEXTS.dateInvalid('Effective from');
  if (form.note.trim().length > NOTE_MAX_LENGTH) errors.note = PRICE_FORM_TEXTS.noteTooLong;
  return errors;
}

export function priceBody(form: PriceFormValues): PriceBody {
  return {
    productReferenceId: form.productReferenceId.trim(),
    currency: currencyCode(form.currency),
    monthly: form.monthly.trim(),
    overagePerGb: form.overagePerGb.trim(),
    topUp: form.topUp.trim(),
    effectiveFrom: form.effectiveFrom.trim(),
    note: form.note.trim() || null,
  };
}

/** The field a server's problem path names: "body.monthly", "/monthly" and "monthly" alike. */
export function fieldOf<F extends string>(path: string, fields: readonly F[]): F | null {
  return path.split(/[./[\]]/).find((part): part is F => (fields as readonly string[]).includes(part)) ?? null;
}

/**
 * Where a refusal's words go: the fields the server named; a 409 (the product already has a
 * price from that date) under the date; anything else above the form.
 */
export function priceRefusalPlacement(refusal: SaveRefusal): { errors: FieldErrors<PriceFormField>; failure: string | null } {
  const errors: FieldErrors<PriceFormField> = {};
  for (const problem of refusal.errors ?? []) {
    const field = fieldOf(problem.path, FIELDS);
    if (field && !errors[field]) errors[field] = problem.message;
  }
  if (hasErrors(errors)) return { errors, failure: null };
  const words = refusal.message.trim();
  if (refusal.status === 409 && words !== M.priceInEffect) return { errors: { effectiveFrom: words || M.priceExists }, failure: null };
  return { errors: {}, failure: words || PRICE_FORM_TEXTS.saveFailed };
}

const priceFormSetup = setup({
  types: {
    context: {} as PriceFormContext,
    events: {} as PriceFormEvent,
  },
  actors: {
    savePrice: fromPromise<SaveOutcome<PriceWire>, PriceBody>(async () => {
      throw new Error('savePrice is provided by the app');
    }),
    withdrawPrice: fromPromise<LoadOutcome<unknown>, { id: string }>(async () => {
      throw new Error('withdrawPrice is provided by the app');
    }),
  },
  actions: {
    openForm: assign((_, form: PriceFormValues) => ({ form, errors: {}, failure: null, price: null })),
    storeField: assign(({ context }, { field, value }: { field: PriceFormField; value: string }) => ({
      form: { ...context.form, [field]: value },
      // The amounts are read in the currency: a new currency may change what they say.
      errors: field === 'currency' ? {} : { ...context.errors, [field]: undefined },
      failure: null,
    })),
    storeProblems: assign(({ context }) => ({ errors: validatePriceForm(context.form) })),
    storeRefusal: assign((_, outcome: SaveOutcome<unknown>) => (outcome.ok ? {} : priceRefusalPlacement(outcome))),
    takePrice: assign((_, price: PriceWire) => ({ price, failure: null })),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The price list reloads. */
    pricesChanged: () => {},
  },
  guards: {
    isValid: ({ context }) => !hasErrors(validatePriceForm(context.form)),
    // The row in effect today cannot go. The page offers Withdraw on rows not yet in effect only
    // (it knows today); the server refuses the rest too.
    isUpcoming: (_, price: PriceWire) => !price.current,
    isDone: (_, outcome: LoadOutcome<unknown>) => outcome.ok,
  },
});

const submitting = submittingStates(priceFormSetup);

export const priceFormMachine = priceFormSetup.createMachine({
  id: 'priceForm',
  context: { form: EMPTY_PRICE_FORM, errors: {}, failure: null, price: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'user.create': { target: 'editing', actions: { type: 'openForm', params: ({ event }) => event.form } },
        'user.withdraw': {
          guard: { type: 'isUpcoming', params: ({ event }) => event.price },
          target: 'withdrawal',
          actions: { type: 'takePrice', params: ({ event }) => event.price },
        },
      },
    },
    editing: {
      tags: ['open'],
      on: {
        'user.field': { actions: { type: 'storeField', params: ({ event }) => event } },
        // A form with a problem stays, each problem under its field; nothing is sent.
        'user.submit': [{ guard: 'isValid', target: 'saving' }, { actions: 'storeProblems' }],
        'user.cancel': 'closed',
      },
    },
    saving: {
      ...submitting({
        src: 'savePrice',
        input: ({ context }) => priceBody(context.form),
        success: { target: 'closed', actions: [{ type: 'notifySuccess', params: M.priceSaved }, 'pricesChanged'] },
        back: 'editing',
        failure: (why) => why?.trim() || PRICE_FORM_TEXTS.saveFailed,
        refused: { type: 'storeRefusal', params: ({ event }) => event.output },
      }),
      tags: ['open', 'busy'],
    },
    withdrawal: {
      tags: ['open'],
      initial: 'confirming',
      states: {
        confirming: {
          on: {
            'user.confirm': 'withdrawing',
            'user.cancel': '#priceForm.closed',
          },
        },
        withdrawing: submitting({
          src: 'withdrawPrice',
          input: ({ context }) => ({ id: context.price!.id }),
          success: { target: '#priceForm.closed', actions: [{ type: 'notifySuccess', params: M.priceWithdrawn }, 'pricesChanged'] },
          back: 'confirming',
          failure: (why) => why?.trim() || PRICE_FORM_TEXTS.withdrawFailed,
        }),
      },
    },
  },
});

export type PriceFormMachine = typeof priceFormMachine;
