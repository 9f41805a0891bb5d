// My Alerts (/my/alerts, customer; and the admin preview's /customers/{uuid}/preview/alerts): the
// customer's own alerts, read through the area's source so the preview shows the same page.
import { useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import type { MyAlertsWire } from '../domain/alerts';
import { createResourceMachine } from '../machines/resource';
import { MyAlertsView } from '../ui/my/MyAlertsView';
import { useMyAreaSource } from './my/source';
import { outcome } from './outcome';
import { usePageActor } from './services';

const myAlertsMachine = createResourceMachine<MyAlertsWire>('myAlerts');

export function MyAlertsRoute() {
  const { alerts: loadAlerts } = useMyAreaSource();
  const alerts = usePageActor(myAlertsMachine.provide({ actors: { load: fromPromise(({ signal }) => outcome(() => loadAlerts(signal))) } }));
  const data = useSelector(alerts, (s) => s.context.data);
  const error = useSelector(alerts, (s) => (s.matches('failed') ? s.context.error : null));
  const loading = useSelector(alerts, (s) => s.hasTag('loading'));
  return <MyAlertsView alerts={data?.alerts ?? null} loading={loading} error={error} onRetry={() => alerts.send({ type: 'user.retry' })} />;
}
