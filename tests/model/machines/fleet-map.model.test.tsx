// Terminals → Map (fleetMap machine): its generated paths walked on the machine and through the
// /terminals/map page (the status filter causes `filter.change` through the address, Try Again
// `user.retry`), plus journeys pinned by hand: a late answer for an old filter is dropped.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { CONDITION_LABELS, FLEET_MAP_TEXTS as T } from '../../../src/domain/fleet-map';
import { conditionIndex, type FleetMapFilter, type FleetMap } from '../../../src/domain/telemetry-history';
import type { TerminalCondition } from '../../../src/domain/terminals';
import { fleetMapMachine, fleetMapView } from '../../../src/machines/fleet-map';
import { FALLBACK_LOAD_ERROR, type LoadOutcome } from '../../../src/machines/resource';
import { ok, refused } from '../../machines/scripted-actors';
import { defineModel, done, failed } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

const REFUSAL = 'Database unavailable';

function mapOf(located: [id: string, latitude: number, longitude: number, condition: TerminalCondition][], unlocatedTotal = 0): FleetMap {
  return {
    generatedAt: '2026-03-01T12:00:00.000Z',
    located: {
      userTerminalIds: located.map(([id]) => id),
      latitudes: located.map(([, latitude]) => latitude),
      longitudes: located.map(([, , longitude]) => longitude),
      conditions: located.map(([, , , condition]) => conditionIndex(condition)),
    },
    unlocated: { total: unlocatedTotal, terminals: [] },
  };
}

/** Three terminals on three continents and one without a location. */
const FLEET = mapOf([['UT-ANC', 61.2, -149.9, 'active'], ['UT-SYD', -33.87, 151.2, 'warning'], ['UT-BUE', -34.6, -58.4, 'maintenance']], 1);
const WARNINGS = mapOf([['UT-SYD', -33.87, 151.2, 'warning']]);

const theMap = () => screen.getByRole('group', { name: T.mapLabel });
const pinNames = () => within(theMap()).queryAllByRole('link').map((pin) => pin.getAttribute('aria-label'));

export const fleetMapModel = defineModel<typeof fleetMapMachine, PageScreen>({
  name: 'fleet-map',
  machine: fleetMapMachine,
  input: { filter: {} },
  events: {
    'filter.change': [{ type: 'filter.change', filter: { status: 'warning' } }],
    'user.retry': [{ type: 'user.retry' }],
  },
  actorResults: [done('loadMap', ok(FLEET)), done('loadMap', refused(REFUSAL)), failed('loadMap', new TypeError('fetch failed'))],
  states: {
    loading: (s) => {
      expect(s.hasTag('loading')).toBe(true);
      // No pins of an earlier filter under the new one.
      expect(fleetMapView(s).map).toBeNull();
    },
    ready: (s) => {
      expect(fleetMapView(s)).toMatchObject({ loading: false, error: null, map: FLEET });
    },
    failed: (s) => {
      expect(fleetMapView(s).map).toBeNull();
      expect([REFUSAL, FALLBACK_LOAD_ERROR]).toContain(fleetMapView(s).error);
    },
  },
  ui: {
    open: async (seam) => {
      // The map's own load is the path's; the account refs (one account: no picker) and the
      // customer filter's choices come from the fake API.
      const page = openPage('/terminals/map', seam, {
        'GET /api/v1/provider-accounts/refs': { body: { success: true, message: 'ok', data: [{ id: 1, name: 'Demo US' }] } },
        'GET /api/v1/customers': { body: { success: true, message: 'ok', data: { customers: [], pagination: { total: 0, page: 1, limit: 20, pages: 0 } } } },
      });
      await screen.findByLabelText(T.statusFilter, {}, { timeout: 5000 });
      return page;
    },
    events: {
      'filter.change': async ({ user }, { filter }) => {
        await user.click((screen.getByLabelText(T.statusFilter) as HTMLElement).closest('.p-dropdown')!);
        await user.click(await screen.findByRole('option', { name: filter.status ? CONDITION_LABELS[filter.status] : T.allStatuses }));
      },
      'user.retry': async ({ user }) => user.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try Again' })),
    },
    states: {
      loading: () => {
        expect(screen.getByText(T.loading)).toBeTruthy();
        expect(pinNames()).toEqual([]);
        expect(screen.queryByRole('alert')).toBeNull();
      },
      ready: () => {
        expect(screen.getByText('3 terminals on the map · 1 terminal has no location')).toBeTruthy();
        expect(pinNames().sort()).toEqual(['UT-ANC, Active', 'UT-BUE, Maintenance', 'UT-SYD, Warning']);
        expect(screen.queryByText(T.loading)).toBeNull();
      },
      failed: ({ context }) => {
        const alert = screen.getByRole('alert');
        expect(within(alert).getByText(T.loadError)).toBeTruthy();
        expect(within(alert).getByText(context.error!)).toBeTruthy();
        expect(screen.queryByRole('group', { name: T.mapLabel })).toBeNull();
      },
    },
  },
});

modelSuite(fleetMapModel);

/** The machine with a load the test answers by hand, call by call. */
function startWithDeferredLoads(filter: FleetMapFilter = {}) {
  const calls: { filter: FleetMapFilter; signal: AbortSignal; answer(outcome: LoadOutcome<FleetMap>): void }[] = [];
  const actor = createActor(
    fleetMapMachine.provide({
      actors: {
        loadMap: fromPromise<LoadOutcome<FleetMap>, FleetMapFilter>(({ input, signal }) => new Promise((resolve) => calls.push({ filter: input, signal, answer: resolve }))),
      },
    }),
    { input: { filter } },
  ).start();
  return { actor, calls };
}

describe('fleet map machine (pinned journeys)', () => {
  // Pinned by hand: generated expectations would move with a wrong transition, these do not.
  it('a filter changed while the map loads drops the first answer, even when it comes last', async () => {
    const { actor, calls } = startWithDeferredLoads();
    actor.send({ type: 'filter.change', filter: { status: 'warning' } });
    expect(calls.map((c) => c.filter)).toEqual([{}, { status: 'warning' }]);
    expect(calls[0]!.signal.aborted).toBe(true);

    calls[1]!.answer(ok(WARNINGS));
    await waitFor(actor, (s) => s.matches('ready'));
    calls[0]!.answer(ok(FLEET));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().context).toEqual({ filter: { status: 'warning' }, map: WARNINGS, error: null });
  });

  it('the same filter again loads nothing; another one clears the map until its answer', async () => {
    const { actor, calls } = startWithDeferredLoads({ accountId: 2 });
    calls[0]!.answer(ok(FLEET));
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'filter.change', filter: { accountId: 2, status: undefined } });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(calls).toHaveLength(1);

    actor.send({ type: 'filter.change', filter: { accountId: 2, status: 'warning' } });
    expect(fleetMapView(actor.getSnapshot())).toEqual({ loading: true, error: null, map: null, filter: { accountId: 2, status: 'warning' } });
    expect(calls[1]!.filter).toEqual({ accountId: 2, status: 'warning' });
  });

  it('fails, a filter change from the error loads the new filter, which fails too, and Try Again loads it', async () => {
    const { actor, calls } = startWithDeferredLoads();
    calls[0]!.answer(refused(REFUSAL));
    expect(fleetMapView(await waitFor(actor, (s) => s.matches('failed'))).error).toBe(REFUSAL);
    actor.send({ type: 'filter.change', filter: { customerId: '7d3e9a41-5b2c-4d8e-9f10-2a3b4c5d6e7f' } });
    calls[1]!.answer(refused('Timed out'));
    expect(fleetMapView(await waitFor(actor, (s) => s.matches('failed'))).error).toBe('Timed out');
    actor.send({ type: 'user.retry' });
    expect(calls[2]!.filter).toEqual({ customerId: '7d3e9a41-5b2c-4d8e-9f10-2a3b4c5d6e7f' });
    calls[2]!.answer(ok(FLEET));
    const end = await waitFor(actor, (s) => s.matches('ready'));
    expect(end.context).toEqual({ filter: { customerId: '7d3e9a41-5b2c-4d8e-9f10-2a3b4c5d6e7f' }, map: FLEET, error: null });
  });
});
