// The per-row results of a finished bulk action: a page of rows at a time (the server pages them)
// with the line, the row's fields, its status and the message, filtered by status, and the same
// filter as a CSV file.
import { useId } from 'react';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { SelectButton } from 'primereact/selectbutton';
import { BULK_ROW_STATUS_LABELS, type BulkKind, type BulkResultRow } from '../../domain/bulk';
import type { Pagination } from '../../domain/customers';
import { DASH } from '../common/format';
import { ErrorCard } from '../common/ErrorCard';
import { ExportButton } from '../common/ExportButton';
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
          <DataTable value={[...props.rows]} dataKey="line" loading={props.loading} emptyMessage={T.noResults} pt={{ table: { 'aria-label': T.resultsTable } }}>
            <Column header={T.line} field="line" style={{ width: '5rem' }} />
            {columns.map((column) => (
              <Column key={column.field} header={columnTitle(column)} body={(row: BulkResultRow) => inputValue(row.input, column)} />
            ))}
            <Column header={T.status} body={(row: BulkResultRow) => <RowStatusTag status={row.status} />} />
            <Column header={T.message} body={(row: BulkResultRow) => row.message ?? DASH} />
          </DataTable>
          <ListPaginator pagination={props.pagination} onPage={props.onPage} />
        </>
      )}
    </section>
  );
}
