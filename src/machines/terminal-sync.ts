/**
 * Background sync of the terminals page ("Sync from the provider", spec sections 2, 4 "Background
 * sync" and 8). The terminals page creates it when it opens; a sync runs on the server, so one
 * started here goes on when the page is left, and `checking` finds it again on return.
 *
 *   checking          the page just opened: is a sync already running on the server?
 *                     The sync button is disabled                                      (tag: checking)
 *   idle              "Sync from the provider"; any notice of the last attempt (context.notice)
 *   starting          "Syncing..." on the disabled button                               (tag: busy)
 *   running.waiting   "Syncing..." and the blue "Background Sync Running" card with the
 *                     notice; the next poll is pollInterval (10 s) away          (tags: busy, syncing)
 *   running.polling   the same, while the job is read and the list and counts reload
 *
 * `notice` is the card or banner text: success (started), info (already running, resumed) or
 * error ("Failed to start sync: ..."). It clears when dismissed, when a new sync starts, when the
 * job ends and when polling gives up after pollTimeout (5 minutes).
 */
import { assign, fromPromise, setup } from 'xstate';
import { SYNC_POLL_INTERVAL_MS, SYNC_POLL_TIMEOUT_MS, TERMINAL_MESSAGES, type SyncJob, type SyncQueue } from '../domain/terminals';
import type { LoadOutcome } from './resource';

export type SyncNoticeKind = 'info' | 'success' | 'error';
export interface SyncNotice {
  kind: SyncNoticeKind;
  text: string;
}

export interface TerminalSyncContext {
  /** The job being followed (or last followed); updated by every poll. */
  job: SyncJob | null;
  notice: SyncNotice | null;
}

export type TerminalSyncEvent = { type: 'user.sync' } | { type: 'user.dismissNotice' };

/** `POST /terminals/sync`: `ApiResult<SyncJob>` from the API module fits as it is. */
export type SyncStartOutcome = { ok: true; data: SyncJob; message: string } | { ok: false; message: string };
export type SyncQueueOutcome = LoadOutcome<SyncQueue>;
export type SyncJobOutcome = LoadOutcome<SyncJob>;

const isUnderway = (job: SyncJob | null | undefined): job is SyncJob => job?.status === 'queued' || job?.status === 'running';
const isAlreadyRunning = (message: string) => message.toLowerCase().includes(TERMINAL_MESSAGES.alreadyRunningMarker);

export const terminalSyncMachine = setup({
  types: {
    context: {} as TerminalSyncContext,
    events: {} as TerminalSyncEvent,
  },
  actors: {
    loadQueue: fromPromise<SyncQueueOutcome>(async () => {
      throw new Error('loadQueue is provided by the app');
    }),
    startSync: fromPromise<SyncStartOutcome>(async () => {
      throw new Error('startSync is provided by the app');
    }),
    /** Input: the job id. */
    pollJob: fromPromise<SyncJobOutcome, string>(async () => {
      throw new Error('pollJob is provided by the app');
    }),
  },
  delays: {
    pollInterval: SYNC_POLL_INTERVAL_MS,
    pollTimeout: SYNC_POLL_TIMEOUT_MS,
  },
  actions: {
    resumeJob: assign((_, job: SyncJob) => ({ job, notice: { kind: 'info' as const, text: TERMINAL_MESSAGES.syncStarted } })),
    storeStarted: assign((_, outcome: SyncStartOutcome) =>
      outcome.ok ? { job: outcome.data, notice: { kind: 'success' as const, text: outcome.message || TERMINAL_MESSAGES.syncStarted } } : {},
    ),
    storeAlreadyRunning: assign({ notice: { kind: 'info', text: TERMINAL_MESSAGES.syncAlreadyRunning } }),
    storeStartFailure: assign((_, message: string) => ({
      notice: { kind: 'error' as const, text: TERMINAL_MESSAGES.syncFailed(message || TERMINAL_MESSAGES.unknownError) },
    })),
    storeJob: assign((_, outcome: SyncJobOutcome) => (outcome.ok ? { job: outcome.data } : {})),
    clearNotice: assign({ notice: null }),
    /** The list and the sync counts load again (every poll). */
    reloadList: () => {},
    /** The job ended (succeeded or failed): the route may toast and reload. */
    notifyFinished: (_, _job: SyncJob) => {},
  },
  guards: {
    hasActiveJob: (_, outcome: SyncQueueOutcome) => outcome.ok && isUnderway(outcome.data.active),
    isStarted: (_, outcome: SyncStartOutcome) => outcome.ok,
    isAlreadyRunning: (_, outcome: SyncStartOutcome) => !outcome.ok && isAlreadyRunning(outcome.message),
    isFinished: (_, outcome: SyncJobOutcome) => outcome.ok && !isUnderway(outcome.data),
    hasNotice: ({ context }) => context.notice !== null,
  },
}).createMachine({
  id: 'terminalSync',
  context: { job: null, notice: null },
  initial: 'checking',
  on: { 'user.dismissNotice': { guard: 'hasNotice', actions: 'clearNotice' } },
  states: {
    checking: {
      tags: ['checking'],
      invoke: {
        id: 'loadQueue',
        src: 'loadQueue',
        onDone: [
          {
            guard: { type: 'hasActiveJob', params: ({ event }) => event.output },
            target: 'running',
            actions: { type: 'resumeJob', params: ({ event }) => (event.output as Extract<SyncQueueOutcome, { ok: true }>).data.active! },
          },
          { target: 'idle' },
        ],
        // Not knowing is the same as nothing running: the button works, and a 409 will say so.
        onError: 'idle',
      },
    },
    idle: {
      on: { 'user.sync': 'starting' },
    },
    starting: {
      tags: ['busy'],
      entry: 'clearNotice',
      invoke: {
        id: 'startSync',
        src: 'startSync',
        onDone: [
          {
            guard: { type: 'isStarted', params: ({ event }) => event.output },
            target: 'running',
            actions: { type: 'storeStarted', params: ({ event }) => event.output },
          },
          // Spec 4: someone else's sync is information, not an error, and the page stays idle.
          {
            guard: { type: 'isAlreadyRunning', params: ({ event }) => event.output },
            target: 'idle',
            actions: 'storeAlreadyRunning',
          },
          {
            target: 'idle',
            actions: { type: 'storeStartFailure', params: ({ event }) => (event.output.ok ? '' : event.output.message) },
          },
        ],
        onError: { target: 'idle', actions: { type: 'storeStartFailure', params: TERMINAL_MESSAGES.unknownError } },
      },
    },
    running: {
      tags: ['busy', 'syncing'],
      initial: 'waiting',
      // Spec 4: after 5 minutes polling stops and the notice clears, whatever the job is doing.
      after: { pollTimeout: { target: 'idle', actions: 'clearNotice' } },
      states: {
        waiting: {
          after: { pollInterval: 'polling' },
        },
        polling: {
          entry: 'reloadList',
          invoke: {
            id: 'pollJob',
            src: 'pollJob',
            input: ({ context }) => context.job!.id,
            onDone: [
              {
                guard: { type: 'isFinished', params: ({ event }) => event.output },
                target: '#terminalSync.idle',
                actions: [
                  { type: 'storeJob', params: ({ event }) => event.output },
                  'clearNotice',
                  { type: 'notifyFinished', params: ({ event }) => (event.output as Extract<SyncJobOutcome, { ok: true }>).data },
                ],
              },
              // Still under way, or this poll was refused: the next one is pollInterval away.
              { target: 'waiting', actions: { type: 'storeJob', params: ({ event }) => event.output } },
            ],
            // A poll that got no answer is retried the same way; pollTimeout bounds the retries.
            onError: 'waiting',
          },
        },
      },
    },
  },
});

export type TerminalSyncMachine = typeof terminalSyncMachine;
