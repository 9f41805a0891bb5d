// My Requests: the customer's requests with their state and a declined one's reason,
// "New request" and Cancel on a pending one. `readOnly` hides every action (the admins' preview).
// Renders props and calls callbacks; the dialogs are the customer request machine's states.
import { Button } from 'primereact/button';
import { DataTable } from 'primereact/datatable';
import { REQUEST_KIND_LABELS, REQUEST_MESSAGES as M, type CustomerRequestWire } from '../../domain/requests';
import { ErrorCard } from '../common/ErrorCard';
import { useColumnFolding } from '../common/useColumnFolding';
import { AskedCell, LineCell, RequestStatusTag, dateText } from './parts';

export const MY_REQUESTS_LOADING_TEXT = 'Loading your requests...';

export interface MyRequestsViewProps {
  requests: readonly CustomerRequestWire[] | null;
  /** Whether the customer has an active line to ask about. */
  hasLines: boolean;
  loading: boolean;
  error: string | null;
  readOnly?: boolean;
  /** An action is under way: the buttons wait. */
  busy?: boolean;
  onNew(): void;
  onCancel(request: CustomerRequestWire): void;
  onRetry(): void;
}

export function MyRequestsView(props: MyRequestsViewProps) {
  const { requests, readOnly = false, busy = false } = props;
  const folding = useColumnFolding<CustomerRequestWire>({
    rowKey: (r) => r.id,
    rowName: (r) => `${REQUEST_KIND_LABELS[r.kind].toLowerCase()} request on ${r.serviceLineNumber}`,
  });
  return (
    <section className="page requests-page" aria-labelledby="my-requests-title">
      <header className="page-header-row">
        <div>
          <h1 id="my-requests-title">{M.myTitle}</h1>
          <p>{M.myIntro}</p>
        </div>
        {!readOnly && <Button type="button" label={M.newRequest} icon="pi pi-plus" disabled={!props.hasLines || busy || requests === null} onClick={props.onNew} />}
      </header>
      {!readOnly && requests !== null && !props.hasLines && <p>{M.noLines}</p>}
      {props.error ? (
        <ErrorCard title={M.loadFailed} message={props.error} onRetry={props.onRetry} />
      ) : requests === null ? (
        <p role="status">{MY_REQUESTS_LOADING_TEXT}</p>
      ) : (
        <DataTable
          value={[...requests]}
          dataKey="id"
          emptyMessage={M.empty}
          loading={props.loading}
          pt={{ table: { 'aria-label': M.myTitle } }}
          {...folding.table([
            { priority: 'always', header: 'Asked', body: (r) => <AskedCell request={r} /> },
            { priority: 'fold', header: 'Line', body: (r) => <LineCell request={r} /> },
            { priority: 'always', header: 'Status', body: (r) => <RequestStatusTag status={r.status} /> },
            { priority: 'fold', header: 'Reason', body: (r) => r.reason ?? '' },
            { priority: 'fold', header: 'Sent', body: (r) => dateText(r.createdAt) },
            { priority: 'fold', header: 'Decided', body: (r) => dateText(r.decidedAt) },
            !readOnly && {
              priority: 'always',
              header: 'Actions',
              body: (r) =>
                r.status === 'pending' ? (
                  <Button type="button" label="Cancel" size="small" outlined severity="danger" aria-label={`Cancel ${REQUEST_KIND_LABELS[r.kind].toLowerCase()} request on ${r.serviceLineNumber}`} disabled={busy} onClick={() => props.onCancel(r)} />
                ) : null,
            },
          ])}
        />
      )}
    </section>
  );
}
