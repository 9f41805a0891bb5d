/**
 * A terminal's telemetry over time: the Telemetry tab of Terminal Details (admin) and of the
 * customer's own terminal page. One range's history at a time, 24 hours first.
 *
 *   loading   the range buttons, the chosen one pressed, and "Loading telemetry..."; nothing of
 *             another range on screen                                               (tag: loading)
 *   ready     the range's charts and outage timeline, or "No readings" when it holds no point
 *   failed    the server's message (or the network's) with Try Again
 *
 * Choosing another range asks for it from wherever the tab is. While a range loads, choosing
 * another cancels the request under way: its answer, should it still come, goes with the actor
 * that asked and never reaches the screen.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { DEFAULT_TELEMETRY_RANGE, type TelemetryHistoryView, type TelemetryHistoryWire, type TelemetryRange } from '../domain/telemetry-history';

export type { TelemetryHistoryView };
import { FALLBACK_LOAD_ERROR, type LoadOutcome } from './resource';

export interface TelemetryHistoryInput {
  /** The terminal as the page's endpoint names it (the admin's userTerminalId, the customer's terminalId). */
  terminalId: string;
  /** The range shown first; 24 hours when missing. */
  range?: TelemetryRange;
}

/** What `loadHistory` is asked for. */
export interface TelemetryHistoryRequest {
  terminalId: string;
  range: TelemetryRange;
}

export interface TelemetryHistoryContext {
  terminalId: string;
  /** The range chosen: the one loading, shown or failed. */
  range: TelemetryRange;
  /** The chosen range's answer; null until it came. */
  history: TelemetryHistoryWire | null;
  /** Why the chosen range could not be loaded. */
  error: string | null;
}

export type TelemetryHistoryEvent = { type: 'user.selectRange'; range: TelemetryRange } | { type: 'user.retry' };

export type TelemetryHistoryOutcome = LoadOutcome<TelemetryHistoryWire>;

const rangeOf = ({ event }: { event: { range: TelemetryRange } }) => event.range;

export const telemetryHistoryMachine = setup({
  types: {
    context: {} as TelemetryHistoryContext,
    events: {} as TelemetryHistoryEvent,
    input: {} as TelemetryHistoryInput,
  },
  actors: {
    loadHistory: fromPromise<TelemetryHistoryOutcome, TelemetryHistoryRequest>(async () => {
      throw new Error('loadHistory is provided by the app');
    }),
  },
  actions: {
    // Another range's charts never show under this one's button.
    storeRange: assign((_, range: TelemetryRange) => ({ range, history: null, error: null })),
    storeHistory: assign((_, outcome: TelemetryHistoryOutcome) => (outcome.ok ? { history: outcome.data, error: null } : {})),
    storeError: assign((_, message: string) => ({ history: null, error: message.trim() || FALLBACK_LOAD_ERROR })),
  },
  guards: {
    isLoaded: (_, outcome: TelemetryHistoryOutcome) => outcome.ok,
    isOtherRange: ({ context }, range: TelemetryRange) => range !== context.range,
  },
}).createMachine({
  id: 'telemetryHistory',
  context: ({ input }) => ({ terminalId: input.terminalId, range: input.range ?? DEFAULT_TELEMETRY_RANGE, history: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      on: {
        // Re-entering restarts the request for the new range; the one under way is aborted.
        'user.selectRange': {
          guard: { type: 'isOtherRange', params: rangeOf },
          target: 'loading',
          reenter: true,
          actions: { type: 'storeRange', params: rangeOf },
        },
      },
      invoke: {
        id: 'loadHistory',
        src: 'loadHistory',
        input: ({ context }) => ({ terminalId: context.terminalId, range: context.range }),
        onDone: [
          {
            guard: { type: 'isLoaded', params: ({ event }) => event.output },
            target: 'ready',
            actions: { type: 'storeHistory', params: ({ event }) => event.output },
          },
          { target: 'failed', actions: { type: 'storeError', params: ({ event }) => (event.output.ok ? '' : event.output.message) } },
        ],
        onError: { target: 'failed', actions: { type: 'storeError', params: '' } },
      },
    },
    ready: {
      on: {
        'user.selectRange': { guard: { type: 'isOtherRange', params: rangeOf }, target: 'loading', actions: { type: 'storeRange', params: rangeOf } },
      },
    },
    failed: {
      on: {
        'user.retry': 'loading',
        // After a failure any range asks again, the same one included.
        'user.selectRange': { target: 'loading', actions: { type: 'storeRange', params: rangeOf } },
      },
    },
  },
});

export type TelemetryHistoryMachine = typeof telemetryHistoryMachine;

export function telemetryHistoryView(snapshot: SnapshotFrom<TelemetryHistoryMachine>): TelemetryHistoryView {
  const history = snapshot.matches('ready') ? snapshot.context.history : null;
  return {
    range: snapshot.context.range,
    loading: snapshot.hasTag('loading'),
    history,
    empty: history !== null && history.points.length === 0,
    error: snapshot.matches('failed') ? snapshot.context.error : null,
    canRetry: snapshot.can({ type: 'user.retry' }),
  };
}

/** For a selector: the same view when every field is the same. */
export const sameTelemetryHistoryView = (a: TelemetryHistoryView, b: TelemetryHistoryView): boolean =>
  (Object.keys(a) as (keyof TelemetryHistoryView)[]).every((key) => a[key] === b[key]);
