// "Subscriptions" (spec section 2 "Subscriptions"): every terminal's plan for its current
// billing cycle, the overage banner, summary cards, filters and a server-paged table with a
// Change Plan button per row. With more than one provider account, an Account filter and column.
// Renders props and calls callbacks.
import { useId } from 'react';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { DataTable, type DataTablePageEvent } from 'primereact/datatable';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { Tag } from 'primereact/tag';
import { formatCustomerUsage } from '../../domain/customer-terminals';
import type { ProviderAccountRef } from '../../domain/provider-accounts';
import { PAGE_TITLES } from '../../domain/navigation';
import { PROVIDER_BILLING_TEXTS } from '../../domain/provider-billing';
import {
  SUBSCRIPTION_MESSAGES,
  SUBSCRIPTION_SEARCH_MAX_LENGTH,
  SUBSCRIPTIONS_PAGE_SIZE,
  type SubscriptionListWire,
  type SubscriptionPlanFilter,
  type SubscriptionStatus,
  type SubscriptionWire,
} from '../../domain/subscriptions';
import { AccountPicker } from '../common/AccountPicker';
import { count, DASH } from '../common/format';
import { ErrorCard } from '../common/ErrorCard';
import { ExportButton } from '../common/ExportButton';
import { useColumnFolding } from '../common/useColumnFolding';
import { NavLink } from '../common/NavLink';
import { PageHeader } from '../common/PageHeader';
import { StatCard } from '../common/StatCard';
import { money } from './format';
import './subscriptions.css';

export const PLAN_FILTER_OPTIONS: readonly { value: SubscriptionPlanFilter; label: string }[] = [
  { value: 'all', label: 'All plans' },
  { value: '50gb', label: '50 GB' },
  { value: '1tb', label: '1 TB' },
  { value: 'other', label: 'Other' },
];
export const OVER_PLAN_LABEL = 'Over plan only';
export const SHOW_THEM = 'Show them';

export interface SubscriptionsViewProps {
  /** null before the first answer. */
  data: SubscriptionListWire | null;
  loading: boolean;
  error: string | null;
  search: string;
  plan: SubscriptionPlanFilter;
  overPlan: boolean;
  /** 1-based. */
  page: number;
  onSearch(text: string): void;
  onPlanFilter(plan: SubscriptionPlanFilter): void;
  onOverPlan(overPlan: boolean): void;
  /**
   * The provider accounts, given when the portal holds more than one: the Account column and the
   * Account filter show (absent: neither, and the page looks as it does with one account).
   */
  accounts?: readonly ProviderAccountRef[];
  /** The Account filter's account; null for all of them (absent: null). */
  account?: number | null;
  onAccount?: (id: number | null) => void;
  /** 1-based. */
  onPage(page: number): void;
  onRetry(): void;
  onRefresh(): void;
  /** Export CSV of the search and filters (absent: no button), and whether one is under way. */
  onExport?: () => void;
  exporting?: boolean;
  /** The link to Provider Billing (billing:read); absent: shown. */
  showProviderBilling?: boolean;
  /** Change Plan on each row (absent: no such button, the user may not change plans). */
  onChangePlan?: (subscription: SubscriptionWire) => void;
  onNavigate(url: string): void;
}

const STATUS_SEVERITY: Record<SubscriptionStatus, 'success' | 'danger' | 'warning'> = {
  Active: 'success',
  'Over Plan': 'danger',
  Suspended: 'warning',
};

function OverageCell({ s }: { s: SubscriptionWire }) {
  return (
    <span className={s.overageGB > 0 ? 'cell-stack subscription-over' : 'cell-stack'}>
      <span>{formatCustomerUsage(s.overageGB)}</span>
      <span className="cell-secondary">{money(s.overageCharges, s.currency)}</span>
    </span>
  );
}

function ForecastCell({ s }: { s: SubscriptionWire }) {
  if (!s.forecast) return <>{DASH}</>;
  const f = s.forecast;
  return (
    <span className="cell-stack subscription-projection" title={SUBSCRIPTION_MESSAGES.projection}>
      <span>≈ {formatCustomerUsage(f.projectedUsedGB)}</span>
      <span className={f.projectedOverageGB > 0 ? 'subscription-over' : undefined}>
        {formatCustomerUsage(f.projectedOverageGB)} over · {money(f.projectedCharges, s.currency)}
      </span>
    </span>
  );
}

function Toolbar(props: SubscriptionsViewProps) {
  const id = useId();
  return (
    <div className="list-toolbar" role="search">
      <label htmlFor={`${id}-search`} className="sr-only">
        Search subscriptions
      </label>
      <InputText
        id={`${id}-search`}
        type="search"
        autoComplete="off"
        maxLength={SUBSCRIPTION_SEARCH_MAX_LENGTH}
        placeholder="Search by terminal, service line or location..."
        value={props.search}
        onChange={(event) => props.onSearch(event.target.value)}
      />
      <label htmlFor={`${id}-plan`} className="sr-only">
        Plan filter
      </label>
      <Dropdown
        inputId={`${id}-plan`}
        value={props.plan}
        options={[...PLAN_FILTER_OPTIONS]}
        optionLabel="label"
        optionValue="value"
        onChange={(event) => props.onPlanFilter(event.value as SubscriptionPlanFilter)}
      />
      <span className="subscriptions-toggle">
        <Checkbox inputId={`${id}-over`} checked={props.overPlan} onChange={(event) => props.onOverPlan(!!event.checked)} />
        <label htmlFor={`${id}-over`}>{OVER_PLAN_LABEL}</label>
      </span>
      {props.accounts && (
        <AccountPicker accounts={props.accounts} value={props.account ?? null} onChange={(account) => props.onAccount?.(account)} allLabel="All accounts" hideLabel />
      )}
    </div>
  );
}

function Table({ data, ...props }: SubscriptionsViewProps & { data: SubscriptionListWire }) {
  const folding = useColumnFolding<SubscriptionWire>({ rowKey: (s) => s.serviceLineNumber, rowName: (s) => s.terminalId });
  return (
    // The Account column arrives after the rows: PrimeReact keeps each cell by its place and would
    // go on drawing the old column there, so the table starts afresh with it.
    <DataTable
      key={props.accounts ? 'accounts' : 'one-account'}
      value={data.subscriptions}
      dataKey="serviceLineNumber"
      lazy
      paginator
      first={(props.page - 1) * SUBSCRIPTIONS_PAGE_SIZE}
      rows={SUBSCRIPTIONS_PAGE_SIZE}
      totalRecords={data.pagination.total}
      onPage={(event: DataTablePageEvent) => props.onPage((event.page ?? 0) + 1)}
      loading={props.loading}
      emptyMessage="No subscriptions found"
      pt={{ table: { 'aria-label': SUBSCRIPTION_MESSAGES.title } }}
      {...folding.table([
        {
          priority: 'always',
          header: 'Terminal ID',
          body: (s) => (
            <span className="cell-stack">
              <span className="cell-primary cell-mono">{s.terminalId}</span>
              <span className="cell-secondary">{s.serviceLineNumber}</span>
            </span>
          ),
        },
        props.accounts && { priority: 'fold', header: 'Account', body: (s) => s.accountName ?? DASH },
        { priority: 'fold', header: 'Location', body: (s) => s.location ?? DASH },
        { priority: 'fold', header: 'Terminal Type', body: (s) => s.terminalType ?? DASH },
        { priority: 'fold', header: 'Plan', body: (s) => s.plan },
        { priority: 'fold', header: 'Used / Total', body: (s) => `${formatCustomerUsage(s.usedGB)} / ${s.plan}` },
        { priority: 'fold', header: 'Remaining', body: (s) => formatCustomerUsage(s.remainingGB) },
        { priority: 'fold', header: 'Overage', body: (s) => <OverageCell s={s} /> },
        { priority: 'fold', header: 'Forecast', body: (s) => <ForecastCell s={s} /> },
        { priority: 'always', header: 'Status', body: (s) => <Tag value={s.status} severity={STATUS_SEVERITY[s.status]} rounded /> },
        props.onChangePlan && {
          priority: 'always',
          header: 'Actions',
          body: (s) => (
            <Button
              type="button"
              label={SUBSCRIPTION_MESSAGES.changePlan}
              size="small"
              outlined
              aria-label={`${SUBSCRIPTION_MESSAGES.changePlan} ${s.serviceLineNumber}`}
              onClick={() => props.onChangePlan?.(s)}
            />
          ),
        },
      ])}
    />
  );
}

export function SubscriptionsView(props: SubscriptionsViewProps) {
  const meta = PAGE_TITLES['/subscription'];
  const { data } = props;
  const summary = data?.summary;
  const cardsLoading = props.loading && !data;
  return (
    <div className="page subscriptions-page">
      <PageHeader
        title={meta.title}
        breadcrumb={meta.breadcrumb}
        onNavigate={props.onNavigate}
        actions={
          <>
            {props.showProviderBilling !== false && (
              <NavLink url="/subscription/provider-billing" onNavigate={props.onNavigate} className="p-button p-component p-button-outlined">
                <i className="pi pi-file p-button-icon p-button-icon-left" aria-hidden="true" />
                <span className="p-button-label">{PROVIDER_BILLING_TEXTS.link}</span>
              </NavLink>
            )}
            {props.onExport && <ExportButton exporting={props.exporting === true} onExport={props.onExport} />}
            <Button type="button" label="Refresh" icon="pi pi-refresh" outlined disabled={props.loading} onClick={props.onRefresh} />
          </>
        }
      />
      {props.error !== null ? (
        <ErrorCard title={SUBSCRIPTION_MESSAGES.loadFailed} message={`${SUBSCRIPTION_MESSAGES.errorPrefix}${props.error}`} onRetry={props.onRetry} />
      ) : (
        <>
          {summary && summary.overageTerminals > 0 && (
            <div className="subscriptions-banner" role="status">
              <i className="pi pi-exclamation-triangle" aria-hidden="true" />
              <p>{SUBSCRIPTION_MESSAGES.overBanner(summary.overageTerminals)}</p>
              {!props.overPlan && <Button type="button" label={SHOW_THEM} size="small" severity="warning" onClick={() => props.onOverPlan(true)} />}
            </div>
          )}
          <div className="stat-grid stat-grid-five" role="group" aria-label="Subscriptions summary">
            <StatCard title="Total Terminals" icon="pi pi-wifi" loading={cardsLoading} value={summary ? count(summary.totalTerminals) : null} />
            <StatCard title="50 GB Plans" icon="pi pi-database" loading={cardsLoading} value={summary ? count(summary.plans50GB) : null} />
            <StatCard title="1 TB Plans" icon="pi pi-server" loading={cardsLoading} value={summary ? count(summary.plans1TB) : null} />
            <StatCard title="Overage Terminals" icon="pi pi-exclamation-triangle" loading={cardsLoading} value={summary ? count(summary.overageTerminals) : null} />
            <StatCard
              title="Total Overage in GB"
              icon="pi pi-chart-line"
              loading={cardsLoading}
              value={summary ? formatCustomerUsage(summary.totalOverageGB) : null}
            />
          </div>
          <section className="list-card" aria-label="Subscriptions list">
            <Toolbar {...props} />
            {data ? (
              <>
                <Table {...props} data={data} />
                <p className="field-hint">Forecast: {SUBSCRIPTION_MESSAGES.projection}</p>
              </>
            ) : (
              <p role="status">
                <i className="pi pi-spin pi-spinner" aria-hidden="true" /> {SUBSCRIPTION_MESSAGES.loading}
              </p>
            )}
          </section>
        </>
      )}
    </div>
  );
}
