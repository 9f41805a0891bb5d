// Webhooks (/alerts/webhooks): the registered endpoints (a resource over GET /webhooks),
// Add / Edit (the webhook endpoint machine), the row actions (the webhook actions machine) and one
// endpoint's delivery log, which the URL opens (`?deliveries=<endpoint id>`). The machines' effects
// are provided here: the API calls, the toasts and the clipboard.
import { useEffect, useRef, useState } from 'react';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise, type ActorRefFrom } from 'xstate';
import type { Api } from '../api';
import { WEBHOOK_DELIVERIES_PAGE_SIZE, WEBHOOK_MESSAGES as M, type WebhookDeliveryWire, type WebhookEndpointWire } from '../domain/webhooks';
import { createListMachine, type ListLocation } from '../machines/list';
import { createResourceMachine, reloadEvent } from '../machines/resource';
import { WEBHOOK_ACTION_TEXTS, webhookActionsMachine, type WebhookActionInput } from '../machines/webhook-actions';
import { webhookEndpointMachine } from '../machines/webhook-endpoint';
import { ConfirmActionDialog } from '../ui/webhooks/ConfirmActionDialog';
import { DeliveryLog } from '../ui/webhooks/DeliveryLog';
import { EndpointDialog } from '../ui/webhooks/EndpointDialog';
import { SecretDialog, type CopyState } from '../ui/webhooks/SecretDialog';
import { WebhooksView, type WebhookRowAction } from '../ui/webhooks/WebhooksView';
import { useListState } from './list-state';
import { outcome } from './outcome';
import { useAppServices, useCan, usePageActor } from './services';

const routeApi = getRouteApi('/app/alerts/webhooks');

const endpointsMachine = createResourceMachine<WebhookEndpointWire[]>('webhookEndpoints');
const deliveriesMachine = createListMachine<WebhookDeliveryWire, 'all'>({
  id: 'webhookDeliveries',
  defaultQuery: { page: 1, limit: WEBHOOK_DELIVERIES_PAGE_SIZE, search: '', status: 'all' },
});

/** Where there is no clipboard (an insecure origin, a refused permission) this fails: the dialog says to copy by hand. */
async function copyToClipboard(secret: string): Promise<void> {
  if (typeof navigator === 'undefined' || !navigator.clipboard?.writeText) throw new Error('No clipboard');
  await navigator.clipboard.writeText(secret);
}

function runAction(api: Api, input: WebhookActionInput, signal: AbortSignal) {
  switch (input.kind) {
    case 'test':
      return api.webhooks.test(input.endpointId, signal);
    case 'enable':
      return api.webhooks.update(input.endpointId, { enabled: true }, signal);
    case 'disable':
      return api.webhooks.update(input.endpointId, { enabled: false }, signal);
    case 'delete':
      return api.webhooks.remove(input.endpointId, signal);
    case 'replay':
      return api.webhooks.replay(input.deliveryId ?? '', signal);
  }
}

const notify = (id: string) => ({
  notifySuccess: (_: unknown, message: string) => void toast.success(message, { id }),
  notifyFailure: (_: unknown, message: string) => void toast.error(message, { id }),
});

/** The secret dialog's copy step, from either machine's `showingSecret` substates. */
function copyState(snapshot: { matches(value: unknown): boolean }): CopyState {
  if (snapshot.matches({ showingSecret: 'copying' })) return 'copying';
  if (snapshot.matches({ showingSecret: 'copied' })) return 'copied';
  if (snapshot.matches({ showingSecret: 'copyFailed' })) return 'failed';
  return 'idle';
}

export function WebhooksRoute() {
  const { api } = useAppServices();
  const router = useRouter();
  const search = routeApi.useSearch();
  const canChange = useCan('alerts:manage');
  // Bumped whenever an action may have added a delivery: the open log reloads.
  const [logVersion, setLogVersion] = useState(0);

  const endpoints = usePageActor(
    endpointsMachine.provide({
      actors: { load: fromPromise(({ signal }) => outcome(() => api.webhooks.list(signal))) },
    }),
  );
  const reload = () => {
    endpoints.send(reloadEvent(endpoints.getSnapshot()));
    setLogVersion((version) => version + 1);
  };
  const copySecret = fromPromise<void, { secret: string }>(({ input }) => copyToClipboard(input.secret));

  const form = usePageActor(
    webhookEndpointMachine.provide({
      actors: {
        createEndpoint: fromPromise(({ input, signal }) => api.webhooks.create(input, signal)),
        updateEndpoint: fromPromise(({ input, signal }) => api.webhooks.update(input.id, input.update, signal)),
        copySecret,
      },
      actions: { ...notify('webhook-endpoint'), endpointSaved: () => reload() },
    }),
  );
  const actions = usePageActor(
    webhookActionsMachine.provide({
      actors: {
        runAction: fromPromise(({ input, signal }) => outcome<unknown>(() => runAction(api, input, signal))),
        rotateSecret: fromPromise(({ input, signal }) => outcome(() => api.webhooks.rotateSecret(input.endpointId, signal))),
        copySecret,
      },
      actions: { ...notify('webhook-actions'), endpointChanged: () => reload() },
    }),
  );

  const list = useSelector(endpoints, (s) => s.context.data);
  const loadError = useSelector(endpoints, (s) => (s.matches('failed') ? s.context.error : null));
  const refreshing = useSelector(endpoints, (s) => s.hasTag('refreshing'));

  const formOpen = useSelector(form, (s) => s.hasTag('open'));
  const formBusy = useSelector(form, (s) => s.hasTag('busy'));
  const formMode = useSelector(form, (s) => s.context.mode);
  const formValues = useSelector(form, (s) => s.context.form);
  const formErrors = useSelector(form, (s) => s.context.errors);
  const formFailure = useSelector(form, (s) => s.context.failure);
  const formSecretShown = useSelector(form, (s) => s.hasTag('secret'));
  const formSecret = useSelector(form, (s) => s.context.secret);
  const formCopy = useSelector(form, copyState);
  const formUrl = useSelector(form, (s) => s.context.form.url.trim());

  const actionBusy = useSelector(actions, (s) => s.hasTag('busy'));
  const confirmOpen = useSelector(actions, (s) => s.hasTag('open'));
  const actionKind = useSelector(actions, (s) => s.context.kind);
  const actionEndpoint = useSelector(actions, (s) => s.context.endpoint);
  const actionFailure = useSelector(actions, (s) => s.context.failure);
  const actionSecretShown = useSelector(actions, (s) => s.hasTag('secret'));
  const actionSecret = useSelector(actions, (s) => s.context.secret);
  const actionCopy = useSelector(actions, copyState);

  const logId = search.deliveries ?? null;
  const logEndpoint = logId && list ? (list.find((endpoint) => endpoint.id === logId) ?? null) : null;
  const openLog = (id: string | null) => void router.navigate({ to: '/alerts/webhooks', search: id ? { deliveries: id } : {} });

  // A link to an endpoint that is no longer there closes its log once the list says so.
  useEffect(() => {
    if (logId && list && !list.some((endpoint) => endpoint.id === logId)) openLog(null);
  });

  const onAction = (action: WebhookRowAction, endpoint: WebhookEndpointWire) => {
    if (action === 'deliveries') openLog(endpoint.id);
    else if (action === 'edit') form.send({ type: 'user.edit', endpoint });
    else actions.send({ type: `user.${action}`, endpoint });
  };

  return (
    <>
      <WebhooksView
        endpoints={list}
        error={loadError}
        loading={refreshing}
        busy={actionBusy}
        canChange={canChange}
        onAdd={() => form.send({ type: 'user.create' })}
        onRetry={() => endpoints.send({ type: 'user.retry' })}
        onAction={onAction}
      />
      <EndpointDialog
        visible={formOpen}
        mode={formMode}
        form={formValues}
        errors={formErrors}
        failure={formFailure}
        busy={formBusy}
        onField={(field, value) => form.send({ type: 'user.field', field, value })}
        onEventTypes={(eventTypes) => form.send({ type: 'user.eventTypes', eventTypes })}
        onSubmit={() => form.send({ type: 'user.submit' })}
        onCancel={() => form.send({ type: 'user.cancel' })}
      />
      <SecretDialog
        visible={formSecretShown}
        notice={M.created}
        url={formUrl || null}
        secret={formSecret ?? ''}
        copy={formCopy}
        onCopy={() => form.send({ type: 'user.copy' })}
        onClose={() => form.send({ type: 'user.close' })}
      />
      <ConfirmActionDialog
        visible={confirmOpen}
        action={actionKind === 'rotate' ? 'rotate' : 'delete'}
        question={
          actionEndpoint
            ? actionKind === 'rotate'
              ? WEBHOOK_ACTION_TEXTS.rotateQuestion(actionEndpoint.url)
              : WEBHOOK_ACTION_TEXTS.deleteQuestion(actionEndpoint.url)
            : ''
        }
        failure={actionFailure}
        busy={actionBusy}
        onConfirm={() => actions.send({ type: 'user.confirm' })}
        onClose={() => actions.send({ type: 'user.close' })}
      />
      <SecretDialog
        visible={actionSecretShown}
        notice={M.secretRotated}
        url={actionEndpoint?.url ?? null}
        secret={actionSecret ?? ''}
        copy={actionCopy}
        onCopy={() => actions.send({ type: 'user.copy' })}
        onClose={() => actions.send({ type: 'user.close' })}
      />
      {logId && (
        <DeliveryLogPanel
          key={logId}
          endpointId={logId}
          endpoint={logEndpoint}
          version={logVersion}
          canReplay={canChange && logEndpoint?.status === 'active'}
          busy={actionBusy}
          actions={actions}
          onClose={() => openLog(null)}
        />
      )}
    </>
  );
}

interface DeliveryLogPanelProps {
  endpointId: string;
  endpoint: WebhookEndpointWire | null;
  /** Changes when an action may have added a delivery. */
  version: number;
  canReplay: boolean;
  busy: boolean;
  actions: ActorRefFrom<typeof webhookActionsMachine>;
  onClose(): void;
}

/** The log of one endpoint: its own paged list actor, started when the log opens and stopped when it closes. */
function DeliveryLogPanel(props: DeliveryLogPanelProps) {
  const { api } = useAppServices();
  const [location, setLocation] = useState<ListLocation<'all'>>({ page: 1, search: '', status: 'all' });
  const log = usePageActor(
    deliveriesMachine.provide({
      actors: {
        load: fromPromise(({ input, signal }) =>
          outcome(async () => {
            const result = await api.webhooks.deliveries(props.endpointId, { page: input.page, limit: input.limit }, signal);
            return result.ok ? { ok: true as const, data: { rows: result.data.deliveries, pagination: result.data.pagination } } : result;
          }),
        ),
      },
      actions: {
        publishQuery: (_, query) => setLocation({ page: query.page, search: query.search, status: query.status }),
        reportLoadFailure: (_, message) => void toast.error(message, { id: 'webhook-deliveries' }),
      },
    }),
    { input: { query: location } },
  );
  const { rows, pagination, loading, error } = useListState(log, location);
  const refreshing = useSelector(log, (s) => s.hasTag('refreshing'));

  const seen = useRef(props.version);
  useEffect(() => {
    if (seen.current === props.version) return;
    seen.current = props.version;
    log.send({ type: 'user.refresh' });
  }, [log, props.version]);

  return (
    <DeliveryLog
      url={props.endpoint?.url ?? null}
      deliveries={rows}
      pagination={pagination}
      loading={loading}
      refreshing={refreshing}
      error={error}
      canReplay={props.canReplay}
      busy={props.busy}
      onReplay={(delivery) => props.endpoint && props.actions.send({ type: 'user.replay', endpoint: props.endpoint, delivery })}
      onRefresh={() => log.send({ type: 'user.refresh' })}
      onRetry={() => log.send({ type: 'user.retry' })}
      onPage={(page) => log.send({ type: 'user.page', page })}
      onClose={props.onClose}
    />
  );
}
