// Bulk actions (/bulk: bulk:read, and bulk:manage to start one): the bulk action machine with its effects
// provided here (preview, start and read over the API, the toasts, the operation in the address),
// the recent bulk actions (a resource over GET /bulk, read again when one starts or ends), and a
// finished operation's results (a list machine over GET /bulk/:id/rows; the status filter and the
// page are the list's own state, as on the requests queue) with Export CSV of the same filter.
import { useMemo, useState } from 'react';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { BULK_ROWS_PAGE_SIZE, type BulkOperationWire, type BulkResultRow } from '../domain/bulk';
import { paginationOf } from '../domain/customers';
import { bulkActionMachine, csvProblem, type BulkActionMachine } from '../machines/bulk-action';
import { createListMachine, type ListLocation } from '../machines/list';
import { createResourceMachine, reloadEvent } from '../machines/resource';
import { BulkActionsView, type BulkStep } from '../ui/bulk/BulkActionsView';
import { BulkResults, type BulkResultFilter } from '../ui/bulk/BulkResults';
import { BULK_TEXTS } from '../ui/bulk/parts';
import { useCsvExport } from '../ui/common/ExportButton';
import { useAccountChoices } from './account-refs';
import { useListState } from './list-state';
import { outcome } from './outcome';
import { useAppServices, useCan, usePageActor } from './services';

const routeApi = getRouteApi('/app/bulk');

const recentMachine = createResourceMachine<BulkOperationWire[]>('bulkRecent');
const resultsMachine = createListMachine<BulkResultRow, BulkResultFilter>({
  id: 'bulkResults',
  defaultQuery: { page: 1, limit: BULK_ROWS_PAGE_SIZE, search: '', status: 'all' },
});

const STEPS: readonly BulkStep[] = ['editing', 'previewing', 'previewFailed', 'previewed', 'starting', 'startFailed', 'opening', 'running', 'finished', 'loadFailed'];
/** The part of the page a snapshot shows (`start` passes before anything renders). */
const stepOf = (snapshot: SnapshotFrom<BulkActionMachine>): BulkStep => STEPS.find((step) => snapshot.matches(step)) ?? 'editing';

export function BulkRoute() {
  // Starting a bulk action is bulk:manage; a reader follows the recent ones.
  const canStart = useCan('bulk:manage');
  const { api } = useAppServices();
  const router = useRouter();
  const search = routeApi.useSearch();

  const recent = usePageActor(recentMachine.provide({ actors: { load: fromPromise(({ signal }) => outcome(() => api.bulk.list(signal))) } }));
  const reloadRecent = () => recent.send(reloadEvent(recent.getSnapshot()));

  const bulk = usePageActor(
    bulkActionMachine.provide({
      actors: {
        previewBulk: fromPromise(({ input, signal }) => outcome(() => api.bulk.preview(input, signal))),
        startBulk: fromPromise(({ input, signal }) =>
          outcome(async () => {
            const result = await api.bulk.start(input, signal);
            return result.ok ? { ok: true as const, data: { operation: result.data, message: result.message } } : result;
          }),
        ),
        loadBulkOperation: fromPromise(({ input, signal }) => outcome(() => api.bulk.get(input, signal))),
      },
      actions: {
        publishOperation: (_, id) => void router.navigate({ to: '/bulk', search: id ? { operation: id } : {}, replace: true }),
        notifyStarted: (_, message) => {
          toast.success(message || BULK_TEXTS.startedFallback, { id: 'bulk-started' });
          reloadRecent();
        },
        notifyFinished: (_, operation) => {
          toast.success(BULK_TEXTS.finishedToast(operation), { id: 'bulk-finished' });
          reloadRecent();
        },
      },
    }),
    { input: { operationId: search.operation ?? null } },
  );

  const step = useSelector(bulk, stepOf);
  const kind = useSelector(bulk, (s) => s.context.kind);
  const csv = useSelector(bulk, (s) => s.context.csv);
  const fileName = useSelector(bulk, (s) => s.context.fileName);
  const preview = useSelector(bulk, (s) => s.context.preview);
  const operation = useSelector(bulk, (s) => s.context.operation);
  const operationId = useSelector(bulk, (s) => s.context.operationId);
  const failure = useSelector(bulk, (s) => s.context.failure);
  const canPreview = useSelector(bulk, (s) => s.can({ type: 'user.preview' }));
  const canRun = useSelector(bulk, (s) => s.can({ type: 'user.run' }));
  const canEdit = useSelector(bulk, (s) => s.can({ type: 'user.edit' }));
  const canRetry = useSelector(bulk, (s) => s.can({ type: 'user.retry' }));
  const canOpen = useSelector(bulk, (s) => s.can({ type: 'user.open', id: '' }));

  // Read once per change of the text or the action, not on every render (a file may be large).
  const problem = useMemo(() => csvProblem(kind, csv), [kind, csv]);

  const recentOperations = useSelector(recent, (s) => s.context.data);
  // With more than one provider account, each run names the accounts its lines are under.
  const showAccounts = useAccountChoices() !== null;
  const recentError = useSelector(recent, (s) => (s.matches('failed') ? s.context.error : null));

  return (
    <BulkActionsView
      step={step}
      canStart={canStart}
      editor={{
        kind,
        csv,
        fileName,
        problem,
        editable: step === 'editing',
        canPreview,
        previewing: step === 'previewing',
        onKind: (value) => bulk.send({ type: 'user.kind', kind: value }),
        onCsv: (text) => bulk.send({ type: 'user.csv', text }),
        onFile: (file) => bulk.send({ type: 'user.file', ...file }),
        onPreview: () => bulk.send({ type: 'user.preview' }),
      }}
      previewFailure={step === 'previewFailed' ? failure : null}
      canRetryPreview={step === 'previewFailed' && canRetry}
      canEdit={canEdit}
      onRetryPreview={() => bulk.send({ type: 'user.retry' })}
      onEdit={() => bulk.send({ type: 'user.edit' })}
      preview={
        preview && {
          preview,
          canRun,
          starting: step === 'starting',
          failure: step === 'startFailed' ? failure : null,
          onRun: () => bulk.send({ type: 'user.run' }),
        }
      }
      operation={{
        operation,
        failure,
        onRetry: () => bulk.send({ type: 'user.retry' }),
        onReset: () => bulk.send({ type: 'user.reset' }),
      }}
      results={operation && step === 'finished' ? <BulkResultsPanel key={operation.id} operation={operation} /> : null}
      recent={{
        operations: recentOperations,
        error: recentError,
        shown: operationId,
        canOpen,
        showAccounts,
        onOpen: (id) => bulk.send({ type: 'user.open', id }),
        onRetry: () => recent.send({ type: 'user.retry' }),
      }}
      onNavigate={(url) => void router.navigate({ href: url })}
    />
  );
}

/** A finished operation's results, a page at a time, by status; Export CSV saves the same filter. */
function BulkResultsPanel({ operation }: { operation: BulkOperationWire }) {
  const { api } = useAppServices();
  const [location, setLocation] = useState<ListLocation<BulkResultFilter>>({ page: 1, search: '', status: 'all' });
  const list = usePageActor(
    resultsMachine.provide({
      actors: {
        load: fromPromise(({ input, signal }) =>
          outcome(async () => {
            const result = await api.bulk.rows(operation.id, { page: input.page, limit: input.limit, status: input.status === 'all' ? undefined : input.status }, signal);
            return result.ok ? { ok: true as const, data: { rows: result.data.rows, pagination: paginationOf(result.data.total, result.data.page, result.data.limit) } } : result;
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
  const { rows, pagination, query, loading, error } = useListState(list, location);
  const csv = useCsvExport(
    () => api.bulk.exportCsv(operation.id, query.status === 'all' ? undefined : query.status),
    `bulk-${operation.id}.csv`,
    BULK_TEXTS.exportFailed,
  );
  return (
    <BulkResults
      kind={operation.kind}
      rows={rows}
      pagination={pagination}
      status={query.status}
      loading={loading}
      error={error}
      exporting={csv.exporting}
      onStatus={(status) => list.send({ type: 'user.status', status })}
      onPage={(page) => list.send({ type: 'user.page', page })}
      onRetry={() => list.send({ type: 'user.retry' })}
      onExport={() => void csv.exportCsv()}
    />
  );
}
