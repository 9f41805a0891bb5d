// The API keys page: every key with its prefix (never the key), role, creator, dates, last use and
// status, New API key and each row's Revoke for those who may manage users. Renders props and calls
// callbacks.
import { Button } from 'primereact/button';
import { DataTable } from 'primereact/datatable';
import { Tag } from 'primereact/tag';
import { API_KEY_STATUS_HELP, API_KEY_STATUS_LABELS, type ApiKeyStatus, type ApiKeyWire } from '../../domain/api-keys';
import { ErrorCard } from '../common/ErrorCard';
import { DASH, formatDateTime } from '../common/format';
import { formatRelativeTime } from '../common/relativeTime';
import { useColumnFolding } from '../common/useColumnFolding';
import { useNow } from '../common/useNow';
import { API_KEY_TEXTS as T } from './parts';

/** The id of the sentence that says why the buttons are disabled for a reader. */
const READ_ONLY_ID = 'api-keys-read-only';

const STATUS_SEVERITY: Record<ApiKeyStatus, 'success' | 'warning' | 'danger' | 'secondary'> = {
  active: 'success',
  expired: 'secondary',
  revoked: 'danger',
  suspended: 'warning',
};

export interface ApiKeysViewProps {
  /** null before the first answer. */
  keys: readonly ApiKeyWire[] | null;
  error: string | null;
  loading: boolean;
  /** Making and revoking keys (users:manage); readers see the buttons disabled, and why. */
  canManage: boolean;
  /** A dialog is open or its request runs: the buttons wait. */
  busy: boolean;
  onCreate(): void;
  onRetry(): void;
  onRevoke(key: ApiKeyWire): void;
}

function LastUsedCell({ apiKey, now }: { apiKey: ApiKeyWire; now: number }) {
  if (!apiKey.lastUsedAt) return <span className="cell-secondary">{T.never}</span>;
  return (
    <span className="cell-stack">
      <span title={formatDateTime(apiKey.lastUsedAt)}>{formatRelativeTime(apiKey.lastUsedAt, now)}</span>
      {apiKey.lastUsedIp && <small className="cell-secondary cell-mono">{apiKey.lastUsedIp}</small>}
    </span>
  );
}

function StatusCell({ apiKey }: { apiKey: ApiKeyWire }) {
  return (
    <span className="cell-stack">
      <Tag value={API_KEY_STATUS_LABELS[apiKey.status]} severity={STATUS_SEVERITY[apiKey.status]} title={API_KEY_STATUS_HELP[apiKey.status]} />
      {apiKey.allowedIps.length > 0 ? (
        <small className="cell-secondary cell-mono" title={apiKey.allowedIps.join(', ')}>
          {apiKey.allowedIps.length === 1 ? apiKey.allowedIps[0] : `${apiKey.allowedIps[0]} +${apiKey.allowedIps.length - 1}`}
        </small>
      ) : (
        <small className="cell-secondary">{T.anyAddress}</small>
      )}
    </span>
  );
}

export function ApiKeysView(props: ApiKeysViewProps) {
  const now = useNow();
  const { keys } = props;
  const folding = useColumnFolding<ApiKeyWire>({ rowKey: (k) => k.id, rowName: (k) => k.name });
  const why = props.canManage ? {} : { 'aria-describedby': READ_ONLY_ID, tooltip: T.readOnly, tooltipOptions: { showOnDisabled: true, position: 'top' as const } };
  return (
    <section className="page api-keys-page" aria-labelledby="api-keys-title">
      <header className="page-header-row">
        <h1 id="api-keys-title">{T.pageTitle}</h1>
        <Button type="button" icon="pi pi-plus" label={T.newKey} disabled={!props.canManage || props.busy} onClick={props.onCreate} {...why} />
      </header>
      <p className="cell-secondary">{T.intro}</p>
      {!props.canManage && (
        <p id={READ_ONLY_ID} className="cell-secondary">
          {T.readOnly}
        </p>
      )}
      {props.error ? (
        <ErrorCard title={T.loadFailed} message={props.error} onRetry={props.onRetry} />
      ) : keys === null ? (
        <p role="status">{T.loading}</p>
      ) : (
        // cellMemo off: the buttons follow `busy` and `canManage`, which are not in the row.
        <DataTable
          value={[...keys]}
          cellMemo={false}
          dataKey="id"
          emptyMessage={T.empty}
          loading={props.loading}
          pt={{ table: { 'aria-label': T.pageTitle } }}
          {...folding.table([
            { priority: 'always', header: 'Name', body: (k) => <strong>{k.name}</strong> },
            { priority: 'always', header: 'Key', body: (k) => <span className="cell-mono">{k.prefix}…</span> },
            { priority: 'fold', header: 'Role', body: (k) => k.role.name },
            { priority: 'fold', header: 'Created by', body: (k) => k.createdBy?.name || k.createdBy?.email || T.removedUser },
            { priority: 'fold', header: 'Created', body: (k) => formatDateTime(k.createdAt) },
            { priority: 'fold', header: 'Expires', body: (k) => (k.expiresAt ? formatDateTime(k.expiresAt) : T.never) },
            { priority: 'fold', header: 'Last used', body: (k) => <LastUsedCell apiKey={k} now={now} /> },
            { priority: 'always', header: 'Status', body: (k) => <StatusCell apiKey={k} /> },
            {
              priority: 'always',
              header: 'Actions',
              body: (k) =>
                k.status === 'revoked' ? (
                  <span className="cell-secondary" title={k.revokedAt ? formatDateTime(k.revokedAt) : undefined}>
                    {k.revokedBy ? `Revoked by ${k.revokedBy.name || k.revokedBy.email}` : DASH}
                  </span>
                ) : (
                  <Button
                    type="button"
                    icon="pi pi-ban"
                    size="small"
                    text
                    severity="danger"
                    label={T.revoke}
                    aria-label={`${T.revoke}: ${k.name}`}
                    disabled={!props.canManage || props.busy}
                    onClick={() => props.onRevoke(k)}
                    {...why}
                  />
                ),
            },
          ])}
        />
      )}
    </section>
  );
}
