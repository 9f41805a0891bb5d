// The fleet map (`GET /fleet/map`, terminals:read): every live terminal the filter matches, those
// with a location as parallel columns (src/domain/telemetry-history.ts, FleetMapWire). The answer
// is read defensively: columns that do not line up are no answer (one off would place every
// terminal at its neighbour's address), a located terminal with a position no map can place is
// counted with those without one, and an unreadable entry of the unlocated list is skipped.
//
// `createFleetMapActors` is the page's actors in one place (the route provides them): the map's
// load and the customer filter's search.
import { fromPromise } from 'xstate';
import { TERMINAL_CONDITIONS } from '../domain/terminals';
import { FLEET_MAP_COORDINATE_UNITS, isPlaceable, type FleetMap, type FleetMapFilter, type FleetMapWire } from '../domain/telemetry-history';
import type { ListPage, ListQuery } from '../machines/list';
import type { LoadOutcome } from '../machines/resource';
import { mapResult, type ApiClient, type ApiResult } from './client';
import type { CustomersApi } from './customers';
import { int, isRecord, str, text, withSignal } from './normalise';
import { outcome } from './outcomes';
import { oneOf } from './terminals';

/** The query string of a filter; what the filter leaves open is not sent. */
export function fleetMapQuery(filter: FleetMapFilter): Record<string, string | number> {
  return {
    ...(filter.customerId ? { customer_id: filter.customerId } : {}),
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.accountId !== undefined ? { account_id: filter.accountId } : {}),
  };
}

const column = (value: unknown): unknown[] | null => (Array.isArray(value) ? value : null);
const finite = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** The answer read: coordinates from the wire's ten-thousandths into degrees. */
export function normaliseFleetMap(data: unknown): FleetMap | null {
  if (!isRecord(data) || !isRecord(data.located)) return null;
  const ids = column(data.located.userTerminalIds);
  const latitudes = column(data.located.latitudesE4);
  const longitudes = column(data.located.longitudesE4);
  const conditions = column(data.located.conditions);
  if (!ids || !latitudes || !longitudes || !conditions) return null;
  if (latitudes.length !== ids.length || longitudes.length !== ids.length || conditions.length !== ids.length) return null;

  const located: FleetMap['located'] = { userTerminalIds: [], latitudes: [], longitudes: [], conditions: [] };
  const degrees = (units: unknown) => {
    const value = finite(units);
    return value === null ? null : value / FLEET_MAP_COORDINATE_UNITS;
  };
  let unplaceable = 0;
  ids.forEach((rawId, i) => {
    const id = text(rawId);
    if (!id) return;
    const latitude = degrees(latitudes[i]);
    const longitude = degrees(longitudes[i]);
    if (!isPlaceable(latitude, longitude)) {
      unplaceable += 1;
      return;
    }
    const condition = int(conditions[i], -1);
    located.userTerminalIds.push(id);
    located.latitudes.push(latitude!);
    located.longitudes.push(longitude!);
    // An index this client does not know reads as inactive (conditionAt), the least alarming.
    located.conditions.push(condition >= 0 && condition < TERMINAL_CONDITIONS.length ? condition : TERMINAL_CONDITIONS.indexOf('inactive'));
  });

  const unlocated = isRecord(data.unlocated) ? data.unlocated : {};
  const listed = (Array.isArray(unlocated.terminals) ? unlocated.terminals : []).flatMap((raw): FleetMapWire['unlocated']['terminals'] => {
    if (!isRecord(raw)) return [];
    const userTerminalId = text(raw.userTerminalId);
    if (!userTerminalId) return [];
    return [{ userTerminalId, nickname: text(raw.nickname), serviceLineNumber: text(raw.serviceLineNumber), condition: oneOf(TERMINAL_CONDITIONS, raw.condition) ?? 'inactive' }];
  });
  const total = Math.max(int(unlocated.total, listed.length), listed.length) + unplaceable;
  return { generatedAt: str(data.generatedAt) ?? '', located, unlocated: { total, terminals: listed } };
}

export function createFleetMapApi(client: ApiClient) {
  return {
    map: async (filter: FleetMapFilter, signal?: AbortSignal): Promise<ApiResult<FleetMap>> =>
      mapResult(await client.request<unknown>('/fleet/map', { query: fleetMapQuery(filter), ...withSignal(signal) }), normaliseFleetMap),
  };
}

export type FleetMapApi = ReturnType<typeof createFleetMapApi>;

/** A customer the map's customer filter offers. */
export interface FleetMapCustomer {
  id: string;
  name: string;
}

/** The fleet map page's actors: each reads an answer into the outcome its machine takes. */
export function createFleetMapActors(api: { fleetMap: FleetMapApi; customers: Pick<CustomersApi, 'list'> }) {
  const { fleetMap } = api;
  return {
    loadMap: fromPromise<LoadOutcome<FleetMap>, FleetMapFilter>(({ input, signal }) => outcome(() => fleetMap.map(input, signal))),
    loadCustomerChoices: fromPromise<LoadOutcome<ListPage<FleetMapCustomer>>, ListQuery<'all'>>(({ input, signal }) =>
      outcome(async () => {
        const result = await api.customers.list({ page: 1, limit: input.limit, ...(input.search ? { search: input.search } : {}) }, signal);
        return result.ok ? { ok: true as const, data: { rows: result.data.customers.map((c) => ({ id: c.uuid, name: c.name })), pagination: result.data.pagination } } : result;
      }),
    ),
  };
}
