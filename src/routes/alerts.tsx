// Alerts (/alerts, admin): every alert by status, kind, severity and search (all in the URL, with
// the page), a list machine over GET /alerts whose answer carries the status counts, and the
// acknowledgements (the alert acknowledge machine), whose effects are provided here. Kind and
// severity are not part of the list machine's query: the load reads them from the address, and a
// change of them loads the list again, as the subscriptions page does with "over plan". With more
// than one provider account the list has an Account filter (in the address too, read the same way)
// and an Account column. An alert shows what its rule did (automatic actions), with Undo where it
// can be for those who manage lifecycles (the action review machine, as on the Actions page).
import { useEffect, useRef, useState } from 'react';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise } from 'xstate';
import { ALERTS_PAGE_SIZE, type AlertCounts, type AlertListQuery, type AlertStatusFilter, type AlertWire } from '../domain/alerts';
import { alertAcknowledgeMachine, acknowledgeReport } from '../machines/alert-acknowledge';
import { actionReviewMachine } from '../machines/automatic-action-review';
import { LIST_EXPORT_FAILED, listExportFileName } from '../domain/list-exports';
import { createListMachine, type ListLocation, type ListQuery } from '../machines/list';
import { AcknowledgeDialog } from '../ui/alerts/AcknowledgeDialog';
import { AlertsView, type AlertsReport } from '../ui/alerts/AlertsView';
import { ActionReviewDialog } from '../ui/automation/actions/ActionReviewDialog';
import { useCsvExport } from '../ui/common/ExportButton';
import { validateAlertsSearch, type AlertsSearch } from '../ui/alerts/search';
import { useAccountChoices } from './account-refs';
import { useAlertsChanged } from './app-layout';
import { useListState } from './list-state';
import { outcome } from './outcome';
import { useAppServices, useCan, usePageActor } from './services';

const alertsListMachine = createListMachine<AlertWire, AlertStatusFilter>({
  id: 'alertsList',
  defaultQuery: { page: 1, limit: ALERTS_PAGE_SIZE, search: '', status: 'active' },
});
const routeApi = getRouteApi('/app/alerts');

const locationOf = (search: AlertsSearch): ListLocation<AlertStatusFilter> => ({ page: search.page ?? 1, search: search.search ?? '', status: search.status ?? 'active' });

export function AlertsRoute() {
  // Acknowledging is a change to the alert; a reader sees the list only.
  const canAcknowledge = useCan('alerts:manage');
  // Undoing an automatic action changes the line back: a lifecycle change.
  const canUndo = useCan('lifecycle:manage');
  const { api } = useAppServices();
  const router = useRouter();
  const alertsChanged = useAlertsChanged();
  const search = routeApi.useSearch();
  const location = locationOf(search);
  const kind = search.kind ?? 'all';
  const severity = search.severity ?? 'all';
  const account = search.account ?? null;
  const accounts = useAccountChoices();
  const [counts, setCounts] = useState<AlertCounts | null>(null);
  const currentSearch = () => validateAlertsSearch(router.state.location.search as Record<string, unknown>);
  const navigateTo = (next: AlertsSearch, replace = false) => void router.navigate({ to: '/alerts', search: validateAlertsSearch(next as Record<string, unknown>), replace });

  /** The list machine's query as `GET /alerts` takes it (kind and severity from the address). */
  const alertsQuery = (query: ListQuery<AlertStatusFilter>): AlertListQuery => {
    const shown = currentSearch();
    return {
      status: query.status,
      kind: shown.kind ?? 'all',
      severity: shown.severity ?? 'all',
      search: query.search,
      page: query.page,
      limit: query.limit,
      ...(shown.account !== undefined ? { accountId: shown.account } : {}),
    };
  };

  const list = usePageActor(
    alertsListMachine.provide({
      actors: {
        load: fromPromise(({ input, signal }) =>
          outcome(async () => {
            const result = await api.alerts.list(alertsQuery(input), signal);
            // Every answer carries the counts of the filters, whatever the page shows.
            if (result.ok) setCounts(result.data.counts);
            return result.ok ? { ok: true as const, data: { rows: result.data.alerts, pagination: result.data.pagination } } : result;
          }),
        ),
      },
      actions: {
        // A typed search replaces the address; paging and the filters add a history entry.
        publishQuery: (_, query) => {
          const shown = currentSearch();
          navigateTo({ ...shown, page: query.page, search: query.search, status: query.status === 'active' ? undefined : query.status }, query.search !== (shown.search ?? ''));
        },
        reportLoadFailure: () => {},
      },
    }),
    { input: { query: location } },
  );
  // The query the page shows (or is loading), read when the button is pressed.
  const csv = useCsvExport(() => api.alerts.exportCsv(alertsQuery(list.getSnapshot().context.query)), listExportFileName('alerts', new Date()), LIST_EXPORT_FAILED.alerts);
  const acknowledge = usePageActor(
    alertAcknowledgeMachine.provide({
      actors: { acknowledge: fromPromise(({ input, signal }) => outcome(() => api.alerts.acknowledge(input.ids, signal))) },
      actions: {
        notifySuccess: (_, message) => void toast.success(message, { id: 'alert-acknowledge' }),
        notifyFailure: (_, message) => void toast.error(message, { id: 'alert-acknowledge' }),
        alertsAcknowledged: () => {
          list.send({ type: 'user.refresh' });
          alertsChanged();
        },
      },
    }),
  );

  const review = usePageActor(
    actionReviewMachine.provide({
      actors: { decideAction: fromPromise(({ input, signal }) => outcome(() => api.automation[input.verb](input.id, signal))) },
      actions: {
        notifySuccess: (_, message) => void toast.success(message, { id: 'action-review' }),
        notifyFailure: (_, message) => void toast.error(message, { id: 'action-review' }),
        // The alert's line is back as it was: the list shows the action undone.
        actionDecided: () => list.send({ type: 'user.refresh' }),
      },
    }),
  );
  const reviewOpen = useSelector(review, (s) => s.hasTag('open'));
  const reviewBusy = useSelector(review, (s) => s.hasTag('busy'));
  const reviewed = useSelector(review, (s) => s.context);

  const { rows, pagination, query, searchInput, loading, error } = useListState(list, location);
  // Kind, severity and account: when the address changes them, the list loads again (its load reads them).
  const filters = `${kind}/${severity}/${account ?? 'all'}`;
  const loadedFilters = useRef(filters);
  useEffect(() => {
    if (loadedFilters.current === filters) return;
    loadedFilters.current = filters;
    list.send({ type: 'user.refresh' });
  }, [list, filters]);
  // Ticks are for the rows on screen: another page or filter starts with none.
  useEffect(() => {
    acknowledge.send({ type: 'user.select', ids: [] });
  }, [acknowledge, query.page, query.status, query.search, filters]);

  const selection = useSelector(acknowledge, (s) => s.context.selection);
  const ids = useSelector(acknowledge, (s) => s.context.ids);
  const busy = useSelector(acknowledge, (s) => s.hasTag('busy'));
  const confirming = useSelector(acknowledge, (s) => s.hasTag('open'));
  const report = useSelector(acknowledge, (s): AlertsReport | null => {
    if (s.matches('done') && s.context.result) return { kind: 'done', text: acknowledgeReport(s.context.result) };
    if (s.matches('failed') && s.context.failure) return { kind: 'failed', text: s.context.failure };
    return null;
  }, (a, b) => a?.kind === b?.kind && a?.text === b?.text);

  return (
    <>
      <AlertsView
        alerts={rows}
        pagination={pagination}
        counts={counts}
        status={query.status}
        kind={kind}
        severity={severity}
        search={searchInput}
        loading={loading}
        error={error}
        selection={selection}
        busy={busy}
        report={report}
        onStatus={(status) => list.send({ type: 'user.status', status })}
        onKind={(value) => navigateTo({ ...currentSearch(), page: undefined, kind: value === 'all' ? undefined : value })}
        onSeverity={(value) => navigateTo({ ...currentSearch(), page: undefined, severity: value === 'all' ? undefined : value })}
        {...(accounts ? { accounts } : {})}
        account={account}
        // Another account starts at its first page, as the other filters do.
        onAccount={(id) => navigateTo({ ...currentSearch(), page: undefined, account: id ?? undefined })}
        onSearch={(value) => list.send({ type: 'user.searchInput', value })}
        onPage={(page) => list.send({ type: 'user.page', page })}
        onRetry={() => list.send({ type: 'user.retry' })}
        exporting={csv.exporting}
        onExport={() => void csv.exportCsv()}
        onSelect={(next) => acknowledge.send({ type: 'user.select', ids: next })}
        canAcknowledge={canAcknowledge}
        onAcknowledge={(alert) => acknowledge.send({ type: 'user.acknowledge', id: alert.id })}
        onAcknowledgeSelected={() => acknowledge.send({ type: 'user.acknowledgeSelected' })}
        onDismissReport={() => acknowledge.send({ type: 'user.dismiss' })}
        onNavigate={(url) => void router.navigate({ href: url })}
        {...(canUndo ? { onUndoAction: (alert, action) => review.send({ type: 'user.undo', target: { ...action, serviceLineNumber: alert.serviceLineNumber } }) } : {})}
      />
      {/* The dialog stays up while the acknowledgement it asked for runs. */}
      <AcknowledgeDialog
        visible={confirming || (busy && ids.length > 1)}
        count={ids.length}
        busy={busy}
        onConfirm={() => acknowledge.send({ type: 'user.confirm' })}
        onCancel={() => acknowledge.send({ type: 'user.cancel' })}
      />
      <ActionReviewDialog
        visible={reviewOpen}
        verb={reviewed.verb}
        action={reviewed.target?.action ?? null}
        line={reviewed.target?.serviceLineNumber ?? null}
        failure={reviewed.failure}
        busy={reviewBusy}
        onConfirm={() => review.send({ type: 'user.confirm' })}
        onClose={() => review.send({ type: 'user.close' })}
      />
    </>
  );
}
