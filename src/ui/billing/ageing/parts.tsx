// Pieces of the Ageing page: its words, a customer's tags (blocked for non-payment, promised
// until a day), and the bucket columns every ageing table shows.
import { Tag } from 'primereact/tag';
import { AGEING_BUCKETS, AGEING_LABELS, type AgeingBucket, type AgeingRowWire } from '../../../domain/ledger';

export const AGEING_TEXTS = {
  totalsTable: 'Totals per currency',
  rowsTable: 'Ageing per customer',
  loading: 'Loading the ageing...',
  loadFailed: 'Could not load the ageing',
  nothingOwed: 'Nothing is owed: every statement is paid',
  noMatch: 'No customer owes anything for this choice',
  searchLabel: 'Search customers',
  searchPlaceholder: 'Customer name or email',
  currencyFilter: 'Currency filter',
  allCurrencies: 'All currencies',
  exportFailed: 'Could not export the ageing',
  blocked: 'Blocked for non-payment',
  promisedUntil: (day: string) => `Promised until ${day}`,
  asOf: (day: string) => `Unpaid statements by how overdue they are, as of ${day}`,
  policyTitle: 'Dunning policy',
  policyLoading: 'Loading the dunning policy...',
  policyFailed: 'Could not load the dunning policy',
  policyEnabled: 'Remind overdue customers, give the final notice and block them as set below',
  proposeLineEnds: 'Also propose ending the customer’s lines (an admin approves each on Automatic actions)',
  reminder: (n: 1 | 2 | 3) => `${['First', 'Second', 'Third'][n - 1]} reminder (days)`,
  finalNotice: 'Final notice (days)',
  block: 'Block after (days)',
  daysHint: 'Days after the due date',
  noneHint: 'Blank: none',
  neverHint: 'Blank: never',
  save: 'Save',
  saving: 'Saving...',
  runNow: 'Run dunning now',
  running: 'Running...',
  runHint: 'Takes the steps that have fallen due now, instead of at the next quarter-hour',
  readOnly: 'Only those who manage billing change the policy.',
  updatedAt: (when: string) => `Last saved ${when}`,
} as const;

export const BUCKET_COLUMNS: readonly { bucket: AgeingBucket; header: string }[] = AGEING_BUCKETS.map((bucket) => ({ bucket, header: AGEING_LABELS[bucket] }));

export function CustomerTags({ row }: { row: Pick<AgeingRowWire, 'blockedForNonPayment' | 'promiseToPayUntil'> }) {
  if (!row.blockedForNonPayment && !row.promiseToPayUntil) return null;
  return (
    <span className="ageing-tags">
      {row.blockedForNonPayment && <Tag value={AGEING_TEXTS.blocked} severity="danger" />}
      {row.promiseToPayUntil && <Tag value={AGEING_TEXTS.promisedUntil(row.promiseToPayUntil)} severity="info" />}
    </span>
  );
}
