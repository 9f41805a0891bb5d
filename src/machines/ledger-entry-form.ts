/**
 * Payments → Record payment (billing:manage): a payment, a credit note or a refund posted to one
 * customer's ledger by hand (a cheque, cash at the counter, a goodwill credit, money paid back).
 *
 *   closed                  no dialog (never opened, cancelled, or the entry recorded)
 *   editing.ready           the form: customer (searched), kind, currency (those the customer is
 *                           billed in), amount, date (today by default, never later), method
 *                           (payments only), reference, note, and the open statements in that
 *                           currency it pays (none checked: the oldest first; not for a refund).
 *                           A problem sits under its field once Record was pressed and clears
 *                           when the field changes; the server's field errors land beside their
 *                           fields, any other refusal above the form                   (tag: open)
 *   editing.loadingAccount  the customer's currencies and open statements are read     (tag: open)
 *   saving                  "Recording..."; the dialog cannot be closed          (tags: open, busy)
 *
 * Recorded, the dialog closes with the server's confirmation and tells the page (`entryRecorded`),
 * which reloads the ledger.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { FieldErrors } from '../domain/customers';
import {
  LEDGER_MESSAGES as M,
  LEDGER_NOTE_MAX_LENGTH,
  LEDGER_REFERENCE_MAX_LENGTH,
  PAYMENT_METHODS,
  POSTED_KINDS,
  type CustomerAccountWire,
  type LedgerEntryBody,
  type OpenStatementWire,
  type PaymentMethod,
  type PostedKind,
  type PostedWire,
} from '../domain/ledger';
import { MoneyError, parseMoney } from '../domain/money';
import { openInCurrency, toggled, type CustomerOption } from './bank-line-decision';
import { failureText, hasErrors } from './customer-forms';
import { isIsoDate } from './price-form';
import { FALLBACK_LOAD_ERROR, type LoadOutcome } from './resource';
import { submittingStates } from './submit';
import type { SaveOutcome, SaveRefusal } from './user-form';

export type LedgerEntryTextField = 'kind' | 'currency' | 'amount' | 'occurredOn' | 'method' | 'reference' | 'note';
export type LedgerEntryField = LedgerEntryTextField | 'customer' | 'statements';

export interface LedgerEntryFormValues {
  customer: CustomerOption | null;
  kind: PostedKind;
  currency: string;
  /** Major units as typed: "120.50". */
  amount: string;
  /** 'YYYY-MM-DD' */
  occurredOn: string;
  method: PaymentMethod;
  reference: string;
  note: string;
  /** The statements it pays; none: the oldest first. */
  statementIds: string[];
}

export interface LedgerEntryFormContext {
  form: LedgerEntryFormValues;
  /** The day the form opened on: the latest date it takes. */
  today: string;
  /** The customer's billing currencies, once read. */
  currencies: string[];
  /** The customer's open statements, every currency, oldest first. */
  open: OpenStatementWire[];
  errors: FieldErrors<LedgerEntryField>;
  failure: string | null;
}

export type LedgerEntryFormEvent =
  | { type: 'user.create'; today: string }
  | { type: 'user.customer'; customer: CustomerOption }
  | { type: 'user.field'; field: LedgerEntryTextField; value: string }
  | { type: 'user.statement'; statementId: string; checked: boolean }
  | { type: 'user.submit' }
  | { type: 'user.cancel' };

export const LEDGER_ENTRY_TEXTS = {
  customerRequired: 'Pick the customer',
  currencyRequired: 'Pick the currency',
  amountRequired: 'Enter the amount',
  amountInvalid: (currency: string) => `Enter the amount in ${currency || 'the currency'} as a number, such as ${currency === 'JPY' ? '1500' : '120.50'}`,
  dateInvalid: 'Enter the date as YYYY-MM-DD',
  referenceTooLong: `Keep the reference to ${LEDGER_REFERENCE_MAX_LENGTH} characters`,
  noteTooLong: `Keep the note to ${LEDGER_NOTE_MAX_LENGTH} characters`,
  saveFailed: failureText('record the entry', null),
} as const;

export const EMPTY_LEDGER_ENTRY_FORM: LedgerEntryFormValues = {
  customer: null,
  kind: 'payment',
  currency: '',
  amount: '',
  occurredOn: '',
  method: 'bank_transfer',
  reference: '',
  note: '',
  statementIds: [],
};

const RECORDED: Readonly<Record<PostedKind, string>> = { payment: M.paymentRecorded, credit_note: M.creditNoteRecorded, refund: M.refundRecorded };

/** A refund pays no statement back: it takes from the customer's credit. */
export const paysStatements = (kind: PostedKind) => kind !== 'refund';

export function amountProblem(amount: string, currency: string): string | null {
  const typed = amount.trim();
  if (!typed) return LEDGER_ENTRY_TEXTS.amountRequired;
  let minor: number;
  try {
    minor = parseMoney(typed, currency || 'USD');
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
    // parseMoney's own words for too many decimals ("USD amounts have at most 2 decimals").
    return /decimals/.test(error.message) ? error.message : LEDGER_ENTRY_TEXTS.amountInvalid(currency);
  }
  return minor > 0 ? null : M.amountNotPositive;
}

export function validateLedgerEntry(form: LedgerEntryFormValues, context: { today: string; currencies: readonly string[] }): FieldErrors<LedgerEntryField> {
  const errors: FieldErrors<LedgerEntryField> = {};
  if (!form.customer) errors.customer = LEDGER_ENTRY_TEXTS.customerRequired;
  if (!form.currency) errors.currency = LEDGER_ENTRY_TEXTS.currencyRequired;
  else if (!context.currencies.includes(form.currency)) errors.currency = M.currencyNotBilled(form.currency);
  const amount = amountProblem(form.amount, form.currency);
  if (amount) errors.amount = amount;
  const day = form.occurredOn.trim();
  if (!isIsoDate(day)) errors.occurredOn = LEDGER_ENTRY_TEXTS.dateInvalid;
  else if (day > context.today) errors.occurredOn = M.dateInFuture;
  if (form.reference.trim().length > LEDGER_REFERENCE_MAX_LENGTH) errors.reference = LEDGER_ENTRY_TEXTS.referenceTooLong;
  if (form.note.trim().length > LEDGER_NOTE_MAX_LENGTH) errors.note = LEDGER_ENTRY_TEXTS.noteTooLong;
  return errors;
}

export function ledgerEntryBody(form: LedgerEntryFormValues): LedgerEntryBody {
  return {
    customerId: form.customer?.id ?? '',
    kind: form.kind,
    currency: form.currency,
    amount: form.amount.trim(),
    occurredOn: form.occurredOn.trim(),
    ...(form.kind === 'payment' ? { method: form.method } : {}),
    reference: form.reference.trim() || null,
    note: form.note.trim() || null,
    statementIds: paysStatements(form.kind) && form.statementIds.length > 0 ? form.statementIds : null,
  };
}

/** The body's names for the form's fields, where they differ. */
const FIELD_OF_PATH: Readonly<Record<string, LedgerEntryField>> = {
  customerId: 'customer',
  statementIds: 'statements',
  kind: 'kind',
  currency: 'currency',
  amount: 'amount',
  occurredOn: 'occurredOn',
  method: 'method',
  reference: 'reference',
  note: 'note',
};

/** The server's field errors beside their fields ("body.amount", "/occurredOn", "statementIds"); anything else above the form. */
export function ledgerEntryRefusal(refusal: SaveRefusal): { errors: FieldErrors<LedgerEntryField>; failure: string | null } {
  const errors: FieldErrors<LedgerEntryField> = {};
  for (const problem of refusal.errors ?? []) {
    const field = problem.path
      .split(/[./[\]]/)
      .map((part) => FIELD_OF_PATH[part])
      .find((name) => name !== undefined);
    if (field && !errors[field]) errors[field] = problem.message;
  }
  if (hasErrors(errors)) return { errors, failure: null };
  return { errors: {}, failure: refusal.message.trim() || LEDGER_ENTRY_TEXTS.saveFailed };
}

const isKind = (value: string): value is PostedKind => (POSTED_KINDS as readonly string[]).includes(value);
const isMethod = (value: string): value is PaymentMethod => (PAYMENT_METHODS as readonly string[]).includes(value);

/** The form after one field changed: another currency or a refund drops the statements checked. */
function withField(form: LedgerEntryFormValues, field: LedgerEntryTextField, value: string): LedgerEntryFormValues {
  switch (field) {
    case 'kind':
      return isKind(value) ? { ...form, kind: value, statementIds: paysStatements(value) ? form.statementIds : [] } : form;
    case 'method':
      return isMethod(value) ? { ...form, method: value } : form;
    case 'currency':
      return value === form.currency ? form : { ...form, currency: value, statementIds: [] };
    default:
      return { ...form, [field]: value };
  }
}

const ledgerEntryFormSetup = setup({
  types: {
    context: {} as LedgerEntryFormContext,
    events: {} as LedgerEntryFormEvent,
  },
  actors: {
    loadAccount: fromPromise<LoadOutcome<CustomerAccountWire>, { customerId: string }>(async () => {
      throw new Error('loadAccount is provided by the app');
    }),
    postEntry: fromPromise<SaveOutcome<PostedWire>, LedgerEntryBody>(async () => {
      throw new Error('postEntry is provided by the app');
    }),
  },
  actions: {
    openForm: assign((_, today: string) => ({ form: { ...EMPTY_LEDGER_ENTRY_FORM, occurredOn: today }, today, currencies: [], open: [], errors: {}, failure: null })),
    storeCustomer: assign(({ context }, customer: CustomerOption) => ({
      form: { ...context.form, customer, currency: '', statementIds: [] },
      currencies: [],
      open: [],
      errors: { ...context.errors, customer: undefined, currency: undefined, statements: undefined },
      failure: null,
    })),
    // The customer's only currency is the one they pay in; with several, the person picks.
    storeAccount: assign(({ context }, outcome: LoadOutcome<CustomerAccountWire>) => {
      if (!outcome.ok) return {};
      const { currencies } = outcome.data;
      return { currencies, open: outcome.data.open, form: { ...context.form, currency: currencies.length === 1 ? currencies[0]! : '' } };
    }),
    storeAccountFailure: assign(({ context }, message: string) => ({ errors: { ...context.errors, customer: message } })),
    storeField: assign(({ context }, { field, value }: { field: LedgerEntryTextField; value: string }) => ({
      form: withField(context.form, field, value),
      // The amount is read in the currency: another currency may change what it says.
      errors: { ...context.errors, [field]: undefined, ...(field === 'currency' ? { amount: undefined, statements: undefined } : {}) },
      failure: null,
    })),
    toggleStatement: assign(({ context }, { statementId, checked }: { statementId: string; checked: boolean }) => ({
      form: { ...context.form, statementIds: toggled(context.form.statementIds, statementId, checked) },
      errors: { ...context.errors, statements: undefined },
    })),
    storeProblems: assign(({ context }) => ({ errors: validateLedgerEntry(context.form, context) })),
    storeRefusal: assign((_, outcome: SaveOutcome<unknown>) => (outcome.ok ? {} : ledgerEntryRefusal(outcome))),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The page reloads the ledger. */
    entryRecorded: () => {},
  },
  guards: {
    isValid: ({ context }) => !hasErrors(validateLedgerEntry(context.form, context)),
    isLoaded: (_, outcome: LoadOutcome<CustomerAccountWire>) => outcome.ok,
    isDone: (_, outcome: SaveOutcome<PostedWire>) => outcome.ok,
  },
});

const submitting = submittingStates(ledgerEntryFormSetup);

export const ledgerEntryFormMachine = ledgerEntryFormSetup.createMachine({
  id: 'ledgerEntryForm',
  context: { form: EMPTY_LEDGER_ENTRY_FORM, today: '', currencies: [], open: [], errors: {}, failure: null },
  initial: 'closed',
  states: {
    closed: {
      on: { 'user.create': { target: 'editing', actions: { type: 'openForm', params: ({ event }) => event.today } } },
    },
    editing: {
      tags: ['open'],
      initial: 'ready',
      on: {
        // Another customer while the first one's account loads: the first read is dropped.
        'user.customer': { target: '.loadingAccount', actions: { type: 'storeCustomer', params: ({ event }) => event.customer } },
        'user.field': { actions: { type: 'storeField', params: ({ event }) => event } },
        'user.statement': { actions: { type: 'toggleStatement', params: ({ event }) => event } },
        // A form with a problem stays, each problem under its field; nothing is sent.
        'user.submit': [{ guard: 'isValid', target: 'saving' }, { actions: 'storeProblems' }],
        'user.cancel': 'closed',
      },
      states: {
        ready: {},
        loadingAccount: {
          invoke: {
            id: 'loadAccount',
            src: 'loadAccount',
            input: ({ context }) => ({ customerId: context.form.customer!.id }),
            onDone: [
              { guard: { type: 'isLoaded', params: ({ event }) => event.output }, target: 'ready', actions: { type: 'storeAccount', params: ({ event }) => event.output } },
              { target: 'ready', actions: { type: 'storeAccountFailure', params: ({ event }) => (event.output.ok ? FALLBACK_LOAD_ERROR : event.output.message) } },
            ],
            onError: { target: 'ready', actions: { type: 'storeAccountFailure', params: FALLBACK_LOAD_ERROR } },
          },
        },
      },
    },
    // Not closable: the server may already be posting the entry.
    saving: {
      ...submitting({
        src: 'postEntry',
        input: ({ context }) => ledgerEntryBody(context.form),
        success: { target: 'closed', actions: [{ type: 'notifySuccess', params: ({ context }) => RECORDED[context.form.kind] }, 'entryRecorded'] },
        back: 'editing',
        failure: (why) => why?.trim() || LEDGER_ENTRY_TEXTS.saveFailed,
        refused: { type: 'storeRefusal', params: ({ event }) => event.output },
      }),
      tags: ['open', 'busy'],
    },
  },
});

export type LedgerEntryFormMachine = typeof ledgerEntryFormMachine;

// ---- What the page shows -----------------------------------------------------------------------

export interface LedgerEntryFormView {
  open: boolean;
  busy: boolean;
  loadingAccount: boolean;
  form: LedgerEntryFormValues;
  today: string;
  currencies: string[];
  /** The open statements the entry may pay: the chosen currency's, none for a refund. */
  statements: OpenStatementWire[];
  errors: FieldErrors<LedgerEntryField>;
  failure: string | null;
}

export function ledgerEntryFormView(snapshot: SnapshotFrom<LedgerEntryFormMachine>): LedgerEntryFormView {
  const { context } = snapshot;
  const { form } = context;
  return {
    open: snapshot.hasTag('open'),
    busy: snapshot.hasTag('busy'),
    loadingAccount: snapshot.matches({ editing: 'loadingAccount' }),
    form,
    today: context.today,
    currencies: context.currencies,
    statements: form.currency && paysStatements(form.kind) ? openInCurrency(context, form.currency) : [],
    errors: context.errors,
    failure: context.failure,
  };
}
