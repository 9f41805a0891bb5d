// Schedule (admin): the scheduled changes of lines and customers by status (upcoming first), with
// paging, "Schedule a change", and Cancel on the changes that have not run yet. Renders props and
// calls callbacks.
import { Button } from 'primereact/button';
import { DataTable } from 'primereact/datatable';
import { SelectButton } from 'primereact/selectbutton';
import {
  AUTOMATION_MESSAGES as M,
  SCHEDULE_OPERATION_LABELS,
  SCHEDULE_STATUS_FILTERS,
  SCHEDULE_STATUS_LABELS,
  type ScheduleStatusFilter,
  type ScheduledChangeWire,
} from '../../../domain/automation';
import type { Pagination } from '../../../domain/customers';
import { ErrorCard } from '../../common/ErrorCard';
import { DASH } from '../../common/format';
import { ListPaginator } from '../../common/ListPaginator';
import { useColumnFolding } from '../../common/useColumnFolding';
import { ScheduleStatusTag, changeName, targetText, whenText } from './parts';

export const SCHEDULE_TEXTS = {
  loading: 'Loading scheduled changes...',
  loadFailed: 'Scheduled changes unavailable',
  schedule: 'Schedule a change',
  cancel: 'Cancel',
} as const;

export interface ScheduleViewProps {
  changes: readonly ScheduledChangeWire[];
  pagination: Pagination | null;
  /** Changes still to run, over the whole schedule (the Upcoming filter's figure); null before a load. */
  upcoming: number | null;
  status: ScheduleStatusFilter;
  loading: boolean;
  error: string | null;
  /** A cancellation is under way: the row buttons wait. */
  busy: boolean;
  /** Scheduling and cancelling are offered (lifecycle:manage). */
  canManage: boolean;
  onStatus(status: ScheduleStatusFilter): void;
  onPage(page: number): void;
  onRetry(): void;
  onSchedule(): void;
  onCancel(change: ScheduledChangeWire): void;
}

const filterLabel = (status: ScheduleStatusFilter, upcoming: number | null) => {
  if (status === 'all') return 'All';
  if (status === 'upcoming') return upcoming === null ? 'Upcoming' : `Upcoming (${upcoming})`;
  return SCHEDULE_STATUS_LABELS[status];
};

export function ScheduleView(props: ScheduleViewProps) {
  const { pagination } = props;
  const folding = useColumnFolding<ScheduledChangeWire>({ rowKey: (c) => c.id, rowName: changeName });
  return (
    <section className="page schedule-page" aria-labelledby="schedule-title">
      <header className="page-header-row">
        <h1 id="schedule-title">{M.schedulePageTitle}</h1>
        {props.canManage && <Button type="button" label={SCHEDULE_TEXTS.schedule} icon="pi pi-calendar-plus" onClick={props.onSchedule} />}
      </header>
      <SelectButton
        aria-label="Status"
        value={props.status}
        allowEmpty={false}
        options={SCHEDULE_STATUS_FILTERS.map((value) => ({ label: filterLabel(value, props.upcoming), value }))}
        onChange={(e) => {
          if (e.value) props.onStatus(e.value as ScheduleStatusFilter);
        }}
      />
      {props.error ? (
        <ErrorCard title={SCHEDULE_TEXTS.loadFailed} message={props.error} onRetry={props.onRetry} />
      ) : pagination === null ? (
        <p role="status">{SCHEDULE_TEXTS.loading}</p>
      ) : (
        <>
          <DataTable
            value={[...props.changes]}
            dataKey="id"
            emptyMessage={M.noChanges}
            loading={props.loading}
            pt={{ table: { 'aria-label': M.schedulePageTitle } }}
            {...folding.table([
              { priority: 'always', header: 'When', body: whenText },
              { priority: 'always', header: 'Operation', body: (c) => SCHEDULE_OPERATION_LABELS[c.operation] },
              { priority: 'always', header: 'Target', body: targetText },
              { priority: 'fold', header: 'Summary', body: (c) => c.summary || DASH },
              { priority: 'always', header: 'Status', body: (c) => <ScheduleStatusTag status={c.status} /> },
              { priority: 'fold', header: 'Attempts', body: (c) => String(c.attempts) },
              { priority: 'fold', header: 'Outcome', body: (c) => c.outcome ?? DASH },
              { priority: 'fold', header: 'Set up by', body: (c) => c.createdBy ?? DASH },
              props.canManage && {
                priority: 'always',
                header: 'Actions',
                body: (c) =>
                  c.status === 'scheduled' ? (
                    <Button
                      type="button"
                      label={SCHEDULE_TEXTS.cancel}
                      size="small"
                      outlined
                      severity="danger"
                      aria-label={`Cancel ${changeName(c)}`}
                      disabled={props.busy}
                      onClick={() => props.onCancel(c)}
                    />
                  ) : null,
              },
            ])}
          />
          <ListPaginator pagination={pagination} onPage={props.onPage} />
        </>
      )}
    </section>
  );
}
