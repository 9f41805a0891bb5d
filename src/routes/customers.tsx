// The customers page: the list (page, search and status in the URL), the stat cards, the
// "Add New Customer" flow and the row actions, each a machine whose effects are provided here, and
// the schedule dialog for a customer (its row menu's Schedule…).
import { useMemo } from 'react';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { NetworkError } from '../api';
import {
  CUSTOMER_MESSAGES,
  CUSTOMERS_PAGE_SIZE,
  customerDisplayName,
  type CustomerListItem,
  type CustomerStats,
  type CustomerStatusFilter,
} from '../domain/customers';
import { LIST_EXPORT_FAILED, listExportFileName } from '../domain/list-exports';
import { customerActionsMachine } from '../machines/customer-actions';
import { customerCreateMachine } from '../machines/customer-create';
import { createListMachine, type ListLocation } from '../machines/list';
import { createResourceMachine, reloadEvent } from '../machines/resource';
import { CustomerActionDialogs, type CustomerActionStep } from '../ui/customers/CustomerActionDialogs';
import { CustomerCreateDialog } from '../ui/customers/CustomerCreateDialog';
import { useCsvExport } from '../ui/common/ExportButton';
import { CUSTOMER_ROW_ACTIONS, CustomersView, type CustomerRowAction } from '../ui/customers/CustomersView';
import { ToastMessage } from '../ui/customers/ToastMessage';
import { useAssignTerminalsDialog } from './assign-terminals-dialog';
import { useListState } from './list-state';
import { outcome } from './outcome';
import { useScheduleDialog } from './schedule';
import { useAppServices, useCan, usePageActor } from './services';
import { validateCustomersSearch, type CustomersSearch } from './search-params';

export { validateCustomersSearch, type CustomersSearch } from './search-params';

export function locationOf(search: CustomersSearch): ListLocation<CustomerStatusFilter> {
  return { page: search.page ?? 1, search: search.search ?? '', status: search.status ?? 'all' };
}

export function searchOf(location: ListLocation<CustomerStatusFilter>): CustomersSearch {
  return validateCustomersSearch({ page: location.page, search: location.search, status: location.status });
}

const customersListMachine = createListMachine<CustomerListItem, CustomerStatusFilter>({
  id: 'customers',
  defaultQuery: { page: 1, limit: CUSTOMERS_PAGE_SIZE, search: '', status: 'all' },
});
const customerStatsMachine = createResourceMachine<CustomerStats>('customerStats');
const routeApi = getRouteApi('/app/customers');

type ActionsSnapshot = SnapshotFrom<typeof customerActionsMachine>;

/** The dialog and step the row actions are at, as one string the view can switch on. */
function actionStage(s: ActionsSnapshot): string {
  if (s.matches('closed')) return 'closed';
  if (s.matches('viewing')) return s.matches({ viewing: 'loading' }) ? 'view:loading' : 'view';
  if (s.matches('editing')) return s.hasTag('busy') ? 'edit:busy' : 'edit';
  if (s.matches({ settings: 'extending' })) return 'settings:extending';
  if (s.matches({ settings: 'resending' })) return 'settings:resending';
  if (s.matches('settings')) return 'settings';
  if (s.matches({ blocking: 'reason' })) return 'block:reason';
  if (s.matches({ blocking: 'confirming' })) return 'block:confirm';
  if (s.matches('blocking')) return 'block:busy';
  return s.hasTag('busy') ? 'unblock:busy' : 'unblock';
}

function actionStep(stage: string, context: ActionsSnapshot['context']): CustomerActionStep {
  const customer = context.customer;
  if (stage === 'closed' || !customer) return { kind: 'closed' };
  const [kind, sub] = stage.split(':');
  switch (kind) {
    case 'view':
      return { kind: 'view', customer, activity: context.activity, loading: sub === 'loading', error: context.detailError };
    case 'edit':
      return { kind: 'edit', customer, form: context.form, errors: context.errors, failure: context.failure, busy: sub === 'busy' };
    case 'settings':
      return {
        kind: 'settings',
        customer,
        days: context.days,
        extended: context.extended,
        failure: context.failure,
        busy: sub === 'extending' || sub === 'resending' ? sub : null,
      };
    case 'block':
      return {
        kind: 'block',
        step: sub === 'reason' ? 'reason' : 'confirm',
        customer,
        reason: context.reason,
        reasonError: context.reasonError,
        offerEndLines: context.canEndLines,
        endLines: context.endLines,
        failure: context.failure,
        busy: sub === 'busy',
      };
    default:
      return { kind: 'unblock', customer, failure: context.failure, busy: sub === 'busy' };
  }
}

export function CustomersRoute() {
  const { api } = useAppServices();
  const router = useRouter();
  const search = routeApi.useSearch();
  const location = locationOf(search);
  // Ending a blocked customer's lines is a lifecycle change (the server holds the block to it too).
  const canEndLines = useCan('lifecycle:manage');
  const canManage = useCan('customers:manage');
  const canAssign = useCan('terminals:manage');
  const canReadTerminals = useCan('terminals:read');
  // The row actions the user's roles allow, each the permission of the server route it calls.
  const rowActions = useMemo(
    () =>
      CUSTOMER_ROW_ACTIONS.filter((action) => {
        if (action === 'edit' || action === 'settings' || action === 'block' || action === 'unblock') return canManage;
        if (action === 'assign') return canAssign;
        if (action === 'terminals') return canReadTerminals;
        // Scheduling a block, unblock or extension is a lifecycle change (lifecycle:manage).
        if (action === 'schedule') return canEndLines;
        return true;
      }),
    [canManage, canAssign, canReadTerminals, canEndLines],
  );

  const list = usePageActor(
    customersListMachine.provide({
      actors: {
        load: fromPromise(({ input, signal }) =>
          outcome(async () => {
            const result = await api.customers.list(input, signal);
            return result.ok ? { ok: true as const, data: { rows: result.data.customers, pagination: result.data.pagination } } : result;
          }),
        ),
      },
      actions: {
        // A typed search replaces the address; paging and filters add a history entry.
        publishQuery: (_, query) => {
          const shown = locationOf(validateCustomersSearch(router.state.location.search as Record<string, unknown>));
          void router.navigate({ to: '/customers', search: searchOf(query), replace: query.search !== shown.search });
        },
        reportLoadFailure: (_, message) =>
          void toast.error(message ? CUSTOMER_MESSAGES.fetchFailed(message) : CUSTOMER_MESSAGES.fetchFailedGeneric, { id: 'customers-load' }),
      },
    }),
    { input: { query: location } },
  );
  // The query the page shows (or is loading), read when the button is pressed.
  const csv = useCsvExport(() => api.customers.exportCsv(list.getSnapshot().context.query), listExportFileName('customers', new Date()), LIST_EXPORT_FAILED.customers);
  const stats = usePageActor(
    customerStatsMachine.provide({
      actors: { load: fromPromise(({ signal }) => outcome(() => api.customers.stats(signal))) },
    }),
  );

  // After every change the list and the stat cards load again. (@xstate/react hands each render's
  // implementations to the running actors, so these closures always see the current actors.)
  const refreshAll = () => {
    list.send({ type: 'user.refresh' });
    stats.send(reloadEvent(stats.getSnapshot()));
  };

  const create = usePageActor(
    customerCreateMachine.provide({
      actors: { createCustomer: fromPromise(({ input, signal }) => api.customers.create(input, signal)) },
      actions: {
        notifyCreated: (_, notice) =>
          void toast.success(
            <ToastMessage title={CUSTOMER_MESSAGES.created(notice.email)} description={CUSTOMER_MESSAGES.createdDescription(notice.name, notice.company)} />,
            { duration: 5000 },
          ),
        notifyFailure: (_, message) => void toast.error(message),
        customerCreated: () => refreshAll(),
      },
    }),
  );

  const actions = usePageActor(
    customerActionsMachine.provide({
      actors: {
        loadDetail: fromPromise(({ input, signal }) =>
          outcome(async () => {
            const [detail, activity] = await Promise.all([
              api.customers.get(input, signal),
              // The details are worth showing without the activity.
              api.customers.activity(input, signal).catch((error: unknown) => {
                if (error instanceof NetworkError) return null;
                throw error;
              }),
            ]);
            if (!detail.ok) return detail;
            return { ok: true as const, data: { customer: detail.data, activity: activity?.ok ? activity.data : null } };
          }),
        ),
        updateCustomer: fromPromise(({ input, signal }) => api.customers.update(input.uuid, input.payload, signal)),
        extendAccount: fromPromise(({ input, signal }) => api.customers.extend(input.uuid, input.days, signal)),
        resendLink: fromPromise(({ input, signal }) => api.customers.resendPasswordLink(input, signal)),
        blockCustomer: fromPromise(({ input, signal }) => api.customers.block(input.uuid, { reason: input.reason, endLines: input.endLines }, signal)),
        unblockCustomer: fromPromise(({ input, signal }) => api.customers.unblock(input, signal)),
      },
      actions: {
        notifySuccess: (_, message) => void toast.success(message),
        notifyFailure: (_, message) => void toast.error(message),
        customerChanged: () => refreshAll(),
      },
    }),
    { input: { canEndLines } },
  );

  // Handing terminals to a customer changes nothing this list shows, so there is nothing to reload.
  const assign = useAssignTerminalsDialog({ onAssigned: () => {} });
  // A scheduled change alters nothing this list shows until it runs.
  const schedule = useScheduleDialog({ onScheduled: () => {} });

  const { rows, pagination, query, searchInput, loading, error } = useListState(list, location);
  const statsData = useSelector(stats, (s) => s.context.data);
  const statsLoading = useSelector(stats, (s) => s.hasTag('loading'));

  const onAction = (action: CustomerRowAction, customer: CustomerListItem) => {
    switch (action) {
      case 'terminals':
        void router.navigate({ href: `/customer/terminals/${encodeURIComponent(customer.uuid)}` });
        return;
      case 'preview':
        void router.navigate({ href: `/customers/${encodeURIComponent(customer.uuid)}/preview` });
        return;
      case 'assign':
        assign.open({ uuid: customer.uuid, name: customer.name, email: customer.email, company: customer.company });
        return;
      case 'schedule':
        schedule.open({ type: 'customer', id: customer.uuid, label: customerDisplayName(customer) });
        return;
      case 'view':
        actions.send({ type: 'user.view', customer });
        return;
      case 'edit':
        actions.send({ type: 'user.edit', customer });
        return;
      case 'settings':
        actions.send({ type: 'user.settings', customer });
        return;
      case 'block':
        actions.send({ type: 'user.block', customer });
        return;
      case 'unblock':
        actions.send({ type: 'user.unblock', customer });
    }
  };

  return (
    <>
      <CustomersView
        stats={statsData}
        statsLoading={statsLoading}
        rows={rows}
        pagination={pagination}
        page={query.page}
        pageSize={query.limit}
        loading={loading}
        error={error}
        searchInput={searchInput}
        status={query.status}
        onSearchInput={(value) => list.send({ type: 'user.searchInput', value })}
        onStatusChange={(status) => list.send({ type: 'user.status', status })}
        onPageChange={(page) => list.send({ type: 'user.page', page })}
        onRetry={() => list.send({ type: 'user.retry' })}
        exporting={csv.exporting}
        onExport={() => void csv.exportCsv()}
        {...(canManage ? { onAddCustomer: () => create.send({ type: 'user.open' }) } : {})}
        rowActions={rowActions}
        onAction={onAction}
        onNavigate={(url) => void router.navigate({ href: url })}
      />
      <CreateCustomer create={create} />
      <CustomerActions actions={actions} />
      {assign.dialog}
      {schedule.dialog}
    </>
  );
}

// The dialogs read their own actors: a key typed in one renders the dialog, not the page's table.

function CreateCustomer({ create }: { create: ActorRefFrom<typeof customerCreateMachine> }) {
  const open = useSelector(create, (s) => s.hasTag('open'));
  const busy = useSelector(create, (s) => s.hasTag('busy'));
  const form = useSelector(create, (s) => s.context.form);
  const errors = useSelector(create, (s) => s.context.errors);
  const failure = useSelector(create, (s) => (s.matches('failed') ? s.context.failure : null));
  return (
    <CustomerCreateDialog
      visible={open}
      busy={busy}
      form={form}
      errors={errors}
      failure={failure}
      onField={(field, value) => create.send({ type: 'user.field', field, value })}
      onExpiration={(days) => create.send({ type: 'user.expiration', days })}
      onSubmit={() => create.send({ type: 'user.submit' })}
      onCancel={() => create.send({ type: 'user.cancel' })}
    />
  );
}

function CustomerActions({ actions }: { actions: ActorRefFrom<typeof customerActionsMachine> }) {
  const stage = useSelector(actions, actionStage);
  const context = useSelector(actions, (s) => s.context);
  return (
    <CustomerActionDialogs
      step={actionStep(stage, context)}
      onClose={() => actions.send({ type: 'user.close' })}
      onRetry={() => actions.send({ type: 'user.retry' })}
      onField={(field, value) => actions.send({ type: 'user.field', field, value })}
      onSubmit={() => actions.send({ type: 'user.submit' })}
      onReason={(value) => actions.send({ type: 'user.reason', value })}
      onEndLines={(value) => actions.send({ type: 'user.endLines', value })}
      onConfirm={() => actions.send({ type: 'user.confirm' })}
      onBack={() => actions.send({ type: 'user.back' })}
      onDays={(days) => actions.send({ type: 'user.days', days })}
      onExtend={() => actions.send({ type: 'user.extend' })}
      onResendLink={() => actions.send({ type: 'user.resendLink' })}
    />
  );
}
