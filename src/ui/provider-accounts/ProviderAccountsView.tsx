// Customers → Provider accounts (/customers/provider-accounts): every account the portal uses at the
// provider with its kind, account number, currency, what it holds, its status (and what the provider
// last said) and its last sync; "Add account" and each row's Edit, Test connection, Disable / Enable
// and Delete for those who may manage the provider. Readers see the table alone. Renders props and
// calls callbacks.
import { Button } from 'primereact/button';
import { DataTable } from 'primereact/datatable';
import { Tag } from 'primereact/tag';
import { PAGE_TITLES } from '../../domain/navigation';
import {
  PROVIDER_ACCOUNT_STATUS_LABELS,
  type ProviderAccountStatus,
  type ProviderAccountWire,
  type SimulatedAccountWire,
} from '../../domain/provider-accounts';
import { ErrorCard } from '../common/ErrorCard';
import { DASH, count, formatDateTime } from '../common/format';
import { PageHeader } from '../common/PageHeader';
import { formatRelativeTime } from '../common/relativeTime';
import { useColumnFolding } from '../common/useColumnFolding';
import { useNow } from '../common/useNow';
import { PROVIDER_ACCOUNT_TEXTS as T } from './parts';
import './provider-accounts.css';

const STATUS_SEVERITY: Record<ProviderAccountStatus, 'success' | 'danger' | 'secondary'> = {
  active: 'success',
  disabled: 'secondary',
  auth_failed: 'danger',
};

export interface ProviderAccountsViewProps {
  /** null before the first answer. */
  accounts: readonly ProviderAccountWire[] | null;
  /** The simulator's accounts, to name the one a simulated account uses (its slug until read). */
  simulated: readonly SimulatedAccountWire[];
  error: string | null;
  loading: boolean;
  /** Adding, editing, testing, disabling and deleting (provider:manage); readers see no buttons. */
  canManage: boolean;
  /** A dialog is open or a request runs: the buttons wait. */
  busy: boolean;
  /** The row whose connection test runs, and the one being disabled or enabled. */
  testing: number | null;
  switching: number | null;
  onCreate(): void;
  onRetry(): void;
  onEdit(account: ProviderAccountWire): void;
  onTest(account: ProviderAccountWire): void;
  onDisable(account: ProviderAccountWire): void;
  onEnable(account: ProviderAccountWire): void;
  onDelete(account: ProviderAccountWire): void;
  onNavigate(url: string): void;
}

function KindCell({ account, simulated }: { account: ProviderAccountWire; simulated: readonly SimulatedAccountWire[] }) {
  if (account.kind === 'starlink') return <span>{T.kindShort.starlink}</span>;
  const uses = simulated.find((s) => s.slug === account.simulatorAccount);
  return (
    <span className="cell-stack">
      <span>{T.kindShort.simulator}</span>
      {account.simulatorAccount && <small className="cell-secondary">{uses?.name ?? account.simulatorAccount}</small>}
    </span>
  );
}

// The provider's words sit under the badge too: "Authentication failed" says what it refused.
function StatusCell({ account }: { account: ProviderAccountWire }) {
  return (
    <span className="cell-stack">
      <Tag value={PROVIDER_ACCOUNT_STATUS_LABELS[account.status]} severity={STATUS_SEVERITY[account.status]} title={account.statusMessage ?? undefined} />
      {account.statusMessage && <small className="cell-secondary">{account.statusMessage}</small>}
    </span>
  );
}

function LastSyncCell({ at, now }: { at: string | null; now: number }) {
  if (!at) return <span className="cell-secondary">{T.never}</span>;
  return <span title={formatDateTime(at)}>{formatRelativeTime(at, now)}</span>;
}

function RowActions({ account, ...props }: { account: ProviderAccountWire } & ProviderAccountsViewProps) {
  const testing = props.testing === account.id;
  const switching = props.switching === account.id;
  const disabled = account.status === 'disabled';
  const named = (action: string) => `${action}: ${account.name}`;
  return (
    <span className="provider-account-actions">
      <Button type="button" icon="pi pi-pencil" text rounded size="small" aria-label={named(T.edit)} title={T.edit} disabled={props.busy} onClick={() => props.onEdit(account)} />
      <Button
        type="button"
        icon={testing ? 'pi pi-spin pi-spinner' : 'pi pi-bolt'}
        text
        size="small"
        label={testing ? T.testing : T.test}
        aria-label={named(testing ? T.testing : T.test)}
        disabled={props.busy}
        onClick={() => props.onTest(account)}
      />
      <Button
        type="button"
        icon={switching ? 'pi pi-spin pi-spinner' : disabled ? 'pi pi-play' : 'pi pi-pause'}
        text
        rounded
        size="small"
        aria-label={named(disabled ? T.enable : T.disable)}
        title={disabled ? T.enable : T.disable}
        disabled={props.busy}
        onClick={() => (disabled ? props.onEnable(account) : props.onDisable(account))}
      />
      <Button
        type="button"
        icon="pi pi-trash"
        text
        rounded
        size="small"
        severity="danger"
        aria-label={named(T.delete)}
        title={T.delete}
        disabled={props.busy}
        onClick={() => props.onDelete(account)}
      />
    </span>
  );
}

export function ProviderAccountsView(props: ProviderAccountsViewProps) {
  const meta = PAGE_TITLES['/customers/provider-accounts'];
  const now = useNow();
  const { accounts } = props;
  const folding = useColumnFolding<ProviderAccountWire>({ rowKey: (a) => String(a.id), rowName: (a) => a.name });
  return (
    <div className="page provider-accounts-page">
      <PageHeader
        title={meta.title}
        breadcrumb={meta.breadcrumb}
        subtitle={T.subtitle}
        actions={
          props.canManage ? (
            <Button type="button" icon="pi pi-plus" label={T.addAccount} disabled={props.busy || accounts === null} onClick={props.onCreate} />
          ) : undefined
        }
        onNavigate={props.onNavigate}
      />
      {!props.canManage && <p className="text-muted">{T.readOnly}</p>}
      {props.error ? (
        <ErrorCard title={T.loadFailed} message={props.error} onRetry={props.onRetry} retryDisabled={props.loading} />
      ) : accounts === null ? (
        <p role="status">
          <i className="pi pi-spin pi-spinner" aria-hidden="true" /> {T.loading}
        </p>
      ) : (
        <section className="list-card" aria-label={T.tableLabel}>
          {/* cellMemo off: the buttons follow `busy` and `testing`, which are not in the row. */}
          <DataTable
            value={[...accounts]}
            cellMemo={false}
            dataKey="id"
            emptyMessage={T.empty}
            loading={props.loading}
            pt={{ table: { 'aria-label': T.tableLabel } }}
            {...folding.table([
              { priority: 'always', header: 'Name', body: (a) => <strong>{a.name}</strong> },
              { priority: 'fold', header: 'Kind', body: (a) => <KindCell account={a} simulated={props.simulated} /> },
              { priority: 'fold', header: 'Account number', body: (a) => <span className="cell-mono">{a.accountNumber ?? DASH}</span> },
              { priority: 'fold', header: 'Currency', body: (a) => a.currency ?? DASH },
              { priority: 'fold', header: 'Lines', body: (a) => count(a.lineCount) },
              { priority: 'fold', header: 'Terminals', body: (a) => count(a.terminalCount) },
              { priority: 'always', header: 'Status', body: (a) => <StatusCell account={a} /> },
              { priority: 'fold', header: 'Last sync', body: (a) => <LastSyncCell at={a.lastSyncAt} now={now} /> },
              props.canManage && { priority: 'always', header: 'Actions', body: (a) => <RowActions account={a} {...props} /> },
            ])}
          />
        </section>
      )}
    </div>
  );
}
