// Schedule (/schedule): the scheduled changes of lines and customers by status (a list machine
// over GET /scheduled-changes; the status and page are the list's own state, as on the Requests
// page), Cancel on the changes that have not run yet (the schedule cancel machine), and "Schedule
// a change" (the schedule change machine). `useScheduleDialog` is that dialog for every page that
// offers it: this one, Terminal Details → Settings and the customers' row menu.
import { useState } from 'react';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise, type ActorRefFrom } from 'xstate';
import type { Api } from '../api';
import { SCHEDULE_PAGE_SIZE, type SchedulePayload, type ScheduleStatusFilter, type ScheduledChangeWire } from '../domain/automation';
import type { SubscriptionPlanWire } from '../domain/subscriptions';
import { createListMachine, type ListLocation } from '../machines/list';
import { scheduleCancelMachine } from '../machines/schedule-cancel';
import type { LoadOutcome } from '../machines/resource';
import { scheduleChangeMachine, scheduleChangeView, type CustomerChoice, type ScheduleTarget } from '../machines/schedule-change';
import type { SaveOutcome } from '../machines/user-form';
import { CancelChangeDialog } from '../ui/automation/schedule/CancelChangeDialog';
import { ScheduleDialog } from '../ui/automation/schedule/ScheduleDialog';
import { ScheduleView } from '../ui/automation/schedule/ScheduleView';
import type { ScheduleDialogActions } from '../ui/automation/schedule/types';
import { useNow } from '../ui/common/useNow';
import { useListState } from './list-state';
import { outcome } from './outcome';
import { useAppServices, useCan, usePageActor } from './services';

const scheduleListMachine = createListMachine<ScheduledChangeWire, ScheduleStatusFilter>({
  id: 'scheduledChanges',
  defaultQuery: { page: 1, limit: SCHEDULE_PAGE_SIZE, search: '', status: 'upcoming' },
});

/** A customer search shows this many matches: enough to tell a few namesakes apart. */
const CUSTOMER_MATCHES = 8;

/** The schedule dialog's effects, read from the API. */
export function createScheduleActors(api: Api) {
  return {
    // A refusal keeps its status and field errors: the form puts them by their fields.
    scheduleChange: fromPromise<SaveOutcome<ScheduledChangeWire>, SchedulePayload>(({ input, signal }) => api.automation.scheduleChange(input, signal)),
    findCustomers: fromPromise<LoadOutcome<CustomerChoice[]>, string>(({ input, signal }) =>
      outcome(async () => {
        const result = await api.customers.list({ search: input, page: 1, limit: CUSTOMER_MATCHES }, signal);
        return result.ok ? { ok: true as const, data: result.data.customers.map((c) => ({ uuid: c.uuid, name: c.name, email: c.email })) } : result;
      }),
    ),
    loadPlans: fromPromise<LoadOutcome<SubscriptionPlanWire[]>>(({ signal }) => outcome(() => api.subscriptions.plans(signal))),
  };
}

/**
 * The schedule dialog as a page offers it: `open(target)` shows it for that line or customer (null:
 * the admin chooses), `dialog` is the element to render. `onScheduled` runs after each change set.
 */
export function useScheduleDialog(options: { onScheduled: () => void }) {
  const { api } = useAppServices();
  const actor = usePageActor(
    scheduleChangeMachine.provide({
      actors: createScheduleActors(api),
      actions: {
        notifySuccess: (_, message) => void toast.success(message, { id: 'schedule-change' }),
        notifyFailure: (_, message) => void toast.error(message, { id: 'schedule-change' }),
        changeScheduled: () => options.onScheduled(),
      },
    }),
  );
  return {
    open: (target: ScheduleTarget | null) => actor.send({ type: 'user.open', target }),
    // The dialog reads the actor itself: a key typed in it renders the dialog, not the page.
    dialog: <ScheduleChange actor={actor} />,
  };
}

function ScheduleChange({ actor }: { actor: ActorRefFrom<typeof scheduleChangeMachine> }) {
  const state = useSelector(actor, scheduleChangeView);
  const now = useNow();
  const send = actor.send;
  const actions: ScheduleDialogActions = {
    onTargetType: (targetType) => send({ type: 'user.targetType', targetType }),
    onLine: (value) => send({ type: 'user.line', value }),
    onCustomerSearch: (value) => send({ type: 'user.customerSearch', value }),
    onCustomer: (customer) => send({ type: 'user.customer', customer }),
    onOperation: (operation) => send({ type: 'user.operation', operation }),
    onParameter: (field, value) => send({ type: 'user.parameter', field, value }),
    onTiming: (timing) => send({ type: 'user.timing', timing }),
    onAt: (value) => send({ type: 'user.at', value }),
    onRetryPlans: () => send({ type: 'user.retryPlans' }),
    onSubmit: () => send({ type: 'user.submit', now: Date.now() }),
    onClose: () => send({ type: 'user.close' }),
  };
  return <ScheduleDialog state={state} actions={actions} now={now} />;
}

export function ScheduleRoute() {
  // Scheduling and cancelling are lifecycle changes; a reader sees the schedule only.
  const canManage = useCan('lifecycle:manage');
  const { api } = useAppServices();
  const [location, setLocation] = useState<ListLocation<ScheduleStatusFilter>>({ page: 1, search: '', status: 'upcoming' });
  const [upcoming, setUpcoming] = useState<number | null>(null);

  const list = usePageActor(
    scheduleListMachine.provide({
      actors: {
        load: fromPromise(({ input, signal }) =>
          outcome(async () => {
            const result = await api.automation.schedule({ status: input.status, page: input.page, limit: input.limit }, signal);
            // Every answer carries the upcoming count over the whole schedule, whatever the page shows.
            if (result.ok) setUpcoming(result.data.upcoming);
            return result.ok ? { ok: true as const, data: { rows: result.data.changes, pagination: result.data.pagination } } : result;
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
  const refresh = () => list.send({ type: 'user.refresh' });
  const cancel = usePageActor(
    scheduleCancelMachine.provide({
      actors: { cancelChange: fromPromise(({ input, signal }) => outcome(() => api.automation.cancelChange(input, signal))) },
      actions: {
        notifySuccess: (_, message) => void toast.success(message, { id: 'schedule-cancel' }),
        notifyFailure: (_, message) => void toast.error(message, { id: 'schedule-cancel' }),
        changeCancelled: refresh,
      },
    }),
  );
  const schedule = useScheduleDialog({ onScheduled: refresh });

  const { rows, pagination, query, loading, error } = useListState(list, location);
  const cancelOpen = useSelector(cancel, (s) => s.hasTag('open'));
  const cancelBusy = useSelector(cancel, (s) => s.hasTag('busy'));
  const cancelling = useSelector(cancel, (s) => s.context);

  return (
    <>
      <ScheduleView
        changes={rows}
        pagination={pagination}
        upcoming={upcoming}
        status={query.status}
        loading={loading}
        error={error}
        busy={cancelBusy}
        canManage={canManage}
        onStatus={(status) => list.send({ type: 'user.status', status })}
        onPage={(page) => list.send({ type: 'user.page', page })}
        onRetry={() => list.send({ type: 'user.retry' })}
        onSchedule={() => schedule.open(null)}
        onCancel={(change) => cancel.send({ type: 'user.cancelChange', change })}
      />
      <CancelChangeDialog
        visible={cancelOpen}
        change={cancelling.change}
        busy={cancelBusy}
        failure={cancelling.failure}
        onConfirm={() => cancel.send({ type: 'user.confirm' })}
        onClose={() => cancel.send({ type: 'user.close' })}
      />
      {schedule.dialog}
    </>
  );
}
