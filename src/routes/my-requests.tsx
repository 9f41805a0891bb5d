// My Requests (/my/requests, customer): their requests (GET /my/requests, with the lines they may
// ask about), and the New request / Cancel dialogs (the customer request machine), whose effects
// are provided here. Every call acts on the signed-in customer's own account.
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise, type SnapshotFrom } from 'xstate';
import type { MyRequestsWire } from '../domain/requests';
import { customerRequestMachine, requestPayload } from '../machines/customer-request';
import { createResourceMachine, reloadEvent } from '../machines/resource';
import { MyRequestsView } from '../ui/requests/MyRequestsView';
import { NewRequestDialog, type NewRequestStep } from '../ui/requests/NewRequestDialog';
import { outcome } from './outcome';
import { useMyAreaSource } from './my/source';
import { useAppServices, usePageActor } from './services';

const myRequestsMachine = createResourceMachine<MyRequestsWire>('myRequests');

function dialogStep(s: SnapshotFrom<typeof customerRequestMachine>): NewRequestStep {
  if (s.matches('confirmingCancel') || s.matches('cancelling')) return 'cancel';
  if (s.matches('loadingOptions')) return 'loading';
  return s.matches('editing') || s.matches('submitting') ? 'edit' : 'line';
}

export function MyRequestsRoute() {
  const { api } = useAppServices();
  // The customer's own list, or the admin preview's (read-only) of the customer's.
  const { requests: loadRequests, readOnly } = useMyAreaSource();
  const requests = usePageActor(
    myRequestsMachine.provide({
      actors: { load: fromPromise(({ signal }) => outcome(() => loadRequests(signal))) },
    }),
  );
  const flow = usePageActor(
    customerRequestMachine.provide({
      actors: {
        loadOptions: fromPromise(({ input, signal }) => outcome(() => api.requests.options(input.serviceLineNumber, signal))),
        sendRequest: fromPromise(({ input, signal }) => outcome(() => api.requests.create(input, signal))),
        cancelRequest: fromPromise(({ input, signal }) => outcome(() => api.requests.cancel(input.id, signal))),
      },
      actions: {
        notifySuccess: (_, message) => void toast.success(message, { id: 'customer-request' }),
        notifyFailure: (_, message) => void toast.error(message, { id: 'customer-request' }),
        requestsChanged: () => requests.send(reloadEvent(requests.getSnapshot())),
      },
    }),
  );

  const data = useSelector(requests, (s) => s.context.data);
  const loadError = useSelector(requests, (s) => (s.matches('failed') ? s.context.error : null));
  const loading = useSelector(requests, (s) => s.hasTag('loading'));
  const open = useSelector(flow, (s) => s.hasTag('open'));
  const busy = useSelector(flow, (s) => s.hasTag('busy'));
  const step = useSelector(flow, dialogStep);
  const canSubmit = useSelector(flow, (s) => s.can({ type: 'user.submit' }));
  const dialog = useSelector(flow, (s) => s.context);
  const lines = data?.lines ?? [];

  return (
    <>
      <MyRequestsView
        requests={data?.requests ?? null}
        hasLines={lines.length > 0}
        loading={loading}
        error={loadError}
        readOnly={readOnly}
        busy={busy}
        onNew={() => flow.send({ type: 'user.open', lines })}
        onCancel={(request) => flow.send({ type: 'user.cancelRequest', request })}
        onRetry={() => requests.send({ type: 'user.retry' })}
      />
      {!readOnly && (
        <NewRequestDialog
          visible={open}
          step={step}
          lines={dialog.lines}
          serviceLineNumber={dialog.serviceLineNumber}
          options={dialog.options}
          kind={dialog.kind}
          planId={dialog.planId}
          count={dialog.count}
          note={dialog.note}
          canSubmit={canSubmit || (busy && requestPayload(dialog) !== null)}
          error={dialog.failure ?? dialog.error}
          busy={busy}
          onLine={(serviceLineNumber) => flow.send({ type: 'user.line', serviceLineNumber })}
          onKind={(kind) => flow.send({ type: 'user.kind', kind })}
          onPlan={(productId) => flow.send({ type: 'user.plan', productId })}
          onCount={(count) => flow.send({ type: 'user.count', count })}
          onNote={(value) => flow.send({ type: 'user.note', value })}
          onSubmit={() => flow.send({ type: 'user.submit' })}
          onConfirmCancel={() => flow.send({ type: 'user.confirm' })}
          onClose={() => flow.send({ type: 'user.close' })}
        />
      )}
    </>
  );
}
