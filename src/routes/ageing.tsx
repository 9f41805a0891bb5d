// Ageing (/billing/ageing, billing:read): what customers owe by how overdue it is, a list machine
// over GET /billing/ageing (the search and the currency filter are the list's own query, kept as
// the page's state; the answer is one page, with the totals and the day it is for beside the
// rows), Export CSV of the same choice, and the dunning policy (the dunning policy form machine,
// saved by billing:manage, who may also run the dunning at once: the dunning run machine, after
// which the ageing is read again). The machines' effects are the page's actors
// (createAgeingActors) and the toasts.
import { useState } from 'react';
import { useRouter } from '@tanstack/react-router';
import { shallowEqual, useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import type { ActorRefFrom } from 'xstate';
import type { AgeingRowWire } from '../domain/ledger';
import { dunningPolicyFormMachine, dunningPolicyView } from '../machines/dunning-policy-form';
import { dunningRunMachine, dunningRunView } from '../machines/dunning-run';
import { createListMachine, type ListLocation } from '../machines/list';
import { AgeingView } from '../ui/billing/ageing/AgeingView';
import { DunningPolicyPanel } from '../ui/billing/ageing/DunningPolicyPanel';
import { AGEING_TEXTS as T } from '../ui/billing/ageing/parts';
import { useCsvExport } from '../ui/common/ExportButton';
import { useListState } from './list-state';
import { useAppServices, useCan, usePageActor } from './services';
import { createAgeingActors, type AgeingExtras, type CurrencyFilter } from '../api/ledger-actors';


// The ageing is one answer, not pages: the query's page and limit are never sent.
const ageingListMachine = createListMachine<AgeingRowWire, CurrencyFilter>({
  id: 'ageingList',
  defaultQuery: { page: 1, limit: 1, search: '', status: 'all' },
});


export function AgeingRoute() {
  const { api } = useAppServices();
  const router = useRouter();
  const canManage = useCan('billing:manage');
  const [location, setLocation] = useState<ListLocation<CurrencyFilter>>({ page: 1, search: '', status: 'all' });
  const [extras, setExtras] = useState<AgeingExtras | null>(null);
  // The filter offers every currency seen, not only those of the current choice's totals.
  const [currencies, setCurrencies] = useState<readonly string[]>([]);
  const actors = createAgeingActors(api, (next) => {
    setExtras(next);
    setCurrencies((known) => {
      const added = next.totals.map((t) => t.currency).filter((c) => !known.includes(c));
      return added.length > 0 ? [...known, ...added].sort() : known;
    });
  });

  const list = usePageActor(
    ageingListMachine.provide({
      actors: { load: actors.loadAgeing },
      actions: { publishQuery: (_, query) => setLocation({ page: 1, search: query.search, status: query.status }), reportLoadFailure: () => {} },
    }),
    { input: { query: location } },
  );
  const policy = usePageActor(
    dunningPolicyFormMachine.provide({
      actors: { loadPolicy: actors.loadPolicy, savePolicy: actors.savePolicy },
      actions: {
        notifySuccess: (_, message) => void toast.success(message, { id: 'dunning-policy' }),
        notifyFailure: (_, message) => void toast.error(message, { id: 'dunning-policy' }),
      },
    }),
  );
  const run = usePageActor(
    dunningRunMachine.provide({
      actors: { runDunning: actors.runDunning },
      actions: {
        notifySuccess: (_, message) => void toast.success(message, { id: 'dunning-run' }),
        notifyFailure: (_, message) => void toast.error(message, { id: 'dunning-run' }),
        // A customer may now be blocked, or unblocked.
        reloadAgeing: () => list.send({ type: 'user.refresh' }),
      },
    }),
  );
  const { rows, pagination, query, searchInput, loading, error } = useListState(list, location);

  const csv = useCsvExport(
    () => {
      const shown = list.getSnapshot().context.query;
      return api.ledger.ageingCsv({ currency: shown.status === 'all' ? undefined : shown.status, search: shown.search });
    },
    `ageing-${extras?.asOf ?? 'today'}.csv`,
    T.exportFailed,
  );

  return (
    <AgeingView
      asOf={extras?.asOf ?? null}
      totals={extras?.totals ?? null}
      rows={rows}
      loaded={pagination !== null}
      loading={loading}
      error={error}
      search={searchInput}
      currency={query.status}
      currencies={currencies}
      exporting={csv.exporting}
      onSearch={(value) => list.send({ type: 'user.searchInput', value })}
      onCurrency={(status) => list.send({ type: 'user.status', status })}
      onRetry={() => list.send({ type: 'user.retry' })}
      onExport={() => void csv.exportCsv()}
      onNavigate={(url) => void router.navigate({ href: url })}
    >
      <PolicySection policy={policy} run={run} canManage={canManage} />
    </AgeingView>
  );
}

/** The policy panel reads its own actors: a key typed in it renders the panel, not the tables. */
function PolicySection({ policy, run, canManage }: { policy: ActorRefFrom<typeof dunningPolicyFormMachine>; run: ActorRefFrom<typeof dunningRunMachine>; canManage: boolean }) {
  const view = useSelector(policy, dunningPolicyView);
  const { running } = useSelector(run, dunningRunView, shallowEqual);
  return (
    <DunningPolicyPanel
      {...view}
      running={running}
      canManage={canManage}
      onField={(field, value) => policy.send({ type: 'user.field', field, value })}
      onToggle={(field, value) => policy.send({ type: 'user.toggle', field, value })}
      onSubmit={() => policy.send({ type: 'user.submit' })}
      onRetry={() => policy.send({ type: 'user.retry' })}
      onRun={() => run.send({ type: 'user.run' })}
    />
  );
}
