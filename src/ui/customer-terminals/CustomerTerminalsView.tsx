// "Customer Terminal Usage" (spec section 2 "Customer terminal usage"): one customer's terminals
// with their usage in the chosen month. Renders props and calls callbacks: the server searches,
// filters, sorts and pages the table, and counts the summary cards. A customer may hold lines of
// several provider accounts: with more than one account in the portal, an Account filter and column.
import { memo, useId, type MouseEvent, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { DataTable, type DataTablePageEvent, type DataTableRowClickEvent, type DataTableSortEvent } from 'primereact/datatable';
import { ProgressBar } from 'primereact/progressbar';
import { Skeleton } from 'primereact/skeleton';
import { Tag } from 'primereact/tag';
import { customerDisplayName } from '../../domain/customers';
import {
  ASSIGN_MESSAGES,
  CUSTOMER_USAGE_MESSAGES,
  CUSTOMER_USAGE_PAGE_SIZE,
  CUSTOMER_USAGE_SORT_FIELDS,
  CUSTOMER_USAGE_STATUS_OPTIONS,
  formatCustomerUsage,
  recordOverage,
  recordPercentage,
  recordRemaining,
  usageBarColour,
  type CustomerDailyUsage,
  type CustomerTerminalStatus,
  type CustomerUsageSort,
  type CustomerUsageSortField,
  type CustomerUsageStatusFilter,
  type CustomerUsageSummary,
  type TerminalUsageRecord,
} from '../../domain/customer-terminals';
import type { Pagination } from '../../domain/customers';
import { PAGE_TITLES } from '../../domain/navigation';
import type { ProviderAccountRef } from '../../domain/provider-accounts';
import { barPercent, TERMINAL_SEARCH_MAX_LENGTH } from '../../domain/terminals';
import { AccountPicker } from '../common/AccountPicker';
import { MonthSelect } from '../common/MonthSelect';
import { StatCard } from '../common/StatCard';
import { DailyUsageChart } from '../common/DailyUsageChart';
import { ErrorCard } from '../common/ErrorCard';
import { ExportButton } from '../common/ExportButton';
import { useColumnFolding } from '../common/useColumnFolding';
import { useStableCallback } from '../common/useStableCallback';
import { PageHeader } from '../common/PageHeader';
import { SearchFilterBar } from '../common/SearchFilterBar';
import { CustomerDialog } from '../customers/CustomerDialog';
import { calendarDay, count, DASH, percent } from '../terminals/format';
import '../customers/customers.css';
import './customer-terminals.css';

export const USAGE_LOADING_TEXT = 'Loading terminal usage...';
export const CUSTOMER_LOADING_TEXT = 'Loading customer...';
export const UNASSIGN_DIALOG_TITLE = 'Unassign Terminal';
export const UNASSIGNING_TEXT = 'Unassigning...';

/** The customer as the page shows it (name, company and email beneath). */
export interface UsagePageCustomer {
  uuid: string;
  name: string;
  company?: string | null;
  email?: string | null;
}

export interface CustomerTerminalsViewProps {
  /** From the URL; missing or blank shows only the "required" error card. */
  customerUuid: string | null | undefined;
  /** null until loaded. */
  customer: UsagePageCustomer | null;
  customerLoading: boolean;
  /** The customer could not be loaded: the error card replaces the page. */
  customerError: string | null;

  /** Newest first (value `2025-3`, label "March 2025"). */
  months: readonly { value: string; label: string }[];
  month: string;
  /** The page of the table on screen. */
  records: readonly TerminalUsageRecord[];
  /** Of the rows matching the search and filter; null before a load. */
  pagination: Pagination | null;
  /** The summary cards, over every terminal of the customer; null before a load (zeros shown). */
  summary: CustomerUsageSummary | null;
  /** One entry per day of the month, for the chart. */
  daily: readonly CustomerDailyUsage[];
  /** The month's usage is loading with nothing to show yet. */
  usageLoading: boolean;
  /** Reloading in place: the rows stay on screen. */
  refreshing: boolean;

  /** The search box as typed. */
  search: string;
  status: CustomerUsageStatusFilter;
  sort: CustomerUsageSort | null;
  /**
   * The provider accounts, given when the portal holds more than one: the Account filter and
   * column show (absent: neither, and the page looks as it does with one account).
   */
  accounts?: readonly ProviderAccountRef[];
  /** The Account filter's account; null for all of them. */
  account?: number | null;
  onAccount?: (id: number | null) => void;
  /** The line waiting for confirmation to be unassigned; `busy` while the request runs. */
  unassign: { serviceLineNumber: string; busy: boolean } | null;

  onMonth(value: string): void;
  onSearch(text: string): void;
  /** 1-based. */
  onPage(page: number): void;
  onStatus(status: CustomerUsageStatusFilter): void;
  onSort(sort: CustomerUsageSort | null): void;
  onRefresh(): void;
  /** Export CSV of the month, search, status and sort (absent: no button), and whether one is under way. */
  onExport?: () => void;
  exporting?: boolean;
  onAssign(): void;
  /** Assign Terminals and each row's Unassign are offered (terminals:manage); absent: they are. */
  canAssign?: boolean;
  /** "Add Terminal": the activation wizard for this customer; absent (no button) for a user who may not activate. */
  onAddTerminal?: () => void;
  /** A row was clicked (the route opens the Terminal Details dialog). */
  onOpen(record: TerminalUsageRecord): void;
  onUnassign(serviceLineNumber: string): void;
  onConfirmUnassign(): void;
  onCancelUnassign(): void;
  /** Try loading the customer again. */
  onRetry(): void;
  /** Breadcrumb links. */
  onNavigate(url: string): void;
}

const STATUS_SEVERITY: Record<CustomerTerminalStatus, 'success' | 'danger' | 'warning' | 'info'> = {
  Active: 'success',
  Suspended: 'danger',
  Pending: 'warning',
  Maintenance: 'info',
};

const isSortField = (value: unknown): value is CustomerUsageSortField =>
  typeof value === 'string' && (CUSTOMER_USAGE_SORT_FIELDS as readonly string[]).includes(value);

// ---- Header --------------------------------------------------------------------------------

function CustomerLine({ customer, loading }: { customer: UsagePageCustomer | null; loading: boolean }) {
  if (loading || !customer) {
    return (
      <span role="status" className="usage-customer-loading">
        <i className="pi pi-spin pi-spinner" aria-hidden="true" /> {CUSTOMER_LOADING_TEXT}
      </span>
    );
  }
  const details = [customer.company, customer.email].filter((part): part is string => !!part && part.trim() !== '');
  return (
    <span className="cell-stack usage-customer">
      <span className="cell-primary usage-customer-name">{customerDisplayName(customer)}</span>
      {details.length > 0 && <span className="cell-secondary">{details.join(' · ')}</span>}
    </span>
  );
}

function MonthPicker(props: Pick<CustomerTerminalsViewProps, 'months' | 'month' | 'onMonth'>) {
  return (
    <span className="usage-month">
      <MonthSelect months={props.months} month={props.month} onMonth={props.onMonth} />
    </span>
  );
}

// ---- Summary and chart ---------------------------------------------------------------------

const NO_SUMMARY: CustomerUsageSummary = { totalTerminals: 0, activeTerminals: 0, totalDataUsed: 0, overLimit: 0 };

function Summary({ summary, loading }: { summary: CustomerUsageSummary | null; loading: boolean }) {
  const s = summary ?? NO_SUMMARY;
  return (
    <div className="stat-grid" role="group" aria-label="Usage summary">
      <StatCard title="Total Terminals" icon="pi pi-wifi" loading={loading} value={count(s.totalTerminals)} />
      <StatCard title="Active Terminals" icon="pi pi-check-circle" loading={loading} value={count(s.activeTerminals)} />
      <StatCard title="Total Data Used" icon="pi pi-database" loading={loading} value={formatCustomerUsage(s.totalDataUsed)} />
      <StatCard
        title="Over Limit"
        icon="pi pi-exclamation-triangle"
        loading={loading}
        value={count(s.overLimit)}
        {...(s.overLimit > 0 ? { valueClassName: 'usage-over' } : {})}
      />
    </div>
  );
}

function ChartPanel({ daily, loading }: { daily: readonly CustomerDailyUsage[]; loading: boolean }) {
  const titleId = useId();
  if (!loading && daily.length === 0) return null;
  return (
    <section className="list-card usage-chart-card" aria-labelledby={titleId} aria-busy={loading || undefined}>
      <h2 id={titleId} className="section-title">
        {CUSTOMER_USAGE_MESSAGES.chartTitle}
      </h2>
      {loading ? <Skeleton width="100%" height="8rem" /> : <DailyUsageChart records={daily} format={formatCustomerUsage} />}
    </section>
  );
}

// ---- Table cells ---------------------------------------------------------------------------

function ServiceLineCell({ record }: { record: TerminalUsageRecord }) {
  return (
    <div className="cell-stack">
      <span className="cell-primary usage-service-line">{record.serviceLineNumber}</span>
      <span className="cell-secondary cell-mono">{record.terminalId}</span>
      {record.location && <span className="cell-secondary">{record.location}</span>}
    </div>
  );
}

function UsageCell({ record }: { record: TerminalUsageRecord }) {
  const priority = record.currentBillingCycle?.priorityData;
  if (!priority) return <span className="text-muted">{DASH}</span>;
  const percentage = recordPercentage(record);
  return (
    <div className="usage-cell">
      <span className="usage-cell-figures">
        {formatCustomerUsage(priority.used)} / {formatCustomerUsage(priority.total)}
      </span>
      <div className="usage-cell-bar">
        <ProgressBar
          value={barPercent(percentage)}
          showValue={false}
          color={usageBarColour(percentage)}
          className="usage-meter"
          aria-label={`Priority data used on ${record.serviceLineNumber}`}
        />
        <span className="usage-cell-percent">{percent(percentage)}</span>
      </div>
    </div>
  );
}

const withCycle = (record: TerminalUsageRecord, render: () => ReactNode) => (record.currentBillingCycle ? render() : DASH);

function OverageCell({ record }: { record: TerminalUsageRecord }) {
  const overage = recordOverage(record);
  return <span className={overage > 0 ? 'usage-over' : undefined}>{withCycle(record, () => formatCustomerUsage(overage))}</span>;
}

function BillingCycleCell({ record }: { record: TerminalUsageRecord }) {
  const cycle = record.currentBillingCycle;
  return <>{cycle ? `${calendarDay(cycle.startDate)} – ${calendarDay(cycle.endDate)}` : DASH}</>;
}

function UnassignButton({ record, onUnassign }: { record: TerminalUsageRecord; onUnassign(serviceLineNumber: string): void }) {
  // The row opens the terminal on click; taking the line back must not open it too. PrimeReact
  // ignores clicks whose target is a button or its direct child; stopping here does not rely on that.
  const click = (event: MouseEvent) => {
    event.stopPropagation();
    onUnassign(record.serviceLineNumber);
  };
  return (
    <Button
      type="button"
      icon="pi pi-user-minus"
      rounded
      text
      severity="danger"
      aria-label={`${CUSTOMER_USAGE_MESSAGES.unassign} ${record.serviceLineNumber}`}
      title={CUSTOMER_USAGE_MESSAGES.unassign}
      onClick={click}
    />
  );
}

// ---- Table ---------------------------------------------------------------------------------

type UsageTableProps = Pick<CustomerTerminalsViewProps, 'records' | 'pagination' | 'sort' | 'refreshing' | 'onSort' | 'onPage' | 'onOpen' | 'onUnassign'> & {
  /** Whether the customer has any terminal: which of the two empty messages the table shows. */
  hasTerminals: boolean;
  canAssign: boolean;
  /** The Account column shows (the portal holds more than one account). */
  showAccount: boolean;
};

/** The page of rows; renders again only when what it shows changes, not at each key typed in the search. */
const UsageTable = memo(function UsageTable(props: UsageTableProps) {
  const { pagination } = props;
  const limit = pagination?.limit ?? CUSTOMER_USAGE_PAGE_SIZE;
  const folding = useColumnFolding<TerminalUsageRecord>({ rowKey: (r) => r.terminalId, rowName: (r) => r.serviceLineNumber });
  const sort = (event: DataTableSortEvent) => {
    const order = event.sortOrder;
    props.onSort(isSortField(event.sortField) && (order === 1 || order === -1) ? { field: event.sortField, order } : null);
  };
  return (
    <DataTable
      // The Account column arrives after the rows: PrimeReact keeps each cell by its place, so the
      // table starts afresh with it.
      key={props.showAccount ? 'accounts' : 'one-account'}
      value={[...props.records]}
      dataKey="terminalId"
      // The server answers the page searched, filtered and sorted; the table only shows it.
      lazy
      sortField={props.sort?.field}
      sortOrder={props.sort?.order ?? 0}
      removableSort
      onSort={sort}
      paginator={(pagination?.total ?? 0) > limit}
      first={((pagination?.page ?? 1) - 1) * limit}
      rows={limit}
      totalRecords={pagination?.total ?? props.records.length}
      onPage={(event: DataTablePageEvent) => props.onPage(Math.floor(event.first / event.rows) + 1)}
      onRowClick={(event: DataTableRowClickEvent) => props.onOpen(event.data as TerminalUsageRecord)}
      rowClassName={() => 'usage-row'}
      loading={props.refreshing}
      emptyMessage={props.hasTerminals ? CUSTOMER_USAGE_MESSAGES.noMatches : CUSTOMER_USAGE_MESSAGES.noTerminals}
      className="usage-table"
      pt={{ table: { 'aria-label': 'Customer terminals' } }}
      {...folding.table([
        { priority: 'always', field: 'serviceLine', header: 'Service Line', sortable: true, body: (r) => <ServiceLineCell record={r} /> },
        props.showAccount && { priority: 'fold', header: 'Account', body: (r) => r.accountName ?? DASH },
        { priority: 'fold', field: 'usage', header: 'Usage', sortable: true, body: (r) => <UsageCell record={r} />, className: 'usage-column' },
        { priority: 'fold', field: 'remaining', header: 'Remaining', sortable: true, body: (r) => withCycle(r, () => formatCustomerUsage(recordRemaining(r))) },
        { priority: 'fold', field: 'overage', header: 'Overage', sortable: true, body: (r) => <OverageCell record={r} /> },
        { priority: 'fold', header: 'Data Cap', body: (r) => (r.dataCap ? `${count(r.dataCap.amount)} ${r.dataCap.unit}` : DASH) },
        { priority: 'fold', header: 'Billing Cycle', body: (r) => <BillingCycleCell record={r} /> },
        { priority: 'always', header: 'Status', body: (r) => <Tag value={r.status} severity={STATUS_SEVERITY[r.status]} rounded /> },
        { priority: 'always', header: 'Actions', body: (r) => (props.canAssign ? <UnassignButton record={r} onUnassign={props.onUnassign} /> : null), className: 'usage-actions-cell' },
      ])}
    />
  );
});

function UsagePanel(props: CustomerTerminalsViewProps) {
  const titleId = useId();
  const busy = props.usageLoading || props.refreshing;
  const onSort = useStableCallback(props.onSort);
  const onPage = useStableCallback(props.onPage);
  const onOpen = useStableCallback(props.onOpen);
  const onUnassign = useStableCallback(props.onUnassign);
  return (
    <section className="list-card usage-list" aria-labelledby={titleId}>
      <div className="usage-list-head">
        <h2 id={titleId} className="section-title">
          Terminals
        </h2>
        <Button
          type="button"
          label={CUSTOMER_USAGE_MESSAGES.refresh}
          icon={busy ? 'pi pi-spin pi-refresh' : 'pi pi-refresh'}
          outlined
          size="small"
          disabled={busy}
          onClick={props.onRefresh}
        />
      </div>
      <SearchFilterBar
        searchLabel="Search terminals"
        placeholder={CUSTOMER_USAGE_MESSAGES.searchPlaceholder}
        maxLength={TERMINAL_SEARCH_MAX_LENGTH}
        search={props.search}
        onSearch={props.onSearch}
        status={props.status}
        options={CUSTOMER_USAGE_STATUS_OPTIONS}
        onStatus={props.onStatus}
      >
        {props.accounts && props.onAccount && (
          <AccountPicker accounts={props.accounts} value={props.account ?? null} onChange={props.onAccount} allLabel="All accounts" hideLabel className="list-status" />
        )}
      </SearchFilterBar>
      {props.usageLoading ? (
        <p className="usage-loading" role="status">
          <i className="pi pi-spin pi-spinner" aria-hidden="true" /> {USAGE_LOADING_TEXT}
        </p>
      ) : (
        <UsageTable
          records={props.records}
          pagination={props.pagination}
          sort={props.sort}
          refreshing={props.refreshing}
          hasTerminals={(props.summary?.totalTerminals ?? 0) > 0}
          canAssign={props.canAssign !== false}
          showAccount={props.accounts !== undefined}
          onSort={onSort}
          onPage={onPage}
          onOpen={onOpen}
          onUnassign={onUnassign}
        />
      )}
    </section>
  );
}

// ---- Unassign confirmation -----------------------------------------------------------------

function UnassignDialog(props: CustomerTerminalsViewProps & { customerName: string }) {
  const target = props.unassign;
  const busy = target?.busy ?? false;
  return (
    <CustomerDialog
      header={UNASSIGN_DIALOG_TITLE}
      visible={target !== null}
      busy={busy}
      onClose={props.onCancelUnassign}
      footer={
        <div className="dialog-footer">
          <Button type="button" label="Cancel" outlined disabled={busy} onClick={props.onCancelUnassign} />
          <Button
            type="button"
            label={busy ? UNASSIGNING_TEXT : CUSTOMER_USAGE_MESSAGES.unassign}
            icon={busy ? 'pi pi-spin pi-spinner' : 'pi pi-user-minus'}
            severity="danger"
            disabled={busy}
            onClick={props.onConfirmUnassign}
          />
        </div>
      }
    >
      {target && <p>{CUSTOMER_USAGE_MESSAGES.unassignConfirm(target.serviceLineNumber, props.customerName)}</p>}
    </CustomerDialog>
  );
}

// ---- Page ----------------------------------------------------------------------------------

export function CustomerTerminalsView(props: CustomerTerminalsViewProps) {
  const meta = PAGE_TITLES['/customer/terminals/$customerUuid'];
  const uuid = props.customerUuid?.trim() ?? '';
  if (uuid === '') {
    return (
      <div className="page customer-usage-page">
        <ErrorCard title="Error" message={CUSTOMER_USAGE_MESSAGES.uuidRequired} />
      </div>
    );
  }

  const loaded = props.customer !== null && !props.customerLoading;
  const header = (
    <PageHeader
      title={CUSTOMER_USAGE_MESSAGES.title}
      breadcrumb={meta.breadcrumb}
      onNavigate={props.onNavigate}
      subtitle={props.customerError === null ? <CustomerLine customer={props.customer} loading={props.customerLoading} /> : undefined}
      actions={
        props.customerError === null ? (
          <>
            <MonthPicker months={props.months} month={props.month} onMonth={props.onMonth} />
            {loaded && props.onExport && <ExportButton exporting={props.exporting === true} onExport={props.onExport} />}
            {loaded && props.canAssign !== false && <Button type="button" label={ASSIGN_MESSAGES.button} icon="pi pi-plus" onClick={props.onAssign} />}
            {loaded && props.onAddTerminal && <Button type="button" label="Add Terminal" icon="pi pi-box" outlined onClick={props.onAddTerminal} />}
          </>
        ) : undefined
      }
    />
  );

  if (props.customerError !== null) {
    return (
      <div className="page customer-usage-page">
        {header}
        <ErrorCard
          title={CUSTOMER_USAGE_MESSAGES.loadErrorTitle}
          message={props.customerError.trim() || CUSTOMER_USAGE_MESSAGES.loadFailed}
          onRetry={props.onRetry}
        />
      </div>
    );
  }

  const customerName = props.customer ? customerDisplayName(props.customer) : customerDisplayName({ uuid });
  return (
    <div className="page customer-usage-page">
      {header}
      <Summary summary={props.summary} loading={props.usageLoading} />
      <ChartPanel daily={props.daily} loading={props.usageLoading} />
      <UsagePanel {...props} />
      <UnassignDialog {...props} customerName={customerName} />
    </div>
  );
}
