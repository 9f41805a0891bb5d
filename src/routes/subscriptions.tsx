// Subscriptions (/subscription): every terminal's plan for the current billing cycle (page, search,
// plan filter and "over plan" in the URL), the five summary cards and the banner, and the Change
// Plan dialog, each a machine whose effects are provided here. Plan changes go to the provider. With
// more than one provider account the list has an Account column and filter (`account` in the URL),
// and the dialog offers the plans of the line's own account.
import { useEffect, useRef } from 'react';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise, type SnapshotFrom } from 'xstate';
import {
  SUBSCRIPTIONS_PAGE_SIZE,
  type SubscriptionPlanFilter,
  type SubscriptionSummary,
  type SubscriptionWire,
} from '../domain/subscriptions';
import { LIST_EXPORT_FAILED, listExportFileName } from '../domain/list-exports';
import { createListMachine, type ListLocation } from '../machines/list';
import { createResourceMachine, reloadEvent } from '../machines/resource';
import { subscriptionPlanMachine } from '../machines/subscription-plan';
import { ChangePlanDialog, type ChangePlanStep } from '../ui/subscriptions/ChangePlanDialog';
import { SubscriptionsView } from '../ui/subscriptions/SubscriptionsView';
import { useCsvExport } from '../ui/common/ExportButton';
import { useAccountChoices } from './account-refs';
import { useListState } from './list-state';
import { outcome } from './outcome';
import { validateSubscriptionsSearch, type SubscriptionsSearch } from './search-params';
import { useAppServices, useCan, usePageActor } from './services';

const subscriptionsListMachine = createListMachine<SubscriptionWire, SubscriptionPlanFilter>({
  id: 'subscriptions',
  defaultQuery: { page: 1, limit: SUBSCRIPTIONS_PAGE_SIZE, search: '', status: 'all' },
});
const summaryMachine = createResourceMachine<SubscriptionSummary>('subscriptionSummary');
const routeApi = getRouteApi('/app/subscription');

const locationOf = (search: SubscriptionsSearch): ListLocation<SubscriptionPlanFilter> => ({
  page: search.page ?? 1,
  search: search.search ?? '',
  status: search.plan ?? 'all',
});

function dialogStep(s: SnapshotFrom<typeof subscriptionPlanMachine>): ChangePlanStep {
  if (s.matches('loadingPlans')) return 'loading';
  return s.matches('choosing') ? 'choose' : 'confirm';
}

export function SubscriptionsRoute() {
  const canChangePlan = useCan('subscriptions:manage');
  const readsBilling = useCan('billing:read');
  const { api } = useAppServices();
  const router = useRouter();
  const search = routeApi.useSearch();
  const location = locationOf(search);
  const overPlan = search.over === true;
  const account = search.account ?? null;
  const currentSearch = () => validateSubscriptionsSearch(router.state.location.search as Record<string, unknown>);
  const navigateTo = (next: SubscriptionsSearch, replace = false) =>
    void router.navigate({ to: '/subscription', search: validateSubscriptionsSearch(next as Record<string, unknown>), replace });

  /** The filters the list machine does not hold ("over plan" and the account), read from the address. */
  const addressFilters = () => {
    const shown = currentSearch();
    return { overPlan: shown.over === true, ...(shown.account !== undefined ? { accountId: shown.account } : {}) };
  };

  const list = usePageActor(
    subscriptionsListMachine.provide({
      actors: {
        load: fromPromise(({ input, signal }) =>
          outcome(async () => {
            const result = await api.subscriptions.list(
              { page: input.page, limit: input.limit, search: input.search, plan: input.status, ...addressFilters() },
              signal,
            );
            return result.ok ? { ok: true as const, data: { rows: result.data.subscriptions, pagination: result.data.pagination } } : result;
          }),
        ),
      },
      actions: {
        // A typed search replaces the address; paging and the plan filter add a history entry.
        publishQuery: (_, query) => {
          const shown = currentSearch();
          navigateTo(
            { ...shown, page: query.page, search: query.search, plan: query.status === 'all' ? undefined : query.status },
            query.search !== (shown.search ?? ''),
          );
        },
        reportLoadFailure: () => {},
      },
    }),
    { input: { query: location } },
  );
  // The query the page shows (or is loading) and "over plan" from the address, read when the button is pressed.
  const csv = useCsvExport(
    () => {
      const { search: text, status } = list.getSnapshot().context.query;
      return api.subscriptions.exportCsv({ search: text, plan: status, ...addressFilters() });
    },
    listExportFileName('subscriptions', new Date()),
    LIST_EXPORT_FAILED.subscriptions,
  );
  // The cards and the banner count the whole inventory, whatever the page shows.
  const summary = usePageActor(
    summaryMachine.provide({
      actors: {
        load: fromPromise(({ signal }) =>
          outcome(async () => {
            const result = await api.subscriptions.list({ page: 1, limit: 1 }, signal);
            return result.ok ? { ok: true as const, data: result.data.summary } : result;
          }),
        ),
      },
    }),
  );
  const refreshAll = () => {
    list.send({ type: 'user.refresh' });
    summary.send(reloadEvent(summary.getSnapshot()));
  };

  const plan = usePageActor(
    subscriptionPlanMachine.provide({
      actors: {
        loadPlans: fromPromise(({ input, signal }) => outcome(() => api.subscriptions.plansOf(input.accountId, signal))),
        changePlan: fromPromise(({ input, signal }) =>
          outcome(() => api.subscriptions.changePlan(input.serviceLineNumber, input.productReferenceId, signal)),
        ),
      },
      actions: {
        notifySuccess: (_, message) => void toast.success(message, { id: 'subscription-plan' }),
        notifyFailure: (_, message) => void toast.error(message, { id: 'subscription-plan' }),
        planChanged: () => refreshAll(),
      },
    }),
  );

  const { rows, pagination, query, searchInput, loading, error } = useListState(list, location);
  const accounts = useAccountChoices();
  // "Over plan" and the account are not part of the list machine's query: when the address changes
  // either, the list loads again (its load reads the address).
  const filtersLoaded = useRef(`${overPlan}|${account}`);
  useEffect(() => {
    const filters = `${overPlan}|${account}`;
    if (filtersLoaded.current === filters) return;
    filtersLoaded.current = filters;
    list.send({ type: 'user.refresh' });
  }, [list, overPlan, account]);

  const summaryData = useSelector(summary, (s) => s.context.data);
  const dialogOpen = useSelector(plan, (s) => s.hasTag('open'));
  const dialogBusy = useSelector(plan, (s) => s.hasTag('busy'));
  const step = useSelector(plan, dialogStep);
  const dialog = useSelector(plan, (s) => s.context);

  const empty: SubscriptionSummary = { totalTerminals: 0, plans50GB: 0, plans1TB: 0, overageTerminals: 0, totalOverageGB: 0 };
  return (
    <>
      <SubscriptionsView
        data={pagination ? { subscriptions: rows, pagination, summary: summaryData ?? empty } : null}
        loading={loading}
        error={error}
        search={searchInput}
        plan={query.status}
        overPlan={overPlan}
        page={query.page}
        onSearch={(value) => list.send({ type: 'user.searchInput', value })}
        onPlanFilter={(status) => list.send({ type: 'user.status', status })}
        onOverPlan={(value) => navigateTo({ ...currentSearch(), page: undefined, over: value ? true : undefined })}
        {...(accounts ? { accounts } : {})}
        account={account}
        // Another account starts at its first page, as the other filters do.
        onAccount={(id) => navigateTo({ ...currentSearch(), page: undefined, account: id ?? undefined })}
        onPage={(page) => list.send({ type: 'user.page', page })}
        onRetry={() => list.send({ type: 'user.retry' })}
        onRefresh={refreshAll}
        exporting={csv.exporting}
        onExport={() => void csv.exportCsv()}
        showProviderBilling={readsBilling}
        {...(canChangePlan ? { onChangePlan: (subscription: SubscriptionWire) => plan.send({ type: 'user.open', subscription }) } : {})}
        onNavigate={(url) => void router.navigate({ href: url })}
      />
      <ChangePlanDialog
        visible={dialogOpen}
        subscription={dialog.subscription}
        step={step}
        plans={dialog.plans}
        chosen={dialog.chosen}
        error={dialog.error}
        busy={dialogBusy}
        onChoose={(productReferenceId) => plan.send({ type: 'user.choose', productReferenceId })}
        onNext={() => plan.send({ type: 'user.next' })}
        onBack={() => plan.send({ type: 'user.back' })}
        onConfirm={() => plan.send({ type: 'user.confirm' })}
        onCancel={() => plan.send({ type: 'user.cancel' })}
      />
    </>
  );
}
