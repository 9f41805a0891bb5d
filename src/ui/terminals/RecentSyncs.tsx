// The terminals page's "Recent syncs": the last inventory and usage runs (GET /terminals/sync/queue),
// newest first, with what each changed and the provider calls it used. With more than one provider
// account the runs are of the account the page is filtered to (every account's for "All accounts")
// and an Account column names each run's. Props in, nothing out.
import { useId } from 'react';
import { DataTable } from 'primereact/datatable';
import { Column } from 'primereact/column';
import { Tag } from 'primereact/tag';
import type { SyncJob, SyncJobStatus } from '../../domain/terminals';
import { count, DASH, relative } from './format';

export const RECENT_SYNCS_TEXTS = {
  title: 'Recent syncs',
  empty: 'No syncs yet',
  loadFailed: 'Could not load the recent syncs',
} as const;

export interface RecentSyncsProps {
  /** Null until the first answer. */
  runs: readonly SyncJob[] | null;
  /** Why the last load failed (the runs shown, if any, are the previous ones). */
  error: string | null;
  /** The Account column (the portal holds more than one provider account). */
  showAccount: boolean;
  now: number;
}

const STATUS: Record<SyncJobStatus, { label: string; severity: 'success' | 'danger' | 'info' | 'warning' }> = {
  queued: { label: 'Queued', severity: 'info' },
  running: { label: 'Running', severity: 'warning' },
  succeeded: { label: 'Succeeded', severity: 'success' },
  failed: { label: 'Failed', severity: 'danger' },
};

/** "3 added, 2 updated, 1 removed": the counts that are not zero (an inventory run's). */
function changes(run: SyncJob): string {
  const c = run.counts;
  const parts = [
    c.added > 0 && `${count(c.added)} added`,
    c.updated > 0 && `${count(c.updated)} updated`,
    c.removed > 0 && `${count(c.removed)} removed`,
    c.failed > 0 && `${count(c.failed)} failed`,
  ].filter((part): part is string => typeof part === 'string');
  return parts.length > 0 ? parts.join(', ') : DASH;
}

export function RecentSyncs({ runs, error, showAccount, now }: RecentSyncsProps) {
  const titleId = useId();
  return (
    <section className="list-card recent-syncs" aria-labelledby={titleId}>
      <h2 id={titleId} className="section-title">
        {RECENT_SYNCS_TEXTS.title}
      </h2>
      {runs && (
        // The Account column may arrive after the rows: PrimeReact keeps each cell by its place, so
        // the table starts afresh with it.
        <DataTable
          key={showAccount ? 'accounts' : 'one-account'}
          value={[...runs]}
          dataKey="id"
          size="small"
          emptyMessage={RECENT_SYNCS_TEXTS.empty}
          pt={{ table: { 'aria-label': RECENT_SYNCS_TEXTS.title } }}
        >
          <Column header="Queued" body={(run: SyncJob) => relative(run.queuedAt, now)} />
          <Column header="Kind" body={(run: SyncJob) => (run.kind === 'usage' ? 'Usage' : 'Inventory')} />
          {showAccount && <Column header="Account" body={(run: SyncJob) => run.accountName ?? DASH} />}
          <Column header="Status" body={(run: SyncJob) => <Tag value={STATUS[run.status].label} severity={STATUS[run.status].severity} rounded />} />
          <Column header="Changes" body={changes} />
          <Column header="Provider calls" body={(run: SyncJob) => count(run.providerCalls)} />
        </DataTable>
      )}
      {error && <p role="status">{`${RECENT_SYNCS_TEXTS.loadFailed}: ${error}`}</p>}
    </section>
  );
}
