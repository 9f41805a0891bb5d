// Statements (/billing/statements, admin): every customer's statements of a cycle. A list machine
// over GET /billing/statements keeps page, search and status in the URL; the cycle and the customer
// are in the URL too but not in the list machine's query: the load reads them from the address and
// a change of them loads the list again, as the alerts page does with kind and severity. Without a
// cycle in the address the first answer names the cycles that have statements, and the newest goes
// into the address. Export CSV fetches the same filter's CSV with the bearer token (a plain link
// would carry none) and saves it. Also here: a customer's statements on their page.
import { useEffect, useRef, useState } from 'react';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import type { StatementListWire, StatementSummaryWire } from '../domain/billing';
import { isoDay } from '../domain/ledger';
import { createListMachine, type ListLocation } from '../machines/list';
import { createResourceMachine } from '../machines/resource';
import { CustomerStatementsCard } from '../ui/billing/statements/CustomerStatementsCard';
import { STATEMENT_TEXTS } from '../ui/billing/statements/parts';
import { STATEMENTS_PAGE_SIZE, validateStatementsSearch, type StatementsSearch } from '../ui/billing/statements/search';
import { StatementsView, type StatementStatusFilter } from '../ui/billing/statements/StatementsView';
import { useCsvExport } from '../ui/common/ExportButton';
import { useListState } from './list-state';
import { outcome } from './outcome';
import { useAppServices, usePageActor } from './services';

const statementsListMachine = createListMachine<StatementSummaryWire, StatementStatusFilter>({
  id: 'statementsList',
  defaultQuery: { page: 1, limit: STATEMENTS_PAGE_SIZE, search: '', status: 'all' },
});
const customerStatementsMachine = createResourceMachine<StatementSummaryWire[]>('customerStatements');
const routeApi = getRouteApi('/app/billing/statements');

const locationOf = (search: StatementsSearch): ListLocation<StatementStatusFilter> => ({ page: search.page ?? 1, search: search.search ?? '', status: search.status ?? 'all' });

export function StatementsRoute() {
  const { api } = useAppServices();
  const router = useRouter();
  const search = routeApi.useSearch();
  const location = locationOf(search);
  // What every answer carries beside the rows: the totals of the filter and the cycles there are.
  const [extras, setExtras] = useState<Pick<StatementListWire, 'totals' | 'cycles'> | null>(null);
  const currentSearch = () => validateStatementsSearch(router.state.location.search as Record<string, unknown>);
  const navigateTo = (next: StatementsSearch, replace = false) =>
    void router.navigate({ to: '/billing/statements', search: validateStatementsSearch(next as Record<string, unknown>), replace });

  const list = usePageActor(
    statementsListMachine.provide({
      actors: {
        load: fromPromise(({ input, signal }) =>
          outcome(async () => {
            const shown = currentSearch();
            const result = await api.statements.list(
              { cycle: shown.cycle, customer: shown.customer, status: input.status, search: input.search, page: input.page, limit: input.limit },
              signal,
            );
            if (result.ok) setExtras({ totals: result.data.totals, cycles: result.data.cycles });
            return result.ok ? { ok: true as const, data: { rows: result.data.items, pagination: result.data.pagination } } : result;
          }),
        ),
      },
      actions: {
        // A typed search replaces the address; paging and the status filter add a history entry.
        publishQuery: (_, query) => {
          const shown = currentSearch();
          navigateTo({ ...shown, page: query.page, search: query.search, status: query.status === 'all' ? undefined : query.status }, query.search !== (shown.search ?? ''));
        },
        reportLoadFailure: () => {},
      },
    }),
    { input: { query: location } },
  );
  const { rows, pagination, query, searchInput, loading, error } = useListState(list, location);

  // Cycle and customer: when the address changes them, the list loads again (its load reads them).
  const filters = `${search.cycle ?? ''}/${search.customer ?? ''}`;
  const loadedFilters = useRef(filters);
  useEffect(() => {
    if (loadedFilters.current === filters) return;
    loadedFilters.current = filters;
    list.send({ type: 'user.refresh' });
  }, [list, filters]);

  // No cycle chosen: the newest one with statements, in place of the bare address.
  const newest = extras?.cycles[0]?.cycle;
  useEffect(() => {
    if (search.cycle || !newest) return;
    void router.navigate({ to: '/billing/statements', search: validateStatementsSearch({ ...router.state.location.search, cycle: newest }), replace: true });
  }, [router, search.cycle, newest]);

  const csv = useCsvExport(
    () => {
      const shown = currentSearch();
      return api.statements.exportCsv({ cycle: shown.cycle, status: shown.status ?? 'all', customer: shown.customer, search: shown.search });
    },
    `statements-${search.cycle ?? 'all'}.csv`,
    STATEMENT_TEXTS.exportFailed,
  );

  const customerName = search.customer ? (rows.find((row) => row.customerId === search.customer)?.customerName ?? null) : null;

  return (
    <StatementsView
      statements={rows}
      pagination={pagination}
      totals={extras?.totals ?? null}
      cycles={extras?.cycles ?? []}
      cycle={search.cycle ?? null}
      status={query.status}
      search={searchInput}
      customer={search.customer ? { uuid: search.customer, name: customerName } : null}
      loading={loading}
      error={error}
      exporting={csv.exporting}
      today={isoDay(new Date())}
      onCycle={(cycle) => navigateTo({ ...currentSearch(), cycle, page: undefined })}
      onStatus={(status) => list.send({ type: 'user.status', status })}
      onSearch={(value) => list.send({ type: 'user.searchInput', value })}
      onClearCustomer={() => navigateTo({ ...currentSearch(), customer: undefined, page: undefined })}
      onPage={(page) => list.send({ type: 'user.page', page })}
      onRetry={() => list.send({ type: 'user.retry' })}
      onExport={() => void csv.exportCsv()}
      onNavigate={(url) => void router.navigate({ href: url })}
    />
  );
}

/** A customer's statements on their page (/customer/terminals/{uuid}): a resource over GET /customers/{uuid}/statements. */
export function CustomerStatementsSection({ customerUuid }: { customerUuid: string }) {
  const { api } = useAppServices();
  const router = useRouter();
  const statements = usePageActor(
    customerStatementsMachine.provide({ actors: { load: fromPromise(({ signal }) => outcome(() => api.statements.ofCustomer(customerUuid, signal))) } }),
  );
  const data = useSelector(statements, (s) => s.context.data);
  const error = useSelector(statements, (s) => (s.matches('failed') ? s.context.error : null));
  return (
    <CustomerStatementsCard
      customerUuid={customerUuid}
      statements={data}
      error={error}
      onRetry={() => statements.send({ type: 'user.retry' })}
      onNavigate={(url) => void router.navigate({ href: url })}
    />
  );
}
