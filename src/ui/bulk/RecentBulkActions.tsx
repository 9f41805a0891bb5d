// The latest bulk actions (newest first): when, which action, how many rows, how they ended, and
// Open, which shows that operation's progress or results above. With more than one provider account,
// the accounts whose lines each run named (none for the customer actions, which name no line).
import { useId } from 'react';
import { Button } from 'primereact/button';
import { DataTable } from 'primereact/datatable';
import { Tag } from 'primereact/tag';
import { BULK_KIND_LABELS, type BulkOperationWire } from '../../domain/bulk';
import { ErrorCard } from '../common/ErrorCard';
import { DASH, formatDateTime } from '../common/format';
import { useColumnFolding } from '../common/useColumnFolding';
import { BULK_TEXTS as T } from './parts';

export interface RecentBulkActionsProps {
  operations: readonly BulkOperationWire[] | null;
  error: string | null;
  /** The operation shown above, marked in the list. */
  shown: string | null;
  canOpen: boolean;
  /** The portal holds more than one provider account: an Accounts column names each run's. */
  showAccounts?: boolean;
  onOpen(id: string): void;
  onRetry(): void;
}

/** A row as the table shows it: what may change about it is in the row, as the table re-renders a cell only when its row changes. */
type RecentRow = BulkOperationWire & { openable: boolean; shown: boolean };

export function RecentBulkActions(props: RecentBulkActionsProps) {
  const id = useId();
  const folding = useColumnFolding<RecentRow>({ rowKey: (row) => row.id, rowName: (row) => `${BULK_KIND_LABELS[row.kind]} of ${formatDateTime(row.createdAt)}` });
  const rows: RecentRow[] | null = props.operations && props.operations.map((operation) => ({ ...operation, openable: props.canOpen, shown: operation.id === props.shown }));
  return (
    <section className="bulk-panel bulk-recent" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{T.recentTitle}</h2>
      {props.error ? (
        <ErrorCard title={T.recentFailed} message={props.error} onRetry={props.onRetry} headingLevel={3} />
      ) : rows === null ? (
        <p role="status">{T.recentLoading}</p>
      ) : (
        // The Accounts column may arrive after the rows: PrimeReact keeps each cell by its place, so
        // the table starts afresh with it.
        <DataTable
          key={props.showAccounts ? 'accounts' : 'one-account'}
          value={rows}
          dataKey="id"
          emptyMessage={T.recentEmpty}
          rowClassName={(row: RecentRow) => (row.shown ? 'bulk-row-shown' : '')}
          pt={{ table: { 'aria-label': T.recentTable } }}
          {...folding.table([
            { priority: 'always', header: T.started, body: (operation) => <time dateTime={operation.createdAt}>{formatDateTime(operation.createdAt)}</time> },
            { priority: 'always', header: T.actionLabel, body: (operation) => BULK_KIND_LABELS[operation.kind] },
            { priority: 'fold', header: T.rows, body: (operation) => operation.total.toLocaleString('en-US') },
            props.showAccounts === true && {
              priority: 'fold',
              header: 'Accounts',
              body: (operation) => (operation.accounts && operation.accounts.length > 0 ? operation.accounts.map((a) => a.name).join(', ') : DASH),
            },
            { priority: 'fold', header: T.result, body: (operation) => T.outcome(operation) },
            {
              priority: 'always',
              header: T.status,
              body: (operation) => <Tag severity={operation.status === 'done' ? 'success' : 'info'} value={operation.status === 'done' ? T.done : T.running} />,
            },
            {
              priority: 'always',
              header: <span className="sr-only">{T.open}</span>,
              body: (row) => (
                <Button
                  type="button"
                  label={T.open}
                  text
                  disabled={!row.openable}
                  aria-label={T.openLabel(row, formatDateTime(row.createdAt))}
                  aria-current={row.shown ? 'true' : undefined}
                  onClick={() => props.onOpen(row.id)}
                />
              ),
            },
          ])}
        />
      )}
    </section>
  );
}
