/**
 * Payments → Waiting to be matched (billing:manage): one bank line the import could not match,
 * and a person's decision about it. Match… posts it as a customer's payment; Ignore… sets it aside
 * (a refund from a supplier, a transfer between the reseller's own accounts) with the reason.
 *
 *   closed                 no dialog
 *   matching.picking       "Match payment": the line, and a customer to pick (searched as every
 *                          picker searches); Match payment without one says to pick one  (tag: open)
 *   matching.loading       the customer's open statements are read                      (tag: open)
 *   matching.choosing      the customer's open statements in the line's currency, as checkboxes:
 *                          none checked pays the oldest first                            (tag: open)
 *   matchSubmitting        "Matching..."; the dialog cannot be closed              (tags: open, busy)
 *   ignoring               "Ignore bank line": the reason, required                     (tag: open)
 *   ignoreSubmitting       "Ignoring..."; the dialog cannot be closed              (tags: open, busy)
 *
 * A refusal (another person matched it first: "no longer waiting") goes back with the server's
 * words in the dialog and a toast. A decision is a toast and tells the page (`lineDecided`), which
 * reloads the waiting lines and the ledger.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { FieldErrors } from '../domain/customers';
import { LEDGER_MESSAGES as M, LEDGER_NOTE_MAX_LENGTH, byDueDate, type BankLineWire, type CustomerAccountWire, type MatchBody, type OpenStatementWire } from '../domain/ledger';
import { failureText } from './customer-forms';
import type { CustomerOption } from './customer-price-form';
import { FALLBACK_LOAD_ERROR, type LoadOutcome } from './resource';
import { submittingStates } from './submit';

export type { CustomerOption };

export type BankLineDecisionField = 'customer' | 'reason';

export interface BankLineDecisionContext {
  line: BankLineWire | null;
  customer: CustomerOption | null;
  /** The customer's open statements in the line's currency, oldest first. */
  statements: OpenStatementWire[];
  /** The statements checked; none: the oldest first. */
  chosen: string[];
  reason: string;
  errors: FieldErrors<BankLineDecisionField>;
  failure: string | null;
}

export type BankLineDecisionEvent =
  | { type: 'user.match'; line: BankLineWire }
  | { type: 'user.ignore'; line: BankLineWire }
  | { type: 'user.customer'; customer: CustomerOption }
  | { type: 'user.statement'; statementId: string; checked: boolean }
  | { type: 'user.reason'; value: string }
  | { type: 'user.submit' }
  | { type: 'user.cancel' };

export interface MatchLineInput {
  lineId: string;
  body: MatchBody;
}

export interface IgnoreLineInput {
  lineId: string;
  note: string;
}

export const BANK_LINE_TEXTS = {
  customerRequired: 'Pick the customer who paid',
  reasonRequired: 'Say why the line is set aside',
  reasonTooLong: `Keep the reason to ${LEDGER_NOTE_MAX_LENGTH} characters`,
  matchFailed: failureText('match the payment', null),
  ignoreFailed: failureText('ignore the bank line', null),
} as const;

/** A customer's open statements in one currency, oldest first: what a payment in it may pay. */
export const openInCurrency = (account: Pick<CustomerAccountWire, 'open'>, currency: string): OpenStatementWire[] =>
  account.open.filter((statement) => statement.currency === currency).sort(byDueDate);

/** Checks or unchecks one statement, keeping the list's order of the rest. */
export const toggled = (chosen: readonly string[], statementId: string, checked: boolean): string[] =>
  checked ? (chosen.includes(statementId) ? [...chosen] : [...chosen, statementId]) : chosen.filter((id) => id !== statementId);

export function reasonProblem(reason: string): string | null {
  const text = reason.trim();
  if (!text) return BANK_LINE_TEXTS.reasonRequired;
  return text.length > LEDGER_NOTE_MAX_LENGTH ? BANK_LINE_TEXTS.reasonTooLong : null;
}

const EMPTY: Omit<BankLineDecisionContext, 'line'> = { customer: null, statements: [], chosen: [], reason: '', errors: {}, failure: null };

const bankLineDecisionSetup = setup({
  types: {
    context: {} as BankLineDecisionContext,
    events: {} as BankLineDecisionEvent,
  },
  actors: {
    loadAccount: fromPromise<LoadOutcome<CustomerAccountWire>, { customerId: string }>(async () => {
      throw new Error('loadAccount is provided by the app');
    }),
    matchLine: fromPromise<LoadOutcome<BankLineWire>, MatchLineInput>(async () => {
      throw new Error('matchLine is provided by the app');
    }),
    ignoreLine: fromPromise<LoadOutcome<BankLineWire>, IgnoreLineInput>(async () => {
      throw new Error('ignoreLine is provided by the app');
    }),
  },
  actions: {
    takeLine: assign((_, line: BankLineWire) => ({ line, ...EMPTY })),
    storeCustomer: assign((_, customer: CustomerOption) => ({ customer, statements: [], chosen: [], errors: {}, failure: null })),
    storeAccount: assign(({ context }, outcome: LoadOutcome<CustomerAccountWire>) => (outcome.ok ? { statements: openInCurrency(outcome.data, context.line!.currency) } : {})),
    // The customer stays picked: picking them again reads their statements again.
    storeAccountFailure: assign((_, message: string) => ({ errors: { customer: message } })),
    storeCustomerRequired: assign({ errors: { customer: BANK_LINE_TEXTS.customerRequired } }),
    toggleStatement: assign(({ context }, { statementId, checked }: { statementId: string; checked: boolean }) => ({ chosen: toggled(context.chosen, statementId, checked) })),
    storeReason: assign((_, value: string) => ({ reason: value, errors: {}, failure: null })),
    storeReasonProblem: assign(({ context }) => ({ errors: { reason: reasonProblem(context.reason) ?? undefined } })),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The page reloads the waiting lines and the ledger. */
    lineDecided: () => {},
  },
  guards: {
    // The table offers Match… and Ignore… on waiting lines only; a stale click does nothing.
    isWaiting: (_, line: BankLineWire) => line.status === 'unmatched',
    isLoaded: (_, outcome: LoadOutcome<CustomerAccountWire>) => outcome.ok,
    hasReason: ({ context }) => reasonProblem(context.reason) === null,
    isDone: (_, outcome: LoadOutcome<BankLineWire>) => outcome.ok,
  },
});

const submitting = submittingStates(bankLineDecisionSetup);
const lineOf = ({ event }: { event: { line: BankLineWire } }) => event.line;

export const bankLineDecisionMachine = bankLineDecisionSetup.createMachine({
  id: 'bankLineDecision',
  context: { line: null, ...EMPTY },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'user.match': { guard: { type: 'isWaiting', params: lineOf }, target: 'matching', actions: { type: 'takeLine', params: lineOf } },
        'user.ignore': { guard: { type: 'isWaiting', params: lineOf }, target: 'ignoring', actions: { type: 'takeLine', params: lineOf } },
      },
    },
    matching: {
      tags: ['open'],
      initial: 'picking',
      on: {
        // Another customer while the first one's statements load: the first read is dropped.
        'user.customer': { target: '.loading', actions: { type: 'storeCustomer', params: ({ event }) => event.customer } },
        'user.cancel': 'closed',
      },
      states: {
        picking: {
          on: { 'user.submit': { actions: 'storeCustomerRequired' } },
        },
        loading: {
          invoke: {
            id: 'loadAccount',
            src: 'loadAccount',
            input: ({ context }) => ({ customerId: context.customer!.id }),
            onDone: [
              { guard: { type: 'isLoaded', params: ({ event }) => event.output }, target: 'choosing', actions: { type: 'storeAccount', params: ({ event }) => event.output } },
              { target: 'picking', actions: { type: 'storeAccountFailure', params: ({ event }) => (event.output.ok ? FALLBACK_LOAD_ERROR : event.output.message) } },
            ],
            onError: { target: 'picking', actions: { type: 'storeAccountFailure', params: FALLBACK_LOAD_ERROR } },
          },
        },
        choosing: {
          on: {
            'user.statement': { actions: { type: 'toggleStatement', params: ({ event }) => event } },
            'user.submit': '#bankLineDecision.matchSubmitting',
          },
        },
      },
    },
    // Not closable: the server may already be posting the payment.
    matchSubmitting: {
      ...submitting({
        src: 'matchLine',
        input: ({ context }) => ({ lineId: context.line!.id, body: { customerId: context.customer!.id, statementIds: context.chosen.length > 0 ? context.chosen : null } }),
        success: { target: 'closed', actions: [{ type: 'notifySuccess', params: M.lineMatched }, 'lineDecided'] },
        back: '#bankLineDecision.matching.choosing',
        failure: (why) => why?.trim() || BANK_LINE_TEXTS.matchFailed,
      }),
      tags: ['open', 'busy'],
    },
    ignoring: {
      tags: ['open'],
      on: {
        'user.reason': { actions: { type: 'storeReason', params: ({ event }) => event.value } },
        'user.submit': [{ guard: 'hasReason', target: 'ignoreSubmitting' }, { actions: 'storeReasonProblem' }],
        'user.cancel': 'closed',
      },
    },
    ignoreSubmitting: {
      ...submitting({
        src: 'ignoreLine',
        input: ({ context }) => ({ lineId: context.line!.id, note: context.reason.trim() }),
        success: { target: 'closed', actions: [{ type: 'notifySuccess', params: M.lineIgnored }, 'lineDecided'] },
        back: 'ignoring',
        failure: (why) => why?.trim() || BANK_LINE_TEXTS.ignoreFailed,
      }),
      tags: ['open', 'busy'],
    },
  },
});

export type BankLineDecisionMachine = typeof bankLineDecisionMachine;

// ---- What the page shows -----------------------------------------------------------------------

export interface BankLineDecisionView {
  dialog: 'none' | 'match' | 'ignore';
  /** The customer's statements are being read. */
  loadingStatements: boolean;
  /** The customer's statements are shown (read, and in the line's currency). */
  statementsShown: boolean;
  busy: boolean;
  line: BankLineWire | null;
  customer: CustomerOption | null;
  statements: OpenStatementWire[];
  chosen: string[];
  reason: string;
  errors: FieldErrors<BankLineDecisionField>;
  failure: string | null;
}

export function bankLineDecisionView(snapshot: SnapshotFrom<BankLineDecisionMachine>): BankLineDecisionView {
  const { context } = snapshot;
  const matching = snapshot.matches('matching') || snapshot.matches('matchSubmitting');
  const ignoring = snapshot.matches('ignoring') || snapshot.matches('ignoreSubmitting');
  return {
    dialog: matching ? 'match' : ignoring ? 'ignore' : 'none',
    loadingStatements: snapshot.matches({ matching: 'loading' }),
    statementsShown: snapshot.matches({ matching: 'choosing' }) || snapshot.matches('matchSubmitting'),
    busy: snapshot.hasTag('busy'),
    line: context.line,
    customer: context.customer,
    statements: context.statements,
    chosen: context.chosen,
    reason: context.reason,
    errors: context.errors,
    failure: context.failure,
  };
}
