// The customer area's overview (/my): one resource machine loading the customer's own figures.
import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import type { MyOverviewWire } from '../../domain/my-area';
import { createResourceMachine } from '../../machines/resource';
import { MyOverviewView } from '../../ui/my/MyOverviewView';
import { outcome } from '../outcome';
import { usePageActor } from '../services';
import { useMyAreaSource } from './source';

export const myOverviewMachine = createResourceMachine<MyOverviewWire>('myOverview');

export function MyOverviewRoute() {
  const source = useMyAreaSource();
  const router = useRouter();
  const overview = usePageActor(myOverviewMachine.provide({ actors: { load: fromPromise(({ signal }) => outcome(() => source.overview(signal))) } }));
  const data = useSelector(overview, (s) => s.context.data);
  const loading = useSelector(overview, (s) => s.hasTag('loading'));
  const error = useSelector(overview, (s) => (s.matches('failed') ? s.context.error : null));
  return (
    <MyOverviewView
      overview={data}
      loading={loading}
      error={error}
      onRetry={() => overview.send({ type: 'user.retry' })}
      onNavigate={(url) => void router.navigate({ href: source.href(url) })}
      onOpenTerminal={(terminalId) => void router.navigate({ href: source.href(`/my/terminals/${encodeURIComponent(terminalId)}`) })}
    />
  );
}
