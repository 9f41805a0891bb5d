// Alerts (the portal users' page): the status filter with its counts, kind and severity, a search, the
// table with ticks for a bulk "Acknowledge (n)" and a per-row Acknowledge, and paging. Composes the
// Requests page's parts (the labelled selects, the error card, the status buttons). Renders props
// and calls callbacks; the acknowledgement's steps are the alert acknowledge machine's states.
import { useId } from 'react';
import { SearchField } from '../common/SearchFilterBar';
import { Button } from 'primereact/button';
import { DataTable } from 'primereact/datatable';
import { Message } from 'primereact/message';
import { SelectButton } from 'primereact/selectbutton';
import {
  ALERT_KIND_LABELS,
  ALERT_KINDS,
  ALERT_MESSAGES as M,
  ALERT_SEARCH_MAX_LENGTH,
  ALERT_SEVERITIES,
  ALERT_SEVERITY_LABELS,
  ALERT_STATUS_FILTERS,
  ALERT_STATUS_LABELS,
  type AlertCounts,
  type AlertKind,
  type AlertSeverity,
  type AlertActionSummaryWire,
  type AlertStatusFilter,
  type AlertWire,
} from '../../domain/alerts';
import type { Pagination } from '../../domain/customers';
import type { ProviderAccountRef } from '../../domain/provider-accounts';
import { AccountPicker } from '../common/AccountPicker';
import { ErrorCard } from '../common/ErrorCard';
import { DASH } from '../common/format';
import { ExportButton } from '../common/ExportButton';
import { useColumnFolding } from '../common/useColumnFolding';
import { NavLink } from '../common/NavLink';
import { useNow } from '../common/useNow';
import { LabelledSelect } from '../requests/LabelledSelect';
import { AlertStatusTag, OpenedAt, SeverityTag, targetText } from './parts';
import { AutomaticActionsNote } from './AutomaticActionsNote';
import { ListPaginator } from '../common/ListPaginator';

export const ALERTS_LOADING_TEXT = 'Loading alerts...';
export const ALERTS_LOAD_FAILED = 'Could not load the alerts';
export const SEARCH_LABEL = 'Search alerts';
export const SEARCH_PLACEHOLDER = 'Line, terminal or customer';

export interface AlertsReport {
  kind: 'done' | 'failed';
  text: string;
}

export interface AlertsViewProps {
  alerts: readonly AlertWire[];
  pagination: Pagination | null;
  counts: AlertCounts | null;
  status: AlertStatusFilter;
  kind: AlertKind | 'all';
  severity: AlertSeverity | 'all';
  /**
   * The provider accounts, given when the portal holds more than one: the Account filter and
   * column show (absent: neither, and the page looks as it does with one account).
   */
  accounts?: readonly ProviderAccountRef[];
  /** The Account filter's account; null for all of them. */
  account?: number | null;
  onAccount?: (id: number | null) => void;
  /** The search box as typed. */
  search: string;
  loading: boolean;
  error: string | null;
  /** The ids ticked. */
  selection: readonly string[];
  /** An acknowledgement is under way: ticks and buttons wait. */
  busy: boolean;
  report: AlertsReport | null;
  onStatus(status: AlertStatusFilter): void;
  onKind(kind: AlertKind | 'all'): void;
  onSeverity(severity: AlertSeverity | 'all'): void;
  onSearch(text: string): void;
  onPage(page: number): void;
  onRetry(): void;
  /** Export CSV of the status, kind, severity and search (absent: no button), and whether one is under way. */
  onExport?: () => void;
  exporting?: boolean;
  /** Acknowledge buttons and ticks are offered (alerts:manage); absent: they are. */
  canAcknowledge?: boolean;
  onSelect(ids: string[]): void;
  onAcknowledge(alert: AlertWire): void;
  onAcknowledgeSelected(): void;
  onDismissReport(): void;
  onNavigate(url: string): void;
  /** Undo of an alert's automatic action, offered where it can be (lifecycle:manage); absent: no Undo. */
  onUndoAction?: (alert: AlertWire, action: AlertActionSummaryWire) => void;
}

/** The status filter's figure: `active` is open and acknowledged together, `all` everything. */
export function statusCount(status: AlertStatusFilter, counts: AlertCounts): number {
  if (status === 'all') return counts.open + counts.acknowledged + counts.resolved;
  if (status === 'active') return counts.open + counts.acknowledged;
  return counts[status];
}

const STATUS_NAMES: Record<AlertStatusFilter, string> = { active: 'Active', ...ALERT_STATUS_LABELS, all: 'All' };
const filterLabel = (status: AlertStatusFilter, counts: AlertCounts | null) => (counts ? `${STATUS_NAMES[status]} (${statusCount(status, counts)})` : STATUS_NAMES[status]);

const KIND_OPTIONS = [{ label: 'All kinds', value: 'all' as const }, ...ALERT_KINDS.map((value) => ({ label: ALERT_KIND_LABELS[value], value }))];
const SEVERITY_OPTIONS = [{ label: 'All severities', value: 'all' as const }, ...ALERT_SEVERITIES.map((value) => ({ label: ALERT_SEVERITY_LABELS[value], value }))];

const canAcknowledge = (alert: AlertWire) => alert.status === 'open';

export function AlertsView(props: AlertsViewProps) {
  const id = useId();
  const now = useNow();
  const folding = useColumnFolding<AlertWire>({ rowKey: (a) => a.id, rowName: (a) => `${a.title}: ${targetText(a)}` });
  const { pagination, busy } = props;
  const selected = props.alerts.filter((alert) => props.selection.includes(alert.id));
  const mayAcknowledge = props.canAcknowledge !== false;
  const accounts = props.accounts;
  return (
    <section className="page alerts-page" aria-labelledby={`${id}-title`}>
      <header className="page-header-row">
        <h1 id={`${id}-title`}>{M.pageTitle}</h1>
        {props.onExport && <ExportButton exporting={props.exporting === true} onExport={props.onExport} />}
        {mayAcknowledge && (
          <Button
            type="button"
            label={`Acknowledge (${props.selection.length})`}
            icon="pi pi-check"
            disabled={busy || props.selection.length === 0}
            onClick={props.onAcknowledgeSelected}
          />
        )}
      </header>
      <SelectButton
        aria-label="Status"
        value={props.status}
        allowEmpty={false}
        options={ALERT_STATUS_FILTERS.map((value) => ({ label: filterLabel(value, props.counts), value }))}
        onChange={(e) => {
          if (e.value) props.onStatus(e.value as AlertStatusFilter);
        }}
      />
      <div className="list-toolbar alerts-filters" role="search">
        <SearchField label={SEARCH_LABEL} placeholder={SEARCH_PLACEHOLDER} maxLength={ALERT_SEARCH_MAX_LENGTH} value={props.search} onChange={props.onSearch} />
        <LabelledSelect label="Kind" value={props.kind} options={KIND_OPTIONS} onChange={props.onKind} />
        <LabelledSelect label="Severity" value={props.severity} options={SEVERITY_OPTIONS} onChange={props.onSeverity} />
        {accounts && props.onAccount && (
          <AccountPicker accounts={accounts} value={props.account ?? null} onChange={props.onAccount} allLabel="All accounts" hideLabel className="list-status" />
        )}
      </div>
      {props.report && (
        <div className="alerts-report">
          <Message severity={props.report.kind === 'done' ? 'success' : 'error'} text={props.report.text} />
          <Button type="button" icon="pi pi-times" text rounded severity="secondary" aria-label="Dismiss" onClick={props.onDismissReport} />
        </div>
      )}
      {props.error ? (
        <ErrorCard title={ALERTS_LOAD_FAILED} message={props.error} onRetry={props.onRetry} />
      ) : pagination === null ? (
        <p role="status">{ALERTS_LOADING_TEXT}</p>
      ) : (
        <>
          {/* The Account column arrives after the rows: PrimeReact keeps each cell by its place, so
              the table starts afresh with it. */}
          <DataTable
            key={accounts ? 'accounts' : 'one-account'}
            value={[...props.alerts]}
            dataKey="id"
            emptyMessage={M.noAlerts}
            loading={props.loading}
            // The cells read `busy` from these props: PrimeReact's cell memo (on the row data) would keep
            // the row buttons and ticks enabled while an acknowledgement runs.
            cellMemo={false}
            selectionMode="checkbox"
            selection={selected}
            // Without alerts:manage there is no tick column and nothing to select.
            isDataSelectable={({ data }) => mayAcknowledge && !busy && canAcknowledge(data as AlertWire)}
            onSelectionChange={(e) => props.onSelect((e.value as AlertWire[]).map((alert) => alert.id))}
            pt={{ table: { 'aria-label': M.pageTitle } }}
            {...folding.table([
              mayAcknowledge && { priority: 'always', selectionMode: 'multiple', headerStyle: { width: '3rem' } },
              { priority: 'fold', header: 'Severity', body: (a) => <SeverityTag severity={a.severity} /> },
              {
                priority: 'always',
                header: 'Alert',
                body: (a) => (
                  <span>
                    <strong>{a.title}</strong>
                    <br />
                    <small>{a.message}</small>
                    <AutomaticActionsNote
                      actions={a.automaticActions}
                      showStatus
                      subject={targetText(a)}
                      {...(props.onUndoAction ? { onUndo: (action: AlertActionSummaryWire) => props.onUndoAction!(a, action) } : {})}
                    />
                  </span>
                ),
              },
              {
                priority: 'fold',
                header: 'Target',
                body: (a) => (
                  <span>
                    {a.targetType === 'customer' ? null : targetText(a)}
                    {a.customer && (
                      <>
                        {a.targetType === 'customer' ? null : <br />}
                        <NavLink url={`/customer/terminals/${encodeURIComponent(a.customer.uuid)}`} onNavigate={props.onNavigate}>
                          {a.customer.name}
                        </NavLink>
                      </>
                    )}
                  </span>
                ),
              },
              // An alert on no line (a customer's, a sync's) has no account: a dash.
              accounts && { priority: 'fold', header: 'Account', body: (a) => a.accountName ?? DASH },
              {
                priority: 'always',
                header: 'Status',
                body: (a) => (
                  <span>
                    <AlertStatusTag status={a.status} />
                    {a.status === 'acknowledged' && a.acknowledgedBy && <small className="alert-acknowledged-by"> by {a.acknowledgedBy}</small>}
                  </span>
                ),
              },
              { priority: 'fold', header: 'Opened', body: (a) => <OpenedAt iso={a.openedAt} now={now} /> },
              {
                priority: 'always',
                header: 'Actions',
                body: (a) =>
                  mayAcknowledge && canAcknowledge(a) ? (
                    <Button type="button" label="Acknowledge" size="small" outlined aria-label={`Acknowledge ${a.title}: ${targetText(a)}`} disabled={busy} onClick={() => props.onAcknowledge(a)} />
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
