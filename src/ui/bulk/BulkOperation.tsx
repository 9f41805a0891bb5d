// One bulk action run by the server: its progress while it runs (done of total), its counts once
// done with the results below, or why it could not be read; New bulk action from each.
import { useId, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { ProgressBar } from 'primereact/progressbar';
import { BULK_ROW_STATUS_LABELS, bulkProgress, type BulkOperationWire } from '../../domain/bulk';
import { ErrorCard } from '../common/ErrorCard';
import { formatDateTime } from '../common/format';
import { BULK_TEXTS as T } from './parts';

export type BulkOperationStep = 'opening' | 'running' | 'finished' | 'loadFailed';

export interface BulkOperationProps {
  step: BulkOperationStep;
  /** The last reading of the operation (null while it is first read, or when it could not be). */
  operation: BulkOperationWire | null;
  failure: string | null;
  /** The results table, once the operation is done. */
  results?: ReactNode;
  onRetry(): void;
  onReset(): void;
}

function Summary({ operation }: { operation: BulkOperationWire }) {
  return (
    <dl className="bulk-summary">
      <div>
        <dt>{T.rows}</dt>
        <dd>{operation.total.toLocaleString('en-US')}</dd>
      </div>
      <div>
        <dt>{BULK_ROW_STATUS_LABELS.ok}</dt>
        <dd>{operation.succeeded.toLocaleString('en-US')}</dd>
      </div>
      <div>
        <dt>{BULK_ROW_STATUS_LABELS.failed}</dt>
        <dd>{operation.failed.toLocaleString('en-US')}</dd>
      </div>
      <div>
        <dt>{BULK_ROW_STATUS_LABELS.skipped}</dt>
        <dd>{operation.skipped.toLocaleString('en-US')}</dd>
      </div>
    </dl>
  );
}

export function BulkOperation({ step, operation, failure, results, onRetry, onReset }: BulkOperationProps) {
  const id = useId();
  const newAction = <Button type="button" label={T.newAction} icon="pi pi-plus" outlined onClick={onReset} />;
  if (step === 'opening' || operation === null) {
    return (
      <section className="bulk-panel" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>{T.operationHeading}</h2>
        {step === 'loadFailed' ? (
          <>
            <ErrorCard title={T.loadFailed} message={failure ?? ''} onRetry={onRetry} headingLevel={3} />
            <div className="bulk-row">{newAction}</div>
          </>
        ) : (
          <p role="status">{T.opening}</p>
        )}
      </section>
    );
  }
  return (
    <section className="bulk-panel" aria-labelledby={`${id}-title`}>
      <div className="bulk-row bulk-row-spread">
        <h2 id={`${id}-title`}>{T.operationTitle(operation)}</h2>
        {newAction}
      </div>
      <p className="bulk-started">{T.startedAt(formatDateTime(operation.createdAt))}</p>
      {step === 'loadFailed' && <ErrorCard title={T.loadFailed} message={failure ?? ''} onRetry={onRetry} headingLevel={3} />}
      {operation.status === 'running' ? (
        <div className="bulk-progress">
          <ProgressBar value={bulkProgress(operation)} aria-label={T.progressLabel} />
          <p role="status">
            {T.progress(operation.done, operation.total)} · {T.outcome(operation)}
          </p>
        </div>
      ) : (
        <>
          <Summary operation={operation} />
          {step === 'finished' && results}
        </>
      )}
    </section>
  );
}
