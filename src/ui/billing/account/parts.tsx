// Words and pieces the two readings of a customer's account share (the admins' section on the
// customer's page, the customer's own balance above their statements): the balance as owed or
// credit, the terms as "Net 30", the statements an entry paid, and how much a ledger entry moved.
import type { BalanceWire, LedgerEntryWire } from '../../../domain/ledger';
import { formatMoney } from '../../../domain/money';
import { DASH } from '../../common/format';

export const ACCOUNT_TEXTS = {
  title: 'Balance and payments',
  loading: 'Loading the account...',
  failed: 'Could not load the account',
  retry: 'Load the account again',
  nothingBilled: 'Nothing billed yet: the balance starts with the first closed statement.',
  balance: 'Balance',
  open: 'Open',
  overdue: 'Overdue',
  openStatements: 'Open statements',
  noOpen: 'Nothing left to pay',
  history: 'Ledger',
  noHistory: 'No entries yet',
  dunning: 'Reminders and blocks',
  noDunning: 'No reminder sent',
  terms: 'Payment terms',
  blocked: 'Blocked for non-payment',
  refreshing: 'Updating...',
} as const;

export const MY_ACCOUNT_TEXTS = {
  balanceTitle: 'Your balance',
  paymentsTitle: 'Payments',
  paymentsTable: 'Your payments',
  noPayments: 'No payments recorded yet',
  failed: 'Could not load your balance',
  loading: 'Loading your balance...',
  nothingBilled: 'Nothing billed yet',
  seeStatements: 'See your statements and payments',
} as const;

/** "Net 30", "Due on receipt" for 0 days. */
export const termsLabel = (days: number) => (days === 0 ? 'Due on receipt' : `Net ${days}`);

/** "net 30 days" in a sentence; "due on receipt" for 0. */
export const termsWords = (days: number) => (days === 0 ? 'due on receipt' : `net ${days} ${days === 1 ? 'day' : 'days'}`);

/** "USD 124.15 owed", "USD 20.00 credit", "Nothing owed". */
export function balanceWords(balance: Pick<BalanceWire, 'balanceMinor' | 'currency'>): string {
  if (balance.balanceMinor > 0) return `${formatMoney(balance.balanceMinor, balance.currency)} owed`;
  if (balance.balanceMinor < 0) return `${formatMoney(-balance.balanceMinor, balance.currency)} credit`;
  return 'Nothing owed';
}

/** The statements an entry paid ("ST-2026-02-000042, ST-2026-03-000051"), or the one it charged. */
export function statementsPaid(entry: Pick<LedgerEntryWire, 'allocations'>): string {
  const numbers = entry.allocations.map((a) => a.statementNumber).filter((n): n is string => Boolean(n));
  return numbers.length > 0 ? numbers.join(', ') : DASH;
}

/** The head of a table of ledger entries: the same for the admin's history and the customer's payments. */
export function EntriesTableHead() {
  return (
    <thead>
      <tr>
        <th scope="col">Date</th>
        <th scope="col">Kind</th>
        <th scope="col" className="statement-number-cell">
          Amount
        </th>
        <th scope="col">Reference</th>
        <th scope="col">Statements paid</th>
      </tr>
    </thead>
  );
}
