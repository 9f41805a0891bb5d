// Customer Requests (/requests, admin): the queue by status with its counts (a list machine over
// GET /requests; the status and page are the list's own state, the page keeps no address of them),
// and Approve / Decline (the request review machine), whose effects are provided here.
import { useState } from 'react';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise } from 'xstate';
import { REQUESTS_PAGE_SIZE, type QueuedRequestWire, type RequestCounts, type RequestStatusFilter } from '../domain/requests';
import { createListMachine, type ListLocation } from '../machines/list';
import { requestReviewMachine } from '../machines/request-review';
import { createResourceMachine, reloadEvent } from '../machines/resource';
import { RequestsView } from '../ui/requests/RequestsView';
import { ReviewDialog } from '../ui/requests/ReviewDialog';
import { useListState } from './list-state';
import { outcome } from './outcome';
import { useAppServices, usePageActor } from './services';

const queueMachine = createListMachine<QueuedRequestWire, RequestStatusFilter>({
  id: 'requestQueue',
  defaultQuery: { page: 1, limit: REQUESTS_PAGE_SIZE, search: '', status: 'pending' },
});
const countsMachine = createResourceMachine<RequestCounts>('requestCounts');

export function RequestsRoute() {
  const { api } = useAppServices();
  const [location, setLocation] = useState<ListLocation<RequestStatusFilter>>({ page: 1, search: '', status: 'pending' });

  const list = usePageActor(
    queueMachine.provide({
      actors: {
        load: fromPromise(({ input, signal }) =>
          outcome(async () => {
            const result = await api.requests.queue({ status: input.status, page: input.page, limit: input.limit }, signal);
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
  // The filter's counts are over every request, whatever the page shows.
  const counts = usePageActor(
    countsMachine.provide({
      actors: {
        load: fromPromise(({ signal }) =>
          outcome(async () => {
            const result = await api.requests.queue({ status: 'all', page: 1, limit: 1 }, signal);
            return result.ok ? { ok: true as const, data: result.data.counts } : result;
          }),
        ),
      },
    }),
  );
  const refreshAll = () => {
    list.send({ type: 'user.refresh' });
    counts.send(reloadEvent(counts.getSnapshot()));
  };

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
        requestDecided: () => refreshAll(),
      },
    }),
  );

  const { rows, pagination, query, loading, error } = useListState(list, location);
  const countsData = useSelector(counts, (s) => s.context.data);
  const open = useSelector(review, (s) => s.hasTag('open'));
  const busy = useSelector(review, (s) => s.hasTag('busy'));
  const dialog = useSelector(review, (s) => s.context);

  return (
    <>
      <RequestsView
        requests={rows}
        pagination={pagination}
        counts={countsData}
        status={query.status}
        loading={loading}
        error={error}
        busy={busy}
        onStatus={(status) => list.send({ type: 'user.status', status })}
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
