// Statements (/billing/statements, admin): every customer's statements of one cycle, by status,
// search and (from a customer's page) one customer; the filtered totals per currency above the
// table; paging; and Export CSV of the same filter. Composes the list pages' parts (page header,
// stat cards, search and filter bar, labelled select, paginator). Each closed statement shows its
// due date and whether it is paid (in red once overdue). Renders props, calls callbacks.
import { Button } from 'primereact/button';
import { DataTable } from 'primereact/datatable';
import type { StatementListWire, StatementStatus, StatementSummaryWire } from '../../../domain/billing';
import type { Pagination } from '../../../domain/customers';
import { formatMoney } from '../../../domain/money';
import { PAGE_TITLES } from '../../../domain/navigation';
import { ErrorCard } from '../../common/ErrorCard';
import { count, formatDateTime } from '../../common/format';
import { ListPaginator } from '../../common/ListPaginator';
import { NavLink } from '../../common/NavLink';
import { ExportButton } from '../../common/ExportButton';
import { useColumnFolding } from '../../common/useColumnFolding';
import { PageHeader } from '../../common/PageHeader';
import { SearchFilterBar } from '../../common/SearchFilterBar';
import { StatCard } from '../../common/StatCard';
import { LabelledSelect } from '../../requests/LabelledSelect';
import { PaymentStatusTag, STATEMENT_TEXTS as T, StatementStatusTag, formatDay, statementLabel } from './parts';
import { STATEMENT_SEARCH_MAX_LENGTH } from './search';
import './statements.css';
import { monthLabel } from '../../../domain/my-area';

export type StatementStatusFilter = StatementStatus | 'all';

export const STATEMENTS_SEARCH_LABEL = 'Search statements';
export const STATEMENTS_SEARCH_PLACEHOLDER = 'Customer, email or number';
export const STATUS_OPTIONS: readonly { value: StatementStatusFilter; label: string }[] = [
  { value: 'all', label: 'All statuses' },
  { value: 'draft', label: 'Draft' },
  { value: 'closed', label: 'Closed' },
];

export interface StatementsViewProps {
  statements: readonly StatementSummaryWire[];
  pagination: Pagination | null;
  totals: StatementListWire['totals'] | null;
  cycles: StatementListWire['cycles'];
  /** The cycle shown; null until the first answer names one. */
  cycle: string | null;
  status: StatementStatusFilter;
  /** The search box as typed. */
  search: string;
  /** The one customer the list is narrowed to (from ?customer=), with their name once a row tells it. */
  customer: { uuid: string; name: string | null } | null;
  loading: boolean;
  error: string | null;
  exporting: boolean;
  /** 'YYYY-MM-DD': a statement due before it and not paid is overdue. */
  today: string;
  onCycle(cycle: string): void;
  onStatus(status: StatementStatusFilter): void;
  onSearch(text: string): void;
  onClearCustomer(): void;
  onPage(page: number): void;
  onRetry(): void;
  onExport(): void;
  onNavigate(url: string): void;
}

const money = (minor: number, s: StatementSummaryWire) => formatMoney(minor, s.currency);
export const statementUrl = (id: string) => `/billing/statements/${encodeURIComponent(id)}`;

export function cycleOptions(cycles: StatementListWire['cycles'], shown: string | null) {
  const options = cycles.map(({ cycle, status }) => ({ value: cycle, label: status === 'open' ? `${monthLabel(cycle)} (open)` : monthLabel(cycle) }));
  // A cycle from the address with no statements yet is still the one shown.
  if (shown && !cycles.some((c) => c.cycle === shown)) options.unshift({ value: shown, label: monthLabel(shown) });
  return options;
}

export function StatementsView(props: StatementsViewProps) {
  const meta = PAGE_TITLES['/billing/statements'];
  const { pagination, totals } = props;
  const filtered = props.search.trim() !== '' || props.status !== 'all' || props.customer !== null;
  const folding = useColumnFolding<StatementSummaryWire>({ rowKey: (s) => s.id, rowName: (s) => `statement ${statementLabel(s)} of ${s.customerName}` });
  return (
    <div className="page statements-page">
      <PageHeader
        title={meta.title}
        breadcrumb={meta.breadcrumb}
        subtitle={props.cycle ? `${monthLabel(props.cycle)}${pagination ? `: ${count(pagination.total)} ${pagination.total === 1 ? 'statement' : 'statements'}` : ''}` : undefined}
        actions={
<ExportButton exporting={props.exporting} disabled={props.cycle === null} onExport={props.onExport} />
        }
        onNavigate={props.onNavigate}
      />

      <div className="statements-totals" role="group" aria-label="Totals of the statements shown">
        {totals === null ? (
          <StatCard title="Total" icon="pi pi-wallet" loading value={null} />
        ) : totals.length === 0 ? (
          <StatCard title="Total" icon="pi pi-wallet" loading={false} value={count(0)}>
            <p className="stat-card-hint">{T.noStatements}</p>
          </StatCard>
        ) : (
          totals.map((total) => (
            <StatCard key={total.currency} title={`Total ${total.currency}`} icon="pi pi-wallet" loading={false} value={formatMoney(total.totalMinor, total.currency)}>
              <p className="stat-card-hint">
                {count(total.statements)} {total.statements === 1 ? 'statement' : 'statements'}
              </p>
            </StatCard>
          ))
        )}
      </div>

      <section className="list-card" aria-label={T.listTitle}>
        <div className="statements-filters">
          <LabelledSelect label="Cycle" value={props.cycle} placeholder="Choose a cycle" options={cycleOptions(props.cycles, props.cycle)} onChange={props.onCycle} />
          <SearchFilterBar
            searchLabel={STATEMENTS_SEARCH_LABEL}
            placeholder={STATEMENTS_SEARCH_PLACEHOLDER}
            maxLength={STATEMENT_SEARCH_MAX_LENGTH}
            search={props.search}
            onSearch={props.onSearch}
            status={props.status}
            options={STATUS_OPTIONS}
            onStatus={props.onStatus}
          />
        </div>
        {props.customer && (
          <p className="statements-customer-filter">
            Only the statements of <strong>{props.customer.name ?? 'one customer'}</strong>{' '}
            <Button type="button" label="Show every customer" icon="pi pi-times" text size="small" onClick={props.onClearCustomer} />
          </p>
        )}

        {props.error ? (
          <ErrorCard title={T.loadFailed} message={props.error} onRetry={props.onRetry} />
        ) : pagination === null ? (
          <p role="status">{T.loading}</p>
        ) : (
          <>
            <DataTable
              value={[...props.statements]}
              dataKey="id"
              loading={props.loading}
              emptyMessage={filtered ? T.noStatements : T.noneYet}
              className="statements-table"
              pt={{ table: { 'aria-label': T.listTitle } }}
              {...folding.table([
                {
                  priority: 'always',
                  header: 'Number',
                  body: (s) => (
                    <NavLink url={statementUrl(s.id)} onNavigate={props.onNavigate} aria-label={`Open statement ${statementLabel(s)} of ${s.customerName}`}>
                      {statementLabel(s)}
                    </NavLink>
                  ),
                },
                {
                  priority: 'fold',
                  header: 'Customer',
                  body: (s) => (
                    <span>
                      <NavLink url={`/customer/terminals/${encodeURIComponent(s.customerId)}`} onNavigate={props.onNavigate}>
                        {s.customerName}
                      </NavLink>
                      <br />
                      <small className="cell-secondary">{s.customerEmail}</small>
                    </span>
                  ),
                },
                { priority: 'fold', header: 'Cycle', body: (s) => monthLabel(s.cycle) },
                { priority: 'fold', header: 'Service lines', body: (s) => count(s.serviceLines), className: 'statement-number-cell' },
                { priority: 'fold', header: 'Subtotal', body: (s) => money(s.subtotalMinor, s), className: 'statement-number-cell' },
                { priority: 'fold', header: 'Discount', body: (s) => money(s.discountMinor, s), className: 'statement-number-cell' },
                { priority: 'fold', header: 'Corrections', body: (s) => money(s.adjustmentMinor, s), className: 'statement-number-cell' },
                { priority: 'always', header: 'Total', body: (s) => <strong>{money(s.totalMinor, s)}</strong>, className: 'statement-number-cell' },
                {
                  priority: 'always',
                  header: 'Status',
                  body: (s) => (
                    <span>
                      <StatementStatusTag status={s.status} />
                      <br />
                      <small className="cell-secondary">{s.closedAt ? `Closed ${formatDateTime(s.closedAt)}` : `Updated ${formatDateTime(s.updatedAt)}`}</small>
                    </span>
                  ),
                },
                {
                  priority: 'always',
                  header: 'Payment',
                  // The due date under the payment's tag: one column, so that the list fits a laptop's width.
                  body: (s) => (
                    <span>
                      <PaymentStatusTag statement={s} today={props.today} />
                      {s.dueOn && (
                        <>
                          <br />
                          <small className="cell-secondary">Due {formatDay(s.dueOn)}</small>
                        </>
                      )}
                    </span>
                  ),
                },
              ])}
            />
            <ListPaginator pagination={pagination} onPage={props.onPage} />
          </>
        )}
      </section>
    </div>
  );
}
