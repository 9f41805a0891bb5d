// The bulk actions page (/bulk): the title, the step the bulk action machine is at (the editor,
// the preview, or one operation's progress and results), then the recent bulk actions. Renders
// props and calls callbacks; the route derives them from the machine.
import type { ReactNode } from 'react';
import { Button } from 'primereact/button';
import { PAGE_TITLES } from '../../domain/navigation';
import { ErrorCard } from '../common/ErrorCard';
import { PageHeader } from '../common/PageHeader';
import { BulkEditor, type BulkEditorProps } from './BulkEditor';
import { BulkOperation, type BulkOperationProps } from './BulkOperation';
import { BulkPreview, type BulkPreviewProps } from './BulkPreview';
import { BULK_TEXTS as T } from './parts';
import { RecentBulkActions, type RecentBulkActionsProps } from './RecentBulkActions';
import './bulk.css';

/** Which part of the page shows: a state of the machine, or a few that look alike. */
export type BulkStep = 'editing' | 'previewing' | 'previewFailed' | 'previewed' | 'starting' | 'startFailed' | 'opening' | 'running' | 'finished' | 'loadFailed';

export interface BulkActionsViewProps {
  step: BulkStep;
  /** Whether the user may start a bulk action (bulk:manage); absent: they may. A reader sees the recent ones only. */
  canStart?: boolean;
  editor: BulkEditorProps;
  /** The preview failure (previewFailed), shown under the editor. */
  previewFailure: string | null;
  canRetryPreview: boolean;
  canEdit: boolean;
  onRetryPreview(): void;
  onEdit(): void;
  preview: Omit<BulkPreviewProps, 'canEdit' | 'onEdit'> | null;
  operation: Omit<BulkOperationProps, 'step' | 'results'>;
  results: ReactNode;
  recent: RecentBulkActionsProps;
  onNavigate(url: string): void;
}

export const READ_ONLY_NOTE = 'Your roles let you follow bulk actions, not start them.';

const OPERATION_STEPS: readonly BulkStep[] = ['opening', 'running', 'finished', 'loadFailed'];

export function BulkActionsView(props: BulkActionsViewProps) {
  const meta = PAGE_TITLES['/bulk'];
  const { step } = props;
  return (
    <section className="page bulk-page">
      <PageHeader title={meta.title} breadcrumb={meta.breadcrumb} onNavigate={props.onNavigate} />
      {props.canStart === false && (step === 'editing' || step === 'previewing' || step === 'previewFailed') && <p className="text-muted">{READ_ONLY_NOTE}</p>}
      {props.canStart !== false && (step === 'editing' || step === 'previewing' || step === 'previewFailed') && (
        <>
          <BulkEditor {...props.editor} />
          {step === 'previewFailed' && (
            <PreviewFailed message={props.previewFailure ?? ''} canRetry={props.canRetryPreview} canEdit={props.canEdit} onRetry={props.onRetryPreview} onEdit={props.onEdit} />
          )}
        </>
      )}
      {(step === 'previewed' || step === 'starting' || step === 'startFailed') && props.preview && (
        <BulkPreview {...props.preview} canEdit={props.canEdit} onEdit={props.onEdit} />
      )}
      {OPERATION_STEPS.includes(step) && <BulkOperation step={step as BulkOperationProps['step']} {...props.operation} results={props.results} />}
      <RecentBulkActions {...props.recent} />
    </section>
  );
}

function PreviewFailed(props: { message: string; canRetry: boolean; canEdit: boolean; onRetry(): void; onEdit(): void }) {
  return (
    <div className="bulk-panel">
      <ErrorCard title={T.previewFailed} message={props.message} onRetry={props.onRetry} retryDisabled={!props.canRetry} />
      <div className="bulk-row">
        <Button type="button" label={T.editCsv} icon="pi pi-pencil" outlined disabled={!props.canEdit} onClick={props.onEdit} />
      </div>
    </div>
  );
}
