// The customer's statements (/my/statements, and the admin preview's): number or Draft, cycle,
// total, status, due date and whether it is paid, newest first; a row opens the statement. Above
// them, what the page puts in `account` (the customer's balance and payments). Props in,
// callbacks out.
import type { ReactNode } from 'react';
import { DataTable } from 'primereact/datatable';
import type { StatementSummaryWire } from '../../../domain/billing';
import { formatMoney } from '../../../domain/money';
import { PAGE_TITLES } from '../../../domain/navigation';
import { ErrorCard } from '../../common/ErrorCard';
import { PageHeader } from '../../common/PageHeader';
import { useColumnFolding } from '../../common/useColumnFolding';
import { PaymentStatusTag, STATEMENT_TEXTS as T, StatementStatusTag, formatDay, statementLabel } from './parts';
import './statements.css';
import { monthLabel } from '../../../domain/my-area';

export const MY_STATEMENTS_TABLE = 'Your statements';
export const MY_STATEMENTS_EMPTY = 'No statements yet: the first one is drawn up during your first billing cycle.';

export interface MyStatementsViewProps {
  statements: readonly StatementSummaryWire[] | null;
  loading: boolean;
  error: string | null;
  /** 'YYYY-MM-DD': a statement due before it and not paid is overdue. */
  today: string;
  /** Shown above the statements: the customer's balance and payments, where the area has them. */
  account?: ReactNode;
  onRetry(): void;
  onNavigate(url: string): void;
  onOpen(statementId: string): void;
}

export function MyStatementsView({ statements, loading, error, today, account, onRetry, onNavigate, onOpen }: MyStatementsViewProps) {
  const meta = PAGE_TITLES['/my/statements'];
  const rows = [...(statements ?? [])].sort((a, b) => b.cycle.localeCompare(a.cycle) || a.currency.localeCompare(b.currency));
  const folding = useColumnFolding<StatementSummaryWire>({ rowKey: (s) => s.id, rowName: (s) => `statement ${statementLabel(s)}` });
  return (
    <div className="page">
      <PageHeader title={meta.title} breadcrumb={meta.breadcrumb} onNavigate={onNavigate} />
      {account}
      {/* Below the balance and payments, the statements need a heading of their own. */}
      {account && <h2 className="my-statements-heading">{MY_STATEMENTS_TABLE}</h2>}
      {error && !statements ? (
        <ErrorCard title={T.loadFailed} message={error} onRetry={onRetry} />
      ) : (
        <DataTable
          value={rows}
          loading={loading}
          dataKey="id"
          emptyMessage={MY_STATEMENTS_EMPTY}
          rowClassName={() => 'my-row-link'}
          onRowClick={(event) => onOpen((event.data as StatementSummaryWire).id)}
          pt={{ table: { 'aria-label': MY_STATEMENTS_TABLE } }}
          {...folding.table([
            {
              priority: 'always',
              header: 'Statement',
              body: (s) => (
                <button type="button" className="p-link" onClick={() => onOpen(s.id)}>
                  <strong>{statementLabel(s)}</strong>
                </button>
              ),
            },
            { priority: 'fold', header: 'Cycle', body: (s) => monthLabel(s.cycle) },
            { priority: 'always', header: 'Total', body: (s) => formatMoney(s.totalMinor, s.currency), className: 'statement-number-cell' },
            { priority: 'always', header: 'Status', body: (s) => <StatementStatusTag status={s.status} /> },
            { priority: 'fold', header: 'Due', body: (s) => formatDay(s.dueOn) },
            { priority: 'always', header: 'Payment', body: (s) => <PaymentStatusTag statement={s} today={today} /> },
          ])}
        />
      )}
    </div>
  );
}
