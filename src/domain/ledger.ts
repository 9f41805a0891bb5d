// The customer ledger: what each customer owes and has paid, per currency. Shared by the server
// (posting, allocation, ageing, dunning) and the client (the Payments and Ageing pages, the
// customer's account, the customer's own area).
//
// The rules, as the guide states them:
// - The ledger is append-only. A closed statement posts a charge (its total); a payment, a credit
//   note or a refund posts against the charges; a mistake is corrected by reversing the entry (a
//   new entry of the opposite amount), never by changing it.
// - Signs: an entry is what it adds to what the customer owes. A charge and a refund are positive,
//   a payment and a credit note negative. The balance is the sum of the entries: positive is owed,
//   negative is credit the customer holds.
// - A payment or credit note pays the statements chosen, else the customer's open statements in
//   its currency oldest first (by due date, then number). What is left is kept as credit, and the
//   credit pays the next statement as soon as it is charged.
// - A statement is due `paymentTermsDays` after the day it closed (net 30 by default). Overdue
//   days count from the day after the due date. Ageing puts each open statement's unpaid amount
//   in one bucket: current (not yet overdue), 1–30, 31–60, 61–90 or 90+ days overdue.
// - Dunning: a reminder N days after the due date (one or more), a final notice, then the
//   customer's portal access is blocked after M days. A promise to pay holds every step until its
//   date. Once nothing is overdue, a customer blocked for non-payment is unblocked.
// Pure: no clock, no I/O. Money is whole minor units (./money.ts).
import { dayNumber, isoDate, isoDay } from './billing';
import type { Pagination } from './customers';

export const LEDGER_ENTRY_KINDS = ['charge', 'payment', 'credit_note', 'refund', 'reversal'] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];
/** What a ledger list may show: one kind, or all of them. */
export type LedgerKindFilter = LedgerEntryKind | 'all';

/** The entries a person posts; charges come from closed statements, reversals from Reverse. */
export const POSTED_KINDS = ['payment', 'credit_note', 'refund'] as const satisfies readonly LedgerEntryKind[];
export type PostedKind = (typeof POSTED_KINDS)[number];

export const LEDGER_KIND_LABELS: Readonly<Record<LedgerEntryKind, string>> = {
  charge: 'Statement',
  payment: 'Payment',
  credit_note: 'Credit note',
  refund: 'Refund',
  reversal: 'Reversal',
};

export const PAYMENT_METHODS = ['bank_transfer', 'card', 'cash', 'cheque', 'direct_debit', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Readonly<Record<PaymentMethod, string>> = {
  bank_transfer: 'Bank transfer',
  card: 'Card',
  cash: 'Cash',
  cheque: 'Cheque',
  direct_debit: 'Direct debit',
  other: 'Other',
};

export const DEFAULT_PAYMENT_TERMS_DAYS = 30;
export const PAYMENT_TERMS_MAX_DAYS = 365;
/** The terms offered in the form; any whole number of days from 0 to 365 is taken. */
export const PAYMENT_TERMS_CHOICES = [0, 7, 15, 30, 45, 60, 90] as const;
export const LEDGER_REFERENCE_MAX_LENGTH = 140;
export const LEDGER_NOTE_MAX_LENGTH = 500;
export const LEDGER_PAGE_SIZE = 25;

export const LEDGER_MESSAGES = {
  paymentRecorded: 'Payment recorded',
  creditNoteRecorded: 'Credit note recorded',
  refundRecorded: 'Refund recorded',
  entryReversed: 'Entry reversed',
  entryNotFound: 'Ledger entry not found',
  alreadyReversed: 'This entry is already reversed',
  notReversible: 'Statements and reversals cannot be reversed; post a credit note or a new entry instead',
  amountNotPositive: 'Amount must be more than zero',
  dateInFuture: 'The date cannot be in the future',
  currencyNotBilled: (currency: string) => `This customer is not billed in ${currency}`,
  statementNotOpen: 'Only the customer\u2019s open statements in the payment\u2019s currency can be chosen',
  refundOverCredit: (credit: string) => `A refund can pay back at most the customer\u2019s credit (${credit})`,
  termsSaved: 'Payment terms saved',
  policySaved: 'Dunning policy saved',
  dunningRan: (r: { reminders: number; finalNotices: number; blocked: number; unblocked: number }) =>
    `Dunning ran: ${r.reminders} reminder${r.reminders === 1 ? '' : 's'}, ${r.finalNotices} final notice${r.finalNotices === 1 ? '' : 's'}, ${r.blocked} blocked, ${r.unblocked} unblocked`,
  policyOrder: 'Reminders come before the final notice, and the final notice before the block',
  importDone: (matched: number, unmatched: number, duplicates: number) =>
    `${matched} matched, ${unmatched} to match by hand, ${duplicates} already imported`,
  lineMatched: 'Payment matched',
  lineIgnored: 'Bank line ignored',
  lineNotFound: 'Bank line not found',
  lineNotWaiting: 'This bank line is no longer waiting to be matched',
  customerNotFound: 'Customer not found',
} as const;

// ---- Allocation --------------------------------------------------------------------------------

/** A statement that still has something to pay. */
export interface OpenItem {
  statementId: string;
  /** 'YYYY-MM-DD' */
  dueOn: string;
  number: string;
  /** What is left to pay, more than zero. */
  openMinor: number;
}

export const byDueDate = (a: OpenItem, b: OpenItem) => (a.dueOn === b.dueOn ? (a.number < b.number ? -1 : a.number > b.number ? 1 : 0) : a.dueOn < b.dueOn ? -1 : 1);

/**
 * How `amountMinor` (more than zero) pays open items: the chosen statements only when
 * `chosen` is given, else all of them, oldest first; each at most what is open on it. The rest is
 * kept as credit.
 */
export function allocate(amountMinor: number, open: readonly OpenItem[], chosen?: readonly string[] | null): { allocations: { statementId: string; amountMinor: number }[]; creditMinor: number } {
  const pick = chosen && chosen.length > 0 ? open.filter((item) => chosen.includes(item.statementId)) : open;
  let left = amountMinor;
  const allocations: { statementId: string; amountMinor: number }[] = [];
  for (const item of [...pick].sort(byDueDate)) {
    if (left <= 0) break;
    const take = Math.min(left, item.openMinor);
    if (take <= 0) continue;
    allocations.push({ statementId: item.statementId, amountMinor: take });
    left -= take;
  }
  return { allocations, creditMinor: left };
}

// ---- Ageing ------------------------------------------------------------------------------------

export const AGEING_BUCKETS = ['current', 'days1to30', 'days31to60', 'days61to90', 'days90plus'] as const;
export type AgeingBucket = (typeof AGEING_BUCKETS)[number];
export const AGEING_LABELS: Readonly<Record<AgeingBucket, string>> = {
  current: 'Current',
  days1to30: '1\u201330 days',
  days31to60: '31\u201360 days',
  days61to90: '61\u201390 days',
  days90plus: '90+ days',
};

const DAY_MS = 86_400_000;
export { isoDay };
/** The day `days` after `date` ('YYYY-MM-DD'). */
export const addDays = (date: string, days: number) => isoDate((dayNumber(date) + days) * DAY_MS);

/** Days past the due date on `today` (0 or less: not overdue). */
export const daysOverdue = (dueOn: string, today: string) => dayNumber(today) - dayNumber(dueOn);

/** The due date of a statement closed on `closedOn` under net `termsDays`. */
export const dueDateOf = (closedOn: string, termsDays: number) => addDays(closedOn, termsDays);

export function bucketOf(days: number): AgeingBucket {
  if (days <= 0) return 'current';
  if (days <= 30) return 'days1to30';
  if (days <= 60) return 'days31to60';
  if (days <= 90) return 'days61to90';
  return 'days90plus';
}

export type AgeingFigures = Record<AgeingBucket, number>;
export const emptyAgeing = (): AgeingFigures => ({ current: 0, days1to30: 0, days31to60: 0, days61to90: 0, days90plus: 0 });

/** The open items' unpaid amounts, bucketed by how overdue each is on `today`. */
export function ageOf(open: readonly Pick<OpenItem, 'dueOn' | 'openMinor'>[], today: string): AgeingFigures {
  const figures = emptyAgeing();
  for (const item of open) figures[bucketOf(daysOverdue(item.dueOn, today))] += item.openMinor;
  return figures;
}

// ---- Dunning -----------------------------------------------------------------------------------

export const DUNNING_STEPS = ['reminder_1', 'reminder_2', 'reminder_3', 'final_notice', 'block'] as const;
export type DunningStep = (typeof DUNNING_STEPS)[number];
export const DUNNING_STEP_LABELS: Readonly<Record<DunningStep | 'unblock', string>> = {
  reminder_1: 'First reminder',
  reminder_2: 'Second reminder',
  reminder_3: 'Third reminder',
  final_notice: 'Final notice',
  block: 'Portal access blocked',
  unblock: 'Portal access unblocked',
};
export const DUNNING_REMINDERS_MAX = 3;
export const DUNNING_DAYS_MAX = 365;

export interface DunningPolicy {
  enabled: boolean;
  /** Days after the due date for each reminder, ascending (up to three). */
  reminderDays: number[];
  /** Days after the due date for the final notice; null: none. */
  finalNoticeDays: number | null;
  /** Days after the due date after which portal access is blocked; null: never. */
  blockDays: number | null;
  /** With the block, propose ending the customer's lines (an admin approves each). */
  proposeLineEnds: boolean;
}

/** What one dunning run did. */
export interface DunningReport {
  reminders: number;
  finalNotices: number;
  blocked: number;
  unblocked: number;
  /** Line ends proposed with the blocks (the policy's "propose ending the lines"). */
  proposedEnds: number;
}

export const DEFAULT_DUNNING_POLICY: DunningPolicy = { enabled: true, reminderDays: [7], finalNoticeDays: 21, blockDays: 30, proposeLineEnds: false };

/** The policy's steps with the day each falls due, in order. */
export function stepsOf(policy: DunningPolicy): { step: DunningStep; days: number }[] {
  const steps: { step: DunningStep; days: number }[] = policy.reminderDays.slice(0, DUNNING_REMINDERS_MAX).map((days, i) => ({ step: DUNNING_STEPS[i]!, days }));
  if (policy.finalNoticeDays !== null) steps.push({ step: 'final_notice', days: policy.finalNoticeDays });
  if (policy.blockDays !== null) steps.push({ step: 'block', days: policy.blockDays });
  return steps;
}

/** Null when the policy's days are in order; else why not. */
export function policyProblem(policy: DunningPolicy): string | null {
  const days = stepsOf(policy).map((s) => s.days);
  for (let i = 1; i < days.length; i++) if (days[i]! <= days[i - 1]!) return LEDGER_MESSAGES.policyOrder;
  return null;
}

/**
 * The step a statement `overdue` days past due should take now, given the steps it has taken:
 * the furthest step that has fallen due, when it is further than any taken (a statement found
 * 40 days overdue gets the block, not three letters at once). Null: nothing to do. A promise to
 * pay until a day on or after `today` holds everything.
 */
export function stepDue(policy: DunningPolicy, overdue: number, taken: readonly DunningStep[], promisedUntil: string | null, today: string): DunningStep | null {
  if (!policy.enabled || overdue <= 0) return null;
  if (promisedUntil !== null && promisedUntil >= today) return null;
  const rank = (step: DunningStep) => DUNNING_STEPS.indexOf(step);
  const furthestTaken = Math.max(-1, ...taken.map(rank));
  let due: DunningStep | null = null;
  for (const { step, days } of stepsOf(policy)) if (overdue >= days) due = step;
  return due !== null && rank(due) > furthestTaken ? due : null;
}

// ---- Wire --------------------------------------------------------------------------------------

export interface AllocationWire {
  statementId: string;
  statementNumber: string | null;
  amountMinor: number;
}

export interface LedgerEntryWire {
  id: string;
  customerId: string;
  customerName: string;
  currency: string;
  kind: LedgerEntryKind;
  /** What it adds to what the customer owes: charges and refunds positive, payments and credit notes negative. */
  amountMinor: number;
  /** 'YYYY-MM-DD': the day it was paid, issued or charged. */
  occurredOn: string;
  method: PaymentMethod | null;
  reference: string | null;
  note: string | null;
  statementId: string | null;
  statementNumber: string | null;
  /** The entry this one reverses. */
  reversesId: string | null;
  /** Set when a later entry reverses this one. */
  reversedById: string | null;
  /** The bank statement line it came from. */
  bankLineId: string | null;
  allocations: AllocationWire[];
  createdAt: string;
  createdBy: string | null;
}

export interface LedgerListWire {
  items: LedgerEntryWire[];
  pagination: Pagination;
}

/** A customer's position in one currency. */
export interface BalanceWire {
  currency: string;
  /** Owed (positive) or held as credit (negative): the sum of the entries. */
  balanceMinor: number;
  /** Unpaid on open statements. */
  openMinor: number;
  /** Unpaid on statements past their due date. */
  overdueMinor: number;
  /** Paid but not yet used on a statement. */
  creditMinor: number;
}

export interface OpenStatementWire extends OpenItem {
  cycle: string;
  currency: string;
  totalMinor: number;
  paidMinor: number;
  daysOverdue: number;
}

export interface DunningStepWire {
  step: DunningStep | 'unblock';
  statementId: string | null;
  statementNumber: string | null;
  takenAt: string;
}

export interface BillingTermsWire {
  paymentTermsDays: number;
  /** 'YYYY-MM-DD': dunning holds until this day (inclusive). */
  promiseToPayUntil: string | null;
  promiseNote: string | null;
  /** Blocked by dunning (and so unblocked by it once nothing is overdue). */
  blockedForNonPayment: boolean;
}

export interface CustomerAccountWire {
  customerId: string;
  /** Currencies the customer is billed in (has closed statements in). */
  currencies: string[];
  balances: BalanceWire[];
  open: OpenStatementWire[];
  /** The newest entries first. */
  entries: LedgerEntryWire[];
  terms: BillingTermsWire;
  dunning: DunningStepWire[];
}

export interface LedgerEntryBody {
  customerId: string;
  kind: PostedKind;
  currency: string;
  /** Major units as typed, more than zero. */
  amount: string;
  /** 'YYYY-MM-DD', not in the future. */
  occurredOn: string;
  /** Payments only. */
  method?: PaymentMethod;
  reference?: string | null;
  note?: string | null;
  /** Pay these statements only (payments and credit notes); else oldest first. */
  statementIds?: string[] | null;
}

export interface PostedWire {
  entry: LedgerEntryWire;
  balance: BalanceWire;
  /** Customers unblocked because nothing is overdue any more. */
  unblocked: boolean;
}

export interface ReverseBody {
  reason: string;
}

export interface BillingTermsBody {
  paymentTermsDays: number;
  promiseToPayUntil?: string | null;
  promiseNote?: string | null;
}

export interface AgeingRowWire extends AgeingFigures {
  customerId: string;
  customerName: string;
  currency: string;
  totalMinor: number;
  creditMinor: number;
  oldestDueOn: string | null;
  blockedForNonPayment: boolean;
  promiseToPayUntil: string | null;
}

export interface AgeingWire {
  /** 'YYYY-MM-DD': the day the figures are for. */
  asOf: string;
  rows: AgeingRowWire[];
  /** Per currency: the buckets summed over every customer. */
  totals: (AgeingFigures & { currency: string; totalMinor: number; customers: number })[];
}

export const AGEING_CSV_COLUMNS = ['customer', 'currency', ...AGEING_BUCKETS, 'total', 'credit', 'oldest_due_on'] as const;

// ---- Bank statements ---------------------------------------------------------------------------

export const BANK_FORMATS = ['camt053', 'csv'] as const;
export type BankFormat = (typeof BANK_FORMATS)[number];
export const BANK_FILE_MAX_BYTES = 5_000_000;

export const BANK_LINE_STATUSES = ['matched', 'unmatched', 'ignored'] as const;
export type BankLineStatus = (typeof BANK_LINE_STATUSES)[number];
export const BANK_MATCH_KINDS = ['reference', 'amount_and_name', 'manual'] as const;
export type BankMatchKind = (typeof BANK_MATCH_KINDS)[number];

/** CSV columns by header name; dates as the bank writes them. */
export interface CsvMapping {
  date: string;
  amount: string;
  payer: string;
  remittance: string;
  /** The bank's own id of the line; without it a line is known by its content and position. */
  reference?: string | null;
  /** A column with the currency; without it every line is in `currency`. */
  currencyColumn?: string | null;
  currency?: string | null;
  dateFormat: 'YYYY-MM-DD' | 'DD/MM/YYYY' | 'MM/DD/YYYY' | 'DD.MM.YYYY';
  /** '.' or ','. */
  decimalSeparator: '.' | ',';
  /** ',' or ';'. */
  delimiter: ',' | ';';
}

/** The CSV mapping as a form holds it: every value a string, the optional columns blank for none. */
export interface CsvMappingForm {
  date: string;
  amount: string;
  payer: string;
  remittance: string;
  reference: string;
  currencyColumn: string;
  currency: string;
  dateFormat: CsvMapping['dateFormat'];
  decimalSeparator: CsvMapping['decimalSeparator'];
  delimiter: CsvMapping['delimiter'];
}

export interface BankImportBody {
  format: BankFormat;
  fileName: string;
  /** The file's text. */
  content: string;
  csv?: CsvMapping | null;
}

export interface BankLineWire {
  id: string;
  importId: string;
  bookedOn: string;
  amountMinor: number;
  currency: string;
  payer: string | null;
  remittance: string | null;
  bankReference: string | null;
  status: BankLineStatus;
  matchedBy: BankMatchKind | null;
  customerId: string | null;
  customerName: string | null;
  entryId: string | null;
  /** The statements it paid. */
  statementNumbers: string[];
  note: string | null;
}

export interface BankImportWire {
  id: string;
  fileName: string;
  format: BankFormat;
  importedAt: string;
  importedBy: string | null;
  lines: number;
  matched: number;
  unmatched: number;
  /** Lines already imported by an earlier file: posted nothing. */
  duplicates: number;
  /** Debits and other lines that are not money in. */
  skipped: number;
}

export interface BankImportReportWire extends BankImportWire {
  items: BankLineWire[];
}

export interface BankLineListWire {
  items: BankLineWire[];
  pagination: Pagination;
}

export interface MatchBody {
  customerId: string;
  statementIds?: string[] | null;
}

export interface IgnoreBody {
  note: string;
}

// ---- The customer's own area -------------------------------------------------------------------

export interface MyAccountWire {
  balances: BalanceWire[];
  open: OpenStatementWire[];
  /** Payments, credit notes and refunds, newest first (statements are on their own page). */
  payments: Omit<LedgerEntryWire, 'customerName' | 'createdBy' | 'note' | 'bankLineId'>[];
  paymentTermsDays: number;
}
