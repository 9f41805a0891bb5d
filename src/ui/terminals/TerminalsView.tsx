import { useId, type MouseEvent, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { DataTable, type DataTablePageEvent, type DataTableRowClickEvent } from 'primereact/datatable';
import { Tag } from 'primereact/tag';
import { AccountPicker } from '../common/AccountPicker';
import { PAGE_TITLES } from '../../domain/navigation';
import type { ProviderAccountRef } from '../../domain/provider-accounts';
import {
  formatTerminalData,
  ownerLabel,
  TERMINAL_MESSAGES,
  TERMINAL_SEARCH_MAX_LENGTH,
  TERMINAL_STATUS_OPTIONS,
  type FleetHealth,
  type SyncJob,
  type TerminalListItem,
} from '../../domain/terminals';
import { StatCard } from '../common/StatCard';
import { SearchFilterBar } from '../common/SearchFilterBar';
import { ErrorCard } from '../common/ErrorCard';
import { ExportButton } from '../common/ExportButton';
import { useColumnFolding } from '../common/useColumnFolding';
import { PageHeader } from '../common/PageHeader';
import { count, DASH, lastSyncSummary, percent, SIGNAL_GRADE_LABEL, signalClass, signalGrade, SYNC_STATUS_LABEL } from './format';
import type { TerminalDetailTab } from './TerminalDetailDialog';
import { RecentSyncs, type RecentSyncsProps } from './RecentSyncs';
import { SyncBudgetPanel, type SyncBudgetPanelProps } from './SyncBudgetPanel';
import './terminals.css';

export type TerminalStatusFilter = (typeof TERMINAL_STATUS_OPTIONS)[number]['value'];

export interface TerminalSyncNotice {
  /** running: the blue "Background Sync Running" card; the others are dismissible messages. */
  kind: 'running' | 'info' | 'success' | 'error';
  text: string;
}

/** What "Add Terminal" does: it opens the activation wizard (lifecycle:manage only). */
export const ADD_TERMINAL_HINT = 'Activate a kit: add it to the account, put it on a new service line and assign it.';

export interface TerminalsViewProps {
  /** The summary cards and the sync counts; null until loaded. */
  health: FleetHealth | null;
  healthLoading: boolean;

  /** The current page (kept on screen while the next one loads). */
  rows: TerminalListItem[];
  /** Terminals matching the search and filter, over all pages. */
  totalCount: number;
  /** 1-based page and page size of the query shown or loading. */
  page: number;
  limit: number;
  loading: boolean;
  /** The load failed: the error card replaces the table. */
  error: string | null;

  /** The search box as typed. */
  search: string;
  status: TerminalStatusFilter;
  /**
   * The provider accounts, given when the portal holds more than one: the Account column and the
   * Account filter show (absent: neither, and the page looks as it does with one account).
   */
  accounts?: readonly ProviderAccountRef[];
  /** The Account filter's account; null for all of them. */
  account: number | null;
  onAccount(id: number | null): void;

  /** A sync is starting or running: the button reads "Syncing..." and is disabled. */
  syncing: boolean;
  syncNotice: TerminalSyncNotice | null;
  /** The last sync run, for the caption. */
  lastSync: SyncJob | null;
  /** The "Provider calls" panel: the next syncs, the last runs, the budget and its last hour (absent: not shown). */
  budget?: Omit<SyncBudgetPanelProps, 'now'>;
  /** "Recent syncs": the last runs, of the filtered account when there is one (absent: not shown). */
  recentSyncs?: Omit<RecentSyncsProps, 'now' | 'showAccount'>;

  onSearch(text: string): void;
  onStatus(value: TerminalStatusFilter): void;
  onPage(page: number): void;
  onRetry(): void;
  onRefresh(): void;
  /** Export CSV of the search and filter (absent: no button), and whether one is under way. */
  onExport?: () => void;
  exporting?: boolean;
  /** Sync from the provider (absent: no button, the user may not run one). */
  onSync?: () => void;
  onDismissNotice(): void;
  /** Both row actions and a row click open the details dialog; the Usage action names its tab. */
  onOpen(terminal: TerminalListItem, tab?: TerminalDetailTab): void;
  /** "Add Terminal" opens the activation wizard; absent (no button) for a user who may not activate. */
  onAddTerminal?: () => void;
  /** Breadcrumb links. */
  onNavigate(url: string): void;
  now: number;
}

const value = (loading: boolean, figure: number | null | undefined, format: (n: number) => string = count) =>
  loading || figure == null ? DASH : format(figure);

/** A summary card whose facts sit beneath its figure. */
function SummaryCard({ title, icon, loading, figure, children }: { title: string; icon: string; loading: boolean; figure?: ReactNode; children: ReactNode }) {
  return (
    <StatCard title={title} icon={icon} loading={loading} className="terminal-card" {...(figure !== undefined ? { value: figure } : {})}>
      <dl className="terminal-card-facts">{children}</dl>
    </StatCard>
  );
}

function Fact({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className="terminal-card-fact">
      <dt>{label}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}

function SummaryCards({ health, loading }: { health: FleetHealth | null; loading: boolean }) {
  const h = loading ? null : health;
  const signal = h?.averageSignalQuality ?? null;
  return (
    <div className="terminal-summary-grid" role="group" aria-label="Terminal summary">
      <SummaryCard title="Total Terminals" icon="pi pi-wifi" loading={loading} figure={value(loading, h?.total)}>
        <Fact label="Priority">{value(loading, h?.priority)}</Fact>
        <Fact label="Standard">{value(loading, h?.standard)}</Fact>
      </SummaryCard>
      <SummaryCard title="Terminal Status" icon="pi pi-check-circle" loading={loading}>
        <Fact label="Active" className="condition-active">{value(loading, h?.active)}</Fact>
        <Fact label="Warning" className="condition-warning">{value(loading, h?.warning)}</Fact>
        <Fact label="Maintenance" className="condition-maintenance">{value(loading, h?.maintenance)}</Fact>
        <Fact label="Inactive" className="condition-inactive">{value(loading, h?.inactive)}</Fact>
      </SummaryCard>
      <SummaryCard title="Network Health" icon="pi pi-chart-line" loading={loading}>
        <Fact label="Signal Quality" className={signal === null ? undefined : signalClass(signal)}>
          {signal === null ? DASH : percent(signal)}
          {signal !== null && <span className="sr-only"> ({SIGNAL_GRADE_LABEL[signalGrade(signal)]})</span>}
        </Fact>
        <Fact label="Network Uptime">{value(loading, h?.networkUptime, percent)}</Fact>
      </SummaryCard>
      <SummaryCard
        title="Data Usage"
        icon="pi pi-database"
        loading={loading}
        figure={value(loading, h?.monthlyUsageGB, (gb) => formatTerminalData(gb))}
      >
        <Fact label="Priority Lines">{value(loading, h?.priorityShare, percent)}</Fact>
      </SummaryCard>
    </div>
  );
}

function Subtitle({ total, health }: { total: number; health: FleetHealth | null }) {
  const sync = health?.sync;
  return (
    <>
      <span>
        {count(total)} {total === 1 ? 'terminal' : 'terminals'} in total
      </span>
      {sync && (
        <span className="terminal-sync-counts" aria-label="Sync status counts">
          <span className="sync-count sync-count-synced">{count(sync.synced)} synced</span>
          {sync.pending > 0 && <span className="sync-count sync-count-pending">{count(sync.pending)} pending</span>}
          {sync.error > 0 && (
            <span className="sync-count sync-count-error">
              {count(sync.error)} {sync.error === 1 ? 'error' : 'errors'}
            </span>
          )}
        </span>
      )}
    </>
  );
}

function SyncNotice({ notice, onDismiss }: { notice: TerminalSyncNotice; onDismiss(): void }) {
  const titleId = useId();
  if (notice.kind === 'running') {
    return (
      <section className="sync-running-card" role="status" aria-labelledby={titleId}>
        <i className="pi pi-spin pi-sync sync-running-icon" aria-hidden="true" />
        <div>
          <h2 id={titleId} className="sync-running-title">
            {TERMINAL_MESSAGES.syncRunningTitle}
          </h2>
          <p>{notice.text}</p>
        </div>
      </section>
    );
  }
  const icon = { info: 'pi pi-info-circle', success: 'pi pi-check-circle', error: 'pi pi-times-circle' }[notice.kind];
  return (
    <div className={`terminal-notice terminal-notice-${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
      <i className={`${icon} terminal-notice-icon`} aria-hidden="true" />
      <p className="terminal-notice-text">{notice.text}</p>
      <Button type="button" icon="pi pi-times" rounded text size="small" severity="secondary" aria-label="Dismiss" onClick={onDismiss} />
    </div>
  );
}

function ServiceLineCell({ terminal }: { terminal: TerminalListItem }) {
  return (
    <div className="cell-stack">
      <span className="cell-primary cell-mono-strong">{terminal.serviceLineNumber}</span>
      <span className="cell-secondary cell-mono">{terminal.userTerminalId}</span>
    </div>
  );
}

export function OwnerCell({ terminal }: { terminal: TerminalListItem }) {
  const owner = ownerLabel(terminal);
  return (
    <div className="cell-stack">
      <span className={owner.id === null ? 'cell-secondary owner-unassigned' : 'cell-primary'}>{owner.name}</span>
      {owner.id !== null && <span className="cell-secondary cell-mono">{owner.id}</span>}
    </div>
  );
}

function StatusCell({ terminal }: { terminal: TerminalListItem }) {
  return (
    <div className="cell-stack">
      <Tag value={terminal.active ? 'Active' : 'Inactive'} severity={terminal.active ? 'success' : 'danger'} rounded />
      {terminal.syncStatus !== 'synced' && (
        <Tag
          value={SYNC_STATUS_LABEL[terminal.syncStatus]}
          severity={terminal.syncStatus === 'error' ? 'danger' : 'warning'}
          className="sync-badge"
        />
      )}
    </div>
  );
}

function RowActions({ terminal, onOpen }: { terminal: TerminalListItem; onOpen: TerminalsViewProps['onOpen'] }) {
  // The row itself opens the dialog on click; the buttons must not open it a second time.
  const open = (tab?: TerminalDetailTab) => (event: MouseEvent) => {
    event.stopPropagation();
    if (tab) onOpen(terminal, tab);
    else onOpen(terminal);
  };
  return (
    <div className="terminal-row-actions">
      <Button
        type="button"
        icon="pi pi-eye"
        rounded
        text
        aria-label={`View details of ${terminal.serviceLineNumber}`}
        title="View details"
        onClick={open()}
      />
      <Button
        type="button"
        icon="pi pi-chart-bar"
        rounded
        text
        severity="secondary"
        aria-label={`Usage of ${terminal.serviceLineNumber}`}
        title="Usage"
        onClick={open('usage')}
      />
    </div>
  );
}

/** "Terminal Management" (spec section 2 "Terminals"). Renders props, calls callbacks. */
export function TerminalsView(props: TerminalsViewProps) {
  const meta = PAGE_TITLES['/terminals'];
  const id = useId();
  const addHintId = `${id}-add-hint`;
  const listTitleId = `${id}-list`;
  const folding = useColumnFolding<TerminalListItem>({ rowKey: (t) => t.userTerminalId, rowName: (t) => t.serviceLineNumber });
  const { rows, health, syncNotice } = props;
  const filtered = props.search.trim() !== '' || props.status !== 'all' || props.account !== null;
  const accounts = props.accounts;
  const total = health?.total ?? props.totalCount;

  return (
    <div className="page terminals-page">
      <PageHeader
        title={TERMINAL_MESSAGES.title}
        breadcrumb={meta.breadcrumb}
        subtitle={<Subtitle total={total} health={health} />}
        onNavigate={props.onNavigate}
        actions={
          <>
            {props.onExport && <ExportButton exporting={props.exporting === true} onExport={props.onExport} />}
            {props.onSync && (
              <Button
                type="button"
                label={props.syncing ? TERMINAL_MESSAGES.syncing : TERMINAL_MESSAGES.syncButton}
                icon={props.syncing ? 'pi pi-spin pi-sync' : 'pi pi-sync'}
                disabled={props.syncing}
                onClick={props.onSync}
              />
            )}
            {props.onAddTerminal && (
              <>
                <Button type="button" label="Add Terminal" icon="pi pi-plus" title={ADD_TERMINAL_HINT} aria-describedby={addHintId} onClick={props.onAddTerminal} />
                <span id={addHintId} className="sr-only">
                  {ADD_TERMINAL_HINT}
                </span>
              </>
            )}
          </>
        }
      />

      {syncNotice && <SyncNotice notice={syncNotice} onDismiss={props.onDismissNotice} />}

      <SummaryCards health={health} loading={props.healthLoading} />

      {props.budget && <SyncBudgetPanel {...props.budget} now={props.now} />}

      {props.recentSyncs && <RecentSyncs {...props.recentSyncs} showAccount={props.accounts !== undefined} now={props.now} />}

      <section className="list-card terminals-list" aria-labelledby={listTitleId}>
        <div className="terminals-list-head">
          <h2 id={listTitleId} className="section-title">
            {TERMINAL_MESSAGES.listTitle}
          </h2>
          <Button
            type="button"
            label="Refresh"
            icon={props.loading ? 'pi pi-spin pi-refresh' : 'pi pi-refresh'}
            outlined
            size="small"
            disabled={props.loading}
            onClick={props.onRefresh}
          />
        </div>

        <SearchFilterBar
          searchLabel="Search terminals"
          placeholder={TERMINAL_MESSAGES.searchPlaceholder}
          maxLength={TERMINAL_SEARCH_MAX_LENGTH}
          search={props.search}
          onSearch={props.onSearch}
          status={props.status}
          options={TERMINAL_STATUS_OPTIONS}
          onStatus={props.onStatus}
        >
          {accounts && (
            <AccountPicker accounts={accounts} value={props.account} onChange={props.onAccount} allLabel="All accounts" hideLabel className="list-status" />
          )}
        </SearchFilterBar>

        {props.error ? (
          <ErrorCard title={TERMINAL_MESSAGES.loadError} message={props.error} onRetry={props.onRetry} />
        ) : props.loading && rows.length === 0 ? (
          <p className="terminals-loading" role="status">
            <i className="pi pi-spin pi-spinner" aria-hidden="true" /> {TERMINAL_MESSAGES.loading}
          </p>
        ) : (
          <>
            <div className="terminals-caption">
              {props.loading ? (
                <span role="status">{TERMINAL_MESSAGES.loading}</span>
              ) : (
                <span>{TERMINAL_MESSAGES.caption(rows.length, props.totalCount)}</span>
              )}
              {props.lastSync && <span className="terminals-last-sync">{lastSyncSummary(props.lastSync, props.now)}</span>}
            </div>
            {/* The Account column arrives after the rows: PrimeReact keeps each cell by its place and
                would go on drawing the old column there, so the table starts afresh with it. */}
            <DataTable
              key={accounts ? 'accounts' : 'one-account'}
              value={rows}
              dataKey="userTerminalId"
              lazy
              paginator
              first={(props.page - 1) * props.limit}
              rows={props.limit}
              totalRecords={props.totalCount}
              onPage={(event: DataTablePageEvent) => props.onPage((event.page ?? Math.floor(event.first / event.rows)) + 1)}
              onRowClick={(event: DataTableRowClickEvent) => props.onOpen(event.data as TerminalListItem)}
              rowClassName={() => 'terminal-row'}
              loading={props.loading}
              emptyMessage={filtered ? 'No terminals match the search or filter' : 'No terminals yet: run a sync from the provider'}
              className="terminals-table"
              pt={{ table: { 'aria-label': TERMINAL_MESSAGES.listTitle } }}
              {...folding.table([
                { priority: 'always', header: 'Service Line Number', body: (t) => <ServiceLineCell terminal={t} /> },
                { priority: 'fold', header: 'Owner', body: (t) => <OwnerCell terminal={t} /> },
                accounts && { priority: 'fold', header: 'Account', body: (t) => t.accountName ?? DASH },
                { priority: 'always', header: 'Status', body: (t) => <StatusCell terminal={t} /> },
                { priority: 'always', header: 'Actions', body: (t) => <RowActions terminal={t} onOpen={props.onOpen} />, className: 'terminals-actions-cell' },
              ])}
            />
          </>
        )}
      </section>
    </div>
  );
}
