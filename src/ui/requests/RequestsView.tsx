// Customer Requests (admin): the queue by status (pending first), with the counts, paging,
// and Approve / Decline on pending rows. Renders props and calls callbacks.
import { Button } from 'primereact/button';
import { DataTable } from 'primereact/datatable';
import { SelectButton } from 'primereact/selectbutton';
import type { Pagination } from '../../domain/customers';
import type { ProviderAccountRef } from '../../domain/provider-accounts';
import { REQUEST_MESSAGES as M, REQUEST_STATUS_FILTERS, REQUEST_STATUS_LABELS, type QueuedRequestWire, type RequestCounts, type RequestStatusFilter } from '../../domain/requests';
import { AccountPicker } from '../common/AccountPicker';
import { ErrorCard } from '../common/ErrorCard';
import { DASH } from '../common/format';
import { useColumnFolding } from '../common/useColumnFolding';
import { AskedCell, LineCell, RequestStatusTag, dateText } from './parts';
import { ListPaginator } from '../common/ListPaginator';

export const QUEUE_LOADING_TEXT = 'Loading requests...';

export interface RequestsViewProps {
  requests: readonly QueuedRequestWire[];
  pagination: Pagination | null;
  counts: RequestCounts | null;
  status: RequestStatusFilter;
  loading: boolean;
  error: string | null;
  /** A decision is under way: the row buttons wait. */
  busy: boolean;
  readOnly?: boolean;
  /**
   * The provider accounts, given when the portal holds more than one: the Account filter and
   * column show (absent: neither, and the page looks as it does with one account).
   */
  accounts?: readonly ProviderAccountRef[];
  /** The Account filter's account; null for all of them. */
  account?: number | null;
  onAccount?: (id: number | null) => void;
  onStatus(status: RequestStatusFilter): void;
  onPage(page: number): void;
  onRetry(): void;
  onApprove(request: QueuedRequestWire): void;
  onDecline(request: QueuedRequestWire): void;
}

const filterLabel = (status: RequestStatusFilter, counts: RequestCounts | null) => {
  if (status === 'all') return 'All';
  return counts ? `${REQUEST_STATUS_LABELS[status]} (${counts[status]})` : REQUEST_STATUS_LABELS[status];
};

export function RequestsView(props: RequestsViewProps) {
  const { pagination, readOnly = false, accounts } = props;
  const folding = useColumnFolding<QueuedRequestWire>({ rowKey: (r) => r.id, rowName: (r) => `request of ${r.customer.name} on ${r.serviceLineNumber}` });
  return (
    <section className="page requests-page" aria-labelledby="requests-title">
      <header className="page-header-row">
        <h1 id="requests-title">{M.queueTitle}</h1>
      </header>
      <SelectButton
        aria-label="Status"
        value={props.status}
        allowEmpty={false}
        options={REQUEST_STATUS_FILTERS.map((value) => ({ label: filterLabel(value, props.counts), value }))}
        onChange={(e) => {
          if (e.value) props.onStatus(e.value as RequestStatusFilter);
        }}
      />
      {accounts && props.onAccount && (
        <div className="list-toolbar" role="search">
          <AccountPicker accounts={accounts} value={props.account ?? null} onChange={props.onAccount} allLabel="All accounts" hideLabel className="list-status" />
        </div>
      )}
      {props.error ? (
        <ErrorCard title={M.loadFailed} message={props.error} onRetry={props.onRetry} />
      ) : pagination === null ? (
        <p role="status">{QUEUE_LOADING_TEXT}</p>
      ) : (
        <>
          {/* The Account column arrives after the rows: PrimeReact keeps each cell by its place, so
              the table starts afresh with it. */}
          <DataTable
            key={accounts ? 'accounts' : 'one-account'}
            value={[...props.requests]}
            dataKey="id"
            emptyMessage={M.queueEmpty}
            loading={props.loading}
            pt={{ table: { 'aria-label': M.queueTitle } }}
            {...folding.table([
              { priority: 'always', header: 'Customer', body: (r) => (<span>{r.customer.name}<br /><small>{r.customer.company}</small></span>) },
              { priority: 'fold', header: 'Line', body: (r) => <LineCell request={r} /> },
              // A request whose line is no longer known has no account: a dash.
              accounts && { priority: 'fold', header: 'Account', body: (r) => r.accountName ?? DASH },
              { priority: 'fold', header: 'Asked', body: (r) => <AskedCell request={r} /> },
              { priority: 'always', header: 'Status', body: (r) => <RequestStatusTag status={r.status} /> },
              { priority: 'fold', header: 'Sent', body: (r) => dateText(r.createdAt) },
              { priority: 'fold', header: 'Decided', body: (r) => (r.decidedAt ? `${dateText(r.decidedAt)}${r.decidedBy ? ` by ${r.decidedBy}` : ''}${r.reason ? `: ${r.reason}` : ''}` : '—') },
              !readOnly && {
                priority: 'always',
                header: 'Actions',
                body: (r) =>
                  r.status === 'pending' ? (
                    <span className="row-actions">
                      <Button type="button" label="Approve" size="small" aria-label={`Approve request of ${r.customer.name} on ${r.serviceLineNumber}`} disabled={props.busy} onClick={() => props.onApprove(r)} />
                      <Button type="button" label="Decline" size="small" outlined severity="danger" aria-label={`Decline request of ${r.customer.name} on ${r.serviceLineNumber}`} disabled={props.busy} onClick={() => props.onDecline(r)} />
                    </span>
                  ) : null,
              },
            ])}
          />
          <ListPaginator pagination={pagination} onPage={props.onPage} />
        </>
      )}
    </section>
  );
}
