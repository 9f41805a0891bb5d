// My Alerts: the customer's own alerts, unresolved first, then resolved, each with what the portal
// did about it (an automatic action, in a sentence); read-only for everyone (an alert is the
// portal's to acknowledge). Renders props and calls callbacks.
import { DataTable } from 'primereact/datatable';
import type { AlertWire } from '../../domain/alerts';
import { ErrorCard } from '../common/ErrorCard';
import { useColumnFolding } from '../common/useColumnFolding';
import { useNow } from '../common/useNow';
import { AlertStatusTag, OpenedAt, SeverityTag } from '../alerts/parts';
import { AutomaticActionsNote } from '../alerts/AutomaticActionsNote';

export const MY_ALERTS_TITLE = 'My Alerts';
export const MY_ALERTS_INTRO = 'What the portal has noticed about your lines and account: data use, projected overage, terminals offline, your account expiring.';
export const MY_ALERTS_LOADING = 'Loading your alerts...';
export const MY_ALERTS_FAILED = 'Could not load your alerts';
export const MY_ALERTS_EMPTY = 'No alerts. We will show one here when a line nears its plan or a terminal goes quiet.';
export const UNRESOLVED_TITLE = 'Unresolved';
export const RESOLVED_TITLE = 'Resolved';

export interface MyAlertsViewProps {
  alerts: readonly AlertWire[] | null;
  loading: boolean;
  error: string | null;
  onRetry(): void;
}

function AlertsTable({ alerts, label, now }: { alerts: AlertWire[]; label: string; now: number }) {
  const folding = useColumnFolding<AlertWire>({ rowKey: (a) => a.id, rowName: (a) => a.title });
  return (
    <DataTable
      value={alerts}
      dataKey="id"
      pt={{ table: { 'aria-label': label } }}
      {...folding.table([
        { priority: 'fold', header: 'Severity', body: (a) => <SeverityTag severity={a.severity} /> },
        { priority: 'always', header: 'Alert', body: (a) => <strong>{a.title}</strong> },
        {
          priority: 'fold',
          header: 'Details',
          // What the portal did about it, so that a changed line is explained where its alert is.
          body: (a) => (
            <>
              {a.message}
              <AutomaticActionsNote actions={a.automaticActions} />
            </>
          ),
        },
        { priority: 'fold', header: 'Opened', body: (a) => <OpenedAt iso={a.openedAt} now={now} /> },
        { priority: 'always', header: 'Status', body: (a) => <AlertStatusTag status={a.status} /> },
      ])}
    />
  );
}

export function MyAlertsView({ alerts, loading, error, onRetry }: MyAlertsViewProps) {
  const now = useNow();
  // The server answers unresolved first; the split keeps that true whatever order arrives.
  const unresolved = (alerts ?? []).filter((a) => a.status !== 'resolved');
  const resolved = (alerts ?? []).filter((a) => a.status === 'resolved');
  return (
    <section className="page my-alerts-page" aria-labelledby="my-alerts-title" aria-busy={loading || undefined}>
      <header className="page-header-row">
        <div>
          <h1 id="my-alerts-title">{MY_ALERTS_TITLE}</h1>
          <p>{MY_ALERTS_INTRO}</p>
        </div>
      </header>
      {error ? (
        <ErrorCard title={MY_ALERTS_FAILED} message={error} onRetry={onRetry} />
      ) : alerts === null ? (
        <p role="status">{MY_ALERTS_LOADING}</p>
      ) : alerts.length === 0 ? (
        <p>{MY_ALERTS_EMPTY}</p>
      ) : (
        <>
          {unresolved.length > 0 && (
            <>
              <h2>{UNRESOLVED_TITLE}</h2>
              <AlertsTable alerts={unresolved} label={UNRESOLVED_TITLE} now={now} />
            </>
          )}
          {resolved.length > 0 && (
            <>
              <h2>{RESOLVED_TITLE}</h2>
              <AlertsTable alerts={resolved} label={RESOLVED_TITLE} now={now} />
            </>
          )}
        </>
      )}
    </section>
  );
}
