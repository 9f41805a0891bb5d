// Pieces every statements screen shows (the admins' list and a statement, a customer's section,
// the customer's own list and statement): the status and payment tags, the number or "Draft", the
// cycle as a month, days, periods and quantities with their units.
import { Tag } from 'primereact/tag';
import { PAYMENT_STATUS_LABELS, QUANTITY_UNITS, type PaymentStatus, type StatementItem, type StatementStatus, type StatementSummaryWire } from '../../../domain/billing';
import { DASH } from '../../common/format';

export const STATEMENT_TEXTS = {
  listTitle: 'Statements',
  draft: 'Draft',
  draftWatermark: 'DRAFT',
  draftNote: 'A draft: its figures change until the cycle closes.',
  loading: 'Loading statements...',
  loadFailed: 'Could not load the statements',
  noStatements: 'No statements for this choice',
  noneYet: 'No statements yet',
  statementLoading: 'Loading the statement...',
  statementLoadFailed: 'Could not load the statement',
  print: 'Print or save as PDF',
  addAdjustment: 'Add credit or charge',
  exportFailed: 'Could not export the statements',
} as const;

const STATUS_LABELS: Record<StatementStatus, string> = { draft: 'Draft', closed: 'Closed' };

export function StatementStatusTag({ status }: { status: StatementStatus }) {
  return <Tag value={STATUS_LABELS[status]} severity={status === 'closed' ? 'success' : 'warning'} />;
}

const PAYMENT_SEVERITY: Record<PaymentStatus, 'success' | 'info' | 'warning'> = { paid: 'success', part_paid: 'info', unpaid: 'warning' };

/** Whether something is still to pay on a closed statement whose due date is before `today` ('YYYY-MM-DD'). */
export function isOverdue(statement: Pick<StatementSummaryWire, 'dueOn' | 'paymentStatus'>, today: string): boolean {
  return statement.paymentStatus !== null && statement.paymentStatus !== 'paid' && statement.dueOn !== null && statement.dueOn < today;
}

/** "Paid", "Part paid", "Unpaid"; in the danger colour and said in words once overdue; a dash for a draft. */
export function PaymentStatusTag({ statement, today }: { statement: Pick<StatementSummaryWire, 'dueOn' | 'paymentStatus'>; today: string }) {
  const status = statement.paymentStatus;
  if (status === null) return <span className="text-muted">{DASH}</span>;
  // Overdue is said in words as well as in red: a colour alone tells nobody who cannot see it.
  return isOverdue(statement, today) ? (
    <Tag value={`${PAYMENT_STATUS_LABELS[status]}, overdue`} severity="danger" />
  ) : (
    <Tag value={PAYMENT_STATUS_LABELS[status]} severity={PAYMENT_SEVERITY[status]} />
  );
}

/** The statement's number, or "Draft" until it closes and gets one. */
export const statementLabel = (statement: Pick<StatementSummaryWire, 'number'>) => statement.number ?? STATEMENT_TEXTS.draft;

// One formatter for every call (`toLocaleDateString` builds one per call, twice a row in a list).
const CALENDAR_DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** '2026-03-01' → "Mar 1, 2026" (a calendar day: no time zone shifts it). */
export function formatDay(day: string | null): string {
  if (!day) return DASH;
  const ms = Date.parse(`${day.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(ms) ? day : CALENDAR_DAY.format(ms);
}

/** "Mar 1, 2026 – Mar 31, 2026"; one day alone; a dash for none. */
export function formatPeriod(start: string | null, end: string | null): string {
  if (!start && !end) return DASH;
  if (!start || !end || start === end) return formatDay(start ?? end);
  return `${formatDay(start)} – ${formatDay(end)}`;
}

/** "30 days", "7.25 GB", "2 blocks", "1". */
export function quantityText(item: Pick<StatementItem, 'kind' | 'quantity'>): string {
  const unit = QUANTITY_UNITS[item.kind];
  return unit ? `${item.quantity} ${unit}` : item.quantity;
}
