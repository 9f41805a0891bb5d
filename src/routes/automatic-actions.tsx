// Automatic actions (/alerts/actions, admin): what the alert rules proposed or did, by status,
// search and page (a list machine over GET /automatic-actions; the query is the list's own state,
// the page keeps no address of it, as the Requests queue does), and Approve / Dismiss / Undo (the
// action review machine), whose effects are provided here.
import { useState } from 'react';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise } from 'xstate';
import { ACTIONS_PAGE_SIZE, type ActionStatusFilter, type AutomaticActionWire } from '../domain/automation';
import { actionReviewMachine } from '../machines/automatic-action-review';
import { createListMachine, type ListLocation } from '../machines/list';
import { ActionReviewDialog } from '../ui/automation/actions/ActionReviewDialog';
import { AutomaticActionsView } from '../ui/automation/actions/AutomaticActionsView';
import { useListState } from './list-state';
import { outcome } from './outcome';
import { useAppServices, useCan, usePageActor } from './services';

const actionsListMachine = createListMachine<AutomaticActionWire, ActionStatusFilter>({
  id: 'automaticActions',
  defaultQuery: { page: 1, limit: ACTIONS_PAGE_SIZE, search: '', status: 'waiting' },
});

export function AutomaticActionsRoute() {
  // Approve, Dismiss and Undo change lines; a reader sees the list only.
  const canManage = useCan('lifecycle:manage');
  const { api } = useAppServices();
  const [location, setLocation] = useState<ListLocation<ActionStatusFilter>>({ page: 1, search: '', status: 'waiting' });
  const [waiting, setWaiting] = useState<number | null>(null);

  const list = usePageActor(
    actionsListMachine.provide({
      actors: {
        load: fromPromise(({ input, signal }) =>
          outcome(async () => {
            const result = await api.automation.actions({ status: input.status, search: input.search, page: input.page, limit: input.limit }, signal);
            // Every answer carries the count of proposals waiting, whatever the page shows.
            if (result.ok) setWaiting(result.data.waiting);
            return result.ok ? { ok: true as const, data: { rows: result.data.actions, pagination: result.data.pagination } } : result;
          }),
        ),
      },
      actions: {
        publishQuery: (_, query) => setLocation({ page: query.page, search: query.search, status: query.status }),
        reportLoadFailure: () => {},
      },
    }),
    { input: { query: location } },
  );
  const review = usePageActor(
    actionReviewMachine.provide({
      actors: {
        decideAction: fromPromise(({ input, signal }) => outcome(() => api.automation[input.verb](input.id, signal))),
      },
      actions: {
        notifySuccess: (_, message) => void toast.success(message, { id: 'action-review' }),
        notifyFailure: (_, message) => void toast.error(message, { id: 'action-review' }),
        actionDecided: () => list.send({ type: 'user.refresh' }),
      },
    }),
  );

  const { rows, pagination, query, searchInput, loading, error } = useListState(list, location);
  const open = useSelector(review, (s) => s.hasTag('open'));
  const busy = useSelector(review, (s) => s.hasTag('busy'));
  const dialog = useSelector(review, (s) => s.context);

  return (
    <>
      <AutomaticActionsView
        actions={rows}
        pagination={pagination}
        waiting={waiting}
        status={query.status}
        search={searchInput}
        loading={loading}
        error={error}
        busy={busy}
        canManage={canManage}
        onStatus={(status) => list.send({ type: 'user.status', status })}
        onSearch={(value) => list.send({ type: 'user.searchInput', value })}
        onPage={(page) => list.send({ type: 'user.page', page })}
        onRetry={() => list.send({ type: 'user.retry' })}
        onApprove={(target) => review.send({ type: 'user.approve', target })}
        onDismiss={(target) => review.send({ type: 'user.dismiss', target })}
        onUndo={(target) => review.send({ type: 'user.undo', target })}
      />
      <ActionReviewDialog
        visible={open}
        verb={dialog.verb}
        action={dialog.target?.action ?? null}
        line={dialog.target?.serviceLineNumber ?? null}
        failure={dialog.failure}
        busy={busy}
        onConfirm={() => review.send({ type: 'user.confirm' })}
        onClose={() => review.send({ type: 'user.close' })}
      />
    </>
  );
}
