// The Starlink API Simulator page: the console machine and the connection test, provided over the
// API. With several provider accounts the header asks which one the console talks to; choosing
// another starts the page's actors afresh for it, so the connection test runs again and what was
// loaded from the last account goes.
import type { ReactNode } from 'react';
import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { NetworkError } from '../api';
import { CONSOLE_MESSAGES, type ProviderHealthResponse } from '../domain/provider-console';
import { providerConsoleMachine } from '../machines/provider-console';
import { createResourceMachine, type LoadOutcome } from '../machines/resource';
import { ProviderConsoleView } from '../ui/provider-console/ProviderConsoleView';
import { useChosenAccount } from './account-refs';
import { useAppServices, usePageActor } from './services';

/** The status line's connection test: load on arrival, Test Connection reloads in place. */
const providerHealthMachine = createResourceMachine<ProviderHealthResponse>('providerHealth');

export function ProviderConsoleRoute() {
  const { accountId, picker } = useChosenAccount();
  return <ProviderConsolePage key={accountId ?? 'one-account'} accountId={accountId} accountPicker={picker} />;
}

function ProviderConsolePage({ accountId, accountPicker }: { accountId: number | null; accountPicker: ReactNode }) {
  const { api } = useAppServices();
  const router = useRouter();

  const consoleActor = usePageActor(
    providerConsoleMachine.provide({
      actors: {
        search: fromPromise(({ input, signal }) => api.providerConsole.search(input, signal, accountId)),
        userTerminals: fromPromise(({ signal }) => api.providerConsole.userTerminals(signal, accountId)),
      },
    }),
  );
  const health = usePageActor(
    providerHealthMachine.provide({
      actors: {
        load: fromPromise(async ({ signal }): Promise<LoadOutcome<ProviderHealthResponse>> => {
          try {
            const result = await api.providerConsole.health(signal, accountId);
            return result.ok
              ? { ok: true, data: result.data }
              : { ok: false, message: result.message || CONSOLE_MESSAGES.connectionFailed };
          } catch (error) {
            if (error instanceof NetworkError) return { ok: false, message: CONSOLE_MESSAGES.network };
            throw error;
          }
        }),
      },
    }),
  );

  const serviceLineInput = useSelector(consoleActor, (s) => s.context.input);
  const canSearch = useSelector(consoleActor, (s) => s.can({ type: 'user.search' }));
  const searching = useSelector(consoleActor, (s) => s.hasTag('searching'));
  const searchResult = useSelector(consoleActor, (s) => (s.matches({ search: 'found' }) ? s.context.searchResult : null));
  const notFoundServiceLine = useSelector(consoleActor, (s) => (s.matches({ search: 'notFound' }) ? s.context.query : null));
  const searchError = useSelector(consoleActor, (s) => (s.matches({ search: 'failed' }) ? s.context.searchError : null));
  const loadingTerminals = useSelector(consoleActor, (s) => s.hasTag('loadingTerminals'));
  const terminals = useSelector(consoleActor, (s) => (s.matches({ terminals: 'loaded' }) ? s.context.terminals : null));
  const terminalsError = useSelector(consoleActor, (s) => (s.matches({ terminals: 'failed' }) ? s.context.terminalsError : null));
  const providerHealth = useSelector(health, (s) => s.context.data);
  const healthError = useSelector(health, (s) => s.context.error);
  const checkingHealth = useSelector(health, (s) => s.hasTag('loading') || s.hasTag('refreshing'));
  const healthFailed = useSelector(health, (s) => s.matches('failed'));

  return (
    <ProviderConsoleView
      accountPicker={accountPicker}
      serviceLineInput={serviceLineInput}
      canSearch={canSearch}
      searching={searching}
      searchResult={searchResult}
      notFoundServiceLine={notFoundServiceLine}
      searchError={searchError}
      loadingTerminals={loadingTerminals}
      terminals={terminals}
      terminalsError={terminalsError}
      health={providerHealth}
      healthError={healthError}
      checkingHealth={checkingHealth}
      onServiceLineInput={(value) => consoleActor.send({ type: 'user.type', value })}
      onSearch={() => consoleActor.send({ type: 'user.search' })}
      onLoadTerminals={() => consoleActor.send({ type: 'user.loadTerminals' })}
      onCheckConnection={() => health.send({ type: healthFailed ? 'user.retry' : 'user.refresh' })}
      onNavigate={(url) => void router.navigate({ href: url })}
    />
  );
}
