// The customer's terminals (/my/terminals): one resource machine loading their own list.
import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import type { MyTerminalWire } from '../../domain/my-area';
import { createResourceMachine } from '../../machines/resource';
import { MyTerminalsView } from '../../ui/my/MyTerminalsView';
import { outcome } from '../outcome';
import { usePageActor } from '../services';
import { useMyAreaSource } from './source';

export const myTerminalsMachine = createResourceMachine<MyTerminalWire[]>('myTerminals');

export function MyTerminalsRoute() {
  const source = useMyAreaSource();
  const router = useRouter();
  const list = usePageActor(myTerminalsMachine.provide({ actors: { load: fromPromise(({ signal }) => outcome(() => source.terminals(signal))) } }));
  const terminals = useSelector(list, (s) => s.context.data);
  const loading = useSelector(list, (s) => s.hasTag('loading'));
  const error = useSelector(list, (s) => (s.matches('failed') ? s.context.error : null));
  return (
    <MyTerminalsView
      terminals={terminals}
      loading={loading}
      error={error}
      onRetry={() => list.send({ type: 'user.retry' })}
      onNavigate={(url) => void router.navigate({ href: source.href(url) })}
      onOpenTerminal={(terminalId) => void router.navigate({ href: source.href(`/my/terminals/${encodeURIComponent(terminalId)}`) })}
    />
  );
}
