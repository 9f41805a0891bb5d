// The audit log (/audit, audit:read): every audited action, newest first, filtered by actor
// (the search box), the kind of actor (the filter bar's select), actions, target and UTC days; a
// row opens to its before and after side by side with the changed fields marked; Export CSV saves
// the whole filtered log. Renders props and calls callbacks; the route keeps the filters in the URL.
import { useId, useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable, type DataTableExpandedRows } from 'primereact/datatable';
import { InputText } from 'primereact/inputtext';
import { MultiSelect } from 'primereact/multiselect';
import { Tag } from 'primereact/tag';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  AUDIT_ACTOR_KIND_LABELS,
  AUDIT_ACTOR_KINDS,
  AUDIT_ACTOR_MAX_LENGTH,
  AUDIT_MAX_ACTIONS,
  AUDIT_MESSAGES as M,
  AUDIT_TARGET_ID_MAX_LENGTH,
  AUDIT_TARGET_TYPE_MAX_LENGTH,
  auditActionLabel,
  changedFields,
  type AuditAction,
  type AuditEntryWire,
} from '../../domain/audit';
import type { Pagination } from '../../domain/customers';
import { ErrorCard } from '../common/ErrorCard';
import { ExportButton } from '../common/ExportButton';
import { ListPaginator } from '../common/ListPaginator';
import { SearchFilterBar } from '../common/SearchFilterBar';
import { AuditChanges } from './AuditChanges';
import type { AuditKindFilter } from './search';
import './audit.css';

export const AUDIT_TEXTS = {
  loading: 'Loading the audit log...',
  searchLabel: 'Filter by actor',
  searchPlaceholder: 'Actor email, name or id',
  kindLabel: 'Kind of actor',
  actionsLabel: 'Actions',
  actionsPlaceholder: 'Every action',
  targetTypeLabel: 'Target type',
  targetIdLabel: 'Target id',
  fromLabel: 'From (UTC)',
  toLabel: 'To (UTC)',
  clearFilters: 'Clear filters',
  system: 'System',
  anonymous: 'Not signed in',
  showChanges: (label: string) => `Show before and after: ${label}`,
  hideChanges: (label: string) => `Hide before and after: ${label}`,
} as const;
const T = AUDIT_TEXTS;

const KIND_OPTIONS: { value: AuditKindFilter; label: string }[] = [
  { value: 'all', label: 'Every kind of actor' },
  ...AUDIT_ACTOR_KINDS.map((kind) => ({ value: kind, label: AUDIT_ACTOR_KIND_LABELS[kind] })),
];
const ACTION_OPTIONS = AUDIT_ACTIONS.map((value) => ({ value, label: AUDIT_ACTION_LABELS[value] })).sort((a, b) => a.label.localeCompare(b.label));

export interface AuditTargetFilter {
  type: string;
  id: string;
}

export interface AuditLogViewProps {
  entries: readonly AuditEntryWire[];
  pagination: Pagination | null;
  /** The actor box as typed. */
  actor: string;
  kind: AuditKindFilter;
  actions: readonly AuditAction[];
  target: AuditTargetFilter;
  from: string;
  to: string;
  /** The entry whose before/after is open. */
  openEntry: string | null;
  loading: boolean;
  error: string | null;
  exporting: boolean;
  filtered: boolean;
  onActor(text: string): void;
  onKind(kind: AuditKindFilter): void;
  onActions(actions: AuditAction[]): void;
  onTarget(target: AuditTargetFilter): void;
  onDays(days: { from: string; to: string }): void;
  onClear(): void;
  onOpenEntry(id: string | null): void;
  onPage(page: number): void;
  onRetry(): void;
  onExport(): void;
}

const time = (iso: string) => iso.replace('T', ' ').replace(/\.\d{3}Z$/, 'Z');

function Actor({ entry }: { entry: AuditEntryWire }) {
  const { actor } = entry;
  if (actor.kind === 'system') return <span>{T.system}</span>;
  if (actor.kind === 'anonymous') return <span>{T.anonymous}</span>;
  return (
    <span className="audit-actor">
      <span>{actor.name ?? actor.email ?? actor.id}</span>
      {actor.email && actor.name && <small>{actor.email}</small>}
      <small>{AUDIT_ACTOR_KIND_LABELS[actor.kind]}</small>
    </span>
  );
}

function Target({ entry }: { entry: AuditEntryWire }) {
  const { target } = entry;
  if (!target.type && !target.id) return <span aria-label="No target">—</span>;
  return (
    <span className="audit-target">
      {target.type && <small>{target.type}</small>}
      {target.id && <code>{target.id}</code>}
    </span>
  );
}

/**
 * The target filter: applied when submitted (Enter) or when focus leaves both boxes, not on every
 * key. When the applied filter moves (back, a link, Clear filters) the boxes show it, keeping focus.
 */
function TargetFilter({ target, onTarget }: { target: AuditTargetFilter; onTarget(target: AuditTargetFilter): void }) {
  const id = useId();
  const [draft, setDraft] = useState(target);
  const [applied, setApplied] = useState(target);
  if (applied.type !== target.type || applied.id !== target.id) {
    setApplied(target);
    setDraft(target);
  }
  const apply = (event?: FormEvent) => {
    event?.preventDefault();
    const next = { type: draft.type.trim(), id: draft.id.trim() };
    if (next.type !== target.type || next.id !== target.id) onTarget(next);
  };
  return (
    <form
      className="audit-target-filter"
      onSubmit={apply}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) apply();
      }}
    >
      <span className="audit-field">
        <label htmlFor={`${id}-type`}>{T.targetTypeLabel}</label>
        <InputText id={`${id}-type`} value={draft.type} maxLength={AUDIT_TARGET_TYPE_MAX_LENGTH} placeholder="customer" onChange={(e) => setDraft({ ...draft, type: e.target.value })} />
      </span>
      <span className="audit-field">
        <label htmlFor={`${id}-id`}>{T.targetIdLabel}</label>
        <InputText id={`${id}-id`} value={draft.id} maxLength={AUDIT_TARGET_ID_MAX_LENGTH} onChange={(e) => setDraft({ ...draft, id: e.target.value })} />
      </span>
      {/* Enter in either box submits; the button is for pointer users and says what Enter does. */}
      <Button type="submit" icon="pi pi-filter" text rounded aria-label="Apply the target filter" />
    </form>
  );
}

export function AuditLogView(props: AuditLogViewProps) {
  const id = useId();
  const { pagination } = props;
  const expandedRows: DataTableExpandedRows = props.openEntry ? { [props.openEntry]: true } : {};
  return (
    <section className="page audit-page" aria-labelledby={`${id}-title`}>
      <header className="page-header-row">
        <h1 id={`${id}-title`}>{M.pageTitle}</h1>
        <ExportButton exporting={props.exporting} onExport={props.onExport} />
      </header>
      <SearchFilterBar
        searchLabel={T.searchLabel}
        placeholder={T.searchPlaceholder}
        maxLength={AUDIT_ACTOR_MAX_LENGTH}
        search={props.actor}
        onSearch={props.onActor}
        status={props.kind}
        statusLabel={T.kindLabel}
        options={KIND_OPTIONS}
        onStatus={props.onKind}
      >
        <span className="audit-field audit-actions-field">
          <label id={`${id}-actions-label`} htmlFor={`${id}-actions`}>
            {T.actionsLabel}
          </label>
          <MultiSelect
            inputId={`${id}-actions`}
            ariaLabelledBy={`${id}-actions-label`}
            value={[...props.actions]}
            options={ACTION_OPTIONS}
            optionLabel="label"
            optionValue="value"
            filter
            filterPlaceholder="Find an action"
            placeholder={T.actionsPlaceholder}
            display="chip"
            selectionLimit={AUDIT_MAX_ACTIONS}
            showSelectAll={false}
            onChange={(event) => props.onActions(event.value as AuditAction[])}
          />
        </span>
        <TargetFilter target={props.target} onTarget={props.onTarget} />
        <span className="audit-field">
          <label htmlFor={`${id}-from`}>{T.fromLabel}</label>
          <InputText id={`${id}-from`} type="date" value={props.from} max={props.to || undefined} onChange={(e) => props.onDays({ from: e.target.value, to: props.to })} />
        </span>
        <span className="audit-field">
          <label htmlFor={`${id}-to`}>{T.toLabel}</label>
          <InputText id={`${id}-to`} type="date" value={props.to} min={props.from || undefined} onChange={(e) => props.onDays({ from: props.from, to: e.target.value })} />
        </span>
        {props.filtered && <Button type="button" label={T.clearFilters} icon="pi pi-filter-slash" text onClick={props.onClear} />}
      </SearchFilterBar>

      {props.error ? (
        <ErrorCard title={M.loadFailed} message={props.error} onRetry={props.onRetry} />
      ) : pagination === null ? (
        <p role="status">{T.loading}</p>
      ) : (
        <>
          <p className="audit-count" role="status">
            {pagination.total === 1 ? '1 entry' : `${pagination.total.toLocaleString('en-US')} entries`}
          </p>
          <DataTable
            value={[...props.entries]}
            dataKey="id"
            loading={props.loading}
            emptyMessage={M.noEntries}
            expandedRows={expandedRows}
            rowExpansionTemplate={(entry: AuditEntryWire) => <AuditChanges entry={entry} />}
            pt={{ table: { 'aria-label': M.pageTitle } }}
          >
            <Column
              header={<span className="sr-only">Before and after</span>}
              style={{ width: '3.5rem' }}
              body={(entry: AuditEntryWire) => {
                const open = props.openEntry === entry.id;
                const label = auditActionLabel(entry.action);
                return (
                  <Button
                    type="button"
                    icon={open ? 'pi pi-chevron-down' : 'pi pi-chevron-right'}
                    text
                    rounded
                    aria-expanded={open}
                    aria-label={open ? T.hideChanges(label) : T.showChanges(label)}
                    onClick={() => props.onOpenEntry(open ? null : entry.id)}
                  />
                );
              }}
            />
            <Column header="Time (UTC)" body={(entry: AuditEntryWire) => <time dateTime={entry.createdAt}>{time(entry.createdAt)}</time>} />
            <Column header="Actor" body={(entry: AuditEntryWire) => <Actor entry={entry} />} />
            <Column
              header="Action"
              body={(entry: AuditEntryWire) => {
                const changed = changedFields(entry.before, entry.after);
                return (
                  <span className="audit-action">
                    <span>{auditActionLabel(entry.action)}</span>
                    <code>{entry.action}</code>
                    {changed.length > 0 && entry.before !== null && <Tag severity="info" value={`${changed.length} changed`} />}
                  </span>
                );
              }}
            />
            <Column header="Target" body={(entry: AuditEntryWire) => <Target entry={entry} />} />
          </DataTable>
          <ListPaginator pagination={pagination} onPage={props.onPage} />
        </>
      )}
    </section>
  );
}
