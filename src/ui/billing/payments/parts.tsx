// Pieces the Payments page's sections and dialogs share: their words, an entry's amount as money
// in or out, a bank line's status, the statements an entry paid, and where a customer's page is.
import { Tag } from 'primereact/tag';
import { LEDGER_KIND_LABELS, type BankLineStatus, type BankLineWire, type LedgerEntryWire } from '../../../domain/ledger';
import { formatMoney } from '../../../domain/money';
import { DASH } from '../../common/format';

export const PAYMENTS_TEXTS = {
  recordPayment: 'Record payment',
  importTitle: 'Import bank statement',
  fileLabel: 'Bank statement file',
  formatLabel: 'Format',
  mappingTitle: 'CSV columns',
  mappingHint: 'The column names as the first line of the file writes them.',
  importButton: 'Import',
  reading: 'Reading the file...',
  importing: 'Importing...',
  importAnother: 'Import another file',
  reportTable: 'Lines of the imported file',
  waitingTitle: 'Waiting to be matched',
  waitingTable: 'Bank lines waiting to be matched',
  waitingLoading: 'Loading the waiting bank lines...',
  waitingFailed: 'Could not load the waiting bank lines',
  noneWaiting: 'No bank line is waiting: every imported payment found its customer',
  ledgerTitle: 'Ledger',
  ledgerTable: 'Ledger entries',
  ledgerLoading: 'Loading the ledger...',
  ledgerFailed: 'Could not load the ledger',
  noEntries: 'No entries of this kind yet',
  kindFilter: 'Kind',
  match: 'Match…',
  ignore: 'Ignore…',
  reverse: 'Reverse…',
  matchTitle: 'Match payment',
  matchButton: 'Match payment',
  matching: 'Matching...',
  statementsLegend: 'Statements it pays',
  statementsHint: 'None checked: the oldest first; what is left is kept as credit.',
  statementsLoading: 'Reading the customer’s open statements...',
  noOpenStatements: (currency: string) => `No open statement in ${currency}: the payment is kept as credit.`,
  ignoreTitle: 'Ignore bank line',
  ignoreButton: 'Ignore',
  ignoring: 'Ignoring...',
  reasonLabel: 'Reason',
  entryTitle: 'Record payment',
  recordButton: 'Record',
  recording: 'Recording...',
  reverseTitle: 'Reverse entry',
  reverseButton: 'Reverse',
  reversing: 'Reversing...',
  customerLabel: 'Customer',
  customerPlaceholder: 'Search and pick a customer',
  customerSearch: 'Search customers',
  customerSearching: 'Searching...',
  customerNone: 'No customer matches',
  customersFailed: 'The customers could not be loaded',
} as const;

export const FORMAT_LABELS = { camt053: 'camt.053 (XML)', csv: 'CSV' } as const;

export const BANK_LINE_STATUS_LABELS: Readonly<Record<BankLineStatus, string>> = { matched: 'Matched', unmatched: 'To match by hand', ignored: 'Ignored' };

export function BankLineStatusTag({ status }: { status: BankLineStatus }) {
  return <Tag value={BANK_LINE_STATUS_LABELS[status]} severity={status === 'matched' ? 'success' : status === 'unmatched' ? 'warning' : 'secondary'} />;
}

/**
 * An entry as money in or out of the reseller's hands: a payment or a credit note lowers what the
 * customer owes ("+ in"), a refund or a charge raises it ("− out" for a refund; a charge is owed).
 * The ledger's sign is what it adds to what the customer owes, so it is shown the other way round.
 */
export function entryAmount(entry: Pick<LedgerEntryWire, 'amountMinor' | 'currency'>): { text: string; direction: 'in' | 'out' } {
  const money = formatMoney(Math.abs(entry.amountMinor), entry.currency);
  return entry.amountMinor < 0 ? { text: `+${money}`, direction: 'in' } : { text: `\u2212${money}`, direction: 'out' };
}

export function EntryAmount({ entry }: { entry: Pick<LedgerEntryWire, 'amountMinor' | 'currency'> }) {
  const { text, direction } = entryAmount(entry);
  return (
    <span className={`ledger-amount ledger-amount-${direction}`}>
      {text} <span className="ledger-amount-flow">{direction === 'in' ? 'in' : 'out'}</span>
    </span>
  );
}

/** "S-2026-0001, S-2026-0002"; the statement a charge is for; a dash for none. */
export function statementsPaid(entry: Pick<LedgerEntryWire, 'allocations' | 'statementNumber'>): string {
  const numbers = entry.allocations.map((a) => a.statementNumber).filter((n): n is string => !!n);
  if (numbers.length > 0) return numbers.join(', ');
  return entry.statementNumber ?? DASH;
}

/** "Payment", or "Payment (reversed)" once a later entry took it back. */
export const kindText = (entry: Pick<LedgerEntryWire, 'kind' | 'reversedById'>) => `${LEDGER_KIND_LABELS[entry.kind]}${entry.reversedById ? ' (reversed)' : ''}`;

export const lineAmount = (line: Pick<BankLineWire, 'amountMinor' | 'currency'>) => formatMoney(line.amountMinor, line.currency);

/** How a person names a bank line: "USD 120.00 from Acme Maritime on 2026-04-02". */
export const lineName = (line: Pick<BankLineWire, 'amountMinor' | 'currency' | 'payer' | 'bookedOn'>) => `${lineAmount(line)} from ${line.payer ?? 'an unknown payer'} on ${line.bookedOn}`;

export const entryName = (entry: Pick<LedgerEntryWire, 'kind' | 'amountMinor' | 'currency' | 'customerName' | 'occurredOn'>) =>
  `${LEDGER_KIND_LABELS[entry.kind].toLowerCase()} of ${formatMoney(Math.abs(entry.amountMinor), entry.currency)} for ${entry.customerName} on ${entry.occurredOn}`;

/** The customer's own page (their terminals, usage and account). */
export const customerUrl = (customerId: string) => `/customer/terminals/${encodeURIComponent(customerId)}`;

export type { LedgerKindFilter } from '../../../domain/ledger';
