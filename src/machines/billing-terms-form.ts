/**
 * A customer's payment terms on their page (billing:manage): how many days after a statement
 * closes it falls due (net days), and a promise to pay (the day until which dunning holds, with a
 * note). Always on screen beside the account, filled with the terms in force.
 *
 *   editing      the form: the net days (a drop-down), the promise's day (blank: none) and its
 *                note. A field's problem sits under it once Save was pressed and clears when the
 *                field is edited; the server's field errors land on their fields, any other refusal
 *                above the form. "Undo changes" puts back the terms in force.
 *   submitting   "Saving..."; the fields and the buttons are disabled                   (tag: busy)
 *
 * Saved, the form holds what the server stored (a note without a day is dropped) and the page
 * reads the account again (`termsSaved`).
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { FieldErrors } from '../domain/customers';
import { LEDGER_MESSAGES, LEDGER_NOTE_MAX_LENGTH, PAYMENT_TERMS_MAX_DAYS, type BillingTermsBody, type BillingTermsWire } from '../domain/ledger';
import { failureText, hasErrors } from './customer-forms';
import { fieldOf, isIsoDate } from './price-form';
import { submittingStates } from './submit';
import type { SaveOutcome, SaveRefusal } from './user-form';

export type BillingTermsField = 'paymentTermsDays' | 'promiseToPayUntil' | 'promiseNote';
export type BillingTermsTextField = Exclude<BillingTermsField, 'paymentTermsDays'>;

export interface BillingTermsFormValues {
  paymentTermsDays: number;
  /** 'YYYY-MM-DD' as typed; blank: no promise. */
  promiseToPayUntil: string;
  promiseNote: string;
}

export interface BillingTermsFormContext {
  customerId: string;
  /** The terms in force: what the form started from, or what the last save stored. */
  saved: BillingTermsWire;
  form: BillingTermsFormValues;
  errors: FieldErrors<BillingTermsField>;
  /** Why the last save failed, when it was not a field's problem. */
  failure: string | null;
}

export type BillingTermsFormEvent =
  | { type: 'user.days'; days: number }
  | { type: 'user.field'; field: BillingTermsTextField; value: string }
  | { type: 'user.submit' }
  | { type: 'user.reset' };

export interface BillingTermsInput {
  customerId: string;
  terms: BillingTermsWire;
}

/** What the save actor is given. */
export interface BillingTermsRequest {
  customerId: string;
  body: BillingTermsBody;
}

export const BILLING_TERMS_MESSAGES = {
  daysInvalid: `Payment terms must be a whole number of days from 0 to ${PAYMENT_TERMS_MAX_DAYS}`,
  dateInvalid: 'Enter the day as a date (YYYY-MM-DD)',
  noteWithoutDate: 'A note goes with a promise to pay: give the day it is for, or clear the note',
  noteTooLong: `Keep the note to ${LEDGER_NOTE_MAX_LENGTH} characters`,
  saveFailed: failureText('save the payment terms', null),
} as const;

const FIELDS: readonly BillingTermsField[] = ['paymentTermsDays', 'promiseToPayUntil', 'promiseNote'];

/** The form as the terms in force fill it. */
export function termsForm(terms: BillingTermsWire): BillingTermsFormValues {
  return { paymentTermsDays: terms.paymentTermsDays, promiseToPayUntil: terms.promiseToPayUntil ?? '', promiseNote: terms.promiseNote ?? '' };
}

/** The form's problems, read as the server reads them (whether the day is past is the server's to say: it has the clock). */
export function validateTermsForm(form: BillingTermsFormValues): FieldErrors<BillingTermsField> {
  const errors: FieldErrors<BillingTermsField> = {};
  if (!Number.isInteger(form.paymentTermsDays) || form.paymentTermsDays < 0 || form.paymentTermsDays > PAYMENT_TERMS_MAX_DAYS) errors.paymentTermsDays = BILLING_TERMS_MESSAGES.daysInvalid;
  const day = form.promiseToPayUntil.trim();
  const note = form.promiseNote.trim();
  if (day !== '' && !isIsoDate(day)) errors.promiseToPayUntil = BILLING_TERMS_MESSAGES.dateInvalid;
  if (note.length > LEDGER_NOTE_MAX_LENGTH) errors.promiseNote = BILLING_TERMS_MESSAGES.noteTooLong;
  // The server would drop the note without a word: say so before it is lost.
  else if (note !== '' && day === '') errors.promiseNote = BILLING_TERMS_MESSAGES.noteWithoutDate;
  return errors;
}

/** The request body (call once the form has no problem). */
export function termsBody(form: BillingTermsFormValues): BillingTermsBody {
  const day = form.promiseToPayUntil.trim();
  return { paymentTermsDays: form.paymentTermsDays, promiseToPayUntil: day || null, promiseNote: day ? form.promiseNote.trim() || null : null };
}

/** Whether the form says something other than the terms in force. */
export function isTermsChanged(context: Pick<BillingTermsFormContext, 'saved' | 'form'>): boolean {
  const a = termsBody(context.form);
  const b = termsBody(termsForm(context.saved));
  return a.paymentTermsDays !== b.paymentTermsDays || a.promiseToPayUntil !== b.promiseToPayUntil || a.promiseNote !== b.promiseNote;
}

/** The server's field errors onto the form's fields ("body.promiseToPayUntil", "promiseNote"), else its words above the form. */
export function termsRefusal(refusal: SaveRefusal): { errors: FieldErrors<BillingTermsField>; failure: string | null } {
  const errors: FieldErrors<BillingTermsField> = {};
  for (const problem of refusal.errors ?? []) {
    const name = fieldOf(problem.path, FIELDS);
    if (name && !errors[name]) errors[name] = problem.message;
  }
  if (hasErrors(errors)) return { errors, failure: null };
  return { errors: {}, failure: refusal.message.trim() || BILLING_TERMS_MESSAGES.saveFailed };
}

const billingTermsFormSetup = setup({
  types: {
    context: {} as BillingTermsFormContext,
    events: {} as BillingTermsFormEvent,
    input: {} as BillingTermsInput,
  },
  actors: {
    saveTerms: fromPromise<SaveOutcome<BillingTermsWire>, BillingTermsRequest>(async () => {
      throw new Error('saveTerms is provided by the app');
    }),
  },
  actions: {
    storeDays: assign(({ context }, days: number) => ({
      form: { ...context.form, paymentTermsDays: days },
      errors: { ...context.errors, paymentTermsDays: undefined },
      failure: null,
    })),
    storeField: assign(({ context }, { field, value }: { field: BillingTermsTextField; value: string }) => ({
      form: { ...context.form, [field]: value },
      // The note's problem may be the missing day: a day typed answers it too.
      errors: { ...context.errors, [field]: undefined, ...(field === 'promiseToPayUntil' ? { promiseNote: undefined } : {}) },
      failure: null,
    })),
    storeClientErrors: assign(({ context }) => ({ errors: validateTermsForm(context.form) })),
    resetForm: assign(({ context }) => ({ form: termsForm(context.saved), errors: {}, failure: null })),
    storeSaved: assign((_, outcome: SaveOutcome<BillingTermsWire>) => (outcome.ok ? { saved: outcome.data, form: termsForm(outcome.data), errors: {}, failure: null } : {})),
    storeRefusal: assign((_, outcome: SaveOutcome<unknown>) => (outcome.ok ? {} : termsRefusal(outcome))),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    // Sending a form the client found right: what the server said of the last one no longer stands.
    clearFailure: assign({ failure: null, errors: {} }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The page reads the account again. */
    termsSaved: () => {},
  },
  guards: {
    isValid: ({ context }) => !hasErrors(validateTermsForm(context.form)),
    isChanged: ({ context }) => isTermsChanged(context) || hasErrors(context.errors) || context.failure !== null,
    isDone: (_, outcome: SaveOutcome<unknown>) => outcome.ok,
  },
});

const submitting = submittingStates(billingTermsFormSetup);

export const billingTermsFormMachine = billingTermsFormSetup.createMachine({
  id: 'billingTermsForm',
  context: ({ input }) => ({ customerId: input.customerId, saved: input.terms, form: termsForm(input.terms), errors: {}, failure: null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'user.days': { actions: { type: 'storeDays', params: ({ event }) => event.days } },
        'user.field': { actions: { type: 'storeField', params: ({ event }) => ({ field: event.field, value: event.value }) } },
        // A form with a problem stays, each problem under its field; nothing is sent.
        'user.submit': [{ guard: 'isValid', target: 'submitting' }, { actions: 'storeClientErrors' }],
        'user.reset': { guard: 'isChanged', actions: 'resetForm' },
      },
    },
    submitting: submitting({
      src: 'saveTerms',
      input: ({ context }) => ({ customerId: context.customerId, body: termsBody(context.form) }),
      success: {
        target: 'editing',
        actions: [{ type: 'storeSaved', params: ({ event }) => event.output }, { type: 'notifySuccess', params: LEDGER_MESSAGES.termsSaved }, 'termsSaved'],
      },
      back: 'editing',
      failure: (why) => failureText('save the payment terms', why),
      // The server's words go by the field they are about (a past day under the day).
      refused: { type: 'storeRefusal', params: ({ event }) => event.output },
    }),
  },
});

export type BillingTermsFormMachine = typeof billingTermsFormMachine;

/** What the terms form shows, read from one snapshot: the one selector the page uses. */
export interface BillingTermsFormState {
  form: BillingTermsFormValues;
  errors: FieldErrors<BillingTermsField>;
  failure: string | null;
  busy: boolean;
  /** "Undo changes" does something. */
  canReset: boolean;
  /** The promise in force, as saved (the form may say otherwise until saved). */
  saved: BillingTermsWire;
}

export function billingTermsFormState(snapshot: SnapshotFrom<BillingTermsFormMachine>): BillingTermsFormState {
  const { form, errors, failure, saved } = snapshot.context;
  return { form, errors, failure, saved, busy: snapshot.hasTag('busy'), canReset: snapshot.can({ type: 'user.reset' }) };
}
