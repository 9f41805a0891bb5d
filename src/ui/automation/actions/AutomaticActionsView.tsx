// Automatic actions (the portal users' page): what the alert rules proposed or did, by status
// (waiting first, with its count), a search, the table and paging; Approve / Dismiss on proposals
// and Undo where it can be, for those who manage lifecycles. Composes the Requests and Alerts
// pages' parts. Renders props and calls callbacks; a decision's steps are the action review
// machine's states.
import { useId } from 'react';
import { SearchField } from '../../common/SearchFilterBar';
import { Button } from 'primereact/button';
import { DataTable } from 'primereact/datatable';
import { SelectButton } from 'primereact/selectbutton';
import {
  ACTION_MODE_LABELS,
  ACTION_STATUS_FILTERS,
  AUTOMATION_MESSAGES as M,
  RULE_ACTION_LABELS,
  type ActionStatusFilter,
  type AutomaticActionWire,
} from '../../../domain/automation';
import type { Pagination } from '../../../domain/customers';
import { ErrorCard } from '../../common/ErrorCard';
import { DASH, formatDateTime } from '../../common/format';
import { ListPaginator } from '../../common/ListPaginator';
import { useColumnFolding } from '../../common/useColumnFolding';
import { ActionStatusTag, actionText, savingText } from './parts';

export const ACTIONS_LOADING_TEXT = 'Loading automatic actions...';
export const ACTIONS_LOAD_FAILED = 'Could not load the automatic actions';
export const ACTIONS_SEARCH_LABEL = 'Search automatic actions';
export const ACTIONS_SEARCH_PLACEHOLDER = 'Line or customer';
export const ACTIONS_SEARCH_MAX_LENGTH = 100;

export const FILTER_LABELS: Readonly<Record<ActionStatusFilter, string>> = {
  waiting: 'Waiting',
  proposed: 'Proposed',
  executed: 'Done',
  failed: 'Failed',
  dismissed: 'Dismissed',
  undone: 'Undone',
  all: 'All',
};

export interface AutomaticActionsViewProps {
  actions: readonly AutomaticActionWire[];
  pagination: Pagination | null;
  /** Proposals waiting for an admin, from the last answer. */
  waiting: number | null;
  status: ActionStatusFilter;
  /** The search box as typed. */
  search: string;
  loading: boolean;
  error: string | null;
  /** A decision is under way: the row buttons wait. */
  busy: boolean;
  /** Approve, Dismiss and Undo are offered (lifecycle:manage). */
  canManage: boolean;
  onStatus(status: ActionStatusFilter): void;
  onSearch(text: string): void;
  onPage(page: number): void;
  onRetry(): void;
  onApprove(action: AutomaticActionWire): void;
  onDismiss(action: AutomaticActionWire): void;
  onUndo(action: AutomaticActionWire): void;
}

const filterLabel = (status: ActionStatusFilter, waiting: number | null) => (status === 'waiting' && waiting !== null ? `${FILTER_LABELS.waiting} (${waiting})` : FILTER_LABELS[status]);
const rowName = (a: AutomaticActionWire) => `${RULE_ACTION_LABELS[a.action]} on ${a.serviceLineNumber}`;

export function AutomaticActionsView(props: AutomaticActionsViewProps) {
  const id = useId();
  const { pagination, busy } = props;
  const folding = useColumnFolding<AutomaticActionWire>({ rowKey: (a) => a.id, rowName });
  return (
    <section className="page automatic-actions-page" aria-labelledby={`${id}-title`}>
      <header className="page-header-row">
        <h1 id={`${id}-title`}>{M.actionsPageTitle}</h1>
      </header>
      <SelectButton
        aria-label="Status"
        value={props.status}
        allowEmpty={false}
        options={ACTION_STATUS_FILTERS.map((value) => ({ label: filterLabel(value, props.waiting), value }))}
        onChange={(e) => {
          if (e.value) props.onStatus(e.value as ActionStatusFilter);
        }}
      />
      <div className="list-toolbar" role="search">
        <SearchField label={ACTIONS_SEARCH_LABEL} placeholder={ACTIONS_SEARCH_PLACEHOLDER} maxLength={ACTIONS_SEARCH_MAX_LENGTH} value={props.search} onChange={props.onSearch} />
      </div>
      {props.error ? (
        <ErrorCard title={ACTIONS_LOAD_FAILED} message={props.error} onRetry={props.onRetry} />
      ) : pagination === null ? (
        <p role="status">{ACTIONS_LOADING_TEXT}</p>
      ) : (
        <>
          <DataTable
            value={[...props.actions]}
            dataKey="id"
            emptyMessage={M.noActions}
            loading={props.loading}
            // The row buttons read `busy` from these props: PrimeReact's cell memo (on the row data)
            // would keep them enabled while a decision runs.
            cellMemo={false}
            pt={{ table: { 'aria-label': M.actionsPageTitle } }}
            {...folding.table([
              { priority: 'always', header: 'Line', body: (a) => a.serviceLineNumber },
              { priority: 'fold', header: 'Customer', body: (a) => a.customer?.name ?? DASH },
              { priority: 'fold', header: 'Rule', body: (a) => a.ruleLabel || DASH },
              { priority: 'always', header: 'Action', body: (a) => actionText(a) },
              { priority: 'fold', header: 'Mode', body: (a) => ACTION_MODE_LABELS[a.mode] },
              { priority: 'fold', header: 'Projected saving', body: (a) => savingText(a.projectedSaving, a.currency) },
              { priority: 'always', header: 'Status', body: (a) => <ActionStatusTag status={a.status} /> },
              { priority: 'fold', header: 'Outcome', body: (a) => a.outcome ?? DASH },
              { priority: 'fold', header: 'Created', body: (a) => formatDateTime(a.createdAt) },
              props.canManage && {
                priority: 'always',
                header: 'Actions',
                body: (a) =>
                  a.status === 'proposed' || a.undoable ? (
                    <span className="row-actions">
                      {a.status === 'proposed' && (
                        <>
                          <Button type="button" label="Approve" size="small" aria-label={`Approve ${rowName(a)}`} disabled={busy} onClick={() => props.onApprove(a)} />
                          <Button type="button" label="Dismiss" size="small" outlined severity="danger" aria-label={`Dismiss ${rowName(a)}`} disabled={busy} onClick={() => props.onDismiss(a)} />
                        </>
                      )}
                      {a.undoable && <Button type="button" label="Undo" size="small" outlined aria-label={`Undo ${rowName(a)}`} disabled={busy} onClick={() => props.onUndo(a)} />}
                    </span>
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
