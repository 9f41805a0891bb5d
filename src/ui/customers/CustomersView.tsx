import { memo, useId, useRef, type ReactNode, type SyntheticEvent } from 'react';
import { Button } from 'primereact/button';
import { DataTable, type DataTablePageEvent } from 'primereact/datatable';
import { Menu } from 'primereact/menu';
import type { MenuItem } from 'primereact/menuitem';
import { Tag } from 'primereact/tag';
import { StatCard } from '../common/StatCard';
import { SearchFilterBar } from '../common/SearchFilterBar';
import { ErrorCard } from '../common/ErrorCard';
import { ExportButton } from '../common/ExportButton';
import { useColumnFolding } from '../common/useColumnFolding';
import { useStableCallback } from '../common/useStableCallback';
import { CUSTOMER_SEARCH_MAX_LENGTH,
  CUSTOMER_STATUS_FILTERS,
  customerDisplayName,
  type CustomerListItem,
  type CustomerStats,
  type CustomerStatusFilter,
  type Pagination,
} from '../../domain/customers';
import { PAGE_TITLES } from '../../domain/navigation';
import { PageHeader } from '../common/PageHeader';
import { useNow } from '../common/useNow';
import { count, expiryLabel, formatDateTime, STATUS_SEVERITY, statusOf } from './format';
import './customers.css';

export const SEARCH_PLACEHOLDER = 'Search by name, email or company...';
/** The server reads at most this much of a search. */
export const SEARCH_MAX_LENGTH = CUSTOMER_SEARCH_MAX_LENGTH;

export type CustomerRowAction = 'view' | 'edit' | 'settings' | 'terminals' | 'assign' | 'preview' | 'schedule' | 'block' | 'unblock';
export const CUSTOMER_ROW_ACTIONS: readonly CustomerRowAction[] = ['view', 'edit', 'settings', 'terminals', 'assign', 'preview', 'schedule', 'block', 'unblock'];

export interface CustomersViewProps {
  /** Counts over every customer (the six cards); null until loaded. */
  stats: CustomerStats | null;
  statsLoading: boolean;

  /** The current page of customers (kept on screen while the next one loads). */
  rows: CustomerListItem[];
  /** The paging object of the last answer; null before the first. */
  pagination: Pagination | null;
  /** 1-based page and page size of the query being shown or loaded. */
  page: number;
  pageSize: number;
  /** A page is loading (first load, or a new page, search or filter). */
  loading: boolean;
  /** The load failed: the error card replaces the table. */
  error: string | null;

  /** The search box as typed. */
  searchInput: string;
  status: CustomerStatusFilter;

  onSearchInput(value: string): void;
  onStatusChange(status: CustomerStatusFilter): void;
  onPageChange(page: number): void;
  onRetry(): void;
  /** Add Customer (absent: no button, the user may not create one). */
  onAddCustomer?: () => void;
  /** The row actions the user may take (absent: all of them). */
  rowActions?: readonly CustomerRowAction[];
  /** Export CSV of the search and status filter (absent: no button), and whether one is under way. */
  onExport?: () => void;
  exporting?: boolean;
  onAction(action: CustomerRowAction, customer: CustomerListItem): void;
  onNavigate(url: string): void;
}

const STAT_CARDS: ReadonlyArray<{ key: keyof CustomerStats; title: string; icon: string }> = [
  { key: 'total', title: 'Total Customers', icon: 'pi pi-users' },
  { key: 'active', title: 'Active', icon: 'pi pi-check-circle' },
  { key: 'pending', title: 'Pending', icon: 'pi pi-clock' },
  { key: 'mfaEnabled', title: 'MFA Enabled', icon: 'pi pi-shield' },
  { key: 'blocked', title: 'Blocked', icon: 'pi pi-ban' },
  { key: 'expiringSoon', title: 'Expiring Soon', icon: 'pi pi-calendar-clock' },
];

function RowActions({ customer, allowed, onAction }: { customer: CustomerListItem; allowed: readonly CustomerRowAction[]; onAction: CustomersViewProps['onAction'] }) {
  const menu = useRef<Menu>(null);
  const menuId = useId();
  const name = customerDisplayName(customer);
  const item = (label: string, icon: string, action: CustomerRowAction): MenuItem => ({
    label,
    icon,
    command: () => onAction(action, customer),
  });
  const offered = (action: CustomerRowAction) => allowed.includes(action);
  const block = customer.blockedEnabled
    ? offered('unblock') && item('Unblock Customer', 'pi pi-lock-open', 'unblock')
    : offered('block') && { ...item('Block Customer', 'pi pi-ban', 'block'), className: 'menu-item-danger' };
  const model: MenuItem[] = [
    ...(
      [
        ['View Details', 'pi pi-eye', 'view'],
        ['Edit Customer', 'pi pi-pencil', 'edit'],
        ['Account Settings', 'pi pi-cog', 'settings'],
        ['Manage Terminals', 'pi pi-wifi', 'terminals'],
        ['Assign Terminals', 'pi pi-plus-circle', 'assign'],
        ['View as customer', 'pi pi-user', 'preview'],
        ['Schedule…', 'pi pi-calendar-clock', 'schedule'],
      ] as const
    )
      .filter(([, , action]) => offered(action))
      .map(([label, icon, action]) => item(label, icon, action)),
    ...(block ? [{ separator: true }, block] : []),
  ];
  return (
    <>
      <Button
        type="button"
        icon="pi pi-ellipsis-v"
        rounded
        text
        severity="secondary"
        aria-label={`Actions for ${name}`}
        aria-haspopup="menu"
        aria-controls={menuId}
        onClick={(event: SyntheticEvent) => menu.current?.toggle(event)}
      />
      <Menu id={menuId} ref={menu} model={model} popup aria-label={`Actions for ${name}`} />
    </>
  );
}

function CustomerCell({ customer }: { customer: CustomerListItem }) {
  return (
    <div className="cell-stack">
      <span className="cell-primary">{customer.company || '—'}</span>
      <span className="cell-secondary cell-mono">{customer.uuid}</span>
    </div>
  );
}

function ContactCell({ customer }: { customer: CustomerListItem }) {
  return (
    <div className="cell-stack">
      <span className="cell-primary">{customerDisplayName(customer)}</span>
      <span className="cell-secondary">{customer.email}</span>
    </div>
  );
}

export function StatusCell({ customer }: { customer: CustomerListItem }) {
  const status = statusOf(customer);
  return (
    <div className="cell-stack">
      <Tag value={status} severity={STATUS_SEVERITY[status]} rounded className="status-tag" />
      {customer.blockedEnabled && customer.blockedReason && (
        <span className="cell-secondary blocked-reason" title={customer.blockedReason}>
          {customer.blockedReason}
        </span>
      )}
    </div>
  );
}

export function ExpiryCell({ accountExpiresAt, now }: { accountExpiresAt: string | null; now: number }) {
  const expiry = expiryLabel(accountExpiresAt, now);
  if (expiry.state === 'expired' || expiry.state === 'expiringSoon') {
    return (
      <div className="cell-stack">
        <Tag value={expiry.label} severity={expiry.state === 'expired' ? 'danger' : 'warning'} rounded />
        {expiry.detail && <span className="cell-secondary">{expiry.detail}</span>}
      </div>
    );
  }
  return <span className={expiry.state === 'none' ? 'cell-secondary' : undefined}>{expiry.label}</span>;
}

function MfaCell({ enabled }: { enabled: boolean }) {
  return <Tag value={enabled ? 'Enabled' : 'Disabled'} severity={enabled ? 'success' : 'secondary'} rounded />;
}


function Caption({ children }: { children: ReactNode }) {
  return <p className="customers-caption">{children}</p>;
}

interface CustomersTableProps {
  rows: CustomerListItem[];
  page: number;
  pageSize: number;
  total: number;
  loading: boolean;
  filtered: boolean;
  onPageChange(page: number): void;
  rowActions: readonly CustomerRowAction[];
  onAction: CustomersViewProps['onAction'];
}

/** The page of customers; renders again only when what it shows changes, not at each key typed above it. */
const CustomersTable = memo(function CustomersTable(props: CustomersTableProps) {
  const now = useNow();
  const folding = useColumnFolding<CustomerListItem>({ rowKey: (c) => c.uuid, rowName: customerDisplayName });
  const { rows } = props;
  return (
    <DataTable
      value={rows}
      dataKey="uuid"
      lazy
      paginator
      first={(props.page - 1) * props.pageSize}
      rows={props.pageSize}
      totalRecords={props.total}
      onPage={(event: DataTablePageEvent) => props.onPageChange((event.page ?? Math.floor(event.first / event.rows)) + 1)}
      loading={props.loading}
      emptyMessage={props.filtered ? 'No customers match the search or filter' : 'No customers yet'}
      className="customers-table"
      pt={{ table: { 'aria-label': 'Customers' } }}
      {...folding.table([
        { priority: 'always', header: 'Customer', body: (c) => <CustomerCell customer={c} /> },
        { priority: 'fold', header: 'Contact', body: (c) => <ContactCell customer={c} /> },
        { priority: 'always', header: 'Status', body: (c) => <StatusCell customer={c} /> },
        { priority: 'fold', header: 'MFA', body: (c) => <MfaCell enabled={c.mfaEnabled} /> },
        { priority: 'fold', header: 'Account Expires', body: (c) => <ExpiryCell accountExpiresAt={c.accountExpiresAt} now={now} /> },
        { priority: 'fold', header: 'Last Login', body: (c) => formatDateTime(c.lastLogin, 'Never') },
        { priority: 'always', header: 'Actions', body: (c) => <RowActions customer={c} allowed={props.rowActions} onAction={props.onAction} />, className: 'customers-actions-cell' },
      ])}
    />
  );
});

/** "Customer Management" (spec section 2 "Customers"). Renders props, calls callbacks. */
export function CustomersView(props: CustomersViewProps) {
  const meta = PAGE_TITLES['/customers'];
  const { pagination, rows, stats } = props;
  const onPageChange = useStableCallback(props.onPageChange);
  const onAction = useStableCallback(props.onAction);
  const total = pagination?.total ?? null;
  const filtered = props.searchInput.trim() !== '' || props.status !== 'all';

  return (
    <div className="page customers-page">
      <PageHeader
        title={meta.title}
        breadcrumb={meta.breadcrumb}
        subtitle={total === null ? 'Enterprise customer accounts' : `${count(total)} ${total === 1 ? 'customer' : 'customers'} in total`}
        actions={
          <>
            {props.onExport && <ExportButton exporting={props.exporting === true} onExport={props.onExport} />}
            {props.onAddCustomer && <Button type="button" label="Add Customer" icon="pi pi-plus" onClick={props.onAddCustomer} />}
          </>
        }
        onNavigate={props.onNavigate}
      />

      <div className="customers-stat-grid" aria-label="Customer statistics" role="group">
        {STAT_CARDS.map((card) => (
          <StatCard key={card.key} title={card.title} icon={card.icon} value={stats ? count(stats[card.key]) : null} loading={props.statsLoading} />
        ))}
      </div>

      <section className="list-card customers-list" aria-label="Customers">
        <SearchFilterBar
          searchLabel="Search customers"
          placeholder={SEARCH_PLACEHOLDER}
          maxLength={SEARCH_MAX_LENGTH}
          search={props.searchInput}
          onSearch={props.onSearchInput}
          status={props.status}
          options={CUSTOMER_STATUS_FILTERS}
          onStatus={props.onStatusChange}
        />

        {props.error ? (
          <ErrorCard title="Error loading customers" message={props.error} onRetry={props.onRetry} />
        ) : props.loading && rows.length === 0 ? (
          <p className="customers-loading" role="status">
            <i className="pi pi-spin pi-spinner" aria-hidden="true" /> Loading customers...
          </p>
        ) : (
          <>
            <Caption>
              {props.loading ? (
                <span role="status">Loading customers...</span>
              ) : (
                `Showing ${count(rows.length)} of ${count(total ?? rows.length)} customers`
              )}
            </Caption>
            <CustomersTable
              rows={rows}
              page={props.page}
              pageSize={props.pageSize}
              total={total ?? rows.length}
              loading={props.loading}
              filtered={filtered}
              onPageChange={onPageChange}
              rowActions={props.rowActions ?? CUSTOMER_ROW_ACTIONS}
              onAction={onAction}
            />
          </>
        )}
      </section>
    </div>
  );
}
