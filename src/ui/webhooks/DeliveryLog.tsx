// One endpoint's delivery log: a page of deliveries, newest first, each opening onto its attempts
// (time, HTTP code, latency, the answer's excerpt or the error), with Replay and Refresh. Renders
// props and calls callbacks; which rows are open is this view's own business.
import { useState } from 'react';
import { Button } from 'primereact/button';
import { DataTable } from 'primereact/datatable';
import { Dialog } from 'primereact/dialog';
import type { Pagination } from '../../domain/customers';
import { WEBHOOK_EVENT_LABELS, type WebhookAttemptWire, type WebhookDeliveryWire } from '../../domain/webhooks';
import { ErrorCard } from '../common/ErrorCard';
import { useColumnFolding } from '../common/useColumnFolding';
import { formatDateTime } from '../common/format';
import { DeliveryStatusTag, WEBHOOK_TEXTS as T, httpCode, latency } from './parts';
import { ListPaginator } from '../common/ListPaginator';

export const DELIVERIES_LOADING_TEXT = 'Loading deliveries...';

export interface DeliveryLogProps {
  /** The endpoint's URL, once the endpoints are loaded. */
  url: string | null;
  deliveries: readonly WebhookDeliveryWire[];
  pagination: Pagination | null;
  loading: boolean;
  refreshing: boolean;
  error: string | null;
  /** Replay is offered to those who manage alerts, on an active endpoint. */
  canReplay: boolean;
  /** An action is running: Replay waits. */
  busy: boolean;
  onReplay(delivery: WebhookDeliveryWire): void;
  onRefresh(): void;
  onRetry(): void;
  onPage(page: number): void;
  onClose(): void;
}

const deliveryName = (d: WebhookDeliveryWire) => `${WEBHOOK_EVENT_LABELS[d.eventType]} ${d.eventId}`;

function Attempts({ delivery }: { delivery: WebhookDeliveryWire }) {
  if (delivery.attemptLog.length === 0) return <p className="cell-secondary">No attempt yet.</p>;
  return (
    <table className="webhook-attempts" aria-label={`Attempts of ${deliveryName(delivery)}`}>
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">HTTP</th>
          <th scope="col">Latency</th>
          <th scope="col">Answer or error</th>
        </tr>
      </thead>
      <tbody>
        {delivery.attemptLog.map((attempt: WebhookAttemptWire, index) => (
          <tr key={`${attempt.attemptedAt}-${index}`}>
            <td>{formatDateTime(attempt.attemptedAt)}</td>
            <td>{httpCode(attempt.responseStatus)}</td>
            <td>{latency(attempt.latencyMs)}</td>
            <td>
              {attempt.error ? <span className="p-error">{attempt.error}</span> : <code className="webhook-excerpt">{attempt.responseExcerpt || '—'}</code>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function DeliveryLog(props: DeliveryLogProps) {
  const [open, setOpen] = useState<Record<string, boolean>>({});
  const { pagination } = props;
  const toggle = (id: string) => setOpen((rows) => (rows[id] ? Object.fromEntries(Object.entries(rows).filter(([key]) => key !== id)) : { ...rows, [id]: true }));
  const folding = useColumnFolding<WebhookDeliveryWire>({
    rowKey: (d) => d.id,
    rowName: deliveryName,
    extraExpansion: { rows: props.deliveries.filter((d) => open[d.id]), render: (d) => <Attempts delivery={d} /> },
  });
  return (
    <Dialog
      header={props.url ? `${T.deliveriesTitle}: ${props.url}` : T.deliveriesTitle}
      visible
      onHide={props.onClose}
      className="customer-dialog customer-dialog-wide webhook-deliveries"
      modal
      blockScroll
      footer={
        <div className="dialog-footer">
          <Button type="button" icon="pi pi-refresh" label={T.refresh} outlined loading={props.refreshing} disabled={props.loading || props.refreshing} onClick={props.onRefresh} />
          <Button type="button" label="Done" onClick={props.onClose} />
        </div>
      }
    >
      {props.error && pagination === null ? (
        <ErrorCard title={T.deliveriesFailed} message={props.error} onRetry={props.onRetry} headingLevel={3} />
      ) : pagination === null ? (
        <p role="status">{DELIVERIES_LOADING_TEXT}</p>
      ) : (
        <>
          <DataTable
            value={[...props.deliveries]}
            // cellMemo off: PrimeReact keeps a cell while its row's values are equal, and Replay and
            // the attempts toggle follow props and state that are not in the row.
            cellMemo={false}
            dataKey="id"
            emptyMessage={T.deliveriesEmpty}
            loading={props.loading}
            pt={{ table: { 'aria-label': 'Deliveries' } }}
            {...folding.table([
              {
                priority: 'always',
                header: 'Attempts log',
                body: (d) => (
                  <Button
                    type="button"
                    icon={open[d.id] ? 'pi pi-chevron-down' : 'pi pi-chevron-right'}
                    text
                    rounded
                    size="small"
                    aria-expanded={open[d.id] === true}
                    aria-label={`${open[d.id] ? 'Hide' : 'Show'} attempts of ${deliveryName(d)}`}
                    onClick={() => toggle(d.id)}
                  />
                ),
              },
              { priority: 'always', header: 'Event', body: (d) => WEBHOOK_EVENT_LABELS[d.eventType] },
              { priority: 'fold', header: 'Event id', body: (d) => <span className="cell-mono">{d.eventId}</span> },
              { priority: 'always', header: 'Status', body: (d) => <DeliveryStatusTag status={d.status} /> },
              { priority: 'fold', header: 'Attempts', body: (d) => d.attempts },
              { priority: 'fold', header: 'HTTP', body: (d) => httpCode(d.responseStatus) },
              { priority: 'fold', header: 'Latency', body: (d) => latency(d.latencyMs) },
              { priority: 'fold', header: 'Next attempt', body: (d) => formatDateTime(d.nextAttemptAt) },
              { priority: 'fold', header: 'Created', body: (d) => formatDateTime(d.createdAt) },
              {
                priority: 'always',
                header: 'Replay',
                body: (d) => (
                  <Button
                    type="button"
                    icon="pi pi-replay"
                    label="Replay"
                    size="small"
                    outlined
                    aria-label={`Replay ${deliveryName(d)}`}
                    disabled={!props.canReplay || props.busy}
                    onClick={() => props.onReplay(d)}
                  />
                ),
              },
            ])}
          />
          <ListPaginator pagination={pagination} onPage={props.onPage} />
        </>
      )}
    </Dialog>
  );
}
