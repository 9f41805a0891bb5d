// The terminals page: the list (page, search, status and account in the URL), the fleet summary
// cards, the background sync and the Terminal Details dialog, which is URL state (`?terminal=<id>`)
// so a link opens it. Each is a machine whose effects are provided here. When the portal holds more
// than one provider account the list has an Account column and filter, and the dialog names the
// account; the accounts are read once per visit, and without them the page is as with one account.
// The "Provider calls" budget and "Recent syncs" follow the filter (the first account's budget and
// every account's runs for "All accounts").
import { useCallback, useEffect, useRef, useState } from 'react';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise } from 'xstate';
import {
  TERMINAL_MESSAGES,
  TERMINALS_PAGE_SIZE,
  type FleetHealth,
  type SyncJob,
  type TerminalListItem,
} from '../domain/terminals';
import { LIST_EXPORT_FAILED, listExportFileName } from '../domain/list-exports';
import { useAccountChoices } from './account-refs';
import type { TerminalListQuery } from '../api/terminals';
import { createListMachine, type ListLocation, type ListQuery } from '../machines/list';
import type { SyncBudget } from '../domain/provider-budget';
import { createResourceMachine, reloadEvent } from '../machines/resource';
import { terminalSyncMachine } from '../machines/terminal-sync';
import type { TerminalDetailTab } from '../ui/terminals/TerminalDetailDialog';
import { TerminalsView, type TerminalStatusFilter, type TerminalSyncNotice } from '../ui/terminals/TerminalsView';
import { useCsvExport } from '../ui/common/ExportButton';
import { useNow } from '../ui/common/useNow';
import { ActivationWizardPanel } from './activation-wizard-panel';
import { useListState } from './list-state';
import { placeholderTerminal, TerminalDetailPanel } from './terminal-detail-panel';
import { outcome } from './outcome';
import { validateTerminalsSearch, type TerminalsSearch } from './search-params';
import { useAppServices, useCan, usePageActor } from './services';

export function locationOf(search: TerminalsSearch): ListLocation<TerminalStatusFilter> {
  return { page: search.page ?? 1, search: search.search ?? '', status: search.status ?? 'all' };
}

const terminalsListMachine = createListMachine<TerminalListItem, TerminalStatusFilter>({
  id: 'terminals',
  defaultQuery: { page: 1, limit: TERMINALS_PAGE_SIZE, search: '', status: 'all' },
});
const fleetHealthMachine = createResourceMachine<FleetHealth>('fleetHealth');
const syncBudgetMachine = createResourceMachine<SyncBudget>('syncBudget');
const recentSyncsMachine = createResourceMachine<SyncJob[]>('recentSyncs');
const routeApi = getRouteApi('/app/terminals');

function finishedText(job: SyncJob): string {
  if (job.status === 'failed') return `Terminal sync failed: ${job.message ?? TERMINAL_MESSAGES.unknownError}`;
  const c = job.counts;
  return `Terminal sync finished: ${c.added} added, ${c.updated} updated, ${c.unchanged} unchanged, ${c.removed} removed${c.failed > 0 ? `, ${c.failed} failed` : ''}`;
}

export function TerminalsRoute() {
  const { api } = useAppServices();
  const router = useRouter();
  const search = routeApi.useSearch();
  const location = locationOf(search);

  const navigateTo = (next: TerminalsSearch, replace = false) =>
    void router.navigate({ to: '/terminals', search: validateTerminalsSearch(next as Record<string, unknown>), replace });
  const now = useNow();
  const currentSearch = () => validateTerminalsSearch(router.state.location.search as Record<string, unknown>);
  const account = search.account ?? null;

  /** The list machine's query as `GET /terminals` takes it (the account from the address). */
  const terminalsQuery = (query: ListQuery<TerminalStatusFilter>): TerminalListQuery => {
    const shown = currentSearch().account;
    return { ...query, ...(shown !== undefined ? { accountId: shown } : {}) };
  };

  const list = usePageActor(
    terminalsListMachine.provide({
      actors: {
        load: fromPromise(({ input, signal }) =>
          outcome(async () => {
            const result = await api.terminals.listTerminals(terminalsQuery(input), signal);
            return result.ok ? { ok: true as const, data: { rows: result.data.terminals, pagination: result.data.pagination } } : result;
          }),
        ),
      },
      actions: {
        // A typed search replaces the address; paging and filters add a history entry. The open
        // dialog (if any) stays open.
        publishQuery: (_, query) => {
          const shown = currentSearch();
          navigateTo(
            { ...shown, page: query.page, search: query.search, status: query.status === 'all' ? undefined : query.status },
            query.search !== (shown.search ?? ''),
          );
        },
        reportLoadFailure: (_, message) =>
          void toast.error(TERMINAL_MESSAGES.fetchFailed(message || TERMINAL_MESSAGES.unknownError), { id: 'terminals-load' }),
      },
    }),
    { input: { query: location } },
  );
  // The query the page shows (or is loading), read when the button is pressed.
  const csv = useCsvExport(() => api.terminals.exportCsv(terminalsQuery(list.getSnapshot().context.query)), listExportFileName('terminals', new Date()), LIST_EXPORT_FAILED.terminals);
  const health = usePageActor(
    fleetHealthMachine.provide({ actors: { load: fromPromise(({ signal }) => outcome(() => api.terminals.fleetHealth(signal))) } }),
  );

  // The "Provider calls" panel shows the budget of the account the list is filtered to; with every
  // account listed, the first account's (the server's default).
  const budget = usePageActor(
    syncBudgetMachine.provide({
      actors: { load: fromPromise(({ signal }) => outcome(() => api.terminals.syncBudget(signal, currentSearch().account))) },
    }),
  );

  // "Recent syncs" follows the Account filter too: that account's runs, or every account's.
  const recentSyncs = usePageActor(
    recentSyncsMachine.provide({
      actors: {
        load: fromPromise(({ signal }) =>
          outcome(async () => {
            const result = await api.terminals.syncQueue(signal, currentSearch().account);
            return result.ok ? { ok: true as const, data: result.data.recent } : result;
          }),
        ),
      },
    }),
  );

  const accounts = useAccountChoices();

  const reloadAll = () => {
    list.send({ type: 'user.refresh' });
    health.send(reloadEvent(health.getSnapshot()));
    budget.send(reloadEvent(budget.getSnapshot()));
    recentSyncs.send(reloadEvent(recentSyncs.getSnapshot()));
  };

  const sync = usePageActor(
    terminalSyncMachine.provide({
      actors: {
        loadQueue: fromPromise(({ signal }) => outcome(() => api.terminals.syncQueue(signal))),
        startSync: fromPromise(async ({ signal }) => {
          const result = await outcome(() => api.terminals.startSync(signal));
          return result.ok ? { ok: true as const, data: result.data, message: TERMINAL_MESSAGES.syncStarted } : result;
        }),
        pollJob: fromPromise(({ input, signal }) => outcome(() => api.terminals.syncJob(input, signal))),
      },
      actions: {
        reloadList: () => reloadAll(),
        notifyFinished: (_, job) => {
          reloadAll();
          if (job.status === 'failed') toast.error(finishedText(job), { id: 'terminal-sync' });
          else toast.success(finishedText(job), { id: 'terminal-sync' });
        },
      },
    }),
  );

  const { rows, pagination, query, searchInput, loading, error } = useListState(list, location);
  // The account: when the address changes it, the list and the budget panel load again (their loads read it).
  const loadedAccount = useRef(account);
  useEffect(() => {
    if (loadedAccount.current === account) return;
    loadedAccount.current = account;
    list.send({ type: 'user.refresh' });
    budget.send(reloadEvent(budget.getSnapshot()));
    recentSyncs.send(reloadEvent(recentSyncs.getSnapshot()));
  }, [list, budget, recentSyncs, account]);
  const healthData = useSelector(health, (s) => s.context.data);
  const healthLoading = useSelector(health, (s) => s.hasTag('loading'));
  const budgetData = useSelector(budget, (s) => s.context.data);
  const budgetError = useSelector(budget, (s) => s.context.error);
  const budgetLoading = useSelector(budget, (s) => s.hasTag('loading') || s.hasTag('refreshing'));
  const recentRuns = useSelector(recentSyncs, (s) => s.context.data);
  const recentError = useSelector(recentSyncs, (s) => s.context.error);

  const syncing = useSelector(sync, (s) => s.hasTag('busy') || s.hasTag('checking'));
  const running = useSelector(sync, (s) => s.hasTag('syncing'));
  const notice = useSelector(sync, (s) => s.context.notice);
  const followedJob = useSelector(sync, (s) => s.context.job);
  // While a sync runs its notice is the blue "Background Sync Running" card.
  const syncNotice: TerminalSyncNotice | null = notice ? { kind: running ? 'running' : notice.kind, text: notice.text } : null;

  // The row the dialog was opened from: its record shows at once while the details load.
  const [opened, setOpened] = useState<{ terminal: TerminalListItem; tab: TerminalDetailTab | undefined } | null>(null);
  const openTerminal = (terminal: TerminalListItem, tab?: TerminalDetailTab) => {
    setOpened({ terminal, tab });
    navigateTo({ ...currentSearch(), terminal: terminal.userTerminalId });
  };
  const closeTerminal = () => navigateTo({ ...currentSearch(), terminal: undefined });

  // "Add Terminal": the activation wizard, for those who manage the lifecycle; a finished activation refreshes the page.
  const canActivate = useCan('lifecycle:manage');
  const canSync = useCan('terminals:manage');
  const [adding, setAdding] = useState(false);
  const closeWizard = useCallback(() => setAdding(false), []);

  const openId = search.terminal;
  const basic =
    openId === undefined
      ? null
      : opened?.terminal.userTerminalId === openId
        ? opened.terminal
        : (rows.find((r) => r.userTerminalId === openId) ?? placeholderTerminal({ userTerminalId: openId }));

  return (
    <>
      <TerminalsView
        health={healthData}
        healthLoading={healthLoading}
        rows={rows}
        totalCount={pagination?.total ?? 0}
        page={query.page}
        limit={query.limit}
        loading={loading}
        error={error}
        search={searchInput}
        status={query.status}
        {...(accounts ? { accounts } : {})}
        account={account}
        // Another account starts at its first page, as the other filters do.
        onAccount={(id) => navigateTo({ ...currentSearch(), page: undefined, account: id ?? undefined })}
        syncing={syncing}
        syncNotice={syncNotice}
        lastSync={followedJob ?? healthData?.lastSync ?? null}
        budget={{ budget: budgetData, loading: budgetLoading, error: budgetError }}
        recentSyncs={{ runs: recentRuns, error: recentError }}
        onSearch={(value) => list.send({ type: 'user.searchInput', value })}
        onStatus={(status) => list.send({ type: 'user.status', status })}
        onPage={(page) => list.send({ type: 'user.page', page })}
        onRetry={() => list.send({ type: 'user.retry' })}
        onRefresh={reloadAll}
        exporting={csv.exporting}
        onExport={() => void csv.exportCsv()}
        {...(canSync ? { onSync: () => sync.send({ type: 'user.sync' }) } : {})}
        onDismissNotice={() => sync.send({ type: 'user.dismissNotice' })}
        onOpen={openTerminal}
        onNavigate={(url) => void router.navigate({ href: url })}
        now={now}
        {...(canActivate ? { onAddTerminal: () => setAdding(true) } : {})}
      />
      {adding && <ActivationWizardPanel customer={null} onClosed={closeWizard} onActivated={reloadAll} />}
      {basic && (
        <TerminalDetailPanel
          key={basic.userTerminalId}
          terminal={basic}
          initialTab={opened && opened.terminal.userTerminalId === openId ? opened.tab : undefined}
          onClose={closeTerminal}
          onChanged={reloadAll}
          showAccount={accounts !== null}
        />
      )}
    </>
  );
}
