/**
 * "Add credit or charge" on a statement (billing:manage): a correction for the
 * customer's next statement, in the statement's currency, recorded against the statement shown.
 *
 *   closed       no dialog (never opened, cancelled, or the correction saved)
 *   editing      the form: credit or charge, the amount in the statement's currency, the reason.
 *                A field's problem sits under it once Save was pressed (the amount is read with
 *                the one money parser, so "12.345" in USD or "12.5" in JPY never leaves the
 *                browser) and clears when the field is edited; the server's field errors land on
 *                their fields, any other refusal sits above the form                    (tag: open)
 *   submitting   "Saving..."; the dialog cannot be closed                                (tag: busy)
 *
 * Saved, the dialog closes with the server's confirmation and the page reads the statement again
 * (`adjustmentSaved`).
 */
import { assign, fromPromise, setup } from 'xstate';
import { ADJUSTMENT_REASON_MAX_LENGTH, BILLING_MESSAGES, type AdjustmentBody, type AdjustmentWire } from '../domain/billing';
import type { FieldErrors } from '../domain/customers';
import { MoneyError, parseMoney } from '../domain/money';
import { failureText, hasErrors } from './customer-forms';
import { submittingStates } from './submit';
import type { SaveOutcome, SaveRefusal } from './user-form';

export type AdjustmentDirection = AdjustmentBody['direction'];
export type AdjustmentField = 'direction' | 'amount' | 'reason';

/** The statement the correction is recorded against: whose it is and its currency. */
export interface AdjustmentTarget {
  statementId: string;
  customerId: string;
  currency: string;
}

export interface AdjustmentFormValues {
  direction: AdjustmentDirection;
  /** As typed, in the statement's currency's major units: "12.50". */
  amount: string;
  reason: string;
}

export interface AdjustmentFormContext {
  target: AdjustmentTarget | null;
  form: AdjustmentFormValues;
  errors: FieldErrors<AdjustmentField>;
  /** Why the last save failed, when it was not a field's problem. */
  failure: string | null;
}

export type AdjustmentFormEvent =
  | { type: 'user.open'; target: AdjustmentTarget }
  | { type: 'user.direction'; value: AdjustmentDirection }
  | { type: 'user.field'; field: 'amount' | 'reason'; value: string }
  | { type: 'user.submit' }
  | { type: 'user.cancel' };


export const ADJUSTMENT_MESSAGES = {
  amountRequired: 'Enter an amount',
  amountNotNumber: (currency: string) => `Enter the amount in ${currency} as a number, e.g. ${currency === 'JPY' ? '1500' : '12.50'}`,
  amountNotPositive: 'Enter an amount more than zero: credit or charge says which way it goes',
  amountTooLarge: 'That amount is too large',
  reasonRequired: 'Give a reason: the customer sees it on their statement',
  reasonTooLong: `Keep the reason to ${ADJUSTMENT_REASON_MAX_LENGTH} characters`,
} as const;

export const EMPTY_ADJUSTMENT_FORM: AdjustmentFormValues = { direction: 'credit', amount: '', reason: '' };
const FIELDS: readonly AdjustmentField[] = ['direction', 'amount', 'reason'];

/** The amount's problem in `currency`, or null: read exactly as the server will read it. */
export function amountProblem(amount: string, currency: string): string | null {
  const typed = amount.trim();
  if (typed === '') return ADJUSTMENT_MESSAGES.amountRequired;
  let minor: number;
  try {
    minor = parseMoney(typed, currency);
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
    // parseMoney's own words for too many decimals ("USD amounts have at most 2 decimals").
    if (/decimals/.test(error.message)) return error.message;
    if (/range/.test(error.message)) return ADJUSTMENT_MESSAGES.amountTooLarge;
    return ADJUSTMENT_MESSAGES.amountNotNumber(currency);
  }
  return minor > 0 ? null : ADJUSTMENT_MESSAGES.amountNotPositive;
}

export function validateAdjustmentForm(form: AdjustmentFormValues, currency: string): FieldErrors<AdjustmentField> {
  const errors: FieldErrors<AdjustmentField> = {};
  const amount = amountProblem(form.amount, currency);
  if (amount) errors.amount = amount;
  const reason = form.reason.trim();
  if (reason === '') errors.reason = ADJUSTMENT_MESSAGES.reasonRequired;
  else if (reason.length > ADJUSTMENT_REASON_MAX_LENGTH) errors.reason = ADJUSTMENT_MESSAGES.reasonTooLong;
  return errors;
}

/** The request body (call once the form has no problem). */
export function adjustmentBody(target: AdjustmentTarget, form: AdjustmentFormValues): AdjustmentBody {
  return {
    customerId: target.customerId,
    currency: target.currency,
    direction: form.direction,
    amount: form.amount.trim(),
    reason: form.reason.trim(),
    againstStatementId: target.statementId,
  };
}

/** The server's field errors onto the form's fields ("body.amount", "/reason"), else its words above the form. */
export function adjustmentRefusal(refusal: SaveRefusal): { errors: FieldErrors<AdjustmentField>; failure: string | null } {
  const errors: FieldErrors<AdjustmentField> = {};
  for (const problem of refusal.errors ?? []) {
    const name = problem.path.split(/[./[\]]/).find((part): part is AdjustmentField => (FIELDS as readonly string[]).includes(part));
    if (name && !errors[name]) errors[name] = problem.message;
  }
  if (hasErrors(errors)) return { errors, failure: null };
  return { errors: {}, failure: refusal.message.trim() || ADJUSTMENT_FAILED };
}

export const ADJUSTMENT_FAILED = failureText('save the correction', null);


const adjustmentFormSetup = setup({
  types: {
    context: {} as AdjustmentFormContext,
    events: {} as AdjustmentFormEvent,
  },
  actors: {
    saveAdjustment: fromPromise<SaveOutcome<AdjustmentWire>, AdjustmentBody>(async () => {
      throw new Error('saveAdjustment is provided by the app');
    }),
  },
  actions: {
    openForm: assign((_, target: AdjustmentTarget) => ({ target, form: EMPTY_ADJUSTMENT_FORM, errors: {}, failure: null })),
    storeDirection: assign(({ context }, value: AdjustmentDirection) => ({
      form: { ...context.form, direction: value },
      errors: { ...context.errors, direction: undefined },
      failure: null,
    })),
    storeField: assign(({ context }, { field, value }: { field: 'amount' | 'reason'; value: string }) => ({
      form: { ...context.form, [field]: value },
      errors: { ...context.errors, [field]: undefined },
      failure: null,
    })),
    storeClientErrors: assign(({ context }) => ({ errors: validateAdjustmentForm(context.form, context.target?.currency ?? '') })),
    storeRefusal: assign((_, outcome: SaveOutcome<unknown>) => (outcome.ok ? {} : adjustmentRefusal(outcome))),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The page reads the statement again. */
    adjustmentSaved: () => {},
  },
  guards: {
    isValid: ({ context }) => context.target !== null && !hasErrors(validateAdjustmentForm(context.form, context.target.currency)),
    isDone: (_, outcome: SaveOutcome<unknown>) => outcome.ok,
  },
});

const submitting = submittingStates(adjustmentFormSetup);

export const adjustmentFormMachine = adjustmentFormSetup.createMachine({
  id: 'adjustmentForm',
  context: { target: null, form: EMPTY_ADJUSTMENT_FORM, errors: {}, failure: null },
  initial: 'closed',
  states: {
    closed: {
      on: { 'user.open': { target: 'editing', actions: { type: 'openForm', params: ({ event }) => event.target } } },
    },
    editing: {
      tags: ['open'],
      on: {
        'user.direction': { actions: { type: 'storeDirection', params: ({ event }) => event.value } },
        'user.field': { actions: { type: 'storeField', params: ({ event }) => ({ field: event.field, value: event.value }) } },
        // A form with a problem stays, each problem under its field; nothing is sent.
        'user.submit': [{ guard: 'isValid', target: 'submitting' }, { actions: 'storeClientErrors' }],
        'user.cancel': 'closed',
      },
    },
    submitting: submitting({
      src: 'saveAdjustment',
      input: ({ context }) => adjustmentBody(context.target!, context.form),
      success: {
        target: 'closed',
        actions: [{ type: 'notifySuccess', params: BILLING_MESSAGES.adjustmentSaved }, 'adjustmentSaved'],
      },
      back: 'editing',
      failure: (why) => why?.trim() || ADJUSTMENT_FAILED,
      // The server's words go by the field they are about (an amount it refused under the amount).
      refused: { type: 'storeRefusal', params: ({ event }) => event.output },
    }),
  },
});

export type AdjustmentFormMachine = typeof adjustmentFormMachine;
