// Customers → Provider accounts (/customers/provider-accounts): the portal's service accounts at the
// provider (a resource over GET /provider-accounts), the simulator's accounts that name a simulated
// one (a resource over GET /provider-accounts/simulated) and the page's changes (the provider
// accounts machine). The effects are the page's actors (src/api/provider-accounts.ts) and the
// toasts; what the dialogs show is read from the machine in one place.
import { useMemo } from 'react';
import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { createProviderAccountActors } from '../api/provider-accounts';
import type { ProviderAccountWire, SimulatedAccountWire } from '../domain/provider-accounts';
import { providerAccountsMachine, providerAccountsView } from '../machines/provider-accounts';
import { createResourceMachine, reloadEvent } from '../machines/resource';
import { DeleteProviderAccountDialog, ProviderAccountFormDialog } from '../ui/provider-accounts/ProviderAccountDialogs';
import { ProviderAccountsView } from '../ui/provider-accounts/ProviderAccountsView';
import { useAppServices, useCan, usePageActor } from './services';

const accountsMachine = createResourceMachine<ProviderAccountWire[]>('providerAccountList');
const simulatedMachine = createResourceMachine<SimulatedAccountWire[]>('simulatedAccountList');

const NO_SIMULATED: SimulatedAccountWire[] = [];

export function ProviderAccountsRoute() {
  const { api } = useAppServices();
  const router = useRouter();
  const canManage = useCan('provider:manage');
  const actors = useMemo(() => createProviderAccountActors(api), [api]);

  const accounts = usePageActor(accountsMachine.provide({ actors: { load: actors.loadAccounts } }));
  const simulatedList = usePageActor(simulatedMachine.provide({ actors: { load: actors.loadSimulatedList } }));
  const dialogs = usePageActor(
    providerAccountsMachine.provide({
      actors: {
        loadSimulated: actors.loadSimulated,
        saveAccount: actors.saveAccount,
        setEnabled: actors.setEnabled,
        testConnection: actors.testConnection,
        removeAccount: actors.removeAccount,
      },
      actions: {
        notifySuccess: (_, message) => void toast.success(message, { id: 'provider-accounts' }),
        notifyFailure: (_, message) => void toast.error(message, { id: 'provider-accounts' }),
        accountsChanged: () => accounts.send(reloadEvent(accounts.getSnapshot())),
      },
    }),
  );

  const list = useSelector(accounts, (s) => s.context.data);
  const loadError = useSelector(accounts, (s) => (s.matches('failed') ? s.context.error : null));
  const refreshing = useSelector(accounts, (s) => s.hasTag('refreshing'));
  const simulated = useSelector(simulatedList, (s) => s.context.data ?? NO_SIMULATED);
  const view = useSelector(dialogs, providerAccountsView);
  const accountName = (id: number) => list?.find((a) => a.id === id)?.name ?? `#${id}`;

  return (
    <>
      <ProviderAccountsView
        accounts={list}
        simulated={simulated}
        error={loadError}
        loading={refreshing}
        canManage={canManage}
        busy={view.dialog !== 'none' || view.busy}
        testing={view.testing}
        switching={view.switching}
        onCreate={() => dialogs.send({ type: 'user.create' })}
        onRetry={() => accounts.send({ type: 'user.retry' })}
        onEdit={(account) => dialogs.send({ type: 'user.edit', account })}
        onTest={(account) => dialogs.send({ type: 'user.test', account })}
        onDisable={(account) => dialogs.send({ type: 'user.disable', account })}
        onEnable={(account) => dialogs.send({ type: 'user.enable', account })}
        onDelete={(account) => dialogs.send({ type: 'user.delete', account })}
        onNavigate={(url) => void router.navigate({ href: url })}
      />
      <ProviderAccountFormDialog
        visible={view.dialog === 'form'}
        mode={view.mode}
        form={view.form}
        errors={view.errors}
        failure={view.failure}
        simulated={view.simulated}
        target={view.target}
        accountName={accountName}
        choicesLoading={view.choicesLoading}
        choicesFailed={view.choicesFailed}
        busy={view.busy}
        onField={(field, value) => dialogs.send({ type: 'user.field', field, value })}
        onKind={(kind) => dialogs.send({ type: 'user.kind', kind })}
        onSimulated={(slug) => dialogs.send({ type: 'user.simulated', slug })}
        onRetry={() => dialogs.send({ type: 'user.retry' })}
        onSubmit={() => dialogs.send({ type: 'user.submit' })}
        onCancel={() => dialogs.send({ type: 'user.cancel' })}
      />
      <DeleteProviderAccountDialog
        visible={view.dialog === 'delete'}
        account={view.target}
        failure={view.failure}
        busy={view.busy}
        onConfirm={() => dialogs.send({ type: 'user.confirm' })}
        onClose={() => dialogs.send({ type: 'user.cancel' })}
      />
    </>
  );
}
