// The preview of a file: each row with what it will do or why it will be skipped, the counts,
// Run N rows (when a row can run) and Edit; a refused start says why above the buttons.
import { useId } from 'react';
import { Button } from 'primereact/button';
import { DataTable } from 'primereact/datatable';
import { Message } from 'primereact/message';
import { Tag } from 'primereact/tag';
import { BULK_MESSAGES, BULK_ROWS_PAGE_SIZE, type BulkPreviewRow, type BulkPreviewWire } from '../../domain/bulk';
import { ErrorCard } from '../common/ErrorCard';
import { useColumnFolding, type FoldableColumn } from '../common/useColumnFolding';
import { BULK_TEXTS as T, columnTitle, inputColumns, inputValue } from './parts';

export interface BulkPreviewProps {
  preview: BulkPreviewWire;
  canRun: boolean;
  starting: boolean;
  /** The start's refusal, when it was refused. */
  failure: string | null;
  canEdit: boolean;
  onRun(): void;
  onEdit(): void;
}

function WillHappen({ row }: { row: BulkPreviewRow }) {
  if (row.problem) {
    return (
      <span className="bulk-problem-cell">
        <Tag severity="warning" value={T.skipped} />
        <span>{row.problem}</span>
      </span>
    );
  }
  return <span>{row.action}</span>;
}

export function BulkPreview({ preview, ...props }: BulkPreviewProps) {
  const id = useId();
  const columns = inputColumns(preview.kind);
  const folding = useColumnFolding<BulkPreviewRow>({ rowKey: (row) => String(row.line), rowName: (row) => T.rowName(row.line) });
  return (
    <section className="bulk-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{T.previewTitle}</h2>
      <p className="bulk-counts" role="status">
        {T.counts(preview.ready, preview.problems)}
      </p>
      <DataTable
        value={preview.rows}
        dataKey="line"
        paginator={preview.rows.length > BULK_ROWS_PAGE_SIZE}
        rows={BULK_ROWS_PAGE_SIZE}
        rowClassName={(row: BulkPreviewRow) => (row.problem ? 'bulk-row-problem' : '')}
        pt={{ table: { 'aria-label': T.previewTable } }}
        {...folding.table([
          { priority: 'always', header: T.line, body: (row) => row.line, style: { width: '5rem' } },
          ...columns.map((column): FoldableColumn<BulkPreviewRow> => ({ priority: 'fold', header: columnTitle(column), body: (row) => inputValue(row.input, column) })),
          { priority: 'always', header: T.willHappen, body: (row) => <WillHappen row={row} /> },
        ])}
      />
      {preview.ready === 0 && <Message severity="warn" text={BULK_MESSAGES.nothingToRun} className="bulk-message" />}
      {props.failure && <ErrorCard title={T.startFailed} message={props.failure} />}
      <div className="bulk-row">
        <Button type="button" label={T.editCsv} icon="pi pi-pencil" outlined disabled={!props.canEdit} onClick={props.onEdit} />
        <Button
          type="button"
          label={props.starting ? T.starting : T.run(preview.ready)}
          icon={props.starting ? 'pi pi-spin pi-spinner' : 'pi pi-play'}
          disabled={!props.canRun}
          onClick={props.onRun}
        />
      </div>
    </section>
  );
}
