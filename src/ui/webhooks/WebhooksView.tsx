// The Webhooks page: the registered endpoints with their status, last delivery and
// secret hint, the notice when the portal disabled one after failures, and each row's actions.
// Renders props and calls callbacks.
import { Button } from 'primereact/button';
import { DataTable } from 'primereact/datatable';
import { Message } from 'primereact/message';
import { Tag } from 'primereact/tag';
import { WEBHOOK_EVENT_LABELS, WEBHOOK_MESSAGES as M, type WebhookEndpointWire } from '../../domain/webhooks';
import { ErrorCard } from '../common/ErrorCard';
import { useColumnFolding } from '../common/useColumnFolding';
import { formatRelativeTime } from '../common/relativeTime';
import { useNow } from '../common/useNow';
import { DeliveryStatusTag, WEBHOOK_TEXTS as T, disabledAfterFailures, httpCode } from './parts';

export type WebhookRowAction = 'test' | 'rotate' | 'enable' | 'disable' | 'edit' | 'delete' | 'deliveries';

export const WEBHOOKS_LOADING_TEXT = 'Loading webhook endpoints...';
/** The id of the hidden sentence that says why a button is disabled for those who may not change webhooks. */
const READ_ONLY_ID = 'webhooks-read-only';

export interface WebhooksViewProps {
  /** null before the first answer. */
  endpoints: readonly WebhookEndpointWire[] | null;
  error: string | null;
  loading: boolean;
  /** An action is running: the row buttons wait. */
  busy: boolean;
  /** Only those who manage alerts change anything; the others see the buttons disabled and why. */
  canChange: boolean;
  onAdd(): void;
  onRetry(): void;
  onAction(action: WebhookRowAction, endpoint: WebhookEndpointWire): void;
}

function EventTypesCell({ endpoint }: { endpoint: WebhookEndpointWire }) {
  if (endpoint.eventTypes.length === 0) return <Tag value={T.allEvents} severity="secondary" />;
  return (
    <span className="webhook-chips">
      {endpoint.eventTypes.map((type) => (
        <Tag key={type} value={WEBHOOK_EVENT_LABELS[type]} severity="info" />
      ))}
    </span>
  );
}

function StatusCell({ endpoint }: { endpoint: WebhookEndpointWire }) {
  return (
    <span className="cell-stack">
      <Tag value={endpoint.status === 'active' ? 'Active' : 'Disabled'} severity={endpoint.status === 'active' ? 'success' : 'danger'} />
      {endpoint.status === 'disabled' && endpoint.disabledReason && <small className="cell-secondary">{endpoint.disabledReason}</small>}
    </span>
  );
}

function LastDeliveryCell({ endpoint, now }: { endpoint: WebhookEndpointWire; now: number }) {
  const last = endpoint.lastDelivery;
  if (!last) return <span className="cell-secondary">Never</span>;
  return (
    <span className="cell-stack">
      <span>
        <DeliveryStatusTag status={last.status} /> <span aria-label="HTTP status">{httpCode(last.responseStatus)}</span>
      </span>
      <small className="cell-secondary" title={last.at}>
        {formatRelativeTime(last.at, now)}
      </small>
    </span>
  );
}

function RowActions({ endpoint, props }: { endpoint: WebhookEndpointWire; props: WebhooksViewProps }) {
  const { canChange, busy } = props;
  const active = endpoint.status === 'active';
  const locked = !canChange || busy;
  // Disabled without alerts:manage, with the reason as the button's description and its tooltip.
  const why = canChange ? {} : { 'aria-describedby': READ_ONLY_ID, tooltip: T.readOnly, tooltipOptions: { showOnDisabled: true, position: 'top' as const } };
  const button = (action: WebhookRowAction, label: string, icon: string, extra: { disabled?: boolean; danger?: boolean } = {}) => (
    <Button
      type="button"
      icon={icon}
      size="small"
      text
      severity={extra.danger ? 'danger' : 'secondary'}
      aria-label={`${label}: ${endpoint.url}`}
      disabled={locked || extra.disabled === true}
      onClick={() => props.onAction(action, endpoint)}
      {...why}
    />
  );
  return (
    <span className="row-actions webhook-actions">
      <Button
        type="button"
        icon="pi pi-list"
        size="small"
        text
        label="Deliveries"
        aria-label={`Deliveries: ${endpoint.url}`}
        onClick={() => props.onAction('deliveries', endpoint)}
      />
      {button('test', 'Send test', 'pi pi-send', { disabled: !active })}
      {button('rotate', 'Rotate secret', 'pi pi-key')}
      {active ? button('disable', 'Disable', 'pi pi-pause') : button('enable', 'Enable', 'pi pi-play')}
      {button('edit', 'Edit', 'pi pi-pencil')}
      {button('delete', 'Delete', 'pi pi-trash', { danger: true })}
    </span>
  );
}

export function WebhooksView(props: WebhooksViewProps) {
  const now = useNow();
  const { endpoints } = props;
  const failing = (endpoints ?? []).filter(disabledAfterFailures);
  const folding = useColumnFolding<WebhookEndpointWire>({ rowKey: (e) => e.id, rowName: (e) => e.url });
  return (
    <section className="page webhooks-page" aria-labelledby="webhooks-title">
      <header className="page-header-row">
        <h1 id="webhooks-title">{M.pageTitle}</h1>
        <Button
          type="button"
          icon="pi pi-plus"
          label={T.addEndpoint}
          disabled={!props.canChange}
          onClick={props.onAdd}
          {...(props.canChange ? {} : { 'aria-describedby': READ_ONLY_ID, tooltip: T.readOnly, tooltipOptions: { showOnDisabled: true } })}
        />
      </header>
      {!props.canChange && (
        <p id={READ_ONLY_ID} className="cell-secondary">
          {T.readOnly}
        </p>
      )}
      {failing.length > 0 && (
        <Message
          severity="warn"
          className="webhooks-notice"
          content={
            <div>
              <strong>{T.noticeTitle}.</strong> {T.notice(failing.length)}
              <ul>
                {failing.map((endpoint) => (
                  <li key={endpoint.id}>
                    {endpoint.url}
                    {endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ''}
                  </li>
                ))}
              </ul>
            </div>
          }
        />
      )}
      {props.error ? (
        <ErrorCard title={T.loadFailed} message={props.error} onRetry={props.onRetry} />
      ) : endpoints === null ? (
        <p role="status">{WEBHOOKS_LOADING_TEXT}</p>
      ) : (
        // cellMemo off: PrimeReact keeps a cell while its row's values are equal, and the buttons
        // must follow `busy` and `canChange`, which are not in the row.
        <DataTable
          value={[...endpoints]}
          cellMemo={false}
          dataKey="id"
          emptyMessage={T.empty}
          loading={props.loading}
          pt={{ table: { 'aria-label': 'Webhook endpoints' } }}
          {...folding.table([
            { priority: 'always', header: 'URL', body: (e) => <span className="cell-mono">{e.url}</span> },
            { priority: 'fold', header: 'Description', body: (e) => e.description || '—' },
            { priority: 'fold', header: 'Events', body: (e) => <EventTypesCell endpoint={e} /> },
            { priority: 'always', header: 'Status', body: (e) => <StatusCell endpoint={e} /> },
            { priority: 'fold', header: 'Last delivery', body: (e) => <LastDeliveryCell endpoint={e} now={now} /> },
            { priority: 'fold', header: 'Secret', body: (e) => <span className="cell-mono">{e.secretHint ? `…${e.secretHint.replace(/^…/, '')}` : '—'}</span> },
            { priority: 'always', header: 'Actions', body: (e) => <RowActions endpoint={e} props={props} /> },
          ])}
        />
      )}
    </section>
  );
}
