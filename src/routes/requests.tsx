// Customer Requests (/requests, admin): the queue by status with its counts (a list machine over
// GET /requests; the status and page are the list's own state, the page keeps no address of them),
// and Approve / Decline (the request review machine), whose effects are provided here. With more
// than one provider account the queue has an Account filter (the page's own state too, as its
// status is: a small actor the load reads) and an Account column.
import { useState } from 'react';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { assign, fromPromise, setup } from 'xstate';
import { REQUESTS_PAGE_SIZE, type QueuedRequestWire, type RequestCounts, type RequestStatusFilter } from '../domain/requests';
import { createListMachine, type ListLocation } from '../machines/list';
import { requestReviewMachine } from '../machines/request-review';
import { RequestsView } from '../ui/requests/RequestsView';
import { ReviewDialog } from '../ui/requests/ReviewDialog';
import { useAccountChoices } from './account-refs';
import { useListState } from './list-state';
import { outcome } from './outcome';
import { useAppServices, useCan, usePageActor } from './services';

const queueMachine = createListMachine<QueuedRequestWire, RequestStatusFilter>({
  id: 'requestQueue',
  defaultQuery: { page: 1, limit: REQUESTS_PAGE_SIZE, search: '', status: 'pending' },
});

/** The queue's Account filter: the chosen provider account, null for every account. */
const accountFilterMachine = setup({
  types: { context: {} as { account: number | null }, events: {} as { type: 'user.account'; account: number | null } },
}).createMachine({
  id: 'requestsAccount',
  context: { account: null },
  on: { 'user.account': { actions: assign({ account: ({ event }) => event.account }) } },
});

export function RequestsRoute() {
  // Approve and Decline are lifecycle changes; a reader sees the queue only.
  const canDecide = useCan('lifecycle:manage');
  const { api } = useAppServices();
  const [location, setLocation] = useState<ListLocation<RequestStatusFilter>>({ page: 1, search: '', status: 'pending' });
  const [counts, setCounts] = useState<RequestCounts | null>(null);
  const accounts = useAccountChoices();
  // Read by each load when it starts, so the load after a change asks for the new account.
  const accountFilter = usePageActor(accountFilterMachine);
  const account = useSelector(accountFilter, (s) => s.context.account);

  const list = usePageActor(
    queueMachine.provide({
      actors: {
        load: fromPromise(({ input, signal }) =>
          outcome(async () => {
            const shown = accountFilter.getSnapshot().context.account;
            const result = await api.requests.queue(
              { status: input.status, page: input.page, limit: input.limit, ...(shown !== null ? { accountId: shown } : {}) },
              signal,
            );
            // Every answer carries the counts over all requests, whatever the page shows: the
            // filter's figures follow each load without a request of their own.
            if (result.ok) setCounts(result.data.counts);
            return result.ok ? { ok: true as const, data: { rows: result.data.requests, pagination: result.data.pagination } } : result;
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
    requestReviewMachine.provide({
      actors: {
        decide: fromPromise(({ input, signal }) =>
          outcome(() => (input.action === 'approve' ? api.requests.approve(input.id, signal) : api.requests.decline(input.id, input.reason ?? '', signal))),
        ),
      },
      actions: {
        notifySuccess: (_, message) => void toast.success(message, { id: 'request-review' }),
        notifyFailure: (_, message) => void toast.error(message, { id: 'request-review' }),
        requestDecided: () => list.send({ type: 'user.refresh' }),
      },
    }),
  );

  const { rows, pagination, query, loading, error } = useListState(list, location);
  /** Another account starts at its first page, as another status does. */
  const chooseAccount = (id: number | null) => {
    if (id === accountFilter.getSnapshot().context.account) return;
    accountFilter.send({ type: 'user.account', account: id });
    list.send(list.getSnapshot().context.query.page !== 1 ? { type: 'user.page', page: 1 } : { type: 'user.refresh' });
  };
  const open = useSelector(review, (s) => s.hasTag('open'));
  const busy = useSelector(review, (s) => s.hasTag('busy'));
  const dialog = useSelector(review, (s) => s.context);

  return (
    <>
      <RequestsView
        requests={rows}
        pagination={pagination}
        counts={counts}
        status={query.status}
        loading={loading}
        error={error}
        busy={busy}
        readOnly={!canDecide}
        onStatus={(status) => list.send({ type: 'user.status', status })}
        {...(accounts ? { accounts } : {})}
        account={account}
        onAccount={chooseAccount}
        onPage={(page) => list.send({ type: 'user.page', page })}
        onRetry={() => list.send({ type: 'user.retry' })}
        onApprove={(request) => review.send({ type: 'user.approve', request })}
        onDecline={(request) => review.send({ type: 'user.decline', request })}
      />
      <ReviewDialog
        visible={open}
        action={dialog.action}
        request={dialog.request}
        reason={dialog.reason}
        reasonError={dialog.reasonError}
        failure={dialog.failure}
        busy={busy}
        onReason={(value) => review.send({ type: 'user.reason', value })}
        onConfirm={() => review.send({ type: 'user.confirm' })}
        onClose={() => review.send({ type: 'user.close' })}
      />
    </>
  );
}
