// Audit log (/audit, for those who read it: audit:read): a list machine over GET /audit whose search is the actor and
// whose status is the kind of actor; actions, target and days are in the URL too but not in the
// list machine's query: the load reads them from the address and a change of them loads the list
// again, as the alerts page does with kind and severity. The open entry is URL state (`entry`), so
// a link shows one entry's before and after. Export CSV fetches the same filter's CSV.
import { useEffect, useRef } from 'react';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { fromPromise } from 'xstate';
import { AUDIT_MESSAGES, AUDIT_PAGE_SIZE, type AuditEntryWire } from '../domain/audit';
import { createListMachine, type ListLocation } from '../machines/list';
import { AuditLogView } from '../ui/audit/AuditLogView';
import { actionsOf, auditFilterOf, validateAuditSearch, type AuditKindFilter, type AuditSearch } from '../ui/audit/search';
import { useCsvExport } from '../ui/common/ExportButton';
import { useListState } from './list-state';
import { outcome } from './outcome';
import { useAppServices, usePageActor } from './services';

const auditListMachine = createListMachine<AuditEntryWire, AuditKindFilter>({
  id: 'auditList',
  defaultQuery: { page: 1, limit: AUDIT_PAGE_SIZE, search: '', status: 'all' },
});
const routeApi = getRouteApi('/app/audit');

const locationOf = (search: AuditSearch): ListLocation<AuditKindFilter> => ({ page: search.page ?? 1, search: search.actor ?? '', status: search.kind ?? 'all' });

export function AuditRoute() {
  const { api } = useAppServices();
  const router = useRouter();
  const search = routeApi.useSearch();
  const location = locationOf(search);
  const currentSearch = () => validateAuditSearch(router.state.location.search as Record<string, unknown>);
  const navigateTo = (next: AuditSearch, replace = false) => void router.navigate({ to: '/audit', search: validateAuditSearch(next as Record<string, unknown>), replace });
  /** A filter outside the list machine changed: back to the first page, no entry open. */
  const refilter = (change: Partial<AuditSearch>) => navigateTo({ ...currentSearch(), ...change, page: undefined, entry: undefined });

  const list = usePageActor(
    auditListMachine.provide({
      actors: {
        load: fromPromise(({ input, signal }) =>
          outcome(async () => {
            const shown = currentSearch();
            const result = await api.audit.list(
              { ...auditFilterOf(shown), actor: input.search || undefined, actorKind: input.status === 'all' ? undefined : input.status, page: input.page, limit: input.limit },
              signal,
            );
            return result.ok ? { ok: true as const, data: { rows: result.data.entries, pagination: result.data.pagination } } : result;
          }),
        ),
      },
      actions: {
        // A typed actor replaces the address; paging and the kind filter add a history entry.
        publishQuery: (_, query) => {
          const shown = currentSearch();
          navigateTo(
            { ...shown, page: query.page, actor: query.search, kind: query.status === 'all' ? undefined : query.status, entry: undefined },
            query.search !== (shown.actor ?? ''),
          );
        },
        reportLoadFailure: () => {},
      },
    }),
    { input: { query: location } },
  );
  const { rows, pagination, query, searchInput, loading, error } = useListState(list, location);

  // Actions, target and days: when the address changes them, the list loads again (its load reads them).
  const filters = [search.action, search.targetType, search.targetId, search.from, search.to].map((v) => v ?? '').join('\n');
  const loadedFilters = useRef(filters);
  useEffect(() => {
    if (loadedFilters.current === filters) return;
    loadedFilters.current = filters;
    list.send({ type: 'user.refresh' });
  }, [list, filters]);

  const csv = useCsvExport(
    () => api.audit.exportCsv(auditFilterOf(currentSearch())),
    'audit-log.csv',
    AUDIT_MESSAGES.exportFailed,
  );

  const filtered = Boolean(search.actor || search.kind || search.action || search.targetType || search.targetId || search.from || search.to);

  return (
    <AuditLogView
      entries={rows}
      pagination={pagination}
      actor={searchInput}
      kind={query.status}
      actions={actionsOf(search.action)}
      target={{ type: search.targetType ?? '', id: search.targetId ?? '' }}
      from={search.from ?? ''}
      to={search.to ?? ''}
      openEntry={search.entry === undefined ? null : String(search.entry)}
      loading={loading}
      error={error}
      exporting={csv.exporting}
      filtered={filtered}
      onActor={(value) => list.send({ type: 'user.searchInput', value })}
      onKind={(status) => list.send({ type: 'user.status', status })}
      onActions={(actions) => refilter({ action: actions.join(',') || undefined })}
      onTarget={(target) => refilter({ targetType: target.type || undefined, targetId: target.id || undefined })}
      // A from after the to moves the to along (the server refuses a range written backwards).
      onDays={({ from, to }) => refilter({ from: from || undefined, to: from && to && from > to ? from : to || undefined })}
      onClear={() => navigateTo({})}
      onOpenEntry={(id) => navigateTo({ ...currentSearch(), entry: id === null ? undefined : Number(id) })}
      onPage={(page) => list.send({ type: 'user.page', page })}
      onRetry={() => list.send({ type: 'user.retry' })}
      onExport={() => void csv.exportCsv()}
    />
  );
}
