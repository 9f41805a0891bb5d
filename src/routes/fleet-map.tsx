// The fleet map (/terminals/map): every live terminal the filter matches, on a world map drawn in
// the browser from world-atlas's 110m land (no tile server: a deployment may be offline). A pin's
// colour and shape say its status; where pins crowd, supercluster gathers them into a cluster whose
// ring shows the statuses within, and the clusters are worked out again at every zoom and drag. A
// pin opens the terminal's details on the terminals page (`/terminals?terminal=<id>`, URL state
// there); a cluster zooms in on itself, or lists its terminals where no zoom can part them.
// Terminals without a location are counted and listed under the map, never drawn at 0,0.
//
// The filter (customer, status, provider account) lives in the address, so a link shows the same
// map; the fleet map machine loads what it names. The drawing is src/ui/fleet-map/FleetMapCanvas.tsx,
// whose view (zoom and centre) is its own: it fits the fleet when an answer comes and follows the
// + / − buttons, the wheel and dragging.
import { useEffect, useId, useMemo, useState } from 'react';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { shallowEqual, useSelector } from '@xstate/react';
import { Dropdown } from 'primereact/dropdown';
import { createFleetMapActors, type FleetMapCustomer } from '../api/fleet-map';
import { FLEET_MAP_TEXTS as T, filterOfSearch, fleetPoints, unplacedCount, type FleetMapSearch } from '../domain/fleet-map';
import { PAGE_TITLES } from '../domain/navigation';
import { fleetMapMachine, fleetMapView } from '../machines/fleet-map';
import { createListMachine } from '../machines/list';
import { AccountPicker } from '../ui/common/AccountPicker';
import { ErrorCard } from '../ui/common/ErrorCard';
import { PageHeader } from '../ui/common/PageHeader';
import { useAccountChoices } from './account-refs';
import { useAppServices, useCan, usePageActor } from './services';
import { ALL, FleetMapCanvas, StatusFilter, UnlocatedTerminals } from '../ui/fleet-map/FleetMapCanvas';

const routeApi = getRouteApi('/app/terminals/map');
const customerChoicesMachine = createListMachine<FleetMapCustomer, 'all'>({ id: 'fleetMapCustomers', defaultQuery: { page: 1, limit: 20, search: '', status: 'all' } });

type FleetMapActors = ReturnType<typeof createFleetMapActors>;

export function FleetMapRoute() {
  const { api } = useAppServices();
  const router = useRouter();
  const search = routeApi.useSearch();
  const [actors] = useState(() => createFleetMapActors(api));
  const fleetMap = usePageActor(fleetMapMachine.provide({ actors: { loadMap: actors.loadMap } }), { input: { filter: filterOfSearch(search) } });

  // The address is the filter: when it changes (a pick, Back, a link), the map loads what it names.
  const { customer, status, account } = search;
  useEffect(() => {
    fleetMap.send({ type: 'filter.change', filter: filterOfSearch({ customer, status, account }) });
  }, [fleetMap, customer, status, account]);

  const view = useSelector(fleetMap, fleetMapView, shallowEqual);
  const points = useMemo(() => (view.map ? fleetPoints(view.map) : null), [view.map]);
  const unplaced = view.map ? unplacedCount(view.map) : 0;
  const accounts = useAccountChoices();
  const readsCustomers = useCan('customers:read');
  const meta = PAGE_TITLES['/terminals/map'];

  const onNavigate = (url: string) => void router.navigate({ href: url });
  const filterBy = (next: Partial<FleetMapSearch>) => void router.navigate({ to: '/terminals/map', search: { ...search, ...next } });

  return (
    <div className="page fleet-map-page">
      <PageHeader
        title={meta.title}
        breadcrumb={meta.breadcrumb}
        subtitle={points ? [T.placed(points.length), ...(unplaced > 0 ? [T.unlocated(unplaced)] : [])].join(' · ') : T.subtitle}
        onNavigate={onNavigate}
      />

      <section className="list-card">
        <div className="list-toolbar" role="search" aria-label="Fleet map filters">
          {readsCustomers && <CustomerFilter actors={actors} value={customer} onChange={(id) => filterBy({ customer: id })} />}
          <StatusFilter value={status} onChange={(next) => filterBy({ status: next })} />
          {accounts && (
            <AccountPicker accounts={accounts} value={account ?? null} onChange={(id) => filterBy({ account: id ?? undefined })} allLabel="All accounts" hideLabel className="list-status" />
          )}
        </div>

        {view.error !== null ? (
          <ErrorCard title={T.loadError} message={view.error} onRetry={() => fleetMap.send({ type: 'user.retry' })} />
        ) : (
          <>
            {view.loading && (
              <p role="status" className="cell-secondary">
                <i className="pi pi-spin pi-spinner" aria-hidden="true" /> {T.loading}
              </p>
            )}
            {points && points.length === 0 && unplaced === 0 && <p role="status">{T.empty}</p>}
            <FleetMapCanvas points={points} onNavigate={onNavigate} />
          </>
        )}
      </section>

      {view.map && unplaced > 0 && <UnlocatedTerminals map={view.map} total={unplaced} onNavigate={onNavigate} />}
    </div>
  );
}

function CustomerFilter({ actors, value, onChange }: { actors: FleetMapActors; value: string | undefined; onChange(id: string | undefined): void }) {
  const id = `${useId()}-customer`;
  const choices = usePageActor(customerChoicesMachine.provide({ actors: { load: actors.loadCustomerChoices } }));
  const found = useSelector(choices, (s) => s.context.rows);
  const searching = useSelector(choices, (s) => s.hasTag('loading') || s.matches({ searchBox: 'debouncing' }));
  // The chosen customer keeps its name whatever the search now finds; one named only by a link
  // shows the start of its id until a search finds it.
  const [picked, setPicked] = useState<FleetMapCustomer | null>(null);
  const chosen = value ? (found.find((c) => c.id === value) ?? (picked?.id === value ? picked : { id: value, name: `Customer ${value.slice(0, 8)}` })) : null;
  const options = [
    { value: ALL, label: T.allCustomers },
    ...(chosen && !found.some((c) => c.id === chosen.id) ? [{ value: chosen.id, label: chosen.name }] : []),
    ...found.map((c) => ({ value: c.id, label: c.name })),
  ];
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {T.customerFilter}
      </label>
      <Dropdown
        inputId={id}
        className="list-status"
        value={value ?? ALL}
        options={options}
        optionLabel="label"
        optionValue="value"
        filter
        filterPlaceholder={T.customerSearch}
        onFilter={(event) => choices.send({ type: 'user.searchInput', value: event.filter })}
        emptyFilterMessage={searching ? T.customersSearching : T.customersNone}
        onChange={(event) => {
          const next = event.value === ALL ? undefined : String(event.value);
          const customer = found.find((c) => c.id === next);
          if (customer) setPicked(customer);
          onChange(next);
        }}
      />
    </>
  );
}

