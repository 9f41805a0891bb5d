// The per-row results of a finished bulk action: a page of rows at a time (the server pages them)
// with the line, the row's fields, its status and the message, filtered by status, and the same
// filter as a CSV file.
import { useId } from 'react';
import { DataTable } from 'primereact/datatable';
import { SelectButton } from 'primereact/selectbutton';
import { BULK_ROW_STATUS_LABELS, type BulkKind, type BulkResultRow } from '../../domain/bulk';
import type { Pagination } from '../../domain/customers';
import { DASH } from '../common/format';
import { ErrorCard } from '../common/ErrorCard';
import { ExportButton } from '../common/ExportButton';
import { useColumnFolding, type FoldableColumn } from '../common/useColumnFolding';
import { ListPaginator } from '../common/ListPaginator';
import { BULK_TEXTS as T, columnTitle, inputColumns, inputValue, RowStatusTag } from './parts';

export const BULK_RESULT_FILTERS = ['all', 'ok', 'failed', 'skipped'] as const;
export type BulkResultFilter = (typeof BULK_RESULT_FILTERS)[number];
const FILTER_OPTIONS = BULK_RESULT_FILTERS.map((value) => ({ value, label: value === 'all' ? 'All' : BULK_ROW_STATUS_LABELS[value] }));

export interface BulkResultsProps {
  kind: BulkKind;
  rows: readonly BulkResultRow[];
  pagination: Pagination | null;
  status: BulkResultFilter;
  loading: boolean;
  error: string | null;
  exporting: boolean;
  onStatus(status: BulkResultFilter): void;
  onPage(page: number): void;
  onRetry(): void;
  onExport(): void;
}

export function BulkResults(props: BulkResultsProps) {
  const id = useId();
  const columns = inputColumns(props.kind);
  const folding = useColumnFolding<BulkResultRow>({ rowKey: (row) => String(row.line), rowName: (row) => T.rowName(row.line) });
  return (
    <section className="bulk-results" aria-labelledby={`${id}-title`}>
      <div className="bulk-row bulk-row-spread">
        <h3 id={`${id}-title`}>{T.resultsTitle}</h3>
        <ExportButton exporting={props.exporting} onExport={props.onExport} />
      </div>
      <SelectButton
        aria-label={T.statusFilter}
        value={props.status}
        allowEmpty={false}
        options={FILTER_OPTIONS}
        optionLabel="label"
        optionValue="value"
        onChange={(event) => {
          if (event.value) props.onStatus(event.value as BulkResultFilter);
        }}
      />
      {props.error ? (
        <ErrorCard title={T.resultsFailed} message={props.error} onRetry={props.onRetry} headingLevel={3} />
      ) : props.pagination === null ? (
        <p role="status">{T.loadingResults}</p>
      ) : (
        <>
          <DataTable
            value={[...props.rows]}
            dataKey="line"
            loading={props.loading}
            emptyMessage={T.noResults}
            pt={{ table: { 'aria-label': T.resultsTable } }}
            {...folding.table([
              { priority: 'always', header: T.line, body: (row) => row.line, style: { width: '5rem' } },
              // On a phone the row's input folds: its line, status and message say what happened.
              ...columns.map((column): FoldableColumn<BulkResultRow> => ({ priority: 'fold', header: columnTitle(column), body: (row) => inputValue(row.input, column) })),
              { priority: 'always', header: T.status, body: (row) => <RowStatusTag status={row.status} /> },
              { priority: 'always', header: T.message, body: (row) => row.message ?? DASH },
            ])}
          />
          <ListPaginator pagination={props.pagination} onPage={props.onPage} />
        </>
      )}
    </section>
  );
}
