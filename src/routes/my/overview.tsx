// The customer area's overview (/my): one resource machine loading the customer's own figures, and
// where the area's source can read it, a second one for the balance line (quiet when it fails:
// the statements page says why).
import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import type { ApiResult } from '../../api';
import type { MyAccountWire } from '../../domain/ledger';
import type { MyOverviewWire } from '../../domain/my-area';
import { createResourceMachine } from '../../machines/resource';
import { MyBalanceLine } from '../../ui/billing/account/MyAccountView';
import { MyOverviewView } from '../../ui/my/MyOverviewView';
import { outcome } from '../outcome';
import { usePageActor } from '../services';
import { useMyAreaSource } from './source';
import { myAccountMachine } from './statements';

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
      {...(source.account ? { balance: <BalanceLine load={source.account} onOpen={() => void router.navigate({ href: source.href('/my/statements') })} /> } : {})}
      onRetry={() => overview.send({ type: 'user.retry' })}
      onNavigate={(url) => void router.navigate({ href: source.href(url) })}
      onOpenTerminal={(terminalId) => void router.navigate({ href: source.href(`/my/terminals/${encodeURIComponent(terminalId)}`) })}
    />
  );
}

function BalanceLine({ load, onOpen }: { load: (signal?: AbortSignal) => Promise<ApiResult<MyAccountWire>>; onOpen(): void }) {
  const account = usePageActor(myAccountMachine.provide({ actors: { load: fromPromise(({ signal }) => outcome(() => load(signal))) } }));
  const data = useSelector(account, (s) => s.context.data);
  return <MyBalanceLine account={data} onOpen={onOpen} />;
}
