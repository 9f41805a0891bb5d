/**
 * The bell in the admin shell's top bar: the count of alerts opened since the admin last
 * looked, read every pollInterval while the tab is visible, and "seen" when the panel opens.
 *
 *   poll.loading   the bell shows what it had (nothing before the first answer)     (tag: loading)
 *   poll.waiting   the count and the panel's newest alerts; the next read is pollInterval away
 *   poll.paused    the tab is hidden: no reads until it shows again (then one at once)
 *
 *   seen.idle      —
 *   seen.marking   the panel was opened with something unread: the badge shows 0 while the
 *                  server records it; the count is read again once it has            (tag: marking)
 *
 * A failed read keeps the last count on screen and says nothing: the bell is on every page, and a
 * page's own errors speak for a server that is down. `alerts.changed` (an acknowledgement on the
 * Alerts page) reads it again at once.
 */
import { assign, fromPromise, raise, setup, stateIn } from 'xstate';
import { ALERT_BELL_POLL_MS, type AlertBellWire } from '../domain/alerts';
import type { LoadOutcome } from './resource';

export type BellOutcome = LoadOutcome<AlertBellWire>;
export type SeenOutcome = LoadOutcome<unknown>;

export interface AlertBellContext {
  bell: AlertBellWire | null;
}

export type AlertBellEvent =
  | { type: 'user.open' }
  | { type: 'page.hidden' }
  | { type: 'page.visible' }
  | { type: 'alerts.changed' }
  | { type: 'bell.seen' };

export const alertBellMachine = setup({
  types: {
    context: {} as AlertBellContext,
    events: {} as AlertBellEvent,
  },
  actors: {
    loadBell: fromPromise<BellOutcome>(async () => {
      throw new Error('loadBell is provided by the app');
    }),
    markSeen: fromPromise<SeenOutcome>(async () => {
      throw new Error('markSeen is provided by the app');
    }),
  },
  delays: {
    pollInterval: ALERT_BELL_POLL_MS,
  },
  actions: {
    storeBell: assign((_, outcome: BellOutcome) => (outcome.ok ? { bell: outcome.data } : {})),
    // An answer read before the server recorded the opening still counts the alerts just seen.
    storeBellSeen: assign((_, outcome: BellOutcome) => (outcome.ok ? { bell: { ...outcome.data, unread: 0 } } : {})),
    clearUnread: assign(({ context }) => (context.bell ? { bell: { ...context.bell, unread: 0 } } : {})),
    announceSeen: raise({ type: 'bell.seen' }),
  },
  guards: {
    hasUnread: ({ context }) => (context.bell?.unread ?? 0) > 0,
    isMarking: stateIn({ seen: 'marking' }),
  },
}).createMachine({
  id: 'alertBell',
  context: { bell: null },
  type: 'parallel',
  states: {
    poll: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loading'],
          on: {
            'page.hidden': 'paused',
            // Re-entering aborts the read under way, which may predate the change.
            'alerts.changed': { target: 'loading', reenter: true },
            'bell.seen': { target: 'loading', reenter: true },
          },
          invoke: {
            id: 'loadBell',
            src: 'loadBell',
            onDone: [
              { guard: 'isMarking', target: 'waiting', actions: { type: 'storeBellSeen', params: ({ event }) => event.output } },
              { target: 'waiting', actions: { type: 'storeBell', params: ({ event }) => event.output } },
            ],
            onError: 'waiting',
          },
        },
        waiting: {
          after: { pollInterval: 'loading' },
          on: { 'page.hidden': 'paused', 'alerts.changed': 'loading', 'bell.seen': 'loading' },
        },
        paused: {
          on: { 'page.visible': 'loading' },
        },
      },
    },
    seen: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'user.open': { guard: 'hasUnread', target: 'marking', actions: 'clearUnread' } },
        },
        marking: {
          tags: ['marking'],
          invoke: {
            id: 'markSeen',
            src: 'markSeen',
            onDone: { target: 'idle', actions: 'announceSeen' },
            onError: 'idle',
          },
        },
      },
    },
  },
});

export type AlertBellMachine = typeof alertBellMachine;
