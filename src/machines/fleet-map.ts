/**
 * The fleet map (/terminals/map): every live terminal the filter (customer, status, provider
 * account) matches, placed by its service address.
 *
 *   loading   the base map and "Loading the fleet...", no pins                    (tag: loading)
 *   ready     the pins and clusters, and the terminals that have no location
 *   failed    the error card with Try Again
 *
 * The filter lives in the page's address; when the address changes it the page sends
 * `filter.change`, and the map loads again from whichever state it is in. A load still running is
 * stopped with its request, so a late answer for the old filter never replaces the new one.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { sameFilter } from '../domain/fleet-map';
import type { FleetMap, FleetMapFilter } from '../domain/telemetry-history';
import { FALLBACK_LOAD_ERROR, type LoadOutcome } from './resource';

export interface FleetMapContext {
  filter: FleetMapFilter;
  /** The answer for `filter`; null until it is in. */
  map: FleetMap | null;
  error: string | null;
}

export type FleetMapEvent = { type: 'filter.change'; filter: FleetMapFilter } | { type: 'user.retry' };

export interface FleetMapInput {
  filter?: FleetMapFilter;
}

export const fleetMapMachine = setup({
  types: {
    context: {} as FleetMapContext,
    events: {} as FleetMapEvent,
    input: {} as FleetMapInput | undefined,
  },
  actors: {
    loadMap: fromPromise<LoadOutcome<FleetMap>, FleetMapFilter>(async () => {
      throw new Error('loadMap is provided by the app');
    }),
  },
  actions: {
    // The pins of the old filter go at once: a map that shows them under the new filter would say
    // something false until the answer comes.
    storeFilter: assign((_, filter: FleetMapFilter) => ({ filter, map: null, error: null })),
    storeMap: assign((_, outcome: LoadOutcome<FleetMap>) => (outcome.ok ? { map: outcome.data, error: null } : {})),
    storeError: assign((_, outcome: LoadOutcome<FleetMap>) => ({ error: outcome.ok ? null : outcome.message })),
    storeFallbackError: assign({ error: FALLBACK_LOAD_ERROR }),
  },
  guards: {
    isLoaded: (_, outcome: LoadOutcome<FleetMap>) => outcome.ok,
    isNewFilter: ({ context }, filter: FleetMapFilter) => !sameFilter(context.filter, filter),
  },
}).createMachine({
  id: 'fleetMap',
  context: ({ input }) => ({ filter: input?.filter ?? {}, map: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      on: {
        // Entering loading again stops the load under way: its answer, if it still comes, is dropped.
        'filter.change': {
          guard: { type: 'isNewFilter', params: ({ event }) => event.filter },
          target: 'loading',
          reenter: true,
          actions: { type: 'storeFilter', params: ({ event }) => event.filter },
        },
      },
      invoke: {
        id: 'loadMap',
        src: 'loadMap',
        input: ({ context }) => context.filter,
        onDone: [
          {
            guard: { type: 'isLoaded', params: ({ event }) => event.output },
            target: 'ready',
            actions: { type: 'storeMap', params: ({ event }) => event.output },
          },
          { target: 'failed', actions: { type: 'storeError', params: ({ event }) => event.output } },
        ],
        onError: { target: 'failed', actions: 'storeFallbackError' },
      },
    },
    ready: {
      on: {
        'filter.change': {
          guard: { type: 'isNewFilter', params: ({ event }) => event.filter },
          target: 'loading',
          actions: { type: 'storeFilter', params: ({ event }) => event.filter },
        },
      },
    },
    failed: {
      on: {
        'user.retry': 'loading',
        'filter.change': {
          guard: { type: 'isNewFilter', params: ({ event }) => event.filter },
          target: 'loading',
          actions: { type: 'storeFilter', params: ({ event }) => event.filter },
        },
      },
    },
  },
});

export type FleetMapMachine = typeof fleetMapMachine;

/** What the page shows, from the snapshot alone. */
export interface FleetMapView {
  loading: boolean;
  /** The failure's words while the error card shows; null otherwise. */
  error: string | null;
  /** The answer while it is shown. */
  map: FleetMap | null;
  filter: FleetMapFilter;
}

export function fleetMapView(snapshot: SnapshotFrom<FleetMapMachine>): FleetMapView {
  return {
    loading: snapshot.hasTag('loading'),
    error: snapshot.matches('failed') ? (snapshot.context.error ?? FALLBACK_LOAD_ERROR) : null,
    map: snapshot.matches('ready') ? snapshot.context.map : null,
    filter: snapshot.context.filter,
  };
}
