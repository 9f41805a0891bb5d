// A statement's page (the admins' /billing/statements/{id}, the customer's /my/statements/{id} and
// its preview): the page header with Print and, for those who manage billing, "Add credit or charge", then
// the statement document. Printing leaves only the document (statements.css). Props in, callbacks
// out.
import type { ReactNode } from 'react';
import { Button } from 'primereact/button';
import type { StatementWire } from '../../../domain/billing';
import type { PageMeta } from '../../../domain/navigation';
import { ErrorCard } from '../../common/ErrorCard';
import { PageHeader } from '../../common/PageHeader';
import { StatementDocument } from './StatementDocument';
import { STATEMENT_TEXTS as T } from './parts';
import './statements.css';

export interface StatementViewProps {
  meta: PageMeta;
  statement: StatementWire | null;
  loading: boolean;
  error: string | null;
  /** Beside the title: for admins, whose statement it is. */
  subtitle?: ReactNode;
  onRetry(): void;
  onNavigate(url: string): void;
  onPrint(): void;
  /** Administrators only: opens the credit or charge dialog. Absent, the button is not offered. */
  onAddAdjustment?: () => void;
  /** The dialog, when the page has one. */
  children?: ReactNode;
}

export function StatementView(props: StatementViewProps) {
  const { statement } = props;
  return (
    <div className="page statement-page">
      <PageHeader
        title={props.meta.title}
        breadcrumb={props.meta.breadcrumb}
        subtitle={props.subtitle}
        onNavigate={props.onNavigate}
        actions={
          <>
            {props.onAddAdjustment && <Button type="button" label={T.addAdjustment} icon="pi pi-plus" outlined disabled={!statement} onClick={props.onAddAdjustment} />}
            <Button type="button" label={T.print} icon="pi pi-print" disabled={!statement} onClick={props.onPrint} />
          </>
        }
      />
      {props.error && !statement ? (
        <ErrorCard title={T.statementLoadFailed} message={props.error} onRetry={props.onRetry} />
      ) : statement ? (
        <StatementDocument statement={statement} />
      ) : (
        <p role="status">{T.statementLoading}</p>
      )}
      {props.children}
    </div>
  );
}
